/*
 * MediaTek MT7530 switch core, as built into the MT7621 (MCM)
 *
 * Seven ports: 0-4 with internal gigabit PHYs (each on its own QEMU
 * network backend), 5 and 6 with MACs wired to the frame engine's GMAC1
 * and GMAC0. The switch registers and the PHYs are reached over the frame
 * engine's MDIO bus: the switch at address 0x1f (32-bit registers through
 * the page/offset scheme), PHY n at address n.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_NET_MT7530_H
#define HW_NET_MT7530_H

#include "hw/sysbus.h"
#include "net/net.h"
#include "qom/object.h"

#define TYPE_MT7530 "mt7530"
OBJECT_DECLARE_SIMPLE_TYPE(MT7530State, MT7530)

#define MT7530_NUM_PORTS        7
#define MT7530_NUM_PHYS         5       /* ports 0-4 */
#define MT7530_GMAC1_PORT       5       /* wired to the FE's GMAC1 */
#define MT7530_CPU_PORT         6       /* wired to the FE's GMAC0 */
#define MT7530_MDIO_ADDR        0x1f    /* the switch's own MDIO address */

/**
 * MT7530MacOps: the MAC at the far end of port 5 or 6 (a GMAC of the frame
 * engine), as the switch sees it.
 * @can_receive: whether the MAC can take a frame now
 * @receive: a frame leaving the switch through the port, as on the wire
 *   (with the MTK special tag when the port has it enabled); the MAC
 *   appends no FCS
 */
typedef struct MT7530MacOps {
    bool (*can_receive)(void *opaque);
    void (*receive)(void *opaque, const uint8_t *buf, size_t len);
} MT7530MacOps;

/* Wire @port (5 or 6) to a MAC. */
void mt7530_attach_mac(MT7530State *s, int port, const MT7530MacOps *ops,
                       void *opaque);
/* A frame from the MAC wired to @port entering the switch. */
void mt7530_mac_transmit(MT7530State *s, int port, const uint8_t *buf,
                         size_t len);
/* The MAC wired to @port can receive again (e.g. its RX ring was refilled). */
void mt7530_mac_ready(MT7530State *s, int port);

/*
 * MDIO, as the frame engine's master drives it. Addresses with nothing
 * behind them read as 0xffff, as on a bus with pull-ups.
 */
uint16_t mt7530_mdio_read(MT7530State *s, unsigned addr, unsigned reg);
void mt7530_mdio_write(MT7530State *s, unsigned addr, unsigned reg,
                       uint16_t val);
/* Clause 45: @devad and @reg of the device at @addr. */
uint16_t mt7530_mdio_c45_read(MT7530State *s, unsigned addr, unsigned devad,
                              unsigned reg);
void mt7530_mdio_c45_write(MT7530State *s, unsigned addr, unsigned devad,
                           unsigned reg, uint16_t val);

struct MT7530State {
    SysBusDevice parent_obj;

    /* The front ports' network backends: netdev0..netdev4 */
    NICConf conf[MT7530_NUM_PHYS];
    NICState *nic[MT7530_NUM_PHYS];
    qemu_irq irq;
    bool in_reset;

    const MT7530MacOps *mac_ops[MT7530_NUM_PORTS];
    void *mac_opaque[MT7530_NUM_PORTS];
};

#endif /* HW_NET_MT7530_H */
