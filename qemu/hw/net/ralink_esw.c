/*
 * Ralink/MediaTek embedded 100 Mbit switch (ESW)
 *
 * The switch of the RT3050/RT3052, RT3352, RT5350 and MT7628/MT7688: five
 * ports with built-in 100 Mbit PHYs (0-4, each a network backend here),
 * and port 6, wired to the frame engine's DMA (the CPU port). Port 5 (an
 * external MII on the RT3052 and RT3352) is not modelled. Register names
 * and fields are those of the 2016 series' esw_rt3050.c
 * (../shared/seeds/, patch 004), U-Boot's mt7628-eth.c and OpenWrt's
 * rt305x_esw.c; where a behaviour is the model's own reading, it says so.
 *
 * Forwarding: a frame is classified into one of the 16 VLAN table entries
 * (VLANI: the VIDs, VMSC: their member ports) by its port's PVID, or by
 * its tag on a port with EN_VLAN set in PFC1; its source address is
 * learned in the address table; it goes to the port its destination was
 * learned on, or is flooded to the entry's members (not back to its
 * source), and to the CPU only if SOCPC does not keep that kind of flood
 * (unknown unicast, multicast, broadcast) from it. POC0 disables ports,
 * POC2 makes a port untag what it sends (UNTAG_EN); a port with EN_VLAN
 * and without UNTAG_EN sends tagged.
 *
 * Out of reset the switch is an unmanaged switch: every port's PVID is 1,
 * VLAN entry 0 has VID 1 and every port as a member, nothing is untagged
 * or tagged, every port is enabled. Mainline's mtk_eth_soc never programs
 * the ESW of the MT7628 and U-Boot's mt7628-eth programs no VLAN register
 * unless a board names a WAN port, and both pass traffic between the
 * ports and the CPU, which needs that. The silicon's exact reset values
 * are not known here.
 *
 * The PHYs (ralink_phy.c) answer at MDIO addresses 0-4 through PCR0 and
 * PCR1: a write of PCR0 with WT_PHY_CMD or RD_PHY_CMD runs the access at
 * once and sets PCR1's WT_DONE or RD_RDY (with the data read); a read of
 * PCR1 clears both flags. The 2016 series' rt305x_mii_write() and
 * U-Boot's mdio_wait_read() wait for the flag to be clear before they
 * start an access and for it to be set after, which needs the flags to
 * clear between two accesses: the model's reading is that reading the
 * result clears them. Their link interrupt is the switch's PORT_ST_CHG.
 *
 * SGC2's double tagging and special tag (how the CPU learns a frame's
 * source port and sends one to a port of its choice): see esw_ingress().
 *
 * The "gen" property is the frame generator of ralink_gen.c, a test
 * instrument (make bench), as on the MT7530 model; "fdb" lists the
 * address table.
 *
 * The address table's search and write registers (ATS, WMAD):
 * esw_ats_search(), esw_wmad().
 *
 * The frame counters of ports 0-5 (PxPC received, PxTPC sent: the RT5350's
 * and the MT7628's; the RT3052 has no PxTPC, which the model has on every
 * SoC): esw_count(). Their reset register (0x14c, whose bits no reliable
 * source names) is not modelled.
 *
 * Not modelled yet: port 5. Accesses to the rest are logged as
 * unimplemented.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/irq.h"
#include "hw/net/ralink_esw.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "net/eth.h"
#include "trace.h"

#define ESW_ISR                 0x00    /* write 1 to clear */
#define ESW_IMR                 0x04    /* 1: masked */
#define   ESW_INT_PORT_ST_CHG       BIT(26)
#define ESW_FCT0                0x08
#define ESW_FCT1                0x0c
#define ESW_PFC0                0x10
#define ESW_PFC1                0x14
#define   PFC1_EN_VLAN(p)           BIT(16 + (p))
#define ESW_PFC2                0x18
#define ESW_QGS0                0x1c
#define ESW_QGS1                0x20
#define ESW_ATS                 0x24    /* address table search */
#define   ATS_BEGIN                 BIT(0)
#define   ATS_NEXT                  BIT(1)
#define ESW_ATS0                0x28    /* the entry found */
#define   ATS0_SEARCH_RDY           BIT(0)
#define   ATS0_TABLE_END            BIT(1)
#define ESW_ATS1                0x2c    /* its MAC address's bytes 4-5 */
#define ESW_ATS2                0x30    /* its bytes 0-3 */
#define ESW_WMAD0               0x34    /* write an entry */
#define   WMAD0_CMD                 BIT(0)
#define   WMAD0_DONE                BIT(1)
#define   WMAD0_SA_FILTER           BIT(3)
#define ESW_WMAD1               0x38    /* MAC address bytes 4-5 */
#define ESW_WMAD2               0x3c    /* bytes 0-3 */
/* ATS0 and WMAD0 */
#define   AT_AGE(v)                 extract32(v, 4, 3)
#define   AT_AGE_STATIC             7
#define   AT_VIDX(v)                extract32(v, 7, 4)
#define   AT_PORTS(v)               extract32(v, 12, 7)
#define ESW_PVIDC(n)            (0x40 + 4 * (n))    /* ports 2n, 2n+1 */
#define ESW_VLANI(n)            (0x50 + 4 * (n))    /* entries 2n, 2n+1 */
#define ESW_VMSC(n)             (0x70 + 4 * (n))    /* entries 4n..4n+3 */
#define ESW_POA                 0x80
#define   POA_SPEED_100(p)          BIT(p)
#define   POA_DUPLEX_FULL(p)        BIT(9 + (p))
#define   POA_LINK(p)               BIT(25 + (p))
#define ESW_FPA                 0x84
#define ESW_SOCPC               0x8c
#define   SOCPC_DISUN2CPU(p)        BIT(p)
#define   SOCPC_DISMC2CPU(p)        BIT(8 + (p))
#define   SOCPC_DISBC2CPU(p)        BIT(16 + (p))
#define ESW_POC0                0x90
#define   POC0_DIS_PORT(p)          BIT(23 + (p))
#define ESW_POC1                0x94
#define ESW_POC2                0x98
#define   POC2_UNTAG_EN(p)          BIT(p)
#define   POC2_PER_VLAN_UNTAG_EN    BIT(15)  /* untag by VUB, not by port */
#define ESW_SGC                 0x9c
#define ESW_STRT                0xa0
#define ESW_P0LED               0xa4
#define ESW_P4LED               0xb4
#define ESW_PCR0                0xc0
#define   PCR0_PHY_ADDR(v)          extract32(v, 0, 5)
#define   PCR0_PHY_REG(v)           extract32(v, 8, 5)
#define   PCR0_WT_PHY_CMD           BIT(13)
#define   PCR0_RD_PHY_CMD           BIT(14)
#define   PCR0_WT_DATA(v)           extract32(v, 16, 16)
#define ESW_PCR1                0xc4
#define   PCR1_WT_DONE              BIT(0)
#define   PCR1_RD_RDY               BIT(1)
#define   PCR1_RD_DATA_SHIFT        16
#define ESW_FPA2                0xc8
#define ESW_FCT2                0xcc
#define ESW_PXPC(p)             (0xe8 + 4 * (p))    /* received, ports 0-5 */
#define ESW_PXTPC(p)            (0x150 + 4 * (p))   /* sent, ports 0-5 */
#define   PC_GOOD                   1
#define   PC_BAD                    (1 << 16)
#define ESW_SGC2                0xe4
#define   SGC2_DOUBLE_TAG_EN(p)     BIT(p)
#define   SGC2_TX_CPU_TPID(p)       BIT(16 + (p))
#define   SGC2_SPECIAL_TAG_EN       BIT(23)
#define ESW_VUB(n)              (0x100 + 4 * (n))   /* entries 4n..4n+3 */
#define ESW_BMU_CTRL            0x110   /* U-Boot's mt7628-eth writes it */
#define ESW_LED_POLARITY        0x168   /* RT5350 (the 2016 series) */

/*
 * "No large frame support (PKT_MAX_LEN at most 1536)" (OpenWrt's
 * rt305x_esw.c): the model takes frames up to 1536 bytes with the FCS.
 */
#define ESW_MAX_FRAME           1536
#define ETH_FCS_LEN             4
/* The address table's ageing time: not sourced, the 802.1D default */
#define ESW_AGE_MS              (300 * 1000)
#define ESW_FDB_WAYS            8

static uint32_t esw_reg(RalinkEswState *s, hwaddr a)
{
    return s->regs[a / 4];
}

/* -- interrupts and links ------------------------------------------------ */

static void esw_update_irq(RalinkEswState *s)
{
    uint32_t isr = esw_reg(s, ESW_ISR), imr = esw_reg(s, ESW_IMR);

    trace_ralink_esw_irq(isr, imr);
    qemu_set_irq(s->irq, !!(isr & ~imr));
}

/* A PHY's link partner is there: the port has a backend (a cable), up */
static bool esw_phy_partner(void *opaque, int p)
{
    RalinkEswState *s = opaque;

    NetClientState *nc = qemu_get_queue(s->nic[p]);

    return !s->in_reset[RALINK_ESW_RESET_ESW] &&
           !s->in_reset[RALINK_ESW_RESET_EPHY] && nc->peer && !nc->link_down;
}

/* A PHY port's link changed: PORT_ST_CHG says so */
static void esw_phy_link_changed(void *opaque, int p)
{
    RalinkEswState *s = opaque;

    trace_ralink_esw_link(p, s->phy[p].link);
    s->regs[ESW_ISR / 4] |= ESW_INT_PORT_ST_CHG;
    esw_update_irq(s);
}

static uint32_t esw_poa(RalinkEswState *s)
{
    uint32_t v = 0;
    int p;

    for (p = 0; p < RALINK_ESW_NUM_PHYS; p++) {
        if (ralink_phy_link(&s->phy[p])) {
            v |= POA_LINK(p) | POA_SPEED_100(p) | POA_DUPLEX_FULL(p);
        }
    }
    return v;
}

/* -- VLANs and the address table ---------------------------------------- */

static unsigned esw_pvid(RalinkEswState *s, int p)
{
    return extract32(esw_reg(s, ESW_PVIDC(p / 2)), (p % 2) * 12, 12);
}

static unsigned esw_vlan_vid(RalinkEswState *s, int i)
{
    return extract32(esw_reg(s, ESW_VLANI(i / 2)), (i % 2) * 12, 12);
}

static uint8_t esw_vlan_members(RalinkEswState *s, int i)
{
    return extract32(esw_reg(s, ESW_VMSC(i / 4)), (i % 4) * 8, 8);
}

static uint8_t esw_vlan_untag(RalinkEswState *s, int i)
{
    return extract32(esw_reg(s, ESW_VUB(i / 4)), (i % 4) * 7, 7);
}

/* The VLAN table entry of @vid, or -1 */
static int esw_vlan_find(RalinkEswState *s, unsigned vid)
{
    int i;

    for (i = 0; i < RALINK_ESW_NUM_VLANS; i++) {
        if (esw_vlan_vid(s, i) == vid) {
            return i;
        }
    }
    return -1;
}

static unsigned esw_fdb_hash(const uint8_t *mac, int vidx)
{
    uint32_t h = ldl_be_p(mac + 2) ^ (lduw_be_p(mac) << 7) ^ (vidx << 13);

    h ^= h >> 15;
    h *= 0x2c1b3c6d;
    h ^= h >> 12;
    return (h % (RALINK_ESW_NUM_FDB / ESW_FDB_WAYS)) * ESW_FDB_WAYS;
}

static bool esw_fdb_live(RalinkEswFdb *e, int64_t now)
{
    return e->valid && (e->is_static || now - e->last_seen < ESW_AGE_MS);
}

static RalinkEswFdb *esw_fdb_find(RalinkEswState *s, const uint8_t *mac,
                                  int vidx, int64_t now)
{
    unsigned b = esw_fdb_hash(mac, vidx);
    int i;

    for (i = 0; i < ESW_FDB_WAYS; i++) {
        RalinkEswFdb *e = &s->fdb[b + i];

        if (esw_fdb_live(e, now) && e->vidx == vidx &&
            !memcmp(e->mac, mac, 6)) {
            return e;
        }
    }
    return NULL;
}

static void esw_fdb_learn(RalinkEswState *s, const uint8_t *mac, int vidx,
                          int port, int64_t now)
{
    RalinkEswFdb *e = esw_fdb_find(s, mac, vidx, now);
    unsigned b;
    int i;

    if (e) {
        if (!e->is_static) {
            e->ports = BIT(port);
            e->last_seen = now;
        }
        return;
    }
    b = esw_fdb_hash(mac, vidx);
    for (i = 0; i < ESW_FDB_WAYS; i++) {
        e = &s->fdb[b + i];
        if (!esw_fdb_live(e, now)) {
            memcpy(e->mac, mac, 6);
            e->vidx = vidx;
            e->ports = BIT(port);
            e->valid = true;
            e->is_static = false;
            e->last_seen = now;
            trace_ralink_esw_learn(port, vidx);
            return;
        }
    }
    /* The bucket is full: not learned, frames to it are flooded */
}

/* -- forwarding --------------------------------------------------------- */

/*
 * Count a frame in a port's 16-bit good or bad half (@what: PC_GOOD or
 * PC_BAD); each half wraps on its own. Not cleared by reading: no source
 * says they are, and the drivers that read them (the 2016 series' and
 * OpenWrt's swconfig drivers, Padavan's) clear them by other means.
 */
static void esw_count(uint32_t *c, int p, uint32_t what)
{
    if (p >= RALINK_ESW_NUM_COUNTED) {
        return;
    }
    if (what == PC_GOOD) {
        c[p] = (c[p] & 0xffff0000) | ((c[p] + 1) & 0xffff);
    } else {
        c[p] = (c[p] & 0xffff) | ((c[p] + PC_BAD) & 0xffff0000);
    }
}

static bool esw_port_up(RalinkEswState *s, int p)
{
    if (esw_reg(s, ESW_POC0) & POC0_DIS_PORT(p)) {
        return false;
    }
    if (p == RALINK_ESW_CPU_PORT) {
        return true;
    }
    /* Port 5 (an external MII on some SoCs) is not modelled: no link */
    return p < RALINK_ESW_NUM_PHYS && ralink_phy_link(&s->phy[p]);
}

/*
 * Send @f, which entered at port @src and was classified into VLAN table
 * entry @vidx (VID @vid), out of port @p, tagged or untagged as the port
 * or, with POC2's PER_VLAN_UNTAG_EN, the entry's VUB bits say.
 * @tagged: whether @f carries a tag the switch classified it by (after
 * its source addresses). A tag the switch adds on a port of SGC2's
 * TX_CPU_TPID map, with SPECIAL_TAG_EN, carries @src in its TPID's low
 * bits (the special tag; see esw_ingress()).
 */
static void esw_egress(RalinkEswState *s, int src, int p, const uint8_t *f,
                       size_t len, bool tagged, int vidx, unsigned vid,
                       unsigned pcp)
{
    uint8_t buf[ESW_MAX_FRAME + 4];
    uint32_t sgc2 = esw_reg(s, ESW_SGC2);
    bool untag, tag;

    if (esw_reg(s, ESW_POC2) & POC2_PER_VLAN_UNTAG_EN) {
        untag = esw_vlan_untag(s, vidx) & BIT(p);
    } else {
        untag = esw_reg(s, ESW_POC2) & POC2_UNTAG_EN(p);
    }
    tag = !untag && (esw_reg(s, ESW_PFC1) & PFC1_EN_VLAN(p));

    if (tagged && untag) {
        memcpy(buf, f, 12);
        memcpy(buf + 12, f + 16, len - 16);
        f = buf;
        len -= 4;
    } else if (tagged && lduw_be_p(f + 12) != ETH_P_VLAN) {
        /* A special tag from the CPU leaves as the 802.1Q tag it is */
        memcpy(buf, f, len);
        stw_be_p(buf + 12, ETH_P_VLAN);
        f = buf;
    } else if (!tagged && tag) {
        memcpy(buf, f, 12);
        if ((sgc2 & SGC2_SPECIAL_TAG_EN) && (sgc2 & SGC2_TX_CPU_TPID(p))) {
            stw_be_p(buf + 12, ETH_P_VLAN | src);
        } else {
            stw_be_p(buf + 12, ETH_P_VLAN);
        }
        stw_be_p(buf + 14, (pcp << 13) | vid);
        memcpy(buf + 16, f + 12, len - 12);
        f = buf;
        len += 4;
    }
    if (p == RALINK_ESW_CPU_PORT) {
        s->cpu_ops->receive(s->cpu_opaque, f, len);
    } else {
        esw_count(s->tx_count, p, PC_GOOD);
        ralink_gen_trigger(&s->gen, p, f, len);
        qemu_send_packet(qemu_get_queue(s->nic[p]), f, len);
    }
}

/*
 * A frame enters at port @src. Returns RALINK_GEN_HELD if it must wait:
 * the CPU port is one of its destinations and cannot take it now.
 *
 * SGC2 (the linux-next MT7628 ESW driver and its tag driver, 2026, are
 * the source: their field names and what their commit messages say the
 * silicon does): a port in DOUBLE_TAG_EN classifies every frame by its
 * PVID, tagged or not, and the switch adds its own tag in front of any
 * the frame has; with SPECIAL_TAG_EN, a frame from the CPU port whose
 * TPID is 0x8100 with a port map in its low 6 bits goes to those ports
 * (of its VLAN's members) and nowhere else, its TPID sent as 0x8100, and
 * a tag the switch adds towards a port of TX_CPU_TPID has the source port
 * in its TPID's low 3 bits (esw_egress()). A tag the frame brought keeps
 * its TPID: the CPU cannot tell the port of a tagged frame from a port
 * without DOUBLE_TAG_EN. The model's readings: a port map with no bit of
 * the VLAN's members drops the frame, and the frame is still learned.
 */
static RalinkGenVerdict esw_ingress(RalinkEswState *s, int src,
                                    const uint8_t *f, size_t len)
{
    int64_t now = qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL);
    uint32_t sgc2 = esw_reg(s, ESW_SGC2);
    uint16_t tpid = len >= 18 ? lduw_be_p(f + 12) : 0;
    bool tagged = tpid == ETH_P_VLAN;
    unsigned vid = esw_pvid(s, src), pcp = 0;
    const uint8_t *da = f, *sa = f + 6;
    uint8_t members, dest, forced = 0;
    RalinkEswFdb *e;
    int vidx, p;

    if (s->in_reset[RALINK_ESW_RESET_ESW] || !esw_port_up(s, src)) {
        trace_ralink_esw_drop(src, len, "port down");
        return RALINK_GEN_DROPPED;
    }
    if (len < 14 || len + ETH_FCS_LEN > ESW_MAX_FRAME) {
        esw_count(s->rx_count, src, PC_BAD);
        trace_ralink_esw_drop(src, len, "length");
        return RALINK_GEN_DROPPED;
    }
    if (src == RALINK_ESW_CPU_PORT && (sgc2 & SGC2_SPECIAL_TAG_EN) &&
        len >= 18 && (tpid & ~0x3f) == ETH_P_VLAN && (tpid & 0x3f)) {
        /* Its TPID goes out as 0x8100 (esw_egress()) */
        forced = tpid & 0x3f;
        tagged = true;
    }
    if (sgc2 & SGC2_DOUBLE_TAG_EN(src)) {
        /* The frame's own tag, if any, is payload from here on */
        tagged = false;
    }
    if (tagged && (esw_reg(s, ESW_PFC1) & PFC1_EN_VLAN(src))) {
        uint16_t tci = lduw_be_p(f + 14);

        pcp = tci >> 13;
        if (tci & 0xfff) {
            vid = tci & 0xfff;
        }
    }
    vidx = esw_vlan_find(s, vid);
    members = vidx < 0 ? 0 : esw_vlan_members(s, vidx);
    if (!(members & BIT(src))) {
        /* The model's reading: no entry, or not a member: dropped */
        esw_count(s->rx_count, src, PC_GOOD);
        trace_ralink_esw_drop(src, len, "VLAN");
        return RALINK_GEN_DROPPED;
    }

    if (!(sa[0] & 1)) {
        esw_fdb_learn(s, sa, vidx, src, now);
    }
    e = is_broadcast_ether_addr(da) ? NULL : esw_fdb_find(s, da, vidx, now);
    if (forced) {
        dest = forced & members;
    } else if (is_broadcast_ether_addr(da)) {
        dest = members;
        if (esw_reg(s, ESW_SOCPC) & SOCPC_DISBC2CPU(src)) {
            dest &= ~BIT(RALINK_ESW_CPU_PORT);
        }
    } else if (e) {
        dest = e->ports & members;
    } else if (da[0] & 1) {
        dest = members;
        if (esw_reg(s, ESW_SOCPC) & SOCPC_DISMC2CPU(src)) {
            dest &= ~BIT(RALINK_ESW_CPU_PORT);
        }
    } else {
        dest = members;
        if (esw_reg(s, ESW_SOCPC) & SOCPC_DISUN2CPU(src)) {
            dest &= ~BIT(RALINK_ESW_CPU_PORT);
        }
    }
    dest &= ~BIT(src);
    for (p = 0; p < RALINK_ESW_NUM_PORTS; p++) {
        if ((dest & BIT(p)) && !esw_port_up(s, p)) {
            dest &= ~BIT(p);
        }
    }
    if (!s->cpu_ops) {
        dest &= ~BIT(RALINK_ESW_CPU_PORT);
    }
    if ((dest & BIT(RALINK_ESW_CPU_PORT)) &&
        !s->cpu_ops->can_receive(s->cpu_opaque)) {
        return RALINK_GEN_HELD;     /* offered again later: counted then */
    }
    esw_count(s->rx_count, src, PC_GOOD);
    trace_ralink_esw_forward(src, len, vid, dest);
    for (p = 0; p < RALINK_ESW_NUM_PORTS; p++) {
        if (dest & BIT(p)) {
            esw_egress(s, src, p, f, len, tagged, vidx, vid, pcp);
        }
    }
    return RALINK_GEN_SENT;
}

void ralink_esw_cpu_transmit(RalinkEswState *s, const uint8_t *buf,
                             size_t len)
{
    /* Nothing goes back to the CPU port: no need to wait */
    esw_ingress(s, RALINK_ESW_CPU_PORT, buf, len);
}

void ralink_esw_cpu_ready(RalinkEswState *s)
{
    int i;

    for (i = 0; i < RALINK_ESW_NUM_PHYS; i++) {
        qemu_flush_queued_packets(qemu_get_queue(s->nic[i]));
    }
}

void ralink_esw_attach_cpu(RalinkEswState *s, const RalinkEswCpuOps *ops,
                           void *opaque)
{
    s->cpu_ops = ops;
    s->cpu_opaque = opaque;
}

/* -- the address table through its registers --------------------------- */

/*
 * A search (ATS: BEGIN from the first slot, NEXT from after the last one
 * found) shows the next live entry in ATS0-ATS2 at once: SEARCH_RDY, its
 * age, VLAN entry, ports and slot, and TABLE_END when no live entry
 * follows it; TABLE_END alone when there is none. Field layout: the
 * Ralink SDK's `switch dump` (user/rt2880_app/switch/switch.c in public
 * GPL router trees). The model's reading: a learned entry's age (1-6)
 * is the part of the ageing time it has left, in sixths.
 */
static void esw_ats_search(RalinkEswState *s, unsigned from)
{
    int64_t now = qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL);
    unsigned i, j;

    s->ats[0] = ATS0_TABLE_END;
    s->ats[1] = s->ats[2] = 0;
    for (i = from; i < RALINK_ESW_NUM_FDB; i++) {
        RalinkEswFdb *e = &s->fdb[i];
        unsigned age = AT_AGE_STATIC;

        if (!esw_fdb_live(e, now)) {
            continue;
        }
        if (!e->is_static) {
            age = 1 + (ESW_AGE_MS - (now - e->last_seen)) * 6 / ESW_AGE_MS;
            age = MIN(age, 6);
        }
        s->ats[0] = ATS0_SEARCH_RDY | deposit32(0, 4, 3, age) |
                    deposit32(0, 7, 4, e->vidx) |
                    deposit32(0, 12, 7, e->ports) | deposit32(0, 22, 10, i);
        s->ats[1] = lduw_be_p(e->mac + 4);
        s->ats[2] = ldl_be_p(e->mac);
        for (j = i + 1; j < RALINK_ESW_NUM_FDB; j++) {
            if (esw_fdb_live(&s->fdb[j], now)) {
                break;
            }
        }
        if (j == RALINK_ESW_NUM_FDB) {
            s->ats[0] |= ATS0_TABLE_END;
        }
        s->ats_next = i + 1;
        return;
    }
    s->ats_next = RALINK_ESW_NUM_FDB;
}

/*
 * WMAD0 with its command bit writes the entry of WMAD2/WMAD1's address in
 * the VLAN entry it names: age 0 removes it, 7 makes it static (it never
 * ages and learning does not move it), 1-6 a learned one; the port map
 * may name several ports (a multicast group). In a full bucket a new
 * entry takes the place of the learned one seen longest ago (the model's
 * reading: learning must not keep a driver's static entries out; a
 * bucket full of static entries refuses it, a guest error). DONE is set
 * at once. The
 * SA filter flag (the SDK's `switch filt`) is not modelled. Field layout:
 * the Ralink SDK's `switch add` and `switch del`.
 */
static void esw_wmad(RalinkEswState *s, uint32_t val)
{
    int64_t now = qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL);
    unsigned age = AT_AGE(val), vidx = AT_VIDX(val), b, i;
    uint8_t mac[6];
    RalinkEswFdb *e;

    stl_be_p(mac, esw_reg(s, ESW_WMAD2));
    stw_be_p(mac + 4, esw_reg(s, ESW_WMAD1));
    if (val & WMAD0_SA_FILTER) {
        qemu_log_mask(LOG_UNIMP, "ralink-esw: WMAD0 SA filter entry\n");
    }
    e = esw_fdb_find(s, mac, vidx, now);
    if (!age) {
        if (e) {
            e->valid = false;
        }
        return;
    }
    if (!e) {
        /* A free way, else the learned entry seen longest ago */
        RalinkEswFdb *old = NULL;

        b = esw_fdb_hash(mac, vidx);
        for (i = 0; i < ESW_FDB_WAYS && !e; i++) {
            RalinkEswFdb *w = &s->fdb[b + i];

            if (!esw_fdb_live(w, now)) {
                e = w;
            } else if (!w->is_static &&
                       (!old || w->last_seen < old->last_seen)) {
                old = w;
            }
        }
        e = e ? e : old;
        if (!e) {
            qemu_log_mask(LOG_GUEST_ERROR, "ralink-esw: WMAD0: the address "
                          "table's bucket is full of static entries\n");
            return;
        }
        memcpy(e->mac, mac, 6);
        e->vidx = vidx;
        e->valid = true;
    }
    e->ports = AT_PORTS(val);
    e->is_static = age == AT_AGE_STATIC;
    e->last_seen = now - (int64_t)(6 - MIN(age, 6)) * ESW_AGE_MS / 6;
}

/* -- registers ---------------------------------------------------------- */

/* An MDIO access through PCR0: PHYs 0-4, nobody at the other addresses */
static void esw_pcr0(RalinkEswState *s, uint32_t val)
{
    unsigned addr = PCR0_PHY_ADDR(val), reg = PCR0_PHY_REG(val);
    RalinkPhy *phy = addr < RALINK_ESW_NUM_PHYS ? &s->phy[addr] : NULL;

    if ((val & (PCR0_WT_PHY_CMD | PCR0_RD_PHY_CMD)) ==
        (PCR0_WT_PHY_CMD | PCR0_RD_PHY_CMD)) {
        qemu_log_mask(LOG_GUEST_ERROR, "ralink-esw: PCR0 0x%08x asks for "
                      "a read and a write\n", val);
        return;
    }
    if (val & PCR0_WT_PHY_CMD) {
        if (phy) {
            ralink_phy_write(phy, reg, PCR0_WT_DATA(val));
        }
        s->pcr1 |= PCR1_WT_DONE;
    } else if (val & PCR0_RD_PHY_CMD) {
        uint16_t data = phy ? ralink_phy_read(phy, reg) : 0xffff;

        s->pcr1 = (s->pcr1 & PCR1_WT_DONE) | PCR1_RD_RDY |
                  (data << PCR1_RD_DATA_SHIFT);
    }
}

/* Registers kept as written that change nothing on an emulated link */
static bool esw_plain_reg(hwaddr a)
{
    switch (a) {
    case ESW_FCT0:
    case ESW_FCT1:
    case ESW_PFC0:
    case ESW_PFC1:
    case ESW_PFC2:
    case ESW_QGS0:
    case ESW_QGS1:
    case ESW_FPA:
    case ESW_SOCPC:
    case ESW_POC0:
    case ESW_POC1:
    case ESW_POC2:
    case ESW_SGC:
    case ESW_STRT:
    case ESW_FPA2:
    case ESW_FCT2:
    case ESW_WMAD1:
    case ESW_WMAD2:
    case ESW_SGC2:
    case ESW_BMU_CTRL:
    case ESW_LED_POLARITY:
        return true;
    }
    return (a >= ESW_PVIDC(0) && a < ESW_VMSC(4)) ||
           (a >= ESW_VUB(0) && a < ESW_VUB(4)) ||
           (a >= ESW_P0LED && a <= ESW_P4LED);
}

static uint64_t ralink_esw_read(void *opaque, hwaddr addr, unsigned size)
{
    RalinkEswState *s = opaque;

    uint32_t v;

    switch (addr) {
    case ESW_ISR:
    case ESW_IMR:
    case ESW_WMAD0:
    case ESW_PCR0:
        return esw_reg(s, addr);
    case ESW_POA:
        return esw_poa(s);
    case ESW_ATS0:
    case ESW_ATS1:
    case ESW_ATS2:
        return s->ats[(addr - ESW_ATS0) / 4];
    case ESW_PXPC(0) ... ESW_PXPC(RALINK_ESW_NUM_COUNTED - 1):
        return s->rx_count[(addr - ESW_PXPC(0)) / 4];
    case ESW_PXTPC(0) ... ESW_PXTPC(RALINK_ESW_NUM_COUNTED - 1):
        return s->tx_count[(addr - ESW_PXTPC(0)) / 4];
    case ESW_PCR1:
        v = s->pcr1;
        s->pcr1 &= ~(PCR1_WT_DONE | PCR1_RD_RDY);
        return v;
    }
    if (esw_plain_reg(addr)) {
        return esw_reg(s, addr);
    }
    qemu_log_mask(LOG_UNIMP, "ralink-esw: read of 0x%" HWADDR_PRIx "\n",
                  addr);
    return 0;
}

static void ralink_esw_write(void *opaque, hwaddr addr, uint64_t val,
                             unsigned size)
{
    RalinkEswState *s = opaque;
    int p;

    switch (addr) {
    case ESW_ISR:
        s->regs[ESW_ISR / 4] &= ~val;
        esw_update_irq(s);
        return;
    case ESW_IMR:
        s->regs[ESW_IMR / 4] = val;
        esw_update_irq(s);
        return;
    case ESW_ATS:
        if (val & ATS_BEGIN) {
            esw_ats_search(s, 0);
        } else if (val & ATS_NEXT) {
            esw_ats_search(s, s->ats_next);
        }
        return;
    case ESW_WMAD0:
        s->regs[ESW_WMAD0 / 4] = val & ~WMAD0_DONE;
        if (val & WMAD0_CMD) {
            esw_wmad(s, val);
            s->regs[ESW_WMAD0 / 4] |= WMAD0_DONE;
        }
        return;
    case ESW_POA:
    case ESW_ATS0:
    case ESW_ATS1:
    case ESW_ATS2:
    case ESW_PXPC(0) ... ESW_PXPC(RALINK_ESW_NUM_COUNTED - 1):
    case ESW_PXTPC(0) ... ESW_PXTPC(RALINK_ESW_NUM_COUNTED - 1):
    case ESW_PCR1:
        qemu_log_mask(LOG_GUEST_ERROR, "ralink-esw: write to read-only "
                      "register 0x%" HWADDR_PRIx "\n", addr);
        return;
    case ESW_PCR0:
        s->regs[ESW_PCR0 / 4] = val;
        esw_pcr0(s, val);
        return;
    }
    if (esw_plain_reg(addr)) {
        s->regs[addr / 4] = val;
        if (addr == ESW_POC0) {
            /* Enabled ports may take the frames they held */
            for (p = 0; p < RALINK_ESW_NUM_PHYS; p++) {
                qemu_flush_queued_packets(qemu_get_queue(s->nic[p]));
            }
        }
        return;
    }
    qemu_log_mask(LOG_UNIMP, "ralink-esw: write of 0x%" PRIx64 " to 0x%"
                  HWADDR_PRIx "\n", val, addr);
}

static const MemoryRegionOps ralink_esw_ops = {
    .read = ralink_esw_read,
    .write = ralink_esw_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

/* -- the front ports' backends ------------------------------------------ */

static int esw_nc_port(RalinkEswState *s, NetClientState *nc)
{
    int i;

    for (i = 0; i < RALINK_ESW_NUM_PHYS; i++) {
        if (qemu_get_queue(s->nic[i]) == nc) {
            return i;
        }
    }
    g_assert_not_reached();
}

static bool esw_can_receive(NetClientState *nc)
{
    RalinkEswState *s = qemu_get_nic_opaque(nc);

    return !s->in_reset[RALINK_ESW_RESET_ESW];
}

static ssize_t esw_receive(NetClientState *nc, const uint8_t *buf,
                           size_t size)
{
    RalinkEswState *s = qemu_get_nic_opaque(nc);

    return esw_ingress(s, esw_nc_port(s, nc), buf, size) == RALINK_GEN_HELD
           ? 0 : size;
}

static void esw_link_status_changed(NetClientState *nc)
{
    RalinkEswState *s = qemu_get_nic_opaque(nc);

    ralink_phy_check_link(&s->phy[esw_nc_port(s, nc)]);
}

static NetClientInfo esw_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .can_receive = esw_can_receive,
    .receive = esw_receive,
    .link_status_changed = esw_link_status_changed,
};

/* -- device ------------------------------------------------------------- */

/*
 * The frame generator (ralink_gen.c), a test instrument: a frame taken in
 * at front port @port as if from the wire
 */
static RalinkGenVerdict esw_gen_inject(void *opaque, int port,
                                       const uint8_t *buf, size_t len)
{
    return esw_ingress(opaque, port, buf, len);
}

static char *ralink_esw_get_gen(Object *obj, Error **errp)
{
    return ralink_gen_get(&RALINK_ESW(obj)->gen);
}

static void ralink_esw_set_gen(Object *obj, const char *value, Error **errp)
{
    ralink_gen_set(&RALINK_ESW(obj)->gen, value, errp);
}

static void esw_reset_regs(RalinkEswState *s)
{
    int p;

    memset(s->regs, 0, sizeof(s->regs));
    memset(s->fdb, 0, sizeof(s->fdb));
    memset(s->ats, 0, sizeof(s->ats));
    memset(s->rx_count, 0, sizeof(s->rx_count));
    memset(s->tx_count, 0, sizeof(s->tx_count));
    s->ats_next = 0;
    s->pcr1 = 0;
    s->regs[ESW_IMR / 4] = ~0u;
    for (p = 0; p < RALINK_ESW_NUM_PORTS + 1; p += 2) {
        s->regs[ESW_PVIDC(p / 2) / 4] = 1 | (1 << 12);
    }
    s->regs[ESW_VLANI(0) / 4] = 1;
    s->regs[ESW_VMSC(0) / 4] = MAKE_64BIT_MASK(0, RALINK_ESW_NUM_PORTS);
}

static void ralink_esw_reset_in(void *opaque, int n, int level)
{
    RalinkEswState *s = opaque;
    int p;

    s->in_reset[n] = level;
    if (level && n == RALINK_ESW_RESET_ESW) {
        esw_reset_regs(s);
    }
    for (p = 0; p < RALINK_ESW_NUM_PHYS; p++) {
        if (level && n == RALINK_ESW_RESET_EPHY) {
            ralink_phy_reset(&s->phy[p]);
        }
        ralink_phy_check_link(&s->phy[p]);
    }
    if (!level) {
        ralink_esw_cpu_ready(s);
    }
}

static void ralink_esw_reset(DeviceState *dev)
{
    RalinkEswState *s = RALINK_ESW(dev);
    int p;

    ralink_gen_stop(&s->gen);
    s->in_reset[0] = s->in_reset[1] = false;
    esw_reset_regs(s);
    for (p = 0; p < RALINK_ESW_NUM_PHYS; p++) {
        ralink_phy_reset(&s->phy[p]);
        s->phy[p].link = ralink_phy_link(&s->phy[p]);
    }
}

static void ralink_esw_realize(DeviceState *dev, Error **errp)
{
    RalinkEswState *s = RALINK_ESW(dev);
    int i;

    for (i = 0; i < RALINK_ESW_NUM_PHYS; i++) {
        g_autofree char *name = g_strdup_printf("%s.port%d",
                                                dev->id ? dev->id : "esw", i);

        qemu_macaddr_default_if_unset(&s->conf[i].macaddr);
        s->nic[i] = qemu_new_nic(&esw_net_info, &s->conf[i],
                                 object_get_typename(OBJECT(s)), name,
                                 &dev->mem_reentrancy_guard, s);
        ralink_phy_init(&s->phy[i], &ralink_phy_esw, i, esw_phy_partner,
                        esw_phy_link_changed, s);
    }
    ralink_gen_init(&s->gen, "esw", RALINK_ESW_NUM_PHYS,
                    ESW_MAX_FRAME - ETH_FCS_LEN, esw_gen_inject, s);
}

static void ralink_esw_unrealize(DeviceState *dev)
{
    RalinkEswState *s = RALINK_ESW(dev);
    int i;

    for (i = 0; i < RALINK_ESW_NUM_PHYS; i++) {
        qemu_del_nic(s->nic[i]);
        ralink_phy_finalize(&s->phy[i]);
    }
    ralink_gen_finalize(&s->gen);
}

static void ralink_esw_init(Object *obj)
{
    RalinkEswState *s = RALINK_ESW(obj);

    memory_region_init_io(&s->iomem, obj, &ralink_esw_ops, s, TYPE_RALINK_ESW,
                          RALINK_ESW_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq);
    qdev_init_gpio_in_named(DEVICE(obj), ralink_esw_reset_in, "reset", 2);
}

/*
 * The "fdb" property: the address table's live entries, one a line
 * ("MAC vidx INDEX ports 0xMAP static|dynamic", INDEX the VLAN table
 * entry the address is learned in), for tests to compare with what the
 * driver was asked to program; as the MT7530 model's "fdb".
 */
static char *ralink_esw_get_fdb(Object *obj, Error **errp)
{
    RalinkEswState *s = RALINK_ESW(obj);
    int64_t now = qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL);
    GString *str = g_string_new(NULL);
    int i;

    for (i = 0; i < RALINK_ESW_NUM_FDB; i++) {
        RalinkEswFdb *e = &s->fdb[i];

        if (!esw_fdb_live(e, now)) {
            continue;
        }
        g_string_append_printf(str, "%02x:%02x:%02x:%02x:%02x:%02x vidx %u "
                               "ports 0x%02x %s\n", e->mac[0], e->mac[1],
                               e->mac[2], e->mac[3], e->mac[4], e->mac[5],
                               e->vidx, e->ports,
                               e->is_static ? "static" : "dynamic");
    }
    return g_string_free(str, false);
}

static const VMStateDescription vmstate_ralink_esw_fdb = {
    .name = "ralink-esw/fdb",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT8_ARRAY(mac, RalinkEswFdb, 6),
        VMSTATE_UINT8(vidx, RalinkEswFdb),
        VMSTATE_UINT8(ports, RalinkEswFdb),
        VMSTATE_BOOL(valid, RalinkEswFdb),
        VMSTATE_BOOL(is_static, RalinkEswFdb),
        VMSTATE_INT64(last_seen, RalinkEswFdb),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_ralink_esw = {
    .name = TYPE_RALINK_ESW,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_BOOL_ARRAY(in_reset, RalinkEswState, 2),
        VMSTATE_UINT32_ARRAY(regs, RalinkEswState, RALINK_ESW_NUM_REGS),
        VMSTATE_STRUCT_ARRAY(phy, RalinkEswState, RALINK_ESW_NUM_PHYS, 1,
                             vmstate_ralink_phy, RalinkPhy),
        VMSTATE_UINT32(pcr1, RalinkEswState),
        VMSTATE_UINT32_ARRAY(rx_count, RalinkEswState,
                             RALINK_ESW_NUM_COUNTED),
        VMSTATE_UINT32_ARRAY(tx_count, RalinkEswState,
                             RALINK_ESW_NUM_COUNTED),
        VMSTATE_STRUCT_ARRAY(fdb, RalinkEswState, RALINK_ESW_NUM_FDB, 1,
                             vmstate_ralink_esw_fdb, RalinkEswFdb),
        VMSTATE_UINT32_ARRAY(ats, RalinkEswState, 3),
        VMSTATE_UINT32(ats_next, RalinkEswState),
        VMSTATE_END_OF_LIST()
    }
};

static Property ralink_esw_properties[] = {
    DEFINE_PROP_NETDEV("netdev0", RalinkEswState, conf[0].peers),
    DEFINE_PROP_NETDEV("netdev1", RalinkEswState, conf[1].peers),
    DEFINE_PROP_NETDEV("netdev2", RalinkEswState, conf[2].peers),
    DEFINE_PROP_NETDEV("netdev3", RalinkEswState, conf[3].peers),
    DEFINE_PROP_NETDEV("netdev4", RalinkEswState, conf[4].peers),
    DEFINE_PROP_END_OF_LIST(),
};

static void ralink_esw_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    object_class_property_add_str(klass, "fdb", ralink_esw_get_fdb, NULL);
    object_class_property_add_str(klass, "gen", ralink_esw_get_gen,
                                  ralink_esw_set_gen);
    dc->desc = "Ralink/MediaTek embedded 100 Mbit switch";
    dc->realize = ralink_esw_realize;
    dc->unrealize = ralink_esw_unrealize;
    dc->reset = ralink_esw_reset;
    dc->vmsd = &vmstate_ralink_esw;
    device_class_set_props(dc, ralink_esw_properties);
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
}

static const TypeInfo ralink_esw_info = {
    .name = TYPE_RALINK_ESW,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(RalinkEswState),
    .instance_init = ralink_esw_init,
    .class_init = ralink_esw_class_init,
};

static void ralink_esw_register_types(void)
{
    type_register_static(&ralink_esw_info);
}

type_init(ralink_esw_register_types)
