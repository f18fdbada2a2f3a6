// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek switch cores through DSA: the MT7620's gigabit switch
 *
 * The GSW is the MT7530's switch core behind another global block, on the
 * SoC's bus (mt7530-mmio.c): ports 0-4 with 100 Mbit PHYs, reached through
 * PIAC; port 5 to an external PHY or MAC; port 6 into the frame engine,
 * whose DMA descriptors carry a frame's port (DSA_TAG_PROTO_MT7620: no tag
 * on the wire). Its VLAN table has 16 slots, each naming its VID in VTIM;
 * its MIB counts frames in 16-bit fields, read as they are (they do not
 * clear); its interrupt register is a mask; it has no straps to read, no
 * chip name register and no EEE. The register layout follows OpenWrt's
 * gsw_mt7620.h and the 2016 series' gsw_mt7620.h.
 *
 * Port 5's MAC talks RGMII, MII or RMII as the system controller's SYSCFG1
 * says (its GE1 mode), with RGMII delays in GPC1 (OpenWrt's
 * mt7620_port_init()); its PHY is on the switch's MDIO bus with the
 * internal ones, named by phy-handle in the switch's "mdio" node.
 */

#include <linux/mfd/syscon.h>
#include <linux/regmap.h>

#include "mt7530.h"

/* MIB counters, from MT7530_MIB_P(port): frames in 16-bit halves */
#define MT7620_MIB_TX_PKTS		0x10	/* good 15:0, bad 31:16 */
#define MT7620_MIB_TX_BAD_BYTES		0x14
#define MT7620_MIB_TX_BYTES		0x18
#define MT7620_MIB_TX_DROP		0x1c	/* 15:0 */
#define MT7620_MIB_RX_PKTS		0x20	/* good 15:0, bad 31:16 */
#define MT7620_MIB_RX_BAD_BYTES		0x24
#define MT7620_MIB_RX_BYTES		0x28
#define MT7620_MIB_RX_DROP		0x2c	/* ingress 15:0, control 31:16 */
#define MT7620_MIB_RX_FILTER		0x30	/* filtered 15:0, ARL 31:16 */

#define MT7620_MIB(_off, _shift, _width, _name) \
	{ .offset = (_off), .shift = (_shift), .width = (_width), \
	  .name = (_name) }

/* In mt7620_fill_stats64()'s order; all accumulated */
enum {
	GS_TX_GOOD, GS_TX_BAD, GS_TX_BAD_BYTES, GS_TX_BYTES, GS_TX_DROP,
	GS_RX_GOOD, GS_RX_BAD, GS_RX_BAD_BYTES, GS_RX_BYTES, GS_RX_INGRESS_DROP,
	GS_RX_CTRL_DROP, GS_RX_FILTERING, GS_RX_ARL_DROP,
};

static const struct rsw_mib_desc mt7620_mibs[] = {
	[GS_TX_GOOD] = MT7620_MIB(MT7620_MIB_TX_PKTS, 0, 16, "TxGood"),
	[GS_TX_BAD] = MT7620_MIB(MT7620_MIB_TX_PKTS, 16, 16, "TxBad"),
	[GS_TX_BAD_BYTES] = MT7620_MIB(MT7620_MIB_TX_BAD_BYTES, 0, 32,
				       "TxBadBytes"),
	[GS_TX_BYTES] = MT7620_MIB(MT7620_MIB_TX_BYTES, 0, 32, "TxBytes"),
	[GS_TX_DROP] = MT7620_MIB(MT7620_MIB_TX_DROP, 0, 16, "TxDrop"),
	[GS_RX_GOOD] = MT7620_MIB(MT7620_MIB_RX_PKTS, 0, 16, "RxGood"),
	[GS_RX_BAD] = MT7620_MIB(MT7620_MIB_RX_PKTS, 16, 16, "RxBad"),
	[GS_RX_BAD_BYTES] = MT7620_MIB(MT7620_MIB_RX_BAD_BYTES, 0, 32,
				       "RxBadBytes"),
	[GS_RX_BYTES] = MT7620_MIB(MT7620_MIB_RX_BYTES, 0, 32, "RxBytes"),
	[GS_RX_INGRESS_DROP] = MT7620_MIB(MT7620_MIB_RX_DROP, 0, 16,
					  "RxIngressDrop"),
	[GS_RX_CTRL_DROP] = MT7620_MIB(MT7620_MIB_RX_DROP, 16, 16,
				       "RxCtrlDrop"),
	[GS_RX_FILTERING] = MT7620_MIB(MT7620_MIB_RX_FILTER, 0, 16,
				       "RxFiltering"),
	[GS_RX_ARL_DROP] = MT7620_MIB(MT7620_MIB_RX_FILTER, 16, 16,
				      "RxArlDrop"),
};

static_assert(ARRAY_SIZE(mt7620_mibs) <= RSW_STATS_MIBS);

/*
 * A 16-bit frame counter wraps in 0.44 s of 64-byte frames at 100 Mbit/s
 * (148,810 a second), at 1 Gbit/s on port 6 in 44 ms: the stats work
 * reads them four times a second (13 MMIO reads a port up).
 * Port 6's are not read (DSA reports the CPU port's own counters
 * nowhere), so a burst of over 65535 frames in 0.25 s on one user port,
 * more than 100 Mbit/s can carry, is the limit.
 */
#define MT7620_STATS_PERIOD		(HZ / 4)

static void mt7620_fill_stats64(struct rsw_priv *priv, int port,
				const u64 *acc, struct rtnl_link_stats64 *s)
{
	s->rx_packets = acc[GS_RX_GOOD];
	s->tx_packets = acc[GS_TX_GOOD];
	s->rx_bytes = acc[GS_RX_BYTES];
	s->tx_bytes = acc[GS_TX_BYTES];
	s->rx_errors = acc[GS_RX_BAD];
	s->tx_errors = acc[GS_TX_BAD];
	s->rx_dropped = acc[GS_RX_INGRESS_DROP];
	s->tx_dropped = acc[GS_TX_DROP];
}

/* The reset line is all there is: no straps or chip name to check */
static int mt7620_reset(struct rsw_priv *priv)
{
	if (priv->bus_ops->hw_reset)
		priv->bus_ops->hw_reset(priv);
	regcache_drop_region(priv->regmap, 0, MT7620_MAX_REG);

	return 0;
}

/* The counters cannot be cleared: they count from the reset */
static int mt7620_start_mib(struct rsw_priv *priv)
{
	return rsw_rmw(priv, MT7620_MIB_CNT_EN, MIB_CNT_EN_ENABLE,
		       MIB_CNT_EN_ENABLE);
}

static int mt7620_set_max_frame(struct rsw_priv *priv, int len)
{
	u32 val;

	if (len <= 1522)
		val = FIELD_PREP(GMACCR_MAX_RX_PKT_LEN, MAX_RX_PKT_LEN_1522);
	else if (len <= 1536)
		val = FIELD_PREP(GMACCR_MAX_RX_PKT_LEN, MAX_RX_PKT_LEN_1536);
	else
		val = FIELD_PREP(GMACCR_MAX_RX_PKT_LEN,
				 MT7620_MAX_RX_PKT_LEN_JUMBO) |
		      FIELD_PREP(GMACCR_MAX_RX_JUMBO, DIV_ROUND_UP(len, 1024));

	return rsw_rmw(priv, MT7620_GMACCR,
		       GMACCR_MAX_RX_PKT_LEN | GMACCR_MAX_RX_JUMBO, val);
}

/**
 * rsw_mt7620_volatile_reg() - rsw_volatile_reg() for the GSW
 * @dev: the switch's device
 * @reg: the register
 *
 * The GSW's own configuration registers are cached too (on the MT7530
 * these offsets are other registers: its MIB, for one).
 *
 * Return: false for the registers the regmap may cache.
 */
bool rsw_mt7620_volatile_reg(struct device *dev, unsigned int reg)
{
	switch (reg) {
	case MT7620_GMACCR:
	case MT7620_MIB_CNT_EN:
	case MT7620_GPC1:
		return false;
	}
	return rsw_volatile_reg(dev, reg);
}

/* The system controller's SYSCFG1: port 5's interface (GE1) mode */
#define MT7620_SYSC_SYSCFG1		0x14
#define  SYSCFG1_GE1_MODE		GENMASK(13, 12)
#define  GE_MODE_RGMII			0
#define  GE_MODE_MII			1
#define  GE_MODE_RMII			2

/* Port 5 needs the system controller for its interface mode */
static int mt7620_setup(struct rsw_priv *priv)
{
	if (dsa_is_unused_port(&priv->ds, MT7620_EXT_PORT) || priv->sysc)
		return 0;

	priv->sysc = syscon_regmap_lookup_by_compatible("ralink,mt7620-sysc");
	if (IS_ERR(priv->sysc)) {
		int err = PTR_ERR(priv->sysc);

		priv->sysc = NULL;
		return dev_err_probe(priv->dev, err,
				     "port 5: no system controller (ralink,mt7620-sysc) for its interface mode\n");
	}

	return 0;
}

/*
 * Port 5's GE1 mode, and its RGMII delays as OpenWrt's mt7620_port_init()
 * sets them for each phy-mode (what the two GPC1 bits do is not documented
 * in any source known here; plain "rgmii" leaves them as they are)
 */
static void mt7620_mac_config(struct rsw_priv *priv, int port,
			      phy_interface_t interface)
{
	u32 mode, delay;

	if (port != MT7620_EXT_PORT || !priv->sysc)
		return;

	switch (interface) {
	case PHY_INTERFACE_MODE_MII:
		mode = GE_MODE_MII;
		break;
	case PHY_INTERFACE_MODE_RMII:
		mode = GE_MODE_RMII;
		break;
	default:
		mode = GE_MODE_RGMII;
		break;
	}
	regmap_update_bits(priv->sysc, MT7620_SYSC_SYSCFG1, SYSCFG1_GE1_MODE,
			   FIELD_PREP(SYSCFG1_GE1_MODE, mode));

	switch (interface) {
	case PHY_INTERFACE_MODE_RGMII_ID:
		delay = GPC1_TXDELAY;
		break;
	case PHY_INTERFACE_MODE_RGMII_RXID:
		delay = 0;
		break;
	case PHY_INTERFACE_MODE_RGMII_TXID:
		delay = GPC1_RXDELAY;
		break;
	default:
		return;
	}
	rsw_rmw(priv, MT7620_GPC1, GPC1_TXDELAY | GPC1_RXDELAY, delay);
}

static void mt7620_phylink_get_caps(struct dsa_switch *ds, int port,
				    struct phylink_config *config)
{
	config->mac_capabilities |= MAC_10 | MAC_100;

	switch (port) {
	case 0 ... 4:	/* internal 100 Mbit PHYs */
		__set_bit(PHY_INTERFACE_MODE_GMII, config->supported_interfaces);
		__set_bit(PHY_INTERFACE_MODE_INTERNAL,
			  config->supported_interfaces);
		break;
	case MT7620_EXT_PORT:	/* an external PHY or MAC */
		config->mac_capabilities |= MAC_1000FD;
		phy_interface_set_rgmii(config->supported_interfaces);
		__set_bit(PHY_INTERFACE_MODE_MII, config->supported_interfaces);
		__set_bit(PHY_INTERFACE_MODE_RMII, config->supported_interfaces);
		break;
	case 6:		/* the frame engine */
		config->mac_capabilities |= MAC_1000FD;
		__set_bit(PHY_INTERFACE_MODE_GMII, config->supported_interfaces);
		__set_bit(PHY_INTERFACE_MODE_INTERNAL,
			  config->supported_interfaces);
		break;
	}
}

const struct rsw_info rsw_mt7620_info = {
	.name = "MT7620",
	.num_ports = 7,
	.num_phys = 5,
	.cpu_port = 6,
	.tag_protocol = DSA_TAG_PROTO_MT7620,
	.max_frame = MT7620_MAX_FRAME,
	.vlan_slots = MT7620_NUM_VLAN_SLOTS,
	.irq_mask = true,
	/* OpenWrt enables the MIB after the GSW's reset: off out of reset */
	.reset_mark_reg = MT7620_MIB_CNT_EN,
	.reset_mark_bit = MIB_CNT_EN_ENABLE,
	.mibs = mt7620_mibs,
	.num_mibs = ARRAY_SIZE(mt7620_mibs),
	.stats_mibs = mt7620_mibs,
	.num_stats_mibs = ARRAY_SIZE(mt7620_mibs),
	.mibs_accumulated = true,
	.stats_period = MT7620_STATS_PERIOD,
	.fill_stats64 = mt7620_fill_stats64,
	.reset = mt7620_reset,
	.setup = mt7620_setup,
	.start_mib = mt7620_start_mib,
	.set_max_frame = mt7620_set_max_frame,
	.phylink_get_caps = mt7620_phylink_get_caps,
	.mac_config = mt7620_mac_config,
};
