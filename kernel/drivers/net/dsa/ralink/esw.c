// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek embedded 100 Mbit switch (ESW) through DSA
 *
 * The switch of the MT7628/MT7688 and the RT5350: user ports 0-4 with
 * built-in 100 Mbit PHYs and port 6, wired to the frame engine (the CPU
 * port); port 5, an external MII on some SoCs, is not supported. (The
 * RT3050/RT3052's ESW has no per-VLAN untagging and no source says it has
 * the special tag this driver relies on.) Its registers are memory
 * mapped; its PHYs are reached through its PCR0/PCR1 registers.
 *
 * The switch has no port matrix: what a port reaches is what its VLANs
 * reach. Every user port classifies frames by its PVID alone (SGC2's
 * double tagging: a frame's own tag stays payload) and sends untagged
 * (POC2), so that its VLANs are private to the switch. Each user port has
 * a VLAN of its own, its tag_8021q standalone VID, with the port and the
 * CPU port as members: it is the port's PVID while the port is standalone
 * or not forwarding in a bridge, and what the CPU sends to the port with.
 * A VLAN-unaware bridge has a VLAN of its own too, its tag_8021q bridge
 * VID, with its forwarding ports and the CPU port as members: a port's
 * PVID while it forwards. The CPU learns a frame's source port from the
 * special tag (net/dsa/tag_mt7628.c).
 *
 * A VLAN-aware bridge is not offloaded: a port that classified frames by
 * their own tags would send tagged frames to the CPU without the special
 * tag (the switch marks only a tag it adds), and no other mark names the
 * port. Its ports stay in their own VLANs, as standalone ports, and the
 * bridge forwards between them in software (the tag driver leaves their
 * frames without offload_fwd_mark).
 */

#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/dsa/8021q.h>
#include <linux/etherdevice.h>
#include <linux/if_bridge.h>
#include <linux/io.h>
#include <linux/iopoll.h>
#include <linux/mdio.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/phy.h>
#include <linux/phylink.h>
#include <linux/platform_device.h>
#include <linux/reset.h>
#include <linux/unaligned.h>
#include <net/dsa.h>

#define ESW_ISR				0x00	/* write 1 to clear */
#define ESW_IMR				0x04	/* 1: masked */
#define  ESW_INT_PORT_ST_CHG		BIT(26)	/* a PHY's link changed */
#define ESW_PFC1			0x14
#define  ESW_PFC1_EN_VLAN		GENMASK(22, 16)	/* per port */
#define ESW_ATS				0x24	/* address table search */
#define  ESW_ATS_BEGIN			BIT(0)
#define  ESW_ATS_NEXT			BIT(1)
#define ESW_ATS0			0x28	/* the entry found */
#define  ESW_ATS0_SEARCH_RDY		BIT(0)
#define  ESW_ATS0_TABLE_END		BIT(1)
#define ESW_ATS1			0x2c	/* its address's bytes 4-5 */
#define ESW_ATS2			0x30	/* its address's bytes 0-3 */
#define ESW_WMAD0			0x34	/* write an entry */
#define  ESW_WMAD0_CMD			BIT(0)
#define  ESW_WMAD0_DONE			BIT(1)
#define ESW_WMAD1			0x38	/* its address's bytes 4-5 */
#define ESW_WMAD2			0x3c	/* its address's bytes 0-3 */
/* ATS0 and WMAD0 */
#define  ESW_AT_AGE			GENMASK(6, 4)
#define  ESW_AT_AGE_STATIC		7
#define  ESW_AT_AGE_INVALID		0
#define  ESW_AT_VIDX			GENMASK(10, 7)
#define  ESW_AT_PORTS			GENMASK(18, 12)
#define ESW_PVIDC(p)			(0x40 + 4 * ((p) / 2))
#define  ESW_PVID_BITS			12
#define ESW_VLANI(i)			(0x50 + 4 * ((i) / 2))
#define  ESW_VID_BITS			12
#define ESW_VMSC(i)			(0x70 + 4 * ((i) / 4))
#define  ESW_VMSC_BITS			8
#define ESW_SOCPC			0x8c
#define  ESW_SOCPC_DISUN2CPU		GENMASK(6, 0)	/* per source port */
#define  ESW_SOCPC_DISMC2CPU		GENMASK(14, 8)
#define  ESW_SOCPC_DISBC2CPU		GENMASK(22, 16)
#define ESW_POC0			0x90
#define  ESW_POC0_DIS_PORT		GENMASK(29, 23)	/* per port */
#define ESW_POC2			0x98
#define  ESW_POC2_UNTAG_EN		GENMASK(6, 0)	/* per port */
#define  ESW_POC2_PER_VLAN_UNTAG_EN	BIT(15)
#define ESW_SGC				0x9c
#define  ESW_SGC_AGING_INTERVAL		GENMASK(3, 0)
/* The one value of the field a source gives (vendor SDK): 300 s */
#define  ESW_SGC_AGING_300S		1
#define ESW_PCR0			0xc0
#define  ESW_PCR0_WT_DATA		GENMASK(31, 16)
#define  ESW_PCR0_RD_PHY_CMD		BIT(14)
#define  ESW_PCR0_WT_PHY_CMD		BIT(13)
#define  ESW_PCR0_PHY_REG		GENMASK(12, 8)
#define  ESW_PCR0_PHY_ADDR		GENMASK(4, 0)
#define ESW_PCR1			0xc4	/* flags clear when read */
#define  ESW_PCR1_RD_DATA		GENMASK(31, 16)
#define  ESW_PCR1_RD_RDY		BIT(1)
#define  ESW_PCR1_WT_DONE		BIT(0)
#define ESW_SGC2			0xe4
#define  ESW_SGC2_SPECIAL_TAG_EN	BIT(23)
#define  ESW_SGC2_TX_CPU_TPID		GENMASK(22, 16)	/* per port */
#define  ESW_SGC2_DOUBLE_TAG_EN		GENMASK(6, 0)	/* per port */
#define ESW_PXPC(p)			(0xe8 + 4 * (p))	/* received */
#define ESW_PXTPC(p)			(0x150 + 4 * (p))	/* sent */
#define  ESW_PC_GOOD			GENMASK(15, 0)
#define  ESW_PC_BAD			GENMASK(31, 16)

#define ESW_NUM_PORTS			7
#define ESW_NUM_PHYS			5
#define ESW_CPU_PORT			6
#define ESW_USER_PORTS			GENMASK(ESW_NUM_PHYS - 1, 0)
#define ESW_NUM_VLANS			16
/* How long reset lines are held, and how long the PHYs take after */
#define ESW_RESET_US			1000
#define ESW_MDIO_TIMEOUT_US		5000
/* The address table: its size, how long a search or a write may take */
#define ESW_TABLE_SIZE			1024
#define ESW_TABLE_TIMEOUT_US		20000
/*
 * The frame counters are 16 bits wide: read often enough that none wraps
 * twice in between (a 100 Mbit/s port takes 148,809 minimal frames a
 * second, 65,536 in 0.44 s).
 */
#define ESW_MIB_POLL			(HZ / 4)

/**
 * struct resw_vlan - one of the switch's 16 VLAN table entries
 * @vid: the VID (0: the entry is free)
 * @ports: the user ports that use the entry (standalone: the one port;
 *	bridge: its ports, forwarding or not)
 * @bridge: a bridge's entry, whose members are its forwarding ports
 */
struct resw_vlan {
	u16 vid;
	u8 ports;
	bool bridge;
};

/* The frame counts of a port, in resw_mib_names' order */
enum {
	RESW_MIB_RX_GOOD,
	RESW_MIB_RX_BAD,
	RESW_MIB_TX_GOOD,
	RESW_MIB_TX_BAD,
	RESW_MIB_NUM,
};

/**
 * struct resw_mib - a user port's frame counts
 * @count: received good, received bad, sent good, sent bad, 64-bit
 * @last: the hardware's 16-bit counters when last read
 */
struct resw_mib {
	u64 count[RESW_MIB_NUM];
	u16 last[RESW_MIB_NUM];
};

static const char resw_mib_names[RESW_MIB_NUM][ETH_GSTRING_LEN] = {
	[RESW_MIB_RX_GOOD] = "rx_good_frames",
	[RESW_MIB_RX_BAD] = "rx_bad_frames",
	[RESW_MIB_TX_GOOD] = "tx_good_frames",
	[RESW_MIB_TX_BAD] = "tx_bad_frames",
};

/**
 * struct resw_static - a static entry of the address table
 * @list: in the switch's list
 * @addr: the MAC address
 * @vidx: its VLAN table entry
 * @ports: the ports it goes to
 */
struct resw_static {
	struct list_head list;
	u8 addr[ETH_ALEN];
	u8 vidx;
	u8 ports;
};

/**
 * struct resw_priv - the driver's state of one switch
 * @ds: the DSA switch
 * @dev: the platform device's device
 * @base: the registers
 * @rst_esw: the switch's reset line
 * @rst_ephy: the PHYs' reset line
 * @mdio: the PHYs' bus (PCR0/PCR1)
 * @lock: serialises the tables and their shadows below
 * @vlans: the VLAN table as the driver keeps it
 * @statics: the static entries of the address table (FDB and MDB)
 * @bridge_vlan: per port, the entry of its bridge, or -1
 * @forwarding: the user ports in the STP forwarding state
 * @vlan_aware: the user ports in a VLAN-aware bridge (not offloaded)
 * @host_uc: the user ports whose netdevs want unknown unicast
 * @mib_lock: serialises the frame counts
 * @mib: the user ports' frame counts
 * @mib_work: reads the counters every ESW_MIB_POLL
 * @irq: the switch's interrupt (PORT_ST_CHG), 0 if it has none
 */
struct resw_priv {
	struct dsa_switch ds;
	struct device *dev;
	void __iomem *base;
	struct reset_control *rst_esw;
	struct reset_control *rst_ephy;
	struct mii_bus *mdio;
	struct mutex lock;	/* the VLAN and address tables */
	struct resw_vlan vlans[ESW_NUM_VLANS];
	struct list_head statics;
	int bridge_vlan[ESW_NUM_PORTS];
	u8 forwarding;
	u8 vlan_aware;
	u8 host_uc;
	spinlock_t mib_lock;	/* the frame counts */
	struct resw_mib mib[ESW_NUM_PHYS];
	struct delayed_work mib_work;
	int irq;
};

static u32 resw_read(struct resw_priv *priv, unsigned int reg)
{
	return readl(priv->base + reg);
}

static void resw_write(struct resw_priv *priv, unsigned int reg, u32 val)
{
	writel(val, priv->base + reg);
}

static void resw_rmw(struct resw_priv *priv, unsigned int reg, u32 mask,
		     u32 set)
{
	resw_write(priv, reg, (resw_read(priv, reg) & ~mask) | set);
}

/* A field of @bits bits, the @n-th of its register, packed from bit 0 */
static void resw_write_field(struct resw_priv *priv, unsigned int reg,
			     unsigned int n, unsigned int bits, u32 val)
{
	unsigned int shift = (n % (32 / bits)) * bits;

	resw_rmw(priv, reg, GENMASK(bits - 1, 0) << shift, val << shift);
}

/* -- the PHYs ----------------------------------------------------------- */

/*
 * One access: PCR0 gets the command, PCR1 the result and its done flag
 * @done. A stale flag of an earlier access is cleared by reading PCR1.
 */
static int resw_mdio_access(struct resw_priv *priv, u32 pcr0, u32 done,
			    u32 *pcr1)
{
	int err;

	resw_read(priv, ESW_PCR1);
	resw_write(priv, ESW_PCR0, pcr0);
	err = readl_poll_timeout(priv->base + ESW_PCR1, *pcr1, *pcr1 & done,
				 10, ESW_MDIO_TIMEOUT_US);
	if (err)
		dev_err_ratelimited(priv->dev, "PHY %lu access timed out\n",
				    FIELD_GET(ESW_PCR0_PHY_ADDR, pcr0));
	return err;
}

static int resw_mdio_read(struct mii_bus *bus, int addr, int regnum)
{
	u32 val;
	int err;

	err = resw_mdio_access(bus->priv, ESW_PCR0_RD_PHY_CMD |
			       FIELD_PREP(ESW_PCR0_PHY_REG, regnum) |
			       FIELD_PREP(ESW_PCR0_PHY_ADDR, addr),
			       ESW_PCR1_RD_RDY, &val);
	return err ? err : FIELD_GET(ESW_PCR1_RD_DATA, val);
}

static int resw_mdio_write(struct mii_bus *bus, int addr, int regnum,
			   u16 data)
{
	u32 val;

	return resw_mdio_access(bus->priv, ESW_PCR0_WT_PHY_CMD |
				FIELD_PREP(ESW_PCR0_WT_DATA, data) |
				FIELD_PREP(ESW_PCR0_PHY_REG, regnum) |
				FIELD_PREP(ESW_PCR0_PHY_ADDR, addr),
				ESW_PCR1_WT_DONE, &val);
}

static int resw_mdio_register(struct resw_priv *priv)
{
	struct mii_bus *bus;

	bus = devm_mdiobus_alloc(priv->dev);
	if (!bus)
		return -ENOMEM;

	bus->name = "ralink-esw";
	snprintf(bus->id, MII_BUS_ID_SIZE, "%s-mii", dev_name(priv->dev));
	bus->priv = priv;
	bus->read = resw_mdio_read;
	bus->write = resw_mdio_write;
	bus->parent = priv->dev;
	bus->phy_mask = ~ESW_USER_PORTS;
	priv->mdio = bus;

	return devm_mdiobus_register(priv->dev, bus);
}

/* -- VLANs -------------------------------------------------------------- */

/* The VLAN table entry of @vid, or -ENOENT */
static int resw_vlan_find(struct resw_priv *priv, u16 vid)
{
	int i;

	for (i = 0; i < ESW_NUM_VLANS; i++)
		if (priv->vlans[i].vid == vid)
			return i;
	return -ENOENT;
}

static int resw_vlan_alloc(struct resw_priv *priv, u16 vid, bool bridge)
{
	int i = resw_vlan_find(priv, vid);

	if (i >= 0)
		return i;
	for (i = 0; i < ESW_NUM_VLANS; i++) {
		if (!priv->vlans[i].vid) {
			priv->vlans[i].vid = vid;
			priv->vlans[i].ports = 0;
			priv->vlans[i].bridge = bridge;
			return i;
		}
	}
	return -ENOSPC;
}

/*
 * Which ports' unknown unicast reaches the CPU: SOCPC's DISUN2CPU, one bit
 * per source port (the field names' reading: the map has a bit for each
 * of ports 0-6, the CPU the one destination). A port's unknown unicast
 * reaches it while its netdev is promiscuous (a bridge port is) or while
 * its bridge is VLAN-aware, which the CPU forwards; its own addresses
 * reach it through their static entries (FDB isolation: the port's VLAN).
 * Multicast and broadcast always do (DISMC2CPU and DISBC2CPU for the CPU
 * port alone): the stack filters multicast, as with mainline's MT7530
 * driver, and a host port that has joined no group still gets a group's
 * frames, as the forwarding selftests' hosts expect. Nothing goes back
 * to the CPU port.
 */
static void resw_host_flood_sync(struct resw_priv *priv)
{
	u8 uc = priv->host_uc | priv->vlan_aware;

	lockdep_assert_held(&priv->lock);

	resw_rmw(priv, ESW_SOCPC, ESW_SOCPC_DISUN2CPU | ESW_SOCPC_DISMC2CPU |
		 ESW_SOCPC_DISBC2CPU,
		 FIELD_PREP(ESW_SOCPC_DISUN2CPU,
			    BIT(ESW_CPU_PORT) | (ESW_USER_PORTS & ~uc)) |
		 FIELD_PREP(ESW_SOCPC_DISMC2CPU, BIT(ESW_CPU_PORT)) |
		 FIELD_PREP(ESW_SOCPC_DISBC2CPU, BIT(ESW_CPU_PORT)));
}

/*
 * Write the VLAN table and the PVIDs from the shadow: a bridge's entry
 * has its forwarding ports, a port forwards in its bridge's entry or else
 * stays in its own, where only the CPU hears it (BPDUs included).
 */
static void resw_vlan_sync(struct resw_priv *priv)
{
	u8 offloaded = priv->forwarding & ~priv->vlan_aware;
	struct dsa_switch *ds = &priv->ds;
	struct dsa_port *dp;
	int i;

	lockdep_assert_held(&priv->lock);

	for (i = 0; i < ESW_NUM_VLANS; i++) {
		struct resw_vlan *v = &priv->vlans[i];
		u8 members = 0;

		if (v->vid && v->bridge)
			members = BIT(ESW_CPU_PORT) | (v->ports & offloaded);
		else if (v->vid)
			members = BIT(ESW_CPU_PORT) | v->ports;
		resw_write_field(priv, ESW_VLANI(i), i, ESW_VID_BITS, v->vid);
		resw_write_field(priv, ESW_VMSC(i), i, ESW_VMSC_BITS, members);
	}

	dsa_switch_for_each_user_port(dp, ds) {
		int b = priv->bridge_vlan[dp->index];
		u16 pvid = dsa_tag_8021q_standalone_vid(dp);

		if (b >= 0 && (offloaded & BIT(dp->index)))
			pvid = priv->vlans[b].vid;
		resw_write_field(priv, ESW_PVIDC(dp->index), dp->index,
				 ESW_PVID_BITS, pvid);
	}
}

/* -- the address table -------------------------------------------------- */

/*
 * Write the entry of @addr in VLAN table entry @vidx: to @ports, static
 * or (@age 0) removed. The address is written big-endian across WMAD2
 * (bytes 0-3) and WMAD1 (bytes 4-5), as the vendor SDK's `switch add`.
 */
static int resw_at_write(struct resw_priv *priv, const u8 *addr, int vidx,
			 u8 ports, u8 age)
{
	u32 val;
	int err;

	resw_write(priv, ESW_WMAD2, get_unaligned_be32(addr));
	resw_write(priv, ESW_WMAD1, get_unaligned_be16(addr + 4));
	resw_write(priv, ESW_WMAD0, ESW_WMAD0_CMD |
		   FIELD_PREP(ESW_AT_PORTS, ports) |
		   FIELD_PREP(ESW_AT_VIDX, vidx) | FIELD_PREP(ESW_AT_AGE, age));
	err = readl_poll_timeout(priv->base + ESW_WMAD0, val,
				 val & ESW_WMAD0_DONE, 10,
				 ESW_TABLE_TIMEOUT_US);
	if (err)
		dev_err(priv->dev, "address table write timed out\n");
	return err;
}

/**
 * struct resw_at_entry - an entry of the address table, as a search shows
 * @addr: its MAC address
 * @vidx: its VLAN table entry
 * @ports: the ports it goes to
 * @age: its age field: ESW_AT_AGE_STATIC, or what is left of its ageing
 */
struct resw_at_entry {
	u8 addr[ETH_ALEN];
	int vidx;
	u8 ports;
	u8 age;
};

/*
 * The next entry of a search started (@next false) or going on: 1 with
 * @e filled, 0 at the table's end, or an error.
 */
static int resw_at_search(struct resw_priv *priv, bool next,
			  struct resw_at_entry *e)
{
	u32 val;
	int err;

	resw_write(priv, ESW_ATS, next ? ESW_ATS_NEXT : ESW_ATS_BEGIN);
	err = readl_poll_timeout(priv->base + ESW_ATS0, val,
				 val & (ESW_ATS0_SEARCH_RDY |
					ESW_ATS0_TABLE_END), 10,
				 ESW_TABLE_TIMEOUT_US);
	if (err) {
		dev_err(priv->dev, "address table search timed out\n");
		return err;
	}
	if (!(val & ESW_ATS0_SEARCH_RDY) ||
	    FIELD_GET(ESW_AT_AGE, val) == ESW_AT_AGE_INVALID)
		return 0;
	e->vidx = FIELD_GET(ESW_AT_VIDX, val);
	e->ports = FIELD_GET(ESW_AT_PORTS, val);
	e->age = FIELD_GET(ESW_AT_AGE, val);
	put_unaligned_be32(resw_read(priv, ESW_ATS2), e->addr);
	put_unaligned_be16(resw_read(priv, ESW_ATS1), e->addr + 4);
	return 1;
}

/*
 * Call @fn on every entry of the table. A search shows whether the entry
 * it found is the last one (TABLE_END with SEARCH_RDY): the walk stops
 * there, or after ESW_TABLE_SIZE entries whatever the switch says.
 */
static int resw_at_walk(struct resw_priv *priv,
			int (*fn)(struct resw_priv *priv,
				  const struct resw_at_entry *e, void *data),
			void *data)
{
	struct resw_at_entry e;
	int i, err;

	for (i = 0; i < ESW_TABLE_SIZE; i++) {
		err = resw_at_search(priv, i > 0, &e);
		if (err <= 0)
			return err;
		err = fn(priv, &e, data);
		if (err)
			return err;
		if (resw_read(priv, ESW_ATS0) & ESW_ATS0_TABLE_END)
			return 0;
	}
	return 0;
}

static struct resw_static *resw_static_find(struct resw_priv *priv,
					    const u8 *addr, int vidx)
{
	struct resw_static *st;

	list_for_each_entry(st, &priv->statics, list)
		if (st->vidx == vidx && ether_addr_equal(st->addr, addr))
			return st;
	return NULL;
}

/*
 * Add @port to (@add) or remove it from the static entry of @addr in
 * @vidx. A unicast address goes to one port: adding moves it.
 */
static int resw_static_update(struct resw_priv *priv, const u8 *addr,
			      int vidx, int port, bool add)
{
	struct resw_static *st = resw_static_find(priv, addr, vidx);
	u8 ports;
	int err;

	lockdep_assert_held(&priv->lock);

	if (!st && !add)
		return 0;
	if (!st) {
		st = kzalloc(sizeof(*st), GFP_KERNEL);
		if (!st)
			return -ENOMEM;
		ether_addr_copy(st->addr, addr);
		st->vidx = vidx;
		list_add_tail(&st->list, &priv->statics);
	}
	if (!add)
		ports = st->ports & ~BIT(port);
	else if (is_multicast_ether_addr(addr))
		ports = st->ports | BIT(port);
	else
		ports = BIT(port);

	err = resw_at_write(priv, addr, vidx, ports,
			    ports ? ESW_AT_AGE_STATIC : ESW_AT_AGE_INVALID);
	if (err && !st->ports) {
		list_del(&st->list);
		kfree(st);
		return err;
	}
	if (err)
		return err;
	st->ports = ports;
	if (!ports) {
		list_del(&st->list);
		kfree(st);
	}
	return 0;
}

/* Remove every static entry of VLAN table entry @vidx (no longer used) */
static void resw_static_flush(struct resw_priv *priv, int vidx)
{
	struct resw_static *st, *tmp;

	list_for_each_entry_safe(st, tmp, &priv->statics, list) {
		if (st->vidx != vidx)
			continue;
		resw_at_write(priv, st->addr, vidx, 0, ESW_AT_AGE_INVALID);
		list_del(&st->list);
		kfree(st);
	}
}

/* The VLAN table entry of an FDB database, or an error */
static int resw_db_vlan(struct resw_priv *priv, struct dsa_db db)
{
	switch (db.type) {
	case DSA_DB_PORT:
		return resw_vlan_find(priv, dsa_tag_8021q_standalone_vid(db.dp));
	case DSA_DB_BRIDGE:
		return resw_vlan_find(priv,
				      dsa_tag_8021q_bridge_vid(db.bridge.num));
	default:
		return -EOPNOTSUPP;
	}
}

/* The VLAN table entry @port's frames are in now */
static int resw_port_vlan(struct resw_priv *priv, int port)
{
	struct dsa_port *dp = dsa_to_port(&priv->ds, port);

	if (priv->bridge_vlan[port] >= 0)
		return priv->bridge_vlan[port];
	return resw_vlan_find(priv, dsa_tag_8021q_standalone_vid(dp));
}

/* -- frame counters ----------------------------------------------------- */

/* Add what port @port's counters counted since they were last read */
static void resw_mib_update(struct resw_priv *priv, int port)
{
	struct resw_mib *m = &priv->mib[port];
	u32 rx = resw_read(priv, ESW_PXPC(port));
	u32 tx = resw_read(priv, ESW_PXTPC(port));
	u16 now[RESW_MIB_NUM] = {
		[RESW_MIB_RX_GOOD] = FIELD_GET(ESW_PC_GOOD, rx),
		[RESW_MIB_RX_BAD] = FIELD_GET(ESW_PC_BAD, rx),
		[RESW_MIB_TX_GOOD] = FIELD_GET(ESW_PC_GOOD, tx),
		[RESW_MIB_TX_BAD] = FIELD_GET(ESW_PC_BAD, tx),
	};
	int i;

	lockdep_assert_held(&priv->mib_lock);

	for (i = 0; i < ARRAY_SIZE(now); i++) {
		m->count[i] += (u16)(now[i] - m->last[i]);
		m->last[i] = now[i];
	}
}

static void resw_mib_work(struct work_struct *work)
{
	struct resw_priv *priv = container_of(work, struct resw_priv,
					      mib_work.work);
	struct dsa_port *dp;

	spin_lock_bh(&priv->mib_lock);
	dsa_switch_for_each_user_port(dp, &priv->ds)
		resw_mib_update(priv, dp->index);
	spin_unlock_bh(&priv->mib_lock);
	schedule_delayed_work(&priv->mib_work, ESW_MIB_POLL);
}

static int resw_get_sset_count(struct dsa_switch *ds, int port, int sset)
{
	if (sset != ETH_SS_STATS || port >= ESW_NUM_PHYS)
		return 0;
	return ARRAY_SIZE(resw_mib_names);
}

static void resw_get_strings(struct dsa_switch *ds, int port, u32 stringset,
			     u8 *data)
{
	int i;

	if (stringset != ETH_SS_STATS || port >= ESW_NUM_PHYS)
		return;
	for (i = 0; i < ARRAY_SIZE(resw_mib_names); i++)
		ethtool_puts(&data, resw_mib_names[i]);
}

static void resw_get_ethtool_stats(struct dsa_switch *ds, int port,
				   u64 *data)
{
	struct resw_priv *priv = ds->priv;

	if (port >= ESW_NUM_PHYS)
		return;
	spin_lock_bh(&priv->mib_lock);
	resw_mib_update(priv, port);
	memcpy(data, priv->mib[port].count, sizeof(priv->mib[port].count));
	spin_unlock_bh(&priv->mib_lock);
}

/*
 * The IEEE 802.3 MAC counters the switch has: frames received and sent
 * without error. (What it counts as bad is not known beyond "bad": no
 * standard counter is derived from it.)
 */
static void resw_get_eth_mac_stats(struct dsa_switch *ds, int port,
				   struct ethtool_eth_mac_stats *mac_stats)
{
	struct resw_priv *priv = ds->priv;
	const u64 *count;

	if (port >= ESW_NUM_PHYS)
		return;
	count = priv->mib[port].count;
	spin_lock_bh(&priv->mib_lock);
	resw_mib_update(priv, port);
	mac_stats->FramesReceivedOK = count[RESW_MIB_RX_GOOD];
	mac_stats->FramesTransmittedOK = count[RESW_MIB_TX_GOOD];
	spin_unlock_bh(&priv->mib_lock);
}

/* -- the link interrupt ------------------------------------------------- */

/*
 * PORT_ST_CHG says that a PHY's link changed, not which: each user port's
 * PHY state machine runs at once rather than at its next poll.
 */
static irqreturn_t resw_irq_thread(int irq, void *dev_id)
{
	struct resw_priv *priv = dev_id;
	struct phy_device *phydev;
	u32 isr;
	int i;

	isr = resw_read(priv, ESW_ISR) & ESW_INT_PORT_ST_CHG;
	if (!isr)
		return IRQ_NONE;
	resw_write(priv, ESW_ISR, isr);

	/* The PHYs of our bus outlive the interrupt (freed in teardown) */
	for (i = 0; i < ESW_NUM_PHYS; i++) {
		phydev = mdiobus_get_phy(priv->mdio, i);
		if (phydev)
			phy_trigger_machine(phydev);
	}
	return IRQ_HANDLED;
}

static int resw_irq_setup(struct resw_priv *priv)
{
	int err;

	if (!priv->irq)
		return 0;
	resw_write(priv, ESW_IMR, ~0);
	resw_write(priv, ESW_ISR, ~0);
	err = request_threaded_irq(priv->irq, NULL, resw_irq_thread,
				   IRQF_ONESHOT, dev_name(priv->dev), priv);
	if (err)
		return dev_err_probe(priv->dev, err, "no interrupt\n");
	resw_write(priv, ESW_IMR, ~ESW_INT_PORT_ST_CHG);
	return 0;
}

/* Masked and freed before the ports go: the handler walks them */
static void resw_irq_teardown(struct resw_priv *priv)
{
	if (!priv->irq)
		return;
	resw_write(priv, ESW_IMR, ~0);
	free_irq(priv->irq, priv);
}

/* -- DSA ---------------------------------------------------------------- */

static enum dsa_tag_protocol resw_get_tag_protocol(struct dsa_switch *ds,
						   int port,
						   enum dsa_tag_protocol mp)
{
	return DSA_TAG_PROTO_MT7628;
}

static int resw_setup(struct dsa_switch *ds)
{
	struct resw_priv *priv = ds->priv;
	struct dsa_port *dp;
	u8 users = 0;
	int i;

	dsa_switch_for_each_user_port(dp, ds) {
		if (dp->index >= ESW_NUM_PHYS) {
			dev_err(ds->dev, "%pOF: \"reg\" %d: not a front port\n",
				dp->dn, dp->index);
			return -EINVAL;
		}
		users |= BIT(dp->index);
	}
	dsa_switch_for_each_cpu_port(dp, ds) {
		if (dp->index != ESW_CPU_PORT) {
			dev_err(ds->dev, "%pOF: \"reg\" %d: the CPU port is port %d\n",
				dp->dn, dp->index, ESW_CPU_PORT);
			return -EINVAL;
		}
	}

	/* Every port off until DSA enables it; nothing forwards yet */
	resw_write(priv, ESW_POC0, ESW_POC0_DIS_PORT);
	resw_rmw(priv, ESW_PFC1, 0, ESW_PFC1_EN_VLAN);
	resw_write(priv, ESW_SGC2, ESW_SGC2_SPECIAL_TAG_EN |
		   FIELD_PREP(ESW_SGC2_TX_CPU_TPID, BIT(ESW_CPU_PORT)) |
		   FIELD_PREP(ESW_SGC2_DOUBLE_TAG_EN, ESW_USER_PORTS));
	resw_rmw(priv, ESW_POC2, ESW_POC2_UNTAG_EN |
		 ESW_POC2_PER_VLAN_UNTAG_EN,
		 FIELD_PREP(ESW_POC2_UNTAG_EN, ESW_USER_PORTS));
	/*
	 * The address table ages learned entries after 300 s, the one
	 * interval a source gives. No other is known, so the driver has no
	 * .set_ageing_time: DSA then leaves a bridge's ageing time to the
	 * bridge's own table, as for other switches whose ageing cannot be
	 * set, rather than refusing ports to bridges with another one.
	 */
	resw_rmw(priv, ESW_SGC, ESW_SGC_AGING_INTERVAL,
		 FIELD_PREP(ESW_SGC_AGING_INTERVAL, ESW_SGC_AGING_300S));

	mutex_lock(&priv->lock);
	memset(priv->vlans, 0, sizeof(priv->vlans));
	for (i = 0; i < ESW_NUM_PORTS; i++)
		priv->bridge_vlan[i] = -1;
	priv->forwarding = 0;
	priv->vlan_aware = 0;
	priv->host_uc = 0;
	resw_host_flood_sync(priv);
	dsa_switch_for_each_user_port(dp, ds) {
		int v = resw_vlan_alloc(priv, dsa_tag_8021q_standalone_vid(dp),
					false);

		priv->vlans[v].ports = BIT(dp->index);
	}
	resw_vlan_sync(priv);
	mutex_unlock(&priv->lock);

	ds->max_num_bridges = min(ESW_NUM_VLANS - hweight8(users),
				  DSA_TAG_8021Q_MAX_NUM_BRIDGES);

	/* The counters count from the reset in probe, as the counts do */
	spin_lock_bh(&priv->mib_lock);
	memset(priv->mib, 0, sizeof(priv->mib));
	spin_unlock_bh(&priv->mib_lock);
	schedule_delayed_work(&priv->mib_work, ESW_MIB_POLL);

	return resw_irq_setup(priv);
}

static void resw_phylink_get_caps(struct dsa_switch *ds, int port,
				  struct phylink_config *config)
{
	config->mac_capabilities = MAC_ASYM_PAUSE | MAC_SYM_PAUSE |
				   MAC_10 | MAC_100;
	if (port == ESW_CPU_PORT)
		config->mac_capabilities |= MAC_1000FD;
	__set_bit(PHY_INTERFACE_MODE_INTERNAL, config->supported_interfaces);
	/* What the PHY driver of a port without a phy-mode asks for */
	if (port < ESW_NUM_PHYS)
		__set_bit(PHY_INTERFACE_MODE_GMII,
			  config->supported_interfaces);
}

/*
 * The MACs of the user ports follow what their PHYs negotiate, and the
 * CPU port runs at 1 Gbit/s: nothing to configure.
 */
static void resw_mac_config(struct phylink_config *config, unsigned int mode,
			    const struct phylink_link_state *state)
{
}

static void resw_mac_link_down(struct phylink_config *config,
			       unsigned int mode, phy_interface_t interface)
{
}

static void resw_mac_link_up(struct phylink_config *config,
			     struct phy_device *phydev, unsigned int mode,
			     phy_interface_t interface, int speed, int duplex,
			     bool tx_pause, bool rx_pause)
{
}

static int resw_port_enable(struct dsa_switch *ds, int port,
			    struct phy_device *phy)
{
	struct resw_priv *priv = ds->priv;

	resw_rmw(priv, ESW_POC0, FIELD_PREP(ESW_POC0_DIS_PORT, BIT(port)), 0);
	return 0;
}

static void resw_port_disable(struct dsa_switch *ds, int port)
{
	struct resw_priv *priv = ds->priv;

	resw_rmw(priv, ESW_POC0, 0, FIELD_PREP(ESW_POC0_DIS_PORT, BIT(port)));
}

/*
 * The switch learns on every port and floods to every member of a VLAN:
 * no per-port control of either is known. Nor has it a port matrix to
 * isolate a port or send frames back where they came from, nor an
 * unknown-source drop or trap to lock a port. The bridge may turn on
 * what is always on; anything else is refused by name.
 */
static int resw_port_pre_bridge_flags(struct dsa_switch *ds, int port,
				      struct switchdev_brport_flags flags,
				      struct netlink_ext_ack *extack)
{
	const unsigned long always = BR_LEARNING | BR_FLOOD | BR_MCAST_FLOOD |
				     BR_BCAST_FLOOD;
	unsigned long on = flags.mask & flags.val;

	if (flags.mask & ~flags.val & BR_LEARNING) {
		NL_SET_ERR_MSG_MOD(extack,
				   "the switch cannot turn learning off");
		return -EINVAL;
	}
	if (flags.mask & ~flags.val & always) {
		NL_SET_ERR_MSG_MOD(extack, "the switch cannot turn flooding off");
		return -EINVAL;
	}
	if (on & (BR_PORT_LOCKED | BR_PORT_MAB)) {
		NL_SET_ERR_MSG_MOD(extack, "the switch cannot lock a port");
		return -EINVAL;
	}
	if (on & BR_ISOLATED) {
		NL_SET_ERR_MSG_MOD(extack, "the switch cannot isolate a port");
		return -EINVAL;
	}
	if (on & BR_HAIRPIN_MODE) {
		NL_SET_ERR_MSG_MOD(extack,
				   "the switch cannot send frames back to their port");
		return -EINVAL;
	}
	if (on & ~always) {
		NL_SET_ERR_MSG_MOD(extack, "the switch cannot offload this flag");
		return -EINVAL;
	}
	return 0;
}

static void resw_port_stp_state_set(struct dsa_switch *ds, int port, u8 state)
{
	struct resw_priv *priv = ds->priv;

	mutex_lock(&priv->lock);
	if (state == BR_STATE_FORWARDING)
		priv->forwarding |= BIT(port);
	else
		priv->forwarding &= ~BIT(port);
	resw_vlan_sync(priv);
	mutex_unlock(&priv->lock);
}

static int resw_port_bridge_join(struct dsa_switch *ds, int port,
				 struct dsa_bridge bridge,
				 bool *tx_fwd_offload,
				 struct netlink_ext_ack *extack)
{
	struct resw_priv *priv = ds->priv;
	int v;

	mutex_lock(&priv->lock);
	v = resw_vlan_alloc(priv, dsa_tag_8021q_bridge_vid(bridge.num), true);
	if (v < 0) {
		mutex_unlock(&priv->lock);
		NL_SET_ERR_MSG_MOD(extack, "No free VLAN entry for the bridge");
		return v;
	}
	priv->vlans[v].ports |= BIT(port);
	priv->bridge_vlan[port] = v;
	resw_vlan_sync(priv);
	mutex_unlock(&priv->lock);

	return 0;
}

static void resw_port_bridge_leave(struct dsa_switch *ds, int port,
				   struct dsa_bridge bridge)
{
	struct resw_priv *priv = ds->priv;
	int v;

	mutex_lock(&priv->lock);
	v = priv->bridge_vlan[port];
	priv->vlan_aware &= ~BIT(port);
	resw_host_flood_sync(priv);
	if (v >= 0) {
		priv->vlans[v].ports &= ~BIT(port);
		if (!priv->vlans[v].ports) {
			resw_static_flush(priv, v);
			priv->vlans[v].vid = 0;
			priv->vlans[v].bridge = false;
		}
		priv->bridge_vlan[port] = -1;
	}
	resw_vlan_sync(priv);
	mutex_unlock(&priv->lock);
}

/* A VLAN-aware bridge's ports go back to their own VLANs (see above) */
static int resw_port_vlan_filtering(struct dsa_switch *ds, int port,
				    bool vlan_filtering,
				    struct netlink_ext_ack *extack)
{
	struct resw_priv *priv = ds->priv;

	mutex_lock(&priv->lock);
	if (vlan_filtering)
		priv->vlan_aware |= BIT(port);
	else
		priv->vlan_aware &= ~BIT(port);
	resw_vlan_sync(priv);
	resw_host_flood_sync(priv);
	mutex_unlock(&priv->lock);
	return 0;
}

static void resw_port_set_host_flood(struct dsa_switch *ds, int port, bool uc,
				     bool mc)
{
	struct resw_priv *priv = ds->priv;

	mutex_lock(&priv->lock);
	if (uc)
		priv->host_uc |= BIT(port);
	else
		priv->host_uc &= ~BIT(port);
	resw_host_flood_sync(priv);
	mutex_unlock(&priv->lock);
}

/*
 * The VLANs of a VLAN-aware bridge, and a standalone port's VLAN uppers
 * (DSA adds those when a port filters VLANs): nothing for the switch to
 * do. A VLAN-aware bridge filters and forwards in software, and every tag
 * a port receives, of any VID, stays payload under double tagging.
 */
static int resw_port_vlan_add(struct dsa_switch *ds, int port,
			      const struct switchdev_obj_port_vlan *vlan,
			      struct netlink_ext_ack *extack)
{
	return 0;
}

static int resw_port_vlan_del(struct dsa_switch *ds, int port,
			      const struct switchdev_obj_port_vlan *vlan)
{
	return 0;
}

static int resw_port_fdb_add(struct dsa_switch *ds, int port,
			     const unsigned char *addr, u16 vid,
			     struct dsa_db db)
{
	struct resw_priv *priv = ds->priv;
	int vidx, err;

	/*
	 * An entry of one VLAN has nothing to program: the switch classifies
	 * by port, a VLAN-aware bridge is forwarded by the CPU, and a
	 * VLAN-unaware one looks up VID 0 alone (the bridge adds such entries
	 * for each VLAN of the port beside the VID 0 one).
	 */
	if (vid)
		return 0;
	mutex_lock(&priv->lock);
	vidx = resw_db_vlan(priv, db);
	err = vidx < 0 ? vidx : resw_static_update(priv, addr, vidx, port,
						    true);
	mutex_unlock(&priv->lock);
	return err;
}

static int resw_port_fdb_del(struct dsa_switch *ds, int port,
			     const unsigned char *addr, u16 vid,
			     struct dsa_db db)
{
	struct resw_priv *priv = ds->priv;
	int vidx, err = 0;

	if (vid)
		return 0;
	mutex_lock(&priv->lock);
	vidx = resw_db_vlan(priv, db);
	if (vidx >= 0)
		err = resw_static_update(priv, addr, vidx, port, false);
	mutex_unlock(&priv->lock);
	return err;
}

static int resw_port_mdb_add(struct dsa_switch *ds, int port,
			     const struct switchdev_obj_port_mdb *mdb,
			     struct dsa_db db)
{
	return resw_port_fdb_add(ds, port, mdb->addr, mdb->vid, db);
}

static int resw_port_mdb_del(struct dsa_switch *ds, int port,
			     const struct switchdev_obj_port_mdb *mdb,
			     struct dsa_db db)
{
	return resw_port_fdb_del(ds, port, mdb->addr, mdb->vid, db);
}

struct resw_dump {
	int port;
	int vidx;
	dsa_fdb_dump_cb_t *cb;
	void *data;
};

static int resw_dump_one(struct resw_priv *priv,
			 const struct resw_at_entry *e, void *data)
{
	struct resw_dump *d = data;

	if (e->vidx != d->vidx || !(e->ports & BIT(d->port)))
		return 0;
	return d->cb(e->addr, 0, e->age == ESW_AT_AGE_STATIC, d->data);
}

static int resw_port_fdb_dump(struct dsa_switch *ds, int port,
			      dsa_fdb_dump_cb_t *cb, void *data)
{
	struct resw_priv *priv = ds->priv;
	struct resw_dump d = { .port = port, .cb = cb, .data = data };
	int err;

	mutex_lock(&priv->lock);
	d.vidx = resw_port_vlan(priv, port);
	err = d.vidx < 0 ? 0 : resw_at_walk(priv, resw_dump_one, &d);
	mutex_unlock(&priv->lock);
	return err;
}

/* Remove what the switch learned on port *@data */
static int resw_fast_age_one(struct resw_priv *priv,
			     const struct resw_at_entry *e, void *data)
{
	int port = *(int *)data;

	if (e->age == ESW_AT_AGE_STATIC || !(e->ports & BIT(port)))
		return 0;
	return resw_at_write(priv, e->addr, e->vidx, 0, ESW_AT_AGE_INVALID);
}

static void resw_port_fast_age(struct dsa_switch *ds, int port)
{
	struct resw_priv *priv = ds->priv;

	mutex_lock(&priv->lock);
	resw_at_walk(priv, resw_fast_age_one, &port);
	mutex_unlock(&priv->lock);
}

static void resw_teardown(struct dsa_switch *ds)
{
	struct resw_priv *priv = ds->priv;
	struct resw_static *st, *tmp;

	resw_irq_teardown(priv);
	cancel_delayed_work_sync(&priv->mib_work);

	mutex_lock(&priv->lock);
	list_for_each_entry_safe(st, tmp, &priv->statics, list) {
		list_del(&st->list);
		kfree(st);
	}
	mutex_unlock(&priv->lock);
}

static const struct phylink_mac_ops resw_phylink_mac_ops = {
	.mac_config = resw_mac_config,
	.mac_link_down = resw_mac_link_down,
	.mac_link_up = resw_mac_link_up,
};

static const struct dsa_switch_ops resw_switch_ops = {
	.get_tag_protocol = resw_get_tag_protocol,
	.setup = resw_setup,
	.teardown = resw_teardown,
	.phylink_get_caps = resw_phylink_get_caps,
	.port_enable = resw_port_enable,
	.port_disable = resw_port_disable,
	.port_pre_bridge_flags = resw_port_pre_bridge_flags,
	.port_stp_state_set = resw_port_stp_state_set,
	.port_bridge_join = resw_port_bridge_join,
	.port_bridge_leave = resw_port_bridge_leave,
	.port_vlan_filtering = resw_port_vlan_filtering,
	.port_set_host_flood = resw_port_set_host_flood,
	.port_vlan_add = resw_port_vlan_add,
	.port_vlan_del = resw_port_vlan_del,
	.port_fdb_add = resw_port_fdb_add,
	.port_fdb_del = resw_port_fdb_del,
	.port_fdb_dump = resw_port_fdb_dump,
	.port_mdb_add = resw_port_mdb_add,
	.port_mdb_del = resw_port_mdb_del,
	.port_fast_age = resw_port_fast_age,
	.get_strings = resw_get_strings,
	.get_ethtool_stats = resw_get_ethtool_stats,
	.get_sset_count = resw_get_sset_count,
	.get_eth_mac_stats = resw_get_eth_mac_stats,
};

/* -- the platform device ------------------------------------------------ */

static int resw_reset(struct resw_priv *priv)
{
	int err;

	err = reset_control_assert(priv->rst_esw);
	if (!err)
		err = reset_control_assert(priv->rst_ephy);
	if (err)
		return err;
	usleep_range(ESW_RESET_US, 2 * ESW_RESET_US);
	err = reset_control_deassert(priv->rst_esw);
	if (!err)
		err = reset_control_deassert(priv->rst_ephy);
	if (err)
		return err;
	usleep_range(ESW_RESET_US, 2 * ESW_RESET_US);
	return 0;
}

static int resw_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct resw_priv *priv;
	int err;

	priv = devm_kzalloc(dev, sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return -ENOMEM;
	priv->dev = dev;
	mutex_init(&priv->lock);
	INIT_LIST_HEAD(&priv->statics);
	spin_lock_init(&priv->mib_lock);
	INIT_DELAYED_WORK(&priv->mib_work, resw_mib_work);

	priv->base = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(priv->base))
		return PTR_ERR(priv->base);
	priv->irq = platform_get_irq_optional(pdev, 0);
	if (priv->irq == -EPROBE_DEFER)
		return priv->irq;
	if (priv->irq < 0)
		priv->irq = 0;
	priv->rst_esw = devm_reset_control_get_exclusive(dev, "esw");
	if (IS_ERR(priv->rst_esw))
		return dev_err_probe(dev, PTR_ERR(priv->rst_esw),
				     "missing or invalid reset \"esw\"\n");
	priv->rst_ephy = devm_reset_control_get_exclusive(dev, "ephy");
	if (IS_ERR(priv->rst_ephy))
		return dev_err_probe(dev, PTR_ERR(priv->rst_ephy),
				     "missing or invalid reset \"ephy\"\n");

	err = resw_reset(priv);
	if (err)
		return dev_err_probe(dev, err, "reset failed\n");
	err = resw_mdio_register(priv);
	if (err)
		return dev_err_probe(dev, err, "no MDIO bus\n");

	priv->ds.dev = dev;
	priv->ds.num_ports = ESW_NUM_PORTS;
	priv->ds.priv = priv;
	priv->ds.ops = &resw_switch_ops;
	priv->ds.phylink_mac_ops = &resw_phylink_mac_ops;
	priv->ds.user_mii_bus = priv->mdio;
	/* Each port and bridge has a VLAN table entry, its own FID */
	priv->ds.fdb_isolation = true;
	platform_set_drvdata(pdev, priv);

	return dsa_register_switch(&priv->ds);
}

static void resw_remove(struct platform_device *pdev)
{
	struct resw_priv *priv = platform_get_drvdata(pdev);

	if (priv)
		dsa_unregister_switch(&priv->ds);
}

static void resw_shutdown(struct platform_device *pdev)
{
	struct resw_priv *priv = platform_get_drvdata(pdev);

	if (priv) {
		dsa_switch_shutdown(&priv->ds);
		cancel_delayed_work_sync(&priv->mib_work);
	}
	platform_set_drvdata(pdev, NULL);
}

static const struct of_device_id resw_of_match[] = {
	{ .compatible = "mediatek,mt7628-esw" },
	{ .compatible = "ralink,rt5350-esw" },
	{ /* sentinel */ }
};
MODULE_DEVICE_TABLE(of, resw_of_match);

static struct platform_driver resw_driver = {
	.probe = resw_probe,
	.remove = resw_remove,
	.shutdown = resw_shutdown,
	.driver = {
		.name = "ralink-esw",
		.of_match_table = resw_of_match,
	},
};
module_platform_driver(resw_driver);

MODULE_AUTHOR("Seed a6eb6a1b maintainers <maintainers@users.noreply.a-seed-a6eb6a1b.example>");
MODULE_DESCRIPTION("Ralink/MediaTek embedded 100 Mbit switch (DSA)");
MODULE_LICENSE("GPL");
