/*
 * Ralink/MediaTek SoC interrupt controller ("ralink,rt2880-intc")
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_INTC_RALINK_INTC_H
#define HW_INTC_RALINK_INTC_H

#include "hw/sysbus.h"
#include "qom/object.h"

#define TYPE_RALINK_INTC "ralink-intc"
OBJECT_DECLARE_SIMPLE_TYPE(RalinkIntcState, RALINK_INTC)

#define RALINK_INTC_NUM_IRQS    32
#define RALINK_INTC_SIZE        0x100

/* The registers, in the order of Linux's ralink,intc-registers */
enum {
    RALINK_INTC_STATUS0,        /* pending, routed to the IRQ output */
    RALINK_INTC_STATUS1,        /* pending, routed to the FIQ output */
    RALINK_INTC_TYPE,           /* 1: the line goes to FIQ */
    RALINK_INTC_RAW,            /* the lines, unmasked */
    RALINK_INTC_ENABLE,         /* write 1: enable; bit 31 global */
    RALINK_INTC_DISABLE,        /* write 1: disable */
    RALINK_INTC_NUM_REGS,
};

struct RalinkIntcState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    /* The CPU's interrupt pins: IRQ (MIPS HW0, IP2), FIQ (HW1, IP3) */
    qemu_irq irq, fiq;
    /* Register offsets (properties "reg-status0" ...) */
    uint32_t reg[RALINK_INTC_NUM_REGS];

    uint32_t raw;               /* input levels */
    uint32_t enable;            /* enabled lines, bit 31 global */
    uint32_t type;
};

#endif /* HW_INTC_RALINK_INTC_H */
