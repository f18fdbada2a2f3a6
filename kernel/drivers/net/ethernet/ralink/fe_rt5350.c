// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek SoC frame engine Ethernet driver: RT5350, MT7628/MT7688
 *
 * One port, to the embedded 10/100 switch's CPU port (its own DSA
 * driver), through the SDM (fe_sdm.c): no GDMA, no QDMA, no MDIO master
 * of the frame engine's. RX and TX through PDMA ring 0, both directions'
 * interrupts in one status and one enable register. The register map is
 * mainline's mt7628_reg_map and the 2016 series' RT5350 one. The RX DMA
 * fills up to 1536 bytes whatever rxd2 says (mainline's MTK_MAX_RX_LENGTH,
 * rxd2 written with LS0 only), and is not asked for the 2-byte offset
 * (mainline offsets the buffer address instead); no TX checksums.
 */

#include "fe_core.h"

static const struct fe_reg_map rt5350_regs = {
	.pdma = {
		FE_PDMA_REGS_0800,
	},
	.rx_irq = FE_PDMA_RX_IRQ_0A00,
	.tx_irq = FE_PDMA_TX_IRQ_0A00,
};

static const struct fe_soc_ops rt5350_ops = {
	.phylink_caps	= fe_phylink_caps_gmii,
};

static const char * const rt5350_clks[] = { NULL };
static const char * const rt5350_resets[] = { "fe", NULL };

const struct fe_soc_data fe_rt5350_data = {
	.name		= "RT5350/MT7628",
	.regs		= &rt5350_regs,
	.ops		= &rt5350_ops,
	.tx_ops		= &fe_pdma_tx_ops,
	.mac_ops	= &fe_sdm_mac_ops,
	.clk_names	= rt5350_clks,
	.reset_names	= rt5350_resets,
	.num_macs	= 1,
	.max_frame	= 1536,
	.rx_fixed_buf_len = 1536,
	.rx_l4_valid	= BIT(30),
	.pdma_glo_cfg	= FE_DMA_TX_WB_DDONE | FE_DMA_TX_EN | FE_DMA_RX_EN |
			  FE_DMA_MULTI_EN | FE_DMA_TX_BT_8DWORDS,
	.hw_features	= NETIF_F_SG | NETIF_F_RXCSUM,
	.rx_ring_size	= 256,
	.tx_ring_size	= 256,
};
