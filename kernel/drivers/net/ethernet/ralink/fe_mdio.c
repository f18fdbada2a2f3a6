// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek SoC frame engine Ethernet driver: MDIO master
 *
 * Two kinds: the MT7621's PHY_IAC in the block behind the frame engine
 * (clause 22 and 45), and the RT2880's and RT3883's access register in
 * the frame engine itself (clause 22 only; OpenWrt's mdio_rt2880.c
 * programs it alike: the address, then the address with bit 31, which
 * reads 1 until the access is done, the data in bits 15:0).
 */

#include <linux/iopoll.h>
#include <linux/of.h>
#include <linux/of_mdio.h>
#include <linux/phy.h>

#include "fe_core.h"

#define FE_MDIO_TIMEOUT_US	100000

static int fe_mdio_wait(struct fe_eth *eth, u32 *val)
{
	int ret;

	ret = readl_poll_timeout(eth->mac_base + FE_PHY_IAC, *val,
				 !(*val & FE_PHY_IAC_ACCESS), 5,
				 FE_MDIO_TIMEOUT_US);
	if (ret)
		dev_err_ratelimited(eth->dev, "MDIO access timed out\n");
	return ret;
}

static int fe_mdio_cmd(struct fe_eth *eth, u32 start, u32 cmd, int addr,
		       int reg, u16 data)
{
	u32 val;
	int ret;

	ret = fe_mdio_wait(eth, &val);
	if (ret)
		return ret;

	fe_mac_w32(eth, FE_PHY_IAC_ACCESS |
		   FIELD_PREP(FE_PHY_IAC_START, start) |
		   FIELD_PREP(FE_PHY_IAC_CMD, cmd) |
		   FIELD_PREP(FE_PHY_IAC_ADDR, addr) |
		   FIELD_PREP(FE_PHY_IAC_REG, reg) |
		   FIELD_PREP(FE_PHY_IAC_DATA, data), FE_PHY_IAC);

	ret = fe_mdio_wait(eth, &val);
	if (ret)
		return ret;

	return FIELD_GET(FE_PHY_IAC_DATA, val);
}

static int fe_mdio_read_c22(struct mii_bus *bus, int addr, int reg)
{
	return fe_mdio_cmd(bus->priv, FE_PHY_IAC_START_C22,
			   FE_PHY_IAC_CMD_C22_READ, addr, reg, 0);
}

static int fe_mdio_write_c22(struct mii_bus *bus, int addr, int reg, u16 val)
{
	int ret;

	ret = fe_mdio_cmd(bus->priv, FE_PHY_IAC_START_C22,
			  FE_PHY_IAC_CMD_WRITE, addr, reg, val);
	return ret < 0 ? ret : 0;
}

static int fe_mdio_read_c45(struct mii_bus *bus, int addr, int devad, int reg)
{
	int ret;

	ret = fe_mdio_cmd(bus->priv, FE_PHY_IAC_START_C45,
			  FE_PHY_IAC_CMD_C45_ADDR, addr, devad, reg);
	if (ret < 0)
		return ret;

	return fe_mdio_cmd(bus->priv, FE_PHY_IAC_START_C45,
			   FE_PHY_IAC_CMD_C45_READ, addr, devad, 0);
}

static int fe_mdio_write_c45(struct mii_bus *bus, int addr, int devad,
			     int reg, u16 val)
{
	int ret;

	ret = fe_mdio_cmd(bus->priv, FE_PHY_IAC_START_C45,
			  FE_PHY_IAC_CMD_C45_ADDR, addr, devad, reg);
	if (ret < 0)
		return ret;

	ret = fe_mdio_cmd(bus->priv, FE_PHY_IAC_START_C45,
			  FE_PHY_IAC_CMD_WRITE, addr, devad, val);
	return ret < 0 ? ret : 0;
}

static int fe_mdio_rt2880_wait(struct fe_eth *eth, u32 *val)
{
	int ret;

	ret = readl_poll_timeout(eth->base + eth->soc->regs->mdio_access,
				 *val, !(*val & FE_MDIO_GO), 5,
				 FE_MDIO_TIMEOUT_US);
	if (ret)
		dev_err_ratelimited(eth->dev, "MDIO access timed out\n");
	return ret;
}

static int fe_mdio_rt2880_cmd(struct fe_eth *eth, u32 cmd)
{
	u32 reg = eth->soc->regs->mdio_access, val;
	int ret;

	ret = fe_mdio_rt2880_wait(eth, &val);
	if (ret)
		return ret;

	fe_w32(eth, cmd, reg);
	fe_w32(eth, cmd | FE_MDIO_GO, reg);

	ret = fe_mdio_rt2880_wait(eth, &val);
	if (ret)
		return ret;

	return FIELD_GET(FE_MDIO_DATA, val);
}

static int fe_mdio_rt2880_read(struct mii_bus *bus, int addr, int reg)
{
	return fe_mdio_rt2880_cmd(bus->priv, FIELD_PREP(FE_MDIO_PHY, addr) |
				  FIELD_PREP(FE_MDIO_REG, reg));
}

static int fe_mdio_rt2880_write(struct mii_bus *bus, int addr, int reg,
				u16 val)
{
	int ret;

	ret = fe_mdio_rt2880_cmd(bus->priv, FE_MDIO_WRITE |
				 FIELD_PREP(FE_MDIO_PHY, addr) |
				 FIELD_PREP(FE_MDIO_REG, reg) |
				 FIELD_PREP(FE_MDIO_DATA, val));
	return ret < 0 ? ret : 0;
}

/**
 * fe_mdio_init - register the MDIO bus described by the "mdio-bus" child
 * @eth: the frame engine
 *
 * The bus carries the switch (MT7621: at address 0x1f) and its PHYs, or
 * the GMAC's external PHY (RT2880, RT3883); they probe from the DT through
 * of_mdiobus_register(). The RT2880's master keeps the MDC it has (its
 * divider is not set from "clock-frequency").
 *
 * Return: 0, or a negative error code.
 */
int fe_mdio_init(struct fe_eth *eth)
{
	struct device_node *np;
	u32 freq = 2500000;
	int ret;

	np = of_get_child_by_name(eth->dev->of_node, "mdio-bus");
	if (!np)
		return 0;	/* no MDIO devices: nothing to register */

	if (!of_device_is_available(np)) {
		ret = 0;
		goto out;
	}
	if (!eth->mac_base && !eth->soc->regs->mdio_cfg) {
		dev_err(eth->dev, "mdio-bus: %s has no MDIO master\n",
			eth->soc->name);
		ret = -EINVAL;
		goto out;
	}

	if (!of_property_read_u32(np, "clock-frequency", &freq) &&
	    (freq > FE_MDC_MAX_FREQ ||
	     freq < FE_MDC_MAX_FREQ / FE_MDC_MAX_DIVIDER)) {
		dev_err(eth->dev, "mdio-bus: clock-frequency %u out of range\n",
			freq);
		ret = -EINVAL;
		goto out;
	}
	eth->mdc_divider = min_t(unsigned int,
				 DIV_ROUND_UP(FE_MDC_MAX_FREQ, freq),
				 FE_MDC_MAX_DIVIDER);

	eth->mii_bus = devm_mdiobus_alloc(eth->dev);
	if (!eth->mii_bus) {
		ret = -ENOMEM;
		goto out;
	}
	eth->mii_bus->name = "ralink_fe mdio";
	if (eth->soc->regs->mdio_cfg) {
		eth->mii_bus->read = fe_mdio_rt2880_read;
		eth->mii_bus->write = fe_mdio_rt2880_write;
	} else {
		eth->mii_bus->read = fe_mdio_read_c22;
		eth->mii_bus->write = fe_mdio_write_c22;
		eth->mii_bus->read_c45 = fe_mdio_read_c45;
		eth->mii_bus->write_c45 = fe_mdio_write_c45;
	}
	eth->mii_bus->priv = eth;
	eth->mii_bus->parent = eth->dev;
	snprintf(eth->mii_bus->id, MII_BUS_ID_SIZE, "%s-mii",
		 dev_name(eth->dev));

	if (eth->mac_base)
		fe_mac_w32(eth, (fe_mac_r32(eth, FE_PPSC) & ~FE_PPSC_MDC_CFG) |
			   FIELD_PREP(FE_PPSC_MDC_CFG, eth->mdc_divider) |
			   FE_PPSC_MDC_TURBO, FE_PPSC);

	ret = of_mdiobus_register(eth->mii_bus, np);
	if (ret) {
		dev_err(eth->dev, "mdio-bus: registration failed: %d\n", ret);
		eth->mii_bus = NULL;
	}
out:
	of_node_put(np);
	return ret;
}

/**
 * fe_mdio_cleanup - unregister the MDIO bus
 * @eth: the frame engine
 */
void fe_mdio_cleanup(struct fe_eth *eth)
{
	if (eth->mii_bus)
		mdiobus_unregister(eth->mii_bus);
}
