// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek SoC frame engine Ethernet driver: MT7620A, MT7620N
 *
 * One port, into the CPU port of the SoC's gigabit switch (GSW), through
 * GDMA1: the RT5350's PDMA register map (PDMA at 0x800, both directions'
 * interrupts at 0xa20/0xa28) around the RT305x's blocks at other places:
 * the CDMA at 0x400 (TX checksum enables, the 16-entry TX VLAN table at
 * 0x430), GDMA1 at 0x600 (RX checksum checks, its MAC address at
 * 0x608/0x60c) and its counters at 0x1300 in the RT305x's layout (the
 * Ralink SDK's ra_eth_reg.h, OpenWrt's soc_mt7620.c). The RX DMA takes a
 * buffer's size from its descriptor (OpenWrt's FE_FLAG_RX_SG_DMA) and
 * can start a frame 2 bytes in. rxd4 says a frame's checksums are right
 * in bit 23. The switch port travels in the descriptors (rxd4 21:19,
 * txd4 27:20), exchanged with the GSW's DSA tag driver in metadata dsts:
 * 0 in txd4 lets the switch forward by address. Scatter-gather, TSO and
 * IPv6 checksums only from the chip's ECO 5 on (OpenWrt's soc_mt7620.c:
 * "Early chip revisions had a few bugs"); its revision is in the system
 * controller's CHIP_REV ("mediatek,ethsys").
 */

#include <linux/bitfield.h>
#include <linux/regmap.h>

#include "fe_core.h"

#define MT7620_RX_L4_VALID	BIT(23)
#define MT7620_RXD4_SP		GENMASK(21, 19)
#define MT7620_TXD4_FP_BMAP	GENMASK(27, 20)

/* The system controller's CHIP_REV and the ECO that has every offload */
#define MT7620_SYSC_CHIP_REV	0x0c
#define MT7620_CHIP_REV_ECO	GENMASK(3, 0)
#define MT7620_ECO_FULL		5
#define MT7620_ECO_FEATURES	(NETIF_F_SG | NETIF_F_TSO | NETIF_F_TSO6 | \
				 NETIF_F_IPV6_CSUM)

static const struct fe_reg_map mt7620_regs = {
	.pdma = {
		FE_PDMA_REGS_0800,
	},
	.rx_irq = FE_PDMA_RX_IRQ_0A00,
	.tx_irq = FE_PDMA_TX_IRQ_0A00,
	.gdma_fwd	= 0x0600,
	.gdma_mac_adrl	= 0x0608,
	.gdma_mac_adrh	= 0x060c,
	.gdma_stride	= 0x0040,
	.gdm_cnt	= 0x1300,
	.cdma_csg	= 0x0400,
	.vid_table	= 0x0430,
};

static int mt7620_hw_init(struct fe_eth *eth)
{
	unsigned int eco;
	u32 rev;
	int err;

	err = regmap_read(eth->ethsys, MT7620_SYSC_CHIP_REV, &rev);
	if (err)
		return err;
	eco = FIELD_GET(MT7620_CHIP_REV_ECO, rev);
	if (eco >= MT7620_ECO_FULL)
		eth->hw_features |= MT7620_ECO_FEATURES;
	else
		dev_info(eth->dev,
			 "ECO %u: no scatter-gather, TSO or IPv6 checksums\n",
			 eco);
	return 0;
}

static const struct fe_soc_ops mt7620_ops = {
	.hw_init	= mt7620_hw_init,
	.phylink_caps	= fe_phylink_caps_gmii,
};

static const char * const mt7620_clks[] = { NULL };
static const char * const mt7620_resets[] = { "fe", NULL };

const struct fe_soc_data fe_mt7620_data = {
	.name		= "MT7620",
	.regs		= &mt7620_regs,
	.ops		= &mt7620_ops,
	.tx_ops		= &fe_pdma_tx_ops,
	/* GDMA1 and its counters as the RT305x has them */
	.mac_ops	= &fe_gdma_rt3050_mac_ops,
	.clk_names	= mt7620_clks,
	.reset_names	= mt7620_resets,
	.needs_ethsys	= true,
	.num_macs	= 1,
	.max_frame	= 2048,
	.rx_2b_offset	= true,
	.rx_l4_valid	= MT7620_RX_L4_VALID,
	.rx_swport	= MT7620_RXD4_SP,
	.txd4_swports	= MT7620_TXD4_FP_BMAP,
	.pdma_glo_cfg	= FE_DMA_TX_WB_DDONE | FE_DMA_TX_EN | FE_DMA_RX_EN |
			  FE_DMA_TX_BT_8DWORDS,
	.hw_features	= NETIF_F_IP_CSUM | NETIF_F_RXCSUM |
			  NETIF_F_HW_VLAN_CTAG_TX,
	.rx_ring_size	= 256,
	.tx_ring_size	= 256,
};
