/*
 * MediaTek MT7628AN / MT7688 SoC
 *
 * One MIPS 24KEc with its CP0 timer and the palmbus at 0x10000000: the
 * system controller (chip identification, straps, clocks, resets), the
 * interrupt controller cascaded into the CPU's IP2, three UARTs (16550s
 * with MediaTek's registers after them: hw/char/mtk_uart.c; a 40 MHz
 * clock), the frame engine (its own CPU line, IP5)
 * and the ESW switch behind it (intc line 17), both reset through the
 * sysctl (RSTCTL bits 21 "fe", 23 "esw", 24 "ephy": OpenWrt's
 * mt7628an.dtsi, U-Boot's mt7628-reset.h), and the blocks not modelled
 * yet as unimplemented devices. As Linux 6.12 sees it through mt7628a.dtsi
 * (arch/mips/ralink/mt7620.c, irq.c, clk-mtmips.c): the MT7688 is the same
 * silicon with an EFUSE bit set.
 *
 * Not modelled yet: GPIO, SPI and
 * its flash, I2C, I2S, PCM, GDMA, USB, SD, PCIe, Wi-Fi; the boot flash
 * (the CPU starts from a few instructions a board writes at 0x1fc00000).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/module.h"
#include "qemu/units.h"
#include "exec/address-spaces.h"
#include "hw/mips/cpudevs.h"
#include "hw/mips/mt7628.h"
#include "hw/misc/unimp.h"
#include "hw/qdev-clock.h"
#include "hw/qdev-properties.h"
#include "sysemu/sysemu.h"

#define MT7628_SYSCTL_OFS       0x0000
#define MT7628_INTC_OFS         0x0200
#define MT7628_UART0_OFS        0x0c00
#define MT7628_UART_STRIDE      0x0100
#define MT7628_UART_CLK_HZ      40000000
#define MT7628_FE_OFS           0x100000
#define MT7628_ESW_OFS          0x110000
/* The intc's lines of the UARTs (mt7628a.dtsi) and the CPU's cascade */
#define MT7628_IRQ_UART0        20
#define MT7628_CPU_IRQ_INTC     2
#define MT7628_CPU_IRQ_INTC_FIQ 3
#define MT7628_CPU_IRQ_FE       5
#define MT7628_IRQ_ESW          17
/* The sysctl's RSTCTL bits */
#define MT7628_RST_FE           21
#define MT7628_RST_ESW          23
#define MT7628_RST_EPHY         24

/*
 * The interrupt controller's registers on the MT7628 (mt7628a.dtsi's
 * ralink,intc-registers): STATUS0, STATUS1, TYPE, RAW, ENABLE, DISABLE.
 */
static const uint32_t mt7628_intc_regs[] = {
    0x9c, 0xa0, 0x6c, 0xa4, 0x80, 0x78,
};
static const char *const intc_reg_props[] = {
    "reg-status0", "reg-status1", "reg-type", "reg-raw", "reg-enable",
    "reg-disable",
};

/* Blocks not modelled yet: logged as unimplemented, reading as zero */
static const struct {
    const char *name;
    hwaddr ofs;
    uint64_t size;
} mt7628_unimp_blocks[] = {
    { "timer", 0x000100, 0x100 },
    { "memc", 0x000300, 0x100 },
    { "rbus", 0x000400, 0x100 },
    { "gpio", 0x000600, 0x100 },
    { "spi-slave", 0x000700, 0x100 },
    { "i2c", 0x000900, 0x100 },
    { "i2s", 0x000a00, 0x100 },
    { "spi", 0x000b00, 0x100 },
    { "pad", 0x001300, 0x100 },
    { "pcm", 0x002000, 0x800 },
    { "gdma", 0x002800, 0x800 },
    { "aes", 0x004000, 0x1000 },
    { "pwm", 0x005000, 0x1000 },
    { "usb-phy", 0x120000, 0x1000 },
    { "sdxc", 0x130000, 0x4000 },
    { "pcie", 0x140000, 0x10000 },
    { "usb", 0x1c0000, 0x10000 },
    { "wmac", 0x300000, 0x100000 },
};

uint32_t *mt7628_bootrom_ptr(MT7628State *s)
{
    return memory_region_get_ram_ptr(&s->bootrom);
}

static void mt7628_map_unimp(MT7628State *s, const char *name, hwaddr base,
                             uint64_t size, int priority)
{
    DeviceState *dev = qdev_new(TYPE_UNIMPLEMENTED_DEVICE);
    g_autofree char *child = g_strdup_printf("unimp-%s", name);

    qdev_prop_set_string(dev, "name", name);
    qdev_prop_set_uint64(dev, "size", size);
    object_property_add_child(OBJECT(s), child, OBJECT(dev));
    sysbus_realize_and_unref(SYS_BUS_DEVICE(dev), &error_fatal);
    memory_region_add_subregion_overlap(get_system_memory(), base,
                        sysbus_mmio_get_region(SYS_BUS_DEVICE(dev), 0),
                        priority);
}

static void mt7628_realize(DeviceState *dev, Error **errp)
{
    ERRP_GUARD();
    MT7628State *s = MT7628_SOC(dev);
    MemoryRegion *sysmem = get_system_memory();
    CPUMIPSState *env;
    int i;

    clock_set_hz(s->cpuclk, MT7628_CPU_HZ);
    s->cpu = mips_cpu_create_with_clock(s->cpu_type, s->cpuclk);
    cpu_mips_irq_init_cpu(s->cpu);
    cpu_mips_clock_init(s->cpu);
    env = &s->cpu->env;

    memory_region_init_rom(&s->bootrom, OBJECT(s), "mt7628.bootrom",
                           MT7628_BOOTROM_SIZE, errp);
    if (*errp) {
        return;
    }
    memory_region_add_subregion(sysmem, MT7628_BOOTROM_BASE, &s->bootrom);

    if (!object_property_set_str(OBJECT(&s->sysctl), "soc", s->soc, errp) ||
        !sysbus_realize(SYS_BUS_DEVICE(&s->sysctl), errp)) {
        return;
    }
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->sysctl), 0,
                    MT7628_PALMBUS_BASE + MT7628_SYSCTL_OFS);

    for (i = 0; i < ARRAY_SIZE(mt7628_intc_regs); i++) {
        object_property_set_uint(OBJECT(&s->intc), intc_reg_props[i],
                                 mt7628_intc_regs[i], &error_abort);
    }
    if (!sysbus_realize(SYS_BUS_DEVICE(&s->intc), errp)) {
        return;
    }
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->intc), 0,
                    MT7628_PALMBUS_BASE + MT7628_INTC_OFS);
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->intc), 0,
                       env->irq[MT7628_CPU_IRQ_INTC]);
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->intc), 1,
                       env->irq[MT7628_CPU_IRQ_INTC_FIQ]);

    for (i = 0; i < MT7628_NUM_UARTS; i++) {
        s->uart[i] = mtk_uart_init(sysmem, MT7628_PALMBUS_BASE +
                                   MT7628_UART0_OFS + i * MT7628_UART_STRIDE,
                                   qdev_get_gpio_in(DEVICE(&s->intc),
                                                    MT7628_IRQ_UART0 + i),
                                   MT7628_UART_CLK_HZ / 16, serial_hd(i));
    }

    if (!sysbus_realize(SYS_BUS_DEVICE(&s->esw), errp)) {
        return;
    }
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->esw), 0,
                    MT7628_PALMBUS_BASE + MT7628_ESW_OFS);
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->esw), 0,
                       qdev_get_gpio_in(DEVICE(&s->intc), MT7628_IRQ_ESW));
    qdev_connect_gpio_out_named(DEVICE(&s->sysctl), "reset", MT7628_RST_ESW,
                                qdev_get_gpio_in_named(DEVICE(&s->esw),
                                        "reset", RALINK_ESW_RESET_ESW));
    qdev_connect_gpio_out_named(DEVICE(&s->sysctl), "reset", MT7628_RST_EPHY,
                                qdev_get_gpio_in_named(DEVICE(&s->esw),
                                        "reset", RALINK_ESW_RESET_EPHY));

    object_property_set_link(OBJECT(&s->fe), "esw", OBJECT(&s->esw),
                             &error_abort);
    object_property_set_link(OBJECT(&s->fe), "dma-memory", OBJECT(sysmem),
                             &error_abort);
    if (!sysbus_realize(SYS_BUS_DEVICE(&s->fe), errp)) {
        return;
    }
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->fe), 0,
                    MT7628_PALMBUS_BASE + MT7628_FE_OFS);
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->fe), 0,
                       env->irq[MT7628_CPU_IRQ_FE]);
    qdev_connect_gpio_out_named(DEVICE(&s->sysctl), "reset", MT7628_RST_FE,
                                qdev_get_gpio_in_named(DEVICE(&s->fe),
                                                       "reset", 0));

    for (i = 0; i < ARRAY_SIZE(mt7628_unimp_blocks); i++) {
        mt7628_map_unimp(s, mt7628_unimp_blocks[i].name,
                         MT7628_PALMBUS_BASE + mt7628_unimp_blocks[i].ofs,
                         mt7628_unimp_blocks[i].size, -1000);
    }
    /* Anything else on the palmbus */
    mt7628_map_unimp(s, "palmbus", MT7628_PALMBUS_BASE, MT7628_PALMBUS_SIZE,
                     -2000);
}

static void mt7628_init(Object *obj)
{
    MT7628State *s = MT7628_SOC(obj);

    object_initialize_child(obj, "sysctl", &s->sysctl, TYPE_RALINK_SYSCTL);
    object_initialize_child(obj, "intc", &s->intc, TYPE_RALINK_INTC);
    object_initialize_child(obj, "esw", &s->esw, TYPE_RALINK_ESW);
    object_initialize_child(obj, "fe", &s->fe, TYPE_RALINK_FE);
    s->cpuclk = qdev_init_clock_out(DEVICE(obj), "cpu-refclk");
}

static Property mt7628_properties[] = {
    DEFINE_PROP_STRING("cpu-type", MT7628State, cpu_type),
    DEFINE_PROP_STRING("soc", MT7628State, soc),
    DEFINE_PROP_END_OF_LIST(),
};

static void mt7628_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = mt7628_realize;
    device_class_set_props(dc, mt7628_properties);
    /* Created by the boards only: it wires the CPU's interrupt pins */
    dc->user_creatable = false;
}

static const TypeInfo mt7628_info = {
    .name = TYPE_MT7628_SOC,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(MT7628State),
    .instance_init = mt7628_init,
    .class_init = mt7628_class_init,
};

static void mt7628_register_types(void)
{
    type_register_static(&mt7628_info);
}

type_init(mt7628_register_types)
