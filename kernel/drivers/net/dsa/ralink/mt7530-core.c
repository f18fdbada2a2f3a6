// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek switch cores through DSA: the bus-neutral part
 *
 * The core's registers are reached through a regmap the bus front end
 * provides. Registers only the driver changes are cached by the regmap
 * (see rsw_volatile_reg()), so read-modify-write updates cost one bus
 * write, or none when nothing changes.
 *
 * The chips' differences are data (struct rsw_info, in a file per chip):
 * how the core is reset, its MIB counters, how a frame's port reaches the
 * CPU, the VLAN table's indexing.
 *
 * Forwarding model:
 * - standalone user ports are in port matrix mode, FID 0, and reach only
 *   their CPU port;
 * - ports of a VLAN-unaware bridge are in fallback mode with PVID 0: VLAN
 *   0 (FID 1, independent learning, egress as received) holds them all;
 * - ports of a VLAN-aware bridge are in security mode: the VLAN table
 *   decides membership and egress tagging, the CPU port always receives
 *   the VLAN tag (after the special tag, where there is one).
 */

#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/if_bridge.h>
#include <linux/if_vlan.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_irq.h>
#include <linux/of_mdio.h>
#include <linux/platform_device.h>
#include <linux/phy.h>
#include <linux/regmap.h>
#include <linux/unaligned.h>
#include <net/pkt_cls.h>

#include "mt7530.h"

/* get_stats64 may be called in atomic context and the switch is behind
 * MDIO: it reports what a work reads (as ocelot does). The work looks for
 * a reset of the switch core behind the driver each time it runs, and
 * reads the counters of the user ports that are up: every
 * RSW_STATS_PERIOD while get_stats64 was called in the last
 * RSW_STATS_ACTIVE; otherwise it runs every RSW_STATS_WATCH_PERIOD and
 * reads them every RSW_STATS_IDLE_PERIOD, which catches the 32-bit
 * counters' wrap (about 48 min of 64-byte frames at 1 Gbit/s) without
 * dozens of MDIO reads a second for nobody. A reader finding the numbers
 * older than RSW_STATS_MAX_AGE has the work run now. A chip whose
 * counters are narrower (rsw_info.stats_period) has them read at that
 * period whatever the readers do.
 */
#define RSW_STATS_PERIOD		HZ
#define RSW_STATS_WATCH_PERIOD		(5 * HZ)
#define RSW_STATS_ACTIVE		(3 * HZ)
#define RSW_STATS_IDLE_PERIOD		(60 * HZ)
#define RSW_STATS_MAX_AGE		(2 * HZ)

/**
 * rsw_volatile_reg() - whether a register may change behind the driver
 * @dev: the switch's device
 * @reg: the register
 *
 * Everything but the configuration the driver alone writes: table
 * command and data registers, status, counters, straps.
 *
 * Return: false for the registers the regmap may cache.
 */
bool rsw_volatile_reg(struct device *dev, unsigned int reg)
{
	if (reg >= MT7530_SSP_P(0) && reg <= MT7530_PPBV1_P(RSW_MAX_PORTS)) {
		switch (reg & 0xff) {
		case MT7530_SSP_P(0) & 0xff:
		case MT7530_PCR_P(0) & 0xff:
		case MT7530_PSC_P(0) & 0xff:
		case MT7530_PVC_P(0) & 0xff:
		case MT7530_PPBV1_P(0) & 0xff:
			return false;
		}
		return true;
	}
	if (reg >= MT7530_PMCR_P(0) && reg <= MT7530_PMCR_P(RSW_MAX_PORTS) &&
	    (reg & 0xff) == (MT7530_PMCR_P(0) & 0xff))
		return false;
	if (reg >= MT7530_ERLCR_P(0) && reg <= MT7530_ERLCR_P(RSW_MAX_PORTS) &&
	    (reg & 0xff) == (MT7530_ERLCR_P(0) & 0xff))
		return false;

	switch (reg) {
	case MT7530_AGC:
	case MT7530_MFC:
	case MT7530_BPC:
	case MT7530_RGAC1:
	case MT7530_RGAC2:
	case MT7530_AAC:
	case MT7530_GMACCR:
	case MT7530_SYS_INT_EN:
	case MT7530_MTRAP:
	case MT7530_TOP_SIG_CTRL:
	case MT7530_P6ECR:
	case MT7530_GERLCR:
		return false;
	}
	return true;
}

int rsw_rmw(struct rsw_priv *priv, u32 reg, u32 mask, u32 set)
{
	return regmap_update_bits(priv->regmap, reg, mask, set);
}

/* Write a cached register only if its value changes */
int rsw_update(struct rsw_priv *priv, u32 reg, u32 val)
{
	return regmap_update_bits(priv->regmap, reg, GENMASK(31, 0), val);
}

/* -- what the registers do not keep ---------------------------------------- */

/**
 * struct rsw_vlan_entry - a VLAN table entry as the driver wrote it
 * @vawd1: its VAWD1 word (members, FID, VALID)
 * @vawd2: its VAWD2 word (egress tags)
 */
struct rsw_vlan_entry {
	u32 vawd1;
	u32 vawd2;
};

/**
 * struct rsw_static_entry - a static address table entry the driver wrote
 * @node: in rsw_priv.statics
 * @addr: its address
 * @vid: its VLAN
 * @port_map: the ports it forwards to
 * @rcu: frees it after readers are done
 */
struct rsw_static_entry {
	struct hlist_node node;
	struct rcu_head rcu;
	u8 addr[ETH_ALEN];
	u16 vid;
	u8 port_map;
};

static u32 rsw_static_key(const unsigned char *addr, u16 vid)
{
	u64 mac = ether_addr_to_u64(addr);

	return (u32)mac ^ ((u32)(mac >> 32) << 12) ^ vid;
}

static struct rsw_static_entry *rsw_static_find(struct rsw_priv *priv,
						const unsigned char *addr,
						u16 vid)
{
	struct rsw_static_entry *e;

	hash_for_each_possible(priv->statics, e, node,
			       rsw_static_key(addr, vid))
		if (e->vid == vid && ether_addr_equal(e->addr, addr))
			return e;

	return NULL;
}

/* Drop the record of what the tables hold (they were emptied) */
static void rsw_forget_tables(struct rsw_priv *priv)
{
	struct rsw_static_entry *se;
	struct rsw_vlan_entry *ve;
	struct hlist_node *tmp;
	unsigned long vid;
	int bkt;

	xa_for_each(&priv->vlans, vid, ve) {
		xa_erase(&priv->vlans, vid);
		kfree(ve);
	}
	hash_for_each_safe(priv->statics, bkt, tmp, se, node) {
		hash_del_rcu(&se->node);
		kfree_rcu(se, rcu);
	}
	priv->vlan_slots_used = 0;
	memset(priv->acl, 0, sizeof(priv->acl));
	memset(priv->acl_pat, 0, sizeof(priv->acl_pat));
	priv->acl_used = 0;
	priv->acl_pat_used = 0;
}

/* -- address table ------------------------------------------------------- */

static int rsw_atc_cmd(struct rsw_priv *priv, u32 cmd, u32 *atc)
{
	u32 val;
	int ret;

	ret = regmap_write(priv->regmap, MT7530_ATC, ATC_BUSY |
			   FIELD_PREP(ATC_MAT, 0) | FIELD_PREP(ATC_CMD, cmd));
	if (ret)
		return ret;

	ret = regmap_read_poll_timeout(priv->regmap, MT7530_ATC, val,
				       !(val & ATC_BUSY), RSW_TABLE_POLL_US,
				       RSW_TABLE_TIMEOUT_US);
	if (ret) {
		dev_err(priv->dev, "address table command %u: %d\n", cmd, ret);
		return ret;
	}
	if (atc)
		*atc = val;

	return 0;
}

/* Load ATA1/ATA2/ATWD with an entry of VLAN @vid (independent learning) */
static int rsw_fdb_load(struct rsw_priv *priv, const unsigned char *addr,
			u16 vid, u8 port_map, u32 status)
{
	int ret;

	ret = regmap_write(priv->regmap, MT7530_ATA1, get_unaligned_be32(addr));
	if (ret)
		return ret;
	ret = regmap_write(priv->regmap, MT7530_ATA2,
			   FIELD_PREP(ATA2_MAC45, get_unaligned_be16(addr + 4)) |
			   ATA2_IVL | FIELD_PREP(ATA2_FID, RSW_FID_BRIDGED) |
			   FIELD_PREP(ATA2_CVID, vid));
	if (ret)
		return ret;

	return regmap_write(priv->regmap, MT7530_ATWD,
			    FIELD_PREP(ATWD_AGE, FIELD_MAX(ATWD_AGE)) |
			    FIELD_PREP(ATWD_PORT_MAP, port_map) |
			    FIELD_PREP(ATWD_STATUS, status));
}

static int rsw_fdb_program(struct rsw_priv *priv, const unsigned char *addr,
			   u16 vid, u8 port_map)
{
	int ret;

	ret = rsw_fdb_load(priv, addr, vid, port_map, port_map ?
			   ATWD_STATUS_STATIC : ATWD_STATUS_EMPTY);
	if (ret)
		return ret;

	return rsw_atc_cmd(priv, ATC_CMD_WRITE, NULL);
}

/* A static entry to @port_map, or none if 0; recorded for rsw_restore() */
static int rsw_fdb_write(struct rsw_priv *priv, const unsigned char *addr,
			 u16 vid, u8 port_map)
{
	struct rsw_static_entry *e = rsw_static_find(priv, addr, vid);
	bool new = false;
	int ret;

	if (port_map && !e) {
		e = kzalloc(sizeof(*e), GFP_KERNEL);
		if (!e)
			return -ENOMEM;
		ether_addr_copy(e->addr, addr);
		e->vid = vid;
		new = true;
	}

	ret = rsw_fdb_program(priv, addr, vid, port_map);
	if (ret) {
		if (new)
			kfree(e);
		return ret;
	}

	if (port_map) {
		e->port_map = port_map;
		if (new)
			hash_add_rcu(priv->statics, &e->node,
				     rsw_static_key(addr, vid));
	} else if (e) {
		hash_del_rcu(&e->node);
		kfree_rcu(e, rcu);
	}

	return 0;
}

/* The port map of a static entry, 0 if there is none */
static int rsw_fdb_port_map(struct rsw_priv *priv, const unsigned char *addr,
			    u16 vid, u8 *port_map)
{
	u32 atc, atrd;
	int ret;

	*port_map = 0;
	ret = rsw_fdb_load(priv, addr, vid, 0, ATWD_STATUS_EMPTY);
	if (ret)
		return ret;
	ret = rsw_atc_cmd(priv, ATC_CMD_READ, &atc);
	if (ret || (atc & ATC_INVALID))
		return ret;
	ret = regmap_read(priv->regmap, MT7530_ATRD, &atrd);
	if (ret)
		return ret;
	if (FIELD_GET(ATWD_STATUS, atrd) == ATWD_STATUS_STATIC)
		*port_map = FIELD_GET(ATWD_PORT_MAP, atrd);

	return 0;
}

static int rsw_port_fdb_add(struct dsa_switch *ds, int port,
			    const unsigned char *addr, u16 vid,
			    struct dsa_db db)
{
	struct rsw_priv *priv = ds->priv;
	int ret;

	mutex_lock(&priv->reg_mutex);
	ret = rsw_fdb_write(priv, addr, vid, BIT(port));
	mutex_unlock(&priv->reg_mutex);

	return ret;
}

static int rsw_port_fdb_del(struct dsa_switch *ds, int port,
			    const unsigned char *addr, u16 vid,
			    struct dsa_db db)
{
	struct rsw_priv *priv = ds->priv;
	int ret;

	mutex_lock(&priv->reg_mutex);
	ret = rsw_fdb_write(priv, addr, vid, 0);
	mutex_unlock(&priv->reg_mutex);

	return ret;
}

static int rsw_port_fdb_dump(struct dsa_switch *ds, int port,
			     dsa_fdb_dump_cb_t *cb, void *data)
{
	struct rsw_priv *priv = ds->priv;
	u32 atc, tsra1, tsra2, atrd;
	unsigned char addr[ETH_ALEN];
	int n, ret;

	mutex_lock(&priv->reg_mutex);

	ret = rsw_atc_cmd(priv, ATC_CMD_START, &atc);
	for (n = 0; !ret && n < MT7530_NUM_FDB_RECORDS; n++) {
		if (atc & ATC_SRCH_END || !(atc & ATC_SRCH_HIT))
			break;

		ret = regmap_read(priv->regmap, MT7530_ATRD, &atrd);
		if (ret)
			break;
		if (FIELD_GET(ATWD_PORT_MAP, atrd) & BIT(port)) {
			ret = regmap_read(priv->regmap, MT7530_TSRA1, &tsra1);
			if (!ret)
				ret = regmap_read(priv->regmap, MT7530_TSRA2,
						  &tsra2);
			if (ret)
				break;
			put_unaligned_be32(tsra1, addr);
			put_unaligned_be16(FIELD_GET(ATA2_MAC45, tsra2),
					   addr + 4);
			ret = cb(addr, FIELD_GET(ATA2_CVID, tsra2),
				 FIELD_GET(ATWD_STATUS, atrd) ==
				 ATWD_STATUS_STATIC, data);
			if (ret)
				break;
		}
		ret = rsw_atc_cmd(priv, ATC_CMD_NEXT, &atc);
	}

	mutex_unlock(&priv->reg_mutex);

	return ret;
}

/* Add @port to, or remove it from, the static entry of @mdb's group */
static int rsw_mdb_update(struct dsa_switch *ds, int port,
			  const struct switchdev_obj_port_mdb *mdb, bool add)
{
	struct rsw_priv *priv = ds->priv;
	u8 port_map;
	int ret;

	mutex_lock(&priv->reg_mutex);
	ret = rsw_fdb_port_map(priv, mdb->addr, mdb->vid, &port_map);
	if (!ret) {
		if (add)
			port_map |= BIT(port);
		else
			port_map &= ~BIT(port);
		ret = rsw_fdb_write(priv, mdb->addr, mdb->vid, port_map);
	}
	mutex_unlock(&priv->reg_mutex);

	return ret;
}

static int rsw_port_mdb_add(struct dsa_switch *ds, int port,
			    const struct switchdev_obj_port_mdb *mdb,
			    struct dsa_db db)
{
	return rsw_mdb_update(ds, port, mdb, true);
}

static int rsw_port_mdb_del(struct dsa_switch *ds, int port,
			    const struct switchdev_obj_port_mdb *mdb,
			    struct dsa_db db)
{
	return rsw_mdb_update(ds, port, mdb, false);
}

/*
 * The clean command has one match mode documented, the whole MAC table:
 * it drops every port's dynamic entries, a superset of the one port's.
 */
static void rsw_port_fast_age(struct dsa_switch *ds, int port)
{
	struct rsw_priv *priv = ds->priv;

	mutex_lock(&priv->reg_mutex);
	rsw_atc_cmd(priv, ATC_CMD_CLEAN, NULL);
	mutex_unlock(&priv->reg_mutex);
}

static int rsw_set_ageing_time(struct dsa_switch *ds, unsigned int msecs)
{
	unsigned int secs = msecs / MSEC_PER_SEC, best = UINT_MAX;
	unsigned int cnt, unit, best_cnt = 1, best_unit = 1;
	struct rsw_priv *priv = ds->priv;

	/*
	 * (AGE_CNT + 1) * (AGE_UNIT + 1) seconds; an entry's age counter
	 * starts at AGE_CNT and 0 means "never ages", so AGE_CNT >= 1. The
	 * DSA core keeps @msecs within ds->ageing_time_{min,max}.
	 */
	for (cnt = 2; cnt <= FIELD_MAX(AAC_AGE_CNT) + 1; cnt++) {
		unit = secs / cnt;
		if (!unit)
			break;
		if (unit > FIELD_MAX(AAC_AGE_UNIT) + 1)
			continue;
		if (secs - cnt * unit < best) {
			best = secs - cnt * unit;
			best_cnt = cnt;
			best_unit = unit;
			if (!best)
				break;
		}
	}

	return regmap_write(priv->regmap, MT7530_AAC,
			    FIELD_PREP(AAC_AGE_CNT, best_cnt - 1) |
			    FIELD_PREP(AAC_AGE_UNIT, best_unit - 1));
}

/* -- VLAN table ---------------------------------------------------------- */

/*
 * The VLAN table index of @vid: the VID itself, or on chips whose table
 * has slots naming their VID (the GSW's VTIM), the slot holding it, or
 * with @alloc a free slot, set to @vid. -ENOENT: no slot holds @vid;
 * -ENOSPC: none is free.
 */
static int rsw_vlan_index(struct rsw_priv *priv, u16 vid, bool alloc)
{
	unsigned int slot, n = priv->info->vlan_slots;
	int ret;

	lockdep_assert_held(&priv->reg_mutex);

	if (!n)
		return vid;

	for_each_set_bit(slot, &priv->vlan_slots_used, n)
		if (priv->vlan_slot_vid[slot] == vid)
			return slot;
	if (!alloc)
		return -ENOENT;

	slot = find_first_zero_bit(&priv->vlan_slots_used, n);
	if (slot >= n)
		return -ENOSPC;
	ret = rsw_rmw(priv, MT7620_VTIM(slot), VTIM_VID(slot),
		      vid << (slot % 2 * 12));
	if (ret)
		return ret;
	priv->vlan_slot_vid[slot] = vid;
	__set_bit(slot, &priv->vlan_slots_used);

	return slot;
}

static int rsw_vtcr_cmd(struct rsw_priv *priv, u32 func, u16 idx, u32 *vtcr)
{
	u32 val;
	int ret;

	ret = regmap_write(priv->regmap, MT7530_VTCR, VTCR_BUSY |
			   FIELD_PREP(VTCR_FUNC, func) |
			   FIELD_PREP(VTCR_VID, idx));
	if (ret)
		return ret;

	ret = regmap_read_poll_timeout(priv->regmap, MT7530_VTCR, val,
				       !(val & VTCR_BUSY), RSW_TABLE_POLL_US,
				       RSW_TABLE_TIMEOUT_US);
	if (ret)
		dev_err(priv->dev, "VLAN table command %u: %d\n", func, ret);
	else if (vtcr)
		*vtcr = val;

	return ret;
}

static int rsw_vlan_program(struct rsw_priv *priv, u16 vid, u32 vawd1,
			    u32 vawd2)
{
	bool valid = vawd1 & VAWD1_VALID;
	int idx, ret;

	idx = rsw_vlan_index(priv, vid, valid);
	if (idx == -ENOENT)
		return 0;	/* no slot holds it: nothing to invalidate */
	if (idx < 0)
		return idx;

	ret = regmap_write(priv->regmap, MT7530_VAWD1, vawd1);
	if (!ret)
		ret = regmap_write(priv->regmap, MT7530_VAWD2, vawd2);
	if (!ret)
		ret = rsw_vtcr_cmd(priv, VTCR_FUNC_WR_VID, idx, NULL);
	if (!ret && !valid && priv->info->vlan_slots)
		__clear_bit(idx, &priv->vlan_slots_used);

	return ret;
}

/* Entry @vid, invalid unless VAWD1_VALID; recorded for rsw_restore() */
static int rsw_vlan_write(struct rsw_priv *priv, u16 vid, u32 vawd1,
			  u32 vawd2)
{
	struct rsw_vlan_entry *e = xa_load(&priv->vlans, vid);
	bool new = false;
	int ret;

	if ((vawd1 & VAWD1_VALID) && !e) {
		e = kzalloc(sizeof(*e), GFP_KERNEL);
		if (!e)
			return -ENOMEM;
		ret = xa_err(xa_store(&priv->vlans, vid, e, GFP_KERNEL));
		if (ret) {
			kfree(e);
			return ret;
		}
		new = true;
	}

	ret = rsw_vlan_program(priv, vid, vawd1, vawd2);
	if (ret) {
		if (new) {
			xa_erase(&priv->vlans, vid);
			kfree(e);
		}
		return ret;
	}

	if (vawd1 & VAWD1_VALID) {
		e->vawd1 = vawd1;
		e->vawd2 = vawd2;
	} else if (e) {
		xa_erase(&priv->vlans, vid);
		kfree(e);
	}

	return 0;
}

/* Members and egress tags of @vid, both 0 if the entry is not valid */
static int rsw_vlan_read(struct rsw_priv *priv, u16 vid, u8 *members,
			 u32 *vawd2)
{
	u32 vtcr, vawd1;
	int idx, ret;

	*members = 0;
	*vawd2 = 0;
	idx = rsw_vlan_index(priv, vid, false);
	if (idx == -ENOENT)
		return 0;
	ret = rsw_vtcr_cmd(priv, VTCR_FUNC_RD_VID, idx, &vtcr);
	if (ret || (vtcr & VTCR_INVALID))
		return ret;
	ret = regmap_read(priv->regmap, MT7530_VAWD1, &vawd1);
	if (ret || !(vawd1 & VAWD1_VALID))
		return ret;
	*members = FIELD_GET(VAWD1_PORT_MEM, vawd1);

	return regmap_read(priv->regmap, MT7530_VAWD2, vawd2);
}

/* The port's VLAN mode, attributes and PVID for its bridge's filtering */
static int rsw_port_vlan_apply(struct rsw_priv *priv, int port,
			       bool filtering)
{
	struct dsa_port *dp = dsa_to_port(&priv->ds, port);
	u32 mode, attr, eg_tag, acc_frm;
	u16 pvid = 0;
	int ret;

	if (filtering) {
		/* The VLAN table decides membership and egress tags */
		pvid = priv->ports[port].pvid;
		mode = PORT_VLAN_SECURITY;
		attr = VLAN_ATTR_USER;
		eg_tag = PVC_EG_TAG_DISABLED;
		acc_frm = pvid ? ACC_FRM_ALL : ACC_FRM_TAGGED;
	} else {
		/* Tags are payload: VLAN 0 (bridged) or the matrix decides */
		mode = dsa_port_bridge_dev_get(dp) ? PORT_VLAN_FALLBACK :
						     PORT_VLAN_MATRIX;
		attr = VLAN_ATTR_TRANSPARENT;
		eg_tag = PVC_EG_TAG_CONSISTENT;
		acc_frm = ACC_FRM_ALL;
	}

	ret = rsw_rmw(priv, MT7530_PCR_P(port), PCR_PORT_VLAN,
		      FIELD_PREP(PCR_PORT_VLAN, mode));
	if (!ret)
		ret = rsw_rmw(priv, MT7530_PVC_P(port),
			      PVC_VLAN_ATTR | PVC_EG_TAG | PVC_ACC_FRM,
			      FIELD_PREP(PVC_VLAN_ATTR, attr) |
			      FIELD_PREP(PVC_EG_TAG, eg_tag) |
			      FIELD_PREP(PVC_ACC_FRM, acc_frm));
	if (!ret)
		ret = rsw_update(priv, MT7530_PPBV1_P(port),
				 FIELD_PREP(PPBV1_G0_PORT_VID, pvid));

	return ret;
}

static int rsw_port_vlan_filtering(struct dsa_switch *ds, int port,
				   bool vlan_filtering,
				   struct netlink_ext_ack *extack)
{
	struct rsw_priv *priv = ds->priv;
	int ret;

	mutex_lock(&priv->reg_mutex);
	ret = rsw_port_vlan_apply(priv, port, vlan_filtering);
	mutex_unlock(&priv->reg_mutex);

	return ret;
}

static int rsw_port_vlan_add(struct dsa_switch *ds, int port,
			     const struct switchdev_obj_port_vlan *vlan,
			     struct netlink_ext_ack *extack)
{
	bool untagged = vlan->flags & BRIDGE_VLAN_INFO_UNTAGGED;
	struct dsa_port *dp = dsa_to_port(ds, port);
	struct rsw_priv *priv = ds->priv;
	u32 vawd2, etag;
	u16 pvid;
	u8 members;
	int ret;

	/* VLAN 0 is the VLAN-unaware bridges' (rsw_setup()) */
	if (!vlan->vid)
		return 0;

	mutex_lock(&priv->reg_mutex);

	ret = rsw_vlan_read(priv, vlan->vid, &members, &vawd2);
	if (ret)
		goto out;

	/* The CPU port gets every VLAN tagged, after any special tag */
	if (dsa_port_is_cpu(dp))
		etag = ETAG_STACK;
	else
		etag = untagged ? ETAG_UNTAG : ETAG_TAG;
	vawd2 &= ~VAWD2_ETAG(port);
	vawd2 |= etag << (port * 2);
	ret = rsw_vlan_write(priv, vlan->vid, VAWD1_IVL_MAC | VAWD1_VTAG_EN |
			     FIELD_PREP(VAWD1_PORT_MEM, members | BIT(port)) |
			     FIELD_PREP(VAWD1_FID, RSW_FID_BRIDGED) |
			     VAWD1_VALID, vawd2);
	if (ret == -ENOSPC)
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "The VLAN table's %u entries are in use",
				       priv->info->vlan_slots);
	if (ret || !dsa_port_is_user(dp))
		goto out;

	pvid = priv->ports[port].pvid;
	if (vlan->flags & BRIDGE_VLAN_INFO_PVID)
		pvid = vlan->vid;
	else if (pvid == vlan->vid)
		pvid = 0;
	if (pvid != priv->ports[port].pvid) {
		WRITE_ONCE(priv->ports[port].pvid, pvid);
		if (dsa_port_is_vlan_filtering(dp))
			ret = rsw_port_vlan_apply(priv, port, true);
	}
out:
	mutex_unlock(&priv->reg_mutex);

	return ret;
}

static int rsw_port_vlan_del(struct dsa_switch *ds, int port,
			     const struct switchdev_obj_port_vlan *vlan)
{
	struct dsa_port *dp = dsa_to_port(ds, port);
	struct rsw_priv *priv = ds->priv;
	u32 vawd2;
	u8 members;
	int ret;

	if (!vlan->vid)
		return 0;

	mutex_lock(&priv->reg_mutex);

	ret = rsw_vlan_read(priv, vlan->vid, &members, &vawd2);
	if (ret || !(members & BIT(port)))
		goto out;

	members &= ~BIT(port);
	vawd2 &= ~VAWD2_ETAG(port);
	if (members)
		ret = rsw_vlan_write(priv, vlan->vid,
				     VAWD1_IVL_MAC | VAWD1_VTAG_EN |
				     FIELD_PREP(VAWD1_PORT_MEM, members) |
				     FIELD_PREP(VAWD1_FID, RSW_FID_BRIDGED) |
				     VAWD1_VALID, vawd2);
	else
		ret = rsw_vlan_write(priv, vlan->vid, 0, 0);
	if (ret)
		goto out;

	if (dsa_port_is_user(dp) && priv->ports[port].pvid == vlan->vid) {
		WRITE_ONCE(priv->ports[port].pvid, 0);
		if (dsa_port_is_vlan_filtering(dp))
			ret = rsw_port_vlan_apply(priv, port, true);
	}
out:
	mutex_unlock(&priv->reg_mutex);

	return ret;
}

/* -- ports and bridges --------------------------------------------------- */

/* The ports a user port may forward to */
static u32 rsw_port_matrix(struct rsw_priv *priv, int port)
{
	struct dsa_port *dp = dsa_to_port(&priv->ds, port), *other;
	struct net_device *br = dsa_port_bridge_dev_get(dp);
	u32 matrix;

	if (!priv->ports[port].enabled)
		return 0;

	matrix = BIT(dp->cpu_dp->index);
	if (!br)
		return matrix;

	dsa_switch_for_each_user_port(other, &priv->ds) {
		if (other == dp || !dsa_port_offloads_bridge_dev(other, br))
			continue;
		if (priv->ports[port].isolated &&
		    priv->ports[other->index].isolated)
			continue;
		matrix |= BIT(other->index);
	}

	return matrix;
}

/* Refresh the port matrix of @port and of the user ports of bridge @br */
static void rsw_update_matrices(struct rsw_priv *priv, int port,
				const struct net_device *br)
{
	struct dsa_port *dp;

	dsa_switch_for_each_user_port(dp, &priv->ds) {
		if (dp->index != port &&
		    (!br || !dsa_port_offloads_bridge_dev(dp, br)))
			continue;
		rsw_rmw(priv, MT7530_PCR_P(dp->index), PCR_MATRIX,
			FIELD_PREP(PCR_MATRIX, rsw_port_matrix(priv, dp->index)));
	}
}

static int rsw_port_bridge_join(struct dsa_switch *ds, int port,
				struct dsa_bridge bridge, bool *tx_fwd_offload,
				struct netlink_ext_ack *extack)
{
	struct rsw_priv *priv = ds->priv;
	int ret;

	mutex_lock(&priv->reg_mutex);
	rsw_update_matrices(priv, port, bridge.dev);
	ret = rsw_port_vlan_apply(priv, port,
				  dsa_port_is_vlan_filtering(dsa_to_port(ds,
									 port)));
	mutex_unlock(&priv->reg_mutex);

	return ret;
}

static void rsw_port_bridge_leave(struct dsa_switch *ds, int port,
				  struct dsa_bridge bridge)
{
	struct rsw_priv *priv = ds->priv;

	mutex_lock(&priv->reg_mutex);
	rsw_update_matrices(priv, port, bridge.dev);
	rsw_port_vlan_apply(priv, port,
			    dsa_port_is_vlan_filtering(dsa_to_port(ds, port)));
	mutex_unlock(&priv->reg_mutex);
}

static void rsw_port_stp_state_set(struct dsa_switch *ds, int port, u8 state)
{
	struct rsw_priv *priv = ds->priv;
	u32 stp;

	switch (state) {
	case BR_STATE_DISABLED:
		stp = STP_DISABLED;
		break;
	case BR_STATE_LISTENING:
	case BR_STATE_BLOCKING:
		stp = STP_BLOCKING;
		break;
	case BR_STATE_LEARNING:
		stp = STP_LEARNING;
		break;
	default:
		stp = STP_FORWARDING;
		break;
	}

	rsw_rmw(priv, MT7530_SSP_P(port), SSP_FID_PST(RSW_FID_BRIDGED),
		stp << (RSW_FID_BRIDGED * 2));
}

static int rsw_port_pre_bridge_flags(struct dsa_switch *ds, int port,
				     struct switchdev_brport_flags flags,
				     struct netlink_ext_ack *extack)
{
	/*
	 * BR_PORT_LOCKED needs frames from unknown source addresses kept
	 * from forwarding and handed to the CPU; the MT7530's address table
	 * has no such per-port mode (PSC only turns learning off).
	 */
	if (flags.mask & BR_PORT_LOCKED) {
		NL_SET_ERR_MSG_MOD(extack, "the switch cannot lock a port");
		return -EINVAL;
	}
	if (flags.mask & ~(BR_LEARNING | BR_FLOOD | BR_MCAST_FLOOD |
			   BR_BCAST_FLOOD | BR_ISOLATED))
		return -EINVAL;

	return 0;
}

/*
 * Unregistered multicast floods to a user port that has BR_MCAST_FLOOD
 * unless its bridge snoops: the switch cannot tell IP multicast from the
 * rest (UNM_FFP is all multicast without an address table entry), nor
 * knows whether a querier is present, so while the bridge snoops such
 * frames go to the CPU alone and the bridge forwards them
 * (rsw_mc_fwd_offloaded()): to the multicast router ports for IP multicast
 * with a querier, everywhere for link-local groups, non-IP multicast or
 * without a querier, as it would in software.
 */
static bool rsw_unm_flood(struct rsw_priv *priv, int port)
{
	return priv->ports[port].mc_flood &&
	       !(READ_ONCE(priv->mc_snooping) & BIT(port));
}

static int rsw_port_mc_snooping(struct dsa_switch *ds, int port,
				bool enabled, struct netlink_ext_ack *extack)
{
	struct rsw_priv *priv = ds->priv;
	u8 snooping = READ_ONCE(priv->mc_snooping);

	if (!dsa_is_user_port(ds, port))
		return 0;

	if (enabled)
		snooping |= BIT(port);
	else
		snooping &= ~BIT(port);
	WRITE_ONCE(priv->mc_snooping, snooping);

	return rsw_rmw(priv, MT7530_MFC, FIELD_PREP(MFC_UNM_FFP, BIT(port)),
		       rsw_unm_flood(priv, port) ?
		       FIELD_PREP(MFC_UNM_FFP, BIT(port)) : 0);
}

/* The VLAN the switch looked up @eth's destination in */
static u16 rsw_rx_vid(struct dsa_switch *ds, int port,
		      const struct sk_buff *skb, const struct ethhdr *eth)
{
	struct rsw_priv *priv = ds->priv;
	__be16 tci;

	if (!dsa_port_is_vlan_filtering(dsa_to_port(ds, port)))
		return 0;
	if (skb_vlan_tag_present(skb))
		return skb_vlan_tag_get_id(skb);
	if (eth->h_proto == htons(ETH_P_8021Q) &&
	    !skb_copy_bits(skb, 0, &tci, sizeof(tci)))
		return ntohs(tci) & VLAN_VID_MASK;

	return READ_ONCE(priv->ports[port].pvid);
}

/*
 * DSA's question for a multicast frame the switch sent the CPU from
 * @port: did the switch forward it to the other ports itself? Not if the
 * port's bridge snoops and no static entry (an MDB entry) matched: then it
 * went to the CPU alone (rsw_unm_flood()) and is the bridge's to forward.
 */
static bool rsw_mc_fwd_offloaded(struct dsa_switch *ds, int port,
				 const struct sk_buff *skb)
{
	/* DSA leaves the Ethernet header ending at skb->data */
	const struct ethhdr *eth = (const void *)(skb->data - ETH_HLEN);
	const unsigned char *addr = eth->h_dest;
	struct rsw_priv *priv = ds->priv;
	struct rsw_static_entry *e;
	bool found = false;
	u16 vid;

	if (!(READ_ONCE(priv->mc_snooping) & BIT(port)))
		return true;

	vid = rsw_rx_vid(ds, port, skb, eth);
	rcu_read_lock();
	hash_for_each_possible_rcu(priv->statics, e, node,
				   rsw_static_key(addr, vid))
		if (e->vid == vid && ether_addr_equal(e->addr, addr)) {
			found = true;
			break;
		}
	rcu_read_unlock();

	return found;
}

static int rsw_port_bridge_flags(struct dsa_switch *ds, int port,
				 struct switchdev_brport_flags flags,
				 struct netlink_ext_ack *extack)
{
	struct rsw_priv *priv = ds->priv;
	u32 mask = 0, set = 0;

	if (flags.mask & BR_LEARNING)
		rsw_rmw(priv, MT7530_PSC_P(port), PSC_SA_DIS,
			flags.val & BR_LEARNING ? 0 : PSC_SA_DIS);

	if (flags.mask & BR_FLOOD) {
		mask |= FIELD_PREP(MFC_UNU_FFP, BIT(port));
		if (flags.val & BR_FLOOD)
			set |= FIELD_PREP(MFC_UNU_FFP, BIT(port));
	}
	if (flags.mask & BR_MCAST_FLOOD) {
		priv->ports[port].mc_flood = flags.val & BR_MCAST_FLOOD;
		mask |= FIELD_PREP(MFC_UNM_FFP, BIT(port));
		if (rsw_unm_flood(priv, port))
			set |= FIELD_PREP(MFC_UNM_FFP, BIT(port));
	}
	if (flags.mask & BR_BCAST_FLOOD) {
		mask |= FIELD_PREP(MFC_BC_FFP, BIT(port));
		if (flags.val & BR_BCAST_FLOOD)
			set |= FIELD_PREP(MFC_BC_FFP, BIT(port));
	}
	if (mask)
		rsw_rmw(priv, MT7530_MFC, mask, set);

	if (flags.mask & BR_ISOLATED) {
		struct dsa_port *dp = dsa_to_port(ds, port);

		mutex_lock(&priv->reg_mutex);
		priv->ports[port].isolated = flags.val & BR_ISOLATED;
		rsw_update_matrices(priv, port, dsa_port_bridge_dev_get(dp));
		mutex_unlock(&priv->reg_mutex);
	}

	return 0;
}

static int rsw_port_enable(struct dsa_switch *ds, int port,
			   struct phy_device *phy)
{
	struct rsw_priv *priv = ds->priv;
	struct rsw_port *p = &priv->ports[port];

	/* The MAC can signal LPI: phylib's EEE settings start enabled, once
	 * per PHY (a later call would undo what the user set since).
	 */
	if (priv->info->has_eee && phy && phy != p->eee_phy) {
		phy_support_eee(phy);
		p->eee_phy = phy;
	}

	mutex_lock(&priv->reg_mutex);
	if (dsa_is_user_port(ds, port)) {
		priv->ports[port].enabled = true;
		rsw_update_matrices(priv, port, NULL);
	}

	/* Ports 5 and 6 are off by strap until used */
	if (priv->info->has_mtrap && port == 5)
		rsw_rmw(priv, MT7530_MTRAP, MTRAP_P5_DIS, 0);
	else if (priv->info->has_mtrap && port == 6)
		rsw_rmw(priv, MT7530_MTRAP, MTRAP_P6_DIS, 0);
	mutex_unlock(&priv->reg_mutex);

	return 0;
}

static void rsw_port_disable(struct dsa_switch *ds, int port)
{
	struct rsw_priv *priv = ds->priv;

	mutex_lock(&priv->reg_mutex);
	if (dsa_is_user_port(ds, port)) {
		priv->ports[port].enabled = false;
		rsw_update_matrices(priv, port, NULL);
	}

	if (priv->info->has_mtrap && port == 5)
		rsw_rmw(priv, MT7530_MTRAP, MTRAP_P5_DIS, MTRAP_P5_DIS);
	else if (priv->info->has_mtrap && port == 6)
		rsw_rmw(priv, MT7530_MTRAP, MTRAP_P6_DIS, MTRAP_P6_DIS);
	mutex_unlock(&priv->reg_mutex);
}

static int rsw_port_change_mtu(struct dsa_switch *ds, int port, int new_mtu)
{
	struct rsw_priv *priv = ds->priv;

	/*
	 * One receive length for the whole switch; the DSA core gives the
	 * CPU port the largest MTU of its user ports.
	 */
	if (!dsa_is_cpu_port(ds, port))
		return 0;

	return priv->info->set_max_frame(priv, new_mtu + ETH_HLEN +
					 priv->info->tag_len + ETH_FCS_LEN);
}

/* The largest MTU a user port can have through @conduit */
static int rsw_user_max_mtu(struct rsw_priv *priv, struct net_device *conduit)
{
	int tag_len = priv->info->tag_len;
	int max = priv->info->max_frame - ETH_HLEN - tag_len - ETH_FCS_LEN;

	/*
	 * Its frames cross the conduit with the tag, and the DSA core
	 * refuses an MTU whose frames the conduit cannot carry: advertise
	 * no more than that.
	 */
	return min(max, (int)conduit->max_mtu - tag_len);
}

static int rsw_port_max_mtu(struct dsa_switch *ds, int port)
{
	return rsw_user_max_mtu(ds->priv, dsa_to_port(ds, port)->cpu_dp->conduit);
}

/*
 * Energy-Efficient Ethernet: phylib negotiates it and keeps the user's
 * settings (eee_cfg, reported back by phylink); rsw_mac_link_up() lets the
 * MAC signal LPI where it was negotiated and tx-lpi is on
 * (phydev->enable_tx_lpi), after tx-timer microseconds of idle. In force
 * mode PMCR's EEE bits are the MAC's EEE ability; PMEEECR's LPI_MODE_EN
 * would enter LPI at once whatever the threshold (the MT7531 reference
 * manual's description of the bit) and is never set. phylib cycles the
 * link when only tx-lpi or tx-timer change, so the MAC follows them.
 */
static int rsw_get_mac_eee(struct dsa_switch *ds, int port,
			   struct ethtool_keee *e)
{
	struct rsw_priv *priv = ds->priv;

	return priv->info->has_eee ? 0 : -EOPNOTSUPP;
}

static int rsw_set_mac_eee(struct dsa_switch *ds, int port,
			   struct ethtool_keee *e)
{
	struct rsw_priv *priv = ds->priv;

	if (!priv->info->has_eee)
		return -EOPNOTSUPP;
	if (e->tx_lpi_timer > FIELD_MAX(PMEEECR_LPI_THRESH))
		return -EINVAL;
	return 0;
}

/* Whether a rule of the ACL mirrors, so that MFC's mirror port is in use */
static bool rsw_acl_mirrors(struct rsw_priv *priv)
{
	unsigned int i;

	for_each_set_bit(i, &priv->acl_used, RSW_ACL_RULES)
		if (priv->acl[i].mirror)
			return true;
	return false;
}

static bool rsw_mirror_in_use(struct rsw_priv *priv)
{
	int i;

	for (i = 0; i < priv->info->num_ports; i++)
		if (priv->ports[i].mirror_rx || priv->ports[i].mirror_tx)
			return true;
	return rsw_acl_mirrors(priv);
}

static int rsw_port_mirror_add(struct dsa_switch *ds, int port,
			       struct dsa_mall_mirror_tc_entry *mirror,
			       bool ingress, struct netlink_ext_ack *extack)
{
	struct rsw_priv *priv = ds->priv;
	struct rsw_port *p = &priv->ports[port];
	bool in_use;
	u32 mfc;
	int ret;

	if (ingress ? p->mirror_rx : p->mirror_tx)
		return -EEXIST;

	mutex_lock(&priv->reg_mutex);

	in_use = rsw_mirror_in_use(priv);
	ret = regmap_read(priv->regmap, MT7530_MFC, &mfc);
	if (ret)
		goto out;
	if (in_use && FIELD_GET(MFC_MIRROR_PORT, mfc) != mirror->to_local_port) {
		NL_SET_ERR_MSG_MOD(extack, "the switch has one monitor port");
		ret = -EBUSY;
		goto out;
	}

	ret = rsw_rmw(priv, MT7530_MFC, MFC_MIRROR_EN | MFC_MIRROR_PORT,
		      MFC_MIRROR_EN |
		      FIELD_PREP(MFC_MIRROR_PORT, mirror->to_local_port));
	if (ret)
		goto out;
	ret = rsw_rmw(priv, MT7530_PCR_P(port), ingress ? PCR_RX_MIR :
		      PCR_TX_MIR, ingress ? PCR_RX_MIR : PCR_TX_MIR);
	if (ret)
		goto out;
	if (ingress)
		p->mirror_rx = true;
	else
		p->mirror_tx = true;
out:
	mutex_unlock(&priv->reg_mutex);

	return ret;
}

static void rsw_port_mirror_del(struct dsa_switch *ds, int port,
				struct dsa_mall_mirror_tc_entry *mirror)
{
	struct rsw_priv *priv = ds->priv;
	struct rsw_port *p = &priv->ports[port];

	mutex_lock(&priv->reg_mutex);

	if (mirror->ingress) {
		p->mirror_rx = false;
		rsw_rmw(priv, MT7530_PCR_P(port), PCR_RX_MIR, 0);
	} else {
		p->mirror_tx = false;
		rsw_rmw(priv, MT7530_PCR_P(port), PCR_TX_MIR, 0);
	}

	if (!rsw_mirror_in_use(priv))
		rsw_rmw(priv, MT7530_MFC, MFC_MIRROR_EN, 0);

	mutex_unlock(&priv->reg_mutex);
}

/* -- tc flower through the ACL ------------------------------------------ */

static int rsw_acl_write(struct rsw_priv *priv, u32 func, u16 idx, u32 vawd1,
			 u32 vawd2)
{
	int ret;

	lockdep_assert_held(&priv->reg_mutex);

	ret = regmap_write(priv->regmap, MT7530_VAWD1, vawd1);
	if (!ret)
		ret = regmap_write(priv->regmap, MT7530_VAWD2, vawd2);
	if (!ret)
		ret = rsw_vtcr_cmd(priv, func, idx, NULL);
	return ret;
}

/* Program rule @r's mask and action, as recorded in @priv */
static int rsw_acl_program_rule(struct rsw_priv *priv, unsigned int r)
{
	struct rsw_acl_rule *rule = &priv->acl[r];
	int ret;

	ret = rsw_acl_write(priv, VTCR_FUNC_WR_ACL_MASK, r,
			    lower_32_bits(rule->patterns),
			    upper_32_bits(rule->patterns));
	if (!ret)
		ret = rsw_acl_write(priv, VTCR_FUNC_WR_ACL_ACTION, r,
				    rule->action, 0);
	return ret;
}

/* Program rule @r and its patterns, as recorded in @priv */
static int rsw_acl_program(struct rsw_priv *priv, unsigned int r)
{
	struct rsw_acl_rule *rule = &priv->acl[r];
	unsigned int i;
	int ret = 0;

	for (i = 0; i < RSW_ACL_PATTERNS && !ret; i++)
		if (rule->patterns & BIT_ULL(i))
			ret = rsw_acl_write(priv, VTCR_FUNC_WR_ACL_PATTERN, i,
					    priv->acl_pat[i][0],
					    priv->acl_pat[i][1]);
	return ret ?: rsw_acl_program_rule(priv, r);
}

/*
 * Rule @r off and its entries freed; the port's ACL off with its last.
 * The rules stay in 0..n-1, in tc's priority order: those after @r move
 * down one.
 */
static void rsw_acl_free(struct rsw_priv *priv, unsigned int r)
{
	struct rsw_acl_rule rule = priv->acl[r];
	unsigned int i, n = hweight_long(priv->acl_used);
	bool port_used = false;

	for (i = 0; i < RSW_ACL_PATTERNS; i++) {
		if (!(rule.patterns & BIT_ULL(i)))
			continue;
		rsw_acl_write(priv, VTCR_FUNC_WR_ACL_PATTERN, i, 0, 0);
		priv->acl_pat[i][0] = 0;
		priv->acl_pat[i][1] = 0;
	}
	priv->acl_pat_used &= ~rule.patterns;
	for (i = r; i + 1 < n; i++) {
		priv->acl[i] = priv->acl[i + 1];
		rsw_acl_program_rule(priv, i);
	}
	rsw_acl_write(priv, VTCR_FUNC_WR_ACL_ACTION, n - 1, 0, 0);
	rsw_acl_write(priv, VTCR_FUNC_WR_ACL_MASK, n - 1, 0, 0);
	memset(&priv->acl[n - 1], 0, sizeof(priv->acl[n - 1]));
	__clear_bit(n - 1, &priv->acl_used);

	for_each_set_bit(i, &priv->acl_used, RSW_ACL_RULES)
		port_used |= priv->acl[i].port == rule.port;
	if (!port_used)
		rsw_rmw(priv, MT7530_PCR_P(rule.port), PCR_PORT_ACL_EN, 0);
	if (rule.mirror && !rsw_mirror_in_use(priv))
		rsw_rmw(priv, MT7530_MFC, MFC_MIRROR_EN, 0);
}

/*
 * Add a pattern entry comparing the 16-bit word @word of the header
 * @type with @val under @mask, for frames entering by @port.
 */
static int rsw_acl_match(struct rsw_priv *priv, u64 *patterns, int port,
			 unsigned int type, unsigned int word, u16 val,
			 u16 mask, struct netlink_ext_ack *extack)
{
	unsigned int i;

	if (!mask && *patterns)
		return 0;
	for (i = 0; i < RSW_ACL_PATTERNS; i++)
		if (!((priv->acl_pat_used | *patterns) & BIT_ULL(i)))
			break;
	if (i == RSW_ACL_PATTERNS) {
		NL_SET_ERR_MSG_MOD(extack, "the ACL's 64 pattern entries are in use");
		return -ENOSPC;
	}
	priv->acl_pat[i][0] = FIELD_PREP(ACL_BIT_CMP, mask) |
			      FIELD_PREP(ACL_CMP_PAT, val & mask);
	priv->acl_pat[i][1] = ACL_TABLE_EN | FIELD_PREP(ACL_OFST_TP, type) |
			      FIELD_PREP(ACL_SP, BIT(port)) |
			      FIELD_PREP(ACL_WORD_OFST, word);
	*patterns |= BIT_ULL(i);
	return 0;
}

/* Words @first.. of header @type from the big-endian @val under @mask */
static int rsw_acl_match_bytes(struct rsw_priv *priv, u64 *patterns, int port,
			       unsigned int type, unsigned int first,
			       const u8 *val, const u8 *mask, unsigned int len,
			       struct netlink_ext_ack *extack)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < len / 2 && !ret; i++) {
		u16 m = get_unaligned_be16(mask + 2 * i);

		if (m)
			ret = rsw_acl_match(priv, patterns, port, type,
					    first + i,
					    get_unaligned_be16(val + 2 * i), m,
					    extack);
	}
	return ret;
}

#define RSW_FLOWER_KEYS	(BIT_ULL(FLOW_DISSECTOR_KEY_CONTROL) | \
			 BIT_ULL(FLOW_DISSECTOR_KEY_BASIC) | \
			 BIT_ULL(FLOW_DISSECTOR_KEY_ETH_ADDRS) | \
			 BIT_ULL(FLOW_DISSECTOR_KEY_IPV4_ADDRS) | \
			 BIT_ULL(FLOW_DISSECTOR_KEY_IPV6_ADDRS) | \
			 BIT_ULL(FLOW_DISSECTOR_KEY_PORTS))

/*
 * The flower's match as pattern entries (recorded in @priv, not yet
 * written). Offsets count from the frame as received: an EtherType or a
 * MAC header word is matched on untagged frames (NOTES.md).
 */
static int rsw_acl_parse_match(struct rsw_priv *priv, int port,
			       struct flow_cls_offload *cls, u64 *patterns)
{
	struct flow_rule *rule = flow_cls_offload_flow_rule(cls);
	struct netlink_ext_ack *extack = cls->common.extack;
	struct flow_dissector *d = rule->match.dissector;
	u16 n_proto = 0, addr_type = 0;
	u8 ip_proto = 0;
	int ret = 0;

	/* IPV6_ADDRS: flower's key shares its bytes with IPV4_ADDRS */
	if (flow_rule_match_key(rule, FLOW_DISSECTOR_KEY_CONTROL)) {
		struct flow_match_control m;

		flow_rule_match_control(rule, &m);
		addr_type = m.key->addr_type;
	}
	if (d->used_keys & ~RSW_FLOWER_KEYS ||
	    addr_type == FLOW_DISSECTOR_KEY_IPV6_ADDRS) {
		NL_SET_ERR_MSG_MOD(extack,
				   "the ACL matches MAC addresses, EtherType, IPv4 addresses, IP protocol and TCP/UDP ports only");
		return -EOPNOTSUPP;
	}
	if (flow_rule_match_key(rule, FLOW_DISSECTOR_KEY_CONTROL)) {
		struct flow_match_control m;

		flow_rule_match_control(rule, &m);
		if (m.mask->flags) {
			NL_SET_ERR_MSG_MOD(extack, "the ACL cannot match fragments");
			return -EOPNOTSUPP;
		}
	}
	if (flow_rule_match_key(rule, FLOW_DISSECTOR_KEY_BASIC)) {
		struct flow_match_basic m;

		flow_rule_match_basic(rule, &m);
		if (m.mask->n_proto) {
			n_proto = ntohs(m.key->n_proto);
			ret = rsw_acl_match(priv, patterns, port,
					    ACL_MAC_HEADER, 6, n_proto,
					    ntohs(m.mask->n_proto), extack);
		}
		if (!ret && m.mask->ip_proto) {
			if (n_proto != ETH_P_IP) {
				NL_SET_ERR_MSG_MOD(extack,
						   "the ACL matches an IP protocol in IPv4 only");
				return -EOPNOTSUPP;
			}
			ip_proto = m.key->ip_proto;
			ret = rsw_acl_match(priv, patterns, port,
					    ACL_IP_HEADER, 4, ip_proto,
					    m.mask->ip_proto, extack);
		}
	}
	if (!ret && flow_rule_match_key(rule, FLOW_DISSECTOR_KEY_ETH_ADDRS)) {
		struct flow_match_eth_addrs m;

		flow_rule_match_eth_addrs(rule, &m);
		ret = rsw_acl_match_bytes(priv, patterns, port, ACL_MAC_HEADER,
					  0, m.key->dst, m.mask->dst, ETH_ALEN,
					  extack);
		if (!ret)
			ret = rsw_acl_match_bytes(priv, patterns, port,
						  ACL_MAC_HEADER, 3, m.key->src,
						  m.mask->src, ETH_ALEN,
						  extack);
	}
	if (!ret && addr_type == FLOW_DISSECTOR_KEY_IPV4_ADDRS) {
		struct flow_match_ipv4_addrs m;

		flow_rule_match_ipv4_addrs(rule, &m);
		if (n_proto != ETH_P_IP) {
			NL_SET_ERR_MSG_MOD(extack, "IPv4 addresses need protocol ip");
			return -EOPNOTSUPP;
		}
		ret = rsw_acl_match_bytes(priv, patterns, port, ACL_IP_HEADER,
					  6, (u8 *)&m.key->src,
					  (u8 *)&m.mask->src, 4, extack);
		if (!ret)
			ret = rsw_acl_match_bytes(priv, patterns, port,
						  ACL_IP_HEADER, 8,
						  (u8 *)&m.key->dst,
						  (u8 *)&m.mask->dst, 4,
						  extack);
	}
	if (!ret && flow_rule_match_key(rule, FLOW_DISSECTOR_KEY_PORTS)) {
		struct flow_match_ports m;

		flow_rule_match_ports(rule, &m);
		if (ip_proto != IPPROTO_TCP && ip_proto != IPPROTO_UDP &&
		    (m.mask->src || m.mask->dst)) {
			NL_SET_ERR_MSG_MOD(extack, "the ACL matches ports of TCP and UDP only");
			return -EOPNOTSUPP;
		}
		ret = rsw_acl_match_bytes(priv, patterns, port,
					  ACL_TCP_UDP_HEADER, 0,
					  (u8 *)&m.key->src,
					  (u8 *)&m.mask->src, 2, extack);
		if (!ret)
			ret = rsw_acl_match_bytes(priv, patterns, port,
						  ACL_TCP_UDP_HEADER, 1,
						  (u8 *)&m.key->dst,
						  (u8 *)&m.mask->dst, 2,
						  extack);
	}
	/* A match on nothing: one entry comparing no bit, for the port */
	if (!ret && !*patterns)
		ret = rsw_acl_match(priv, patterns, port, ACL_MAC_HEADER, 0, 0,
				    0, extack);
	return ret;
}

/* The flower's one action as a rule action word */
static int rsw_acl_parse_action(struct rsw_priv *priv, int port,
				struct flow_cls_offload *cls,
				struct rsw_acl_rule *acl)
{
	struct flow_rule *rule = flow_cls_offload_flow_rule(cls);
	struct netlink_ext_ack *extack = cls->common.extack;
	const struct flow_action_entry *act;
	struct dsa_port *to;
	u32 mfc;
	int ret;

	if (!flow_offload_has_one_action(&rule->action)) {
		NL_SET_ERR_MSG_MOD(extack, "the ACL takes one action a rule");
		return -EOPNOTSUPP;
	}
	act = &rule->action.entries[0];
	/*
	 * Where the ACL counts its hits is not sourced: a rule has no
	 * statistics (rsw_cls_flower_stats()). Only a filter that does
	 * without them (hw_stats disabled) is taken; tc's default ("any")
	 * asks for them, and such a filter stays in software, where its
	 * packets are counted.
	 */
	if (!(act->hw_stats & FLOW_ACTION_HW_STATS_DISABLED)) {
		NL_SET_ERR_MSG_MOD(extack,
				   "the ACL has no hit counters (hw_stats disabled)");
		return -EOPNOTSUPP;
	}
	switch (act->id) {
	case FLOW_ACTION_DROP:
		acl->action = FIELD_PREP(ACL_PORT_FW, ACL_FW_DROP);
		return 0;
	case FLOW_ACTION_TRAP:
		acl->action = FIELD_PREP(ACL_PORT_FW, ACL_FW_CPU_ONLY);
		return 0;
	case FLOW_ACTION_REDIRECT:
	case FLOW_ACTION_MIRRED:
		to = act->dev && dsa_user_dev_check(act->dev) ?
		     dsa_port_from_netdev(act->dev) : NULL;
		if (IS_ERR_OR_NULL(to) || to->ds != &priv->ds ||
		    !dsa_port_is_user(to)) {
			NL_SET_ERR_MSG_MOD(extack,
					   "the ACL redirects and mirrors to a port of the same switch only");
			return -EOPNOTSUPP;
		}
		if (act->id == FLOW_ACTION_REDIRECT) {
			acl->action = ACL_PORT_EN |
				      FIELD_PREP(ACL_PORT, BIT(to->index));
			return 0;
		}
		ret = regmap_read(priv->regmap, MT7530_MFC, &mfc);
		if (ret)
			return ret;
		if (rsw_mirror_in_use(priv) &&
		    FIELD_GET(MFC_MIRROR_PORT, mfc) != to->index) {
			NL_SET_ERR_MSG_MOD(extack, "the switch has one monitor port");
			return -EBUSY;
		}
		acl->action = ACL_MIR_EN;
		acl->mirror = true;
		return rsw_rmw(priv, MT7530_MFC,
			       MFC_MIRROR_EN | MFC_MIRROR_PORT, MFC_MIRROR_EN |
			       FIELD_PREP(MFC_MIRROR_PORT, to->index));
	case FLOW_ACTION_VLAN_PUSH:
	case FLOW_ACTION_VLAN_POP:
	case FLOW_ACTION_VLAN_MANGLE:
		NL_SET_ERR_MSG_MOD(extack, "the ACL cannot push, pop or rewrite a VLAN tag");
		return -EOPNOTSUPP;
	default:
		NL_SET_ERR_MSG_MOD(extack, "the ACL offloads drop, trap, redirect and mirror only");
		return -EOPNOTSUPP;
	}
}

static int rsw_cls_flower_add(struct dsa_switch *ds, int port,
			      struct flow_cls_offload *cls, bool ingress)
{
	struct netlink_ext_ack *extack = cls->common.extack;
	struct rsw_priv *priv = ds->priv;
	struct rsw_acl_rule acl = {
		.cookie = cls->cookie,
		.prio = cls->common.prio,
		.port = port,
	};
	unsigned int r, i;
	int ret;

	if (!priv->info->has_acl) {
		NL_SET_ERR_MSG_MOD(extack, "this switch's ACL is not known");
		return -EOPNOTSUPP;
	}
	if (!ingress) {
		NL_SET_ERR_MSG_MOD(extack, "the ACL acts on ingress only");
		return -EOPNOTSUPP;
	}
	if (cls->common.chain_index) {
		NL_SET_ERR_MSG_MOD(extack, "the ACL has one chain, 0");
		return -EOPNOTSUPP;
	}

	mutex_lock(&priv->reg_mutex);

	r = find_first_zero_bit(&priv->acl_used, RSW_ACL_RULES);
	if (r >= RSW_ACL_RULES) {
		NL_SET_ERR_MSG_MOD(extack, "the ACL's 32 rules are in use");
		ret = -ENOSPC;
		goto out;
	}
	ret = rsw_acl_parse_match(priv, port, cls, &acl.patterns);
	if (!ret)
		ret = rsw_acl_parse_action(priv, port, cls, &acl);
	if (ret) {
		for (i = 0; i < RSW_ACL_PATTERNS; i++)
			if (acl.patterns & BIT_ULL(i))
				memset(priv->acl_pat[i], 0,
				       sizeof(priv->acl_pat[i]));
		if (acl.mirror && !rsw_mirror_in_use(priv))
			rsw_rmw(priv, MT7530_MFC, MFC_MIRROR_EN, 0);
		goto out;
	}
	/*
	 * Which of several hitting rules acts is not sourced; the model
	 * takes the lowest-numbered: keep the rules in tc's priority order
	 * (after those of the same priority), moving the later ones up.
	 */
	for (; r > 0 && priv->acl[r - 1].prio > acl.prio; r--) {
		priv->acl[r] = priv->acl[r - 1];
		__set_bit(r, &priv->acl_used);
		ret = rsw_acl_program_rule(priv, r);
		if (ret)
			goto out;
	}
	priv->acl[r] = acl;
	priv->acl_pat_used |= acl.patterns;
	__set_bit(r, &priv->acl_used);
	ret = rsw_acl_program(priv, r);
	if (!ret)
		ret = rsw_rmw(priv, MT7530_PCR_P(port), PCR_PORT_ACL_EN,
			      PCR_PORT_ACL_EN);
	if (ret)
		rsw_acl_free(priv, r);
out:
	mutex_unlock(&priv->reg_mutex);

	return ret;
}

static int rsw_acl_find(struct rsw_priv *priv, int port, unsigned long cookie)
{
	unsigned int r;

	for_each_set_bit(r, &priv->acl_used, RSW_ACL_RULES)
		if (priv->acl[r].port == port && priv->acl[r].cookie == cookie)
			return r;
	return -ENOENT;
}

static int rsw_cls_flower_del(struct dsa_switch *ds, int port,
			      struct flow_cls_offload *cls, bool ingress)
{
	struct rsw_priv *priv = ds->priv;
	int r;

	mutex_lock(&priv->reg_mutex);
	r = rsw_acl_find(priv, port, cls->cookie);
	if (r >= 0)
		rsw_acl_free(priv, r);
	mutex_unlock(&priv->reg_mutex);

	return 0;
}

/*
 * The ACL's hit counters (ACL_CNT_EN, ACL_CNT_IDX) are named by the
 * sources but where they are read is not: no hardware statistics.
 */
static int rsw_cls_flower_stats(struct dsa_switch *ds, int port,
				struct flow_cls_offload *cls, bool ingress)
{
	struct rsw_priv *priv = ds->priv;
	int r;

	mutex_lock(&priv->reg_mutex);
	r = rsw_acl_find(priv, port, cls->cookie);
	mutex_unlock(&priv->reg_mutex);

	return r < 0 ? r : 0;
}

/* Every rule of @port freed (the port going away); all with @port < 0 */
static void rsw_acl_flush(struct rsw_priv *priv, int port)
{
	unsigned int r = 0;

	lockdep_assert_held(&priv->reg_mutex);

	/* rsw_acl_free() moves the rules after @r down */
	while (r < RSW_ACL_RULES && test_bit(r, &priv->acl_used)) {
		if (port < 0 || priv->acl[r].port == port)
			rsw_acl_free(priv, r);
		else
			r++;
	}
}

/* -- tc TBF: a port's egress rate limit ---------------------------------- */

/*
 * A TBF at a user port's root: everything that leaves the port, frames
 * the switch forwards included, limited to the ERLCR's committed rate (in
 * steps of ERLCR_CIR_KBPS, up to the line rate). The burst has no known
 * field, nor is it known what of a frame the limit counts. TBF's offload
 * has no extack and the kernel shapes in software whatever the answer:
 * what the switch cannot do, it just does not do.
 */
static int rsw_setup_tc_tbf(struct rsw_priv *priv, int port,
			    struct tc_tbf_qopt_offload *qopt)
{
	u32 val = 0, cir;
	u64 kbps;
	int ret;

	if (!priv->info->has_erlcr || qopt->parent != TC_H_ROOT)
		return -EOPNOTSUPP;

	switch (qopt->command) {
	case TC_TBF_REPLACE:
		kbps = div_u64(qopt->replace_params.rate.rate_bytes_ps * 8,
			       1000);
		cir = DIV_ROUND_CLOSEST_ULL(kbps, ERLCR_CIR_KBPS);
		if (!cir || kbps > ERLCR_MAX_KBPS) {
			dev_dbg(priv->dev, "port %d: no egress limit of %llu kbit/s\n",
				port, kbps);
			return -EOPNOTSUPP;
		}
		val = FIELD_PREP(ERLCR_CIR, cir) | ERLCR_EN |
		      ERLCR_MT7530_SDK_BITS;
		break;
	case TC_TBF_DESTROY:
		break;
	case TC_TBF_STATS:
		/* offloaded if the limit is on; the counters are software's */
		ret = regmap_read(priv->regmap, MT7530_ERLCR_P(port), &val);
		if (ret)
			return ret;
		return val & ERLCR_EN ? 0 : -EOPNOTSUPP;
	default:
		return -EOPNOTSUPP;
	}

	mutex_lock(&priv->reg_mutex);
	ret = regmap_write(priv->regmap, MT7530_ERLCR_P(port), val);
	if (!ret)
		ret = rsw_rmw(priv, MT7530_GERLCR, (u32)~GERLCR_SDK_KEEP, 0);
	mutex_unlock(&priv->reg_mutex);

	return ret;
}

static int rsw_port_setup_tc(struct dsa_switch *ds, int port,
			     enum tc_setup_type type, void *type_data)
{
	switch (type) {
	case TC_SETUP_QDISC_TBF:
		return rsw_setup_tc_tbf(ds->priv, port, type_data);
	default:
		return -EOPNOTSUPP;
	}
}

/* -- statistics ---------------------------------------------------------- */

static int rsw_mib_read(struct rsw_priv *priv, int port, u32 offset, u32 *val)
{
	return regmap_read(priv->regmap, MT7530_MIB_P(port) + offset, val);
}

u64 rsw_mib_read64(struct rsw_priv *priv, int port, u32 offset)
{
	u32 lo = 0, hi = 0;

	rsw_mib_read(priv, port, offset, &lo);
	rsw_mib_read(priv, port, offset + 4, &hi);

	return (u64)hi << 32 | lo;
}

static u64 rsw_mib_read32(struct rsw_priv *priv, int port, u32 offset)
{
	u32 val = 0;

	rsw_mib_read(priv, port, offset, &val);

	return val;
}

/* Counter @m of @port as it is in the hardware, 0 if it cannot be read */
static u64 rsw_mib_get(struct rsw_priv *priv, int port,
		       const struct rsw_mib_desc *m)
{
	if (m->width == 64)
		return rsw_mib_read64(priv, port, m->offset);

	return (rsw_mib_read32(priv, port, m->offset) >> m->shift) &
	       GENMASK(m->width - 1, 0);
}

static void rsw_get_strings(struct dsa_switch *ds, int port, u32 stringset,
			    u8 *data)
{
	struct rsw_priv *priv = ds->priv;
	int i;

	if (stringset != ETH_SS_STATS)
		return;

	for (i = 0; i < priv->info->num_mibs; i++)
		ethtool_puts(&data, priv->info->mibs[i].name);
}

static int rsw_get_sset_count(struct dsa_switch *ds, int port, int sset)
{
	struct rsw_priv *priv = ds->priv;

	return sset == ETH_SS_STATS ? priv->info->num_mibs : 0;
}

static void rsw_stats_refresh_port(struct rsw_priv *priv, int port);

static void rsw_get_ethtool_stats(struct dsa_switch *ds, int port, u64 *data)
{
	struct rsw_priv *priv = ds->priv;
	const struct rsw_info *info = priv->info;
	int i;

	if (info->mibs_accumulated) {
		mutex_lock(&priv->reg_mutex);
		rsw_stats_refresh_port(priv, port);
		memcpy(data, priv->ports[port].mib_acc,
		       info->num_mibs * sizeof(*data));
		mutex_unlock(&priv->reg_mutex);
		return;
	}

	for (i = 0; i < info->num_mibs; i++)
		data[i] = rsw_mib_get(priv, port, &info->mibs[i]);
}

static const struct ethtool_rmon_hist_range rsw_rmon_ranges[] = {
	{ 0, 64 },
	{ 65, 127 },
	{ 128, 255 },
	{ 256, 511 },
	{ 512, 1023 },
	{ 1024, MT7530_MAX_FRAME },
	{}
};

static void rsw_get_rmon_stats(struct dsa_switch *ds, int port,
			       struct ethtool_rmon_stats *rmon,
			       const struct ethtool_rmon_hist_range **ranges)
{
	struct rsw_priv *priv = ds->priv;
	int i;

	if (!priv->info->has_rmon)
		return;

	rmon->undersize_pkts = rsw_mib_read32(priv, port, MIB_RX_UNDER_SIZE);
	rmon->oversize_pkts = rsw_mib_read32(priv, port, MIB_RX_OVER_SIZE);
	rmon->fragments = rsw_mib_read32(priv, port, MIB_RX_FRAG_ERR);
	rmon->jabbers = rsw_mib_read32(priv, port, MIB_RX_JABBER_ERR);
	for (i = 0; i < MIB_PKT_SZ_BINS; i++) {
		rmon->hist[i] = rsw_mib_read32(priv, port,
					       MIB_RX_PKT_SZ_64 + i * 4);
		rmon->hist_tx[i] = rsw_mib_read32(priv, port,
						  MIB_TX_PKT_SZ_64 + i * 4);
	}
	*ranges = rsw_rmon_ranges;
}

static void rsw_get_pause_stats(struct dsa_switch *ds, int port,
				struct ethtool_pause_stats *pause)
{
	struct rsw_priv *priv = ds->priv;

	if (!priv->info->has_rmon)
		return;

	pause->tx_pause_frames = rsw_mib_read32(priv, port, MIB_TX_PAUSE);
	pause->rx_pause_frames = rsw_mib_read32(priv, port, MIB_RX_PAUSE);
}

/* Under @reg_mutex: ethtool may refresh a port too */
static void rsw_stats_refresh_port(struct rsw_priv *priv, int port)
{
	const struct rsw_info *info = priv->info;
	struct rsw_port *p = &priv->ports[port];
	struct rtnl_link_stats64 s = {};
	int i;

	lockdep_assert_held(&priv->reg_mutex);

	for (i = 0; i < info->num_stats_mibs; i++) {
		const struct rsw_mib_desc *m = &info->stats_mibs[i];
		u32 val;

		if (rsw_mib_read(priv, port, m->offset, &val))
			return;
		val = (val >> m->shift) & GENMASK(m->width - 1, 0);
		/* Modulo the width: a counter that wrapped still adds up */
		p->mib_acc[i] += (val - p->mib_last[i]) &
				 GENMASK(m->width - 1, 0);
		p->mib_last[i] = val;
	}
	info->fill_stats64(priv, port, p->mib_acc, &s);

	spin_lock_bh(&priv->stats_lock);
	p->stats = s;
	spin_unlock_bh(&priv->stats_lock);
}

/*
 * Whether the switch core was reset behind the driver (a glitch, a
 * watchdog): every register and table is then at its reset value.
 * rsw_setup() sets the chip's reset mark (the MT7530's MTRAP_CHG_TRAP,
 * the GSW's MIB enable), which the reset value has not, and the regmap's
 * cache keeps what the driver wrote: a read of the hardware that lacks
 * the bit says so. Under @reg_mutex, as every update of the mark's
 * register is.
 */
static bool rsw_core_lost(struct rsw_priv *priv)
{
	const struct rsw_info *info = priv->info;
	u32 val;

	lockdep_assert_held(&priv->reg_mutex);

	return info->reset_mark_bit &&
	       !regmap_read_bypassed(priv->regmap, info->reset_mark_reg, &val) &&
	       !(val & info->reset_mark_bit);
}

/*
 * Program the switch again after its core was reset: the registers the
 * regmap caches, the ports' interface modes, the MIB's mode, the VLAN
 * table and the static address entries. Learned entries come back by
 * learning; the MIB counters start from 0 again.
 */
static void rsw_restore(struct rsw_priv *priv)
{
	struct rsw_static_entry *se;
	struct rsw_vlan_entry *ve;
	unsigned long vid;
	int bkt, port, ret;
	unsigned int r;

	lockdep_assert_held(&priv->reg_mutex);
	dev_warn(priv->dev,
		 "switch core reset behind the driver: programming it again\n");

	regcache_mark_dirty(priv->regmap);
	ret = regcache_sync(priv->regmap);
	if (ret)
		dev_err(priv->dev, "restoring the registers: %d\n", ret);

	for (port = 0; port < priv->ds.num_ports; port++) {
		struct rsw_port *p = &priv->ports[port];

		if (p->interface != PHY_INTERFACE_MODE_NA &&
		    priv->info->mac_config)
			priv->info->mac_config(priv, port, p->interface);

		spin_lock_bh(&priv->stats_lock);
		p->bytes_base[0] = p->stats.rx_bytes;
		p->bytes_base[1] = p->stats.tx_bytes;
		spin_unlock_bh(&priv->stats_lock);
		memset(p->mib_last, 0, sizeof(p->mib_last));
	}
	priv->info->start_mib(priv);

	priv->vlan_slots_used = 0;
	xa_for_each(&priv->vlans, vid, ve) {
		ret = rsw_vlan_program(priv, vid, ve->vawd1, ve->vawd2);
		if (ret)
			dev_err(priv->dev, "restoring VLAN %lu: %d\n", vid, ret);
	}
	hash_for_each(priv->statics, bkt, se, node) {
		ret = rsw_fdb_program(priv, se->addr, se->vid, se->port_map);
		if (ret)
			dev_err(priv->dev, "restoring %pM vid %u: %d\n",
				se->addr, se->vid, ret);
	}
	for_each_set_bit(r, &priv->acl_used, RSW_ACL_RULES) {
		ret = rsw_acl_program(priv, r);
		if (ret)
			dev_err(priv->dev, "restoring ACL rule %u: %d\n", r, ret);
	}
}

static void rsw_stats_work(struct work_struct *work)
{
	struct rsw_priv *priv = container_of(to_delayed_work(work),
					     struct rsw_priv, stats_work);
	unsigned long up = 0;
	struct dsa_port *dp;
	bool active, due;

	/*
	 * Which user ports are up (port_enable): not dp->user's carrier,
	 * which teardown frees before it stops this work
	 */
	mutex_lock(&priv->reg_mutex);
	if (rsw_core_lost(priv))
		rsw_restore(priv);
	dsa_switch_for_each_user_port(dp, &priv->ds)
		if (priv->ports[dp->index].enabled)
			__set_bit(dp->index, &up);
	mutex_unlock(&priv->reg_mutex);

	spin_lock_bh(&priv->stats_lock);
	active = time_before(jiffies, priv->stats_read + RSW_STATS_ACTIVE);
	due = active || priv->info->stats_period ||
	      !time_before(jiffies, priv->stats_jiffies +
			   RSW_STATS_IDLE_PERIOD);
	spin_unlock_bh(&priv->stats_lock);
	if (!due)
		goto out;

	/* A port that went down is read once more, then left */
	mutex_lock(&priv->reg_mutex);
	dsa_switch_for_each_user_port(dp, &priv->ds) {
		struct rsw_port *p = &priv->ports[dp->index];
		bool is_up = test_bit(dp->index, &up);

		if (is_up || p->counting)
			rsw_stats_refresh_port(priv, dp->index);
		p->counting = is_up;
	}
	mutex_unlock(&priv->reg_mutex);

	spin_lock_bh(&priv->stats_lock);
	priv->stats_jiffies = jiffies;
	spin_unlock_bh(&priv->stats_lock);
out:
	if (priv->info->stats_period) {
		schedule_delayed_work(&priv->stats_work,
				      priv->info->stats_period);
		return;
	}
	/* Housekeeping: on whole seconds, with the kernel's other such work */
	schedule_delayed_work(&priv->stats_work,
			      round_jiffies_relative(active ?
						     RSW_STATS_PERIOD :
						     RSW_STATS_WATCH_PERIOD));
}

/*
 * May be called in atomic context: the numbers are the work's, and a
 * reader finding them older than RSW_STATS_MAX_AGE has it run now.
 */
static void rsw_get_stats64(struct dsa_switch *ds, int port,
			    struct rtnl_link_stats64 *s)
{
	struct rsw_priv *priv = ds->priv;
	bool stale;

	spin_lock_bh(&priv->stats_lock);
	*s = priv->ports[port].stats;
	priv->stats_read = jiffies;
	stale = time_after(jiffies, priv->stats_jiffies + RSW_STATS_MAX_AGE);
	spin_unlock_bh(&priv->stats_lock);

	if (stale)
		mod_delayed_work(system_wq, &priv->stats_work, 0);
}

/* -- interrupts ---------------------------------------------------------- */

static irqreturn_t rsw_irq_thread(int irq, void *dev_id)
{
	struct rsw_priv *priv = dev_id;
	unsigned long pending;
	u32 sts;
	int bit;

	if (regmap_read(priv->regmap, MT7530_SYS_INT_STS, &sts) || !sts)
		return IRQ_NONE;
	regmap_write(priv->regmap, MT7530_SYS_INT_STS, sts);

	pending = sts & priv->irq_enable;
	for_each_set_bit(bit, &pending, priv->info->num_phys) {
		unsigned int virq = irq_find_mapping(priv->irq_domain, bit);

		if (virq)
			handle_nested_irq(virq);
	}

	return IRQ_HANDLED;
}

static void rsw_irq_mask(struct irq_data *d)
{
	struct rsw_priv *priv = irq_data_get_irq_chip_data(d);

	priv->irq_enable &= ~BIT(d->hwirq);
}

static void rsw_irq_unmask(struct irq_data *d)
{
	struct rsw_priv *priv = irq_data_get_irq_chip_data(d);

	priv->irq_enable |= BIT(d->hwirq);
}

static void rsw_irq_bus_lock(struct irq_data *d)
{
	struct rsw_priv *priv = irq_data_get_irq_chip_data(d);

	mutex_lock(&priv->reg_mutex);
}

static void rsw_irq_bus_sync_unlock(struct irq_data *d)
{
	struct rsw_priv *priv = irq_data_get_irq_chip_data(d);

	/* The GSW's IMR masks what is set */
	rsw_update(priv, MT7530_SYS_INT_EN, priv->info->irq_mask ?
		   ~priv->irq_enable : priv->irq_enable);
	mutex_unlock(&priv->reg_mutex);
}

static const struct irq_chip rsw_irq_chip = {
	.name = KBUILD_MODNAME,
	.irq_mask = rsw_irq_mask,
	.irq_unmask = rsw_irq_unmask,
	.irq_bus_lock = rsw_irq_bus_lock,
	.irq_bus_sync_unlock = rsw_irq_bus_sync_unlock,
	.flags = IRQCHIP_SKIP_SET_WAKE,
};

static int rsw_irq_map(struct irq_domain *domain, unsigned int irq,
		       irq_hw_number_t hwirq)
{
	irq_set_chip_data(irq, domain->host_data);
	irq_set_chip_and_handler(irq, &rsw_irq_chip, handle_simple_irq);
	irq_set_nested_thread(irq, true);
	irq_set_noprobe(irq);

	return 0;
}

static const struct irq_domain_ops rsw_irq_domain_ops = {
	.map = rsw_irq_map,
	.xlate = irq_domain_xlate_onecell,
};

static void rsw_free_irq(struct rsw_priv *priv)
{
	int i;

	if (!priv->irq_domain)
		return;

	free_irq(priv->irq, priv);
	for (i = 0; i < priv->info->num_phys; i++)
		irq_dispose_mapping(irq_find_mapping(priv->irq_domain, i));
	irq_domain_remove(priv->irq_domain);
	priv->irq_domain = NULL;
}

static int rsw_setup_irq(struct rsw_priv *priv)
{
	struct device_node *np = priv->dev->of_node;
	int ret;

	if (!priv->irq)
		return 0;

	priv->irq_domain = irq_domain_add_linear(np, priv->info->num_phys,
						 &rsw_irq_domain_ops, priv);
	if (!priv->irq_domain)
		return -ENOMEM;

	priv->irq_enable = 0;
	if (priv->info->irq_setup) {
		ret = priv->info->irq_setup(priv);
		if (ret) {
			irq_domain_remove(priv->irq_domain);
			priv->irq_domain = NULL;
			return ret;
		}
	}

	ret = request_threaded_irq(priv->irq, NULL, rsw_irq_thread,
				   IRQF_ONESHOT, dev_name(priv->dev), priv);
	if (ret) {
		dev_err(priv->dev, "cannot request interrupt %d: %d\n",
			priv->irq, ret);
		irq_domain_remove(priv->irq_domain);
		priv->irq_domain = NULL;
	}

	return ret;
}

/* -- the internal PHYs' bus ---------------------------------------------- */

static int rsw_mii_read(struct mii_bus *bus, int port, int regnum)
{
	struct rsw_priv *priv = bus->priv;

	return priv->bus_ops->phy_read(priv, port, regnum);
}

static int rsw_mii_write(struct mii_bus *bus, int port, int regnum, u16 val)
{
	struct rsw_priv *priv = bus->priv;

	return priv->bus_ops->phy_write(priv, port, regnum, val);
}

/*
 * With an "mdio" child (as mainline's mt7530 reads it), the PHYs it names
 * are registered, and ports find theirs by phy-handle, among them a PHY
 * outside the switch on the same bus; without one, the internal PHYs are
 * found at their ports' numbers; a disabled one means no bus.
 */
static int rsw_setup_mdio(struct rsw_priv *priv)
{
	struct dsa_switch *ds = &priv->ds;
	struct device_node *mnp;
	struct mii_bus *bus;
	int i, ret;

	bus = mdiobus_alloc();
	if (!bus)
		return -ENOMEM;

	bus->priv = priv;
	bus->name = KBUILD_MODNAME " internal PHYs";
	snprintf(bus->id, MII_BUS_ID_SIZE, "%s-phys", dev_name(priv->dev));
	bus->read = rsw_mii_read;
	bus->write = rsw_mii_write;
	bus->parent = priv->dev;
	bus->phy_mask = ~ds->phys_mii_mask;
	for (i = 0; priv->irq_domain && i < priv->info->num_phys; i++)
		if (ds->phys_mii_mask & BIT(i))
			bus->irq[i] = irq_create_mapping(priv->irq_domain, i);

	mnp = of_get_child_by_name(priv->dev->of_node, "mdio");
	if (mnp && !of_device_is_available(mnp)) {
		of_node_put(mnp);
		mdiobus_free(bus);
		return 0;
	}
	ret = of_mdiobus_register(bus, mnp);
	of_node_put(mnp);
	if (ret) {
		dev_err(priv->dev, "cannot register the PHYs' bus: %d\n", ret);
		mdiobus_free(bus);
		return ret;
	}
	priv->user_mii_bus = bus;
	ds->user_mii_bus = bus;

	return 0;
}

static void rsw_free_mdio(struct rsw_priv *priv)
{
	if (!priv->user_mii_bus)
		return;

	mdiobus_unregister(priv->user_mii_bus);
	mdiobus_free(priv->user_mii_bus);
	priv->user_mii_bus = NULL;
	priv->ds.user_mii_bus = NULL;
}

/* -- setup --------------------------------------------------------------- */

/* Link-local frames (BPDU, PAE, LLDP...) go to the CPU port, tags unchanged */
static int rsw_trap_link_local(struct rsw_priv *priv)
{
	u32 val = RGAC_HI_BPDU_FR |
		  FIELD_PREP(RGAC_HI_EG_TAG, PVC_EG_TAG_DISABLED) |
		  FIELD_PREP(RGAC_HI_PORT_FW, RGAC_FW_CPU_ONLY) |
		  RGAC_LO_BPDU_FR |
		  FIELD_PREP(RGAC_LO_EG_TAG, PVC_EG_TAG_DISABLED) |
		  FIELD_PREP(RGAC_LO_PORT_FW, RGAC_FW_CPU_ONLY);
	int ret;

	ret = regmap_write(priv->regmap, MT7530_BPC, val);
	if (!ret)
		ret = regmap_write(priv->regmap, MT7530_RGAC1, val);
	if (!ret)
		ret = regmap_write(priv->regmap, MT7530_RGAC2, val);

	return ret;
}

static int rsw_setup_ports(struct rsw_priv *priv)
{
	struct dsa_switch *ds = &priv->ds;
	struct dsa_port *dp;
	u32 cpu_ffp = 0;
	int ret;

	dsa_switch_for_each_port(dp, ds) {
		int port = dp->index;

		/* MAC forced down until phylink brings the link up */
		ret = regmap_write(priv->regmap, MT7530_PMCR_P(port),
				   PMCR_FORCE_MODE);
		if (ret)
			return ret;

		if (dsa_port_is_cpu(dp)) {
			/* Any special tag; frames from the CPU keep theirs */
			regmap_write(priv->regmap, MT7530_PVC_P(port),
				     (priv->info->tag_len ?
				      PVC_PORT_SPEC_TAG : 0) |
				     FIELD_PREP(PVC_EG_TAG,
						PVC_EG_TAG_CONSISTENT) |
				     FIELD_PREP(PVC_VLAN_ATTR,
						VLAN_ATTR_USER));
			regmap_write(priv->regmap, MT7530_PCR_P(port),
				     FIELD_PREP(PCR_MATRIX,
						dsa_user_ports(ds)) |
				     FIELD_PREP(PCR_PORT_VLAN,
						PORT_VLAN_FALLBACK));
			regmap_write(priv->regmap, MT7530_PSC_P(port),
				     PSC_SA_DIS);
			regmap_write(priv->regmap, MT7530_PPBV1_P(port), 0);
			cpu_ffp |= BIT(port);
			continue;
		}

		/* Isolated, not learning, standalone (FID 0 forwards) */
		regmap_write(priv->regmap, MT7530_PCR_P(port),
			     FIELD_PREP(PCR_PORT_VLAN, PORT_VLAN_MATRIX));
		regmap_write(priv->regmap, MT7530_PSC_P(port), PSC_SA_DIS);
		regmap_write(priv->regmap, MT7530_SSP_P(port),
			     STP_FORWARDING << (RSW_FID_STANDALONE * 2));
		regmap_write(priv->regmap, MT7530_PVC_P(port),
			     FIELD_PREP(PVC_VLAN_ATTR, VLAN_ATTR_TRANSPARENT) |
			     FIELD_PREP(PVC_EG_TAG, PVC_EG_TAG_CONSISTENT));
		regmap_write(priv->regmap, MT7530_PPBV1_P(port), 0);
	}

	/* Only the CPU ports are flooded to until the bridge says more */
	return regmap_write(priv->regmap, MT7530_MFC,
			    FIELD_PREP(MFC_BC_FFP, cpu_ffp) |
			    FIELD_PREP(MFC_UNM_FFP, cpu_ffp) |
			    FIELD_PREP(MFC_UNU_FFP, cpu_ffp));
}

static int rsw_setup(struct dsa_switch *ds)
{
	struct rsw_priv *priv = ds->priv;
	int ret;

	ds->assisted_learning_on_cpu_port = true;
	ds->mtu_enforcement_ingress = true;
	ds->ageing_time_min = 2 * MSEC_PER_SEC;
	ds->ageing_time_max = (FIELD_MAX(AAC_AGE_CNT) + 1) *
			      (FIELD_MAX(AAC_AGE_UNIT) + 1) * MSEC_PER_SEC;

	ret = priv->info->reset(priv);
	rsw_forget_tables(priv);
	if (!ret && priv->info->setup)
		ret = priv->info->setup(priv);
	if (ret)
		return ret;

	ret = rsw_trap_link_local(priv);
	if (!ret)
		ret = priv->info->start_mib(priv);
	if (!ret)
		ret = rsw_setup_ports(priv);
	/* Mirror copies may leave by the port they came in */
	if (!ret)
		ret = regmap_write(priv->regmap, MT7530_AGC, AGC_LOCAL_EN);
	/* VLAN 0: VLAN-unaware bridges, every port, tags as received */
	if (!ret)
		ret = rsw_vlan_write(priv, 0, VAWD1_IVL_MAC | VAWD1_EG_CON |
				     FIELD_PREP(VAWD1_PORT_MEM,
						GENMASK(ds->num_ports - 1, 0)) |
				     FIELD_PREP(VAWD1_FID, RSW_FID_BRIDGED) |
				     VAWD1_VALID, 0);
	if (!ret)
		ret = rsw_atc_cmd(priv, ATC_CMD_CLEAN, NULL);
	if (ret)
		return ret;

	memset(priv->ports, 0, sizeof(priv->ports));
	priv->active_cpu_ports = 0;

	ret = rsw_setup_irq(priv);
	if (ret)
		return ret;
	ret = rsw_setup_mdio(priv);
	if (ret) {
		rsw_free_irq(priv);
		return ret;
	}

	priv->stats_jiffies = jiffies;
	priv->stats_read = jiffies;
	schedule_delayed_work(&priv->stats_work, RSW_STATS_PERIOD);

	return 0;
}

static void rsw_teardown(struct dsa_switch *ds)
{
	struct rsw_priv *priv = ds->priv;

	cancel_delayed_work_sync(&priv->stats_work);
	mutex_lock(&priv->reg_mutex);
	rsw_acl_flush(priv, -1);
	mutex_unlock(&priv->reg_mutex);
	rsw_free_mdio(priv);
	rsw_free_irq(priv);
	rsw_forget_tables(priv);
}

/* A port going away: its flower rules freed, if tc has not */
static void rsw_port_teardown(struct dsa_switch *ds, int port)
{
	struct rsw_priv *priv = ds->priv;

	mutex_lock(&priv->reg_mutex);
	rsw_acl_flush(priv, port);
	mutex_unlock(&priv->reg_mutex);
}

static enum dsa_tag_protocol rsw_get_tag_protocol(struct dsa_switch *ds,
						  int port,
						  enum dsa_tag_protocol mp)
{
	struct rsw_priv *priv = ds->priv;

	return priv->info->tag_protocol;
}

static struct dsa_port *rsw_preferred_default_local_cpu_port(struct dsa_switch *ds)
{
	struct rsw_priv *priv = ds->priv;
	struct dsa_port *dp = dsa_to_port(ds, priv->info->cpu_port);

	return dsa_port_is_cpu(dp) ? dp : NULL;
}

/*
 * Move a user port to the CPU port of @conduit (port 5 on GMAC1 or port 6
 * on GMAC0). DSA has taken the port out of its bridge and will put it
 * back, moving the host addresses, so only the port matrix changes here,
 * and the largest MTU the port advertises follows the new conduit.
 */
static int rsw_port_change_conduit(struct dsa_switch *ds, int port,
				   struct net_device *conduit,
				   struct netlink_ext_ack *extack)
{
	struct net_device *user = dsa_to_port(ds, port)->user;
	int max_mtu = rsw_user_max_mtu(ds->priv, conduit);
	struct dsa_port *cpu_dp = conduit->dsa_ptr;
	struct rsw_priv *priv = ds->priv;
	u32 matrix;
	int err;

	if (netif_is_lag_master(conduit)) {
		NL_SET_ERR_MSG_MOD(extack, "A LAG as conduit is not supported");
		return -EOPNOTSUPP;
	}

	if (user->mtu > max_mtu) {
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "MTU %d is more than %s carries (%d)",
				       user->mtu, conduit->name, max_mtu);
		return -ERANGE;
	}

	matrix = priv->ports[port].enabled ? BIT(cpu_dp->index) : 0;
	err = rsw_rmw(priv, MT7530_PCR_P(port), PCR_MATRIX,
		      FIELD_PREP(PCR_MATRIX, matrix));
	if (!err)
		user->max_mtu = max_mtu;
	return err;
}

/* Trapped frames go to the lowest CPU port whose conduit is up */
static void rsw_conduit_state_change(struct dsa_switch *ds,
				     const struct net_device *conduit,
				     bool operational)
{
	struct dsa_port *cpu_dp = conduit->dsa_ptr;
	struct rsw_priv *priv = ds->priv;
	u32 val = 0;

	if (operational)
		priv->active_cpu_ports |= BIT(cpu_dp->index);
	else
		priv->active_cpu_ports &= ~BIT(cpu_dp->index);

	if (priv->active_cpu_ports)
		val = MFC_CPU_EN | FIELD_PREP(MFC_CPU_PORT,
					      __ffs(priv->active_cpu_ports));
	rsw_rmw(priv, MT7530_MFC, MFC_CPU_EN | MFC_CPU_PORT, val);
}

/* -- phylink ------------------------------------------------------------- */

static void rsw_phylink_get_caps(struct dsa_switch *ds, int port,
				 struct phylink_config *config)
{
	struct rsw_priv *priv = ds->priv;

	config->mac_capabilities = MAC_ASYM_PAUSE | MAC_SYM_PAUSE;
	priv->info->phylink_get_caps(ds, port, config);
}

static void rsw_mac_config(struct phylink_config *config, unsigned int mode,
			   const struct phylink_link_state *state)
{
	struct dsa_port *dp = dsa_phylink_to_port(config);
	struct rsw_priv *priv = dp->ds->priv;

	mutex_lock(&priv->reg_mutex);
	priv->ports[dp->index].interface = state->interface;
	if (priv->info->mac_config)
		priv->info->mac_config(priv, dp->index, state->interface);
	mutex_unlock(&priv->reg_mutex);
}

static void rsw_mac_link_down(struct phylink_config *config, unsigned int mode,
			      phy_interface_t interface)
{
	struct dsa_port *dp = dsa_phylink_to_port(config);
	struct rsw_priv *priv = dp->ds->priv;

	rsw_rmw(priv, MT7530_PMCR_P(dp->index), PMCR_LINK_SETTINGS, 0);
}

static void rsw_mac_link_up(struct phylink_config *config,
			    struct phy_device *phydev, unsigned int mode,
			    phy_interface_t interface, int speed, int duplex,
			    bool tx_pause, bool rx_pause)
{
	struct dsa_port *dp = dsa_phylink_to_port(config);
	struct rsw_priv *priv = dp->ds->priv;
	u32 pmcr = PMCR_MAC_TX_EN | PMCR_MAC_RX_EN | PMCR_FORCE_LNK;

	if (speed >= SPEED_1000)
		pmcr |= PMCR_FORCE_SPEED_1000;
	else if (speed == SPEED_100)
		pmcr |= PMCR_FORCE_SPEED_100;
	if (duplex == DUPLEX_FULL) {
		pmcr |= PMCR_FORCE_FDX;
		if (tx_pause)
			pmcr |= PMCR_FORCE_TX_FC;
		if (rx_pause)
			pmcr |= PMCR_FORCE_RX_FC;
	}

	/* LPI only where both ends negotiated EEE and tx-lpi is on */
	if (priv->info->has_eee && phydev && phydev->enable_tx_lpi) {
		if (speed == SPEED_1000)
			pmcr |= PMCR_FORCE_EEE1G;
		else if (speed == SPEED_100)
			pmcr |= PMCR_FORCE_EEE100;
		rsw_rmw(priv, MT7530_PMEEECR_P(dp->index),
			PMEEECR_LPI_THRESH | PMEEECR_LPI_MODE_EN,
			FIELD_PREP(PMEEECR_LPI_THRESH,
				   phydev->eee_cfg.tx_lpi_timer));
	}

	rsw_rmw(priv, MT7530_PMCR_P(dp->index), PMCR_LINK_SETTINGS, pmcr);
}

static const struct phylink_mac_ops rsw_phylink_mac_ops = {
	.mac_config = rsw_mac_config,
	.mac_link_down = rsw_mac_link_down,
	.mac_link_up = rsw_mac_link_up,
};

static const struct dsa_switch_ops rsw_switch_ops = {
	.get_tag_protocol = rsw_get_tag_protocol,
	.setup = rsw_setup,
	.teardown = rsw_teardown,
	.port_teardown = rsw_port_teardown,
	.preferred_default_local_cpu_port = rsw_preferred_default_local_cpu_port,
	.conduit_state_change = rsw_conduit_state_change,
	.port_change_conduit = rsw_port_change_conduit,
	.phylink_get_caps = rsw_phylink_get_caps,
	.port_enable = rsw_port_enable,
	.port_disable = rsw_port_disable,
	.port_change_mtu = rsw_port_change_mtu,
	.port_max_mtu = rsw_port_max_mtu,
	.get_strings = rsw_get_strings,
	.get_ethtool_stats = rsw_get_ethtool_stats,
	.get_sset_count = rsw_get_sset_count,
	.get_rmon_stats = rsw_get_rmon_stats,
	.get_pause_stats = rsw_get_pause_stats,
	.get_stats64 = rsw_get_stats64,
	.set_ageing_time = rsw_set_ageing_time,
	.port_bridge_join = rsw_port_bridge_join,
	.port_bridge_leave = rsw_port_bridge_leave,
	.port_stp_state_set = rsw_port_stp_state_set,
	.port_fast_age = rsw_port_fast_age,
	.port_pre_bridge_flags = rsw_port_pre_bridge_flags,
	.port_bridge_flags = rsw_port_bridge_flags,
	.port_mc_snooping = rsw_port_mc_snooping,
	.port_mc_fwd_offloaded = rsw_mc_fwd_offloaded,
	.port_vlan_filtering = rsw_port_vlan_filtering,
	.port_vlan_add = rsw_port_vlan_add,
	.port_vlan_del = rsw_port_vlan_del,
	.port_fdb_add = rsw_port_fdb_add,
	.port_fdb_del = rsw_port_fdb_del,
	.port_fdb_dump = rsw_port_fdb_dump,
	.port_mdb_add = rsw_port_mdb_add,
	.port_mdb_del = rsw_port_mdb_del,
	.port_mirror_add = rsw_port_mirror_add,
	.port_mirror_del = rsw_port_mirror_del,
	.cls_flower_add = rsw_cls_flower_add,
	.cls_flower_del = rsw_cls_flower_del,
	.cls_flower_stats = rsw_cls_flower_stats,
	.port_setup_tc = rsw_port_setup_tc,
	.get_mac_eee = rsw_get_mac_eee,
	.set_mac_eee = rsw_set_mac_eee,
};

/**
 * rsw_has_ports() - whether the switch's DT node has its ports node
 * @dev: the switch's device
 *
 * Return: true if it has, else false, the error said.
 */
bool rsw_has_ports(struct device *dev)
{
	struct device_node *ports;

	ports = of_get_child_by_name(dev->of_node, "ports");
	if (!ports)
		ports = of_get_child_by_name(dev->of_node, "ethernet-ports");
	if (!ports) {
		dev_err(dev, "ports missing\n");
		return false;
	}
	of_node_put(ports);

	return true;
}

/**
 * rsw_get_irq() - the switch's interrupt, if its DT node makes it an
 *	interrupt controller (of its PHYs' link changes)
 * @dev: the switch's device
 *
 * Return: the interrupt, 0 for none (the PHYs are polled) or a negative
 * error code.
 */
int rsw_get_irq(struct device *dev)
{
	struct device_node *np = dev->of_node;
	u32 cells;
	int irq;

	if (!of_property_read_bool(np, "interrupt-controller")) {
		dev_info(dev, "not an interrupt controller: PHYs are polled\n");
		return 0;
	}
	if (of_property_read_u32(np, "#interrupt-cells", &cells) || cells != 1) {
		dev_err(dev, "#interrupt-cells missing or not 1\n");
		return -EINVAL;
	}
	irq = of_irq_get(np, 0);
	if (irq == -EPROBE_DEFER)
		return irq;
	if (irq <= 0) {
		dev_err(dev, "interrupts missing or invalid: %d\n", irq);
		return irq ? irq : -EINVAL;
	}

	return irq;
}

/* -- registration ---------------------------------------------------------- */

/**
 * rsw_init() - set up a switch's driver state before registering it
 * @priv: the switch
 * @dev: its device
 * @info: the chip's data
 * @bus_ops: the front end's services
 * @regmap: the core's registers
 */
void rsw_init(struct rsw_priv *priv, struct device *dev,
	      const struct rsw_info *info, const struct rsw_bus_ops *bus_ops,
	      struct regmap *regmap)
{
	priv->dev = dev;
	priv->info = info;
	priv->bus_ops = bus_ops;
	priv->regmap = regmap;
	mutex_init(&priv->reg_mutex);
	spin_lock_init(&priv->stats_lock);
	xa_init(&priv->vlans);
	hash_init(priv->statics);
	INIT_DELAYED_WORK(&priv->stats_work, rsw_stats_work);

	priv->ds.dev = dev;
	priv->ds.num_ports = info->num_ports;
	priv->ds.priv = priv;
	priv->ds.ops = &rsw_switch_ops;
	priv->ds.phylink_mac_ops = &rsw_phylink_mac_ops;
}

/**
 * rsw_register() - register a switch with the DSA core
 * @priv: the switch, set up by rsw_init()
 *
 * Return: 0 or a negative error code.
 */
int rsw_register(struct rsw_priv *priv)
{
	return dsa_register_switch(&priv->ds);
}

/**
 * rsw_unregister() - unregister a switch
 * @priv: the switch
 */
void rsw_unregister(struct rsw_priv *priv)
{
	dsa_unregister_switch(&priv->ds);
	mutex_destroy(&priv->reg_mutex);
}

/**
 * rsw_shutdown() - quiesce a switch at system shutdown
 * @priv: the switch
 */
void rsw_shutdown(struct rsw_priv *priv)
{
	dsa_switch_shutdown(&priv->ds);
}

static int __init rsw_driver_init(void)
{
	int ret;

	ret = mdio_driver_register(&rsw_mdio_driver);
	if (ret)
		return ret;

	ret = platform_driver_register(&rsw_mmio_driver);
	if (ret)
		mdio_driver_unregister(&rsw_mdio_driver);

	return ret;
}
module_init(rsw_driver_init);

static void __exit rsw_driver_exit(void)
{
	platform_driver_unregister(&rsw_mmio_driver);
	mdio_driver_unregister(&rsw_mdio_driver);
}
module_exit(rsw_driver_exit);

MODULE_AUTHOR("Seed a6eb6a1b maintainers <maintainers@users.noreply.a-seed-a6eb6a1b.example>");
MODULE_DESCRIPTION("Ralink/MediaTek MT7621 and MT7620 built-in switches (DSA)");
MODULE_LICENSE("GPL");
