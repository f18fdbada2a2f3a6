// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek switch cores through DSA: the MDIO front end
 *
 * The MT7530 core answers at one MDIO address with its 32-bit registers
 * paged: register 0x1f selects the page (register address bits 15:6),
 * registers 0 to 15 are the page's words (address bits 5:2), low half
 * first; register 0x10 carries the high half. A write is complete when
 * the high half is written. The internal PHYs answer at MDIO addresses 0
 * to 4 of the same bus.
 */

#include <linux/delay.h>
#include <linux/mdio.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_irq.h>
#include <linux/phy.h>
#include <linux/regmap.h>
#include <linux/reset.h>

#include "mt7530.h"

#define RSW_MDIO_PAGE_REG		0x1f
#define RSW_MDIO_PAGE			GENMASK(15, 6)
#define RSW_MDIO_WORD			GENMASK(5, 2)
#define RSW_MDIO_HI_REG			0x10
/* How long the MCM reset line is held */
#define RSW_MCM_RESET_US		5000

/**
 * struct rsw_mdio - a switch core on an MDIO bus
 * @priv: the core's driver state
 * @mdiodev: the core's MDIO device
 * @rstc: the reset line of the core (MT7621: the MCM reset)
 * @page: the page register's value, -1 if unknown; under the bus lock
 */
struct rsw_mdio {
	struct rsw_priv priv;
	struct mdio_device *mdiodev;
	struct reset_control *rstc;
	int page;
};

static int rsw_mdio_set_page(struct rsw_mdio *sw, unsigned int reg)
{
	struct mdio_device *mdiodev = sw->mdiodev;
	int page = FIELD_GET(RSW_MDIO_PAGE, reg);
	int ret;

	if (page == sw->page)
		return 0;

	ret = __mdiobus_write(mdiodev->bus, mdiodev->addr, RSW_MDIO_PAGE_REG,
			      page);
	sw->page = ret ? -1 : page;

	return ret;
}

static int rsw_mdio_reg_read(void *context, unsigned int reg,
			     unsigned int *val)
{
	struct rsw_mdio *sw = context;
	struct mii_bus *bus = sw->mdiodev->bus;
	int addr = sw->mdiodev->addr;
	int lo, hi, ret;

	/* The page register is shared state: the bus lock covers it */
	mutex_lock_nested(&bus->mdio_lock, MDIO_MUTEX_NESTED);
	ret = rsw_mdio_set_page(sw, reg);
	if (ret)
		goto out;

	lo = __mdiobus_read(bus, addr, FIELD_GET(RSW_MDIO_WORD, reg));
	hi = __mdiobus_read(bus, addr, RSW_MDIO_HI_REG);
	if (lo < 0 || hi < 0)
		ret = lo < 0 ? lo : hi;
	else
		*val = (u32)hi << 16 | lo;
out:
	mutex_unlock(&bus->mdio_lock);

	return ret;
}

static int rsw_mdio_reg_write(void *context, unsigned int reg,
			      unsigned int val)
{
	struct rsw_mdio *sw = context;
	struct mii_bus *bus = sw->mdiodev->bus;
	int addr = sw->mdiodev->addr;
	int ret;

	mutex_lock_nested(&bus->mdio_lock, MDIO_MUTEX_NESTED);
	ret = rsw_mdio_set_page(sw, reg);
	if (!ret)
		ret = __mdiobus_write(bus, addr, FIELD_GET(RSW_MDIO_WORD, reg),
				      lower_16_bits(val));
	if (!ret)
		ret = __mdiobus_write(bus, addr, RSW_MDIO_HI_REG,
				      upper_16_bits(val));
	mutex_unlock(&bus->mdio_lock);

	return ret;
}

static const struct regmap_bus rsw_mdio_regmap_bus = {
	.reg_read = rsw_mdio_reg_read,
	.reg_write = rsw_mdio_reg_write,
};

static const struct regmap_config rsw_mdio_regmap_config = {
	.reg_bits = 16,
	.val_bits = 32,
	.reg_stride = 4,
	.max_register = MT7530_MAX_REG,
	.volatile_reg = rsw_volatile_reg,
	.cache_type = REGCACHE_MAPLE,
};

static struct rsw_mdio *to_rsw_mdio(struct rsw_priv *priv)
{
	return container_of(priv, struct rsw_mdio, priv);
}

static void rsw_mdio_hw_reset(struct rsw_priv *priv)
{
	struct rsw_mdio *sw = to_rsw_mdio(priv);
	struct mii_bus *bus = sw->mdiodev->bus;

	if (!sw->rstc)
		return;

	reset_control_assert(sw->rstc);
	fsleep(RSW_MCM_RESET_US);
	reset_control_deassert(sw->rstc);

	mutex_lock_nested(&bus->mdio_lock, MDIO_MUTEX_NESTED);
	sw->page = -1;
	mutex_unlock(&bus->mdio_lock);
}

static int rsw_mdio_phy_read(struct rsw_priv *priv, int port, int regnum)
{
	return mdiobus_read_nested(to_rsw_mdio(priv)->mdiodev->bus, port,
				   regnum);
}

static int rsw_mdio_phy_write(struct rsw_priv *priv, int port, int regnum,
			      u16 val)
{
	return mdiobus_write_nested(to_rsw_mdio(priv)->mdiodev->bus, port,
				    regnum, val);
}

/* Core registers: MMD device 0x1f of the PHY at the next MDIO address */
static int rsw_mdio_core_access(struct rsw_priv *priv, u16 reg, int val)
{
	struct mdio_device *mdiodev = to_rsw_mdio(priv)->mdiodev;
	int addr = (mdiodev->addr + 1) & (PHY_MAX_ADDR - 1);
	struct mii_bus *bus = mdiodev->bus;
	int ret;

	mutex_lock_nested(&bus->mdio_lock, MDIO_MUTEX_NESTED);
	ret = __mdiobus_write(bus, addr, MII_MMD_CTRL, MDIO_MMD_VEND2);
	if (!ret)
		ret = __mdiobus_write(bus, addr, MII_MMD_DATA, reg);
	if (!ret)
		ret = __mdiobus_write(bus, addr, MII_MMD_CTRL,
				      MDIO_MMD_VEND2 | MII_MMD_CTRL_NOINCR);
	if (!ret)
		ret = val < 0 ? __mdiobus_read(bus, addr, MII_MMD_DATA) :
			__mdiobus_write(bus, addr, MII_MMD_DATA, val);
	mutex_unlock(&bus->mdio_lock);

	return ret;
}

static int rsw_mdio_core_read(struct rsw_priv *priv, u16 reg)
{
	return rsw_mdio_core_access(priv, reg, -1);
}

static int rsw_mdio_core_write(struct rsw_priv *priv, u16 reg, u16 val)
{
	return rsw_mdio_core_access(priv, reg, val);
}

static const struct rsw_bus_ops rsw_mdio_bus_ops = {
	.hw_reset = rsw_mdio_hw_reset,
	.phy_read = rsw_mdio_phy_read,
	.phy_write = rsw_mdio_phy_write,
	.core_read = rsw_mdio_core_read,
	.core_write = rsw_mdio_core_write,
};

static int rsw_mdio_probe(struct mdio_device *mdiodev)
{
	struct device *dev = &mdiodev->dev;
	const struct rsw_info *info;
	struct regmap *regmap;
	struct rsw_mdio *sw;
	int irq;

	info = of_device_get_match_data(dev);
	if (!info)
		return -EINVAL;

	if (!rsw_has_ports(dev))
		return -EINVAL;

	sw = devm_kzalloc(dev, sizeof(*sw), GFP_KERNEL);
	if (!sw)
		return -ENOMEM;
	sw->mdiodev = mdiodev;
	sw->page = -1;

	/* The MT7621's switch is a die of the MCM, reset with it */
	if (!of_property_read_bool(dev->of_node, "mediatek,mcm")) {
		dev_err(dev, "mediatek,mcm missing\n");
		return -EINVAL;
	}
	sw->rstc = devm_reset_control_get_exclusive(dev, "mcm");
	if (IS_ERR(sw->rstc))
		return dev_err_probe(dev, PTR_ERR(sw->rstc),
				     "resets/reset-names \"mcm\" missing or invalid\n");

	irq = rsw_get_irq(dev);
	if (irq < 0)
		return irq;

	regmap = devm_regmap_init(dev, &rsw_mdio_regmap_bus, sw,
				  &rsw_mdio_regmap_config);
	if (IS_ERR(regmap))
		return dev_err_probe(dev, PTR_ERR(regmap), "regmap\n");

	rsw_init(&sw->priv, dev, info, &rsw_mdio_bus_ops, regmap);
	sw->priv.irq = irq;
	dev_set_drvdata(dev, sw);

	return rsw_register(&sw->priv);
}

static void rsw_mdio_remove(struct mdio_device *mdiodev)
{
	struct rsw_mdio *sw = dev_get_drvdata(&mdiodev->dev);

	if (sw)
		rsw_unregister(&sw->priv);
}

static void rsw_mdio_shutdown(struct mdio_device *mdiodev)
{
	struct rsw_mdio *sw = dev_get_drvdata(&mdiodev->dev);

	if (!sw)
		return;

	rsw_shutdown(&sw->priv);
	dev_set_drvdata(&mdiodev->dev, NULL);
}

static const struct of_device_id rsw_mdio_of_match[] = {
	{ .compatible = "mediatek,mt7621", .data = &rsw_mt7621_info },
	{ /* sentinel */ }
};
MODULE_DEVICE_TABLE(of, rsw_mdio_of_match);

struct mdio_driver rsw_mdio_driver = {
	.probe = rsw_mdio_probe,
	.remove = rsw_mdio_remove,
	.shutdown = rsw_mdio_shutdown,
	.mdiodrv.driver = {
		.name = "ralink-mt7530",
		/*
		 * The user ports' PHYs sit on our own bus: with the owner
		 * set, attaching them does not pin the module (see
		 * phy_attach_direct()), so that it can be removed.
		 */
		.owner = THIS_MODULE,
		.of_match_table = rsw_mdio_of_match,
	},
};
