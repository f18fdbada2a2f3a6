/*
 * MediaTek MT7628AN / MT7688 SoC
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_MIPS_MT7628_H
#define HW_MIPS_MT7628_H

#include "hw/char/mtk_uart.h"
#include "hw/clock.h"
#include "hw/intc/ralink_intc.h"
#include "hw/misc/ralink_sysctl.h"
#include "hw/net/ralink_esw.h"
#include "hw/net/ralink_fe.h"
#include "hw/sysbus.h"
#include "qom/object.h"
#include "target/mips/cpu.h"

#define TYPE_MT7628_SOC "mt7628-soc"
OBJECT_DECLARE_SIMPLE_TYPE(MT7628State, MT7628_SOC)

/* The DDR window: up to 256 MiB at 0, the palmbus above it */
#define MT7628_DDR_WINDOW       (256 * MiB)
#define MT7628_PALMBUS_BASE     0x10000000
#define MT7628_PALMBUS_SIZE     0x00200000
#define MT7628_BOOTROM_BASE     0x1fc00000
#define MT7628_BOOTROM_SIZE     0x1000

/*
 * The CPU's clock: 580 MHz from a 40 MHz crystal (clk-mtmips.c
 * mt76x8_cpu_recalc_rate()); the CP0 counter runs at half of it.
 */
#define MT7628_CPU_HZ           580000000
#define MT7628_NUM_UARTS        3

struct MT7628State {
    SysBusDevice parent_obj;

    /* Properties */
    char *cpu_type;
    char *soc;                  /* "mt7628an" or "mt7688" (the sysctl's) */

    MIPSCPU *cpu;
    Clock *cpuclk;
    RalinkSysctlState sysctl;
    RalinkIntcState intc;
    MTKUartState *uart[MT7628_NUM_UARTS];
    RalinkEswState esw;
    RalinkFEState fe;
    MemoryRegion bootrom;
};

/* Where a board puts the instructions the CPU starts with */
uint32_t *mt7628_bootrom_ptr(MT7628State *s);

#endif /* HW_MIPS_MT7628_H */
