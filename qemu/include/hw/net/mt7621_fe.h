/*
 * MediaTek MT7621 frame engine (palmbus 0x1e100000)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_NET_MT7621_FE_H
#define HW_NET_MT7621_FE_H

#include "hw/sysbus.h"
#include "hw/net/mt7530.h"
#include "qom/object.h"

#define TYPE_MT7621_FE "mt7621-fe"
OBJECT_DECLARE_SIMPLE_TYPE(MT7621FEState, MT7621_FE)

#define MT7621_FE_SIZE          0x10000
#define MT7621_FE_NUM_GMACS     2

/* Reset inputs ("reset" GPIOs), as the sysctl's RSTCTRL drives them */
#define MT7621_FE_RESET_FE      0
#define MT7621_FE_RESET_ETH     1

struct MT7621FEState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    qemu_irq irq;
    /* The switch on the MDIO bus, wired to GMAC0 (port 6), GMAC1 (port 5) */
    MT7530State *sw;
    /* Guest RAM, where the DMA descriptors and buffers live */
    MemoryRegion *dma_mr;
    AddressSpace dma_as;
    bool in_reset[2];
};

#endif /* HW_NET_MT7621_FE_H */
