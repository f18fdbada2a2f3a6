// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek SoC frame engine Ethernet driver: PDMA TX
 *
 * The packet DMA's TX ring 0 (RT305x, RT5350, MT7628; the MT7621 has it
 * beside the QDMA): the CPU hands descriptors over by moving the CPU
 * index, the DMA sends them in order and sets DDONE in each (with
 * FE_DMA_TX_WB_DDONE, which every driver sets) before moving its own
 * index past it. The completion looks at DDONE, so it reads no register.
 *
 * A descriptor can carry two segments (txd1/txd2's SDL0 and txd3/txd2's
 * SDL1); this driver uses the first only, so that its control word has
 * the QDMA's layout, and a frame of several buffers takes several
 * descriptors, LS0 marking its last.
 */

#include "fe_core.h"

static void fe_pdma_ring_init(struct fe_eth *eth)
{
	const struct fe_pdma_regs *p = &eth->soc->regs->pdma;
	struct fe_tx_ring *tx = &eth->tx;
	unsigned int i;

	for (i = 0; i < tx->size; i++)
		tx->desc[i].txd3 = 0;	/* no second segment */

	fe_w32(eth, tx->phys, p->tx_base);
	fe_w32(eth, tx->size, p->tx_max_cnt);
	fe_w32(eth, 0, p->tx_ctx_idx);
	fe_w32(eth, FE_PDMA_RST_DTX(0), p->rst_idx);
}

static void fe_pdma_kick(struct fe_eth *eth, unsigned int head)
{
	fe_w32(eth, head, eth->soc->regs->pdma.tx_ctx_idx);
}

const struct fe_tx_ops fe_pdma_tx_ops = {
	.ctrl_word	= 1,	/* txd2 */
	.ctrl_idle	= FE_TXC_DONE | FE_TXC_LS0,
	.ring_init	= fe_pdma_ring_init,
	.kick		= fe_pdma_kick,
};
