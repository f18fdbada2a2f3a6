// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek SoC frame engine: flow offload through the PPE
 *
 * The MT7621's packet processing engine (PPE) routes and NATs IPv4 and
 * routes IPv6 TCP/UDP flows by itself: a frame whose 5-tuple hashes to a
 * bound entry of its FOE table (in DRAM) is rewritten as the entry says
 * (addresses, ports, TTL, MACs, tags) and leaves through the entry's GDMA
 * without reaching the CPU. The kernel's flow table offload hands us its
 * flows (ndo_setup_tc TC_SETUP_FT: nft's "flags offload" flowtables, on
 * our netdevs or on the DSA user ports of a switch behind one), as flower
 * rules: one per direction.
 *
 * Unlike the vendor's and mainline's drivers, which wait for the PPE to
 * report a flow's unbound entry hit often enough and bind it then, each
 * flow's entry is written bound when the flow comes: the engine's hash
 * names the two-entry bucket, and the entry takes the slot the engine
 * built for the same key, or a free one. A full bucket leaves the flow
 * in software (the flow table keeps forwarding it). The engine does not
 * age bound entries here: the flow table ends a flow when its timestamp,
 * which the engine refreshes on every hit, says it is idle, and then
 * removes the entry; a flow no longer goes back to the CPU because the
 * engine alone thought it idle.
 */

#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/iopoll.h>
#include <linux/rhashtable.h>
#include <net/dsa.h>
#include <net/flow_offload.h>
#include <net/pkt_cls.h>

#include "fe_core.h"

/* PPE registers (from the SoC's struct fe_reg_map ppe offset) */
#define FE_PPE_GLO_CFG		0x200
#define FE_PPE_GLO_EN		BIT(0)
#define FE_PPE_GLO_IP4_CS_DROP	BIT(3)
#define FE_PPE_GLO_BUSY		BIT(31)
#define FE_PPE_FLOW_CFG		0x204
#define FE_PPE_FLOW_IP6_5T	BIT(9)
#define FE_PPE_FLOW_IP4_NAPT	BIT(13)
#define FE_PPE_TB_CFG		0x21c
#define FE_PPE_TB_ENTRY_NUM	GENMASK(2, 0)	/* 1024 << n entries */
#define FE_PPE_TB_ENTRY_80B	BIT(3)
#define FE_PPE_TB_SEARCH_MISS	GENMASK(5, 4)
#define FE_PPE_MISS_FORWARD	2		/* to the CPU, no entry */
#define FE_PPE_TB_HASH_MODE	GENMASK(15, 14)
#define FE_PPE_TB_BASE		0x220
#define FE_PPE_DEFAULT_CPU_PORT	0x248
#define FE_PPE_VLAN_MTU0	0x30c
#define FE_PPE_VLAN_MTU1	0x310
#define FE_PPE_MTU_LO		GENMASK(13, 0)	/* 0 (MTU0), 2 tags (MTU1) */
#define FE_PPE_MTU_HI		GENMASK(29, 16)	/* 1 (MTU0), 3 tags (MTU1) */
#define FE_PPE_CACHE_CTL	0x320
#define FE_PPE_CACHE_EN		BIT(0)
#define FE_PPE_CACHE_CLEAR	BIT(9)

/* The frame engine's seconds, which bound entries' timestamps count */
#define FE_FOE_TS		0x0010

/*
 * The FOE table: 16384 entries of 80 bytes, in buckets of two (the
 * MT7621 engine's hash names an even entry)
 */
#define FE_PPE_ENTRY_SHIFT	4
#define FE_PPE_ENTRIES		(1024 << FE_PPE_ENTRY_SHIFT)
#define FE_PPE_BUCKET		2
#define FE_FOE_WORDS		20

/* An entry's first word (IB1) */
#define FE_IB1_BIND_TS		GENMASK(14, 0)
#define FE_IB1_BIND_VLAN_LAYER	GENMASK(18, 16)
#define FE_IB1_BIND_PPPOE	BIT(19)
#define FE_IB1_BIND_VLAN_TAG	BIT(20)
#define FE_IB1_BIND_CACHE	BIT(22)
#define FE_IB1_BIND_TTL		BIT(24)
#define FE_IB1_TYPE		GENMASK(27, 25)
#define FE_IB1_STATE		GENMASK(29, 28)
#define FE_IB1_UDP		BIT(30)
#define FE_IB1_STATIC		BIT(31)
#define FE_FOE_INVALID		0
#define FE_FOE_BIND		2
#define FE_FOE_IPV4_HNAPT	0
#define FE_FOE_IPV6_5T		5

/* IB2: where the frame goes */
#define FE_IB2_QID		GENMASK(3, 0)	/* its QDMA queue, with PSE_QOS */
#define FE_IB2_PSE_QOS		BIT(4)
#define FE_IB2_DEST_PORT	GENMASK(7, 5)	/* PSE port: GDMA n + 1 */
#define FE_IB2_PORT_MG		GENMASK(17, 12)
#define FE_IB2_PORT_AG		GENMASK(23, 18)

/*
 * Word indices. IPv4 (HNAPT): the key (source, destination, ports: the
 * source port in the high half), IB2, the new tuple, the output's L2.
 * IPv6 (5-tuple route): source, destination, ports; IB2; L2.
 */
#define FE_FOE4_KEY		1
#define FE_FOE4_IB2		4
#define FE_FOE4_NEW		5
#define FE_FOE4_L2		11
#define FE_FOE6_KEY		1
#define FE_FOE6_IB2		14
#define FE_FOE6_L2		15
#define FE_FOE4_KEY_WORDS	3
#define FE_FOE6_KEY_WORDS	9
/* The output's L2 (from FE_FOE*_L2) */
#define FE_L2_VLAN1_ETYPE	0	/* first tag's TCI; its TPID (DSA) */
#define FE_L2_DMAC_HI		1
#define FE_L2_VLAN2_DMAC_LO	2
#define FE_L2_SMAC_HI		3
#define FE_L2_PPPOE_SMAC_LO	4

/* The port mirror and accounting groups no entry of ours uses */
#define FE_IB2_NO_GROUPS	(FIELD_PREP(FE_IB2_PORT_MG, 0x3f) | \
				 FIELD_PREP(FE_IB2_PORT_AG, 0x1f))

/* The entries the MT7621's engine gets wrong: those across 1 KiB */
static bool fe_ppe_entry_bad(unsigned int idx)
{
	unsigned int start = (idx % 128) * FE_FOE_WORDS * 4;

	return start / 1024 != (start + FE_FOE_WORDS * 4 - 1) / 1024;
}

/**
 * struct fe_flow - a flow the PPE forwards
 * @node: in &fe_ppe.flows, by @cookie
 * @cookie: the flow table's cookie for this direction
 * @idx: the FOE entry it is bound at
 * @foe: the entry as written
 */
struct fe_flow {
	struct rhash_head node;
	unsigned long cookie;
	unsigned int idx;
	u32 foe[FE_FOE_WORDS];
};

/**
 * struct fe_ppe - the packet processing engine
 * @eth: its frame engine
 * @base: its registers
 * @table: the FOE table
 * @phys: its DMA address
 * @flows: the offloaded flows, by cookie
 * @used: the entries an offloaded flow holds
 * @lock: serializes table updates (flow table work items run at once)
 */
struct fe_ppe {
	struct fe_eth *eth;
	void __iomem *base;
	u32 *table;
	dma_addr_t phys;
	struct rhashtable flows;
	unsigned long *used;
	struct mutex lock;	/* the table, @used, @flows */
};

static const struct rhashtable_params fe_flow_params = {
	.head_offset = offsetof(struct fe_flow, node),
	.key_offset = offsetof(struct fe_flow, cookie),
	.key_len = sizeof(unsigned long),
	.automatic_shrinking = true,
};

static u32 *fe_ppe_entry(struct fe_ppe *ppe, unsigned int idx)
{
	return ppe->table + idx * FE_FOE_WORDS;
}

static void fe_ppe_cache_clear(struct fe_ppe *ppe)
{
	u32 val = readl(ppe->base + FE_PPE_CACHE_CTL);

	writel(val | FE_PPE_CACHE_CLEAR, ppe->base + FE_PPE_CACHE_CTL);
	writel(val & ~FE_PPE_CACHE_CLEAR, ppe->base + FE_PPE_CACHE_CTL);
}

/*
 * The engine's hash of a key (hash mode 1): @w holds an IPv4 key's
 * source, destination and ports, or an IPv6 key's 4 + 4 address words
 * and ports, as the entry does
 */
static unsigned int fe_ppe_hash(const u32 *w, bool ipv6)
{
	u32 a, b, c, h;

	if (ipv6) {
		a = w[3] ^ w[7] ^ w[8];
		b = w[2] ^ w[6] ^ w[4];
		c = w[1] ^ w[5] ^ w[0];
	} else {
		a = w[2];
		b = w[1];
		c = w[0];
	}
	h = (a & b) | (~a & c);
	h = ror32(h, 24) ^ a ^ b ^ c;
	h ^= h >> 16;
	return (h * FE_PPE_BUCKET) & (FE_PPE_ENTRIES - 1);
}

/* -- the flow table's rules ------------------------------------------------ */

/**
 * struct fe_flow_hdr - the headers a rule's mangles rewrite
 * @eth: destination and source MAC
 * @ip: an IPv4 header (its addresses at 12, 16)
 * @ports: source and destination port
 */
struct fe_flow_hdr {
	u8 eth[ETH_ALEN * 2];
	u8 ip[20];
	u8 ports[4];
};

/* A pedit mangle: new = (old & mask) | val, in memory order */
static int fe_flow_mangle(struct fe_flow_hdr *h,
			  const struct flow_action_entry *act)
{
	u32 off = act->mangle.offset;
	u8 *p, mask[4], val[4];
	size_t len;
	int i;

	switch (act->mangle.htype) {
	case FLOW_ACT_MANGLE_HDR_TYPE_ETH:
		p = h->eth;
		len = sizeof(h->eth);
		break;
	case FLOW_ACT_MANGLE_HDR_TYPE_IP4:
		p = h->ip;
		len = sizeof(h->ip);
		break;
	case FLOW_ACT_MANGLE_HDR_TYPE_TCP:
	case FLOW_ACT_MANGLE_HDR_TYPE_UDP:
		p = h->ports;
		len = sizeof(h->ports);
		break;
	default:
		return -EOPNOTSUPP;
	}
	if (off > len - sizeof(mask))
		return -EOPNOTSUPP;
	memcpy(mask, &act->mangle.mask, sizeof(mask));
	memcpy(val, &act->mangle.val, sizeof(val));
	for (i = 0; i < sizeof(mask); i++)
		p[off + i] = (p[off + i] & mask[i]) | val[i];
	return 0;
}

/* The entry's output: the MACs, the tags, the PSE port */
static int fe_flow_output(struct fe_eth *eth, u32 *foe, u32 *l2, u32 *ib2,
			  const struct fe_flow_hdr *h, struct net_device *odev,
			  bool ipv6, const u16 *vids, int nvids, int pppoe_sid,
			  struct netlink_ext_ack *extack)
{
	struct net_device *gdev = odev;
	int layers = 0, dsa_port = -1;
	unsigned int i;
	u32 etype = 0;

	if (!odev) {
		NL_SET_ERR_MSG_MOD(extack, "the flow has no output device");
		return -EOPNOTSUPP;
	}
	if (dsa_user_dev_check(odev)) {
		struct dsa_port *dp = dsa_port_from_netdev(odev);

		if (IS_ERR(dp) ||
		    dp->cpu_dp->tag_ops->proto != DSA_TAG_PROTO_MTK) {
			NL_SET_ERR_MSG_MOD(extack,
					   "not a switch port with the MTK tag");
			return -EOPNOTSUPP;
		}
		dsa_port = dp->index;
		gdev = dsa_port_to_conduit(dp);
	}
	for (i = 0; i < FE_MAX_MACS; i++)
		if (eth->mac[i] && eth->mac[i]->netdev == gdev)
			break;
	if (i == FE_MAX_MACS) {
		NL_SET_ERR_MSG_MOD(extack, "the flow leaves through another NIC");
		return -EOPNOTSUPP;
	}
	*ib2 = FIELD_PREP(FE_IB2_DEST_PORT, i + 1) | FE_IB2_NO_GROUPS;
	/*
	 * Through the QDMA queue the CPU's frames to the switch port take
	 * (fe_select_queue()), so its rates hold the flow too
	 */
	if (dsa_port >= 0 && eth->soc->tx_ops == &fe_qdma_tx_ops &&
	    dsa_port + FE_QDMA_DSA_QUEUE0 < FE_QTX_NUM)
		*ib2 |= FIELD_PREP(FE_IB2_QID, dsa_port + FE_QDMA_DSA_QUEUE0) |
			FE_IB2_PSE_QOS;

	/*
	 * The first tag: the MTK special tag of the switch port (its TPID
	 * half names the port; with a VLAN it says "tagged" and carries
	 * the VID), or an 802.1Q tag; the second tag 802.1Q
	 */
	if (dsa_port >= 0) {
		if (nvids > 1) {
			NL_SET_ERR_MSG_MOD(extack,
					   "two VLAN tags behind the MTK tag");
			return -EOPNOTSUPP;
		}
		etype = BIT(dsa_port) | (nvids ? BIT(8) : 0);
		l2[FE_L2_VLAN1_ETYPE] = nvids ? vids[0] : 0;
		layers = 1;
	} else {
		for (i = 0; i < nvids; i++)
			l2[i ? FE_L2_VLAN2_DMAC_LO : FE_L2_VLAN1_ETYPE] |= vids[i];
		layers = nvids;
		if (nvids)
			foe[0] |= FE_IB1_BIND_VLAN_TAG;
		/* The output's ethertype, as the vendor's entries have it */
		if (pppoe_sid >= 0)
			etype = ETH_P_PPP_SES;
		else
			etype = ipv6 ? ETH_P_IPV6 : ETH_P_IP;
	}
	if (pppoe_sid >= 0) {
		if (layers == 2) {
			NL_SET_ERR_MSG_MOD(extack, "PPPoE behind two tags");
			return -EOPNOTSUPP;
		}
		foe[0] |= FE_IB1_BIND_PPPOE;
		l2[FE_L2_PPPOE_SMAC_LO] |= pppoe_sid;
	}
	l2[FE_L2_VLAN1_ETYPE] |= etype << 16;
	foe[0] |= FIELD_PREP(FE_IB1_BIND_VLAN_LAYER, layers);

	l2[FE_L2_DMAC_HI] = get_unaligned_be32(h->eth);
	l2[FE_L2_VLAN2_DMAC_LO] |= get_unaligned_be16(h->eth + 4) << 16;
	l2[FE_L2_SMAC_HI] = get_unaligned_be32(h->eth + 6);
	l2[FE_L2_PPPOE_SMAC_LO] |= get_unaligned_be16(h->eth + 10) << 16;
	return 0;
}

/*
 * The FOE entry a flow table rule asks for: an IPv4 TCP/UDP flow routed
 * and NATed, or an IPv6 one routed. @foe gets the entry but for its
 * timestamp.
 */
static int fe_flow_parse(struct fe_eth *eth, struct flow_cls_offload *f,
			 u32 *foe)
{
	struct flow_rule *rule = flow_cls_offload_flow_rule(f);
	struct netlink_ext_ack *extack = f->common.extack;
	struct net_device *odev = NULL;
	struct flow_action_entry *act;
	struct flow_match_control ctl;
	struct flow_match_basic basic;
	struct flow_match_ports ports;
	struct fe_flow_hdr h = {};
	int nvids = 0, pppoe_sid = -1, i, err;
	u16 vids[2];
	bool ipv6;
	u32 *l2;

	memset(foe, 0, FE_FOE_WORDS * sizeof(*foe));
	if (!flow_rule_match_key(rule, FLOW_DISSECTOR_KEY_CONTROL) ||
	    !flow_rule_match_key(rule, FLOW_DISSECTOR_KEY_BASIC) ||
	    !flow_rule_match_key(rule, FLOW_DISSECTOR_KEY_PORTS)) {
		NL_SET_ERR_MSG_MOD(extack, "the PPE offloads TCP/UDP flows only");
		return -EOPNOTSUPP;
	}
	flow_rule_match_control(rule, &ctl);
	if (flow_rule_has_control_flags(ctl.mask->flags, extack))
		return -EOPNOTSUPP;
	flow_rule_match_basic(rule, &basic);
	if (basic.key->ip_proto != IPPROTO_TCP &&
	    basic.key->ip_proto != IPPROTO_UDP) {
		NL_SET_ERR_MSG_MOD(extack, "the PPE offloads TCP/UDP flows only");
		return -EOPNOTSUPP;
	}
	flow_rule_match_ports(rule, &ports);
	memcpy(h.ports, &ports.key->src, 2);
	memcpy(h.ports + 2, &ports.key->dst, 2);

	switch (ctl.key->addr_type) {
	case FLOW_DISSECTOR_KEY_IPV4_ADDRS: {
		struct flow_match_ipv4_addrs a;

		flow_rule_match_ipv4_addrs(rule, &a);
		memcpy(h.ip + 12, &a.key->src, 4);
		memcpy(h.ip + 16, &a.key->dst, 4);
		ipv6 = false;
		foe[0] = FIELD_PREP(FE_IB1_TYPE, FE_FOE_IPV4_HNAPT);
		foe[FE_FOE4_KEY] = be32_to_cpu(a.key->src);
		foe[FE_FOE4_KEY + 1] = be32_to_cpu(a.key->dst);
		foe[FE_FOE4_KEY + 2] = get_unaligned_be32(h.ports);
		break;
	}
	case FLOW_DISSECTOR_KEY_IPV6_ADDRS: {
		struct flow_match_ipv6_addrs a;

		flow_rule_match_ipv6_addrs(rule, &a);
		ipv6 = true;
		foe[0] = FIELD_PREP(FE_IB1_TYPE, FE_FOE_IPV6_5T);
		for (i = 0; i < 4; i++) {
			foe[FE_FOE6_KEY + i] = be32_to_cpu(a.key->src.s6_addr32[i]);
			foe[FE_FOE6_KEY + 4 + i] =
				be32_to_cpu(a.key->dst.s6_addr32[i]);
		}
		foe[FE_FOE6_KEY + 8] = get_unaligned_be32(h.ports);
		break;
	}
	default:
		NL_SET_ERR_MSG_MOD(extack, "the PPE offloads IP flows only");
		return -EOPNOTSUPP;
	}
	foe[0] |= FIELD_PREP(FE_IB1_STATE, FE_FOE_BIND) | FE_IB1_BIND_TTL |
		  FE_IB1_BIND_CACHE |
		  (basic.key->ip_proto == IPPROTO_UDP ? FE_IB1_UDP : 0);

	flow_action_for_each(i, act, &rule->action) {
		switch (act->id) {
		case FLOW_ACTION_MANGLE:
			err = fe_flow_mangle(&h, act);
			if (err || (ipv6 &&
				    act->mangle.htype !=
				    FLOW_ACT_MANGLE_HDR_TYPE_ETH)) {
				NL_SET_ERR_MSG_MOD(extack,
						   "the PPE cannot rewrite that header");
				return -EOPNOTSUPP;
			}
			break;
		case FLOW_ACTION_REDIRECT:
			odev = act->dev;
			break;
		case FLOW_ACTION_CSUM:
			/* The engine updates the checksums it changes */
			break;
		case FLOW_ACTION_VLAN_POP:
			/* The engine writes the output's tags whole */
			break;
		case FLOW_ACTION_VLAN_PUSH:
			if (nvids == ARRAY_SIZE(vids) ||
			    act->vlan.proto != htons(ETH_P_8021Q)) {
				NL_SET_ERR_MSG_MOD(extack,
						   "the PPE pushes two 802.1Q tags at most");
				return -EOPNOTSUPP;
			}
			vids[nvids++] = act->vlan.vid;
			break;
		case FLOW_ACTION_PPPOE_PUSH:
			if (pppoe_sid >= 0) {
				NL_SET_ERR_MSG_MOD(extack, "two PPPoE headers");
				return -EOPNOTSUPP;
			}
			pppoe_sid = act->pppoe.sid;
			break;
		default:
			NL_SET_ERR_MSG_MOD(extack,
					   "an action the PPE does not have");
			return -EOPNOTSUPP;
		}
	}
	if (!is_valid_ether_addr(h.eth) || !is_valid_ether_addr(h.eth + 6)) {
		NL_SET_ERR_MSG_MOD(extack, "the flow has no output MACs");
		return -EINVAL;
	}

	if (ipv6) {
		l2 = &foe[FE_FOE6_L2];
		return fe_flow_output(eth, foe, l2, &foe[FE_FOE6_IB2], &h, odev,
				      true, vids, nvids, pppoe_sid, extack);
	}
	foe[FE_FOE4_NEW] = get_unaligned_be32(h.ip + 12);
	foe[FE_FOE4_NEW + 1] = get_unaligned_be32(h.ip + 16);
	foe[FE_FOE4_NEW + 2] = get_unaligned_be32(h.ports);
	l2 = &foe[FE_FOE4_L2];
	return fe_flow_output(eth, foe, l2, &foe[FE_FOE4_IB2], &h, odev,
			      false, vids, nvids, pppoe_sid, extack);
}

static bool fe_foe_same_key(const u32 *a, const u32 *b)
{
	bool ipv6 = FIELD_GET(FE_IB1_TYPE, a[0]) == FE_FOE_IPV6_5T;
	int n = ipv6 ? FE_FOE6_KEY_WORDS : FE_FOE4_KEY_WORDS;

	return FIELD_GET(FE_IB1_TYPE, a[0]) == FIELD_GET(FE_IB1_TYPE, b[0]) &&
	       !((a[0] ^ b[0]) & FE_IB1_UDP) &&
	       !memcmp(&a[FE_FOE4_KEY], &b[FE_FOE4_KEY], n * sizeof(*a));
}

/* Write @flow's entry bound, at the slot of its bucket it can have */
static int fe_ppe_bind(struct fe_ppe *ppe, struct fe_flow *flow,
		       struct netlink_ext_ack *extack)
{
	bool ipv6 = FIELD_GET(FE_IB1_TYPE, flow->foe[0]) == FE_FOE_IPV6_5T;
	unsigned int hash = fe_ppe_hash(&flow->foe[FE_FOE4_KEY], ipv6);
	unsigned int i, idx, best = FE_PPE_ENTRIES;
	u32 *hwe, ts;

	for (i = 0; i < FE_PPE_BUCKET; i++) {
		idx = hash + i;
		hwe = fe_ppe_entry(ppe, idx);
		if (test_bit(idx, ppe->used) || (hwe[0] & FE_IB1_STATIC))
			continue;
		/* The engine's own (unbound) entry of this key, or a free one */
		if (FIELD_GET(FE_IB1_STATE, hwe[0]) != FE_FOE_INVALID &&
		    fe_foe_same_key(hwe, flow->foe)) {
			best = idx;
			break;
		}
		if (best == FE_PPE_ENTRIES)
			best = idx;
	}
	if (best == FE_PPE_ENTRIES) {
		NL_SET_ERR_MSG_MOD(extack, "the PPE's bucket for the flow is full");
		return -ENOSPC;
	}

	ts = readl(ppe->eth->base + FE_FOE_TS);
	flow->foe[0] = (flow->foe[0] & ~FE_IB1_BIND_TS) |
		       FIELD_PREP(FE_IB1_BIND_TS, ts);
	flow->idx = best;
	hwe = fe_ppe_entry(ppe, best);
	/* All but IB1 first: the engine must not see half an entry bound */
	memcpy(hwe + 1, flow->foe + 1, (FE_FOE_WORDS - 1) * sizeof(*hwe));
	dma_wmb();
	WRITE_ONCE(hwe[0], flow->foe[0]);
	dma_wmb();
	fe_ppe_cache_clear(ppe);
	__set_bit(best, ppe->used);
	return 0;
}

static void fe_ppe_unbind(struct fe_ppe *ppe, struct fe_flow *flow)
{
	u32 *hwe = fe_ppe_entry(ppe, flow->idx);

	WRITE_ONCE(hwe[0], FIELD_PREP(FE_IB1_STATE, FE_FOE_INVALID));
	dma_wmb();
	fe_ppe_cache_clear(ppe);
	__clear_bit(flow->idx, ppe->used);
}

static int fe_flow_replace(struct fe_ppe *ppe, struct flow_cls_offload *f)
{
	struct fe_flow *flow;
	int err;

	if (rhashtable_lookup_fast(&ppe->flows, &f->cookie, fe_flow_params))
		return -EEXIST;
	flow = kzalloc(sizeof(*flow), GFP_KERNEL);
	if (!flow)
		return -ENOMEM;
	flow->cookie = f->cookie;
	err = fe_flow_parse(ppe->eth, f, flow->foe);
	if (err)
		goto free;
	err = fe_ppe_bind(ppe, flow, f->common.extack);
	if (err)
		goto free;
	err = rhashtable_insert_fast(&ppe->flows, &flow->node, fe_flow_params);
	if (!err)
		return 0;
	fe_ppe_unbind(ppe, flow);
free:
	kfree(flow);
	return err;
}

static int fe_flow_destroy(struct fe_ppe *ppe, struct flow_cls_offload *f)
{
	struct fe_flow *flow;

	flow = rhashtable_lookup_fast(&ppe->flows, &f->cookie, fe_flow_params);
	if (!flow)
		return -ENOENT;
	fe_ppe_unbind(ppe, flow);
	rhashtable_remove_fast(&ppe->flows, &flow->node, fe_flow_params);
	kfree(flow);
	return 0;
}

/* When the flow last went through: the engine stamps its entry */
static int fe_flow_stats(struct fe_ppe *ppe, struct flow_cls_offload *f)
{
	struct fe_flow *flow;
	u32 ib1, now, idle;

	flow = rhashtable_lookup_fast(&ppe->flows, &f->cookie, fe_flow_params);
	if (!flow)
		return -ENOENT;
	ib1 = READ_ONCE(fe_ppe_entry(ppe, flow->idx)[0]);
	if (FIELD_GET(FE_IB1_STATE, ib1) != FE_FOE_BIND)
		ib1 = flow->foe[0];
	now = readl(ppe->eth->base + FE_FOE_TS);
	idle = (now - FIELD_GET(FE_IB1_BIND_TS, ib1)) &
	       FIELD_MAX(FE_IB1_BIND_TS);
	f->stats.lastused = jiffies - idle * HZ;
	return 0;
}

static int fe_ppe_block_cb(enum tc_setup_type type, void *type_data,
			   void *cb_priv)
{
	struct flow_cls_offload *f = type_data;
	struct fe_ppe *ppe = cb_priv;
	int err;

	if (type != TC_SETUP_CLSFLOWER)
		return -EOPNOTSUPP;

	mutex_lock(&ppe->lock);
	switch (f->command) {
	case FLOW_CLS_REPLACE:
		err = fe_flow_replace(ppe, f);
		break;
	case FLOW_CLS_DESTROY:
		err = fe_flow_destroy(ppe, f);
		break;
	case FLOW_CLS_STATS:
		err = fe_flow_stats(ppe, f);
		break;
	default:
		err = -EOPNOTSUPP;
		break;
	}
	mutex_unlock(&ppe->lock);
	return err;
}

static LIST_HEAD(fe_ppe_block_cb_list);

/*
 * A flow table binds its block once for each of its devices: a DSA
 * switch's user ports all hand it to their conduit, us. One callback
 * per block, counted.
 */
static int fe_ppe_block(struct fe_ppe *ppe, struct flow_block_offload *f)
{
	struct flow_block_cb *cb;

	if (f->binder_type != FLOW_BLOCK_BINDER_TYPE_CLSACT_INGRESS)
		return -EOPNOTSUPP;
	f->driver_block_list = &fe_ppe_block_cb_list;

	switch (f->command) {
	case FLOW_BLOCK_BIND:
		cb = flow_block_cb_lookup(f->block, fe_ppe_block_cb, ppe);
		if (cb) {
			flow_block_cb_incref(cb);
			return 0;
		}
		cb = flow_block_cb_alloc(fe_ppe_block_cb, ppe, ppe, NULL);
		if (IS_ERR(cb))
			return PTR_ERR(cb);
		flow_block_cb_incref(cb);
		flow_block_cb_add(cb, f);
		list_add_tail(&cb->driver_list, &fe_ppe_block_cb_list);
		return 0;
	case FLOW_BLOCK_UNBIND:
		cb = flow_block_cb_lookup(f->block, fe_ppe_block_cb, ppe);
		if (!cb)
			return -ENOENT;
		if (!flow_block_cb_decref(cb)) {
			flow_block_cb_remove(cb, f);
			list_del(&cb->driver_list);
		}
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

/**
 * fe_ppe_setup_tc() - ndo_setup_tc: flow tables bind to the PPE
 * @dev: one of our netdevs (a DSA user port's conduit, or a GMAC's own)
 * @type: what is set up; flow tables (TC_SETUP_FT) only
 * @type_data: the flow block
 *
 * Return: 0, or -EOPNOTSUPP without a PPE or for anything else
 */
int fe_ppe_setup_tc(struct net_device *dev, enum tc_setup_type type,
		    void *type_data)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_ppe *ppe = mac->eth->ppe;

	if (!ppe || type != TC_SETUP_FT || !tc_can_offload(dev))
		return -EOPNOTSUPP;
	return fe_ppe_block(ppe, type_data);
}

/* -- the engine ------------------------------------------------------------ */

/**
 * fe_ppe_start() - program the PPE and turn it on (the DMA is up)
 * @eth: the frame engine
 * @mtu: the largest MTU of our netdevs
 */
void fe_ppe_start(struct fe_eth *eth, unsigned int mtu)
{
	struct fe_ppe *ppe = eth->ppe;
	u32 base = ETH_HLEN + mtu;

	if (!ppe)
		return;
	writel(ppe->phys, ppe->base + FE_PPE_TB_BASE);
	/*
	 * No age scan: bound entries stay until their flow ends; a miss
	 * goes to the CPU without an entry being built
	 */
	writel(FIELD_PREP(FE_PPE_TB_ENTRY_NUM, FE_PPE_ENTRY_SHIFT) |
	       FE_PPE_TB_ENTRY_80B |
	       FIELD_PREP(FE_PPE_TB_SEARCH_MISS, FE_PPE_MISS_FORWARD) |
	       FIELD_PREP(FE_PPE_TB_HASH_MODE, 1), ppe->base + FE_PPE_TB_CFG);
	writel(FE_PPE_FLOW_IP4_NAPT | FE_PPE_FLOW_IP6_5T,
	       ppe->base + FE_PPE_FLOW_CFG);
	/* The output's limit by its tags (the MTK tag counts as one) */
	writel(FIELD_PREP(FE_PPE_MTU_LO, base) |
	       FIELD_PREP(FE_PPE_MTU_HI, base + VLAN_HLEN),
	       ppe->base + FE_PPE_VLAN_MTU0);
	writel(FIELD_PREP(FE_PPE_MTU_LO, base + 2 * VLAN_HLEN) |
	       FIELD_PREP(FE_PPE_MTU_HI, base + 3 * VLAN_HLEN),
	       ppe->base + FE_PPE_VLAN_MTU1);
	writel(0, ppe->base + FE_PPE_DEFAULT_CPU_PORT);
	writel(FE_PPE_CACHE_EN, ppe->base + FE_PPE_CACHE_CTL);
	fe_ppe_cache_clear(ppe);
	/*
	 * Frames with a bad IPv4 header checksum are dropped, as the
	 * kernel drops them; bad TCP/UDP checksums are forwarded, as the
	 * kernel forwards them
	 */
	writel(FE_PPE_GLO_EN | FE_PPE_GLO_IP4_CS_DROP,
	       ppe->base + FE_PPE_GLO_CFG);
}

/**
 * fe_ppe_stop() - turn the PPE off (its table stays)
 * @eth: the frame engine
 */
void fe_ppe_stop(struct fe_eth *eth)
{
	struct fe_ppe *ppe = eth->ppe;
	u32 val;

	if (!ppe)
		return;
	writel(0, ppe->base + FE_PPE_GLO_CFG);
	if (readl_poll_timeout(ppe->base + FE_PPE_GLO_CFG, val,
			       !(val & FE_PPE_GLO_BUSY), 10, 100000))
		dev_warn(eth->dev, "PPE still busy after being stopped\n");
}

/**
 * fe_ppe_probe() - set up the PPE if the SoC has one
 * @eth: the frame engine
 *
 * Return: 0 or a negative error
 */
int fe_ppe_probe(struct fe_eth *eth)
{
	u32 off = eth->soc->regs->ppe;
	struct fe_ppe *ppe;
	unsigned int i;
	int err;

	if (!off)
		return 0;
	ppe = devm_kzalloc(eth->dev, sizeof(*ppe), GFP_KERNEL);
	if (!ppe)
		return -ENOMEM;
	ppe->eth = eth;
	ppe->base = eth->base + off;
	mutex_init(&ppe->lock);
	ppe->table = dmam_alloc_coherent(eth->dev, FE_PPE_ENTRIES *
					 FE_FOE_WORDS * sizeof(u32),
					 &ppe->phys, GFP_KERNEL);
	ppe->used = devm_bitmap_zalloc(eth->dev, FE_PPE_ENTRIES, GFP_KERNEL);
	if (!ppe->table || !ppe->used)
		return -ENOMEM;
	for (i = 0; i < FE_PPE_ENTRIES; i++)
		if (fe_ppe_entry_bad(i))
			fe_ppe_entry(ppe, i)[0] = FE_IB1_STATIC;
	err = rhashtable_init(&ppe->flows, &fe_flow_params);
	if (err)
		return err;
	eth->ppe = ppe;
	return 0;
}

static void fe_flow_free(void *ptr, void *arg)
{
	kfree(ptr);
}

/**
 * fe_ppe_remove() - free what the flows left (the engine is off)
 * @eth: the frame engine
 */
void fe_ppe_remove(struct fe_eth *eth)
{
	if (eth->ppe)
		rhashtable_free_and_destroy(&eth->ppe->flows, fe_flow_free,
					    NULL);
}
