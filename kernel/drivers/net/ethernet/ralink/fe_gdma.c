// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek SoC frame engine Ethernet driver: the GDMAs and MACs
 *
 * The frame engines with a PSE (RT305x, MT7621 and later) reach each port
 * through a GDMA: it forwards the port's frames to the CPU (or drops
 * them), verifies their checksums, holds the MAC address and counts frames
 * (clear on read). On the MT7621 the MACs' own control registers (MCR)
 * sit in the block behind the frame engine (fe_eth.mac_base); the RT305x
 * has one GDMA, into its embedded switch, no MAC to set up, and TX
 * checksum generation enabled in the CDMA. The RT2880's and RT3883's
 * GDMA1 leads to a GMAC with an external PHY, whose link the MDIO
 * master's configuration register forces to what the PHY negotiated.
 */

#include <linux/etherdevice.h>
#include <linux/if_vlan.h>

#include "fe_core.h"

/* The MAC's length limits, FCS included, and the MCR setting for each */
static const struct {
	u16 len;
	u8 mcr;
} fe_max_rx[] = {
	{ 1518, FE_MCR_MAX_RX_1518 },
	{ 1536, FE_MCR_MAX_RX_1536 },
	{ 1552, FE_MCR_MAX_RX_1552 },
	{ 2048, FE_MCR_MAX_RX_2048 },
};

/* Index into fe_max_rx[] of the smallest limit that lets @mtu through */
static unsigned int fe_max_rx_idx(unsigned int mtu)
{
	unsigned int frame = mtu + ETH_HLEN + VLAN_HLEN + ETH_FCS_LEN, i;

	for (i = 0; i < ARRAY_SIZE(fe_max_rx) - 1; i++)
		if (frame <= fe_max_rx[i].len)
			break;
	return i;
}

/**
 * fe_gdma_max_rx_len - the longest frame a MAC lets through at an MTU
 * @mtu: the MTU
 *
 * Return: the length, FCS included.
 */
unsigned int fe_gdma_max_rx_len(unsigned int mtu)
{
	return fe_max_rx[fe_max_rx_idx(mtu)].len;
}

static void fe_gdma_set_max_rx(struct fe_mac *mac, unsigned int mtu)
{
	struct fe_eth *eth = mac->eth;
	u32 mcr;

	mcr = fe_mac_r32(eth, FE_MAC_MCR(mac->id));
	fe_mac_w32(eth, (mcr & ~FE_MCR_MAX_RX) |
		   FIELD_PREP(FE_MCR_MAX_RX, fe_max_rx[fe_max_rx_idx(mtu)].mcr),
		   FE_MAC_MCR(mac->id));
}

/* GDMA @mac->id's register at @reg (GDMA1's offset) */
static u32 fe_gdma_reg(struct fe_mac *mac, u32 reg)
{
	return reg + mac->id * mac->eth->soc->regs->gdma_stride;
}

static void fe_gdma_fwd_config(struct fe_mac *mac, bool up)
{
	struct fe_eth *eth = mac->eth;
	u32 fwd = fe_gdma_reg(mac, eth->soc->regs->gdma_fwd);
	u32 val;

	val = fe_r32(eth, fwd);
	val &= ~(FE_GDMA_FWD_MASK | FE_GDMA_SPECIAL_TAG | FE_GDMA_ICS_EN |
		 FE_GDMA_TCS_EN | FE_GDMA_UCS_EN);
	val |= FE_GDMA_STRP_CRC;
	/* The GDMA verifies the checksums only while RX checksumming is on */
	if (mac->netdev->features & NETIF_F_RXCSUM)
		val |= FE_GDMA_ICS_EN | FE_GDMA_TCS_EN | FE_GDMA_UCS_EN;
	/* Through the PPE, where there is one: it forwards offloaded flows */
	if (!up)
		val |= FE_GDMA_FWD_DROP;
	else if (eth->ppe)
		val |= FE_GDMA_FWD_PPE;
	else
		val |= FE_GDMA_FWD_PDMA;
	if (eth->soc->has_stag && fe_mac_uses_dsa_tag(mac))
		val |= FE_GDMA_SPECIAL_TAG;
	fe_w32(eth, val, fwd);

	/* TX checksums: each frame's descriptor asks, the CDMA must allow */
	if (eth->soc->regs->cdma_csg)
		fe_m32(eth, 0, FE_CDMA_CSG_ICS | FE_CDMA_CSG_UCS |
		       FE_CDMA_CSG_TCS, eth->soc->regs->cdma_csg);
}

static void fe_gdma_set_addr(struct fe_mac *mac, const u8 *a)
{
	const struct fe_reg_map *regs = mac->eth->soc->regs;

	fe_w32(mac->eth, (a[0] << 8) | a[1],
	       fe_gdma_reg(mac, regs->gdma_mac_adrh));
	fe_w32(mac->eth, (a[2] << 24) | (a[3] << 16) | (a[4] << 8) | a[5],
	       fe_gdma_reg(mac, regs->gdma_mac_adrl));
}

static void fe_gdma_link_down(struct fe_mac *mac)
{
	u32 mcr = fe_mac_r32(mac->eth, FE_MAC_MCR(mac->id));

	mcr &= ~(FE_MCR_TX_EN | FE_MCR_RX_EN | FE_MCR_FORCE_LINK);
	fe_mac_w32(mac->eth, mcr, FE_MAC_MCR(mac->id));
}

static void fe_gdma_link_up(struct fe_mac *mac, int speed, int duplex,
			    bool tx_pause, bool rx_pause)
{
	u32 mcr = fe_mac_r32(mac->eth, FE_MAC_MCR(mac->id));

	mcr &= FE_MCR_MAX_RX;
	mcr |= FE_MCR_IPG_CFG | FE_MCR_FORCE_MODE | FE_MCR_BACKOFF_EN |
	       FE_MCR_BACKPR_EN | FE_MCR_RX_FIFO_CLR_DIS;
	if (speed == SPEED_1000)
		mcr |= FE_MCR_SPEED_1000;
	else if (speed == SPEED_100)
		mcr |= FE_MCR_SPEED_100;
	if (duplex == DUPLEX_FULL)
		mcr |= FE_MCR_FORCE_DPX;
	if (tx_pause)
		mcr |= FE_MCR_FORCE_TX_FC;
	if (rx_pause)
		mcr |= FE_MCR_FORCE_RX_FC;
	mcr |= FE_MCR_TX_EN | FE_MCR_RX_EN | FE_MCR_FORCE_LINK;
	fe_mac_w32(mac->eth, mcr, FE_MAC_MCR(mac->id));
}

static void fe_gdma_stats_update(struct fe_mac *mac)
{
	struct fe_eth *eth = mac->eth;
	struct fe_hw_stats *s = &mac->hw_stats;
	u32 base = eth->soc->regs->gdm_cnt + mac->id * FE_GDM_CNT_STRIDE;

	u64_stats_update_begin(&s->syncp);
	s->rx_bytes += fe_r32(eth, base + FE_GDM_RX_BYTES_L);
	s->rx_bytes += (u64)fe_r32(eth, base + FE_GDM_RX_BYTES_H) << 32;
	s->rx_packets += fe_r32(eth, base + FE_GDM_RX_PKTS);
	s->rx_overflow += fe_r32(eth, base + FE_GDM_RX_OVERFLOW);
	s->rx_fcs_errors += fe_r32(eth, base + FE_GDM_RX_FCS_ERR);
	s->rx_short_errors += fe_r32(eth, base + FE_GDM_RX_SHORT);
	s->rx_long_errors += fe_r32(eth, base + FE_GDM_RX_LONG);
	s->rx_checksum_errors += fe_r32(eth, base + FE_GDM_RX_CSUM_ERR);
	s->rx_flow_control_packets += fe_r32(eth, base + FE_GDM_RX_FLOW_CTRL);
	if (eth->soc->has_gdm_tx_cnt) {
		s->tx_skip += fe_r32(eth, base + FE_GDM_TX_SKIP);
		s->tx_collisions += fe_r32(eth, base + FE_GDM_TX_COLLISION);
		s->tx_bytes += fe_r32(eth, base + FE_GDM_TX_BYTES_L);
		s->tx_bytes += (u64)fe_r32(eth, base + FE_GDM_TX_BYTES_H) << 32;
		s->tx_packets += fe_r32(eth, base + FE_GDM_TX_PKTS);
	}
	u64_stats_update_end(&s->syncp);
}

static const struct fe_stat_desc fe_gdma_hw_stats[] = {
	FE_HW_STAT(tx_bytes),
	FE_HW_STAT(tx_packets),
	FE_HW_STAT(tx_skip),
	FE_HW_STAT(tx_collisions),
	FE_HW_STAT(rx_bytes),
	FE_HW_STAT(rx_packets),
	FE_HW_STAT(rx_overflow),
	FE_HW_STAT(rx_fcs_errors),
	FE_HW_STAT(rx_short_errors),
	FE_HW_STAT(rx_long_errors),
	FE_HW_STAT(rx_checksum_errors),
	FE_HW_STAT(rx_flow_control_packets),
};

/* The RT305x's layout: TX first, 32-bit byte counts */
static void fe_gdma_rt3050_stats_update(struct fe_mac *mac)
{
	struct fe_eth *eth = mac->eth;
	struct fe_hw_stats *s = &mac->hw_stats;
	u32 base = eth->soc->regs->gdm_cnt + mac->id * FE_GDM_CNT_STRIDE;

	u64_stats_update_begin(&s->syncp);
	s->tx_bytes += fe_r32(eth, base + FE_GDM1_TX_BYTES);
	s->tx_packets += fe_r32(eth, base + FE_GDM1_TX_PKTS);
	s->tx_skip += fe_r32(eth, base + FE_GDM1_TX_SKIP);
	s->tx_collisions += fe_r32(eth, base + FE_GDM1_TX_COLLISION);
	s->rx_bytes += fe_r32(eth, base + FE_GDM1_RX_BYTES);
	s->rx_packets += fe_r32(eth, base + FE_GDM1_RX_PKTS);
	s->rx_overflow += fe_r32(eth, base + FE_GDM1_RX_OVERFLOW);
	s->rx_fcs_errors += fe_r32(eth, base + FE_GDM1_RX_FCS_ERR);
	s->rx_short_errors += fe_r32(eth, base + FE_GDM1_RX_SHORT);
	s->rx_long_errors += fe_r32(eth, base + FE_GDM1_RX_LONG);
	s->rx_checksum_errors += fe_r32(eth, base + FE_GDM1_RX_CSUM_ERR);
	s->rx_flow_control_packets += fe_r32(eth, base + FE_GDM1_RX_FLOW_CTRL);
	u64_stats_update_end(&s->syncp);
}

/*
 * RT2880, RT3883: GMAC1 forced to the PHY's link, with the RGMII clock
 * skews OpenWrt's rt2880_mdio_link_adjust() programs
 */
static void fe_gdma_rt2880_link_up(struct fe_mac *mac, int speed, int duplex,
				   bool tx_pause, bool rx_pause)
{
	u32 cfg = FE_MDIO_CFG_FRC_EN |
		  FIELD_PREP(FE_MDIO_CFG_RX_SKEW, FE_MDIO_CFG_SKEW_200PS) |
		  FIELD_PREP(FE_MDIO_CFG_TX_SKEW, FE_MDIO_CFG_SKEW_200PS);

	if (speed == SPEED_1000)
		cfg |= FIELD_PREP(FE_MDIO_CFG_SPEED, FE_MDIO_CFG_SPEED_1000);
	else if (speed == SPEED_100)
		cfg |= FIELD_PREP(FE_MDIO_CFG_SPEED, FE_MDIO_CFG_SPEED_100);
	if (duplex == DUPLEX_FULL)
		cfg |= FE_MDIO_CFG_DUPLEX;
	if (tx_pause)
		cfg |= FE_MDIO_CFG_FC_TX;
	if (rx_pause)
		cfg |= FE_MDIO_CFG_FC_RX;
	fe_w32(mac->eth, cfg, mac->eth->soc->regs->mdio_cfg);
}

const struct fe_mac_ops fe_gdma_mac_ops = {
	.fwd_config	= fe_gdma_fwd_config,
	.set_addr	= fe_gdma_set_addr,
	.set_max_rx	= fe_gdma_set_max_rx,
	.link_up	= fe_gdma_link_up,
	.link_down	= fe_gdma_link_down,
	.stats_update	= fe_gdma_stats_update,
	.hw_stats	= fe_gdma_hw_stats,
	.num_hw_stats	= ARRAY_SIZE(fe_gdma_hw_stats),
	.has_rx_overflow = true,
	.has_pause_rmon	= true,
};

/* RT305x: one GDMA into the switch; no MAC registers of its own */
const struct fe_mac_ops fe_gdma_rt3050_mac_ops = {
	.fwd_config	= fe_gdma_fwd_config,
	.set_addr	= fe_gdma_set_addr,
	.stats_update	= fe_gdma_rt3050_stats_update,
	.hw_stats	= fe_gdma_hw_stats,
	.num_hw_stats	= ARRAY_SIZE(fe_gdma_hw_stats),
	.has_rx_overflow = true,
	.has_pause_rmon	= true,
};

/* RT2880, RT3883: the RT305x's GDMA1, to a GMAC and its external PHY */
const struct fe_mac_ops fe_gdma_rt2880_mac_ops = {
	.fwd_config	= fe_gdma_fwd_config,
	.set_addr	= fe_gdma_set_addr,
	.link_up	= fe_gdma_rt2880_link_up,
	.stats_update	= fe_gdma_rt3050_stats_update,
	.hw_stats	= fe_gdma_hw_stats,
	.num_hw_stats	= ARRAY_SIZE(fe_gdma_hw_stats),
	.has_rx_overflow = true,
	.has_pause_rmon	= true,
};
