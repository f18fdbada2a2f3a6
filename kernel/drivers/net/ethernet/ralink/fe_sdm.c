// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek SoC frame engine Ethernet driver: the SDM
 *
 * The RT5350 and MT7628/MT7688 have no GDMA: their PDMA sends straight to
 * the embedded switch's CPU port, and the SDM between them verifies RX
 * checksums, holds the MAC address and counts frames. There is no MAC of
 * the frame engine's own to configure: the link is the switch's.
 * Registers as mainline's mtk_eth_soc (MT7628_SDM_*) and the 2016 series'
 * RT5350 support (RT5350_SDM_*) name them.
 */

#include <linux/etherdevice.h>

#include "fe_core.h"

#define FE_SDM_CON		0x0c00
#define FE_SDM_ICS_EN		BIT(16)	/* verify IPv4 header checksums */
#define FE_SDM_TCS_EN		BIT(17)	/* verify TCP checksums */
#define FE_SDM_UCS_EN		BIT(18)	/* verify UDP checksums */
#define FE_SDM_MAC_ADRL		0x0c0c
#define FE_SDM_MAC_ADRH		0x0c10
/* Counters: mainline accumulates them as clear-on-read */
#define FE_SDM_TPCNT		0x0d00
#define FE_SDM_TBCNT		0x0d04
#define FE_SDM_RPCNT		0x0d08
#define FE_SDM_RBCNT		0x0d0c
#define FE_SDM_CS_ERR		0x0d10

/* No forwarding control: only the checksum verification follows */
static void fe_sdm_fwd_config(struct fe_mac *mac, bool up)
{
	const u32 csum = FE_SDM_ICS_EN | FE_SDM_TCS_EN | FE_SDM_UCS_EN;

	fe_m32(mac->eth, csum,
	       (mac->netdev->features & NETIF_F_RXCSUM) ? csum : 0,
	       FE_SDM_CON);
}

static void fe_sdm_set_addr(struct fe_mac *mac, const u8 *a)
{
	fe_w32(mac->eth, (a[0] << 8) | a[1], FE_SDM_MAC_ADRH);
	fe_w32(mac->eth, (a[2] << 24) | (a[3] << 16) | (a[4] << 8) | a[5],
	       FE_SDM_MAC_ADRL);
}

static void fe_sdm_stats_update(struct fe_mac *mac)
{
	struct fe_eth *eth = mac->eth;
	struct fe_hw_stats *s = &mac->hw_stats;

	u64_stats_update_begin(&s->syncp);
	s->tx_packets += fe_r32(eth, FE_SDM_TPCNT);
	s->tx_bytes += fe_r32(eth, FE_SDM_TBCNT);
	s->rx_packets += fe_r32(eth, FE_SDM_RPCNT);
	s->rx_bytes += fe_r32(eth, FE_SDM_RBCNT);
	s->rx_checksum_errors += fe_r32(eth, FE_SDM_CS_ERR);
	u64_stats_update_end(&s->syncp);
}

static const struct fe_stat_desc fe_sdm_hw_stats[] = {
	FE_HW_STAT(tx_bytes),
	FE_HW_STAT(tx_packets),
	FE_HW_STAT(rx_bytes),
	FE_HW_STAT(rx_packets),
	FE_HW_STAT(rx_checksum_errors),
};

const struct fe_mac_ops fe_sdm_mac_ops = {
	.fwd_config	= fe_sdm_fwd_config,
	.set_addr	= fe_sdm_set_addr,
	.stats_update	= fe_sdm_stats_update,
	.hw_stats	= fe_sdm_hw_stats,
	.num_hw_stats	= ARRAY_SIZE(fe_sdm_hw_stats),
};
