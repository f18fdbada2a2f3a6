// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek SoC frame engine Ethernet driver: RT2880, RT3883
 *
 * The RT305x's older register map (PDMA at 0x100, interrupts at
 * 0x10/0x14, GDMA1 at 0x20 with its counters at 0x700, the TX VLAN table
 * at 0xa8: fe_rt3050.c) with no switch behind GDMA1: it leads to a
 * gigabit MAC with an external PHY on RGMII, which the frame engine's own
 * MDIO master reaches (access register 0x00, GMAC1's forced link mode in
 * 0x04: fe_mdio.c, fe_gdma.c), as OpenWrt's soc_rt2880.c, soc_rt3883.c
 * and mdio_rt2880.c program them. The two differ in checksum offload:
 * the RT3883 verifies RX checksums in GDMA1 and computes TX ones as the
 * CDMA allows (as the RT305x); the RT2880 does neither (OpenWrt leaves
 * NETIF_F_IP_CSUM and NETIF_F_RXCSUM off there: "maybe have hardware
 * bug"). The RT3883's second GMAC (GDMA2) is not supported. RX buffers of
 * 1536 bytes; no TSO.
 */

#include "fe_core.h"

/* MDIO_ACCESS and MDIO_CFG (OpenWrt's FE_MDIO_ACCESS, FE_MDIO_CFG) */
#define RT2880_MDIO_REGS		\
	.mdio_access	= 0x0000,	\
	.mdio_cfg	= 0x0004

static const struct fe_reg_map rt3883_regs = {
	FE_REGS_0100,
	.cdma_csg	= 0x0080,
	RT2880_MDIO_REGS,
};

/* The RT3883's without the CDMA's TX checksum enables */
static const struct fe_reg_map rt2880_regs = {
	FE_REGS_0100,
	RT2880_MDIO_REGS,
};

/* GMAC1: RGMII (or MII, RMII) to its PHY, 10 to 1000 Mbit/s */
static void rt2880_phylink_caps(struct fe_mac *mac,
				struct phylink_config *config)
{
	config->mac_capabilities = MAC_ASYM_PAUSE | MAC_SYM_PAUSE | MAC_10 |
				   MAC_100 | MAC_1000FD;
	phy_interface_set_rgmii(config->supported_interfaces);
	__set_bit(PHY_INTERFACE_MODE_MII, config->supported_interfaces);
	__set_bit(PHY_INTERFACE_MODE_RMII, config->supported_interfaces);
}

static const struct fe_soc_ops rt2880_ops = {
	.phylink_caps	= rt2880_phylink_caps,
};

static const char * const rt2880_clks[] = { NULL };
static const char * const rt2880_resets[] = { "fe", NULL };

/* What the two share; .regs, .rx_l4_valid and .hw_features differ */
#define RT2880_DATA						\
	.ops		= &rt2880_ops,				\
	.tx_ops		= &fe_pdma_tx_ops,			\
	.mac_ops	= &fe_gdma_rt2880_mac_ops,		\
	.clk_names	= rt2880_clks,				\
	.reset_names	= rt2880_resets,			\
	.num_macs	= 1,					\
	.max_frame	= 1536,					\
	.rx_fixed_buf_len = 1536,				\
	.pdma_glo_cfg	= FE_DMA_TX_WB_DDONE | FE_DMA_TX_EN |	\
			  FE_DMA_RX_EN | FE_DMA_TX_BT_8DWORDS,	\
	.txd4_fport	= FE_TXD4_PN,				\
	.rx_ring_size	= 256,					\
	.tx_ring_size	= 256

const struct fe_soc_data fe_rt3883_data = {
	.name		= "RT3883",
	.regs		= &rt3883_regs,
	RT2880_DATA,
	.rx_l4_valid	= BIT(30),
	.hw_features	= NETIF_F_SG | NETIF_F_IP_CSUM | NETIF_F_RXCSUM |
			  NETIF_F_HW_VLAN_CTAG_TX,
};

const struct fe_soc_data fe_rt2880_data = {
	.name		= "RT2880",
	.regs		= &rt2880_regs,
	RT2880_DATA,
	.hw_features	= NETIF_F_SG | NETIF_F_HW_VLAN_CTAG_TX,
};
