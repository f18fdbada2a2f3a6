// SPDX-License-Identifier: GPL-2.0
/*
 * msend and mreceive, the two multicast test tools of mtools 3.x
 * (https://github.com/troglobit/mtools) as the kernel's selftests call
 * them (tools/testing/selftests/net/forwarding/lib.sh: mc_join(), mc_send(),
 * check_mtools_version()). mtools is not packaged in Debian; this is a
 * small reimplementation of the command lines and the packets, not a copy.
 * One binary; what it does follows the name it is started under.
 *
 *   msend [-46hnqv] [-c NUM] [-g GROUP] [-p PORT] [-join] [-t TTL]
 *         [-i ADDRESS] [-I INTERFACE] [-P PERIOD] [-text TEXT]
 *       UDP datagrams to GROUP:PORT (224.1.1.1 or ff2e::1, port 4444),
 *       TTL/hop limit 1, multicast loopback on, one every PERIOD ms
 *       (1000; 0: back to back), NUM of them (default: until killed). The
 *       payload is TEXT and its NUL (or, with -n, the 32-bit message
 *       number). The first is sent at once.
 *   mreceive [-46hnqv] [-g GROUP] [-p PORT] [-i ADDRESS]... [-I INTERFACE]
 *         [-s SOURCE]
 *       joins GROUP on INTERFACE (or on the interfaces of the -i
 *       addresses), source-specific with -s, and prints what arrives at
 *       PORT until killed.
 *   -v prints "msend version 3.0" (or mreceive ...), which lib.sh checks.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define VERSION		"3.0"
#define DEFAULT_GROUP4	"224.1.1.1"
#define DEFAULT_GROUP6	"ff2e::1"
#define DEFAULT_PORT	4444
#define MAX_IFADDRS	16

struct addr {
	int family;
	union {
		struct in_addr v4;
		struct in6_addr v6;
	};
};

struct opts {
	const char *prog;
	int family;		/* forced by -4/-6, else 0 */
	const char *group;
	unsigned int port;
	const char *ifname;
	const char *ifaddr[MAX_IFADDRS];
	int n_ifaddr;
	const char *source;
	const char *text;
	bool join, numeric, quiet;
	int ttl;
	long period_ms;
	long count;		/* 0: until killed */
};

static void usage(const struct opts *o, FILE *f)
{
	if (!strcmp(o->prog, "msend"))
		fprintf(f, "Usage: msend [-46hnqv] [-c NUM] [-g GROUP] [-p PORT] [-join] [-t TTL]\n"
			"             [-i ADDRESS] [-I INTERFACE] [-P PERIOD] [-text TEXT]\n");
	else
		fprintf(f, "Usage: mreceive [-46hnqv] [-g GROUP] [-p PORT] [-i ADDRESS]...\n"
			"                [-I INTERFACE] [-s SOURCE]\n");
}

static int parse_addr(const char *s, struct addr *a)
{
	if (inet_pton(AF_INET, s, &a->v4) == 1) {
		a->family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, s, &a->v6) == 1) {
		a->family = AF_INET6;
		return 0;
	}
	fprintf(stderr, "%s: not an IP address\n", s);
	return -1;
}

/* The interface index of the interface that holds @a, or 0. */
static unsigned int ifindex_of_addr(const struct addr *a)
{
	struct ifaddrs *list, *i;
	unsigned int idx = 0;

	if (getifaddrs(&list))
		return 0;
	for (i = list; i && !idx; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != a->family)
			continue;
		if (a->family == AF_INET &&
		    ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr ==
		    a->v4.s_addr)
			idx = if_nametoindex(i->ifa_name);
		if (a->family == AF_INET6 &&
		    !memcmp(&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr,
			    &a->v6, sizeof(a->v6)))
			idx = if_nametoindex(i->ifa_name);
	}
	freeifaddrs(list);
	return idx;
}

static int die_errno(const char *what)
{
	perror(what);
	return 1;
}

/* Join @grp on interface @ifindex (0: the kernel picks), from @src if set. */
static int join(int fd, const struct addr *grp, unsigned int ifindex,
		const struct addr *src)
{
	struct group_source_req gsr = { .gsr_interface = ifindex };
	struct group_req gr = { .gr_interface = ifindex };
	int level = grp->family == AF_INET ? IPPROTO_IP : IPPROTO_IPV6;
	struct sockaddr_storage *g = src ? &gsr.gsr_group : &gr.gr_group;

	if (grp->family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)g;

		sin->sin_family = AF_INET;
		sin->sin_addr = grp->v4;
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)g;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = grp->v6;
	}
	if (!src)
		return setsockopt(fd, level, MCAST_JOIN_GROUP, &gr, sizeof(gr));
	if (src->family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&gsr.gsr_source;

		sin->sin_family = AF_INET;
		sin->sin_addr = src->v4;
	} else {
		struct sockaddr_in6 *sin6 =
			(struct sockaddr_in6 *)&gsr.gsr_source;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = src->v6;
	}
	return setsockopt(fd, level, MCAST_JOIN_SOURCE_GROUP, &gsr,
			  sizeof(gsr));
}

static int open_socket(const struct opts *o, const struct addr *grp,
		       unsigned int *ifindex)
{
	int fd = socket(grp->family, SOCK_DGRAM, 0);
	int one = 1;

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	*ifindex = 0;
	if (o->ifname) {
		*ifindex = if_nametoindex(o->ifname);
		if (!*ifindex) {
			fprintf(stderr, "%s: no interface %s\n", o->prog,
				o->ifname);
			close(fd);
			errno = ENODEV;
			return -1;
		}
		/*
		 * Bound to the interface, as mtools does: the route lookup
		 * then starts there, also for a port enslaved to a VRF
		 * (lib.sh runs the tools with `ip vrf exec`).
		 */
		if (setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, o->ifname,
			       strlen(o->ifname))) {
			close(fd);
			return -1;
		}
	} else if (o->n_ifaddr) {
		struct addr a;

		if (parse_addr(o->ifaddr[0], &a) || a.family != grp->family) {
			close(fd);
			errno = EINVAL;
			return -1;
		}
		*ifindex = ifindex_of_addr(&a);
	}
	return fd;
}

static int do_msend(const struct opts *o, const struct addr *grp)
{
	struct sockaddr_storage to = { 0 };
	unsigned int ifindex;
	socklen_t tolen;
	char payload[1024];
	size_t len;
	long i;
	int fd;

	fd = open_socket(o, grp, &ifindex);
	if (fd < 0)
		return die_errno("socket");
	if (o->join && join(fd, grp, ifindex, NULL))
		return die_errno("join");
	if (grp->family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&to;
		struct ip_mreqn mreq = { .imr_ifindex = (int)ifindex };
		unsigned char ttl = (unsigned char)o->ttl, loop = 1;

		if (ifindex &&
		    setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &mreq,
			       sizeof(mreq)))
			return die_errno("IP_MULTICAST_IF");
		if (setsockopt(fd, IPPROTO_IP, IP_MULTICAST_TTL, &ttl,
			       sizeof(ttl)) ||
		    setsockopt(fd, IPPROTO_IP, IP_MULTICAST_LOOP, &loop,
			       sizeof(loop)))
			return die_errno("setsockopt");
		sin->sin_family = AF_INET;
		sin->sin_addr = grp->v4;
		sin->sin_port = htons(o->port);
		tolen = sizeof(*sin);
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&to;
		int hops = o->ttl, loop = 1;

		if (ifindex &&
		    setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_IF, &ifindex,
			       sizeof(ifindex)))
			return die_errno("IPV6_MULTICAST_IF");
		if (setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_HOPS, &hops,
			       sizeof(hops)) ||
		    setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_LOOP, &loop,
			       sizeof(loop)))
			return die_errno("setsockopt");
		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = grp->v6;
		sin6->sin6_port = htons(o->port);
		tolen = sizeof(*sin6);
	}

	if (!o->quiet)
		printf("Now sending to multicast group: %s\n", o->group);
	for (i = 1; !o->count || i <= o->count; i++) {
		if (o->numeric) {
			uint32_t n = (uint32_t)i;

			memcpy(payload, &n, sizeof(n));
			len = sizeof(n);
		} else {
			len = strlen(o->text) + 1;
			memcpy(payload, o->text, len);
		}
		if (!o->quiet) {
			printf("Sending msg %ld, TTL %d, to %s:%u: %s\n", i,
			       o->ttl, o->group, o->port,
			       o->numeric ? "" : o->text);
			fflush(stdout);
		}
		if (sendto(fd, payload, len, 0, (struct sockaddr *)&to,
			   tolen) < 0)
			return die_errno("sendto");
		if (o->count && i == o->count)
			break;
		if (o->period_ms > 0) {
			struct timespec ts = {
				.tv_sec = o->period_ms / 1000,
				.tv_nsec = (o->period_ms % 1000) * 1000000L,
			};

			while (nanosleep(&ts, &ts) && errno == EINTR)
				;
		}
	}
	close(fd);
	return 0;
}

static int do_mreceive(const struct opts *o, const struct addr *grp)
{
	struct sockaddr_storage local = { 0 }, from;
	struct addr src, *srcp = NULL;
	unsigned int ifindex;
	char buf[2048], name[INET6_ADDRSTRLEN];
	socklen_t fromlen;
	long n = 0;
	ssize_t len;
	int fd, k;

	if (o->source) {
		if (parse_addr(o->source, &src) || src.family != grp->family)
			return 1;
		srcp = &src;
	}
	fd = open_socket(o, grp, &ifindex);
	if (fd < 0)
		return die_errno("socket");
	/* The wildcard address and PORT, as mtools binds. */
	if (grp->family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&local;

		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(INADDR_ANY);
		sin->sin_port = htons(o->port);
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&local;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = in6addr_any;
		sin6->sin6_port = htons(o->port);
	}
	if (bind(fd, (struct sockaddr *)&local, grp->family == AF_INET ?
		 sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6)))
		return die_errno("bind");
	if (o->n_ifaddr > 1 && !o->ifname) {
		/* One membership per -i address. */
		for (k = 0; k < o->n_ifaddr; k++) {
			struct addr a;

			if (parse_addr(o->ifaddr[k], &a))
				return 1;
			if (join(fd, grp, ifindex_of_addr(&a), srcp))
				return die_errno("join");
		}
	} else if (join(fd, grp, ifindex, srcp)) {
		return die_errno("join");
	}
	if (!o->quiet) {
		printf("Now receiving from multicast group: %s\n", o->group);
		fflush(stdout);
	}
	for (;;) {
		fromlen = sizeof(from);
		len = recvfrom(fd, buf, sizeof(buf) - 1, 0,
			       (struct sockaddr *)&from, &fromlen);
		if (len < 0) {
			if (errno == EINTR)
				continue;
			return die_errno("recvfrom");
		}
		n++;
		if (o->quiet)
			continue;
		if (from.ss_family == AF_INET)
			inet_ntop(AF_INET,
				  &((struct sockaddr_in *)&from)->sin_addr,
				  name, sizeof(name));
		else
			inet_ntop(AF_INET6,
				  &((struct sockaddr_in6 *)&from)->sin6_addr,
				  name, sizeof(name));
		buf[len] = '\0';
		if (o->numeric && len >= 4) {
			uint32_t num;

			memcpy(&num, buf, sizeof(num));
			printf("Receive msg %ld from %s: %u\n", n, name, num);
		} else {
			printf("Receive msg %ld from %s: %s\n", n, name, buf);
		}
		fflush(stdout);
	}
}

/* The value of option @argv[*i]; exits when there is none. */
static const char *value(const struct opts *o, int argc, char **argv, int *i)
{
	if (*i + 1 >= argc) {
		fprintf(stderr, "%s: %s needs a value\n", o->prog, argv[*i]);
		exit(1);
	}
	return argv[++*i];
}

/* The number of option @argv[*i], within @min and @max; exits if not. */
static long number(const struct opts *o, int argc, char **argv, int *i,
		   long min, long max)
{
	const char *v = value(o, argc, argv, i);
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || end == v || *end || n < min || n > max) {
		fprintf(stderr, "%s: bad value %s for %s\n", o->prog, v,
			argv[*i - 1]);
		exit(1);
	}
	return n;
}

int main(int argc, char **argv)
{
	struct opts o = {
		.port = DEFAULT_PORT, .ttl = 1, .period_ms = 1000, .text = "",
	};
	struct addr grp;
	bool sender;
	int i;

	o.prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	sender = !strcmp(o.prog, "msend");
	if (!sender && strcmp(o.prog, "mreceive")) {
		fprintf(stderr, "%s: start me as msend or mreceive\n", o.prog);
		return 2;
	}

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-v")) {
			printf("%s version %s\n", o.prog, VERSION);
			return 0;
		} else if (!strcmp(a, "-h")) {
			usage(&o, stdout);
			return 0;
		} else if (!strcmp(a, "-4")) {
			o.family = AF_INET;
		} else if (!strcmp(a, "-6")) {
			o.family = AF_INET6;
		} else if (!strcmp(a, "-n")) {
			o.numeric = true;
		} else if (!strcmp(a, "-q")) {
			o.quiet = true;
		} else if (!strcmp(a, "-g")) {
			o.group = value(&o, argc, argv, &i);
		} else if (!strcmp(a, "-I")) {
			o.ifname = value(&o, argc, argv, &i);
		} else if (!strcmp(a, "-p")) {
			o.port = (unsigned int)number(&o, argc, argv, &i, 0,
						      65535);
		} else if (!strcmp(a, "-i")) {
			if (o.n_ifaddr == (sender ? 1 : MAX_IFADDRS)) {
				fprintf(stderr, "%s: too many -i\n", o.prog);
				return 1;
			}
			o.ifaddr[o.n_ifaddr++] = value(&o, argc, argv, &i);
		} else if (sender && !strcmp(a, "-join")) {
			o.join = true;
		} else if (sender && !strcmp(a, "-t")) {
			o.ttl = (int)number(&o, argc, argv, &i, 1, 255);
		} else if (sender && !strcmp(a, "-P")) {
			o.period_ms = number(&o, argc, argv, &i, 0, 3600000);
		} else if (sender && !strcmp(a, "-c")) {
			o.count = number(&o, argc, argv, &i, 0, 1L << 30);
		} else if (sender && !strcmp(a, "-text")) {
			o.text = value(&o, argc, argv, &i);
		} else if (!sender && !strcmp(a, "-s")) {
			o.source = value(&o, argc, argv, &i);
		} else {
			fprintf(stderr, "%s: unknown option %s\n", o.prog, a);
			usage(&o, stderr);
			return 1;
		}
	}

	if (!o.group)
		o.group = o.family == AF_INET6 ? DEFAULT_GROUP6 : DEFAULT_GROUP4;
	if (parse_addr(o.group, &grp))
		return 1;
	if (o.family && grp.family != o.family) {
		fprintf(stderr, "%s: %s is not an IPv%c group\n", o.prog,
			o.group, o.family == AF_INET ? '4' : '6');
		return 1;
	}
	if (grp.family == AF_INET ? !IN_MULTICAST(ntohl(grp.v4.s_addr)) :
	    !IN6_IS_ADDR_MULTICAST(&grp.v6)) {
		fprintf(stderr, "%s: %s is not a multicast group\n", o.prog,
			o.group);
		return 1;
	}
	return sender ? do_msend(&o, &grp) : do_mreceive(&o, &grp);
}
