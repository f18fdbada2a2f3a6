// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek SoC frame engine Ethernet driver: core
 *
 * One RX ring and one TX ring serve every GMAC: the GDMA port a frame came
 * from is in its RX descriptor, the one it goes to in its TX descriptor.
 * RX buffers are page_pool pages with XDP headroom; TX completion and RX
 * run in two NAPI contexts on a dummy netdev. Register accesses on the hot
 * paths: none per frame; per NAPI poll one status acknowledgment, one
 * CPU index (RX) or release pointer (TX) write and one interrupt unmask.
 */

#include <linux/bpf_trace.h>
#include <linux/clk.h>
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/interrupt.h>
#include <linux/mfd/syscon.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_net.h>
#include <linux/phy.h>
#include <linux/platform_device.h>
#include <linux/regmap.h>
#include <linux/reset.h>
#include <linux/tcp.h>
#include <net/dsa.h>
#include <net/dst_metadata.h>
#include <net/page_pool/helpers.h>

#include "fe_core.h"

/* RX buffers: XDP headroom, then the DMA's 2-byte offset (IP alignment) */
#define FE_RX_HEADROOM		XDP_PACKET_HEADROOM
#define FE_RX_IP_ALIGN		(NET_IP_ALIGN ? 2 : 0)
#define FE_RX_BUF_LEN		(PAGE_SIZE - FE_RX_HEADROOM - \
				 SKB_DATA_ALIGN(sizeof(struct skb_shared_info)))

/* Room kept in the TX ring for a worst case skb before stopping queues */
#define FE_TX_STOP_THRESH	(MAX_SKB_FRAGS + 2)
#define FE_TX_DRAIN_TRIES	50
/* fe_rx_watch(): how often it looks, how many stalled looks make a stall */
#define FE_RX_WATCH_PERIOD	HZ
#define FE_RX_WATCH_STRIKES	2

/**
 * fe_mac_uses_dsa_tag - whether a MAC is a DSA conduit with the MTK tag
 * @mac: the MAC
 *
 * Return: true if it is.
 */
bool fe_mac_uses_dsa_tag(struct fe_mac *mac)
{
	struct net_device *dev = mac->netdev;

	return netdev_uses_dsa(dev) &&
	       dev->dsa_ptr->tag_ops->proto == DSA_TAG_PROTO_MTK;
}

/* -- interrupts ----------------------------------------------------------- */

/*
 * Set one direction's interrupt enable bits. Where both directions share
 * the PDMA's enable register (no QDMA), the other direction's bits are
 * kept from a shadow copy, under a lock: the interrupt handler and both
 * NAPI polls write it.
 */
static void fe_irq_set(struct fe_eth *eth, bool tx, u32 bits)
{
	const struct fe_reg_map *regs = eth->soc->regs;
	unsigned long flags;

	if (!eth->irq_shared) {
		fe_w32(eth, bits, tx ? regs->tx_irq.mask : regs->pdma.irq_mask);
		return;
	}
	spin_lock_irqsave(&eth->irq_lock, flags);
	if (tx)
		eth->tx_irq_en = bits;
	else
		eth->rx_irq_en = bits;
	fe_w32(eth, eth->rx_irq_en | eth->tx_irq_en, regs->pdma.irq_mask);
	spin_unlock_irqrestore(&eth->irq_lock, flags);
}

static void fe_rx_irq_enable(struct fe_eth *eth)
{
	fe_irq_set(eth, false, eth->rx_irq_bit);
}

static void fe_tx_irq_enable(struct fe_eth *eth)
{
	fe_irq_set(eth, true, eth->tx_irq_bit);
}

static void fe_irq_disable_all(struct fe_eth *eth)
{
	const struct fe_reg_map *regs = eth->soc->regs;

	fe_irq_set(eth, false, 0);
	fe_irq_set(eth, true, 0);
	if (regs->fe_int_enable)
		fe_w32(eth, 0, regs->fe_int_enable);
}

/*
 * The source is masked whether or not its NAPI could be scheduled: a poll
 * that completes while fe_dma_down() disables NAPI unmasks it again, and a
 * pending level interrupt left unmasked with NAPI disabled would fire for
 * ever (on one CPU, before the DMA is ever stopped). The poll unmasks it
 * when it completes.
 */
static irqreturn_t fe_irq(int irq, void *priv)
{
	const struct fe_reg_map *regs;
	struct fe_eth *eth = priv;
	irqreturn_t ret = IRQ_NONE;

	regs = eth->soc->regs;
	if (fe_r32(eth, regs->pdma.irq_status) & eth->rx_irq_bit) {
		fe_irq_set(eth, false, 0);
		if (napi_schedule_prep(&eth->rx_napi)) {
			eth->rx_coal.events++;
			__napi_schedule(&eth->rx_napi);
		}
		ret = IRQ_HANDLED;
	}
	if (fe_r32(eth, regs->tx_irq.status) & eth->tx_irq_bit) {
		fe_irq_set(eth, true, 0);
		if (napi_schedule_prep(&eth->tx_napi)) {
			eth->tx_coal.events++;
			__napi_schedule(&eth->tx_napi);
		}
		ret = IRQ_HANDLED;
	}
	return ret;
}

static u32 fe_coal_field(const struct fe_coal *c, u32 en, u32 pint, u32 ptime)
{
	if (!c->usecs && !c->frames)
		return 0;

	return en | FIELD_PREP(pint, min_t(u32, c->frames, FE_DLY_PINT_MAX)) |
	       FIELD_PREP(ptime, min_t(u32, DIV_ROUND_UP(c->usecs,
							 FE_DLY_PTIME_US),
				       FE_DLY_PTIME_MAX));
}

static void fe_write_coalesce(struct fe_eth *eth)
{
	const struct fe_reg_map *regs = eth->soc->regs;
	u32 val;

	val = fe_coal_field(&eth->rx_coal, FE_DLY_RX_EN, FE_DLY_RX_PINT,
			    FE_DLY_RX_PTIME) |
	      fe_coal_field(&eth->tx_coal, FE_DLY_TX_EN, FE_DLY_TX_PINT,
			    FE_DLY_TX_PTIME);
	fe_w32(eth, val, regs->pdma.delay_irq);
	if (regs->tx_irq.delay != regs->pdma.delay_irq)
		fe_w32(eth, val, regs->tx_irq.delay);

	/* Without coalescing the delayed interrupts are not raised */
	eth->rx_irq_bit = (val & FE_DLY_RX_EN) ? FE_RX_DONE_DLY :
						  FE_RX_DONE_INT0;
	eth->tx_irq_bit = (val & FE_DLY_TX_EN) ? FE_TX_DONE_DLY :
						  FE_TX_DONE_INT0;
}

/*
 * DIM's profiles as delay times, one step of the 20 us unit apart at
 * least. net_dim's own EQE profiles (1, 8, 64, 128, 256 us) round to 20,
 * 20, 80, 140 and 260 us here: DIM cannot tell its first two apart and
 * parks on them. The frame count stays at the most there is (net_dim's
 * own profiles do not tune it either).
 */
static const u16 fe_dim_usecs[NET_DIM_PARAMS_NUM_PROFILES] = {
	20, 40, 80, 140, 260
};

static void fe_dim_set(struct fe_coal *c, int ix)
{
	c->usecs = fe_dim_usecs[ix];
	c->frames = FE_DLY_PINT_MAX;
}

/*
 * (Re)start DIM from the shortest delay. From profile 0 its first move is
 * to the right, towards longer delays, and it goes on while the traffic
 * gains from them; from any other profile its first move is to the left.
 */
static void fe_dim_start(struct fe_coal *c)
{
	c->dim.profile_ix = 0;
	c->dim.state = DIM_START_MEASURE;
	c->adaptive = true;
	fe_dim_set(c, c->dim.profile_ix);
}

static void fe_dim_work(struct work_struct *work)
{
	struct dim *dim = container_of(work, struct dim, work);
	struct fe_coal *c = container_of(dim, struct fe_coal, dim);
	struct fe_eth *eth = dim->priv;

	spin_lock(&eth->coal_lock);
	fe_dim_set(c, dim->profile_ix);
	fe_write_coalesce(eth);
	spin_unlock(&eth->coal_lock);
	dim->state = DIM_START_MEASURE;
}

static void fe_dim_init(struct fe_eth *eth, struct fe_coal *c)
{
	INIT_WORK(&c->dim.work, fe_dim_work);
	c->dim.priv = eth;
	fe_dim_start(c);
}

/*
 * One NAPI poll's work for DIM (NAPI context, while @c->adaptive); its
 * events are the interrupts, counted by fe_irq()
 */
static void fe_dim_sample(struct fe_coal *c, u32 packets, u32 bytes)
{
	struct dim_sample sample = {};

	c->packets += packets;
	c->bytes += bytes;
	dim_update_sample(c->events, c->packets, c->bytes, &sample);
	net_dim(&c->dim, sample);
}

static void fe_coal_update(struct fe_coal *c, bool adaptive, u32 usecs,
			   u32 frames)
{
	if (adaptive && !c->adaptive) {
		fe_dim_start(c);
	} else if (!adaptive) {
		c->usecs = usecs;
		c->frames = frames;
		c->adaptive = false;
	}
}

/**
 * fe_set_coalesce - apply the coalescing settings ethtool asks for
 * @eth: the frame engine
 * @ec: the settings; the times and counts of a direction whose adaptive
 *	coalescing stays on are DIM's to choose and are not used
 *
 * Called under RTNL. While the DMA runs, the NAPI contexts are paused
 * (and DIM's work with them) so that the interrupt bit they unmask and
 * whether they sample for DIM change with the settings.
 */
void fe_set_coalesce(struct fe_eth *eth, const struct ethtool_coalesce *ec)
{
	bool running = eth->dma_running;

	if (running) {
		napi_disable(&eth->rx_napi);
		napi_disable(&eth->tx_napi);
		cancel_work_sync(&eth->rx_coal.dim.work);
		cancel_work_sync(&eth->tx_coal.dim.work);
	}
	fe_coal_update(&eth->rx_coal, ec->use_adaptive_rx_coalesce,
		       ec->rx_coalesce_usecs, ec->rx_max_coalesced_frames);
	fe_coal_update(&eth->tx_coal, ec->use_adaptive_tx_coalesce,
		       ec->tx_coalesce_usecs, ec->tx_max_coalesced_frames);
	spin_lock(&eth->coal_lock);
	fe_write_coalesce(eth);
	spin_unlock(&eth->coal_lock);
	if (running) {
		napi_enable(&eth->tx_napi);
		napi_enable(&eth->rx_napi);
	}
	fe_rx_irq_enable(eth);
	fe_tx_irq_enable(eth);
}

/* -- counters ------------------------------------------------------------- */

static void fe_get_stats64(struct net_device *dev,
			   struct rtnl_link_stats64 *stats)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_hw_stats *hw = &mac->hw_stats;
	struct fe_sw_stats *sw = &mac->stats;
	unsigned int start;

	if (netif_running(dev) && spin_trylock_bh(&mac->eth->stats_lock)) {
		mac->eth->soc->mac_ops->stats_update(mac);
		spin_unlock_bh(&mac->eth->stats_lock);
	}

	do {
		start = u64_stats_fetch_begin(&sw->rx_syncp);
		stats->rx_packets = u64_stats_read(&sw->rx_packets);
		stats->rx_bytes = u64_stats_read(&sw->rx_bytes);
		stats->rx_dropped = u64_stats_read(&sw->rx_dropped);
	} while (u64_stats_fetch_retry(&sw->rx_syncp, start));
	do {
		start = u64_stats_fetch_begin(&sw->tx_syncp);
		stats->tx_packets = u64_stats_read(&sw->tx_packets);
		stats->tx_bytes = u64_stats_read(&sw->tx_bytes);
	} while (u64_stats_fetch_retry(&sw->tx_syncp, start));
	stats->tx_dropped = atomic64_read(&sw->tx_dropped);

	do {
		start = u64_stats_fetch_begin(&hw->syncp);
		stats->rx_crc_errors = hw->rx_fcs_errors;
		stats->rx_length_errors = hw->rx_short_errors +
					  hw->rx_long_errors;
		stats->rx_fifo_errors = hw->rx_overflow;
		stats->rx_errors = hw->rx_fcs_errors + hw->rx_short_errors +
				   hw->rx_long_errors + hw->rx_checksum_errors;
		stats->collisions = hw->tx_collisions;
		stats->tx_errors = hw->tx_skip;
	} while (u64_stats_fetch_retry(&hw->syncp, start));
}

/* -- TX ring -------------------------------------------------------------- */

/* A descriptor's control word, where its engine has it */
static __le32 *fe_txd_ctrl(const struct fe_tx_ring *tx, struct fe_tx_desc *d)
{
	return (__le32 *)d + tx->ctrl_word;
}

/*
 * Hand a one-segment descriptor over (once the engine is kicked): the
 * control word last, as the QDMA prefetches along its list
 */
static void fe_txd_fill(const struct fe_tx_ring *tx, struct fe_tx_desc *d,
			dma_addr_t addr, u32 txd4, unsigned int len, bool last)
{
	d->txd1 = cpu_to_le32(addr);
	d->txd4 = cpu_to_le32(txd4);
	fe_txd_ctrl(tx, d)[0] = cpu_to_le32(FIELD_PREP(FE_TXC_PLEN0, len) |
					    tx->ctrl_set |
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

static int fe_tx_alloc(struct fe_eth *eth)
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

static void fe_tx_free_ring(struct fe_eth *eth)
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

/* -- RX ring -------------------------------------------------------------- */

static unsigned int fe_rx_buf_len(struct fe_eth *eth);

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

static int fe_rx_alloc(struct fe_eth *eth)
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

static void fe_rx_free_ring(struct fe_eth *eth)
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

/* -- XDP TX --------------------------------------------------------------- */

/* Queue one XDP frame buffer; caller holds tx->lock. */
static int fe_xdp_queue(struct fe_eth *eth, struct fe_mac *mac,
			dma_addr_t addr, u32 len, bool map_single,
			enum fe_tx_type type, void *data)
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

	fe_txd_fill(tx, d, addr, mac->txd4, len, true);
	tx->head = fe_ring_next(tx->head, tx->size);
	return 0;
}

static void fe_tx_kick(struct fe_eth *eth)
{
	eth->soc->tx_ops->kick(eth, eth->tx.head);
}

static int fe_xdp_xmit(struct net_device *dev, int n,
		       struct xdp_frame **frames, u32 flags)
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

static int fe_rx_poll(struct napi_struct *napi, int budget)
{
	struct fe_eth *eth = container_of(napi, struct fe_eth, rx_napi);
	const struct fe_pdma_regs *p = &eth->soc->regs->pdma;
	struct fe_rx_ring *rx = &eth->rx;
	struct fe_rx_batch *b = &eth->rx_batch;
	LIST_HEAD(rx_list);
	u32 bytes = 0;
	int done = 0;

	/* netpoll polls for TX completions only: nothing to do here */
	if (!budget)
		return 0;

	/* Acknowledge first: a frame arriving from now on raises it again */
	fe_w32(eth, FE_RX_DONE_DLY | FE_RX_DONE_INT0, p->irq_status);
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
		 * tag: tell DSA the source port through a metadata dst.
		 */
		if ((rxd2 & FE_RXD2_VTAG) && mac->dsa_untag &&
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
	if (done < budget && (fe_r32(eth, p->irq_status) & eth->rx_irq_bit))
		return budget;

	if (done < budget && napi_complete_done(napi, done))
		fe_rx_irq_enable(eth);
	return done;
}

/* -- TX NAPI -------------------------------------------------------------- */

static int fe_tx_poll(struct napi_struct *napi, int budget)
{
	struct fe_eth *eth = container_of(napi, struct fe_eth, tx_napi);
	const struct fe_irq_regs *irq = &eth->soc->regs->tx_irq;
	u32 bytes[FE_MAX_MACS] = {}, pkts[FE_MAX_MACS] = {};
	u32 all_pkts = 0, all_bytes = 0;
	struct fe_tx_ring *tx = &eth->tx;
	unsigned int i, tail, done = 0;

	fe_w32(eth, FE_TX_DONE_DLY | FE_TX_DONE_INT0, irq->status);

	spin_lock(&tx->lock);
	tail = tx->tail;
	/*
	 * Every completion, whatever the budget (it limits RX work, napi.rst);
	 * with a budget of 0 (netpoll: TX completions only) no XDP or page
	 * pool call may be made, so the walk stops at the first XDP buffer.
	 */
	while (tail != tx->head) {
		struct fe_tx_buf *buf = &tx->buf[tail];

		if (!(le32_to_cpu(READ_ONCE(*fe_txd_ctrl(tx, &tx->desc[tail]))) &
		      FE_TXC_DONE))
			break;
		if (!budget && (buf->type == FE_TX_XDP_TX ||
				buf->type == FE_TX_XDP_NDO))
			break;

		fe_tx_unmap(eth, buf);
		if (buf->type != FE_TX_NONE) {
			if (buf->type == FE_TX_SKB) {
				bytes[buf->mac] += buf->bytes;
				pkts[buf->mac]++;
			}
			fe_tx_release(eth, buf, budget);
			done++;
		}
		tail = fe_ring_next(tail, tx->size);
	}
	if (tail != tx->tail) {
		tx->tail = tail;
		if (eth->soc->tx_ops->release)
			eth->soc->tx_ops->release(eth, tail);
	}
	spin_unlock(&tx->lock);

	for (i = 0; i < FE_MAX_MACS; i++) {
		struct fe_mac *mac = eth->mac[i];
		struct netdev_queue *txq;

		all_pkts += pkts[i];
		all_bytes += bytes[i];
		if (!mac)
			continue;
		txq = netdev_get_tx_queue(mac->netdev, 0);
		if (pkts[i]) {
			netdev_tx_completed_queue(txq, pkts[i], bytes[i]);
			u64_stats_update_begin(&mac->stats.tx_syncp);
			u64_stats_add(&mac->stats.tx_packets, pkts[i]);
			u64_stats_add(&mac->stats.tx_bytes, bytes[i]);
			u64_stats_update_end(&mac->stats.tx_syncp);
		}
		if (test_bit(i, &tx->stopped) &&
		    fe_tx_free(tx) >= FE_TX_STOP_THRESH &&
		    test_and_clear_bit(i, &tx->stopped))
			netif_tx_wake_queue(txq);
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
			  u32 txd4, bool last, unsigned int *head)
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
			    last && n == len);

		/* Offloads are read from the frame's first descriptor only */
		txd4 = mac->txd4;
		first_chunk = false;
		addr += n;
		len -= n;
		*head = fe_ring_next(*head, tx->size);
	} while (len);
}

static netdev_tx_t fe_start_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_eth *eth = mac->eth;
	struct fe_tx_ring *tx = &eth->tx;
	struct netdev_queue *txq = netdev_get_tx_queue(dev, 0);
	unsigned int i, head, first, needed, last_idx, len;
	dma_addr_t addr;
	bool copy;
	u32 txd4;

	/*
	 * A frame with the MTK special tag (a DSA conduit's user port sent
	 * it) has no Ethernet type where the hardware would insert the VLAN
	 * tag: insert it in software.
	 */
	if (skb_vlan_tag_present(skb) &&
	    !eth_proto_is_802_3(eth_hdr(skb)->h_proto)) {
		skb = __vlan_hwaccel_push_inside(skb);
		if (!skb)
			goto drop_nofree;
	}

	txd4 = mac->txd4;
	if (skb_is_gso(skb)) {
		if (skb_cow_head(skb, 0))
			goto drop;
		/* The TSO engine takes the MSS from the TCP checksum field */
		tcp_hdr(skb)->check = htons(skb_shinfo(skb)->gso_size);
		txd4 |= FE_TXD4_TSO | FE_TXD4_CHKSUM;
	} else if (skb->ip_summed == CHECKSUM_PARTIAL) {
		txd4 |= FE_TXD4_CHKSUM;
	}
	if (skb_vlan_tag_present(skb))
		txd4 |= FE_TXD4_INS_VLAN |
			FIELD_PREP(FE_TXD4_VLAN_TCI, skb_vlan_tag_get(skb));

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
			    true);
		head = fe_ring_next(head, tx->size);
		goto queued;
	}
	addr = dma_map_single(eth->dev, skb->data, skb_headlen(skb),
			      DMA_TO_DEVICE);
	if (unlikely(dma_mapping_error(eth->dev, addr)))
		goto unwind;
	fe_tx_map_buf(eth, mac, addr, skb_headlen(skb), true, txd4,
		      !skb_shinfo(skb)->nr_frags, &head);
	txd4 = mac->txd4;

	for (i = 0; i < skb_shinfo(skb)->nr_frags; i++) {
		skb_frag_t *frag = &skb_shinfo(skb)->frags[i];

		addr = skb_frag_dma_map(eth->dev, frag, 0,
					skb_frag_size(frag), DMA_TO_DEVICE);
		if (unlikely(dma_mapping_error(eth->dev, addr)))
			goto unwind;
		fe_tx_map_buf(eth, mac, addr, skb_frag_size(frag), false,
			      txd4, i == skb_shinfo(skb)->nr_frags - 1, &head);
	}

queued:
	last_idx = fe_ring_prev(head, tx->size);
	tx->buf[last_idx].type = FE_TX_SKB;
	tx->buf[last_idx].data = skb;
	tx->buf[last_idx].bytes = len;
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

/* -- DMA bring-up and teardown -------------------------------------------- */

static void fe_mac_fwd(struct fe_mac *mac, bool up)
{
	mac->eth->soc->mac_ops->fwd_config(mac, up);
}

static void fe_mac_set_max_rx(struct fe_mac *mac, unsigned int mtu)
{
	if (mac->eth->soc->mac_ops->set_max_rx)
		mac->eth->soc->mac_ops->set_max_rx(mac, mtu);
}

/*
 * RX buffer size: the longest frame the MACs let through at the current
 * MTUs. Smaller buffers are cheaper: page_pool syncs this much of a page
 * for the device each time it recycles one.
 */
static unsigned int fe_rx_buf_len(struct fe_eth *eth)
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

/* Hardware untagging of the special tag is global: only if every MAC is a
 * DSA conduit with the MTK tag, and no XDP program wants the tag in place.
 */
static void fe_update_untag(struct fe_eth *eth)
{
	bool untag = eth->soc->has_stag && !eth->xdp_progs;
	unsigned int i;

	for (i = 0; i < FE_MAX_MACS; i++)
		if (eth->mac[i] && !fe_mac_uses_dsa_tag(eth->mac[i]))
			untag = false;

	for (i = 0; i < FE_MAX_MACS; i++)
		if (eth->mac[i])
			eth->mac[i]->dsa_untag = untag;

	if (!eth->soc->has_stag)
		return;
	fe_m32(eth, FE_CDM_STAG_EN, untag ? FE_CDM_STAG_EN : 0,
	       FE_CDMP_IG_CTRL);
	fe_w32(eth, untag ? FE_CDMP_EG_STAG : 0, FE_CDMP_EG_CTRL);
}

/**
 * fe_dma_busy_wait - wait for a DMA engine to go idle
 * @eth: the frame engine
 * @reg: its global configuration register
 *
 * Return: 0, or -EBUSY after about 10 ms.
 */
int fe_dma_busy_wait(struct fe_eth *eth, u32 reg)
{
	unsigned int i;

	for (i = 0; i < 10; i++) {
		if (!(fe_r32(eth, reg) & (FE_DMA_RX_BUSY | FE_DMA_TX_BUSY)))
			return 0;
		usleep_range(1000, 2000);
	}
	dev_warn(eth->dev, "DMA still busy (0x%x)\n", reg);
	return -EBUSY;
}

static void fe_dma_stop(struct fe_eth *eth)
{
	const struct fe_reg_map *regs = eth->soc->regs;

	if (eth->soc->tx_ops->stop)
		eth->soc->tx_ops->stop(eth);
	fe_m32(eth, FE_DMA_TX_EN | FE_DMA_RX_EN | FE_DMA_TX_WB_DDONE, 0,
	       regs->pdma.glo_cfg);
	fe_dma_busy_wait(eth, regs->pdma.glo_cfg);
}

static void fe_rxq_unreg(struct fe_eth *eth)
{
	unsigned int i;

	for (i = 0; i < FE_MAX_MACS; i++) {
		struct fe_mac *mac = eth->mac[i];

		if (!mac || !xdp_rxq_info_is_reg(&mac->xdp_rxq))
			continue;
		/* The memory model is eth->xdp_mem's, unregistered once */
		memset(&mac->xdp_rxq.mem, 0, sizeof(mac->xdp_rxq.mem));
		xdp_rxq_info_unreg(&mac->xdp_rxq);
	}
}

static int fe_rxq_reg(struct fe_eth *eth)
{
	unsigned int i;
	int err;

	for (i = 0; i < FE_MAX_MACS; i++) {
		struct fe_mac *mac = eth->mac[i];

		if (!mac)
			continue;
		err = xdp_rxq_info_reg(&mac->xdp_rxq, mac->netdev, 0,
				       eth->rx_napi.napi_id);
		if (err) {
			fe_rxq_unreg(eth);
			return err;
		}
		mac->xdp_rxq.mem = eth->xdp_mem;
	}
	return 0;
}

static void fe_dma_free(struct fe_eth *eth)
{
	fe_rxq_unreg(eth);
	fe_tx_free_ring(eth);
	fe_rx_free_ring(eth);
}

static int fe_dma_up(struct fe_eth *eth)
{
	const struct fe_reg_map *regs = eth->soc->regs;
	int err;

	fe_irq_disable_all(eth);
	err = fe_tx_alloc(eth);
	if (!err)
		err = fe_rx_alloc(eth);
	if (!err)
		err = fe_rxq_reg(eth);
	if (err) {
		fe_dma_free(eth);
		return err;
	}

	fe_write_coalesce(eth);
	/* Every RX interrupt to the one line we have */
	if (regs->pdma.int_grp)
		fe_w32(eth, FE_RX_DONE_DLY | FE_RX_DONE_INT0,
		       regs->pdma.int_grp + 4);
	fe_w32(eth, ~0, regs->pdma.irq_status);
	fe_w32(eth, ~0, regs->tx_irq.status);

	fe_update_untag(eth);
	if (eth->soc->tx_ops->start)
		eth->soc->tx_ops->start(eth);
	fe_w32(eth, eth->soc->pdma_glo_cfg |
	       (eth->soc->rx_2b_offset && FE_RX_IP_ALIGN ?
		FE_DMA_RX_2B_OFFSET : 0), regs->pdma.glo_cfg);

	napi_enable(&eth->tx_napi);
	napi_enable(&eth->rx_napi);
	eth->dma_running = true;
	fe_rx_irq_enable(eth);
	fe_tx_irq_enable(eth);
	eth->rx_watch_strikes = 0;
	eth->rx_watch_idx = UINT_MAX;	/* no stall seen before a first look */
	if (eth->soc->mac_ops->has_rx_overflow)
		schedule_delayed_work(&eth->rx_watch,
				      round_jiffies_relative(FE_RX_WATCH_PERIOD));
	return 0;
}

static void fe_dma_down(struct fe_eth *eth)
{
	unsigned int i;

	if (!eth->dma_running)
		return;
	eth->dma_running = false;
	cancel_delayed_work_sync(&eth->rx_watch);
	fe_irq_disable_all(eth);
	napi_disable(&eth->rx_napi);
	napi_disable(&eth->tx_napi);
	cancel_work_sync(&eth->rx_coal.dim.work);
	cancel_work_sync(&eth->tx_coal.dim.work);
	for (i = 0; i < FE_MAX_MACS; i++)
		if (eth->mac[i])
			fe_mac_fwd(eth->mac[i], false);
	fe_dma_stop(eth);
	synchronize_irq(eth->irq);
	fe_dma_free(eth);
	for (i = 0; i < FE_MAX_MACS; i++)
		if (eth->mac[i])
			netdev_tx_reset_queue(netdev_get_tx_queue(eth->mac[i]->netdev,
								  0));
}

/* -- netdev ops ----------------------------------------------------------- */

static int fe_open(struct net_device *dev)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_eth *eth = mac->eth;
	int err;

	err = phylink_of_phy_connect(mac->phylink, mac->np, 0);
	if (err) {
		netdev_err(dev, "could not attach PHY: %d\n", err);
		return err;
	}

	if (!eth->dma_running) {
		err = fe_dma_up(eth);
		if (err) {
			phylink_disconnect_phy(mac->phylink);
			return err;
		}
	} else {
		fe_update_untag(eth);
	}
	eth->open_count++;

	fe_mac_set_max_rx(mac, dev->mtu);
	fe_mac_fwd(mac, true);
	phylink_start(mac->phylink);
	netif_tx_start_all_queues(dev);
	return 0;
}

static int fe_stop(struct net_device *dev)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_eth *eth = mac->eth;
	unsigned int i;

	phylink_stop(mac->phylink);
	netif_tx_disable(dev);
	phylink_disconnect_phy(mac->phylink);
	fe_mac_fwd(mac, false);

	if (--eth->open_count) {
		/* The other MAC keeps the DMA: let this one's frames drain */
		for (i = 0; i < FE_TX_DRAIN_TRIES; i++) {
			bool empty;

			spin_lock_bh(&eth->tx.lock);
			empty = eth->tx.head == eth->tx.tail;
			spin_unlock_bh(&eth->tx.lock);
			if (empty)
				break;
			usleep_range(1000, 2000);
		}
		clear_bit(mac->id, &eth->tx.stopped);
		netdev_tx_reset_queue(netdev_get_tx_queue(dev, 0));
		return 0;
	}

	fe_dma_down(eth);
	return 0;
}

static int fe_set_mac_address(struct net_device *dev, void *p)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_eth *eth = mac->eth;
	const u8 *a = dev->dev_addr;
	int err;

	err = eth_mac_addr(dev, p);
	if (err)
		return err;

	eth->soc->mac_ops->set_addr(mac, a);
	return 0;
}

static int fe_change_mtu(struct net_device *dev, int new_mtu)
{
	struct fe_mac *mac = netdev_priv(dev);

	WRITE_ONCE(dev->mtu, new_mtu);
	fe_mac_set_max_rx(mac, new_mtu);
	/* Larger frames than the RX buffers take: new buffers */
	if (mac->eth->dma_running &&
	    fe_rx_buf_len(mac->eth) > mac->eth->rx.buf_len)
		return fe_restart(mac->eth);
	return 0;
}

/*
 * ethtool -K: the offloads the frame engine has all work per frame from
 * dev->features (TX checksums, scatter-gather, TSO and VLAN insertion are
 * asked for by each descriptor), except RX checksumming, which the GDMA
 * does or does not do: program it while the MAC forwards.
 */
static int fe_set_features(struct net_device *dev,
			   netdev_features_t features)
{
	struct fe_mac *mac = netdev_priv(dev);
	netdev_features_t changed = dev->features ^ features;

	if (!(changed & NETIF_F_RXCSUM))
		return 0;
	dev->features = features;
	fe_mac_fwd(mac, netif_running(dev));
	return 0;
}

#ifdef CONFIG_NET_POLL_CONTROLLER
/*
 * netpoll (netconsole), with interrupts off: what the interrupt handler
 * would do. It masks the sources it finds and schedules their NAPI, which
 * netpoll then polls; each poll unmasks its source when it completes.
 */
static void fe_poll_controller(struct net_device *dev)
{
	struct fe_mac *mac = netdev_priv(dev);

	fe_irq(mac->eth->irq, mac->eth);
}
#endif

static int fe_ioctl(struct net_device *dev, struct ifreq *ifr, int cmd)
{
	struct fe_mac *mac = netdev_priv(dev);

	return phylink_mii_ioctl(mac->phylink, ifr, cmd);
}

static void fe_tx_timeout(struct net_device *dev, unsigned int txqueue)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_eth *eth = mac->eth;

	netdev_err(dev, "TX timeout: head %u tail %u, resetting the DMA\n",
		   eth->tx.head, eth->tx.tail);
	schedule_work(&eth->reset_work);
}

/**
 * fe_restart - stop the DMA, rebuild the rings and start it again
 * @eth: the frame engine
 *
 * Called under RTNL. The DMA engines are stopped, every buffer is freed,
 * new rings are set up and every DMA register is written again (TX timeout
 * recovery, ring size, XDP and MTU changes). The MACs keep their link.
 *
 * Return: 0, or a negative error code (the DMA is then left stopped).
 */
int fe_restart(struct fe_eth *eth)
{
	unsigned int i;
	int err;

	ASSERT_RTNL();
	if (!eth->open_count)
		return 0;

	spin_lock_bh(&eth->tx.lock);
	eth->resetting = true;
	spin_unlock_bh(&eth->tx.lock);

	for (i = 0; i < FE_MAX_MACS; i++) {
		struct fe_mac *mac = eth->mac[i];

		if (mac && netif_running(mac->netdev))
			netif_tx_disable(mac->netdev);
	}
	fe_dma_down(eth);

	eth->resetting = false;
	err = fe_dma_up(eth);
	if (err) {
		dev_err(eth->dev, "DMA restart failed: %d\n", err);
		return err;
	}

	for (i = 0; i < FE_MAX_MACS; i++) {
		struct fe_mac *mac = eth->mac[i];

		if (mac && netif_running(mac->netdev)) {
			fe_mac_fwd(mac, true);
			netif_tx_wake_all_queues(mac->netdev);
		}
	}
	return 0;
}

/*
 * A stalled RX DMA takes no frame: the GDMAs drop what comes for the CPU
 * and count it as an RX overflow, while neither the DMA's index nor ours
 * moves. (A ring that is full because the CPU falls behind moves ours.)
 * Drops in FE_RX_WATCH_STRIKES periods with no frame taken since the
 * first of them (periods without traffic in between do not count, and
 * do not clear them): the DMA is restarted as for a TX timeout.
 */
static void fe_rx_watch(struct work_struct *work)
{
	struct fe_eth *eth = container_of(to_delayed_work(work), struct fe_eth,
					  rx_watch);
	const struct fe_pdma_regs *p = &eth->soc->regs->pdma;
	u64 overflow = 0;
	unsigned int i;
	u32 drx;

	/* A MAC that is down has its GDMA drop everything */
	spin_lock_bh(&eth->stats_lock);
	for (i = 0; i < FE_MAX_MACS; i++) {
		struct fe_mac *mac = eth->mac[i];

		if (mac && netif_running(mac->netdev)) {
			eth->soc->mac_ops->stats_update(mac);
			overflow += mac->hw_stats.rx_overflow;
		}
	}
	spin_unlock_bh(&eth->stats_lock);
	drx = fe_r32(eth, p->rx_drx_idx);

	if (drx != eth->rx_watch_drx ||
	    READ_ONCE(eth->rx.idx) != eth->rx_watch_idx) {
		eth->rx_watch_strikes = 0;	/* frames were taken */
	} else if (overflow != eth->rx_watch_overflow &&
		   ++eth->rx_watch_strikes >= FE_RX_WATCH_STRIKES) {
		dev_err(eth->dev,
			"RX DMA stalled (frames dropped, none taken), resetting the DMA\n");
		eth->rx_watch_strikes = 0;
		schedule_work(&eth->reset_work);
	}
	eth->rx_watch_overflow = overflow;
	eth->rx_watch_drx = drx;
	eth->rx_watch_idx = READ_ONCE(eth->rx.idx);
	/* Housekeeping: on whole seconds, with the kernel's other such work */
	schedule_delayed_work(&eth->rx_watch,
			      round_jiffies_relative(FE_RX_WATCH_PERIOD));
}

static void fe_reset_work(struct work_struct *work)
{
	struct fe_eth *eth = container_of(work, struct fe_eth, reset_work);

	rtnl_lock();
	fe_restart(eth);
	rtnl_unlock();
}

static int fe_xdp_setup(struct net_device *dev, struct bpf_prog *prog,
			struct netlink_ext_ack *extack)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_eth *eth = mac->eth;
	struct bpf_prog *old;
	unsigned int before = eth->xdp_progs;

	old = rcu_replace_pointer(mac->xdp_prog, prog, lockdep_rtnl_is_held());
	if (old)
		bpf_prog_put(old);
	if (prog && !old)
		eth->xdp_progs++;
	else if (!prog && old)
		eth->xdp_progs--;

	/* The page_pool mapping direction and hardware untagging change */
	if (!before != !eth->xdp_progs && eth->dma_running)
		return fe_restart(eth);
	return 0;
}

static int fe_bpf(struct net_device *dev, struct netdev_bpf *xdp)
{
	switch (xdp->command) {
	case XDP_SETUP_PROG:
		return fe_xdp_setup(dev, xdp->prog, xdp->extack);
	default:
		return -EINVAL;
	}
}

static const struct net_device_ops fe_netdev_ops = {
	.ndo_open		= fe_open,
	.ndo_stop		= fe_stop,
	.ndo_start_xmit		= fe_start_xmit,
	.ndo_set_mac_address	= fe_set_mac_address,
	.ndo_validate_addr	= eth_validate_addr,
	.ndo_eth_ioctl		= fe_ioctl,
	.ndo_change_mtu		= fe_change_mtu,
	.ndo_tx_timeout		= fe_tx_timeout,
	.ndo_get_stats64	= fe_get_stats64,
	.ndo_set_features	= fe_set_features,
#ifdef CONFIG_NET_POLL_CONTROLLER
	.ndo_poll_controller	= fe_poll_controller,
#endif
	.ndo_bpf		= fe_bpf,
	.ndo_xdp_xmit		= fe_xdp_xmit,
};

/* -- phylink -------------------------------------------------------------- */

static struct fe_mac *fe_phylink_to_mac(struct phylink_config *config)
{
	return container_of(config, struct fe_mac, phylink_config);
}

static void fe_mac_config(struct phylink_config *config, unsigned int mode,
			  const struct phylink_link_state *state)
{
	struct fe_mac *mac = fe_phylink_to_mac(config);
	struct fe_eth *eth = mac->eth;

	if (mac->interface == state->interface)
		return;

	if (eth->soc->ops->mac_config &&
	    eth->soc->ops->mac_config(mac, state->interface)) {
		dev_err(eth->dev, "GMAC%u: cannot set up %s\n", mac->id,
			phy_modes(state->interface));
		return;
	}
	mac->interface = state->interface;
}

static void fe_mac_link_down(struct phylink_config *config, unsigned int mode,
			     phy_interface_t interface)
{
	struct fe_mac *mac = fe_phylink_to_mac(config);

	if (mac->eth->soc->mac_ops->link_down)
		mac->eth->soc->mac_ops->link_down(mac);
}

static void fe_mac_link_up(struct phylink_config *config,
			   struct phy_device *phy, unsigned int mode,
			   phy_interface_t interface, int speed, int duplex,
			   bool tx_pause, bool rx_pause)
{
	struct fe_mac *mac = fe_phylink_to_mac(config);

	if (mac->eth->soc->mac_ops->link_up)
		mac->eth->soc->mac_ops->link_up(mac, speed, duplex, tx_pause,
						rx_pause);
}

static const struct phylink_mac_ops fe_phylink_ops = {
	.mac_config	= fe_mac_config,
	.mac_link_down	= fe_mac_link_down,
	.mac_link_up	= fe_mac_link_up,
};

/* -- probe ---------------------------------------------------------------- */

/* phylink only warns about a fixed link it cannot use: refuse it here */
static int fe_check_fixed_link(struct fe_eth *eth, struct device_node *np)
{
	struct device_node *fl = of_get_child_by_name(np, "fixed-link");
	u32 speed;
	int err = 0;

	if (!fl)
		return 0;
	if (of_property_read_u32(fl, "speed", &speed) ||
	    (speed != SPEED_10 && speed != SPEED_100 && speed != SPEED_1000)) {
		dev_err(eth->dev, "%pOF: missing or invalid \"speed\"\n", fl);
		err = -EINVAL;
	}
	of_node_put(fl);
	return err;
}

static int fe_mac_probe(struct fe_eth *eth, struct device_node *np)
{
	struct net_device *dev;
	phy_interface_t mode;
	struct fe_mac *mac;
	u32 id;
	int err;

	if (of_property_read_u32(np, "reg", &id)) {
		dev_err(eth->dev, "%pOF: missing or invalid \"reg\"\n", np);
		return -EINVAL;
	}
	if (id >= eth->soc->num_macs || eth->mac[id]) {
		dev_err(eth->dev, "%pOF: \"reg\" %u: no such or duplicate MAC\n",
			np, id);
		return -EINVAL;
	}
	err = of_get_phy_mode(np, &mode);
	if (err) {
		dev_err(eth->dev, "%pOF: missing or invalid \"phy-mode\"\n",
			np);
		return err;
	}

	err = fe_check_fixed_link(eth, np);
	if (err)
		return err;

	dev = alloc_etherdev(sizeof(*mac));
	if (!dev)
		return -ENOMEM;

	mac = netdev_priv(dev);
	mac->id = id;
	mac->eth = eth;
	mac->netdev = dev;
	mac->np = np;
	mac->interface = PHY_INTERFACE_MODE_NA;
	if (eth->soc->txd4_fport)
		mac->txd4 = (id + 1) << __ffs(eth->soc->txd4_fport);
	u64_stats_init(&mac->stats.rx_syncp);
	u64_stats_init(&mac->stats.tx_syncp);
	u64_stats_init(&mac->hw_stats.syncp);

	SET_NETDEV_DEV(dev, eth->dev);
	dev->dev.of_node = np;
	dev->netdev_ops = &fe_netdev_ops;
	dev->ethtool_ops = &fe_ethtool_ops;
	dev->watchdog_timeo = 5 * HZ;
	dev->irq = eth->irq;
	dev->hw_features = eth->soc->hw_features;
	dev->features = dev->hw_features;
	dev->vlan_features = dev->hw_features & ~NETIF_F_HW_VLAN_CTAG_TX;
	/*
	 * No IFF_UNICAST_FLT: the GDMA forwards every unicast frame to the
	 * CPU (FE_GDMA_FWD_PDMA), it has no filter for more addresses than
	 * its own, so the stack goes promiscuous for a second address.
	 */
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = eth->soc->max_frame - ETH_HLEN - ETH_FCS_LEN;
	dev->xdp_features = NETDEV_XDP_ACT_BASIC | NETDEV_XDP_ACT_REDIRECT |
			    NETDEV_XDP_ACT_NDO_XMIT;

	err = of_get_ethdev_address(np, dev);
	if (err == -EPROBE_DEFER)
		goto err_free;
	if (err) {
		eth_hw_addr_random(dev);
		dev_info(eth->dev, "GMAC%u: random MAC address %pM\n", id,
			 dev->dev_addr);
	}

	mac->phylink_config.dev = &dev->dev;
	mac->phylink_config.type = PHYLINK_NETDEV;
	eth->soc->ops->phylink_caps(mac, &mac->phylink_config);

	mac->phylink = phylink_create(&mac->phylink_config, of_fwnode_handle(np),
				      mode, &fe_phylink_ops);
	if (IS_ERR(mac->phylink)) {
		err = PTR_ERR(mac->phylink);
		dev_err(eth->dev, "%pOF: invalid \"phy-mode\", \"phy-handle\" or \"fixed-link\": %d\n",
			np, err);
		goto err_free;
	}

	eth->mac[id] = mac;
	return 0;

err_free:
	free_netdev(dev);
	return err;
}

static void fe_macs_free(struct fe_eth *eth)
{
	unsigned int i;

	for (i = 0; i < FE_MAX_MACS; i++) {
		struct fe_mac *mac = eth->mac[i];

		if (!mac)
			continue;
		phylink_destroy(mac->phylink);
		free_netdev(mac->netdev);
		eth->mac[i] = NULL;
	}
}

#define FE_MAX_RESETS	2

/* Pulse the SoC's resets of the frame engine, all at once */
static int fe_hw_reset(struct fe_eth *eth)
{
	const char * const *name = eth->soc->reset_names;
	struct reset_control *rst[FE_MAX_RESETS];
	unsigned int i, n;

	for (n = 0; name[n]; n++) {
		if (WARN_ON(n == FE_MAX_RESETS))
			return -EINVAL;
		rst[n] = devm_reset_control_get_exclusive(eth->dev, name[n]);
		if (IS_ERR(rst[n]))
			return dev_err_probe(eth->dev, PTR_ERR(rst[n]),
					     "missing or invalid reset \"%s\"\n",
					     name[n]);
	}

	for (i = 0; i < n; i++)
		reset_control_assert(rst[i]);
	usleep_range(1000, 2000);
	for (i = n; i--; )
		reset_control_deassert(rst[i]);
	usleep_range(1000, 2000);
	return 0;
}

static void fe_free_dsa_meta(struct fe_eth *eth)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(eth->dsa_meta); i++) {
		if (eth->dsa_meta[i])
			dst_release(&eth->dsa_meta[i]->dst);
		eth->dsa_meta[i] = NULL;
	}
}

static int fe_alloc_dsa_meta(struct fe_eth *eth)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(eth->dsa_meta); i++) {
		struct metadata_dst *md;

		md = metadata_dst_alloc(0, METADATA_HW_PORT_MUX, GFP_KERNEL);
		if (!md) {
			fe_free_dsa_meta(eth);
			return -ENOMEM;
		}
		md->u.port_info.port_id = i;
		eth->dsa_meta[i] = md;
	}
	return 0;
}

static int fe_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	const char * const *clk_name;
	struct device_node *np;
	struct resource *res;
	struct fe_eth *eth;
	struct clk *clk;
	unsigned int i;
	int err;

	eth = devm_kzalloc(dev, sizeof(*eth), GFP_KERNEL);
	if (!eth)
		return -ENOMEM;
	eth->dev = dev;
	eth->soc = of_device_get_match_data(dev);
	spin_lock_init(&eth->tx.lock);
	spin_lock_init(&eth->stats_lock);
	spin_lock_init(&eth->irq_lock);
	eth->irq_shared = eth->soc->regs->tx_irq.mask ==
			  eth->soc->regs->pdma.irq_mask;
	INIT_WORK(&eth->reset_work, fe_reset_work);
	INIT_DELAYED_WORK(&eth->rx_watch, fe_rx_watch);
	eth->rx_ring_size = eth->soc->rx_ring_size;
	eth->tx_ring_size = eth->soc->tx_ring_size;
	spin_lock_init(&eth->coal_lock);
	fe_dim_init(eth, &eth->rx_coal);
	fe_dim_init(eth, &eth->tx_coal);
	eth->rx_copybreak = FE_RX_COPYBREAK;
	eth->tx_copybreak = FE_TX_COPYBREAK;
	platform_set_drvdata(pdev, eth);

	eth->base = devm_platform_get_and_ioremap_resource(pdev, 0, &res);
	if (IS_ERR(eth->base))
		return dev_err_probe(dev, PTR_ERR(eth->base),
				     "missing or invalid \"reg\"\n");
	/* The DT's "reg" covers the frame engine; the MACs follow it */
	if (eth->soc->regs->mac_base) {
		eth->mac_base = devm_ioremap(dev, res->start +
					     eth->soc->regs->mac_base,
					     eth->soc->regs->mac_size);
		if (!eth->mac_base)
			return -ENOMEM;
	}

	if (eth->soc->needs_ethsys) {
		eth->ethsys = syscon_regmap_lookup_by_phandle(dev->of_node,
							      "mediatek,ethsys");
		if (IS_ERR(eth->ethsys))
			return dev_err_probe(dev, PTR_ERR(eth->ethsys),
					     "missing or invalid \"mediatek,ethsys\"\n");
	}

	eth->irq = platform_get_irq(pdev, 0);
	if (eth->irq < 0)
		return dev_err_probe(dev, eth->irq,
				     "missing or invalid \"interrupts\"\n");

	for (clk_name = eth->soc->clk_names; *clk_name; clk_name++) {
		clk = devm_clk_get_enabled(dev, *clk_name);
		if (IS_ERR(clk))
			return dev_err_probe(dev, PTR_ERR(clk),
					     "missing or invalid clock \"%s\"\n",
					     *clk_name);
	}

	err = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(32));
	if (err)
		return err;

	err = fe_hw_reset(eth);
	if (err)
		return err;
	fe_irq_disable_all(eth);
	if (eth->soc->ops->hw_init) {
		err = eth->soc->ops->hw_init(eth);
		if (err)
			return err;
	}

	if (eth->soc->tx_ops->probe) {
		err = eth->soc->tx_ops->probe(eth);
		if (err)
			return err;
	}

	/* Only a CDM that strips the special tag needs them */
	if (eth->soc->has_stag) {
		err = fe_alloc_dsa_meta(eth);
		if (err)
			return err;
	}

	for_each_child_of_node(dev->of_node, np) {
		if (!of_device_is_compatible(np, "mediatek,eth-mac") ||
		    !of_device_is_available(np))
			continue;
		err = fe_mac_probe(eth, np);
		if (err) {
			of_node_put(np);
			goto err_macs;
		}
	}
	if (!eth->mac[0] && !eth->mac[1]) {
		dev_err(dev, "no \"mediatek,eth-mac\" child\n");
		err = -ENODEV;
		goto err_macs;
	}

	eth->napi_dev = alloc_netdev_dummy(0);
	if (!eth->napi_dev) {
		err = -ENOMEM;
		goto err_macs;
	}
	netif_napi_add(eth->napi_dev, &eth->rx_napi, fe_rx_poll);
	netif_napi_add_tx(eth->napi_dev, &eth->tx_napi, fe_tx_poll);

	err = devm_request_irq(dev, eth->irq, fe_irq, 0, dev_name(dev), eth);
	if (err)
		goto err_napi;

	err = fe_mdio_init(eth);
	if (err)
		goto err_irq;

	for (i = 0; i < FE_MAX_MACS; i++) {
		if (!eth->mac[i])
			continue;
		err = register_netdev(eth->mac[i]->netdev);
		if (err) {
			dev_err(dev, "GMAC%u: register_netdev: %d\n", i, err);
			goto err_unreg;
		}
	}

	dev_info(dev, "%s frame engine, IRQ %d\n", eth->soc->name, eth->irq);
	return 0;

err_unreg:
	while (i--)
		if (eth->mac[i])
			unregister_netdev(eth->mac[i]->netdev);
	fe_mdio_cleanup(eth);
err_irq:
	devm_free_irq(dev, eth->irq, eth);
err_napi:
	netif_napi_del(&eth->tx_napi);
	netif_napi_del(&eth->rx_napi);
	free_netdev(eth->napi_dev);
err_macs:
	fe_macs_free(eth);
	fe_free_dsa_meta(eth);
	return err;
}

static void fe_remove(struct platform_device *pdev)
{
	struct fe_eth *eth = platform_get_drvdata(pdev);
	unsigned int i;

	/* The switch on the MDIO bus goes first: it uses our conduits */
	fe_mdio_cleanup(eth);
	for (i = 0; i < FE_MAX_MACS; i++)
		if (eth->mac[i])
			unregister_netdev(eth->mac[i]->netdev);
	cancel_work_sync(&eth->reset_work);
	fe_irq_disable_all(eth);
	devm_free_irq(&pdev->dev, eth->irq, eth);
	netif_napi_del(&eth->tx_napi);
	netif_napi_del(&eth->rx_napi);
	free_netdev(eth->napi_dev);
	fe_macs_free(eth);
	fe_free_dsa_meta(eth);
}

static const struct of_device_id fe_of_match[] = {
	{ .compatible = "mediatek,mt7621-eth", .data = &fe_mt7621_data },
	{ .compatible = "ralink,rt5350-eth", .data = &fe_rt5350_data },
	{ /* sentinel */ }
};
MODULE_DEVICE_TABLE(of, fe_of_match);

static struct platform_driver fe_driver = {
	.probe = fe_probe,
	.remove = fe_remove,
	.driver = {
		.name = FE_DRV_NAME,
		.of_match_table = fe_of_match,
	},
};
module_platform_driver(fe_driver);

MODULE_AUTHOR("Seed a6eb6a1b maintainers <maintainers@users.noreply.a-seed-a6eb6a1b.example>");
MODULE_DESCRIPTION("Ralink/MediaTek SoC frame engine Ethernet driver");
MODULE_LICENSE("GPL");
