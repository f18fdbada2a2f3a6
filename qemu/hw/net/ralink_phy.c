/*
 * The built-in Ethernet PHYs of the Ralink/MediaTek switches, and a
 * generic external gigabit PHY
 *
 * Clause 22 PHYs with autonegotiation against a link partner that is
 * there while the port's network backend has link: the MT7530's gigabit
 * PHYs (MT7621), the ESW's 100 Mbit ones (RT305x, RT5350, MT7628), the
 * MT7620 GSW's, and the external PHY of the RT3883's and RT2880's GMAC
 * (ralink_fe.c). The
 * partner advertises every speed and pause, so a negotiated link is the
 * fastest both ends have, full duplex. Vendor registers (register 31
 * selects a page) are kept and read back for the pages the drivers
 * program: they tune analog and DSP settings that change nothing on an
 * emulated link. The MT7530's PHYs also have the EEE registers of the MMD
 * window.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/log.h"
#include "hw/net/ralink_phy.h"
#include "trace.h"

#define PHY_BMCR_RESET          0x8000
#define PHY_BMCR_ANENABLE       0x1000
#define PHY_BMCR_PDOWN          0x0800
#define PHY_BMCR_ANRESTART      0x0200
#define PHY_BMCR_FULLDPLX       0x0100
#define PHY_BMCR_SPEED1000      0x0040
#define PHY_BMCR_SPEED100       0x2000
#define PHY_BMSR_100_10         0x7800  /* 100/10, full and half duplex */
#define PHY_BMSR_ESTATEN        0x0100
#define PHY_BMSR_NOPREAMBLE     0x0040
#define PHY_BMSR_ANEGDONE       0x0020
#define PHY_BMSR_ANEGCAPABLE    0x0008
#define PHY_BMSR_LSTATUS        0x0004
#define PHY_BMSR_ERCAP          0x0001
#define PHY_ANAR_RESET          0x05e1  /* pause, 100/10, 802.3 */
#define PHY_ANLPAR_LINK         0xc5e1  /* the same, with ACK and NP */
#define PHY_GBCR_RESET          0x0300  /* 1000BASE-T full and half */
#define PHY_GBSR_LINK           0x3c00  /* the partner's, and ours */
#define PHY_ESTATUS             0x3000  /* 1000BASE-T full and half */
#define PHY_REG_MMD_CTRL        0x0d
#define PHY_REG_MMD_DATA        0x0e
#define PHY_MMD_FUNC_DATA       0xc000  /* MMD_CTRL: data, not address */
#define PHY_REG_PAGE            0x1f

/*
 * Energy-Efficient Ethernet through the MMD window (IEEE 802.3 45.2.3.10,
 * 45.2.7.13-14): the PCS's EEE capability (3.20), the EEE advertisement
 * (7.60) and the link partner's (7.61). A PHY with EEE advertises its
 * modes out of reset: mainline's mt7531_setup() clears the advertisement
 * of the same PHYs on the MT7531 for that reason ("Disable EEE
 * advertisement on the switch PHYs"), and nothing clears it on the
 * MT7621. The link partner advertises every EEE mode.
 */
#define PHY_MMD_PCS             3
#define PHY_MMD_AN              7
#define PHY_PCS_EEE_ABLE        20
#define PHY_AN_EEE_ADV          60
#define PHY_AN_EEE_LPABLE       61
#define PHY_EEE_100TX           BIT(1)
#define PHY_EEE_1000T           BIT(2)
/*
 * An autonegotiation restarted with the link up takes the link down until
 * it ends, 2 s of the virtual clock: 1000BASE-T's takes 2-3 s on the
 * silicon (clause 28's link_fail_inhibit_timer alone is 750-1000 ms), and
 * a PHY driver that polls (phylib: once a second) must see the link go.
 */
#define PHY_AN_NS               (2 * NANOSECONDS_PER_SECOND)

/*
 * The MT7530's PHYs: mainline's mtk-ge binds 0x03a29412; its
 * config_init programs extended pages 1, 2 and 3 and the token ring page
 * 0x52b5, through which every register but 31 is paged.
 */
static const uint16_t mt7530_pages[] = { 0x1, 0x2, 0x3, 0x52b5 };

const RalinkPhyModel ralink_phy_mt7530 = {
    .name = "mt7530",
    .id1 = 0x03a2,
    .id2 = 0x9412,
    .gigabit = true,
    .eee = PHY_EEE_100TX | PHY_EEE_1000T,
    .paged_from = 0,
    .pages = mt7530_pages,
    .n_pages = ARRAY_SIZE(mt7530_pages),
};

/*
 * The ESW's PHYs: U-Boot's mt7628_ephy_init() programs pages 0x2000
 * ("G2"), 0x8000 ("L0"), 0xa000 ("L2"), 0x5000 ("G5") and 0x4000 ("G4")
 * through registers 16-30, and writes BMCR (register 0) with "L0"
 * selected. It leaves "G4" selected on PHY 0, whose link it then polls
 * through phylib's BMSR reads (the VoCore2's mediatek,poll-link-phy): so
 * registers 0-15 are the standard ones whatever the page, as the model
 * has them. Their identifier is not known here (no driver matches one;
 * no boot log found shows it): the model gives MediaTek's OUI, as the
 * MT7530's PHYs report it, with model and revision 0.
 */
static const uint16_t esw_pages[] = { 0x2000, 0x4000, 0x5000, 0x8000, 0xa000 };

const RalinkPhyModel ralink_phy_esw = {
    .name = "esw",
    .id1 = 0x03a2,
    .id2 = 0x9400,
    .gigabit = false,
    .eee = 0,
    .paged_from = 16,
    .pages = esw_pages,
    .n_pages = ARRAY_SIZE(esw_pages),
};

/*
 * The MT7620 GSW's 100 Mbit PHYs: OpenWrt's mt7620_ephy_init() (and the
 * 2016 series' gsw_mt7620.c) program global pages 0x1000-0x4000 through
 * PHY 1 and local pages 0x8000 and 0xa000 ("L0", "L2") of each PHY
 * through registers 16-30, and ANAR and BMCR with a page selected: the
 * vendor pages cover registers 16-30, as the ESW's do. Their identifier
 * (0x03a2/0x940d) comes from one source, a vendor firmware's table of
 * switch PHY IDs; no driver matches it.
 */
static const uint16_t mt7620_pages[] = {
    0x1000, 0x2000, 0x3000, 0x4000, 0x8000, 0xa000,
};

const RalinkPhyModel ralink_phy_mt7620 = {
    .name = "mt7620",
    .id1 = 0x03a2,
    .id2 = 0x940d,
    .gigabit = false,
    .eee = 0,
    .paged_from = 16,
    .pages = mt7620_pages,
    .n_pages = ARRAY_SIZE(mt7620_pages),
};

/*
 * A generic external 10/100/1000BASE-T PHY, as on the RGMII port of the
 * RT3883's and RT2880's GMAC (OpenWrt's rt2880_port_init() takes any PHY
 * on the frame engine's MDIO; the evaluation boards' PHY is not known
 * here): IEEE 802.3 clause 22's registers only (BMCR, BMSR, the IDs,
 * ANAR, ANLPAR, GBCR, GBSR, ESTATUS), no vendor pages, no EEE, and
 * autonegotiation that completes only with a link partner. Its
 * identifier has no vendor's OUI (0), model 1: no mainline PHY driver
 * claims it, so phylib binds its Generic PHY driver, which needs nothing
 * more.
 */
const RalinkPhyModel ralink_phy_generic = {
    .name = "gphy",
    .id1 = 0x0000,
    .id2 = 0x0010,
    .gigabit = true,
    .aneg_needs_link = true,
    .eee = 0,
    .paged_from = 32,
    .pages = NULL,
    .n_pages = 0,
};

bool ralink_phy_link(RalinkPhy *phy)
{
    return !(phy->bmcr & PHY_BMCR_PDOWN) && !phy->an_done &&
           phy->partner(phy->opaque, phy->addr);
}

unsigned ralink_phy_eee(RalinkPhy *phy)
{
    if (!ralink_phy_link(phy) || !(phy->bmcr & PHY_BMCR_ANENABLE)) {
        return 0;
    }
    return phy->eee_adv & phy->model->eee;
}

void ralink_phy_check_link(RalinkPhy *phy)
{
    bool link = ralink_phy_link(phy);

    if (link != phy->link) {
        phy->link = link;
        phy->link_changed(phy->opaque, phy->addr);
    }
}

void ralink_phy_reset(RalinkPhy *phy)
{
    phy->bmcr = PHY_BMCR_ANENABLE | PHY_BMCR_FULLDPLX |
                (phy->model->gigabit ? PHY_BMCR_SPEED1000 : PHY_BMCR_SPEED100);
    phy->anar = PHY_ANAR_RESET;
    phy->gbcr = phy->model->gigabit ? PHY_GBCR_RESET : 0;
    phy->page = 0;
    memset(phy->vendor, 0, sizeof(phy->vendor));
    memset(phy->mmd, 0, sizeof(phy->mmd));
    phy->mmd_ctrl = 0;
    phy->mmd_addr = 0;
    phy->eee_adv = phy->model->eee;
    phy->an_done = 0;
    timer_del(phy->an_timer);
}

static void ralink_phy_an_tick(void *opaque)
{
    RalinkPhy *phy = opaque;

    phy->an_done = 0;
    ralink_phy_check_link(phy);
    trace_ralink_phy_aneg(phy->model->name, phy->addr, "done",
                          ralink_phy_eee(phy));
}

/* (Re)start autonegotiation: a link the PHY had is down meanwhile */
static void ralink_phy_restart_an(RalinkPhy *phy)
{
    if (!ralink_phy_link(phy)) {
        return;     /* no partner: nothing to negotiate with */
    }
    phy->an_done = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + PHY_AN_NS;
    timer_mod(phy->an_timer, phy->an_done);
    trace_ralink_phy_aneg(phy->model->name, phy->addr, "restarted", 0);
}

/*
 * A read of the clause 45 register the MMD window addresses, if it is one
 * of the EEE registers (*@known); the others are kept in a small store.
 */
static uint16_t ralink_phy_mmd_read(RalinkPhy *phy, bool *known)
{
    unsigned devad = phy->mmd_ctrl & 0x1f;

    *known = phy->model->eee != 0;
    if (*known && devad == PHY_MMD_PCS && phy->mmd_addr == PHY_PCS_EEE_ABLE) {
        return phy->model->eee;
    }
    if (*known && devad == PHY_MMD_AN && phy->mmd_addr == PHY_AN_EEE_ADV) {
        return phy->eee_adv;
    }
    if (*known && devad == PHY_MMD_AN && phy->mmd_addr == PHY_AN_EEE_LPABLE) {
        return ralink_phy_link(phy) ? phy->model->eee : 0;
    }
    *known = false;
    return 0;
}

static uint16_t *ralink_phy_mmd(RalinkPhy *phy)
{
    unsigned i = (phy->mmd_ctrl & 0x1f) * 8 + (phy->mmd_addr & 7);

    /* A small window of MMD space: enough for the registers written */
    return &phy->mmd[i % RALINK_PHY_MMD_REGS];
}

/* Register @reg of the selected vendor page, or NULL if not kept */
static uint16_t *ralink_phy_vendor(RalinkPhy *phy, unsigned reg)
{
    int i;

    for (i = 0; i < phy->model->n_pages; i++) {
        if (phy->page == phy->model->pages[i]) {
            return &phy->vendor[i][reg & 31];
        }
    }
    return NULL;
}

static bool ralink_phy_paged(RalinkPhy *phy, unsigned reg)
{
    return phy->page && reg >= phy->model->paged_from;
}

uint16_t ralink_phy_read(RalinkPhy *phy, unsigned reg)
{
    const RalinkPhyModel *m = phy->model;
    bool link = ralink_phy_link(phy);

    if (reg == PHY_REG_PAGE) {
        return phy->page;
    }
    if (ralink_phy_paged(phy, reg)) {
        uint16_t *v = ralink_phy_vendor(phy, reg);

        if (v) {
            return *v;
        }
        qemu_log_mask(LOG_UNIMP, "%s: PHY %d page 0x%x reg %u read\n",
                      m->name, phy->addr, phy->page, reg);
        return 0;
    }
    switch (reg) {
    case 0:
        return phy->bmcr;
    case 1:
        phy->link = link;
        return PHY_BMSR_100_10 | PHY_BMSR_NOPREAMBLE | PHY_BMSR_ANEGCAPABLE |
               PHY_BMSR_ERCAP | (m->gigabit ? PHY_BMSR_ESTATEN : 0) |
               /* The MT7530 model has always said "done" */
               (link || (m->gigabit && !m->aneg_needs_link) ?
                PHY_BMSR_ANEGDONE : 0) |
               (link ? PHY_BMSR_LSTATUS : 0);
    case 2:
        return m->id1;
    case 3:
        return m->id2;
    case 4:
        return phy->anar;
    case 5:
        return link ? PHY_ANLPAR_LINK : 0;
    case 9:
        return phy->gbcr;
    case 10:
        return link && m->gigabit ? PHY_GBSR_LINK : 0;
    case PHY_REG_MMD_CTRL:
        return phy->mmd_ctrl;
    case PHY_REG_MMD_DATA: {
        bool known;
        uint16_t v;

        if (!(phy->mmd_ctrl & PHY_MMD_FUNC_DATA)) {
            return phy->mmd_addr;
        }
        v = ralink_phy_mmd_read(phy, &known);
        return known ? v : *ralink_phy_mmd(phy);
    }
    case 15:
        return m->gigabit ? PHY_ESTATUS : 0;
    default:
        return 0;
    }
}

void ralink_phy_write(RalinkPhy *phy, unsigned reg, uint16_t val)
{
    const RalinkPhyModel *m = phy->model;

    if (reg == PHY_REG_PAGE) {
        phy->page = val;
        return;
    }
    if (ralink_phy_paged(phy, reg)) {
        uint16_t *v = ralink_phy_vendor(phy, reg);

        if (v) {
            *v = val;
        } else {
            qemu_log_mask(LOG_UNIMP, "%s: PHY %d page 0x%x reg %u write "
                          "0x%x\n", m->name, phy->addr, phy->page, reg, val);
        }
        return;
    }
    switch (reg) {
    case 0:
        if (val & PHY_BMCR_RESET) {
            ralink_phy_reset(phy);
        } else {
            phy->bmcr = val & ~PHY_BMCR_ANRESTART;
            if ((val & (PHY_BMCR_ANRESTART | PHY_BMCR_ANENABLE)) ==
                (PHY_BMCR_ANRESTART | PHY_BMCR_ANENABLE)) {
                ralink_phy_restart_an(phy);
            }
        }
        ralink_phy_check_link(phy);
        break;
    case 4:
        phy->anar = val;
        break;
    case 9:
        if (m->gigabit) {
            phy->gbcr = val;
        }
        break;
    case PHY_REG_MMD_CTRL:
        phy->mmd_ctrl = val;
        break;
    case PHY_REG_MMD_DATA:
        if (!(phy->mmd_ctrl & PHY_MMD_FUNC_DATA)) {
            phy->mmd_addr = val;
        } else if (m->eee && (phy->mmd_ctrl & 0x1f) == PHY_MMD_AN &&
                   phy->mmd_addr == PHY_AN_EEE_ADV) {
            /* Takes effect at the next autonegotiation */
            phy->eee_adv = val & m->eee;
        } else if (m->eee && (((phy->mmd_ctrl & 0x1f) == PHY_MMD_AN &&
                               phy->mmd_addr == PHY_AN_EEE_LPABLE) ||
                              ((phy->mmd_ctrl & 0x1f) == PHY_MMD_PCS &&
                               phy->mmd_addr == PHY_PCS_EEE_ABLE))) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: PHY %d write to read-only "
                          "MMD register %u.%u\n", m->name, phy->addr,
                          phy->mmd_ctrl & 0x1f, phy->mmd_addr);
        } else {
            *ralink_phy_mmd(phy) = val;
        }
        break;
    default:
        qemu_log_mask(LOG_UNIMP, "%s: PHY %d reg %u write 0x%x\n",
                      m->name, phy->addr, reg, val);
        break;
    }
}

void ralink_phy_init(RalinkPhy *phy, const RalinkPhyModel *model, int addr,
                     bool (*partner)(void *opaque, int addr),
                     void (*link_changed)(void *opaque, int addr),
                     void *opaque)
{
    assert(model->n_pages <= RALINK_PHY_MAX_PAGES);
    phy->model = model;
    phy->addr = addr;
    phy->partner = partner;
    phy->link_changed = link_changed;
    phy->opaque = opaque;
    phy->an_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, ralink_phy_an_tick, phy);
    ralink_phy_reset(phy);
}

void ralink_phy_finalize(RalinkPhy *phy)
{
    timer_free(phy->an_timer);
}

const VMStateDescription vmstate_ralink_phy = {
    .name = "ralink-phy",
    .version_id = 2,
    .minimum_version_id = 2,
    .fields = (VMStateField[]) {
        VMSTATE_UINT16(bmcr, RalinkPhy),
        VMSTATE_UINT16(anar, RalinkPhy),
        VMSTATE_UINT16(gbcr, RalinkPhy),
        VMSTATE_UINT16(page, RalinkPhy),
        VMSTATE_UINT16(mmd_ctrl, RalinkPhy),
        VMSTATE_UINT16(mmd_addr, RalinkPhy),
        VMSTATE_UINT16_ARRAY(mmd, RalinkPhy, RALINK_PHY_MMD_REGS),
        VMSTATE_UINT16_2DARRAY(vendor, RalinkPhy, RALINK_PHY_MAX_PAGES, 32),
        VMSTATE_UINT16(eee_adv, RalinkPhy),
        VMSTATE_INT64(an_done, RalinkPhy),
        VMSTATE_TIMER_PTR(an_timer, RalinkPhy),
        VMSTATE_BOOL(link, RalinkPhy),
        VMSTATE_END_OF_LIST()
    }
};
