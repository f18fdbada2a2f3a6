// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek SoC frame engine Ethernet driver: QDMA TX
 *
 * The queueing DMA of the MT7621 and later: the TX descriptors form a
 * closed linked list (txd2 points to the next one), the CPU hands them
 * over by moving its TX pointer and takes them back once the engine has
 * set OWNER_CPU, telling it how far through the release pointer. The
 * engine stages frames in buffers of its own, the free queue.
 */

#include <linux/dma-mapping.h>

#include "fe_core.h"

/*
 * The QDMA's free queue: buffers the engine's scheduler stages frames in.
 * The CPU never touches their contents. Allocated once (1 MiB on MT7621,
 * contiguous), linked again at every DMA start.
 */
/*
 * A queue's scheduler word as mainline's mtk_tx_alloc() and
 * mtk_set_queue_speed() write it on the MT7621: a min rate of 10 Mbit/s
 * (1 * 10^4 kbit/s), the leaky bucket, and for a link of @speed a max
 * rate a little above it (103 * 10^2, 103 * 10^3, 105 * 10^4 kbit/s) with
 * the weight mainline gives it; 0: no max rate
 */
static u32 fe_qdma_sch(int speed)
{
	u32 val = FE_QTX_SCH_MIN_EN | FIELD_PREP(FE_QTX_SCH_MIN_MAN, 1) |
		  FIELD_PREP(FE_QTX_SCH_MIN_EXP, 4) | FE_QTX_SCH_LB_EN |
		  FE_QTX_SCH_LB_SIZE;

	switch (speed) {
	case SPEED_10:
		return val | FE_QTX_SCH_MAX_EN |
		       FIELD_PREP(FE_QTX_SCH_MAX_MAN, 103) |
		       FIELD_PREP(FE_QTX_SCH_MAX_EXP, 2) |
		       FIELD_PREP(FE_QTX_SCH_WEIGHT, 1);
	case SPEED_100:
		return val | FE_QTX_SCH_MAX_EN |
		       FIELD_PREP(FE_QTX_SCH_MAX_MAN, 103) |
		       FIELD_PREP(FE_QTX_SCH_MAX_EXP, 3) |
		       FIELD_PREP(FE_QTX_SCH_WEIGHT, 1);
	case SPEED_1000:
		return val | FE_QTX_SCH_MAX_EN |
		       FIELD_PREP(FE_QTX_SCH_MAX_MAN, 105) |
		       FIELD_PREP(FE_QTX_SCH_MAX_EXP, 4) |
		       FIELD_PREP(FE_QTX_SCH_WEIGHT, 10);
	default:
		return val;
	}
}

/* A rate in kbit/s as QTX_SCH's mantissa and exponent, rounded */
static u32 fe_qdma_max_rate(u64 kbps)
{
	unsigned int exp = 0;
	u64 scale = 1;

	while (kbps > 127 * scale) {
		exp++;
		scale *= 10;
	}
	return FE_QTX_SCH_MAX_EN |
	       FIELD_PREP(FE_QTX_SCH_MAX_MAN,
			  min_t(u64, DIV_ROUND_CLOSEST_ULL(kbps, scale), 127)) |
	       FIELD_PREP(FE_QTX_SCH_MAX_EXP, exp);
}

/*
 * Program queue @queue: its link's max rate (fe_qdma_sch()), or tc's if
 * that is lower
 */
static void fe_qdma_queue_update(struct fe_eth *eth, unsigned int queue)
{
	u32 val = fe_qdma_sch(eth->qtx_speed[queue]);
	u64 link_kbps = eth->qtx_speed[queue] * 1000ULL;
	u64 tc_kbps = eth->qtx_tc_kbps[queue];

	if (tc_kbps && (!link_kbps || tc_kbps < link_kbps)) {
		val &= ~(FE_QTX_SCH_MAX_EN | FE_QTX_SCH_MAX_MAN |
			 FE_QTX_SCH_MAX_EXP | FE_QTX_SCH_WEIGHT);
		val |= fe_qdma_max_rate(tc_kbps) |
		       FIELD_PREP(FE_QTX_SCH_WEIGHT, 1);
	}
	eth->qtx_sch[queue] = val;
	fe_w32(eth, val, eth->soc->regs->qdma.qtx_sch + queue * FE_QTX_STRIDE);
}

/* QDMA queue @queue's link: @speed (0: no max rate for it); under RTNL */
void fe_qdma_set_queue_speed(struct fe_eth *eth, unsigned int queue,
			     int speed)
{
	eth->qtx_speed[queue] = speed;
	fe_qdma_queue_update(eth, queue);
}

/*
 * A tc TBF on QDMA queue @queue (@bps: its rate in bit/s, 0: none); under
 * RTNL. The hardware's rates are a mantissa of 7 bits times a power of
 * ten kbit/s: from 1 kbit/s to 127 Gbit/s here, within 4 % (a mantissa
 * of 13 or more, rounded).
 */
int fe_qdma_set_queue_rate(struct fe_eth *eth, unsigned int queue, u64 bps)
{
	u64 kbps = DIV_ROUND_CLOSEST_ULL(bps, 1000);

	if (bps && (!kbps || kbps > 127ULL * 1000 * 1000))
		return -ERANGE;
	eth->qtx_tc_kbps[queue] = kbps;
	fe_qdma_queue_update(eth, queue);
	return 0;
}

static int fe_qdma_probe(struct fe_eth *eth)
{
	unsigned int i, n = eth->soc->fq_size;

	for (i = 0; i < FE_QTX_NUM; i++)
		eth->qtx_sch[i] = fe_qdma_sch(0);

	eth->fq = dmam_alloc_coherent(eth->dev, n * sizeof(*eth->fq),
				      &eth->fq_phys, GFP_KERNEL);
	if (!eth->fq)
		return -ENOMEM;

	eth->fq_buf = dmam_alloc_coherent(eth->dev, n * FE_QDMA_PAGE_SIZE,
					  &eth->fq_buf_phys, GFP_KERNEL);
	if (!eth->fq_buf)
		return -ENOMEM;
	return 0;
}

static void fe_qdma_fq_init(struct fe_eth *eth)
{
	const struct fe_qdma_regs *q = &eth->soc->regs->qdma;
	unsigned int i, n = eth->soc->fq_size;

	for (i = 0; i < n; i++) {
		struct fe_tx_desc *d = &eth->fq[i];

		d->txd1 = cpu_to_le32(eth->fq_buf_phys +
				      i * FE_QDMA_PAGE_SIZE);
		d->txd2 = cpu_to_le32(i + 1 < n ? eth->fq_phys +
				      (i + 1) * sizeof(*d) : 0);
		d->txd3 = cpu_to_le32(FIELD_PREP(FE_TXC_PLEN0,
						 FE_QDMA_PAGE_SIZE));
		d->txd4 = 0;
	}

	fe_w32(eth, eth->fq_phys, q->fq_head);
	fe_w32(eth, eth->fq_phys + (n - 1) * sizeof(struct fe_tx_desc),
	       q->fq_tail);
	fe_w32(eth, (n << 16) | n, q->fq_count);
	fe_w32(eth, FE_QDMA_PAGE_SIZE << 16, q->fq_blen);
}

static void fe_qdma_ring_init(struct fe_eth *eth)
{
	const struct fe_qdma_regs *q = &eth->soc->regs->qdma;
	struct fe_tx_ring *tx = &eth->tx;
	unsigned int i;

	fe_qdma_fq_init(eth);

	/* A closed list of descriptors released to the CPU */
	for (i = 0; i < tx->size; i++) {
		dma_addr_t next = fe_tx_desc_phys(tx, fe_ring_next(i, tx->size));

		tx->desc[i].txd2 = cpu_to_le32(next);
	}

	fe_w32(eth, tx->phys, q->ctx_ptr);
	fe_w32(eth, tx->phys, q->dtx_ptr);
	fe_w32(eth, fe_tx_desc_phys(tx, tx->size - 1), q->crx_ptr);
	fe_w32(eth, fe_tx_desc_phys(tx, tx->size - 1), q->drx_ptr);

	for (i = 0; i < FE_QTX_NUM; i++) {
		fe_w32(eth, FIELD_PREP(FE_QTX_RSV_MIN, FE_QTX_RSV_DEFAULT) |
		       FIELD_PREP(FE_QTX_RSV_MAX, FE_QTX_RSV_DEFAULT),
		       q->qtx_cfg + i * FE_QTX_STRIDE);
		fe_w32(eth, eth->qtx_sch[i], q->qtx_sch + i * FE_QTX_STRIDE);
	}
	fe_w32(eth, FE_QDMA_TX_SCH_MAX_WFQ | (FE_QDMA_TX_SCH_MAX_WFQ << 16),
	       q->tx_sch_rate);
}

static void fe_qdma_start(struct fe_eth *eth)
{
	const struct fe_qdma_regs *q = &eth->soc->regs->qdma;
	const struct fe_irq_regs *irq = &eth->soc->regs->tx_irq;

	/* Every TX completion to the one interrupt line we have */
	fe_w32(eth, irq->done | irq->done_dly, q->int_grp);
	if (eth->soc->has_stag)
		fe_m32(eth, 0, FE_CDM_STAG_EN, FE_CDMQ_IG_CTRL);
	fe_w32(eth, FE_DMA_TX_EN | FE_DMA_RX_EN | FE_DMA_TX_BT_32DWORDS |
	       FE_DMA_NDP_CO_PRO | FE_DMA_RX_2B_OFFSET | FE_DMA_TX_WB_DDONE |
	       FE_DMA_RX_BT_32DWORDS, q->glo_cfg);
}

static void fe_qdma_stop(struct fe_eth *eth)
{
	const struct fe_qdma_regs *q = &eth->soc->regs->qdma;

	fe_m32(eth, FE_DMA_TX_EN | FE_DMA_RX_EN | FE_DMA_TX_WB_DDONE, 0,
	       q->glo_cfg);
	fe_dma_busy_wait(eth, q->glo_cfg);
}

static void fe_qdma_kick(struct fe_eth *eth, unsigned int head)
{
	fe_w32(eth, fe_tx_desc_phys(&eth->tx, head),
	       eth->soc->regs->qdma.ctx_ptr);
}

/* The CPU took everything up to the one before @tail */
static void fe_qdma_release(struct fe_eth *eth, unsigned int tail)
{
	fe_w32(eth, fe_tx_desc_phys(&eth->tx, fe_ring_prev(tail, eth->tx.size)),
	       eth->soc->regs->qdma.crx_ptr);
}

const struct fe_tx_ops fe_qdma_tx_ops = {
	.ctrl_word	= 2,	/* txd3 */
	.ctrl_set	= FE_TXD3_SWC,
	.ctrl_idle	= FE_TXC_DONE | FE_TXC_LS0,
	.link		= true,
	.probe		= fe_qdma_probe,
	.ring_init	= fe_qdma_ring_init,
	.start		= fe_qdma_start,
	.stop		= fe_qdma_stop,
	.kick		= fe_qdma_kick,
	.release	= fe_qdma_release,
};
