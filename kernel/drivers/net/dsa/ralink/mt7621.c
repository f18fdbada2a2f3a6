// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek switch cores through DSA: the MT7530 core of the MT7621
 *
 * A die of the MCM, reached over the frame engine's MDIO bus: the MediaTek
 * special tag on the CPU ports, 32- and 64-bit MIB counters, the VLAN
 * table indexed by VID, the straps in TRAP/MTRAP and the chip's name in
 * CREV.
 */

#include <linux/delay.h>
#include <linux/regmap.h>

#include "mt7530.h"

#define MT7530_CHIP_ID			0x7530

#define MT7530_MIB(_off, _width, _name) \
	{ .offset = (_off), .width = (_width), .name = (_name) }

static const struct rsw_mib_desc mt7530_mibs[] = {
	MT7530_MIB(MIB_TX_DROP, 32, "TxDrop"),
	MT7530_MIB(MIB_TX_CRC_ERR, 32, "TxCrcErr"),
	MT7530_MIB(MIB_TX_UNICAST, 32, "TxUnicast"),
	MT7530_MIB(MIB_TX_MULTICAST, 32, "TxMulticast"),
	MT7530_MIB(MIB_TX_BROADCAST, 32, "TxBroadcast"),
	MT7530_MIB(MIB_TX_COLLISION, 32, "TxCollision"),
	MT7530_MIB(MIB_TX_SINGLE_COLL, 32, "TxSingleCollision"),
	MT7530_MIB(MIB_TX_MULTI_COLL, 32, "TxMultipleCollision"),
	MT7530_MIB(MIB_TX_DEFERRED, 32, "TxDeferred"),
	MT7530_MIB(MIB_TX_LATE_COLL, 32, "TxLateCollision"),
	MT7530_MIB(MIB_TX_EXCESS_COLL, 32, "TxExcessiveCollision"),
	MT7530_MIB(MIB_TX_PAUSE, 32, "TxPause"),
	MT7530_MIB(MIB_TX_PKT_SZ_64, 32, "TxPktSz64"),
	MT7530_MIB(MIB_TX_PKT_SZ_64 + 0x04, 32, "TxPktSz65To127"),
	MT7530_MIB(MIB_TX_PKT_SZ_64 + 0x08, 32, "TxPktSz128To255"),
	MT7530_MIB(MIB_TX_PKT_SZ_64 + 0x0c, 32, "TxPktSz256To511"),
	MT7530_MIB(MIB_TX_PKT_SZ_64 + 0x10, 32, "TxPktSz512To1023"),
	MT7530_MIB(MIB_TX_PKT_SZ_64 + 0x14, 32, "TxPktSz1024ToMax"),
	MT7530_MIB(MIB_TX_BYTES, 64, "TxBytes"),
	MT7530_MIB(MIB_RX_DROP, 32, "RxDrop"),
	MT7530_MIB(MIB_RX_FILTERING, 32, "RxFiltering"),
	MT7530_MIB(MIB_RX_UNICAST, 32, "RxUnicast"),
	MT7530_MIB(MIB_RX_MULTICAST, 32, "RxMulticast"),
	MT7530_MIB(MIB_RX_BROADCAST, 32, "RxBroadcast"),
	MT7530_MIB(MIB_RX_ALIGN_ERR, 32, "RxAlignErr"),
	MT7530_MIB(MIB_RX_CRC_ERR, 32, "RxCrcErr"),
	MT7530_MIB(MIB_RX_UNDER_SIZE, 32, "RxUnderSizeErr"),
	MT7530_MIB(MIB_RX_FRAG_ERR, 32, "RxFragErr"),
	MT7530_MIB(MIB_RX_OVER_SIZE, 32, "RxOverSzErr"),
	MT7530_MIB(MIB_RX_JABBER_ERR, 32, "RxJabberErr"),
	MT7530_MIB(MIB_RX_PAUSE, 32, "RxPause"),
	MT7530_MIB(MIB_RX_PKT_SZ_64, 32, "RxPktSz64"),
	MT7530_MIB(MIB_RX_PKT_SZ_64 + 0x04, 32, "RxPktSz65To127"),
	MT7530_MIB(MIB_RX_PKT_SZ_64 + 0x08, 32, "RxPktSz128To255"),
	MT7530_MIB(MIB_RX_PKT_SZ_64 + 0x0c, 32, "RxPktSz256To511"),
	MT7530_MIB(MIB_RX_PKT_SZ_64 + 0x10, 32, "RxPktSz512To1023"),
	MT7530_MIB(MIB_RX_PKT_SZ_64 + 0x14, 32, "RxPktSz1024ToMax"),
	MT7530_MIB(MIB_RX_BYTES, 64, "RxBytes"),
	MT7530_MIB(MIB_RX_CTRL_DROP, 32, "RxCtrlDrop"),
	MT7530_MIB(MIB_RX_INGRESS_DROP, 32, "RxIngressDrop"),
	MT7530_MIB(MIB_RX_ARL_DROP, 32, "RxArlDrop"),
};

/* The counters get_stats64 is made of, in mt7530_fill_stats64()'s order */
enum {
	ST_RX_UNICAST, ST_RX_MULTICAST, ST_RX_BROADCAST, ST_RX_DROP,
	ST_RX_CRC_ERR, ST_RX_ALIGN_ERR, ST_RX_UNDER_SIZE, ST_RX_OVER_SIZE,
	ST_RX_FRAG_ERR, ST_RX_JABBER_ERR, ST_TX_UNICAST, ST_TX_MULTICAST,
	ST_TX_BROADCAST, ST_TX_DROP, ST_TX_COLLISION, ST_TX_LATE_COLL,
};

static const struct rsw_mib_desc mt7530_stats_mibs[] = {
	[ST_RX_UNICAST] = MT7530_MIB(MIB_RX_UNICAST, 32, NULL),
	[ST_RX_MULTICAST] = MT7530_MIB(MIB_RX_MULTICAST, 32, NULL),
	[ST_RX_BROADCAST] = MT7530_MIB(MIB_RX_BROADCAST, 32, NULL),
	[ST_RX_DROP] = MT7530_MIB(MIB_RX_DROP, 32, NULL),
	[ST_RX_CRC_ERR] = MT7530_MIB(MIB_RX_CRC_ERR, 32, NULL),
	[ST_RX_ALIGN_ERR] = MT7530_MIB(MIB_RX_ALIGN_ERR, 32, NULL),
	[ST_RX_UNDER_SIZE] = MT7530_MIB(MIB_RX_UNDER_SIZE, 32, NULL),
	[ST_RX_OVER_SIZE] = MT7530_MIB(MIB_RX_OVER_SIZE, 32, NULL),
	[ST_RX_FRAG_ERR] = MT7530_MIB(MIB_RX_FRAG_ERR, 32, NULL),
	[ST_RX_JABBER_ERR] = MT7530_MIB(MIB_RX_JABBER_ERR, 32, NULL),
	[ST_TX_UNICAST] = MT7530_MIB(MIB_TX_UNICAST, 32, NULL),
	[ST_TX_MULTICAST] = MT7530_MIB(MIB_TX_MULTICAST, 32, NULL),
	[ST_TX_BROADCAST] = MT7530_MIB(MIB_TX_BROADCAST, 32, NULL),
	[ST_TX_DROP] = MT7530_MIB(MIB_TX_DROP, 32, NULL),
	[ST_TX_COLLISION] = MT7530_MIB(MIB_TX_COLLISION, 32, NULL),
	[ST_TX_LATE_COLL] = MT7530_MIB(MIB_TX_LATE_COLL, 32, NULL),
};

/* The octet counters are 64 bits wide: read as they are */
static void mt7530_fill_stats64(struct rsw_priv *priv, int port,
				const u64 *acc, struct rtnl_link_stats64 *s)
{
	struct rsw_port *p = &priv->ports[port];

	s->rx_packets = acc[ST_RX_UNICAST] + acc[ST_RX_MULTICAST] +
			acc[ST_RX_BROADCAST];
	s->tx_packets = acc[ST_TX_UNICAST] + acc[ST_TX_MULTICAST] +
			acc[ST_TX_BROADCAST];
	s->rx_bytes = p->bytes_base[0] +
		      rsw_mib_read64(priv, port, MIB_RX_BYTES);
	s->tx_bytes = p->bytes_base[1] +
		      rsw_mib_read64(priv, port, MIB_TX_BYTES);
	s->multicast = acc[ST_RX_MULTICAST];
	s->rx_dropped = acc[ST_RX_DROP];
	s->tx_dropped = acc[ST_TX_DROP];
	s->rx_crc_errors = acc[ST_RX_CRC_ERR];
	s->rx_frame_errors = acc[ST_RX_ALIGN_ERR];
	s->rx_length_errors = acc[ST_RX_UNDER_SIZE] + acc[ST_RX_OVER_SIZE];
	s->rx_errors = s->rx_crc_errors + s->rx_frame_errors +
		       s->rx_length_errors + acc[ST_RX_FRAG_ERR] +
		       acc[ST_RX_JABBER_ERR];
	s->collisions = acc[ST_TX_COLLISION];
	s->tx_window_errors = acc[ST_TX_LATE_COLL];
	s->tx_errors = s->tx_window_errors;
}

static int mt7530_reset(struct rsw_priv *priv)
{
	u32 trap, crev;
	int ret;

	if (priv->bus_ops->hw_reset)
		priv->bus_ops->hw_reset(priv);

	/* The strap register reads 0 until the core is out of reset */
	ret = regmap_read_poll_timeout(priv->regmap, MT7530_TRAP, trap, trap,
				       20, USEC_PER_SEC);
	if (ret) {
		dev_err(priv->dev, "switch core stays in reset: %d\n", ret);
		return ret;
	}

	ret = regmap_read(priv->regmap, MT7530_CREV, &crev);
	if (ret)
		return ret;
	if (FIELD_GET(CREV_CHIP_NAME, crev) != MT7530_CHIP_ID) {
		dev_err(priv->dev, "chip %04lx is no %s\n",
			FIELD_GET(CREV_CHIP_NAME, crev), priv->info->name);
		return -ENODEV;
	}
	priv->xtal = FIELD_GET(TRAP_XTAL, trap);
	if (priv->xtal == TRAP_XTAL_20MHZ) {
		dev_err(priv->dev, "a 20 MHz crystal is not supported\n");
		return -EINVAL;
	}

	/* Registers, switch core and PHYs back to their defaults */
	ret = regmap_write(priv->regmap, MT7530_SYS_CTRL, SYS_CTRL_PHY_RST |
			   SYS_CTRL_SW_RST | SYS_CTRL_REG_RST);
	if (ret)
		return ret;
	regcache_drop_region(priv->regmap, 0, MT7530_MAX_REG);

	return 0;
}

/* Clear and start the MIB counters */
static int mt7530_start_mib(struct rsw_priv *priv)
{
	int ret;

	ret = regmap_write(priv->regmap, MT7530_MIB_CCR, CCR_OCT_CNT_ALL);
	if (!ret)
		ret = regmap_write(priv->regmap, MT7530_MIB_CCR,
				   CCR_MIB_ENABLE | CCR_OCT_CNT_ALL);

	return ret;
}

static int mt7530_set_max_frame(struct rsw_priv *priv, int len)
{
	u32 val;

	if (len <= 1522)
		val = FIELD_PREP(GMACCR_MAX_RX_PKT_LEN, MAX_RX_PKT_LEN_1522);
	else if (len <= 1536)
		val = FIELD_PREP(GMACCR_MAX_RX_PKT_LEN, MAX_RX_PKT_LEN_1536);
	else if (len <= 1552)
		val = FIELD_PREP(GMACCR_MAX_RX_PKT_LEN, MAX_RX_PKT_LEN_1552);
	else
		val = FIELD_PREP(GMACCR_MAX_RX_PKT_LEN, MAX_RX_PKT_LEN_JUMBO) |
		      FIELD_PREP(GMACCR_MAX_RX_JUMBO, DIV_ROUND_UP(len, 1024));

	return rsw_rmw(priv, MT7530_GMACCR,
		       GMACCR_MAX_RX_PKT_LEN | GMACCR_MAX_RX_JUMBO, val);
}

static int mt7530_irq_setup(struct rsw_priv *priv)
{
	return rsw_rmw(priv, MT7530_TOP_SIG_CTRL, TOP_SIG_CTRL_NORMAL,
		       TOP_SIG_CTRL_NORMAL);
}

static void mt7621_phylink_get_caps(struct dsa_switch *ds, int port,
				    struct phylink_config *config)
{
	config->mac_capabilities |= MAC_10 | MAC_100 | MAC_1000FD;

	switch (port) {
	case 0 ... 4:	/* internal PHYs */
		__set_bit(PHY_INTERFACE_MODE_GMII, config->supported_interfaces);
		break;
	case 5:		/* GMAC1 or an external PHY */
		phy_interface_set_rgmii(config->supported_interfaces);
		__set_bit(PHY_INTERFACE_MODE_MII, config->supported_interfaces);
		__set_bit(PHY_INTERFACE_MODE_GMII, config->supported_interfaces);
		break;
	case 6:		/* GMAC0 */
		__set_bit(PHY_INTERFACE_MODE_RGMII,
			  config->supported_interfaces);
		__set_bit(PHY_INTERFACE_MODE_TRGMII,
			  config->supported_interfaces);
		break;
	}
}

static void mt7621_core_rmw(struct rsw_priv *priv, u16 reg, u16 mask, u16 set)
{
	int val = priv->bus_ops->core_read(priv, reg);

	if (val >= 0)
		priv->bus_ops->core_write(priv, reg, (val & ~mask) | set);
}

/*
 * The switch core's clock: 500 MHz from a 40 MHz crystal (vendor values);
 * the straps may change, the PHYs are reached directly over MDIO
 */
static int mt7621_setup(struct rsw_priv *priv)
{
	if (priv->xtal != TRAP_XTAL_40MHZ)
		goto trap;

	mt7621_core_rmw(priv, CORE_TRGMII_GSW_CLK_CG, REG_GSWCK_EN, 0);
	priv->bus_ops->core_write(priv, CORE_GSWPLL_GRP1, 0);
	priv->bus_ops->core_write(priv, CORE_GSWPLL_GRP2,
				  FIELD_PREP(RG_GSWPLL_POSDIV_500M, 1) |
				  FIELD_PREP(RG_GSWPLL_FBKDIV_500M, 25));
	priv->bus_ops->core_write(priv, CORE_GSWPLL_GRP1, RG_GSWPLL_EN_PRE |
				  FIELD_PREP(RG_GSWPLL_POSDIV_200M, 2) |
				  FIELD_PREP(RG_GSWPLL_FBKDIV_200M, 32));
	usleep_range(20, 40);
	mt7621_core_rmw(priv, CORE_TRGMII_GSW_CLK_CG, REG_GSWCK_EN, REG_GSWCK_EN);

trap:
	return rsw_rmw(priv, MT7530_MTRAP, MTRAP_CHG_TRAP | MTRAP_PHY_INDIRECT,
		       MTRAP_CHG_TRAP);
}

/* Port 6's TRGMII transmit clock, 125 MHz on the MT7621 (vendor values) */
static void mt7621_trgmii_clock(struct rsw_priv *priv)
{
	u16 ncpo1 = priv->xtal == TRAP_XTAL_25MHZ ? 0x0a00 : 0x0640;
	u16 ssc_delta = priv->xtal == TRAP_XTAL_25MHZ ? 0x57 : 0x87;
	const struct rsw_bus_ops *ops = priv->bus_ops;

	ops->core_write(priv, CORE_PLL_GROUP5, ncpo1);
	ops->core_write(priv, CORE_PLL_GROUP6, 0);
	ops->core_write(priv, CORE_PLL_GROUP10, ssc_delta);
	ops->core_write(priv, CORE_PLL_GROUP11, ssc_delta);
	ops->core_write(priv, CORE_PLL_GROUP4, RG_SYSPLL_DDSFBK_EN |
			RG_SYSPLL_BIAS_EN | RG_SYSPLL_BIAS_LPF_EN);
	ops->core_write(priv, CORE_PLL_GROUP2, RG_SYSPLL_EN_NORMAL |
			RG_SYSPLL_VODEN | FIELD_PREP(RG_SYSPLL_POSDIV, 1));
	ops->core_write(priv, CORE_PLL_GROUP7, RG_LCDDS_PCW_NCPO_CHG |
			FIELD_PREP(RG_LCCDS_C, 3) | RG_LCDDS_PWDB |
			RG_LCDDS_ISO_EN);
}

static void mt7621_mac_config(struct rsw_priv *priv, int port,
			      phy_interface_t interface)
{
	if (port == 6) {
		bool trgmii = interface == PHY_INTERFACE_MODE_TRGMII;

		mt7621_core_rmw(priv, CORE_TRGMII_GSW_CLK_CG, REG_TRGMIICK_EN,
				0);
		rsw_rmw(priv, MT7530_P6ECR, P6ECR_INTF_MODE, trgmii ?
			P6_INTF_MODE_TRGMII : P6_INTF_MODE_RGMII);
		if (trgmii) {
			mt7621_trgmii_clock(priv);
			mt7621_core_rmw(priv, CORE_TRGMII_GSW_CLK_CG,
					REG_TRGMIICK_EN, REG_TRGMIICK_EN);
		}
		return;
	}
	if (port != 5 || !phy_interface_mode_is_rgmii(interface))
		return;

	/* Port 5 as a MAC (GMAC5) in RGMII mode, no PHY muxed to it */
	rsw_rmw(priv, MT7530_MTRAP, MTRAP_P5_PHY0_SEL | MTRAP_P5_MAC_SEL |
		MTRAP_P5_RGMII_MODE, MTRAP_P5_MAC_SEL | MTRAP_P5_RGMII_MODE);
	regmap_write(priv->regmap, MT7530_P5RGMIIRXCR, P5RGMIIRXCR_EDGE_ALIGN);
	regmap_write(priv->regmap, MT7530_P5RGMIITXCR,
		     FIELD_PREP(P5RGMIITXCR_TXC_CFG, P5_TXC_NO_DELAY));
	regmap_write(priv->regmap, MT7530_IO_DRV_CR,
		     FIELD_PREP(IO_DRV_P5_CLK, IO_DRV_8MA) |
		     FIELD_PREP(IO_DRV_P5_DATA, IO_DRV_8MA));
}

const struct rsw_info rsw_mt7621_info = {
	.name = "MT7621",
	.num_ports = 7,
	.num_phys = 5,
	.cpu_port = 6,
	.tag_protocol = DSA_TAG_PROTO_MTK,
	.tag_len = RSW_MTK_TAG_LEN,
	.max_frame = MT7530_MAX_FRAME,
	.has_mtrap = true,
	.reset_mark_reg = MT7530_MTRAP,
	.reset_mark_bit = MTRAP_CHG_TRAP,
	.has_eee = true,
	.has_acl = true,
	.has_erlcr = true,
	.mibs = mt7530_mibs,
	.num_mibs = ARRAY_SIZE(mt7530_mibs),
	.stats_mibs = mt7530_stats_mibs,
	.num_stats_mibs = ARRAY_SIZE(mt7530_stats_mibs),
	.has_rmon = true,
	.fill_stats64 = mt7530_fill_stats64,
	.reset = mt7530_reset,
	.setup = mt7621_setup,
	.start_mib = mt7530_start_mib,
	.set_max_frame = mt7530_set_max_frame,
	.irq_setup = mt7530_irq_setup,
	.phylink_get_caps = mt7621_phylink_get_caps,
	.mac_config = mt7621_mac_config,
};

