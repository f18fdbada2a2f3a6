/*
 * Ralink/MediaTek system controller (sysctl), the SoCs before the MT7621
 *
 * The first block on the palmbus: the chip's name and revision, the boot
 * straps (SYSCFG0), clock configuration and gates, pin muxing and the
 * reset controller (RSTCTL: a bit a block, set to hold it in reset; bit
 * 0 resets the system). Linux reads the name and straps before it has a
 * console (arch/mips/ralink/mt7620.c prom_soc_init(): an unknown name is
 * a panic nobody sees), the clock driver (drivers/clk/ralink/clk-mtmips.c)
 * computes the CPU clock from the straps, the early console picks its
 * UART layout from the name (early_printk.c). The register map below
 * 0x40 is the same on every SoC of the family; a SoC is a table entry:
 * its identification words, straps and the registers it has beyond.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "hw/irq.h"
#include "hw/misc/ralink_sysctl.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "sysemu/runstate.h"

#define SYSCTL_CHIP_NAME0       0x00
#define SYSCTL_CHIP_NAME1       0x04
#define SYSCTL_CHIP_ID2         0x08    /* MT7628: EFUSE_CFG */
#define SYSCTL_CHIP_REV         0x0c
#define SYSCTL_SYSCFG0          0x10
#define SYSCTL_SYSCFG1          0x14
#define SYSCTL_CLKCFG0          0x2c
#define SYSCTL_CLKCFG1          0x30
#define SYSCTL_RSTCTL           0x34
#define SYSCTL_RSTSTAT          0x38
#define SYSCTL_AGPIO_CFG        0x3c
#define SYSCTL_USB_PHY_CFG      0x5c
#define SYSCTL_GPIO_MODE1       0x60
#define SYSCTL_GPIO_MODE2       0x64
#define SYSCTL_PMU0_CFG         0x88
#define SYSCTL_PMU1_CFG         0x8c

/* MT7628: SYSCFG0 straps (arch/mips/include/asm/mach-ralink/mt7620.h) */
#define MT7628_SYSCFG0_DRAM_DDR1    BIT(0)  /* clear: DDR2 */
#define MT7628_SYSCFG0_XTAL_40MHZ   BIT(6)  /* clear: 25 MHz */
/* MT7628: EFUSE_CFG bit 20 tells the MT7688 (mt7620.c EFUSE_MT7688) */
#define MT7628_EFUSE_MT7688         BIT(20)
/*
 * MT7628: CHIP_REV, version 1 ECO 2 (ver bits 11:8, eco 3:0): what the
 * kernel prints on boards in the field ("MT7628AN ver:1 eco:2"); bit 16,
 * the package, is set on the MT7628A (U-Boot's mt7628/init.c: clear is
 * the KN package, which U-Boot forces to DDR1).
 */
#define MT7628_CHIP_REV             ((1 << 16) | (1 << 8) | 2)

/* RT305x: SYSCFG bit 18 picks the CPU clock, 384 MHz (clk-mtmips.c) */
#define RT305X_SYSCFG_CPUCLK_384    BIT(18)
/*
 * RT3052: CHIP_ID, id 1 rev 3 (id bits 15:8, rev 7:0): what the kernel
 * prints on boards in the field ("Ralink RT3052 id:1 rev:3").
 */
#define RT3052_CHIP_ID              ((1 << 8) | 3)

/*
 * RT5350: SYSCFG0's DRAM size (bits 14:12, 3 = 32 MiB: rt305x.c
 * rt5350_get_mem_size()), the 40 MHz crystal (bit 20) and the 360 MHz
 * CPU (bits 9:8 clear) (clk-mtmips.c)
 */
#define RT5350_SYSCFG0_DRAM_32M     (3 << 12)
#define RT5350_SYSCFG0_XTAL_40MHZ   BIT(20)
/* RT5350: CHIP_ID id 1 rev 3, as the RT3052's (not from code) */
#define RT5350_CHIP_ID              ((1 << 8) | 3)

/*
 * MT7620A: CHIP_REV version 2 ECO 6 with bit 16 for the MT7620A package
 * (what the kernel prints on boards in the field: "MediaTek MT7620A ver:2
 * eco:6"); SYSCFG0's 40 MHz crystal (bit 6, clk-mtmips.c) and DDR2 (bits
 * 5:4 = 2: mt7620.c, U-Boot's mt7620.h).
 */
#define MT7620_CHIP_REV             ((1 << 16) | (2 << 8) | 6)
#define MT7620_SYSCFG0_XTAL_40MHZ   BIT(6)
#define MT7620_SYSCFG0_DRAM_DDR2    (2 << 4)
#define SYSCTL_CPU_SYS_CLKCFG       0x3c
/*
 * MT7620: CUR_CLK_STS, the CPU clock's divider and fraction in force,
 * which U-Boot's mt7620 code reads (mt7620/init.c); the model's follow
 * CPU_SYS_CLKCFG at once
 */
#define SYSCTL_CUR_CLK_STS          0x44
#define   CLK_STS_FDIV_FFRAC          (0x1f << 8 | 0x1f)
#define SYSCTL_CPLL_CFG0            0x54
#define SYSCTL_CPLL_CFG1            0x58
/*
 * MT7620: the CPU PLL as a bootloader leaves it for 580 MHz (SW_CFG, bit
 * 31, with a multiplier field of 5, i.e. 29, and divider index 0, i.e.
 * 2: 40 MHz * 29 / 2, clk-mtmips.c mt7620_pll_recalc_rate(); the rate
 * MT7620 boards' U-Boot prints). CPU_SYS_CLKCFG: CPU = PLL * FFRAC (4:0)
 * / FDIV (12:8), 1/1, and the bus at a third of it (OCP ratio, 19:16, 4);
 * Linux rewrites FDIV and FFRAC to 3/3 and reads them back. The silicon's
 * reset values are not known here.
 */
#define MT7620_CPLL_CFG0_580MHZ     (BIT(31) | (5 << 16))
#define MT7620_CPU_SYS_CLKCFG       ((4 << 16) | (1 << 8) | 1)

/*
 * RT3883: SYSCFG0's 500 MHz CPU (bits 9:8 = 3) and DDR2 (bit 17), as
 * clk-mtmips.c reads them; REVID version 1 ECO 5 is assumed (no boot log
 * or dump of one is known here)
 */
#define RT3883_SYSCFG0_CPUCLK_500   (3 << 8)
#define RT3883_SYSCFG0_DDR2         BIT(17)
#define RT3883_REVID                ((1 << 8) | 5)

/*
 * RT2880: SYSCFG bits 21:20 = 1, a 266 MHz CPU (clk-mtmips.c); CHIP_ID
 * id 1 rev 1 is assumed (no boot log or dump of one is known here)
 */
#define RT2880_SYSCFG_CPUCLK_266    (1 << 20)
#define RT2880_CHIP_ID              ((1 << 8) | 1)

/* The registers a SoC has beyond the identification, kept as written */
typedef struct RalinkSysctlReg {
    hwaddr offset;
    uint32_t reset;
} RalinkSysctlReg;

struct RalinkSysctlSoc {
    const char *name;
    uint32_t id[4];             /* 0x00-0x0c: name, name/efuse, revision */
    bool has_eco;               /* CHIP_REV's ECO in 3:0 */
    uint32_t syscfg0;
    bool cur_clk_sts;
    const RalinkSysctlReg *regs;
};

/*
 * The MT7628's and MT7688's registers Linux and U-Boot touch. Reset
 * values: every clock on and no block in reset, as a bootloader leaves
 * them (the silicon's reset values are not known here); CLKCFG0 0, the
 * CPU from its PLL (U-Boot's clk-mt7628: bits 1:0 clear).
 */
static const RalinkSysctlReg mt7628_regs[] = {
    { SYSCTL_SYSCFG1, 0 },
    { SYSCTL_CLKCFG0, 0 },
    { SYSCTL_CLKCFG1, 0xffffffff },
    { SYSCTL_RSTCTL, 0 },
    { SYSCTL_AGPIO_CFG, 0 },
    { SYSCTL_USB_PHY_CFG, 0 },
    { SYSCTL_GPIO_MODE1, 0 },
    { SYSCTL_GPIO_MODE2, 0 },
    { SYSCTL_PMU0_CFG, 0 },
    { SYSCTL_PMU1_CFG, 0 },
    { }
};

/*
 * The RT305x's registers Linux touches (rt305x.c, reset.c, clk-mtmips.c):
 * its clock and reset registers are the MT7628's, at the same offsets.
 */
static const RalinkSysctlReg rt305x_regs[] = {
    { SYSCTL_SYSCFG1, 0 },
    { SYSCTL_CLKCFG0, 0 },
    { SYSCTL_CLKCFG1, 0xffffffff },
    { SYSCTL_RSTCTL, 0 },
    { SYSCTL_GPIO_MODE1, 0 },
    { }
};

/*
 * The MT7620's registers Linux touches (mt7620.c, clk-mtmips.c): the
 * MT7628's, its PLL and CPU clock registers besides (the PLL's kept as
 * written: a bootloader sets them)
 */
static const RalinkSysctlReg mt7620_regs[] = {
    { SYSCTL_SYSCFG1, 0 },
    { SYSCTL_CLKCFG0, 0 },
    { SYSCTL_CLKCFG1, 0xffffffff },
    { SYSCTL_RSTCTL, 0 },
    { SYSCTL_CPU_SYS_CLKCFG, MT7620_CPU_SYS_CLKCFG },
    { SYSCTL_CPLL_CFG0, MT7620_CPLL_CFG0_580MHZ },
    { SYSCTL_CPLL_CFG1, 0 },
    { SYSCTL_GPIO_MODE1, 0 },
    { SYSCTL_PMU0_CFG, 0 },
    { SYSCTL_PMU1_CFG, 0 },
    { }
};

/* "MT7628  " with the DDR2 and 40 MHz crystal straps of the boards here */
static const RalinkSysctlSoc ralink_sysctl_socs[] = {
    {
        .name = "mt7628an",
        .id = { 0x3637544d, 0x20203832, 0, MT7628_CHIP_REV },
        .has_eco = true,
        .syscfg0 = MT7628_SYSCFG0_XTAL_40MHZ,
        .regs = mt7628_regs,
    }, {
        .name = "mt7688",
        .id = { 0x3637544d, 0x20203832, MT7628_EFUSE_MT7688,
                MT7628_CHIP_REV },
        .has_eco = true,
        .syscfg0 = MT7628_SYSCFG0_XTAL_40MHZ,
        .regs = mt7628_regs,
    }, {
        /* "RT3052  " (rt305x.h RT3052_CHIP_NAME0/1), the 384 MHz strap */
        .name = "rt3052",
        .id = { 0x30335452, 0x20203235, 0, RT3052_CHIP_ID },
        .syscfg0 = RT305X_SYSCFG_CPUCLK_384,
        .regs = rt305x_regs,
    }, {
        /* "RT5350  " (rt305x.h RT5350_CHIP_NAME0/1) */
        .name = "rt5350",
        .id = { 0x33355452, 0x20203035, 0, RT5350_CHIP_ID },
        .syscfg0 = RT5350_SYSCFG0_DRAM_32M | RT5350_SYSCFG0_XTAL_40MHZ,
        .regs = rt305x_regs,
    }, {
        /* "MT7620  " (mt7620.h MT7620_CHIP_NAME0/1) */
        .name = "mt7620a",
        .id = { 0x3637544d, 0x20203032, 0, MT7620_CHIP_REV },
        .has_eco = true,
        .syscfg0 = MT7620_SYSCFG0_XTAL_40MHZ | MT7620_SYSCFG0_DRAM_DDR2,
        .cur_clk_sts = true,
        .regs = mt7620_regs,
    }, {
        /* "RT3883  " (rt3883.h RT3883_CHIP_NAME0/1) */
        .name = "rt3883",
        .id = { 0x38335452, 0x20203338, 0, RT3883_REVID },
        .syscfg0 = RT3883_SYSCFG0_CPUCLK_500 | RT3883_SYSCFG0_DDR2,
        .regs = rt305x_regs,
    }, {
        /* "RT2880  " (rt288x.h RT2880_CHIP_NAME0/1) */
        .name = "rt2880",
        .id = { 0x38325452, 0x20203038, 0, RT2880_CHIP_ID },
        .syscfg0 = RT2880_SYSCFG_CPUCLK_266,
        .regs = rt305x_regs,
    },
};

static const RalinkSysctlReg *sysctl_reg(RalinkSysctlState *s, hwaddr addr)
{
    const RalinkSysctlReg *r;

    for (r = s->soc->regs; r->offset || r->reset; r++) {
        if (r->offset == addr) {
            return r;
        }
    }
    return NULL;
}

static uint64_t ralink_sysctl_read(void *opaque, hwaddr addr, unsigned size)
{
    RalinkSysctlState *s = opaque;

    switch (addr) {
    case SYSCTL_CHIP_NAME0 ... SYSCTL_CHIP_ID2:
        return s->soc->id[addr / 4];
    case SYSCTL_CHIP_REV:
        return s->chip_rev;
    case SYSCTL_SYSCFG0:
        return s->soc->syscfg0;
    case SYSCTL_RSTSTAT:
        return 0;
    case SYSCTL_CUR_CLK_STS:
        if (s->soc->cur_clk_sts) {
            return s->regs[SYSCTL_CPU_SYS_CLKCFG / 4] & CLK_STS_FDIV_FFRAC;
        }
        break;
    }
    if (!sysctl_reg(s, addr)) {
        qemu_log_mask(LOG_UNIMP, "%s: read of unimplemented register 0x%"
                      HWADDR_PRIx "\n", TYPE_RALINK_SYSCTL, addr);
    }
    return s->regs[addr / 4];
}

static void sysctl_set_rstctl(RalinkSysctlState *s, uint32_t val)
{
    uint32_t changed = s->regs[SYSCTL_RSTCTL / 4] ^ val;
    int i;

    s->regs[SYSCTL_RSTCTL / 4] = val;
    for (i = 0; i < RALINK_SYSCTL_NUM_RESETS; i++) {
        if (changed & BIT(i)) {
            qemu_set_irq(s->reset_out[i], !!(val & BIT(i)));
        }
    }
}

static void ralink_sysctl_write(void *opaque, hwaddr addr, uint64_t val,
                                unsigned size)
{
    RalinkSysctlState *s = opaque;

    switch (addr) {
    case SYSCTL_CHIP_NAME0 ... SYSCTL_SYSCFG0:
    case SYSCTL_RSTSTAT:
    case SYSCTL_CUR_CLK_STS:
        if (addr == SYSCTL_CUR_CLK_STS && !s->soc->cur_clk_sts) {
            break;
        }
        qemu_log_mask(LOG_GUEST_ERROR, "%s: write of 0x%" PRIx64 " to read-"
                      "only register 0x%" HWADDR_PRIx "\n", TYPE_RALINK_SYSCTL,
                      val, addr);
        return;
    case SYSCTL_RSTCTL:
        sysctl_set_rstctl(s, val & ~BIT(RALINK_RST_SYS));
        if (val & BIT(RALINK_RST_SYS)) {
            qemu_system_reset_request(SHUTDOWN_CAUSE_GUEST_RESET);
        }
        return;
    }
    if (!sysctl_reg(s, addr)) {
        qemu_log_mask(LOG_UNIMP, "%s: write 0x%" PRIx64 " to unimplemented "
                      "register 0x%" HWADDR_PRIx "\n", TYPE_RALINK_SYSCTL, val,
                      addr);
    }
    s->regs[addr / 4] = val;
}

static const MemoryRegionOps ralink_sysctl_ops = {
    .read = ralink_sysctl_read,
    .write = ralink_sysctl_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static void ralink_sysctl_reset(DeviceState *dev)
{
    RalinkSysctlState *s = RALINK_SYSCTL(dev);
    const RalinkSysctlReg *r;

    memset(s->regs, 0, sizeof(s->regs));
    for (r = s->soc->regs; r->offset || r->reset; r++) {
        if (r->offset != SYSCTL_RSTCTL) {
            s->regs[r->offset / 4] = r->reset;
        }
    }
    sysctl_set_rstctl(s, 0);
}

static void ralink_sysctl_realize(DeviceState *dev, Error **errp)
{
    RalinkSysctlState *s = RALINK_SYSCTL(dev);
    int i;

    for (i = 0; i < ARRAY_SIZE(ralink_sysctl_socs); i++) {
        if (s->soc_name && !strcmp(s->soc_name, ralink_sysctl_socs[i].name)) {
            s->soc = &ralink_sysctl_socs[i];
            break;
        }
    }
    if (!s->soc) {
        error_setg(errp, "%s: unknown soc '%s'", TYPE_RALINK_SYSCTL,
                   s->soc_name ? s->soc_name : "");
        return;
    }
    s->chip_rev = s->soc->id[SYSCTL_CHIP_REV / 4];
    if (s->eco == RALINK_SYSCTL_ECO_CHIP) {
        return;
    }
    if (!s->soc->has_eco || s->eco > 0xf) {
        error_setg(errp, "%s: eco=%u: the %s's CHIP_REV has %s",
                   TYPE_RALINK_SYSCTL, s->eco, s->soc->name,
                   s->soc->has_eco ? "ECO revisions 0 to 15" :
                   "no ECO revision");
        return;
    }
    s->chip_rev = deposit32(s->chip_rev, 0, 4, s->eco);
}

uint8_t ralink_sysctl_eco(RalinkSysctlState *s)
{
    return s->soc->has_eco ? extract32(s->chip_rev, 0, 4) :
                             RALINK_SYSCTL_ECO_CHIP;
}

static void ralink_sysctl_init(Object *obj)
{
    RalinkSysctlState *s = RALINK_SYSCTL(obj);

    memory_region_init_io(&s->iomem, obj, &ralink_sysctl_ops, s,
                          TYPE_RALINK_SYSCTL, RALINK_SYSCTL_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);
    qdev_init_gpio_out_named(DEVICE(obj), s->reset_out, "reset",
                             RALINK_SYSCTL_NUM_RESETS);
}

static const VMStateDescription vmstate_ralink_sysctl = {
    .name = TYPE_RALINK_SYSCTL,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32_ARRAY(regs, RalinkSysctlState, RALINK_SYSCTL_SIZE / 4),
        VMSTATE_END_OF_LIST()
    },
};

static Property ralink_sysctl_properties[] = {
    DEFINE_PROP_STRING("soc", RalinkSysctlState, soc_name),
    DEFINE_PROP_UINT8("eco", RalinkSysctlState, eco, RALINK_SYSCTL_ECO_CHIP),
    DEFINE_PROP_END_OF_LIST(),
};

static void ralink_sysctl_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->realize = ralink_sysctl_realize;
    dc->reset = ralink_sysctl_reset;
    dc->vmsd = &vmstate_ralink_sysctl;
    device_class_set_props(dc, ralink_sysctl_properties);
}

static const TypeInfo ralink_sysctl_info = {
    .name = TYPE_RALINK_SYSCTL,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(RalinkSysctlState),
    .instance_init = ralink_sysctl_init,
    .class_init = ralink_sysctl_class_init,
};

static void ralink_sysctl_register_types(void)
{
    type_register_static(&ralink_sysctl_info);
}

type_init(ralink_sysctl_register_types)
