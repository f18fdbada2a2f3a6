/*
 * MediaTek MT7530 switch core, as built into the MT7621 (MCM), and the
 * MT7620's gigabit switch (GSW), its relative
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_NET_MT7530_H
#define HW_NET_MT7530_H

#include "hw/net/ralink_gen.h"
#include "hw/net/ralink_phy.h"
#include "hw/sysbus.h"
#include "net/net.h"
#include "qemu/queue.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_MT7530 "mt7530"
OBJECT_DECLARE_SIMPLE_TYPE(MT7530State, MT7530)

#define MT7530_NUM_PORTS        7
#define MT7530_NUM_PHYS         5       /* ports 0-4 */
#define MT7530_GMAC1_PORT       5       /* wired to the FE's GMAC1 */
/* Ports that can have a backend: 0-4, and the MT7620's port 5 */
#define MT7530_NUM_NICS         6
#define MT7620_EXT_PORT         5       /* RGMII to a PHY outside */
#define MT7530_CPU_PORT         6       /* wired to the FE's GMAC0 */
#define MT7530_MDIO_ADDR        0x1f    /* the switch's own MDIO address */
#define MT7530_NUM_VLANS        4096
#define MT7530_NUM_FDB          2048
/* The longest frame a port takes (its jumbo limit), without FCS */
#define MT7530_MAX_FRAME        (15 * 1024 + 18)
#define MT7530_NUM_MIB          0x30    /* 32-bit words per port */
/* Vendor register pages of a PHY kept (1, 2, 3 and 0x52b5), 32 each */
/* Pad and clock registers of ports 5 and 6 (0x7800-0x7bff), as words */
#define MT7530_PAD_REGS         256
/* The MT7620 GSW: its MMIO window and its 16-slot VLAN table */
#define MT7620_GSW_SIZE         0x8000
#define MT7620_NUM_VLANS        16
/* The MT7530's ACL tables (MediaTek's switch utility; NOTES.md, issue 20) */
#define MT7530_ACL_PATTERNS     64
#define MT7530_ACL_RULES        32

/**
 * MT7530MacOps: how the switch hands frames to a MAC of the frame engine
 * @can_receive: whether the MAC's RX ring has room for a frame
 * @receive: deliver one frame (as on the wire, CPU tag included), which
 *           entered the switch by port @sport (the MT7620's frame engine
 *           puts it in the RX descriptor)
 * @pause: the CPU port's flow control asks the MAC to stop sending (@on)
 *         or to go on (802.3x pause; may be NULL)
 */
typedef struct MT7530MacOps {
    bool (*can_receive)(void *opaque);
    void (*receive)(void *opaque, const uint8_t *buf, size_t len, int sport);
    void (*pause)(void *opaque, bool on);
} MT7530MacOps;

void mt7530_attach_mac(MT7530State *s, int port, const MT7530MacOps *ops,
                       void *opaque);
/*
 * A frame from the MAC on @port; @port_map, if not 0, the ports it must
 * leave by (the MT7620's TX descriptor's forced port map), else the
 * switch forwards it by its address
 */
void mt7530_mac_transmit(MT7530State *s, int port, const uint8_t *buf,
                         size_t len, uint8_t port_map);
void mt7530_mac_ready(MT7530State *s, int port);

uint16_t mt7530_mdio_read(MT7530State *s, unsigned addr, unsigned reg);
void mt7530_mdio_write(MT7530State *s, unsigned addr, unsigned reg,
                       uint16_t val);
uint16_t mt7530_mdio_c45_read(MT7530State *s, unsigned addr, unsigned devad,
                              unsigned reg);
void mt7530_mdio_c45_write(MT7530State *s, unsigned addr, unsigned devad,
                           unsigned reg, uint16_t val);

/*
 * A front port's egress buffer: frames wait for the link, which sends
 * them at its speed on the virtual clock; beyond MT7530_EGRESS_BUF bytes
 * they are dropped (MIB TxDrop). Frames from a CPU port past
 * MT7530_EGRESS_XOFF bytes make the CPU port pause its MAC (when its
 * flow control is on), until the port is down to MT7530_EGRESS_XON.
 */
#define MT7530_EGRESS_BUF       (128 * 1024)
#define MT7530_EGRESS_XOFF      (64 * 1024)
#define MT7530_EGRESS_XON       (32 * 1024)

typedef struct MT7530EgressFrame {
    uint8_t *data;
    uint32_t len;
    uint32_t src;
    QTAILQ_ENTRY(MT7530EgressFrame) next;
} MT7530EgressFrame;

/**
 * MT7530Egress: a front port's egress
 * @queue: the frames waiting, oldest first; @bytes: their length
 * @cpu_bytes: what of it came from a CPU port
 * @free_at: the virtual time (ns) the link is done with its last frame
 * @xoff: the CPU ports (a mask) this port has asked to pause
 */
typedef struct MT7530Egress {
    QTAILQ_HEAD(, MT7530EgressFrame) queue;
    uint32_t bytes;
    uint32_t cpu_bytes;
    int64_t free_at;
    uint32_t xoff;
    QEMUTimer *timer;
    struct MT7530State *sw;
    int port;
} MT7530Egress;

/** MT7530Vlan: one entry of the VLAN table (VAWD1/VAWD2 as written) */
typedef struct MT7530Vlan {
    uint32_t vawd1;
    uint32_t vawd2;
} MT7530Vlan;

/** MT7530Fdb: one address table entry (ATA1/ATA2/ATWD as written) */
typedef struct MT7530Fdb {
    uint8_t mac[6];
    uint16_t key;       /* CVID for IVL entries, FID for SVL ones */
    bool ivl;
    uint8_t port_map;
    uint8_t status;     /* 0: empty, 3: static, else dynamic */
    uint8_t age;
    int64_t last_seen;  /* ms, for dynamic entries */
} MT7530Fdb;

/**
 * MT7530State: the switch core.
 * @chip: "mt7530" (the MT7621's, on MDIO) or "mt7620" (the MT7620's GSW:
 *        its registers on MMIO, PHY access through PIAC, a 16-slot VLAN
 *        table, 100 Mbit PHYs, its own MIB layout and interrupt mask;
 *        port 5 to a gigabit PHY outside the SoC, at MDIO address
 *        @ext_phy_addr, property "ext-phy-addr", with a backend of its
 *        own, "netdev5")
 * @num_nics: the ports with a backend and a PHY: 0-4, or 0-5 on the GSW
 */
struct MT7530State {
    SysBusDevice parent_obj;

    char *chip;
    bool gsw;
    MemoryRegion mmio;

    /* The front ports' network backends: netdev0..netdev4 (5) */
    int num_nics;
    uint32_t ext_phy_addr;
    NICConf conf[MT7530_NUM_NICS];
    NICState *nic[MT7530_NUM_NICS];
    qemu_irq irq;
    bool in_reset;

    const MT7530MacOps *mac_ops[MT7530_NUM_PORTS];
    void *mac_opaque[MT7530_NUM_PORTS];

    /* MDIO register access of the switch core: page and high halves */
    uint16_t page;
    uint16_t rd_hi;
    uint16_t wr_lo;
    uint16_t wr_lo_reg;

    /* Global registers */
    uint32_t agc, mfc, bpc, rgac1, rgac2;
    uint32_t ata1, ata2, atwd, atc, tsra1, tsra2, atrd;
    uint32_t vtcr, vawd1, vawd2, aac;
    uint32_t mtrap, sys_int_en, sys_int_sts, gmaccr, mib_ccr;
    uint32_t pad[MT7530_PAD_REGS];
    /* The MT7620 GSW's own global registers */
    uint32_t vtim[MT7620_NUM_VLANS / 2];
    uint32_t ppsc, piac, imr, gpc1, gpc2, smaccr0, smaccr1, ckgcr;
    uint32_t mib_cnt_en;
    /* Per-port registers */
    uint32_t ssp[MT7530_NUM_PORTS], pcr[MT7530_NUM_PORTS];
    uint32_t psc[MT7530_NUM_PORTS], pvc[MT7530_NUM_PORTS];
    uint32_t ppbv1[MT7530_NUM_PORTS], pmcr[MT7530_NUM_PORTS];
    uint32_t pmeeecr[MT7530_NUM_PORTS];
    uint32_t erlcr[MT7530_NUM_PORTS];
    uint32_t gerlcr;
    uint32_t mib[MT7530_NUM_PORTS][MT7530_NUM_MIB];
    /* ACL tables: pattern, rule mask and rule action; VAWD1, VAWD2 each */
    uint32_t acl_pat[MT7530_ACL_PATTERNS][2];
    uint32_t acl_mask[MT7530_ACL_RULES][2];
    uint32_t acl_act[MT7530_ACL_RULES][2];
    /* Registers the driver programs that have no effect here */
    GHashTable *other;

    RalinkPhy phy[MT7530_NUM_NICS];
    MT7530Vlan vlan[MT7530_NUM_VLANS];
    MT7530Fdb fdb[MT7530_NUM_FDB];
    int search_pos;

    RalinkGen gen;
    MT7530Egress egress[MT7530_NUM_NICS];
};

#endif /* HW_NET_MT7530_H */
