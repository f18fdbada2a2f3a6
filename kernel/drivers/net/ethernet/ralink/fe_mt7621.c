// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek SoC frame engine Ethernet driver: MT7621
 *
 * Two GMACs: GMAC0 (TRGMII or RGMII) to port 6 of the MT7530 core, GMAC1
 * (RGMII) to port 5 or an external PHY. RX through PDMA ring 0, TX through
 * QDMA, the MACs behind GDMAs. The MDIO master and the MACs are at 0x10000
 * from the frame engine.
 */

#include <linux/mfd/syscon.h>
#include <linux/regmap.h>

#include "fe_core.h"

/* System controller ("ethsys") registers */
#define MT7621_SYSCFG0			0x14
#define MT7621_SYSCFG0_GE_MODE(id)	(GENMASK(13, 12) << ((id) * 2))
#define MT7621_GE_MODE_RGMII		0
#define MT7621_GE_MODE_MII		1
#define MT7621_CLKCFG0			0x2c
#define MT7621_CLKCFG0_TRGMII_CLK	GENMASK(6, 5)
#define MT7621_TRGMII_CLK_DDR_PLL	1	/* TRGMII clock from the DDR PLL */

static const struct fe_reg_map mt7621_regs = {
	.pdma = {
		FE_PDMA_REGS_0800,
		.int_grp	= 0x0a50,
	},
	.qdma = {
		.qtx_cfg	= 0x1800,
		.qtx_sch	= 0x1804,
		.glo_cfg	= 0x1a04,
		.rst_idx	= 0x1a08,
		.fc_th		= 0x1a10,
		.int_grp	= 0x1a20,
		.hred		= 0x1a44,
		.ctx_ptr	= 0x1b00,
		.dtx_ptr	= 0x1b04,
		.crx_ptr	= 0x1b10,
		.drx_ptr	= 0x1b14,
		.fq_head	= 0x1b20,
		.fq_tail	= 0x1b24,
		.fq_count	= 0x1b28,
		.fq_blen	= 0x1b2c,
		.tx_sch_rate	= 0x1a14,
	},
	.rx_irq = FE_PDMA_RX_IRQ_0A00,
	.tx_irq = {			/* the QDMA's */
		.status		= 0x1a18,
		.mask		= 0x1a1c,
		.delay		= 0x1a0c,
		.done		= FE_TX_DONE_INT0,
		.done_dly	= FE_TX_DONE_DLY,
	},
	.fe_int_enable	= FE_INT_ENABLE,
	.gdma_fwd	= 0x0500,
	.gdma_mac_adrl	= 0x0508,
	.gdma_mac_adrh	= 0x050c,
	.gdma_stride	= 0x1000,
	.gdm_cnt	= 0x2400,
	.ppe		= 0x0c00,
	.mac_base	= 0x10000,
	.mac_size	= 0x10000,
};

static int mt7621_mac_config(struct fe_mac *mac, phy_interface_t interface)
{
	struct fe_eth *eth = mac->eth;
	u32 mode = MT7621_GE_MODE_RGMII;

	if (interface == PHY_INTERFACE_MODE_MII)
		mode = MT7621_GE_MODE_MII;

	if (!mac->id)
		regmap_update_bits(eth->ethsys, MT7621_CLKCFG0,
				   MT7621_CLKCFG0_TRGMII_CLK,
				   interface == PHY_INTERFACE_MODE_TRGMII ?
				   FIELD_PREP(MT7621_CLKCFG0_TRGMII_CLK,
					      MT7621_TRGMII_CLK_DDR_PLL) : 0);

	return regmap_update_bits(eth->ethsys, MT7621_SYSCFG0,
				  MT7621_SYSCFG0_GE_MODE(mac->id),
				  mode << (12 + mac->id * 2));
}

/* GMAC0: TRGMII to the MT7530 too */
static void mt7621_phylink_caps(struct fe_mac *mac,
				struct phylink_config *config)
{
	config->mac_capabilities = MAC_ASYM_PAUSE | MAC_SYM_PAUSE | MAC_10 |
				   MAC_100 | MAC_1000FD;
	__set_bit(PHY_INTERFACE_MODE_MII, config->supported_interfaces);
	phy_interface_set_rgmii(config->supported_interfaces);
	if (!mac->id)
		__set_bit(PHY_INTERFACE_MODE_TRGMII,
			  config->supported_interfaces);
}

static const struct fe_soc_ops mt7621_ops = {
	.mac_config	= mt7621_mac_config,
	.phylink_caps	= mt7621_phylink_caps,
};

static const char * const mt7621_clks[] = { "fe", "ethif", NULL };
static const char * const mt7621_resets[] = { "fe", "eth", NULL };

const struct fe_soc_data fe_mt7621_data = {
	.name		= "MT7621",
	.regs		= &mt7621_regs,
	.ops		= &mt7621_ops,
	.tx_ops		= &fe_qdma_tx_ops,
	.mac_ops	= &fe_gdma_mac_ops,
	.clk_names	= mt7621_clks,
	.reset_names	= mt7621_resets,
	.needs_ethsys	= true,
	.num_macs	= 2,
	.max_frame	= 2048,
	.rx_2b_offset	= true,
	.rx_l4_valid	= BIT(24),
	.rx_sport	= GENMASK(21, 19),	/* GDMA n + 1 */
	.rx_sport_base	= 1,
	.pdma_glo_cfg	= FE_DMA_RX_EN | FE_DMA_RX_BT_32DWORDS | FE_DMA_MULTI_EN,
	.hw_features	= NETIF_F_SG | NETIF_F_IP_CSUM | NETIF_F_IPV6_CSUM |
			  NETIF_F_RXCSUM | NETIF_F_TSO | NETIF_F_TSO6 |
			  NETIF_F_HW_VLAN_CTAG_TX,
	.txd4_fport	= FE_TXD4_FPORT,
	.rx_ring_size	= 512,
	.tx_ring_size	= 512,
	.fq_size	= 512,
	.tx_queues	= FE_QTX_NUM,
	.has_stag	= true,
	.has_gdm_tx_cnt	= true,
};
