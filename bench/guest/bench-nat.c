// SPDX-License-Identifier: GPL-2.0
/*
 * bench-nat: the guest's NAT for `make bench`'s route-nat rows.
 *
 *   bench-nat masquerade IFNAME
 *	what `nft add table ip bench; nft add chain ip bench post { type
 *	nat hook postrouting priority srcnat; }; nft add rule ip bench post
 *	oif IFNAME masquerade` does, in one nf_tables netlink batch: the
 *	guest's rootfs has no nft (nor iptables), and the kernel's nf_tables
 *	is built in. Prints nothing and exits 0 once the kernel took all
 *	three, or prints the kernel's error and exits 1.
 *   bench-nat flush
 *	delete the table again.
 */

#include <errno.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netlink.h>

#define TABLE "bench"
#define CHAIN "post"

static char buf[4096];
static size_t len;
static size_t nests[8];
static int depth;
static uint32_t seq;
static int acks;

static void *put(const void *data, size_t n)
{
	void *p = buf + len;

	if (len + NLMSG_ALIGN(n) > sizeof(buf)) {
		fprintf(stderr, "bench-nat: message too long\n");
		exit(1);
	}
	memset(p, 0, NLMSG_ALIGN(n));
	if (data)
		memcpy(p, data, n);
	len += NLMSG_ALIGN(n);
	return p;
}

/* A message of nfnetlink subsystem nf_tables (or a batch marker) */
static void msg_begin(uint16_t type, uint16_t flags, uint8_t family,
		      uint16_t res_id)
{
	struct nlmsghdr *nh;
	struct nfgenmsg *nf;

	nests[depth++] = len;
	nh = put(NULL, sizeof(*nh));
	nh->nlmsg_type = type;
	nh->nlmsg_flags = NLM_F_REQUEST | flags;
	nh->nlmsg_seq = ++seq;
	nf = put(NULL, sizeof(*nf));
	nf->nfgen_family = family;
	nf->version = NFNETLINK_V0;
	nf->res_id = htons(res_id);
	if (flags & NLM_F_ACK)
		acks++;
}

static void msg_end(void)
{
	size_t at = nests[--depth];

	((struct nlmsghdr *)(buf + at))->nlmsg_len = len - at;
}

static void attr(uint16_t type, const void *data, size_t n)
{
	struct nlattr *a = put(NULL, NLA_HDRLEN + n);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + n;
	memcpy((char *)a + NLA_HDRLEN, data, n);
}

static void attr_str(uint16_t type, const char *s)
{
	attr(type, s, strlen(s) + 1);
}

static void attr_be32(uint16_t type, uint32_t v)
{
	v = htonl(v);
	attr(type, &v, sizeof(v));
}

static void nest_begin(uint16_t type)
{
	struct nlattr *a;

	nests[depth++] = len;
	a = put(NULL, NLA_HDRLEN);
	a->nla_type = type | NLA_F_NESTED;
}

static void nest_end(void)
{
	size_t at = nests[--depth];

	((struct nlattr *)(buf + at))->nla_len = len - at;
}

static void table_msg(uint16_t cmd, uint16_t flags)
{
	msg_begin(NFNL_SUBSYS_NFTABLES << 8 | cmd, NLM_F_ACK | flags,
		  NFPROTO_IPV4, 0);
	attr_str(NFTA_TABLE_NAME, TABLE);
	msg_end();
}

/* The batch in buf to the kernel; 0 once every message is acknowledged */
static int send_batch(void)
{
	static char rbuf[8192];
	int fd, ret = 0;

	fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER);
	if (fd < 0) {
		perror("bench-nat: socket");
		return 1;
	}
	if (send(fd, buf, len, 0) < 0) {
		perror("bench-nat: send");
		close(fd);
		return 1;
	}
	while (acks > 0) {
		struct nlmsghdr *nh;
		ssize_t n = recv(fd, rbuf, sizeof(rbuf), 0);

		if (n < 0) {
			perror("bench-nat: recv");
			ret = 1;
			break;
		}
		for (nh = (struct nlmsghdr *)rbuf; NLMSG_OK(nh, n);
		     nh = NLMSG_NEXT(nh, n)) {
			struct nlmsgerr *e = NLMSG_DATA(nh);

			if (nh->nlmsg_type != NLMSG_ERROR)
				continue;
			acks--;
			if (e->error) {
				fprintf(stderr, "bench-nat: message %u: %s\n",
					nh->nlmsg_seq, strerror(-e->error));
				ret = 1;
				acks = 0;
			}
		}
	}
	close(fd);
	return ret;
}

static void batch_begin(void)
{
	msg_begin(NFNL_MSG_BATCH_BEGIN, 0, AF_UNSPEC, NFNL_SUBSYS_NFTABLES);
	msg_end();
}

static void batch_end(void)
{
	msg_begin(NFNL_MSG_BATCH_END, 0, AF_UNSPEC, NFNL_SUBSYS_NFTABLES);
	msg_end();
}

static int masquerade(const char *ifname)
{
	uint32_t ifindex = if_nametoindex(ifname);

	if (!ifindex) {
		fprintf(stderr, "bench-nat: %s: %s\n", ifname, strerror(errno));
		return 1;
	}
	batch_begin();
	table_msg(NFT_MSG_NEWTABLE, NLM_F_CREATE);

	msg_begin(NFNL_SUBSYS_NFTABLES << 8 | NFT_MSG_NEWCHAIN,
		  NLM_F_ACK | NLM_F_CREATE, NFPROTO_IPV4, 0);
	attr_str(NFTA_CHAIN_TABLE, TABLE);
	attr_str(NFTA_CHAIN_NAME, CHAIN);
	nest_begin(NFTA_CHAIN_HOOK);
	attr_be32(NFTA_HOOK_HOOKNUM, NF_INET_POST_ROUTING);
	attr_be32(NFTA_HOOK_PRIORITY, 100);	/* srcnat */
	nest_end();
	attr_be32(NFTA_CHAIN_POLICY, NF_ACCEPT);
	attr_str(NFTA_CHAIN_TYPE, "nat");
	msg_end();

	msg_begin(NFNL_SUBSYS_NFTABLES << 8 | NFT_MSG_NEWRULE,
		  NLM_F_ACK | NLM_F_CREATE | NLM_F_APPEND, NFPROTO_IPV4, 0);
	attr_str(NFTA_RULE_TABLE, TABLE);
	attr_str(NFTA_RULE_CHAIN, CHAIN);
	nest_begin(NFTA_RULE_EXPRESSIONS);
	/* meta load oif => reg 1 */
	nest_begin(NFTA_LIST_ELEM);
	attr_str(NFTA_EXPR_NAME, "meta");
	nest_begin(NFTA_EXPR_DATA);
	attr_be32(NFTA_META_KEY, NFT_META_OIF);
	attr_be32(NFTA_META_DREG, NFT_REG_1);
	nest_end();
	nest_end();
	/* cmp eq reg 1 ifindex (host order, as the kernel stores it) */
	nest_begin(NFTA_LIST_ELEM);
	attr_str(NFTA_EXPR_NAME, "cmp");
	nest_begin(NFTA_EXPR_DATA);
	attr_be32(NFTA_CMP_SREG, NFT_REG_1);
	attr_be32(NFTA_CMP_OP, NFT_CMP_EQ);
	nest_begin(NFTA_CMP_DATA);
	attr(NFTA_DATA_VALUE, &ifindex, sizeof(ifindex));
	nest_end();
	nest_end();
	nest_end();
	/* masq */
	nest_begin(NFTA_LIST_ELEM);
	attr_str(NFTA_EXPR_NAME, "masq");
	nest_end();
	nest_end();
	msg_end();

	batch_end();
	return send_batch();
}

static int flush(void)
{
	batch_begin();
	table_msg(NFT_MSG_DELTABLE, 0);
	batch_end();
	return send_batch();
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "masquerade"))
		return masquerade(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "flush"))
		return flush();
	fprintf(stderr, "usage: bench-nat masquerade IFNAME\n"
		"       bench-nat flush\n");
	return 2;
}
