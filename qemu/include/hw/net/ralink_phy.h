/*
 * The built-in Ethernet PHYs of the Ralink/MediaTek switches, and a
 * generic external gigabit PHY
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_NET_RALINK_PHY_H
#define HW_NET_RALINK_PHY_H

#include "migration/vmstate.h"
#include "qemu/timer.h"

#define RALINK_PHY_MMD_REGS     64
#define RALINK_PHY_MAX_PAGES    6

/**
 * RalinkPhyModel: what differs between the switches' PHYs.
 * @name: for the log
 * @id1, @id2: registers 2 and 3
 * @gigabit: 1000BASE-T (registers 9, 10 and 15, BMSR's ESTATEN)
 * @aneg_needs_link: BMSR says autonegotiation is complete only while the
 *                   link is up (the switches' gigabit PHYs say it always)
 * @eee: the EEE modes of the MMD window's registers (0: none)
 * @paged_from: the first register a vendor page (register 31) selects
 * @pages: the vendor pages whose registers are kept, @n_pages of them
 */
typedef struct RalinkPhyModel {
    const char *name;
    uint16_t id1, id2;
    bool gigabit;
    bool aneg_needs_link;
    uint16_t eee;
    unsigned paged_from;
    const uint16_t *pages;
    int n_pages;
} RalinkPhyModel;

/* The MT7530's (MT7621's) gigabit PHYs, as mainline's mtk-ge binds them */
extern const RalinkPhyModel ralink_phy_mt7530;
/* The ESW's 100 Mbit PHYs (RT305x, RT5350, MT7628) */
extern const RalinkPhyModel ralink_phy_esw;
/* The MT7620 GSW's 100 Mbit PHYs */
extern const RalinkPhyModel ralink_phy_mt7620;
/* A generic external gigabit PHY (the RT3883's and RT2880's GMAC) */
extern const RalinkPhyModel ralink_phy_generic;

/**
 * RalinkPhy: one PHY.
 * @partner: whether a link partner is there (the port's backend has link
 *           and the switch is out of reset), called with @opaque, @addr
 * @link_changed: the PHY's link changed (its interrupt)
 * @link: as last reported through BMSR or @link_changed
 * @an_done: when a running autonegotiation ends (virtual ns), or 0
 */
typedef struct RalinkPhy {
    const RalinkPhyModel *model;
    int addr;
    bool (*partner)(void *opaque, int addr);
    void (*link_changed)(void *opaque, int addr);
    void *opaque;
    QEMUTimer *an_timer;

    uint16_t bmcr;
    uint16_t anar;
    uint16_t gbcr;
    uint16_t page;
    uint16_t mmd_ctrl;
    uint16_t mmd_addr;
    uint16_t mmd[RALINK_PHY_MMD_REGS];
    uint16_t vendor[RALINK_PHY_MAX_PAGES][32];
    uint16_t eee_adv;
    int64_t an_done;
    bool link;
} RalinkPhy;

void ralink_phy_init(RalinkPhy *phy, const RalinkPhyModel *model, int addr,
                     bool (*partner)(void *opaque, int addr),
                     void (*link_changed)(void *opaque, int addr),
                     void *opaque);
void ralink_phy_finalize(RalinkPhy *phy);
/* A hardware reset: registers as out of reset, no autonegotiation */
void ralink_phy_reset(RalinkPhy *phy);
/* Whether the link is up now */
bool ralink_phy_link(RalinkPhy *phy);
/* The EEE modes both ends advertise while the link is up */
unsigned ralink_phy_eee(RalinkPhy *phy);
/* The partner may have come or gone: report a change */
void ralink_phy_check_link(RalinkPhy *phy);
uint16_t ralink_phy_read(RalinkPhy *phy, unsigned reg);
void ralink_phy_write(RalinkPhy *phy, unsigned reg, uint16_t val);

extern const VMStateDescription vmstate_ralink_phy;

#endif /* HW_NET_RALINK_PHY_H */
