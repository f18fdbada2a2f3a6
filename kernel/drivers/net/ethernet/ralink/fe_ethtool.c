// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek SoC frame engine Ethernet driver: ethtool
 */

#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/phylink.h>
#include <linux/rtnetlink.h>

#include "fe_core.h"

#define FE_RING_MIN		64
#define FE_RING_MAX		4096

#define FE_SW_STAT(m)	{ #m, offsetof(struct fe_sw_stats, m) }

/* Counters of the RX NAPI, under fe_sw_stats.rx_syncp */
static const struct fe_stat_desc fe_sw_stat_desc[] = {
	FE_SW_STAT(rx_dropped),
	FE_SW_STAT(xdp_drop),
	FE_SW_STAT(xdp_pass),
	FE_SW_STAT(xdp_tx),
	FE_SW_STAT(xdp_tx_errors),
	FE_SW_STAT(xdp_redirect),
};

/* Counters any context updates: atomic */
static const struct fe_stat_desc fe_atomic_stat_desc[] = {
	FE_SW_STAT(tx_dropped),
	FE_SW_STAT(xdp_xmit),
	FE_SW_STAT(xdp_xmit_errors),
};

static void fe_update_hw_stats(struct fe_mac *mac)
{
	if (!netif_running(mac->netdev))
		return;
	spin_lock_bh(&mac->eth->stats_lock);
	mac->eth->soc->mac_ops->stats_update(mac);
	spin_unlock_bh(&mac->eth->stats_lock);
}

static void fe_get_drvinfo(struct net_device *dev,
			   struct ethtool_drvinfo *info)
{
	struct fe_mac *mac = netdev_priv(dev);

	strscpy(info->driver, FE_DRV_NAME, sizeof(info->driver));
	strscpy(info->bus_info, dev_name(mac->eth->dev),
		sizeof(info->bus_info));
}

static int fe_get_link_ksettings(struct net_device *dev,
				 struct ethtool_link_ksettings *cmd)
{
	struct fe_mac *mac = netdev_priv(dev);

	return phylink_ethtool_ksettings_get(mac->phylink, cmd);
}

static int fe_set_link_ksettings(struct net_device *dev,
				 const struct ethtool_link_ksettings *cmd)
{
	struct fe_mac *mac = netdev_priv(dev);

	return phylink_ethtool_ksettings_set(mac->phylink, cmd);
}

static int fe_nway_reset(struct net_device *dev)
{
	struct fe_mac *mac = netdev_priv(dev);

	return phylink_ethtool_nway_reset(mac->phylink);
}

static void fe_get_pauseparam(struct net_device *dev,
			      struct ethtool_pauseparam *pause)
{
	struct fe_mac *mac = netdev_priv(dev);

	phylink_ethtool_get_pauseparam(mac->phylink, pause);
}

static int fe_set_pauseparam(struct net_device *dev,
			     struct ethtool_pauseparam *pause)
{
	struct fe_mac *mac = netdev_priv(dev);

	return phylink_ethtool_set_pauseparam(mac->phylink, pause);
}

static void fe_get_ringparam(struct net_device *dev,
			     struct ethtool_ringparam *ring,
			     struct kernel_ethtool_ringparam *kring,
			     struct netlink_ext_ack *extack)
{
	struct fe_mac *mac = netdev_priv(dev);

	ring->rx_max_pending = FE_RING_MAX;
	ring->tx_max_pending = FE_RING_MAX;
	ring->rx_pending = mac->eth->rx_ring_size;
	ring->tx_pending = mac->eth->tx_ring_size;
}

static int fe_set_ringparam(struct net_device *dev,
			    struct ethtool_ringparam *ring,
			    struct kernel_ethtool_ringparam *kring,
			    struct netlink_ext_ack *extack)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_eth *eth = mac->eth;

	if (ring->rx_pending < FE_RING_MIN || ring->tx_pending < FE_RING_MIN) {
		NL_SET_ERR_MSG_MOD(extack, "rings need at least 64 entries");
		return -EINVAL;
	}
	if (ring->rx_pending == eth->rx_ring_size &&
	    ring->tx_pending == eth->tx_ring_size)
		return 0;

	/* One ring pair serves both MACs: the sizes are the frame engine's */
	eth->rx_ring_size = ring->rx_pending;
	eth->tx_ring_size = ring->tx_pending;
	return fe_restart(eth);
}

static int fe_get_coalesce(struct net_device *dev,
			   struct ethtool_coalesce *ec,
			   struct kernel_ethtool_coalesce *kec,
			   struct netlink_ext_ack *extack)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_eth *eth = mac->eth;

	ec->rx_coalesce_usecs = eth->rx_coal.usecs;
	ec->rx_max_coalesced_frames = eth->rx_coal.frames;
	ec->tx_coalesce_usecs = eth->tx_coal.usecs;
	ec->tx_max_coalesced_frames = eth->tx_coal.frames;
	ec->use_adaptive_rx_coalesce = eth->rx_coal.adaptive;
	ec->use_adaptive_tx_coalesce = eth->tx_coal.adaptive;
	return 0;
}

static int fe_set_coalesce_op(struct net_device *dev,
			      struct ethtool_coalesce *ec,
			      struct kernel_ethtool_coalesce *kec,
			      struct netlink_ext_ack *extack)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_eth *eth = mac->eth;
	const u32 max_us = FE_DLY_PTIME_MAX * FE_DLY_PTIME_US;

	if (ec->rx_coalesce_usecs > max_us || ec->tx_coalesce_usecs > max_us ||
	    ec->rx_max_coalesced_frames > FE_DLY_PINT_MAX ||
	    ec->tx_max_coalesced_frames > FE_DLY_PINT_MAX) {
		NL_SET_ERR_MSG_MOD(extack,
				   "at most 5100 us and 127 frames");
		return -EINVAL;
	}
	/*
	 * A frame count without a time: the last frames of a burst would
	 * wait for more, however long that takes.
	 */
	if ((!ec->use_adaptive_rx_coalesce && !ec->rx_coalesce_usecs &&
	     ec->rx_max_coalesced_frames > 1) ||
	    (!ec->use_adaptive_tx_coalesce && !ec->tx_coalesce_usecs &&
	     ec->tx_max_coalesced_frames > 1)) {
		NL_SET_ERR_MSG_MOD(extack,
				   "more than 1 frame needs a time in us as well");
		return -EINVAL;
	}

	/* Shared by the MACs: the interrupts are the frame engine's */
	fe_set_coalesce(eth, ec);
	return 0;
}

/* The MAC side's counters: the GDMA's or the SDM's */
static const struct fe_mac_ops *fe_mac_ops(struct net_device *dev)
{
	struct fe_mac *mac = netdev_priv(dev);

	return mac->eth->soc->mac_ops;
}

static int fe_get_sset_count(struct net_device *dev, int sset)
{
	if (sset != ETH_SS_STATS)
		return -EOPNOTSUPP;

	return fe_mac_ops(dev)->num_hw_stats + ARRAY_SIZE(fe_sw_stat_desc) +
	       ARRAY_SIZE(fe_atomic_stat_desc);
}

static void fe_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	const struct fe_mac_ops *ops = fe_mac_ops(dev);
	unsigned int i;

	if (sset != ETH_SS_STATS)
		return;

	for (i = 0; i < ops->num_hw_stats; i++)
		ethtool_puts(&data, ops->hw_stats[i].name);
	for (i = 0; i < ARRAY_SIZE(fe_sw_stat_desc); i++)
		ethtool_puts(&data, fe_sw_stat_desc[i].name);
	for (i = 0; i < ARRAY_SIZE(fe_atomic_stat_desc); i++)
		ethtool_puts(&data, fe_atomic_stat_desc[i].name);
}

static void fe_get_ethtool_stats(struct net_device *dev,
				 struct ethtool_stats *stats, u64 *data)
{
	const struct fe_mac_ops *ops = fe_mac_ops(dev);
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_hw_stats *hw = &mac->hw_stats;
	struct fe_sw_stats *sw = &mac->stats;
	unsigned int i, start;

	fe_update_hw_stats(mac);

	do {
		start = u64_stats_fetch_begin(&hw->syncp);
		for (i = 0; i < ops->num_hw_stats; i++)
			data[i] = *(u64 *)((u8 *)hw + ops->hw_stats[i].offset);
	} while (u64_stats_fetch_retry(&hw->syncp, start));
	data += ops->num_hw_stats;

	do {
		start = u64_stats_fetch_begin(&sw->rx_syncp);
		for (i = 0; i < ARRAY_SIZE(fe_sw_stat_desc); i++)
			data[i] = u64_stats_read((u64_stats_t *)((u8 *)sw +
						 fe_sw_stat_desc[i].offset));
	} while (u64_stats_fetch_retry(&sw->rx_syncp, start));
	data += ARRAY_SIZE(fe_sw_stat_desc);

	for (i = 0; i < ARRAY_SIZE(fe_atomic_stat_desc); i++)
		data[i] = atomic64_read((atomic64_t *)((u8 *)sw +
				       fe_atomic_stat_desc[i].offset));
}

static void fe_get_pause_stats(struct net_device *dev,
			       struct ethtool_pause_stats *s)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_hw_stats *hw = &mac->hw_stats;
	unsigned int start;

	if (!fe_mac_ops(dev)->has_pause_rmon)
		return;
	fe_update_hw_stats(mac);

	do {
		start = u64_stats_fetch_begin(&hw->syncp);
		s->rx_pause_frames = hw->rx_flow_control_packets;
	} while (u64_stats_fetch_retry(&hw->syncp, start));
}

static void fe_get_rmon_stats(struct net_device *dev,
			      struct ethtool_rmon_stats *s,
			      const struct ethtool_rmon_hist_range **ranges)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_hw_stats *hw = &mac->hw_stats;
	unsigned int start;

	if (!fe_mac_ops(dev)->has_pause_rmon)
		return;
	fe_update_hw_stats(mac);

	/* The GDMA counts no size histogram */
	*ranges = NULL;
	do {
		start = u64_stats_fetch_begin(&hw->syncp);
		s->undersize_pkts = hw->rx_short_errors;
		s->oversize_pkts = hw->rx_long_errors;
	} while (u64_stats_fetch_retry(&hw->syncp, start));
}

static int fe_get_tunable(struct net_device *dev,
			  const struct ethtool_tunable *tuna, void *data)
{
	struct fe_mac *mac = netdev_priv(dev);

	switch (tuna->id) {
	case ETHTOOL_RX_COPYBREAK:
		*(u32 *)data = READ_ONCE(mac->eth->rx_copybreak);
		return 0;
	case ETHTOOL_TX_COPYBREAK:
		*(u32 *)data = READ_ONCE(mac->eth->tx_copybreak);
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

/* One ring each way serves both MACs: the copybreaks are the engine's */
static int fe_set_tunable(struct net_device *dev,
			  const struct ethtool_tunable *tuna, const void *data)
{
	struct fe_mac *mac = netdev_priv(dev);
	u32 val = *(const u32 *)data;

	switch (tuna->id) {
	case ETHTOOL_RX_COPYBREAK:
		if (val > FE_RX_COPYBREAK_MAX)
			return -EINVAL;
		WRITE_ONCE(mac->eth->rx_copybreak, val);
		return 0;
	case ETHTOOL_TX_COPYBREAK:
		if (val > FE_TX_COPY_SLOT)
			return -EINVAL;
		WRITE_ONCE(mac->eth->tx_copybreak, val);
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

const struct ethtool_ops fe_ethtool_ops = {
	.supported_coalesce_params = ETHTOOL_COALESCE_USECS |
				     ETHTOOL_COALESCE_MAX_FRAMES |
				     ETHTOOL_COALESCE_USE_ADAPTIVE,
	.get_drvinfo		= fe_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_link_ksettings	= fe_get_link_ksettings,
	.set_link_ksettings	= fe_set_link_ksettings,
	.nway_reset		= fe_nway_reset,
	.get_pauseparam		= fe_get_pauseparam,
	.set_pauseparam		= fe_set_pauseparam,
	.get_ringparam		= fe_get_ringparam,
	.set_ringparam		= fe_set_ringparam,
	.get_coalesce		= fe_get_coalesce,
	.set_coalesce		= fe_set_coalesce_op,
	.get_sset_count		= fe_get_sset_count,
	.get_strings		= fe_get_strings,
	.get_ethtool_stats	= fe_get_ethtool_stats,
	.get_pause_stats	= fe_get_pause_stats,
	.get_rmon_stats		= fe_get_rmon_stats,
	.get_tunable		= fe_get_tunable,
	.set_tunable		= fe_set_tunable,
};
