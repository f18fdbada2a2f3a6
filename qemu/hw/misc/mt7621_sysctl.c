/*
 * MediaTek MT7621 system controller
 *
 * The first block on the palmbus: chip identification, boot straps, clock
 * configuration and gating, and the reset controller of the SoC's blocks.
 * Linux reads the chip name (and panics on anything but "MT7621  "), the
 * straps and clock registers to compute the CPU clock (clk-mt7621), and
 * resets the system through RSTCTRL.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "hw/misc/mt7621_sysctl.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "sysemu/runstate.h"

/* "MT7621  " */
#define MT7621_CHIP_NAME0       0x3637544d
#define MT7621_CHIP_NAME1       0x20203132
#define MT7621_CHIP_NAME2       0x00000000

/*
 * Straps as vendor U-Boot reports them on MT7621A DDR3 boards: boot from
 * SPI NOR, DDR3 with auto-detected size, OCP ratio 1/3, 40 MHz crystal.
 * The bits above 9 are unknown and read as zero.
 */
#define MT7621_SYSCFG0 \
    ((SYSCFG0_CHIP_MODE_NOR3B << SYSCFG0_CHIP_MODE_SHIFT) | \
     SYSCFG0_DRAM_CONF_AUTO | \
     (MT7621_XTAL_MODE_SEL << SYSCFG0_XTAL_MODE_SEL_SHIFT))

/* The CPU runs from the CPU PLL, undivided. */
#define MT7621_CLKCFG0_RESET \
    (CLKCFG0_CPU_CLK_SEL_PLL << CLKCFG0_CPU_CLK_SEL_SHIFT)
#define MT7621_CUR_CLK_STS \
    ((1 << CUR_CLK_STS_FDIV_SHIFT) | (1 << CUR_CLK_STS_FFRAC_SHIFT))

static uint64_t mt7621_sysctl_read(void *opaque, hwaddr addr, unsigned size)
{
    MT7621SysctlState *s = opaque;

    switch (addr) {
    case SYSCTL_CHIP_NAME0:
        return MT7621_CHIP_NAME0;
    case SYSCTL_CHIP_NAME1:
        return MT7621_CHIP_NAME1;
    case SYSCTL_CHIP_NAME2:
        return MT7621_CHIP_NAME2;
    case SYSCTL_CHIP_REV:
        return s->chip_rev;
    case SYSCTL_SYSCFG0:
        return MT7621_SYSCFG0;
    case SYSCTL_SYSCFG1:
        return s->syscfg1;
    case SYSCTL_CLKCFG0:
        return s->clkcfg0;
    case SYSCTL_CLKCFG1:
        return s->clkcfg1;
    case SYSCTL_RSTCTRL:
        return s->rstctrl;
    case SYSCTL_RSTSTAT:
        return 0;
    case SYSCTL_CUR_CLK_STS:
        return MT7621_CUR_CLK_STS;
    case SYSCTL_GPIO_MODE:
        return s->gpio_mode;
    case SYSCTL_PAD_BASE ... SYSCTL_PAD_BASE + 4 * SYSCTL_PAD_REGS - 1:
        return s->pad[(addr - SYSCTL_PAD_BASE) / 4];
    case SYSCTL_PAD_BOPT_ESWINT:
        return s->pad_bopt_eswint;
    default:
        qemu_log_mask(LOG_UNIMP, "%s: read of unimplemented register 0x%"
                      HWADDR_PRIx "\n", __func__, addr);
        return 0;
    }
}

static void mt7621_sysctl_set_rstctrl(MT7621SysctlState *s, uint32_t val)
{
    uint32_t changed = s->rstctrl ^ val;
    int i;

    s->rstctrl = val;
    for (i = 0; i < MT7621_NUM_RESETS; i++) {
        if (changed & BIT(i)) {
            qemu_set_irq(s->reset_out[i], !!(val & BIT(i)));
        }
    }
}

static void mt7621_sysctl_write(void *opaque, hwaddr addr, uint64_t val,
                                unsigned size)
{
    MT7621SysctlState *s = opaque;

    switch (addr) {
    case SYSCTL_CHIP_NAME0:
    case SYSCTL_CHIP_NAME1:
    case SYSCTL_CHIP_NAME2:
    case SYSCTL_CHIP_REV:
    case SYSCTL_SYSCFG0:
    case SYSCTL_RSTSTAT:
    case SYSCTL_CUR_CLK_STS:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: write 0x%" PRIx64
                      " to read-only register 0x%" HWADDR_PRIx "\n",
                      __func__, val, addr);
        break;
    case SYSCTL_SYSCFG1:
        s->syscfg1 = val;
        break;
    case SYSCTL_CLKCFG0:
        s->clkcfg0 = val;
        break;
    case SYSCTL_CLKCFG1:
        s->clkcfg1 = val;
        break;
    case SYSCTL_RSTCTRL:
        mt7621_sysctl_set_rstctrl(s, val & ~RSTCTRL_SYS_RST);
        if (val & RSTCTRL_SYS_RST) {
            qemu_system_reset_request(SHUTDOWN_CAUSE_GUEST_RESET);
        }
        break;
    case SYSCTL_GPIO_MODE:
        s->gpio_mode = val;
        break;
    case SYSCTL_PAD_BASE ... SYSCTL_PAD_BASE + 4 * SYSCTL_PAD_REGS - 1:
        s->pad[(addr - SYSCTL_PAD_BASE) / 4] = val;
        break;
    case SYSCTL_PAD_BOPT_ESWINT:
        s->pad_bopt_eswint = val;
        break;
    default:
        qemu_log_mask(LOG_UNIMP, "%s: write 0x%" PRIx64
                      " to unimplemented register 0x%" HWADDR_PRIx "\n",
                      __func__, val, addr);
        break;
    }
}

static const MemoryRegionOps mt7621_sysctl_ops = {
    .read = mt7621_sysctl_read,
    .write = mt7621_sysctl_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static void mt7621_sysctl_reset(DeviceState *dev)
{
    MT7621SysctlState *s = MT7621_SYSCTL(dev);

    s->syscfg1 = 0;
    s->clkcfg0 = MT7621_CLKCFG0_RESET;
    /* All clocks ungated, no block held in reset, as the bootloader leaves */
    s->clkcfg1 = 0xffffffff;
    /* The pads' reset values are not known here */
    memset(s->pad, 0, sizeof(s->pad));
    s->pad_bopt_eswint = 0;
    mt7621_sysctl_set_rstctrl(s, 0);
    s->gpio_mode = 0;
}

static void mt7621_sysctl_init(Object *obj)
{
    MT7621SysctlState *s = MT7621_SYSCTL(obj);

    memory_region_init_io(&s->iomem, obj, &mt7621_sysctl_ops, s,
                          TYPE_MT7621_SYSCTL, MT7621_SYSCTL_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);
    qdev_init_gpio_out_named(DEVICE(obj), s->reset_out, "reset",
                             MT7621_NUM_RESETS);
}

static const VMStateDescription vmstate_mt7621_sysctl = {
    .name = TYPE_MT7621_SYSCTL,
    .version_id = 2,
    .minimum_version_id = 2,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32(syscfg1, MT7621SysctlState),
        VMSTATE_UINT32(clkcfg0, MT7621SysctlState),
        VMSTATE_UINT32(clkcfg1, MT7621SysctlState),
        VMSTATE_UINT32(rstctrl, MT7621SysctlState),
        VMSTATE_UINT32(gpio_mode, MT7621SysctlState),
        VMSTATE_UINT32_ARRAY(pad, MT7621SysctlState, SYSCTL_PAD_REGS),
        VMSTATE_UINT32(pad_bopt_eswint, MT7621SysctlState),
        VMSTATE_END_OF_LIST()
    },
};

static Property mt7621_sysctl_properties[] = {
    DEFINE_PROP_UINT32("chip-rev", MT7621SysctlState, chip_rev,
                       MT7621_CHIP_REV(2)),
    DEFINE_PROP_END_OF_LIST(),
};

static void mt7621_sysctl_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->reset = mt7621_sysctl_reset;
    dc->vmsd = &vmstate_mt7621_sysctl;
    device_class_set_props(dc, mt7621_sysctl_properties);
}

static const TypeInfo mt7621_sysctl_info = {
    .name = TYPE_MT7621_SYSCTL,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(MT7621SysctlState),
    .instance_init = mt7621_sysctl_init,
    .class_init = mt7621_sysctl_class_init,
};

static void mt7621_sysctl_register_types(void)
{
    type_register_static(&mt7621_sysctl_info);
}

type_init(mt7621_sysctl_register_types)
