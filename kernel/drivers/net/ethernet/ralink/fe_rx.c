// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek SoC frame engine Ethernet driver: RX
 *
 * PDMA RX ring 0 on page_pool pages with XDP headroom; short frames are
 * copied (rx-copybreak), the rest go up in their page or to XDP. The
 * source MAC of a frame is in its descriptor; the MTK special tag the CDM
 * stripped becomes a metadata dst for DSA.
 */

#include <linux/bpf_trace.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <net/dsa.h>
#include <net/dst_metadata.h>
#include <net/page_pool/helpers.h>

#include "fe_core.h"

#define FE_RX_BUF_LEN		(PAGE_SIZE - FE_RX_HEADROOM - \
				 SKB_DATA_ALIGN(sizeof(struct skb_shared_info)))

/*
 * RX buffer size: the longest frame the MACs let through at the current
 * MTUs. Smaller buffers are cheaper: page_pool syncs this much of a page
 * for the device each time it recycles one.
 */
unsigned int fe_rx_buf_len(struct fe_eth *eth)
{
	unsigned int i, mtu = ETH_DATA_LEN, len;

	/* From the buffer's start, where the 2-byte offset is */
	if (eth->soc->rx_fixed_buf_len)
		return eth->soc->rx_fixed_buf_len + FE_RX_IP_ALIGN;

	for (i = 0; i < FE_MAX_MACS; i++)
		if (eth->mac[i])
			mtu = max(mtu, READ_ONCE(eth->mac[i]->netdev->mtu));

	len = fe_gdma_max_rx_len(mtu) + FE_RX_IP_ALIGN;
	return min3(len, (unsigned int)FE_RX_BUF_LEN,
		    (unsigned int)FE_RX_MAX_LEN);
}

/* -- RX ring -------------------------------------------------------------- */

/* Give descriptor @idx back to the DMA with the buffer it had */
static void fe_rx_rearm(struct fe_rx_ring *rx, unsigned int idx)
{
	/*
	 * rxd3 and rxd4 are the DMA's to write. No barrier here: the DMA
	 * takes the descriptor only once the CPU index passes it, and that
	 * register write (writel) orders these stores before it.
	 */
	rx->desc[idx].rxd2 = cpu_to_le32(rx->rxd2_rearm);
}

/* Give descriptor @idx to the DMA with a new page */
static void fe_rx_set_desc(struct fe_rx_ring *rx, unsigned int idx,
			   struct page *page)
{
	rx->buf[idx].page = page;
	rx->buf[idx].data = page_address(page);
	rx->desc[idx].rxd1 = cpu_to_le32(page_pool_get_dma_addr(page) +
					 rx->dma_off);
	fe_rx_rearm(rx, idx);
}

int fe_rx_alloc(struct fe_eth *eth)
{
	const struct fe_soc_data *soc = eth->soc;
	const struct fe_pdma_regs *p = &soc->regs->pdma;
	struct page_pool_params pp = {
		.order = 0,
		.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
		.nid = NUMA_NO_NODE,
		.dev = eth->dev,
		.napi = &eth->rx_napi,
		.offset = FE_RX_HEADROOM,
	};
	struct fe_rx_ring *rx = &eth->rx;
	unsigned int i;
	int err;

	rx->size = eth->rx_ring_size;
	rx->idx = 0;
	rx->in_frame = false;
	rx->buf_len = fe_rx_buf_len(eth);
	/*
	 * A DMA with a fixed buffer size takes none from the descriptor (as
	 * mainline, rxd2 gets LS0 only); one without the 2-byte offset
	 * starts at an offset address instead.
	 */
	rx->rxd2_rearm = soc->rx_fixed_buf_len ? FE_RXD2_LS0 :
			 FIELD_PREP(FE_RXD2_PLEN0, rx->buf_len);
	rx->dma_off = FE_RX_HEADROOM;
	if (!soc->rx_2b_offset)
		rx->dma_off += FE_RX_IP_ALIGN;
	rx->l4_valid = soc->rx_l4_valid;
	rx->sport_shift = soc->rx_sport ? __ffs(soc->rx_sport) : 0;
	rx->sport_mask = soc->rx_sport >> rx->sport_shift;
	rx->sport_base = soc->rx_sport_base;
	rx->swport_shift = soc->rx_swport ? __ffs(soc->rx_swport) : 0;
	rx->swport_mask = soc->rx_swport >> rx->swport_shift;
	pp.pool_size = rx->size;
	pp.max_len = rx->buf_len;
	/* XDP_TX sends from the RX pages: map them for both directions */
	pp.dma_dir = eth->xdp_progs ? DMA_BIDIRECTIONAL : DMA_FROM_DEVICE;

	rx->pool = page_pool_create(&pp);
	if (IS_ERR(rx->pool)) {
		err = PTR_ERR(rx->pool);
		rx->pool = NULL;
		return err;
	}

	err = xdp_reg_mem_model(&eth->xdp_mem, MEM_TYPE_PAGE_POOL, rx->pool);
	if (err)
		goto err_pool;

	rx->buf = kcalloc(rx->size, sizeof(*rx->buf), GFP_KERNEL);
	rx->desc = dma_alloc_coherent(eth->dev, rx->size * sizeof(*rx->desc),
				      &rx->phys, GFP_KERNEL);
	if (!rx->buf || !rx->desc) {
		err = -ENOMEM;
		goto err_mem;
	}

	for (i = 0; i < rx->size; i++) {
		struct page *page = page_pool_dev_alloc_pages(rx->pool);

		if (!page) {
			err = -ENOMEM;
			goto err_mem;
		}
		fe_rx_set_desc(rx, i, page);
	}

	fe_w32(eth, rx->phys, p->rx_base);
	fe_w32(eth, rx->size, p->rx_max_cnt);
	fe_w32(eth, rx->size - 1, p->rx_crx_idx);
	fe_w32(eth, FE_PDMA_RST_DRX(0), p->rst_idx);
	return 0;

err_mem:
	for (i = 0; rx->buf && i < rx->size; i++)
		if (rx->buf[i].page)
			page_pool_put_full_page(rx->pool, rx->buf[i].page,
						false);
	if (rx->desc)
		dma_free_coherent(eth->dev, rx->size * sizeof(*rx->desc),
				  rx->desc, rx->phys);
	kfree(rx->buf);
	rx->desc = NULL;
	rx->buf = NULL;
	xdp_unreg_mem_model(&eth->xdp_mem);
err_pool:
	page_pool_destroy(rx->pool);
	rx->pool = NULL;
	return err;
}

void fe_rx_free_ring(struct fe_eth *eth)
{
	struct fe_rx_ring *rx = &eth->rx;
	unsigned int i;

	if (!rx->pool)
		return;

	for (i = 0; i < rx->size; i++)
		if (rx->buf[i].page)
			page_pool_put_full_page(rx->pool, rx->buf[i].page,
						false);
	dma_free_coherent(eth->dev, rx->size * sizeof(*rx->desc), rx->desc,
			  rx->phys);
	kfree(rx->buf);
	rx->buf = NULL;
	rx->desc = NULL;
	xdp_unreg_mem_model(&eth->xdp_mem);
	page_pool_destroy(rx->pool);
	rx->pool = NULL;
}

/* -- RX NAPI -------------------------------------------------------------- */

/*
 * A short frame (up to rx_copybreak bytes) is copied into an skb of its
 * own and its buffer stays on the ring: no page_pool allocation for the
 * ring, and no recycling of the page from wherever the skb is freed (a
 * socket's process context, through page_pool's locked ring). The skb's
 * head is a fragment of NAPI's page cache sized to the frame
 * (napi_alloc_skb() would take a 1 KiB fragment of a page of its own for
 * so short a frame: a page from the allocator every four frames).
 *
 * The copy goes a word at a time from the start of the DMA's 2-byte
 * offset, word-aligned in both buffers (the head is cache-line aligned
 * and skb->data sits NET_IP_ALIGN past it), and reads nothing past the
 * frame's last word: so only the cache lines it read go back to the
 * device. memcpy() would not do: on MIPS it prefetches up to 9 cache
 * lines past its source (arch/mips/lib/memcpy.S), lines this CPU would
 * then hold stale once the device writes there (its sync for the CPU
 * invalidates nothing), so the whole buffer would have to be synced, 48
 * lines instead of 3 for a 64-byte frame.
 */
static struct sk_buff *fe_rx_copy(struct fe_eth *eth,
				  const struct fe_rx_buf *buf, unsigned int len)
{
	unsigned int i, words = DIV_ROUND_UP(FE_RX_IP_ALIGN + len, 4);
	unsigned int size = SKB_HEAD_ALIGN(NET_SKB_PAD + words * 4);
	const u32 *src = buf->data + FE_RX_HEADROOM;
	struct fe_rx_ring *rx = &eth->rx;
	struct sk_buff *skb = NULL;
	void *data;
	u32 *dst;

	data = napi_alloc_frag_align(size, SMP_CACHE_BYTES);
	if (likely(data)) {
		dst = data + NET_SKB_PAD;
		for (i = 0; i + 4 <= words; i += 4) {
			dst[i] = src[i];
			dst[i + 1] = src[i + 1];
			dst[i + 2] = src[i + 2];
			dst[i + 3] = src[i + 3];
		}
		for (; i < words; i++)
			dst[i] = src[i];
		skb = napi_build_skb(data, size);
		if (likely(skb)) {
			skb_reserve(skb, NET_SKB_PAD + FE_RX_IP_ALIGN);
			skb_put(skb, len);
		} else {
			skb_free_frag(data);
		}
	}
	dma_sync_single_range_for_device(eth->dev,
					 page_pool_get_dma_addr(buf->page),
					 FE_RX_HEADROOM, words * 4,
					 page_pool_get_dma_dir(rx->pool));
	return skb;
}

/* Run XDP; returns the verdict. The page belongs to XDP unless XDP_PASS. */
static u32 fe_run_xdp(struct fe_eth *eth, struct fe_mac *mac,
		      struct bpf_prog *prog, struct xdp_buff *xdp,
		      struct page *page, struct fe_rx_batch *b)
{
	dma_addr_t addr;
	u32 act, len;

	if (!b->xdp_ran) {
		memset(b->xdp, 0, sizeof(b->xdp));
		memset(b->xdp_tx_err, 0, sizeof(b->xdp_tx_err));
		b->xdp_ran = true;
	}
	act = bpf_prog_run_xdp(prog, xdp);

	switch (act) {
	case XDP_PASS:
		break;
	case XDP_TX:
		len = xdp->data_end - xdp->data;
		addr = page_pool_get_dma_addr(page) +
		       (xdp->data - xdp->data_hard_start);
		dma_sync_single_for_device(eth->dev, addr, len,
					   DMA_BIDIRECTIONAL);
		spin_lock(&eth->tx.lock);
		if (fe_xdp_queue(eth, mac, addr, len, false, FE_TX_XDP_TX,
				 page)) {
			spin_unlock(&eth->tx.lock);
			b->xdp_tx_err[mac->id]++;
			goto drop;
		}
		spin_unlock(&eth->tx.lock);
		b->xdp_tx = true;
		break;
	case XDP_REDIRECT:
		if (xdp_do_redirect(mac->netdev, xdp, prog))
			goto drop;
		b->redirect = true;
		break;
	default:
		bpf_warn_invalid_xdp_action(mac->netdev, prog, act);
		fallthrough;
	case XDP_ABORTED:
		trace_xdp_exception(mac->netdev, prog, act);
		fallthrough;
	case XDP_DROP:
		act = XDP_DROP;
		goto drop;
	}
	return act;

drop:
	page_pool_put_full_page(eth->rx.pool, page, true);
	return XDP_DROP;
}

/*
 * Add a poll's counts to the MACs' counters and zero them for the next
 * poll; returns the bytes received
 */
static u32 fe_rx_account(struct fe_eth *eth, struct fe_rx_batch *b)
{
	unsigned int i;
	u32 bytes = 0;

	for (i = 0; i < FE_MAX_MACS; i++) {
		struct fe_mac *mac = eth->mac[i];
		struct fe_sw_stats *s;

		if (!(b->packets[i] | b->dropped[i]))
			continue;
		bytes += b->bytes[i];
		if (mac) {
			s = &mac->stats;
			u64_stats_update_begin(&s->rx_syncp);
			u64_stats_add(&s->rx_packets, b->packets[i]);
			u64_stats_add(&s->rx_bytes, b->bytes[i]);
			u64_stats_add(&s->rx_dropped, b->dropped[i]);
			if (b->xdp_ran) {
				u64_stats_add(&s->xdp_drop, b->xdp[i][XDP_DROP]);
				u64_stats_add(&s->xdp_pass, b->xdp[i][XDP_PASS]);
				u64_stats_add(&s->xdp_tx, b->xdp[i][XDP_TX]);
				u64_stats_add(&s->xdp_redirect,
					      b->xdp[i][XDP_REDIRECT]);
				u64_stats_add(&s->xdp_tx_errors,
					      b->xdp_tx_err[i]);
			}
			u64_stats_update_end(&s->rx_syncp);
		}
		b->packets[i] = 0;
		b->bytes[i] = 0;
		b->dropped[i] = 0;
	}
	return bytes;
}

/*
 * A frame that is not copied: its page goes up the stack (or to XDP) and
 * the descriptor gets a new one. Returns the skb to deliver, or NULL (the
 * frame was dropped or XDP took it); *@page: the descriptor's page.
 */
static struct sk_buff *fe_rx_page(struct fe_eth *eth, struct fe_mac *mac,
				  unsigned int id, struct bpf_prog *prog,
				  const struct fe_rx_buf *buf, unsigned int len,
				  struct fe_rx_batch *b, struct page **page)
{
	struct fe_rx_ring *rx = &eth->rx;
	struct page *new_page;
	struct sk_buff *skb;
	struct xdp_buff xdp;

	new_page = page_pool_dev_alloc_pages(rx->pool);
	if (unlikely(!new_page)) {
		b->dropped[id]++;
		return NULL;	/* the descriptor keeps its page */
	}

	xdp_init_buff(&xdp, PAGE_SIZE, &mac->xdp_rxq);
	xdp_prepare_buff(&xdp, buf->data, FE_RX_HEADROOM + FE_RX_IP_ALIGN,
			 len, true);
	b->packets[id]++;
	b->bytes[id] += len;
	if (prog) {
		u32 act = fe_run_xdp(eth, mac, prog, &xdp, *page, b);

		b->xdp[id][act]++;
		if (act != XDP_PASS) {
			*page = new_page;
			return NULL;
		}
	}

	skb = napi_build_skb(xdp.data_hard_start, PAGE_SIZE);
	if (unlikely(!skb)) {
		page_pool_put_full_page(rx->pool, *page, true);
		b->dropped[id]++;
		*page = new_page;
		return NULL;
	}
	skb_mark_for_recycle(skb);
	skb_reserve(skb, xdp.data - xdp.data_hard_start);
	skb_put(skb, xdp.data_end - xdp.data);
	if (xdp.data > xdp.data_meta)
		skb_metadata_set(skb, xdp.data - xdp.data_meta);
	*page = new_page;
	return skb;
}

int fe_rx_poll(struct napi_struct *napi, int budget)
{
	struct fe_eth *eth = container_of(napi, struct fe_eth, rx_napi);
	const struct fe_pdma_regs *p = &eth->soc->regs->pdma;
	const struct fe_irq_regs *irq = &eth->soc->regs->rx_irq;
	struct fe_rx_ring *rx = &eth->rx;
	struct fe_rx_batch *b = &eth->rx_batch;
	LIST_HEAD(rx_list);
	u32 bytes = 0;
	int done = 0;

	/* netpoll polls for TX completions only: nothing to do here */
	if (!budget)
		return 0;

	/* Acknowledge first: a frame arriving from now on raises it again */
	fe_w32(eth, irq->done | irq->done_dly, irq->status);
	b->xdp_ran = false;
	b->xdp_tx = false;
	b->redirect = false;

	while (done < budget) {
		unsigned int idx = rx->idx, len, id;
		struct fe_rx_desc *d = &rx->desc[idx];
		struct fe_rx_buf *buf = &rx->buf[idx];
		struct page *page;
		struct bpf_prog *prog;
		u32 rxd2, rxd3, rxd4;
		struct fe_mac *mac;
		struct sk_buff *skb;

		rxd2 = le32_to_cpu(READ_ONCE(d->rxd2));
		if (!(rxd2 & FE_RXD2_DONE))
			break;
		dma_rmb();
		rxd3 = le32_to_cpu(d->rxd3);
		rxd4 = le32_to_cpu(d->rxd4);
		rx->idx = fe_ring_next(idx, rx->size);
		done++;

		page = buf->page;
		id = ((rxd4 >> rx->sport_shift) & rx->sport_mask) -
		     rx->sport_base;
		len = FIELD_GET(FE_RXD2_PLEN0, rxd2);
		mac = id < FE_MAX_MACS ? eth->mac[id] : NULL;
		if (unlikely(!(rxd2 & FE_RXD2_LS0) || rx->in_frame)) {
			/*
			 * A frame longer than our buffers spans several
			 * descriptors: drop all of them, up to its last.
			 */
			rx->in_frame = !(rxd2 & FE_RXD2_LS0);
			if (mac && !rx->in_frame)
				b->dropped[id]++;
			goto rearm;
		}
		/* A length the buffer cannot hold is a broken descriptor */
		if (unlikely(!mac || !netif_running(mac->netdev) || !len ||
			     len > rx->buf_len)) {
			if (mac)
				b->dropped[id]++;
			goto rearm;	/* keep the page */
		}

		page_pool_dma_sync_for_cpu(rx->pool, page, FE_RX_IP_ALIGN, len);
		prog = rcu_dereference_bh(mac->xdp_prog);
		if (!prog && len <= READ_ONCE(eth->rx_copybreak)) {
			skb = fe_rx_copy(eth, buf, len);
			if (unlikely(!skb)) {
				b->dropped[id]++;
				goto rearm;
			}
			b->packets[id]++;
			b->bytes[id] += len;
			goto deliver;
		}

		skb = fe_rx_page(eth, mac, id, prog, buf, len, b, &page);
		if (!skb)
			goto rearm;
deliver:
		if ((rxd4 & rx->l4_valid) &&
		    (mac->netdev->features & NETIF_F_RXCSUM))
			skb->ip_summed = CHECKSUM_UNNECESSARY;
		skb->protocol = eth_type_trans(skb, mac->netdev);

		/*
		 * The CDM stripped the MTK special tag as if it were a VLAN
		 * tag, or the descriptor says the switch port: tell DSA the
		 * source port through a metadata dst.
		 */
		if (rx->swport_mask && netdev_uses_dsa(mac->netdev)) {
			unsigned int port = (rxd4 >> rx->swport_shift) &
					    rx->swport_mask;

			skb_dst_set_noref(skb, &eth->dsa_meta[port]->dst);
		} else if ((rxd2 & FE_RXD2_VTAG) && mac->dsa_untag &&
			   netdev_uses_dsa(mac->netdev)) {
			unsigned int port;

			port = FIELD_GET(FE_STAG_PORT,
					 FIELD_GET(FE_RXD3_VPID, rxd3));
			if (eth->dsa_meta[port])
				skb_dst_set_noref(skb,
						  &eth->dsa_meta[port]->dst);
		}

		/*
		 * GRO has nothing to merge on a DSA conduit (ETH_P_XDSA):
		 * DSA runs it on the user port. Hand those over as a list.
		 */
		if (skb->protocol == htons(ETH_P_XDSA))
			list_add_tail(&skb->list, &rx_list);
		else
			napi_gro_receive(napi, skb);
rearm:
		if (page == buf->page)
			fe_rx_rearm(rx, idx);
		else
			fe_rx_set_desc(rx, idx, page);
	}

	netif_receive_skb_list(&rx_list);
	if (b->redirect)
		xdp_do_flush();
	if (b->xdp_tx) {
		spin_lock(&eth->tx.lock);
		fe_tx_kick(eth);
		spin_unlock(&eth->tx.lock);
	}
	if (done) {
		/* Give the refilled descriptors back, once per poll */
		fe_w32(eth, fe_ring_prev(rx->idx, rx->size), p->rx_crx_idx);
		bytes = fe_rx_account(eth, b);
	}
	if (eth->rx_coal.adaptive)
		fe_dim_sample(&eth->rx_coal, done, bytes);

	/* Raised again while we polled: poll again rather than take it */
	if (done < budget && (fe_r32(eth, irq->status) & eth->rx_irq_bit))
		return budget;

	if (done < budget && napi_complete_done(napi, done))
		fe_rx_irq_enable(eth);
	return done;
}

