// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek SoC frame engine Ethernet driver: RT3050, RT3052, RT3350
 *
 * One port, to the embedded 10/100 switch's CPU port, through GDMA1
 * (fe_gdma.c): RX checksum verification there, TX checksums (IPv4, TCP,
 * UDP) computed as txd4 asks once the CDMA enables them. RX and TX through
 * PDMA ring 0 (fe_tx_pdma.c) in the frame engine's older register map:
 * the PDMA from 0x100, the interrupt status and enable at 0x10/0x14, the
 * GDMA at 0x20, its counters at 0x700 (the 2016 series' mtk_eth_soc.h,
 * OpenWrt's soc_rt3050.c and the Ralink SDK's raeth name them alike). The
 * RX DMA fills up to 1536 bytes whatever rxd2 says (the drivers write it
 * with LS0 only) and is not asked for the 2-byte offset; txd4 names GDMA1
 * as the forward port. No TSO. TX VLAN insertion names an entry of the
 * 16-entry VLAN table at 0xa8 (fe_tx.c).
 */

#include "fe_core.h"

static const struct fe_reg_map rt3050_regs = {
	FE_REGS_0100,
	.cdma_csg	= 0x0080,
};

static const struct fe_soc_ops rt3050_ops = {
	.phylink_caps	= fe_phylink_caps_gmii,
};

static const char * const rt3050_clks[] = { NULL };
static const char * const rt3050_resets[] = { "fe", NULL };

const struct fe_soc_data fe_rt3050_data = {
	.name		= "RT3050",
	.regs		= &rt3050_regs,
	.ops		= &rt3050_ops,
	.tx_ops		= &fe_pdma_tx_ops,
	.mac_ops	= &fe_gdma_rt3050_mac_ops,
	.clk_names	= rt3050_clks,
	.reset_names	= rt3050_resets,
	.num_macs	= 1,
	.max_frame	= 1536,
	.rx_fixed_buf_len = 1536,
	.rx_l4_valid	= BIT(30),
	.pdma_glo_cfg	= FE_DMA_TX_WB_DDONE | FE_DMA_TX_EN | FE_DMA_RX_EN |
			  FE_DMA_TX_BT_8DWORDS,
	.hw_features	= NETIF_F_SG | NETIF_F_IP_CSUM | NETIF_F_RXCSUM |
			  NETIF_F_HW_VLAN_CTAG_TX,
	.txd4_fport	= FE_TXD4_PN,
	.rx_ring_size	= 256,
	.tx_ring_size	= 256,
};
