/*
 * Ralink/MediaTek SoCs with one CPU: MT7620A, MT7628AN/MT7688, RT3052,
 * RT5350, RT3883, RT2880
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_MIPS_RALINK_SOC_H
#define HW_MIPS_RALINK_SOC_H

#include "hw/char/mtk_uart.h"
#include "hw/char/ralink_uart.h"
#include "hw/clock.h"
#include "hw/intc/ralink_intc.h"
#include "hw/net/mt7530.h"
#include "hw/misc/ralink_sysctl.h"
#include "hw/net/ralink_esw.h"
#include "hw/net/ralink_fe.h"
#include "hw/sysbus.h"
#include "qom/object.h"
#include "target/mips/cpu.h"

#define TYPE_RALINK_SOC "ralink-soc"
OBJECT_DECLARE_SIMPLE_TYPE(RalinkSocState, RALINK_SOC)

#define RALINK_SOC_PALMBUS_BASE 0x10000000   /* the RT2880's: 0x00300000 */
#define RALINK_SOC_PALMBUS_SIZE 0x00200000
#define RALINK_SOC_BOOTROM_BASE 0x1fc00000
#define RALINK_SOC_BOOTROM_SIZE 0x1000
#define RALINK_SOC_MAX_UARTS    3

typedef struct RalinkSocInfo RalinkSocInfo;

/**
 * RalinkSocState: the SoC, as its "soc" property names it.
 * @soc: "mt7620a", "mt7628an", "mt7688", "rt2880", "rt3052", "rt3883" or
 *       "rt5350" (the sysctl's table too)
 * @info: what that SoC has (ralink_soc.c)
 * @eco: its ECO revision (property "eco": -global ralink-soc.eco=N), on
 *       the SoCs whose CHIP_REV has one (the MT7620's frame engine has
 *       fewer offloads before ECO 5); the chip's own if unset
 */
struct RalinkSocState {
    SysBusDevice parent_obj;

    char *cpu_type;
    char *soc;
    uint8_t eco;
    const RalinkSocInfo *info;

    MIPSCPU *cpu;
    Clock *cpuclk;
    RalinkSysctlState sysctl;
    RalinkIntcState intc;
    MTKUartState *uart[RALINK_SOC_MAX_UARTS];
    RalinkUartState *uartlite;
    RalinkEswState esw;
    bool has_esw;
    MT7530State gsw;
    bool has_gsw;
    RalinkFEState fe;
    bool has_fe;
    MemoryRegion bootrom;
};

/* The largest DDR the SoC addresses (its window), and where it starts */
uint64_t ralink_soc_ddr_window(const char *soc);
hwaddr ralink_soc_ddr_base(const char *soc);
/*
 * The SoC's switch, for a board to give it its ports before the SoC is
 * realized (the "soc" property set), or NULL where none is modelled
 */
DeviceState *ralink_soc_switch(RalinkSocState *s);
/*
 * The device that takes the board's NICs before the SoC is realized: the
 * switch, or the frame engine where its GMAC is the one port; its number
 * of ports (*@n) and its model name (*@model). NULL where none is modelled.
 */
DeviceState *ralink_soc_ports(RalinkSocState *s, int *n, const char **model);
/* Where a board puts the instructions the CPU starts with */
uint32_t *ralink_soc_bootrom_ptr(RalinkSocState *s);

#endif /* HW_MIPS_RALINK_SOC_H */
