/*
 * MediaTek MT7621 memory controller (palmbus 0x1e005000)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_MISC_MT7621_MEMC_H
#define HW_MISC_MT7621_MEMC_H

#include "hw/sysbus.h"
#include "qom/object.h"

#define TYPE_MT7621_MEMC "mt7621-memc"
OBJECT_DECLARE_SIMPLE_TYPE(MT7621MemcState, MT7621_MEMC)

#define MT7621_MEMC_SIZE        0x1000

/* The CPU PLL configuration, read by Linux's clk-mt7621 */
#define MEMC_CPU_PLL            0x648
#define CPU_PLL_FBDIV_SHIFT     4   /* bits 10:4, PLL = (FBDIV + 1) * xtal */
#define CPU_PLL_PREDIV_SHIFT    12  /* bits 13:12, 0: no pre-divider */
/*
 * The DDR PLL, which U-Boot's clk-mt7621 reads for the DDR rate it prints
 * (MEMPLL1_REG, MEMPLL6_REG there): DDR clock = FBDIV * xtal / pre-divider
 * of MEMPLL6, doubled unless MEMPLL1's DIV2_SEL (bits 2:1) is set.
 */
#define MEMC_MEMPLL1            0x604
#define MEMPLL1_DIV2_SEL_SHIFT  1
#define MEMC_MEMPLL6            0x618

struct MT7621MemcState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    uint32_t cpu_pll;
};

#endif /* HW_MISC_MT7621_MEMC_H */
