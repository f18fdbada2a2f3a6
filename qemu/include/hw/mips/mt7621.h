/*
 * MediaTek MT7621 SoC
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_MIPS_MT7621_H
#define HW_MIPS_MT7621_H

#include "hw/sysbus.h"
#include "hw/mips/cps.h"
#include "hw/misc/mt7621_sysctl.h"
#include "hw/misc/mt7621_memc.h"
#include "hw/char/mtk_uart.h"
#include "hw/net/mt7530.h"
#include "hw/net/mt7621_fe.h"
#include "qom/object.h"

#define TYPE_MT7621_SOC "mt7621-soc"
OBJECT_DECLARE_SIMPLE_TYPE(MT7621State, MT7621_SOC)

/* Physical memory map */
#define MT7621_LOWMEM_BASE      0x00000000
#define MT7621_LOWMEM_MAX_SIZE  0x1c000000  /* DDR below the I/O window */
#define MT7621_HIGHMEM_BASE     0x20000000  /* DDR above 448 MiB */
#define MT7621_IOCU_WINDOW      0x1c000000  /* what the bootloader routes */
#define MT7621_IOCU_WINDOW_SIZE 0x04000000  /* to IOCU0 with CM region 0 */
#define MT7621_PALMBUS_BASE     0x1e000000
#define MT7621_PALMBUS_SIZE     0x00200000
#define MT7621_GIC_BASE         0x1fbc0000
#define MT7621_CPC_BASE         0x1fbf0000
#define MT7621_GCR_BASE         0x1fbf8000
#define MT7621_PCIE_MEM_BASE    0x60000000
#define MT7621_PCIE_MEM_SIZE    0x10000000
#define MT7621_BOOTROM_BASE     0x1fc00000  /* the boot flash window */
#define MT7621_BOOTROM_SIZE     0x00010000

/* Palmbus blocks, as offsets from MT7621_PALMBUS_BASE */
#define MT7621_SYSCTL_OFS       0x000000
#define MT7621_MEMC_OFS         0x005000
#define MT7621_FE_OFS           0x100000
#define MT7621_UART1_OFS        0x000c00
#define MT7621_UART_STRIDE      0x100
/*
 * Past the 16550's eight registers, MediaTek's UART has its own: MDR1,
 * HIGHSPEED, SAMPLE_COUNT, SAMPLE_POINT, FRACDIV_L/M, ESCAPE_EN, GUARD,
 * RX_SEL (U-Boot's drivers/serial/serial_mtk.c, struct mtk_serial_regs),
 * which U-Boot's driver programs for the baud rate. Kept and read back.
 */
#define MT7621_NUM_UARTS        3
#define MT7621_UART_CLK_HZ      50000000    /* the "50m" clock */

/* GIC shared interrupts: 64 on the MT7621 */
#define MT7621_GIC_NUM_IRQS     64
#define MT7621_IRQ_FE           3
#define MT7621_IRQ_SWITCH       23
#define MT7621_IRQ_UART1        26          /* UART2, UART3 follow */

/* Two VPEs per 1004Kc core */
#define MT7621_VPES_PER_CORE    2

struct MT7621State {
    SysBusDevice parent_obj;

    MIPSCPSState cps;
    MT7621SysctlState sysctl;
    MT7621MemcState memc;
    MTKUartState *uart[MT7621_NUM_UARTS];
    MT7621FEState fe;
    MT7530State sw;

    /* The I/O bus behind IOCU0: the palmbus and the boot flash window */
    MemoryRegion iocu;
    /* The I/O window as seen while no CM region routes it to IOCU0 */
    MemoryRegion unrouted;
    MemoryRegion bootrom;
    MemoryRegion bootrom_iocu;
    Clock *cpuclk;

    uint32_t num_cores;
    char *cpu_type;
};

/* Where the board writes the code the CPU runs out of reset */
static inline void *mt7621_bootrom_ptr(MT7621State *s)
{
    return memory_region_get_ram_ptr(&s->bootrom);
}

#endif /* HW_MIPS_MT7621_H */
