// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek SoC frame engine Ethernet driver: core
 *
 * One RX ring and one TX ring serve every GMAC: the GDMA port a frame came
 * from is in its RX descriptor, the one it goes to in its TX descriptor.
 * RX buffers are page_pool pages with XDP headroom; TX completion and RX
 * run in two NAPI contexts on a dummy netdev. Register accesses on the hot
 * paths: none per frame; per NAPI poll one status acknowledgment, one
 * CPU index (RX) or release pointer (TX) write and one interrupt unmask.
 *
 * This file: probe and remove, the netdev and phylink ops, DMA bring-up,
 * teardown and restart (TX timeout, RX stall); interrupts and coalescing
 * in fe_irq.c, RX in fe_rx.c, TX in fe_tx.c and its engines.
 */

#include <linux/clk.h>
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/interrupt.h>
#include <linux/mfd/syscon.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_mdio.h>
#include <linux/of_net.h>
#include <linux/phy.h>
#include <linux/platform_device.h>
#include <linux/regmap.h>
#include <linux/reset.h>
#include <linux/rtnetlink.h>
#include <net/dsa.h>
#include <net/dst_metadata.h>
#include <net/page_pool/helpers.h>
#include <net/pkt_cls.h>

#include "fe_core.h"

#define FE_TX_DRAIN_TRIES	50
/* fe_rx_watch(): how often it looks, how many stalled looks make a stall */
#define FE_RX_WATCH_PERIOD	HZ
#define FE_RX_WATCH_STRIKES	2

/**
 * fe_mac_uses_dsa_tag - whether a MAC is a DSA conduit with the MTK tag
 * @mac: the MAC
 *
 * Return: true if it is.
 */
bool fe_mac_uses_dsa_tag(struct fe_mac *mac)
{
#if IS_ENABLED(CONFIG_NET_DSA)
	struct net_device *dev = mac->netdev;

	return netdev_uses_dsa(dev) &&
	       dev->dsa_ptr->tag_ops->proto == DSA_TAG_PROTO_MTK;
#else
	return false;
#endif
}

/* -- counters ------------------------------------------------------------- */

static void fe_get_stats64(struct net_device *dev,
			   struct rtnl_link_stats64 *stats)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_hw_stats *hw = &mac->hw_stats;
	struct fe_sw_stats *sw = &mac->stats;
	unsigned int start;

	if (netif_running(dev) && spin_trylock_bh(&mac->eth->stats_lock)) {
		mac->eth->soc->mac_ops->stats_update(mac);
		spin_unlock_bh(&mac->eth->stats_lock);
	}

	do {
		start = u64_stats_fetch_begin(&sw->rx_syncp);
		stats->rx_packets = u64_stats_read(&sw->rx_packets);
		stats->rx_bytes = u64_stats_read(&sw->rx_bytes);
		stats->rx_dropped = u64_stats_read(&sw->rx_dropped);
	} while (u64_stats_fetch_retry(&sw->rx_syncp, start));
	do {
		start = u64_stats_fetch_begin(&sw->tx_syncp);
		stats->tx_packets = u64_stats_read(&sw->tx_packets);
		stats->tx_bytes = u64_stats_read(&sw->tx_bytes);
	} while (u64_stats_fetch_retry(&sw->tx_syncp, start));
	stats->tx_dropped = atomic64_read(&sw->tx_dropped);

	do {
		start = u64_stats_fetch_begin(&hw->syncp);
		stats->rx_crc_errors = hw->rx_fcs_errors;
		stats->rx_length_errors = hw->rx_short_errors +
					  hw->rx_long_errors;
		stats->rx_fifo_errors = hw->rx_overflow;
		stats->rx_errors = hw->rx_fcs_errors + hw->rx_short_errors +
				   hw->rx_long_errors + hw->rx_checksum_errors;
		stats->collisions = hw->tx_collisions;
		stats->tx_errors = hw->tx_skip;
	} while (u64_stats_fetch_retry(&hw->syncp, start));
}

/* -- DMA bring-up and teardown -------------------------------------------- */

static void fe_mac_fwd(struct fe_mac *mac, bool up)
{
	mac->eth->soc->mac_ops->fwd_config(mac, up);
}

static void fe_mac_set_max_rx(struct fe_mac *mac, unsigned int mtu)
{
	if (mac->eth->soc->mac_ops->set_max_rx)
		mac->eth->soc->mac_ops->set_max_rx(mac, mtu);
}

/* Hardware untagging of the special tag is global: only if every MAC is a
 * DSA conduit with the MTK tag, and no XDP program wants the tag in place.
 */
static void fe_update_untag(struct fe_eth *eth)
{
	bool untag = eth->soc->has_stag && !eth->xdp_progs;
	unsigned int i;

	for (i = 0; i < FE_MAX_MACS; i++)
		if (eth->mac[i] && !fe_mac_uses_dsa_tag(eth->mac[i]))
			untag = false;

	for (i = 0; i < FE_MAX_MACS; i++)
		if (eth->mac[i])
			eth->mac[i]->dsa_untag = untag;

	if (!eth->soc->has_stag)
		return;
	fe_m32(eth, FE_CDM_STAG_EN, untag ? FE_CDM_STAG_EN : 0,
	       FE_CDMP_IG_CTRL);
	fe_w32(eth, untag ? FE_CDMP_EG_STAG : 0, FE_CDMP_EG_CTRL);
}

/**
 * fe_dma_busy_wait - wait for a DMA engine to go idle
 * @eth: the frame engine
 * @reg: its global configuration register
 *
 * Return: 0, or -EBUSY after about 10 ms.
 */
int fe_dma_busy_wait(struct fe_eth *eth, u32 reg)
{
	unsigned int i;

	for (i = 0; i < 10; i++) {
		if (!(fe_r32(eth, reg) & (FE_DMA_RX_BUSY | FE_DMA_TX_BUSY)))
			return 0;
		usleep_range(1000, 2000);
	}
	dev_warn(eth->dev, "DMA still busy (0x%x)\n", reg);
	return -EBUSY;
}

static void fe_dma_stop(struct fe_eth *eth)
{
	const struct fe_reg_map *regs = eth->soc->regs;

	if (eth->soc->tx_ops->stop)
		eth->soc->tx_ops->stop(eth);
	fe_m32(eth, FE_DMA_TX_EN | FE_DMA_RX_EN | FE_DMA_TX_WB_DDONE, 0,
	       regs->pdma.glo_cfg);
	fe_dma_busy_wait(eth, regs->pdma.glo_cfg);
}

static void fe_rxq_unreg(struct fe_eth *eth)
{
	unsigned int i;

	for (i = 0; i < FE_MAX_MACS; i++) {
		struct fe_mac *mac = eth->mac[i];

		if (!mac || !xdp_rxq_info_is_reg(&mac->xdp_rxq))
			continue;
		/* The memory model is eth->xdp_mem's, unregistered once */
		memset(&mac->xdp_rxq.mem, 0, sizeof(mac->xdp_rxq.mem));
		xdp_rxq_info_unreg(&mac->xdp_rxq);
	}
}

static int fe_rxq_reg(struct fe_eth *eth)
{
	unsigned int i;
	int err;

	for (i = 0; i < FE_MAX_MACS; i++) {
		struct fe_mac *mac = eth->mac[i];

		if (!mac)
			continue;
		err = xdp_rxq_info_reg(&mac->xdp_rxq, mac->netdev, 0,
				       eth->rx_napi.napi_id);
		if (err) {
			fe_rxq_unreg(eth);
			return err;
		}
		mac->xdp_rxq.mem = eth->xdp_mem;
	}
	return 0;
}

static void fe_dma_free(struct fe_eth *eth)
{
	fe_rxq_unreg(eth);
	fe_tx_free_ring(eth);
	fe_rx_free_ring(eth);
}

/* The largest MTU of our netdevs: the PPE's output limits */
static unsigned int fe_max_mtu(struct fe_eth *eth)
{
	unsigned int i, mtu = 0;

	for (i = 0; i < FE_MAX_MACS; i++)
		if (eth->mac[i])
			mtu = max(mtu, READ_ONCE(eth->mac[i]->netdev->mtu));
	return mtu;
}

static int fe_dma_up(struct fe_eth *eth)
{
	const struct fe_reg_map *regs = eth->soc->regs;
	int err;

	fe_irq_disable_all(eth);
	err = fe_tx_alloc(eth);
	if (!err)
		err = fe_rx_alloc(eth);
	if (!err)
		err = fe_rxq_reg(eth);
	if (err) {
		fe_dma_free(eth);
		return err;
	}

	fe_write_coalesce(eth);
	/* Every RX interrupt to the one line we have */
	if (regs->pdma.int_grp)
		fe_w32(eth, regs->rx_irq.done | regs->rx_irq.done_dly,
		       regs->pdma.int_grp + 4);
	fe_w32(eth, ~0, regs->rx_irq.status);
	fe_w32(eth, ~0, regs->tx_irq.status);

	fe_update_untag(eth);
	fe_vid_table_init(eth);
	fe_ppe_start(eth, fe_max_mtu(eth));
	if (eth->soc->tx_ops->start)
		eth->soc->tx_ops->start(eth);
	fe_w32(eth, eth->soc->pdma_glo_cfg |
	       (eth->soc->rx_2b_offset && FE_RX_IP_ALIGN ?
		FE_DMA_RX_2B_OFFSET : 0), regs->pdma.glo_cfg);

	napi_enable(&eth->tx_napi);
	napi_enable(&eth->rx_napi);
	eth->dma_running = true;
	fe_rx_irq_enable(eth);
	fe_tx_irq_enable(eth);
	eth->rx_watch_strikes = 0;
	eth->rx_watch_idx = UINT_MAX;	/* no stall seen before a first look */
	if (eth->soc->mac_ops->has_rx_overflow)
		schedule_delayed_work(&eth->rx_watch,
				      round_jiffies_relative(FE_RX_WATCH_PERIOD));
	return 0;
}

static void fe_tx_reset_queues(struct net_device *dev)
{
	unsigned int q;

	for (q = 0; q < dev->num_tx_queues; q++)
		netdev_tx_reset_queue(netdev_get_tx_queue(dev, q));
}

static void fe_dma_down(struct fe_eth *eth)
{
	unsigned int i;

	if (!eth->dma_running)
		return;
	eth->dma_running = false;
	cancel_delayed_work_sync(&eth->rx_watch);
	fe_irq_disable_all(eth);
	napi_disable(&eth->rx_napi);
	napi_disable(&eth->tx_napi);
	cancel_work_sync(&eth->rx_coal.dim.work);
	cancel_work_sync(&eth->tx_coal.dim.work);
	for (i = 0; i < FE_MAX_MACS; i++)
		if (eth->mac[i])
			fe_mac_fwd(eth->mac[i], false);
	fe_ppe_stop(eth);
	fe_dma_stop(eth);
	synchronize_irq(eth->irq);
	fe_dma_free(eth);
	for (i = 0; i < FE_MAX_MACS; i++)
		if (eth->mac[i])
			fe_tx_reset_queues(eth->mac[i]->netdev);
}

/* -- netdev ops ----------------------------------------------------------- */

/*
 * With QDMA queues (fe_soc_data.tx_queues), as mainline's
 * mtk_select_queue(): a DSA conduit's frames go to the queue of their
 * port (tag_mtk.c set the mapping to the port's index) from
 * FE_QDMA_DSA_QUEUE0 on, where fe_netdev_event() gives each the rate of
 * its port's link; any other netdev's to the queue of its MAC.
 */
static u16 fe_select_queue(struct net_device *dev, struct sk_buff *skb,
			   struct net_device *sb_dev)
{
	struct fe_mac *mac = netdev_priv(dev);
	unsigned int q;

	if (dev->real_num_tx_queues == 1)
		return 0;
	if (netdev_uses_dsa(dev))
		q = skb_get_queue_mapping(skb) + FE_QDMA_DSA_QUEUE0;
	else
		q = mac->id;
	return q < dev->real_num_tx_queues ? q : 0;
}

static int fe_open(struct net_device *dev)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_eth *eth = mac->eth;
	int err;

	err = phylink_of_phy_connect(mac->phylink, mac->np, 0);
	if (err) {
		netdev_err(dev, "could not attach PHY: %d\n", err);
		return err;
	}

	if (!eth->dma_running) {
		err = fe_dma_up(eth);
		if (err) {
			phylink_disconnect_phy(mac->phylink);
			return err;
		}
	} else {
		fe_update_untag(eth);
	}
	eth->open_count++;

	fe_mac_set_max_rx(mac, dev->mtu);
	fe_mac_fwd(mac, true);
	phylink_start(mac->phylink);
	netif_tx_start_all_queues(dev);
	return 0;
}

static int fe_stop(struct net_device *dev)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_eth *eth = mac->eth;
	unsigned int i;

	phylink_stop(mac->phylink);
	netif_tx_disable(dev);
	phylink_disconnect_phy(mac->phylink);
	fe_mac_fwd(mac, false);

	if (--eth->open_count) {
		/* The other MAC keeps the DMA: let this one's frames drain */
		for (i = 0; i < FE_TX_DRAIN_TRIES; i++) {
			bool empty;

			spin_lock_bh(&eth->tx.lock);
			empty = eth->tx.head == eth->tx.tail;
			spin_unlock_bh(&eth->tx.lock);
			if (empty)
				break;
			usleep_range(1000, 2000);
		}
		clear_bit(mac->id, &eth->tx.stopped);
		fe_tx_reset_queues(dev);
		return 0;
	}

	fe_dma_down(eth);
	return 0;
}

static int fe_set_mac_address(struct net_device *dev, void *p)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_eth *eth = mac->eth;
	const u8 *a = dev->dev_addr;
	int err;

	err = eth_mac_addr(dev, p);
	if (err)
		return err;

	eth->soc->mac_ops->set_addr(mac, a);
	return 0;
}

static int fe_change_mtu(struct net_device *dev, int new_mtu)
{
	struct fe_mac *mac = netdev_priv(dev);

	WRITE_ONCE(dev->mtu, new_mtu);
	fe_mac_set_max_rx(mac, new_mtu);
	if (mac->eth->dma_running)
		fe_ppe_start(mac->eth, fe_max_mtu(mac->eth));
	/* Larger frames than the RX buffers take: new buffers */
	if (mac->eth->dma_running &&
	    fe_rx_buf_len(mac->eth) > mac->eth->rx.buf_len)
		return fe_restart(mac->eth);
	return 0;
}

/*
 * ethtool -K: the offloads the frame engine has all work per frame from
 * dev->features (TX checksums, scatter-gather, TSO and VLAN insertion are
 * asked for by each descriptor), except RX checksumming, which the GDMA
 * does or does not do: program it while the MAC forwards.
 */
static int fe_set_features(struct net_device *dev,
			   netdev_features_t features)
{
	struct fe_mac *mac = netdev_priv(dev);
	netdev_features_t changed = dev->features ^ features;

	if (!(changed & NETIF_F_RXCSUM))
		return 0;
	dev->features = features;
	fe_mac_fwd(mac, netif_running(dev));
	return 0;
}

/*
 * A TBF on one of the TX queues of mq (`tc qdisc replace dev eth0 parent
 * 1:4 tbf rate ...`: mq's class minor is the queue + 1) becomes that QDMA
 * queue's max rate (for a DSA conduit, queue port + 3 carries the port's
 * frames). TBF's offload has no extack and its result is not looked at:
 * what cannot be offloaded (a TBF at the root, a rate the hardware has
 * no value for) is refused here and only shaped in software.
 */
static int fe_setup_tc_tbf(struct net_device *dev,
			   struct tc_tbf_qopt_offload *qopt)
{
	struct fe_mac *mac = netdev_priv(dev);
	unsigned int q = TC_H_MIN(qopt->parent) - 1;
	int err;

	if (qopt->parent == TC_H_ROOT || !TC_H_MIN(qopt->parent) ||
	    q >= dev->real_num_tx_queues || q >= FE_QTX_NUM) {
		netdev_dbg(dev, "TBF offload: only on one TX queue of mq\n");
		return -EOPNOTSUPP;
	}
	switch (qopt->command) {
	case TC_TBF_REPLACE:
		err = fe_qdma_set_queue_rate(mac->eth, q,
					     qopt->replace_params.rate.rate_bytes_ps
					     * 8);
		if (err)
			netdev_warn(dev, "TBF offload: no QDMA rate for %llu bit/s\n",
				    qopt->replace_params.rate.rate_bytes_ps * 8);
		return err;
	case TC_TBF_DESTROY:
		return fe_qdma_set_queue_rate(mac->eth, q, 0);
	default:
		return -EOPNOTSUPP;
	}
}

static int fe_setup_tc(struct net_device *dev, enum tc_setup_type type,
		       void *type_data)
{
	struct fe_mac *mac = netdev_priv(dev);

	switch (type) {
	case TC_SETUP_QDISC_TBF:
		if (mac->eth->soc->tx_queues <= 1)
			return -EOPNOTSUPP;
		return fe_setup_tc_tbf(dev, type_data);
	case TC_SETUP_FT:
		return fe_ppe_setup_tc(dev, type, type_data);
	default:
		return -EOPNOTSUPP;
	}
}

#ifdef CONFIG_NET_POLL_CONTROLLER
/*
 * netpoll (netconsole), with interrupts off: what the interrupt handler
 * would do. It masks the sources it finds and schedules their NAPI, which
 * netpoll then polls; each poll unmasks its source when it completes.
 */
static void fe_poll_controller(struct net_device *dev)
{
	struct fe_mac *mac = netdev_priv(dev);

	fe_irq(mac->eth->irq, mac->eth);
}
#endif

static int fe_ioctl(struct net_device *dev, struct ifreq *ifr, int cmd)
{
	struct fe_mac *mac = netdev_priv(dev);

	return phylink_mii_ioctl(mac->phylink, ifr, cmd);
}

static void fe_tx_timeout(struct net_device *dev, unsigned int txqueue)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_eth *eth = mac->eth;

	netdev_err(dev, "TX timeout: head %u tail %u, resetting the DMA\n",
		   eth->tx.head, eth->tx.tail);
	schedule_work(&eth->reset_work);
}

/**
 * fe_restart - stop the DMA, rebuild the rings and start it again
 * @eth: the frame engine
 *
 * Called under RTNL. The DMA engines are stopped, every buffer is freed,
 * new rings are set up and every DMA register is written again (TX timeout
 * recovery, ring size, XDP and MTU changes). The MACs keep their link.
 *
 * Return: 0, or a negative error code (the DMA is then left stopped).
 */
int fe_restart(struct fe_eth *eth)
{
	unsigned int i;
	int err;

	ASSERT_RTNL();
	if (!eth->open_count)
		return 0;

	spin_lock_bh(&eth->tx.lock);
	eth->resetting = true;
	spin_unlock_bh(&eth->tx.lock);

	for (i = 0; i < FE_MAX_MACS; i++) {
		struct fe_mac *mac = eth->mac[i];

		if (mac && netif_running(mac->netdev))
			netif_tx_disable(mac->netdev);
	}
	fe_dma_down(eth);

	eth->resetting = false;
	err = fe_dma_up(eth);
	if (err) {
		dev_err(eth->dev, "DMA restart failed: %d\n", err);
		return err;
	}

	for (i = 0; i < FE_MAX_MACS; i++) {
		struct fe_mac *mac = eth->mac[i];

		if (mac && netif_running(mac->netdev)) {
			fe_mac_fwd(mac, true);
			netif_tx_wake_all_queues(mac->netdev);
		}
	}
	return 0;
}

/*
 * A stalled RX DMA takes no frame: the GDMAs drop what comes for the CPU
 * and count it as an RX overflow, while neither the DMA's index nor ours
 * moves. (A ring that is full because the CPU falls behind moves ours.)
 * Drops in FE_RX_WATCH_STRIKES periods with no frame taken since the
 * first of them (periods without traffic in between do not count, and
 * do not clear them): the DMA is restarted as for a TX timeout.
 */
static void fe_rx_watch(struct work_struct *work)
{
	struct fe_eth *eth = container_of(to_delayed_work(work), struct fe_eth,
					  rx_watch);
	const struct fe_pdma_regs *p = &eth->soc->regs->pdma;
	u64 overflow = 0;
	unsigned int i;
	u32 drx;

	/* A MAC that is down has its GDMA drop everything */
	spin_lock_bh(&eth->stats_lock);
	for (i = 0; i < FE_MAX_MACS; i++) {
		struct fe_mac *mac = eth->mac[i];

		if (mac && netif_running(mac->netdev)) {
			eth->soc->mac_ops->stats_update(mac);
			overflow += mac->hw_stats.rx_overflow;
		}
	}
	spin_unlock_bh(&eth->stats_lock);
	drx = fe_r32(eth, p->rx_drx_idx);

	if (drx != eth->rx_watch_drx ||
	    READ_ONCE(eth->rx.idx) != eth->rx_watch_idx) {
		eth->rx_watch_strikes = 0;	/* frames were taken */
	} else if (overflow != eth->rx_watch_overflow &&
		   ++eth->rx_watch_strikes >= FE_RX_WATCH_STRIKES) {
		dev_err(eth->dev,
			"RX DMA stalled (frames dropped, none taken), resetting the DMA\n");
		eth->rx_watch_strikes = 0;
		schedule_work(&eth->reset_work);
	}
	eth->rx_watch_overflow = overflow;
	eth->rx_watch_drx = drx;
	eth->rx_watch_idx = READ_ONCE(eth->rx.idx);
	/* Housekeeping: on whole seconds, with the kernel's other such work */
	schedule_delayed_work(&eth->rx_watch,
			      round_jiffies_relative(FE_RX_WATCH_PERIOD));
}

static void fe_reset_work(struct work_struct *work)
{
	struct fe_eth *eth = container_of(work, struct fe_eth, reset_work);

	rtnl_lock();
	fe_restart(eth);
	rtnl_unlock();
}

static int fe_xdp_setup(struct net_device *dev, struct bpf_prog *prog,
			struct netlink_ext_ack *extack)
{
	struct fe_mac *mac = netdev_priv(dev);
	struct fe_eth *eth = mac->eth;
	struct bpf_prog *old;
	unsigned int before = eth->xdp_progs;

	old = rcu_replace_pointer(mac->xdp_prog, prog, lockdep_rtnl_is_held());
	if (old)
		bpf_prog_put(old);
	if (prog && !old)
		eth->xdp_progs++;
	else if (!prog && old)
		eth->xdp_progs--;

	/* The page_pool mapping direction and hardware untagging change */
	if (!before != !eth->xdp_progs && eth->dma_running)
		return fe_restart(eth);
	return 0;
}

static int fe_bpf(struct net_device *dev, struct netdev_bpf *xdp)
{
	switch (xdp->command) {
	case XDP_SETUP_PROG:
		return fe_xdp_setup(dev, xdp->prog, xdp->extack);
	default:
		return -EINVAL;
	}
}

static const struct net_device_ops fe_netdev_ops = {
	.ndo_open		= fe_open,
	.ndo_stop		= fe_stop,
	.ndo_start_xmit		= fe_start_xmit,
	.ndo_select_queue	= fe_select_queue,
	.ndo_set_mac_address	= fe_set_mac_address,
	.ndo_validate_addr	= eth_validate_addr,
	.ndo_eth_ioctl		= fe_ioctl,
	.ndo_change_mtu		= fe_change_mtu,
	.ndo_tx_timeout		= fe_tx_timeout,
	.ndo_get_stats64	= fe_get_stats64,
	.ndo_set_features	= fe_set_features,
	.ndo_setup_tc		= fe_setup_tc,
	.ndo_vlan_rx_add_vid	= fe_vlan_rx_add_vid,
	.ndo_vlan_rx_kill_vid	= fe_vlan_rx_kill_vid,
#ifdef CONFIG_NET_POLL_CONTROLLER
	.ndo_poll_controller	= fe_poll_controller,
#endif
	.ndo_bpf		= fe_bpf,
	.ndo_xdp_xmit		= fe_xdp_xmit,
};

/* -- phylink -------------------------------------------------------------- */

static struct fe_mac *fe_phylink_to_mac(struct phylink_config *config)
{
	return container_of(config, struct fe_mac, phylink_config);
}

/**
 * fe_phylink_caps_gmii - phylink capabilities of a port into an embedded
 *	switch: GMII, a fixed link at up to 1000 Mbit/s
 * @mac: the MAC
 * @config: its phylink configuration
 */
void fe_phylink_caps_gmii(struct fe_mac *mac, struct phylink_config *config)
{
	config->mac_capabilities = MAC_10 | MAC_100 | MAC_1000FD;
	__set_bit(PHY_INTERFACE_MODE_GMII, config->supported_interfaces);
}

static void fe_mac_config(struct phylink_config *config, unsigned int mode,
			  const struct phylink_link_state *state)
{
	struct fe_mac *mac = fe_phylink_to_mac(config);
	struct fe_eth *eth = mac->eth;

	if (mac->interface == state->interface)
		return;

	if (eth->soc->ops->mac_config &&
	    eth->soc->ops->mac_config(mac, state->interface)) {
		dev_err(eth->dev, "GMAC%u: cannot set up %s\n", mac->id,
			phy_modes(state->interface));
		return;
	}
	mac->interface = state->interface;
}

static void fe_mac_link_down(struct phylink_config *config, unsigned int mode,
			     phy_interface_t interface)
{
	struct fe_mac *mac = fe_phylink_to_mac(config);

	mac->speed = 0;
	if (mac->eth->soc->mac_ops->link_down)
		mac->eth->soc->mac_ops->link_down(mac);
}

static void fe_mac_link_up(struct phylink_config *config,
			   struct phy_device *phy, unsigned int mode,
			   phy_interface_t interface, int speed, int duplex,
			   bool tx_pause, bool rx_pause)
{
	struct fe_mac *mac = fe_phylink_to_mac(config);

	mac->speed = speed;
	if (mac->eth->soc->mac_ops->link_up)
		mac->eth->soc->mac_ops->link_up(mac, speed, duplex, tx_pause,
						rx_pause);
}

static const struct phylink_mac_ops fe_phylink_ops = {
	.mac_config	= fe_mac_config,
	.mac_link_down	= fe_mac_link_down,
	.mac_link_up	= fe_mac_link_up,
};

/* -- probe ---------------------------------------------------------------- */

/* phylink only warns about a fixed link it cannot use: refuse it here */
static int fe_check_fixed_link(struct fe_eth *eth, struct device_node *np)
{
	struct device_node *fl = of_get_child_by_name(np, "fixed-link");
	u32 speed;
	int err = 0;

	if (!fl)
		return 0;
	if (of_property_read_u32(fl, "speed", &speed) ||
	    (speed != SPEED_10 && speed != SPEED_100 && speed != SPEED_1000)) {
		dev_err(eth->dev, "%pOF: missing or invalid \"speed\"\n", fl);
		err = -EINVAL;
	}
	of_node_put(fl);
	return err;
}

/*
 * A MAC's phy-handle must name a PHY: one on the frame engine's own MDIO
 * bus is there once the bus is registered, or never; one on another bus
 * may come later.
 */
static int fe_check_phy(struct fe_eth *eth, struct fe_mac *mac)
{
	struct device_node *phy_np, *bus_np;
	struct phy_device *phydev;
	int err = 0;

	if (!of_property_present(mac->np, "phy-handle"))
		return 0;
	phy_np = of_parse_phandle(mac->np, "phy-handle", 0);
	if (!phy_np)
		return dev_err_probe(eth->dev, -EINVAL,
				     "%pOF: invalid \"phy-handle\"\n", mac->np);

	phydev = of_phy_find_device(phy_np);
	if (phydev) {
		put_device(&phydev->mdio.dev);
	} else {
		bus_np = of_get_parent(phy_np);
		err = eth->mii_bus && bus_np == eth->mii_bus->dev.of_node ?
		      -ENODEV : -EPROBE_DEFER;
		dev_err_probe(eth->dev, err,
			      "%pOF: \"phy-handle\": no PHY at %pOF\n",
			      mac->np, phy_np);
		of_node_put(bus_np);
	}
	of_node_put(phy_np);
	return err;
}

static int fe_mac_probe(struct fe_eth *eth, struct device_node *np)
{
	struct net_device *dev;
	phy_interface_t mode;
	struct fe_mac *mac;
	u32 id;
	int err;

	if (of_property_read_u32(np, "reg", &id)) {
		dev_err(eth->dev, "%pOF: missing or invalid \"reg\"\n", np);
		return -EINVAL;
	}
	if (id >= eth->soc->num_macs || eth->mac[id]) {
		dev_err(eth->dev, "%pOF: \"reg\" %u: no such or duplicate MAC\n",
			np, id);
		return -EINVAL;
	}
	err = of_get_phy_mode(np, &mode);
	if (err) {
		dev_err(eth->dev, "%pOF: missing or invalid \"phy-mode\"\n",
			np);
		return err;
	}

	err = fe_check_fixed_link(eth, np);
	if (err)
		return err;

	dev = alloc_etherdev_mqs(sizeof(*mac), max(eth->soc->tx_queues, 1U),
				 1);
	if (!dev)
		return -ENOMEM;

	mac = netdev_priv(dev);
	mac->id = id;
	mac->eth = eth;
	mac->netdev = dev;
	mac->np = np;
	mac->interface = PHY_INTERFACE_MODE_NA;
	if (eth->soc->txd4_fport)
		mac->txd4 = (id + 1) << __ffs(eth->soc->txd4_fport);
	u64_stats_init(&mac->stats.rx_syncp);
	u64_stats_init(&mac->stats.tx_syncp);
	u64_stats_init(&mac->hw_stats.syncp);

	SET_NETDEV_DEV(dev, eth->dev);
	dev->dev.of_node = np;
	dev->netdev_ops = &fe_netdev_ops;
	dev->ethtool_ops = &fe_ethtool_ops;
	dev->watchdog_timeo = 5 * HZ;
	dev->irq = eth->irq;
	dev->hw_features = eth->hw_features;
	/*
	 * tc TBF on a QDMA queue (fe_setup_tc()), flow tables for the PPE
	 * (fe_ppe.c): both the MT7621's
	 */
	if (eth->soc->tx_queues > 1 || eth->ppe)
		dev->hw_features |= NETIF_F_HW_TC;
	dev->features = dev->hw_features;
	dev->vlan_features = dev->hw_features &
			     ~(NETIF_F_HW_VLAN_CTAG_TX | NETIF_F_HW_TC);
	/* How the stack tells the VIDs the TX VLAN table should hold */
	if (eth->vid_entry)
		dev->features |= NETIF_F_HW_VLAN_CTAG_FILTER;
	/*
	 * No IFF_UNICAST_FLT: the GDMA forwards every unicast frame to the
	 * CPU (FE_GDMA_FWD_PDMA), it has no filter for more addresses than
	 * its own, so the stack goes promiscuous for a second address.
	 */
	/* The DSA tag driver names the switch port in a metadata dst */
	if (eth->soc->txd4_swports)
		netif_keep_dst(dev);
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = eth->soc->max_frame - ETH_HLEN - ETH_FCS_LEN;
	dev->xdp_features = NETDEV_XDP_ACT_BASIC | NETDEV_XDP_ACT_REDIRECT |
			    NETDEV_XDP_ACT_NDO_XMIT;

	err = of_get_ethdev_address(np, dev);
	if (err == -EPROBE_DEFER)
		goto err_free;
	if (err) {
		eth_hw_addr_random(dev);
		dev_info(eth->dev, "GMAC%u: random MAC address %pM\n", id,
			 dev->dev_addr);
	}

	mac->phylink_config.dev = &dev->dev;
	mac->phylink_config.type = PHYLINK_NETDEV;
	eth->soc->ops->phylink_caps(mac, &mac->phylink_config);

	mac->phylink = phylink_create(&mac->phylink_config, of_fwnode_handle(np),
				      mode, &fe_phylink_ops);
	if (IS_ERR(mac->phylink)) {
		err = PTR_ERR(mac->phylink);
		dev_err(eth->dev, "%pOF: invalid \"phy-mode\", \"phy-handle\" or \"fixed-link\": %d\n",
			np, err);
		goto err_free;
	}

	eth->mac[id] = mac;
	return 0;

err_free:
	free_netdev(dev);
	return err;
}

static void fe_macs_free(struct fe_eth *eth)
{
	unsigned int i;

	for (i = 0; i < FE_MAX_MACS; i++) {
		struct fe_mac *mac = eth->mac[i];

		if (!mac)
			continue;
		phylink_destroy(mac->phylink);
		free_netdev(mac->netdev);
		eth->mac[i] = NULL;
	}
}

#define FE_MAX_RESETS	2

/* Pulse the SoC's resets of the frame engine, all at once */
static int fe_hw_reset(struct fe_eth *eth)
{
	const char * const *name = eth->soc->reset_names;
	struct reset_control *rst[FE_MAX_RESETS];
	unsigned int i, n;

	for (n = 0; name[n]; n++) {
		if (WARN_ON(n == FE_MAX_RESETS))
			return -EINVAL;
		rst[n] = devm_reset_control_get_exclusive(eth->dev, name[n]);
		if (IS_ERR(rst[n]))
			return dev_err_probe(eth->dev, PTR_ERR(rst[n]),
					     "missing or invalid reset \"%s\"\n",
					     name[n]);
	}

	for (i = 0; i < n; i++)
		reset_control_assert(rst[i]);
	usleep_range(1000, 2000);
	for (i = n; i--; )
		reset_control_deassert(rst[i]);
	usleep_range(1000, 2000);
	return 0;
}

static void fe_free_dsa_meta(struct fe_eth *eth)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(eth->dsa_meta); i++) {
		if (eth->dsa_meta[i])
			dst_release(&eth->dsa_meta[i]->dst);
		eth->dsa_meta[i] = NULL;
	}
}

static int fe_alloc_dsa_meta(struct fe_eth *eth)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(eth->dsa_meta); i++) {
		struct metadata_dst *md;

		md = metadata_dst_alloc(0, METADATA_HW_PORT_MUX, GFP_KERNEL);
		if (!md) {
			fe_free_dsa_meta(eth);
			return -ENOMEM;
		}
		md->u.port_info.port_id = i;
		eth->dsa_meta[i] = md;
	}
	return 0;
}

/*
 * A DSA user port whose conduit is one of our MACs changed its link: its
 * QDMA queue gets the port's speed as its max rate, unless the MAC is
 * no faster (mainline's mtk_device_event()); called under RTNL
 */
static int fe_netdev_event(struct notifier_block *nb, unsigned long event,
			   void *ptr)
{
	struct fe_eth *eth = container_of(nb, struct fe_eth, netdev_nb);
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct ethtool_link_ksettings s;
	struct net_device *conduit;
	struct dsa_port *dp;
	struct fe_mac *mac;
	u32 speed;

	if (!IS_ENABLED(CONFIG_NET_DSA) || event != NETDEV_CHANGE ||
	    !dsa_user_dev_check(dev))
		return NOTIFY_DONE;
	dp = dsa_port_from_netdev(dev);
	if (IS_ERR(dp) || !dp->cpu_dp)
		return NOTIFY_DONE;
	conduit = dsa_port_to_conduit(dp);
	if (!conduit || conduit->netdev_ops != &fe_netdev_ops)
		return NOTIFY_DONE;
	mac = netdev_priv(conduit);
	if (mac->eth != eth || dp->index + FE_QDMA_DSA_QUEUE0 >= FE_QTX_NUM ||
	    __ethtool_get_link_ksettings(dev, &s))
		return NOTIFY_DONE;

	speed = s.base.speed;
	if (!speed || speed == SPEED_UNKNOWN)
		return NOTIFY_DONE;
	if (mac->speed > 0 && mac->speed <= speed)
		speed = 0;
	fe_qdma_set_queue_speed(eth, dp->index + FE_QDMA_DSA_QUEUE0, speed);
	return NOTIFY_DONE;
}

static int fe_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	const char * const *clk_name;
	struct device_node *np;
	struct resource *res;
	struct fe_eth *eth;
	struct clk *clk;
	unsigned int i;
	int err;

	eth = devm_kzalloc(dev, sizeof(*eth), GFP_KERNEL);
	if (!eth)
		return -ENOMEM;
	eth->dev = dev;
	eth->soc = of_device_get_match_data(dev);
	spin_lock_init(&eth->tx.lock);
	spin_lock_init(&eth->stats_lock);
	spin_lock_init(&eth->irq_lock);
	eth->irq_shared = eth->soc->regs->tx_irq.mask ==
			  eth->soc->regs->rx_irq.mask;
	eth->rx_irq_status = eth->soc->regs->rx_irq.status;
	eth->rx_irq_mask = eth->soc->regs->rx_irq.mask;
	eth->tx_irq_status = eth->soc->regs->tx_irq.status;
	eth->tx_irq_mask = eth->soc->regs->tx_irq.mask;
	INIT_WORK(&eth->reset_work, fe_reset_work);
	INIT_DELAYED_WORK(&eth->rx_watch, fe_rx_watch);
	eth->rx_ring_size = eth->soc->rx_ring_size;
	eth->tx_ring_size = eth->soc->tx_ring_size;
	spin_lock_init(&eth->coal_lock);
	fe_dim_init(eth, &eth->rx_coal);
	fe_dim_init(eth, &eth->tx_coal);
	eth->rx_copybreak = FE_RX_COPYBREAK;
	eth->tx_copybreak = FE_TX_COPYBREAK;
	platform_set_drvdata(pdev, eth);

	eth->base = devm_platform_get_and_ioremap_resource(pdev, 0, &res);
	if (IS_ERR(eth->base))
		return dev_err_probe(dev, PTR_ERR(eth->base),
				     "missing or invalid \"reg\"\n");
	/* The DT's "reg" covers the frame engine; the MACs follow it */
	if (eth->soc->regs->mac_base) {
		eth->mac_base = devm_ioremap(dev, res->start +
					     eth->soc->regs->mac_base,
					     eth->soc->regs->mac_size);
		if (!eth->mac_base)
			return -ENOMEM;
	}

	if (eth->soc->needs_ethsys) {
		eth->ethsys = syscon_regmap_lookup_by_phandle(dev->of_node,
							      "mediatek,ethsys");
		if (IS_ERR(eth->ethsys))
			return dev_err_probe(dev, PTR_ERR(eth->ethsys),
					     "missing or invalid \"mediatek,ethsys\"\n");
	}

	eth->irq = platform_get_irq(pdev, 0);
	if (eth->irq < 0)
		return dev_err_probe(dev, eth->irq,
				     "missing or invalid \"interrupts\"\n");

	for (clk_name = eth->soc->clk_names; *clk_name; clk_name++) {
		clk = devm_clk_get_enabled(dev, *clk_name);
		if (IS_ERR(clk))
			return dev_err_probe(dev, PTR_ERR(clk),
					     "missing or invalid clock \"%s\"\n",
					     *clk_name);
	}

	err = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(32));
	if (err)
		return err;

	err = fe_hw_reset(eth);
	if (err)
		return err;
	fe_irq_disable_all(eth);
	eth->hw_features = eth->soc->hw_features;
	if (eth->soc->ops->hw_init) {
		err = eth->soc->ops->hw_init(eth);
		if (err)
			return err;
	}

	if (eth->soc->tx_ops->probe) {
		err = eth->soc->tx_ops->probe(eth);
		if (err)
			return err;
	}

	if (eth->soc->regs->vid_table) {
		eth->vid_entry = devm_kzalloc(dev, VLAN_N_VID, GFP_KERNEL);
		if (!eth->vid_entry)
			return -ENOMEM;
	}

	/* Only a CDM that strips the special tag, or descriptors naming
	 * the switch port, need them
	 */
	if (eth->soc->has_stag || eth->soc->rx_swport) {
		err = fe_alloc_dsa_meta(eth);
		if (err)
			return err;
	}

	err = fe_ppe_probe(eth);
	if (err)
		goto err_macs;

	for_each_child_of_node(dev->of_node, np) {
		if (!of_device_is_compatible(np, "mediatek,eth-mac") ||
		    !of_device_is_available(np))
			continue;
		err = fe_mac_probe(eth, np);
		if (err) {
			of_node_put(np);
			goto err_macs;
		}
	}
	if (!eth->mac[0] && !eth->mac[1]) {
		dev_err(dev, "no \"mediatek,eth-mac\" child\n");
		err = -ENODEV;
		goto err_macs;
	}

	eth->napi_dev = alloc_netdev_dummy(0);
	if (!eth->napi_dev) {
		err = -ENOMEM;
		goto err_macs;
	}
	netif_napi_add(eth->napi_dev, &eth->rx_napi, fe_rx_poll);
	netif_napi_add_tx(eth->napi_dev, &eth->tx_napi, fe_tx_poll);

	err = devm_request_irq(dev, eth->irq, fe_irq, 0, dev_name(dev), eth);
	if (err)
		goto err_napi;

	err = fe_mdio_init(eth);
	if (err)
		goto err_irq;

	for (i = 0; i < FE_MAX_MACS; i++) {
		if (!eth->mac[i])
			continue;
		err = fe_check_phy(eth, eth->mac[i]);
		if (err)
			goto err_unreg;
		err = register_netdev(eth->mac[i]->netdev);
		if (err) {
			dev_err(dev, "GMAC%u: register_netdev: %d\n", i, err);
			goto err_unreg;
		}
	}

	if (eth->soc->tx_queues > 1) {
		eth->netdev_nb.notifier_call = fe_netdev_event;
		err = register_netdevice_notifier(&eth->netdev_nb);
		if (err) {
			i = FE_MAX_MACS;
			goto err_unreg;
		}
	}

	dev_info(dev, "%s frame engine, IRQ %d\n", eth->soc->name, eth->irq);
	return 0;

err_unreg:
	while (i--)
		if (eth->mac[i])
			unregister_netdev(eth->mac[i]->netdev);
	fe_mdio_cleanup(eth);
err_irq:
	devm_free_irq(dev, eth->irq, eth);
err_napi:
	netif_napi_del(&eth->tx_napi);
	netif_napi_del(&eth->rx_napi);
	free_netdev(eth->napi_dev);
err_macs:
	fe_macs_free(eth);
	fe_free_dsa_meta(eth);
	fe_ppe_remove(eth);
	return err;
}

static void fe_remove(struct platform_device *pdev)
{
	struct fe_eth *eth = platform_get_drvdata(pdev);
	unsigned int i;

	/*
	 * Our netdevs close first, letting go of the PHYs on our MDIO bus;
	 * then the bus goes, with a DSA switch on it (the MT7621's), which
	 * uses our netdevs as conduits; then the netdevs.
	 */
	if (eth->netdev_nb.notifier_call)
		unregister_netdevice_notifier(&eth->netdev_nb);
	rtnl_lock();
	for (i = 0; i < FE_MAX_MACS; i++)
		if (eth->mac[i])
			dev_close(eth->mac[i]->netdev);
	rtnl_unlock();
	fe_mdio_cleanup(eth);
	for (i = 0; i < FE_MAX_MACS; i++)
		if (eth->mac[i])
			unregister_netdev(eth->mac[i]->netdev);
	cancel_work_sync(&eth->reset_work);
	fe_irq_disable_all(eth);
	devm_free_irq(&pdev->dev, eth->irq, eth);
	netif_napi_del(&eth->tx_napi);
	netif_napi_del(&eth->rx_napi);
	free_netdev(eth->napi_dev);
	fe_macs_free(eth);
	fe_free_dsa_meta(eth);
	fe_ppe_remove(eth);
}

static const struct of_device_id fe_of_match[] = {
	{ .compatible = "mediatek,mt7620-eth", .data = &fe_mt7620_data },
	{ .compatible = "mediatek,mt7621-eth", .data = &fe_mt7621_data },
	{ .compatible = "ralink,rt2880-eth", .data = &fe_rt2880_data },
	{ .compatible = "ralink,rt3050-eth", .data = &fe_rt3050_data },
	{ .compatible = "ralink,rt3883-eth", .data = &fe_rt3883_data },
	{ .compatible = "ralink,rt5350-eth", .data = &fe_rt5350_data },
	{ /* sentinel */ }
};
MODULE_DEVICE_TABLE(of, fe_of_match);

static struct platform_driver fe_driver = {
	.probe = fe_probe,
	.remove = fe_remove,
	.driver = {
		.name = FE_DRV_NAME,
		.of_match_table = fe_of_match,
	},
};
module_platform_driver(fe_driver);

MODULE_AUTHOR("Seed a6eb6a1b maintainers <maintainers@users.noreply.a-seed-a6eb6a1b.example>");
MODULE_DESCRIPTION("Ralink/MediaTek SoC frame engine Ethernet driver");
MODULE_LICENSE("GPL");
