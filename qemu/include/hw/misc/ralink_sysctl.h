/*
 * Ralink/MediaTek system controller (sysctl), the SoCs before the MT7621
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_MISC_RALINK_SYSCTL_H
#define HW_MISC_RALINK_SYSCTL_H

#include "hw/sysbus.h"
#include "qom/object.h"

#define TYPE_RALINK_SYSCTL "ralink-sysctl"
OBJECT_DECLARE_SIMPLE_TYPE(RalinkSysctlState, RALINK_SYSCTL)

#define RALINK_SYSCTL_SIZE      0x100
#define RALINK_SYSCTL_NUM_RESETS 32

/* RSTCTL bit 0 resets the system (arch/mips/ralink/reset.c) */
#define RALINK_RST_SYS          0

typedef struct RalinkSysctlSoc RalinkSysctlSoc;

/* Property "eco" unset: the chip's own revision */
#define RALINK_SYSCTL_ECO_CHIP  0xff

struct RalinkSysctlState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    qemu_irq reset_out[RALINK_SYSCTL_NUM_RESETS];
    /* Property "soc": which chip, straps and registers (ralink_sysctl.c) */
    char *soc_name;
    const RalinkSysctlSoc *soc;
    /*
     * Property "eco": the ECO revision in CHIP_REV (3:0), on the SoCs
     * that have the field (MT7620, MT7628); the chip's own if unset
     */
    uint8_t eco;
    uint32_t chip_rev;

    /* Registers kept as written, by offset / 4 */
    uint32_t regs[RALINK_SYSCTL_SIZE / 4];
};

/* The ECO revision CHIP_REV reads, or RALINK_SYSCTL_ECO_CHIP if none */
uint8_t ralink_sysctl_eco(RalinkSysctlState *s);

#endif /* HW_MISC_RALINK_SYSCTL_H */
