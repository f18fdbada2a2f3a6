// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek switch cores through DSA: the MMIO front end
 *
 * The MT7620's gigabit switch (GSW) has its 32-bit registers on the SoC's
 * bus, its reset line in the system controller, and its internal PHYs
 * behind PIAC: a command with the PHY's address, the register and the
 * data, started by ACS_ST, which the switch clears when it is done.
 */

#include <linux/bitfield.h>
#include <linux/io.h>
#include <linux/iopoll.h>
#include <linux/mod_devicetable.h>
#include <linux/of.h>
#include <linux/phy.h>
#include <linux/platform_device.h>
#include <linux/regmap.h>
#include <linux/reset.h>

#include "mt7530.h"

/* How long the reset line is held; a PHY access takes microseconds */
#define RSW_MMIO_RESET_US		1000
#define RSW_PIAC_POLL_US		5
#define RSW_PIAC_TIMEOUT_US		10000

/**
 * struct rsw_mmio - a switch core on the SoC's bus
 * @priv: the core's driver state
 * @base: its registers
 * @rstc: its reset line
 * @piac_lock: serialises PHY accesses (PIAC is not in the regmap)
 */
struct rsw_mmio {
	struct rsw_priv priv;
	void __iomem *base;
	struct reset_control *rstc;
	struct mutex piac_lock;	/* see kernel-doc */
};

static struct rsw_mmio *to_rsw_mmio(struct rsw_priv *priv)
{
	return container_of(priv, struct rsw_mmio, priv);
}

static const struct regmap_config rsw_mmio_regmap_config = {
	.reg_bits = 32,
	.val_bits = 32,
	.reg_stride = 4,
	.max_register = MT7620_MAX_REG,
	/* What rsw_restore() programs again after a reset behind the driver */
	.volatile_reg = rsw_mt7620_volatile_reg,
	.cache_type = REGCACHE_MAPLE,
};

static void rsw_mmio_hw_reset(struct rsw_priv *priv)
{
	struct rsw_mmio *sw = to_rsw_mmio(priv);

	reset_control_assert(sw->rstc);
	fsleep(RSW_MMIO_RESET_US);
	reset_control_deassert(sw->rstc);
}

static int rsw_piac_cmd(struct rsw_mmio *sw, u32 cmd, int phy, int regnum,
			u16 data)
{
	u32 val;
	int ret;

	lockdep_assert_held(&sw->piac_lock);

	writel(PIAC_ACS_ST | FIELD_PREP(PIAC_REG, regnum) |
	       FIELD_PREP(PIAC_PHY, phy) | FIELD_PREP(PIAC_CMD, cmd) |
	       FIELD_PREP(PIAC_ST, PIAC_ST_CLAUSE22) |
	       FIELD_PREP(PIAC_DATA, data), sw->base + MT7620_PIAC);
	ret = readl_poll_timeout(sw->base + MT7620_PIAC, val,
				 !(val & PIAC_ACS_ST), RSW_PIAC_POLL_US,
				 RSW_PIAC_TIMEOUT_US);
	if (ret) {
		dev_err(sw->priv.dev, "PHY %d register %d: PIAC timeout\n",
			phy, regnum);
		return ret;
	}

	return FIELD_GET(PIAC_DATA, val);
}

static int rsw_mmio_phy_read(struct rsw_priv *priv, int port, int regnum)
{
	struct rsw_mmio *sw = to_rsw_mmio(priv);
	int ret;

	mutex_lock(&sw->piac_lock);
	ret = rsw_piac_cmd(sw, PIAC_CMD_READ, port, regnum, 0);
	mutex_unlock(&sw->piac_lock);

	return ret;
}

static int rsw_mmio_phy_write(struct rsw_priv *priv, int port, int regnum,
			      u16 val)
{
	struct rsw_mmio *sw = to_rsw_mmio(priv);
	int ret;

	mutex_lock(&sw->piac_lock);
	ret = rsw_piac_cmd(sw, PIAC_CMD_WRITE, port, regnum, val);
	mutex_unlock(&sw->piac_lock);

	return ret < 0 ? ret : 0;
}

static const struct rsw_bus_ops rsw_mmio_bus_ops = {
	.hw_reset = rsw_mmio_hw_reset,
	.phy_read = rsw_mmio_phy_read,
	.phy_write = rsw_mmio_phy_write,
};

static int rsw_mmio_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	const struct rsw_info *info;
	struct regmap *regmap;
	struct rsw_mmio *sw;
	int irq, ret;

	info = of_device_get_match_data(dev);
	if (!info)
		return -EINVAL;

	if (!rsw_has_ports(dev))
		return -EINVAL;

	sw = devm_kzalloc(dev, sizeof(*sw), GFP_KERNEL);
	if (!sw)
		return -ENOMEM;
	ret = devm_mutex_init(dev, &sw->piac_lock);
	if (ret)
		return ret;

	sw->base = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(sw->base))
		return PTR_ERR(sw->base);

	sw->rstc = devm_reset_control_get_exclusive(dev, "esw");
	if (IS_ERR(sw->rstc))
		return dev_err_probe(dev, PTR_ERR(sw->rstc),
				     "resets/reset-names \"esw\" missing or invalid\n");

	irq = rsw_get_irq(dev);
	if (irq < 0)
		return irq;

	regmap = devm_regmap_init_mmio(dev, sw->base, &rsw_mmio_regmap_config);
	if (IS_ERR(regmap))
		return dev_err_probe(dev, PTR_ERR(regmap), "regmap\n");

	rsw_init(&sw->priv, dev, info, &rsw_mmio_bus_ops, regmap);
	sw->priv.irq = irq;
	platform_set_drvdata(pdev, sw);

	return rsw_register(&sw->priv);
}

static void rsw_mmio_remove(struct platform_device *pdev)
{
	struct rsw_mmio *sw = platform_get_drvdata(pdev);

	if (sw)
		rsw_unregister(&sw->priv);
}

static void rsw_mmio_shutdown(struct platform_device *pdev)
{
	struct rsw_mmio *sw = platform_get_drvdata(pdev);

	if (!sw)
		return;

	rsw_shutdown(&sw->priv);
	platform_set_drvdata(pdev, NULL);
}

static const struct of_device_id rsw_mmio_of_match[] = {
	{ .compatible = "mediatek,mt7620-gsw", .data = &rsw_mt7620_info },
	{ /* sentinel */ }
};
MODULE_DEVICE_TABLE(of, rsw_mmio_of_match);

struct platform_driver rsw_mmio_driver = {
	.probe = rsw_mmio_probe,
	.remove = rsw_mmio_remove,
	.shutdown = rsw_mmio_shutdown,
	.driver = {
		.name = "ralink-mt7530-mmio",
		.of_match_table = rsw_mmio_of_match,
	},
};
