/*
 * MediaTek MT7621 system controller (sysctl, palmbus 0x1e000000)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_MISC_MT7621_SYSCTL_H
#define HW_MISC_MT7621_SYSCTL_H

#include "hw/sysbus.h"
#include "qom/object.h"

#define TYPE_MT7621_SYSCTL "mt7621-sysctl"
OBJECT_DECLARE_SIMPLE_TYPE(MT7621SysctlState, MT7621_SYSCTL)

#define MT7621_SYSCTL_SIZE      0x100

/* Register offsets */
#define SYSCTL_CHIP_NAME0       0x00
#define SYSCTL_CHIP_NAME1       0x04
#define SYSCTL_CHIP_NAME2       0x08
#define SYSCTL_CHIP_REV         0x0c
#define SYSCTL_SYSCFG0          0x10
#define SYSCTL_SYSCFG1          0x14
#define SYSCTL_CLKCFG0          0x2c
#define SYSCTL_CLKCFG1          0x30
#define SYSCTL_RSTCTRL          0x34
#define SYSCTL_RSTSTAT          0x38
#define SYSCTL_CUR_CLK_STS      0x44
#define SYSCTL_GPIO_MODE        0x60
/*
 * Pad configuration of the pin groups (UART1/GPIO0, UART3/I2C,
 * UART2/JTAG, PERST/WDT, RGMII2/MDIO, SDXC/SPI at 0x48-0x5c; boot option
 * and switch interrupt at 0x70), which U-Boot's pinctrl-mt7621.c writes
 * (PAD_*_OFS from 0x48). Kept and read back: pads have no effect here.
 */
#define SYSCTL_PAD_BASE         0x48
#define SYSCTL_PAD_REGS         6
#define SYSCTL_PAD_BOPT_ESWINT  0x70

/* CHIP_REV fields */
#define CHIP_REV_ECO_SHIFT      0
#define CHIP_REV_VER_SHIFT      8
#define CHIP_REV_PKG_A          (1 << 16) /* MT7621A package */
#define CHIP_REV_DUAL_CORE      (1 << 17) /* clear on the MT7621S */
/* MT7621A version 1, ECO 3, as on the GnuBee boards */
#define MT7621_CHIP_REV(cores) \
    ((1 << CHIP_REV_VER_SHIFT) | (3 << CHIP_REV_ECO_SHIFT) | CHIP_REV_PKG_A | \
     ((cores) > 1 ? CHIP_REV_DUAL_CORE : 0))

/* SYSCFG0 strap fields */
#define SYSCFG0_CHIP_MODE_SHIFT 0       /* boot device */
#define SYSCFG0_CHIP_MODE_NOR3B 2       /* SPI NOR, 3-byte addressing */
#define SYSCFG0_DRAM_TYPE_DDR2  (1 << 4) /* clear: DDR3 */
#define SYSCFG0_OCP_RATIO_1_4   (1 << 5) /* clear: 1/3 */
#define SYSCFG0_XTAL_MODE_SEL_SHIFT 6   /* 3..5: 40 MHz crystal */
#define SYSCFG0_DRAM_CONF_AUTO  (1 << 9) /* DRAM size auto-detected */

/* CLKCFG0: CPU clock source */
#define CLKCFG0_CPU_CLK_SEL_SHIFT 30
#define CLKCFG0_CPU_CLK_SEL_PLL 1

/*
 * RSTCTRL: one bit per block, set to hold it in reset
 * (include/dt-bindings/reset/mt7621-reset.h). Each bit also drives the
 * sysctl's "reset" GPIO output of the same number.
 */
#define RSTCTRL_SYS_RST         (1 << 0)
#define MT7621_RST_MCM          2   /* the MT7530 switch core */
#define MT7621_RST_FE           6   /* the frame engine */
#define MT7621_RST_ETH          23  /* the frame engine's GMACs */
#define MT7621_NUM_RESETS       32

/* CUR_CLK_STS: the CPU clock divider, FFRAC / FDIV of the selected clock */
#define CUR_CLK_STS_FDIV_SHIFT  8
#define CUR_CLK_STS_FFRAC_SHIFT 0

/*
 * The clock tree the straps and PLL registers describe, shared with the
 * memory controller (which holds the CPU PLL) and the SoC (which clocks the
 * CPUs and the GIC counter from it): a 40 MHz crystal and the CPU PLL at
 * (FBDIV + 1) * 40 MHz = 880 MHz, the GnuBee's CPU clock.
 */
#define MT7621_XTAL_HZ          40000000
#define MT7621_XTAL_MODE_SEL    3 /* 3..5 select 40 MHz */
#define MT7621_CPU_PLL_FBDIV    21
#define MT7621_CPU_HZ           ((MT7621_CPU_PLL_FBDIV + 1) * MT7621_XTAL_HZ)

struct MT7621SysctlState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    qemu_irq reset_out[MT7621_NUM_RESETS];
    uint32_t syscfg1;
    uint32_t clkcfg0;
    uint32_t clkcfg1;
    uint32_t rstctrl;
    uint32_t gpio_mode;
    uint32_t pad[SYSCTL_PAD_REGS];
    uint32_t pad_bopt_eswint;
    uint32_t chip_rev;
};

#endif /* HW_MISC_MT7621_SYSCTL_H */
