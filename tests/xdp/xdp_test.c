// SPDX-License-Identifier: GPL-2.0
/* Tiny XDP (and one tc) programs for the ralink_fe tests */
struct xdp_md {
	unsigned int data;
	unsigned int data_end;
	unsigned int data_meta;
	unsigned int ingress_ifindex;
	unsigned int rx_queue_index;
	unsigned int egress_ifindex;
};

#define SEC(n) __attribute__((section(n), used))

/* include/uapi/linux/bpf.h: BPF_FUNC_redirect */
static long (*bpf_redirect)(unsigned int ifindex, unsigned long long flags) =
	(void *)23;

SEC("xdp_drop") int prog_drop(struct xdp_md *ctx)
{
	return 1;	/* XDP_DROP */
}

/*
 * On the DSA conduit (no hardware untagging while XDP runs, so the MTK
 * special tag is at offset 12): turn an IPv4 frame from switch port 0
 * into one for port 0 with its MAC addresses swapped; 0 if it is not one.
 */
static inline __attribute__((always_inline)) int reflect(struct xdp_md *ctx)
{
	unsigned char *d = (void *)(long)ctx->data;
	unsigned char *end = (void *)(long)ctx->data_end;
	unsigned char t;
	int i;

	if (d + 18 > end)
		return 0;
	if ((d[13] & 7) != 0 || d[16] != 0x08 || d[17] != 0x00)
		return 0;
	for (i = 0; i < 6; i++) {
		t = d[i];
		d[i] = d[i + 6];
		d[i + 6] = t;
	}
	d[12] = 0;	/* transmit tag: untagged */
	d[13] = 1;	/* port mask: port 0 */
	d[14] = 0;
	d[15] = 0;
	return 1;
}

/* Reflected frames leave through the same ring (XDP_TX); the rest passes */
SEC("xdp_tx") int prog_tx(struct xdp_md *ctx)
{
	return reflect(ctx) ? 3 : 2;	/* XDP_TX : XDP_PASS */
}

/* The same through XDP_REDIRECT to the receiving netdev (ndo_xdp_xmit) */
SEC("xdp_redirect") int prog_redirect(struct xdp_md *ctx)
{
	if (!reflect(ctx))
		return 2;	/* XDP_PASS */
	return bpf_redirect(ctx->ingress_ifindex, 0);
}

/*
 * On a plain Ethernet netdev (the MT7628's frame engine with the ESW
 * unmanaged): turn an IPv4 frame around, its MAC addresses swapped; 0 if
 * it is not one.
 */
static inline __attribute__((always_inline)) int reflect_eth(struct xdp_md *ctx)
{
	unsigned char *d = (void *)(long)ctx->data;
	unsigned char *end = (void *)(long)ctx->data_end;
	unsigned char t;
	int i;

	if (d + 14 > end || d[12] != 0x08 || d[13] != 0x00)
		return 0;
	for (i = 0; i < 6; i++) {
		t = d[i];
		d[i] = d[i + 6];
		d[i + 6] = t;
	}
	return 1;
}

SEC("xdp_tx_eth") int prog_tx_eth(struct xdp_md *ctx)
{
	return reflect_eth(ctx) ? 3 : 2;	/* XDP_TX : XDP_PASS */
}

SEC("xdp_redirect_eth") int prog_redirect_eth(struct xdp_md *ctx)
{
	if (!reflect_eth(ctx))
		return 2;	/* XDP_PASS */
	return bpf_redirect(ctx->ingress_ifindex, 0);
}

/* include/uapi/linux/bpf.h: struct __sk_buff up to data_end */
struct __sk_buff {
	unsigned int len, pkt_type, mark, queue_mapping, protocol;
	unsigned int vlan_present, vlan_tci, vlan_proto, priority;
	unsigned int ingress_ifindex, ifindex, tc_index, cb[5];
	unsigned int hash, tc_classid, data, data_end;
};

/* BPF_FUNC_csum_level; BPF_CSUM_LEVEL_QUERY is 0 */
static long (*bpf_csum_level)(struct __sk_buff *skb, unsigned long long lvl) =
	(void *)135;

/*
 * tc ingress on a user port: drop an IPv4 UDP datagram to port 4001 that
 * the driver did not mark CHECKSUM_UNNECESSARY (bpf_csum_level() then
 * fails), so only marked ones reach the stack.
 */
SEC("tc_csum") int prog_csum(struct __sk_buff *ctx)
{
	unsigned char *d = (void *)(long)ctx->data;
	unsigned char *end = (void *)(long)ctx->data_end;

	if (d + 38 > end || d[12] != 0x08 || d[13] != 0x00 || d[14] != 0x45 ||
	    d[23] != 17 || d[36] != 0x0f || d[37] != 0xa1)
		return 0;	/* TC_ACT_OK */
	return bpf_csum_level(ctx, 0) < 0 ? 2 : 0;	/* TC_ACT_SHOT : OK */
}

char _license[] SEC("license") = "GPL";
