// SPDX-License-Identifier: GPL-2.0
/* Tiny XDP programs for the ralink_fe tests */
struct xdp_md {
	unsigned int data;
	unsigned int data_end;
	unsigned int data_meta;
	unsigned int ingress_ifindex;
	unsigned int rx_queue_index;
	unsigned int egress_ifindex;
};

#define SEC(n) __attribute__((section(n), used))

SEC("xdp_drop") int prog_drop(struct xdp_md *ctx)
{
	return 1;	/* XDP_DROP */
}

/*
 * On the DSA conduit (no hardware untagging while XDP runs, so the MTK
 * special tag is at offset 12): IPv4 frames from switch port 0 go back
 * out of port 0 with their MAC addresses swapped; the rest passes.
 */
SEC("xdp_tx") int prog_tx(struct xdp_md *ctx)
{
	unsigned char *d = (void *)(long)ctx->data;
	unsigned char *end = (void *)(long)ctx->data_end;
	unsigned char t;
	int i;

	if (d + 18 > end)
		return 2;
	if ((d[13] & 7) != 0 || d[16] != 0x08 || d[17] != 0x00)
		return 2;	/* XDP_PASS */
	for (i = 0; i < 6; i++) {
		t = d[i];
		d[i] = d[i + 6];
		d[i + 6] = t;
	}
	d[12] = 0;	/* transmit tag: untagged */
	d[13] = 1;	/* port mask: port 0 */
	d[14] = 0;
	d[15] = 0;
	return 3;	/* XDP_TX */
}

char _license[] SEC("license") = "GPL";
