// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek SoC frame engine Ethernet driver: TX
 *
 * One TX ring serves every MAC (and XDP_TX, ndo_xdp_xmit): the descriptors'
 * layout and the engine's registers are its TX engine's (fe_tx_qdma.c,
 * fe_tx_pdma.c); what is here is the engine-neutral part: mapping, the
 * copy area for short frames, BQL, completion.
 */

#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/tcp.h>
#include <net/dst_metadata.h>
#include <net/page_pool/helpers.h>

#include "fe_core.h"

/* Room kept in the TX ring for a worst case skb before stopping queues */
#define FE_TX_STOP_THRESH	(MAX_SKB_FRAGS + 2)

/* -- TX ring -------------------------------------------------------------- */

/* A descriptor's control word, where its engine has it */
static __le32 *fe_txd_ctrl(const struct fe_tx_ring *tx, struct fe_tx_desc *d)
{
	return (__le32 *)d + tx->ctrl_word;
}

/*
 * Hand a one-segment descriptor over (once the engine is kicked): the
 * control word last, as the QDMA prefetches along its list. @ctrl: more
 * control bits (the QDMA queue). The QDMA's list is linked again in ring
 * order: the engine relinks the descriptors it gives back in the order
 * it sent them, which is not the ring's once queues have rates.
 */
static void fe_txd_fill(const struct fe_tx_ring *tx, struct fe_tx_desc *d,
			dma_addr_t addr, u32 txd4, unsigned int len, bool last,
			u32 ctrl)
{
	if (tx->link) {
		unsigned int next = fe_ring_next(d - tx->desc, tx->size);

		d->txd2 = cpu_to_le32(tx->phys + next * sizeof(*d));
	}
	d->txd1 = cpu_to_le32(addr);
	d->txd4 = cpu_to_le32(txd4);
	fe_txd_ctrl(tx, d)[0] = cpu_to_le32(FIELD_PREP(FE_TXC_PLEN0, len) |
					    tx->ctrl_set | ctrl |
					    (last ? FE_TXC_LS0 : 0));
}

static unsigned int fe_tx_free(const struct fe_tx_ring *tx)
{
	unsigned int used = tx->head >= tx->tail ? tx->head - tx->tail :
			    tx->head + tx->size - tx->tail;

	return tx->size - 1 - used;
}

static void fe_tx_unmap(struct fe_eth *eth, struct fe_tx_buf *buf)
{
	if (!buf->dma_addr)
		return;

	if (buf->map_single)
		dma_unmap_single(eth->dev, buf->dma_addr, buf->dma_len,
				 DMA_TO_DEVICE);
	else
		dma_unmap_page(eth->dev, buf->dma_addr, buf->dma_len,
			       DMA_TO_DEVICE);
	buf->dma_addr = 0;
}

/*
 * Free what the last descriptor of a frame holds; @budget: the NAPI poll's
 * (0 outside NAPI, or netpoll's: no page pool recycling then)
 */
static void fe_tx_release(struct fe_eth *eth, struct fe_tx_buf *buf,
			  int budget)
{
	switch (buf->type) {
	case FE_TX_SKB:
		napi_consume_skb(buf->data, budget);
		break;
	case FE_TX_XDP_TX:
		page_pool_put_full_page(eth->rx.pool, buf->data, false);
		break;
	case FE_TX_XDP_NDO:
		xdp_return_frame(buf->data);
		break;
	}
	buf->type = FE_TX_NONE;
	buf->data = NULL;
}

/*
 * The TX copy area: a slot of FE_TX_COPY_SLOT bytes for each descriptor,
 * in pages mapped to the device once, so that a short frame costs a copy
 * and the writeback of its cache lines instead of a mapping and an
 * unmapping (fe_start_xmit()).
 */
static void fe_tx_copy_free(struct fe_eth *eth)
{
	const unsigned int per_page = PAGE_SIZE / FE_TX_COPY_SLOT;
	struct fe_tx_ring *tx = &eth->tx;
	unsigned int i;

	for (i = 0; i < tx->copy_npages; i++) {
		if (!tx->copy_pages[i])
			continue;
		dma_unmap_page(eth->dev, tx->buf[i * per_page].copy_dma,
			       PAGE_SIZE, DMA_TO_DEVICE);
		__free_page(tx->copy_pages[i]);
	}
	kfree(tx->copy_pages);
	tx->copy_pages = NULL;
	tx->copy_npages = 0;
}

static int fe_tx_copy_alloc(struct fe_eth *eth)
{
	const unsigned int per_page = PAGE_SIZE / FE_TX_COPY_SLOT;
	struct fe_tx_ring *tx = &eth->tx;
	unsigned int i, j;

	tx->copy_npages = DIV_ROUND_UP(tx->size, per_page);
	tx->copy_pages = kcalloc(tx->copy_npages, sizeof(*tx->copy_pages),
				 GFP_KERNEL);
	if (!tx->copy_pages) {
		tx->copy_npages = 0;
		return -ENOMEM;
	}

	for (i = 0; i < tx->copy_npages; i++) {
		struct page *page = alloc_page(GFP_KERNEL);
		dma_addr_t addr;

		if (!page)
			goto err;
		addr = dma_map_page(eth->dev, page, 0, PAGE_SIZE,
				    DMA_TO_DEVICE);
		if (dma_mapping_error(eth->dev, addr)) {
			__free_page(page);
			goto err;
		}
		tx->copy_pages[i] = page;
		for (j = 0; j < per_page && i * per_page + j < tx->size; j++) {
			struct fe_tx_buf *buf = &tx->buf[i * per_page + j];

			buf->copy = page_address(page) + j * FE_TX_COPY_SLOT;
			buf->copy_dma = addr + j * FE_TX_COPY_SLOT;
		}
	}
	return 0;

err:
	fe_tx_copy_free(eth);
	return -ENOMEM;
}

int fe_tx_alloc(struct fe_eth *eth)
{
	const struct fe_tx_ops *ops = eth->soc->tx_ops;
	struct fe_tx_ring *tx = &eth->tx;
	unsigned int i;

	tx->size = eth->tx_ring_size;
	tx->head = 0;
	tx->tail = 0;
	tx->stopped = 0;
	tx->ctrl_word = ops->ctrl_word;
	tx->ctrl_set = ops->ctrl_set;
	tx->ctrl_idle = ops->ctrl_idle;
	tx->link = ops->link;
	tx->ooo = eth->soc->tx_queues > 1;
	tx->buf = kcalloc(tx->size, sizeof(*tx->buf), GFP_KERNEL);
	if (!tx->buf)
		return -ENOMEM;

	tx->desc = dma_alloc_coherent(eth->dev, tx->size * sizeof(*tx->desc),
				      &tx->phys, GFP_KERNEL);
	if (!tx->desc || fe_tx_copy_alloc(eth)) {
		if (tx->desc)
			dma_free_coherent(eth->dev,
					  tx->size * sizeof(*tx->desc),
					  tx->desc, tx->phys);
		kfree(tx->buf);
		tx->buf = NULL;
		tx->desc = NULL;
		return -ENOMEM;
	}

	/* Every descriptor starts as the CPU's; the engine links them */
	for (i = 0; i < tx->size; i++) {
		struct fe_tx_desc *d = &tx->desc[i];

		d->txd1 = 0;
		d->txd4 = 0;
		fe_txd_ctrl(tx, d)[0] = cpu_to_le32(tx->ctrl_idle);
	}
	ops->ring_init(eth);
	return 0;
}

void fe_tx_free_ring(struct fe_eth *eth)
{
	struct fe_tx_ring *tx = &eth->tx;
	unsigned int i;

	if (!tx->buf)
		return;

	for (i = 0; i < tx->size; i++) {
		fe_tx_unmap(eth, &tx->buf[i]);
		fe_tx_release(eth, &tx->buf[i], 0);
	}
	fe_tx_copy_free(eth);
	dma_free_coherent(eth->dev, tx->size * sizeof(*tx->desc), tx->desc,
			  tx->phys);
	kfree(tx->buf);
	tx->buf = NULL;
	tx->desc = NULL;
}

/* -- XDP TX --------------------------------------------------------------- */

/* Queue one XDP frame buffer; caller holds tx->lock. */
int fe_xdp_queue(struct fe_eth *eth, struct fe_mac *mac, dma_addr_t addr,
		 u32 len, bool map_single, enum fe_tx_type type, void *data)
{
	struct fe_tx_ring *tx = &eth->tx;
	struct fe_tx_desc *d;
	struct fe_tx_buf *buf;

	if (unlikely(!fe_tx_free(tx) || len > FE_TX_MAX_LEN))
		return -ENOSPC;

	d = &tx->desc[tx->head];
	buf = &tx->buf[tx->head];
	buf->type = type;
	buf->mac = mac->id;
	buf->data = data;
	buf->map_single = map_single;
	buf->dma_addr = map_single ? addr : 0;
	buf->dma_len = len;
	buf->bytes = len;

	fe_txd_fill(tx, d, addr, mac->txd4, len, true, 0);
	tx->head = fe_ring_next(tx->head, tx->size);
	return 0;
}

void fe_tx_kick(struct fe_eth *eth)
{
	eth->soc->tx_ops->kick(eth, eth->tx.head);
}

int fe_xdp_xmit(struct net_device *dev, int n, struct xdp_frame **frames,
		u32 flags)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_eth *eth = mac->eth;
	int i, sent = 0;

	if (unlikely(flags & ~XDP_XMIT_FLAGS_MASK))
		return -EINVAL;
	if (unlikely(!netif_running(dev) || eth->resetting))
		return -ENETDOWN;

	spin_lock(&eth->tx.lock);
	for (i = 0; i < n; i++) {
		struct xdp_frame *f = frames[i];
		dma_addr_t addr;

		addr = dma_map_single(eth->dev, f->data, f->len, DMA_TO_DEVICE);
		if (dma_mapping_error(eth->dev, addr))
			break;
		if (fe_xdp_queue(eth, mac, addr, f->len, true, FE_TX_XDP_NDO,
				 f)) {
			dma_unmap_single(eth->dev, addr, f->len,
					 DMA_TO_DEVICE);
			break;
		}
		sent++;
	}
	if (sent && (flags & XDP_XMIT_FLUSH))
		fe_tx_kick(eth);
	spin_unlock(&eth->tx.lock);

	atomic64_add(sent, &mac->stats.xdp_xmit);
	atomic64_add(n - sent, &mac->stats.xdp_xmit_errors);
	return sent;
}

/* -- TX NAPI -------------------------------------------------------------- */

int fe_tx_poll(struct napi_struct *napi, int budget)
{
	struct fe_eth *eth = container_of(napi, struct fe_eth, tx_napi);
	const struct fe_irq_regs *irq = &eth->soc->regs->tx_irq;
	u32 bytes[FE_MAX_MACS][FE_QTX_NUM] = {};
	u32 pkts[FE_MAX_MACS][FE_QTX_NUM] = {};
	u32 all_pkts = 0, all_bytes = 0;
	struct fe_tx_ring *tx = &eth->tx;
	unsigned int i, q, idx, tail, done = 0;
	bool hole = false;

	fe_w32(eth, irq->done | irq->done_dly, irq->status);

	spin_lock(&tx->lock);
	tail = tx->tail;
	/*
	 * Every completion, whatever the budget (it limits RX work, napi.rst);
	 * with a budget of 0 (netpoll: TX completions only) no XDP or page
	 * pool call may be made, so the walk stops at the first XDP buffer.
	 * With queues of their own rates (@ooo) frames complete out of ring
	 * order: the walk goes past a frame not done yet, completes the ones
	 * done behind it (their buffers emptied: done once), and the tail
	 * stops at the first not done.
	 */
	for (idx = tail; idx != tx->head; idx = fe_ring_next(idx, tx->size)) {
		struct fe_tx_buf *buf = &tx->buf[idx];

		if (!(le32_to_cpu(READ_ONCE(*fe_txd_ctrl(tx, &tx->desc[idx]))) &
		      FE_TXC_DONE)) {
			if (!tx->ooo)
				break;
			hole = true;
			continue;
		}
		if (!budget && (buf->type == FE_TX_XDP_TX ||
				buf->type == FE_TX_XDP_NDO))
			break;

		fe_tx_unmap(eth, buf);
		if (buf->type != FE_TX_NONE) {
			if (buf->type == FE_TX_SKB) {
				bytes[buf->mac][buf->queue] += buf->bytes;
				pkts[buf->mac][buf->queue]++;
			}
			fe_tx_release(eth, buf, budget);
			buf->type = FE_TX_NONE;
			done++;
		}
		if (!hole)
			tail = fe_ring_next(idx, tx->size);
	}
	if (tail != tx->tail) {
		tx->tail = tail;
		if (eth->soc->tx_ops->release)
			eth->soc->tx_ops->release(eth, tail);
	}
	spin_unlock(&tx->lock);

	for (i = 0; i < FE_MAX_MACS; i++) {
		struct fe_mac *mac = eth->mac[i];
		u32 mac_pkts = 0, mac_bytes = 0;

		if (!mac)
			continue;
		for (q = 0; q < mac->netdev->real_num_tx_queues; q++) {
			if (!pkts[i][q])
				continue;
			netdev_tx_completed_queue(netdev_get_tx_queue(mac->netdev,
								      q),
						  pkts[i][q], bytes[i][q]);
			mac_pkts += pkts[i][q];
			mac_bytes += bytes[i][q];
		}
		all_pkts += mac_pkts;
		all_bytes += mac_bytes;
		if (mac_pkts) {
			u64_stats_update_begin(&mac->stats.tx_syncp);
			u64_stats_add(&mac->stats.tx_packets, mac_pkts);
			u64_stats_add(&mac->stats.tx_bytes, mac_bytes);
			u64_stats_update_end(&mac->stats.tx_syncp);
		}
		if (test_bit(i, &tx->stopped) &&
		    fe_tx_free(tx) >= FE_TX_STOP_THRESH &&
		    test_and_clear_bit(i, &tx->stopped))
			netif_tx_wake_all_queues(mac->netdev);
	}
	/* netpoll's reclaim leaves the NAPI and its interrupt as they were */
	if (!budget)
		return 0;
	if (eth->tx_coal.adaptive)
		fe_dim_sample(&eth->tx_coal, all_pkts, all_bytes);

	/* More than a budget's worth, or raised again while we polled */
	if (done >= budget || (fe_r32(eth, irq->status) & eth->tx_irq_bit))
		return budget;

	if (napi_complete_done(napi, done))
		fe_tx_irq_enable(eth);
	return done;
}

/* -- transmit ------------------------------------------------------------- */

static unsigned int fe_tx_desc_count(struct sk_buff *skb)
{
	unsigned int i, n = DIV_ROUND_UP(skb_headlen(skb), FE_TX_MAX_LEN);

	for (i = 0; i < skb_shinfo(skb)->nr_frags; i++)
		n += DIV_ROUND_UP(skb_frag_size(&skb_shinfo(skb)->frags[i]),
				  FE_TX_MAX_LEN);
	return n;
}

/* Map one buffer into as many descriptors as its length needs */
static void fe_tx_map_buf(struct fe_eth *eth, struct fe_mac *mac,
			  dma_addr_t addr, unsigned int len, bool map_single,
			  u32 txd4, bool last, u32 ctrl, unsigned int *head)
{
	struct fe_tx_ring *tx = &eth->tx;
	bool first_chunk = true;

	do {
		unsigned int n = min_t(unsigned int, len, FE_TX_MAX_LEN);
		struct fe_tx_buf *buf = &tx->buf[*head];

		buf->type = FE_TX_NONE;
		buf->mac = mac->id;
		buf->map_single = map_single;
		/* Only the first chunk owns the mapping */
		buf->dma_addr = first_chunk ? addr : 0;
		buf->dma_len = first_chunk ? len : 0;

		fe_txd_fill(tx, &tx->desc[*head], addr, txd4, n,
			    last && n == len, ctrl);

		/* Offloads are read from the frame's first descriptor only */
		txd4 = mac->txd4;
		first_chunk = false;
		addr += n;
		len -= n;
		*head = fe_ring_next(*head, tx->size);
	} while (len);
}

/*
 * The RT305x's TX VLAN table: txd4 names one of its FE_VID_ENTRIES
 * entries instead of carrying the tag. The stack says which VIDs are in
 * use (NETIF_F_HW_VLAN_CTAG_FILTER: the frame engine filters nothing on
 * RX, the stack does); each takes a free entry while there is one, and
 * the frames of a VID without one get their tag in software. An entry
 * freed while the DMA runs may still be named by queued descriptors: it
 * is reused only after the TX ring is next reset. These SoCs have one MAC.
 */
static void fe_vid_write(struct fe_eth *eth, unsigned int i)
{
	u32 reg = eth->soc->regs->vid_table + i / 2 * 4;

	fe_w32(eth, eth->vid_table[i & ~1] | eth->vid_table[i | 1] << 16, reg);
}

/* After the TX ring's reset, under RTNL: every entry written again */
void fe_vid_table_init(struct fe_eth *eth)
{
	unsigned int i;

	if (!eth->vid_entry)
		return;
	eth->vid_stale = 0;
	for (i = 0; i < FE_VID_ENTRIES; i += 2)
		fe_vid_write(eth, i);
}

int fe_vlan_rx_add_vid(struct net_device *dev, __be16 proto, u16 vid)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_eth *eth = mac->eth;
	unsigned long free;
	unsigned int i;

	if (!eth->vid_entry || eth->vid_entry[vid])
		return 0;
	free = ~(eth->vid_used | eth->vid_stale) &
	       GENMASK(FE_VID_ENTRIES - 1, 0);
	if (!free) {
		netdev_dbg(dev, "TX VLAN table full: VID %u tagged in software\n",
			   vid);
		return 0;
	}
	i = __ffs(free);
	eth->vid_table[i] = vid;
	__set_bit(i, &eth->vid_used);
	fe_vid_write(eth, i);
	WRITE_ONCE(eth->vid_entry[vid], i + 1);
	return 0;
}

int fe_vlan_rx_kill_vid(struct net_device *dev, __be16 proto, u16 vid)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_eth *eth = mac->eth;
	unsigned int i;

	if (!eth->vid_entry || !eth->vid_entry[vid])
		return 0;
	i = eth->vid_entry[vid] - 1;
	WRITE_ONCE(eth->vid_entry[vid], 0);
	__clear_bit(i, &eth->vid_used);
	if (eth->dma_running)
		__set_bit(i, &eth->vid_stale);
	return 0;
}

/* txd4's VLAN insertion for @skb's tag; 0: insert it in software */
static u32 fe_txd4_vlan(struct fe_eth *eth, struct sk_buff *skb)
{
	u16 tci = skb_vlan_tag_get(skb);
	unsigned int entry;

	/*
	 * A frame with the MTK special tag (a DSA conduit's user port sent
	 * it) has no Ethernet type where the hardware would insert the tag
	 */
	if (!eth_proto_is_802_3(eth_hdr(skb)->h_proto))
		return 0;
	if (!eth->vid_entry)
		return FE_TXD4_INS_VLAN | FIELD_PREP(FE_TXD4_VLAN_TCI, tci);
	entry = READ_ONCE(eth->vid_entry[tci & VLAN_VID_MASK]);
	if (!entry)
		return 0;
	return FE_TXD4_RT_INS_VLAN |
	       FIELD_PREP(FE_TXD4_RT_VLAN_PCP, tci >> VLAN_PRIO_SHIFT) |
	       FIELD_PREP(FE_TXD4_RT_VLAN_IDX, entry - 1);
}

/* txd4's forced switch ports for a frame DSA names the port of, or 0 */
static u32 fe_txd4_swports(struct fe_eth *eth, struct sk_buff *skb)
{
	struct metadata_dst *md;
	u32 field = eth->soc->txd4_swports;

	if (!field)
		return 0;
	md = skb_metadata_dst(skb);
	if (!md || md->type != METADATA_HW_PORT_MUX)
		return 0;

	return (BIT(md->u.port_info.port_id) << __ffs(field)) & field;
}

netdev_tx_t fe_start_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_eth *eth = mac->eth;
	struct fe_tx_ring *tx = &eth->tx;
	u16 queue = skb_get_queue_mapping(skb);
	struct netdev_queue *txq = netdev_get_tx_queue(dev, queue);
	unsigned int i, head, first, needed, last_idx, len;
	dma_addr_t addr;
	u32 txd4, ctrl, vlan = 0;
	bool copy;

	if (skb_vlan_tag_present(skb)) {
		vlan = fe_txd4_vlan(eth, skb);
		if (!vlan) {
			skb = __vlan_hwaccel_push_inside(skb);
			if (!skb)
				goto drop_nofree;
		}
	}

	txd4 = mac->txd4 | vlan | fe_txd4_swports(eth, skb);
	if (skb_is_gso(skb)) {
		if (skb_cow_head(skb, 0))
			goto drop;
		/* The TSO engine takes the MSS from the TCP checksum field */
		tcp_hdr(skb)->check = htons(skb_shinfo(skb)->gso_size);
		txd4 |= FE_TXD4_TSO | FE_TXD4_CHKSUM;
	} else if (skb->ip_summed == CHECKSUM_PARTIAL) {
		txd4 |= FE_TXD4_CHKSUM;
	}
	/* The QDMA queue: the netdev's (one, or fe_select_queue()'s) */
	ctrl = tx->link ? FIELD_PREP(FE_TXD3_PQID, queue) : 0;
	len = skb->len;
	copy = len <= READ_ONCE(eth->tx_copybreak) && !skb_is_gso(skb);
	needed = copy ? 1 : fe_tx_desc_count(skb);

	spin_lock(&tx->lock);
	if (unlikely(eth->resetting)) {
		spin_unlock(&tx->lock);
		goto drop;
	}
	if (unlikely(fe_tx_free(tx) < needed)) {
		netif_tx_stop_queue(txq);
		set_bit(mac->id, &tx->stopped);
		spin_unlock(&tx->lock);
		return NETDEV_TX_BUSY;
	}

	first = tx->head;
	head = first;
	if (copy) {
		struct fe_tx_buf *buf = &tx->buf[head];

		if (likely(!skb_is_nonlinear(skb)))
			memcpy(buf->copy, skb->data, len);
		else if (skb_copy_bits(skb, 0, buf->copy, len))
			goto unwind;
		dma_sync_single_for_device(eth->dev, buf->copy_dma, len,
					   DMA_TO_DEVICE);
		buf->mac = mac->id;
		buf->dma_addr = 0;
		fe_txd_fill(tx, &tx->desc[head], buf->copy_dma, txd4, len,
			    true, ctrl);
		head = fe_ring_next(head, tx->size);
		goto queued;
	}
	addr = dma_map_single(eth->dev, skb->data, skb_headlen(skb),
			      DMA_TO_DEVICE);
	if (unlikely(dma_mapping_error(eth->dev, addr)))
		goto unwind;
	fe_tx_map_buf(eth, mac, addr, skb_headlen(skb), true, txd4,
		      !skb_shinfo(skb)->nr_frags, ctrl, &head);
	txd4 = mac->txd4;

	for (i = 0; i < skb_shinfo(skb)->nr_frags; i++) {
		skb_frag_t *frag = &skb_shinfo(skb)->frags[i];

		addr = skb_frag_dma_map(eth->dev, frag, 0,
					skb_frag_size(frag), DMA_TO_DEVICE);
		if (unlikely(dma_mapping_error(eth->dev, addr)))
			goto unwind;
		fe_tx_map_buf(eth, mac, addr, skb_frag_size(frag), false,
			      txd4, i == skb_shinfo(skb)->nr_frags - 1, ctrl,
			      &head);
	}

queued:
	last_idx = fe_ring_prev(head, tx->size);
	tx->buf[last_idx].type = FE_TX_SKB;
	tx->buf[last_idx].data = skb;
	tx->buf[last_idx].bytes = len;
	tx->buf[last_idx].queue = queue;
	tx->head = head;

	skb_tx_timestamp(skb);
	if (fe_tx_free(tx) < FE_TX_STOP_THRESH) {
		netif_tx_stop_queue(txq);
		set_bit(mac->id, &tx->stopped);
	}
	if (__netdev_tx_sent_queue(txq, len, netdev_xmit_more()))
		fe_tx_kick(eth);
	spin_unlock(&tx->lock);
	return NETDEV_TX_OK;

unwind:
	while (first != head) {
		fe_tx_unmap(eth, &tx->buf[first]);
		*fe_txd_ctrl(tx, &tx->desc[first]) =
			cpu_to_le32(tx->ctrl_idle);
		first = fe_ring_next(first, tx->size);
	}
	spin_unlock(&tx->lock);
drop:
	dev_kfree_skb_any(skb);
drop_nofree:
	atomic64_inc(&mac->stats.tx_dropped);
	return NETDEV_TX_OK;
}

