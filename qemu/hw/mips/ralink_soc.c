/*
 * Ralink/MediaTek SoCs with one CPU: MT7620A, MT7628AN/MT7688, RT3052,
 * RT5350 (a 24KEc), RT3883 (a 74Kc), RT2880 (a 4KEc)
 *
 * One MIPS 24KEc with its CP0 timer and the palmbus at 0x10000000: the
 * system controller (chip identification, straps, clocks, resets:
 * ralink_sysctl.c, a table entry per SoC), the interrupt controller
 * cascaded into the CPU's IP2 (ralink_intc.c, the SoC's register layout),
 * the UARTs, the embedded switch (ESW) and, where it is modelled, the
 * frame engine; the blocks not modelled yet are unimplemented devices.
 * What differs between the SoCs is data (RalinkSocInfo below), as Linux
 * 6.12 sees them through mt7628a.dtsi and rt3050.dtsi
 * (arch/mips/ralink/mt7620.c, rt305x.c, irq.c, clk-mtmips.c):
 *
 * - MT7628AN / MT7688 (the same silicon, an EFUSE bit apart): 580 MHz
 *   (40 MHz crystal strap), three MediaTek UARTs (16550s, reg-shift 2, a
 *   40 MHz clock: mtk_uart.c) on intc lines 20-22, the intc's registers
 *   where mt7628a.dtsi's ralink,intc-registers puts them, the frame
 *   engine (ralink_fe.c) on the CPU's IP5 and the ESW on intc line 17,
 *   reset through RSTCTL bits 21 "fe", 23 "esw", 24 "ephy" (OpenWrt's
 *   mt7628an.dtsi, U-Boot's mt7628-reset.h).
 * - RT3052: 384 MHz (SYSCFG bit 18), the RT2880 layout of the intc
 *   (irq.c's defaults, no ralink,intc-registers in rt3050.dtsi), the
 *   "uartlite" at 0xc00 (ralink,rt2880-uart: ralink_uart.c) on intc line
 *   12 with the bus clock (CPU / 3, clk-mtmips's rt305x factor), and the
 *   ESW (RSTCTL bit 23) and the RT305x's older layout of the frame engine
 *   (ralink_fe.c's map "rt3050": CPU IP5, RSTCTL bit 21, as OpenWrt's
 *   rt3050.dtsi).
 * - RT5350: 360 MHz (SYSCFG bits 9:8 clear), the RT3052's intc layout
 *   and uartlite, the latter on the 40 MHz "periph" clock (clk-mtmips's
 *   rt5350 clocks), and the MT7628's frame engine (mainline's rt5350_data
 *   is the MT7628's map) and ESW with its PHYs' reset line (RSTCTL bit
 *   24, the 2016 series' RT5350_RESET_EPHY).
 * - MT7620A: 580 MHz (its CPU PLL: ralink_sysctl.c), the RT2880 layout of
 *   the intc (mt7620a.dtsi has no ralink,intc-registers) and the
 *   uartlite on intc line 12 with the 40 MHz "periph" clock (clk-mtmips's
 *   mt7620 clocks, CLKCFG0's PERI_CLK_SEL clear), its gigabit switch (GSW:
 *   the MT7530 model, chip mt7620, at 0x10110000 on intc line 17, reset
 *   by RSTCTL bit 23) and its frame engine (ralink_fe.c's map "mt7620",
 *   CPU IP5, RSTCTL bit 21) (OpenWrt's mt7620a.dtsi).
 * - RT3883: a 74Kc at 500 MHz (SYSCFG0 bits 9:8), the RT2880 layout of
 *   the intc, the uartlite on intc line 12 with the fixed 40 MHz "periph"
 *   clock (clk-mtmips's rt3883 clocks). No switch: its frame engine
 *   (ralink_fe.c's map "rt3883": the RT305x's older map, GDMA1 to a GMAC
 *   with an external PHY, the board's NIC; CPU IP5, RSTCTRL bit 21, as
 *   OpenWrt's rt3883.dtsi and soc_rt3883.c). Its second GMAC is not
 *   modelled.
 * - RT2880: a 4KEc at 266 MHz (SYSCFG bits 21:20), the palmbus at
 *   0x00300000 and DRAM at 0x08000000, the RT2880 intc, the uartlite on
 *   intc line 8 with the bus clock. Its frame engine (1 MiB into the
 *   palmbus: ralink_fe.c's map "rt2880", the RT3883's without checksum
 *   offload; CPU IP5, reset bit 18, as OpenWrt's rt2880.dtsi and
 *   soc_rt2880.c) has one GMAC with an external PHY, the board's NIC.
 *
 * Not modelled yet: GPIO, SPI and its flash, I2C, I2S, PCM, GDMA, USB, SD,
 * PCIe, Wi-Fi; the boot flash (the CPU starts from a few instructions a
 * board writes at 0x1fc00000).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/module.h"
#include "qemu/units.h"
#include "exec/address-spaces.h"
#include "hw/mips/cpudevs.h"
#include "hw/mips/ralink_soc.h"
#include "hw/misc/unimp.h"
#include "hw/qdev-clock.h"
#include "hw/qdev-properties.h"
#include "sysemu/sysemu.h"

#define SOC_SYSCTL_OFS          0x0000
#define SOC_INTC_OFS            0x0200
#define SOC_UART_OFS            0x0c00  /* MT7628 UART0, RT305x uartlite */
#define SOC_UART_STRIDE         0x0100
#define SOC_FE_OFS              0x100000
#define SOC_ESW_OFS             0x110000
#define SOC_CPU_IRQ_INTC        2
#define SOC_CPU_IRQ_INTC_FIQ    3
#define SOC_IRQ_ESW             17
#define SOC_RST_FE              21
#define SOC_RST_ESW             23
#define SOC_RST_EPHY            24

typedef struct RalinkSocBlock {
    const char *name;
    hwaddr ofs;
    uint64_t size;
} RalinkSocBlock;

struct RalinkSocInfo {
    const char *name;
    uint32_t cpu_hz;
    /* Where the palmbus (0 here: RALINK_SOC_PALMBUS_BASE) and DRAM are */
    hwaddr palmbus;
    hwaddr ddr_base;
    uint64_t ddr_window;
    /* The intc's register offsets, or NULL for its (RT2880) defaults */
    const uint32_t *intc_regs;
    /* MediaTek UARTs (MT7628: three), or the RT2880-style uartlite */
    int mtk_uarts;
    int uart_irq;
    uint32_t uart_hz;
    /*
     * The frame engine's register map (NULL: the RT5350/MT7628's), IRQ,
     * reset line (0: RSTCTL bit 21)
     */
    const char *fe_map;
    int fe_cpu_irq;
    int fe_reset;
    /* No switch: the frame engine's GMAC is the board's port */
    bool gmac;
    /* The ESW and the frame engine are modelled */
    bool esw;
    /* ... or the GSW (the MT7530 model) and the frame engine */
    bool gsw;
    /* The ESW's PHYs have a reset line of their own (RSTCTL "ephy") */
    bool ephy_reset;
    const RalinkSocBlock *unimp;
};

/*
 * The MT7628's intc registers (mt7628a.dtsi's ralink,intc-registers):
 * STATUS0, STATUS1, TYPE, RAW, ENABLE, DISABLE.
 */
static const uint32_t mt7628_intc_regs[] = {
    0x9c, 0xa0, 0x6c, 0xa4, 0x80, 0x78,
};
static const char *const intc_reg_props[] = {
    "reg-status0", "reg-status1", "reg-type", "reg-raw", "reg-enable",
    "reg-disable",
};

static const RalinkSocBlock mt7628_unimp[] = {
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
    { }
};

/* The RT305x's palmbus (its SDK's and OpenWrt's rt3050.dtsi's blocks) */
static const RalinkSocBlock rt305x_unimp[] = {
    { "timer", 0x000100, 0x100 },
    { "memc", 0x000300, 0x100 },
    { "pcm", 0x000400, 0x100 },
    { "uart", 0x000500, 0x100 },
    { "gpio", 0x000600, 0x100 },
    { "gdma", 0x000700, 0x100 },
    { "nand", 0x000800, 0x100 },
    { "i2c", 0x000900, 0x100 },
    { "i2s", 0x000a00, 0x100 },
    { "spi", 0x000b00, 0x100 },
    { "wmac", 0x180000, 0x40000 },
    { "usb", 0x1c0000, 0x40000 },
    { }
};

/* The MT7620's palmbus (OpenWrt's mt7620a.dtsi, U-Boot's mt7620.dtsi) */
static const RalinkSocBlock mt7620_unimp[] = {
    { "timer", 0x000100, 0x100 },
    { "memc", 0x000300, 0x100 },
    { "pcm", 0x002000, 0x800 },
    { "uart", 0x000500, 0x100 },
    { "gpio", 0x000600, 0x100 },
    { "gdma", 0x002800, 0x800 },
    { "i2c", 0x000900, 0x100 },
    { "i2s", 0x000a00, 0x100 },
    { "spi", 0x000b00, 0x100 },
    { "usb-phy", 0x120000, 0x1000 },
    { "sdhci", 0x130000, 0x4000 },
    { "pcie", 0x140000, 0x10000 },
    { "wmac", 0x180000, 0x40000 },
    { "usb", 0x1c0000, 0x40000 },
    { }
};

/* The RT3883's palmbus (OpenWrt's rt3883.dtsi) */
static const RalinkSocBlock rt3883_unimp[] = {
    { "timer", 0x000100, 0x100 },
    { "memc", 0x000300, 0x100 },
    { "uart", 0x000500, 0x100 },
    { "gpio", 0x000600, 0x100 },
    { "i2c", 0x000900, 0x100 },
    { "i2s", 0x000a00, 0x100 },
    { "spi", 0x000b00, 0x100 },
    { "usb-host", 0x1c0000, 0x40000 },
    { }
};

/* The RT2880's palmbus (OpenWrt's rt2880.dtsi: the frame engine 1 MiB in) */
static const RalinkSocBlock rt2880_unimp[] = {
    { "timer", 0x000100, 0x100 },
    { "memc", 0x000300, 0x100 },
    { "gpio", 0x000600, 0x100 },
    { "i2c", 0x000900, 0x100 },
    { "spi", 0x000b00, 0x100 },
    { "pci", 0x140000, 0x10000 },
    { "wmac", 0x180000, 0x40000 },
    { }
};

/* The MT7628AN and the MT7688: the same silicon, an EFUSE bit apart */
#define MT7628_INFO(soc) {              \
        .name = soc,                    \
        .cpu_hz = 580000000,            \
        .ddr_window = 256 * MiB,        \
        .intc_regs = mt7628_intc_regs,  \
        .mtk_uarts = 3,                 \
        .uart_irq = 20,                 \
        .uart_hz = 40000000,            \
        .fe_cpu_irq = 5,                \
        .esw = true,                    \
        .ephy_reset = true,             \
        .unimp = mt7628_unimp,          \
    }

static const RalinkSocInfo ralink_socs[] = {
    MT7628_INFO("mt7628an"),
    MT7628_INFO("mt7688"),
    {
        .name = "rt5350",
        .cpu_hz = 360000000,
        /* The RT5350's SYSCFG0 DRAM sizes go up to 64 MiB (rt305x.c) */
        .ddr_window = 64 * MiB,
        .uart_irq = 12,
        .uart_hz = 40000000,
        .fe_cpu_irq = 5,
        .esw = true,
        .ephy_reset = true,
        .unimp = rt305x_unimp,
    }, {
        .name = "rt3052",
        .cpu_hz = 384000000,
        /* RT305X_MEM_SIZE_MAX: 64 MiB (arch/mips/ralink/rt305x.c) */
        .ddr_window = 64 * MiB,
        .uart_irq = 12,
        .uart_hz = 384000000 / 3,
        .fe_map = "rt3050",
        .fe_cpu_irq = 5,
        .esw = true,
        .unimp = rt305x_unimp,
    }, {
        .name = "mt7620a",
        .cpu_hz = 580000000,
        /* MT7620_DDR2_SIZE_MAX (arch/mips/include/asm/mach-ralink/mt7620.h) */
        .ddr_window = 256 * MiB,
        .uart_irq = 12,
        .uart_hz = 40000000,
        .fe_map = "mt7620",
        .fe_cpu_irq = 5,
        .gsw = true,
        .unimp = mt7620_unimp,
    }, {
        .name = "rt3883",
        .cpu_hz = 500000000,
        /* RT3883_MEM_SIZE_MAX (arch/mips/include/asm/mach-ralink/rt3883.h) */
        .ddr_window = 256 * MiB,
        .uart_irq = 12,
        .uart_hz = 40000000,
        .fe_map = "rt3883",
        .fe_cpu_irq = 5,
        .gmac = true,
        .unimp = rt3883_unimp,
    }, {
        /*
         * The palmbus at 0x00300000 and DRAM at 0x08000000 (rt288x.h:
         * RT2880_SYSC_BASE, RT2880_SDRAM_BASE, up to RT2880_MEM_SIZE_MAX,
         * 128 MiB), the uartlite on intc line 8 with the bus clock (CPU /
         * 2, clk-mtmips's rt2880 factor)
         */
        .name = "rt2880",
        .cpu_hz = 266000000,
        .palmbus = 0x00300000,
        .ddr_base = 0x08000000,
        .ddr_window = 128 * MiB,
        .uart_irq = 8,
        .uart_hz = 266000000 / 2,
        .fe_map = "rt2880",
        .fe_cpu_irq = 5,
        /* OpenWrt's soc_rt2880.c RT2880_RESET_FE, rt2880.dtsi */
        .fe_reset = 18,
        .gmac = true,
        .unimp = rt2880_unimp,
    },
};

static const RalinkSocInfo *ralink_soc_info(const char *soc)
{
    int i;

    for (i = 0; soc && i < ARRAY_SIZE(ralink_socs); i++) {
        if (!strcmp(ralink_socs[i].name, soc)) {
            return &ralink_socs[i];
        }
    }
    return NULL;
}

uint64_t ralink_soc_ddr_window(const char *soc)
{
    return ralink_soc_info(soc)->ddr_window;
}

hwaddr ralink_soc_ddr_base(const char *soc)
{
    return ralink_soc_info(soc)->ddr_base;
}

static hwaddr ralink_soc_palmbus(RalinkSocState *s)
{
    return s->info->palmbus ? s->info->palmbus : RALINK_SOC_PALMBUS_BASE;
}

uint32_t *ralink_soc_bootrom_ptr(RalinkSocState *s)
{
    return memory_region_get_ram_ptr(&s->bootrom);
}

DeviceState *ralink_soc_switch(RalinkSocState *s)
{
    const RalinkSocInfo *info = ralink_soc_info(s->soc);

    if (info && info->gsw) {
        if (!s->has_gsw) {
            object_initialize_child(OBJECT(s), "gsw", &s->gsw, TYPE_MT7530);
            qdev_prop_set_string(DEVICE(&s->gsw), "chip", "mt7620");
            s->has_gsw = true;
        }
        return DEVICE(&s->gsw);
    }
    if (!info || !info->esw) {
        return NULL;
    }
    if (!s->has_esw) {
        object_initialize_child(OBJECT(s), "esw", &s->esw, TYPE_RALINK_ESW);
        s->has_esw = true;
    }
    return DEVICE(&s->esw);
}

/* The frame engine, created once (by the board or at realize) */
static DeviceState *ralink_soc_fe(RalinkSocState *s)
{
    if (!s->has_fe) {
        object_initialize_child(OBJECT(s), "fe", &s->fe, TYPE_RALINK_FE);
        s->has_fe = true;
    }
    return DEVICE(&s->fe);
}

DeviceState *ralink_soc_ports(RalinkSocState *s, int *n, const char **model)
{
    const RalinkSocInfo *info = ralink_soc_info(s->soc);
    DeviceState *sw = ralink_soc_switch(s);

    if (sw) {
        /* The GSW's port 5 has a PHY and a backend too */
        *n = info->gsw ? MT7530_NUM_NICS : RALINK_ESW_NUM_PHYS;
        *model = object_get_typename(OBJECT(sw));
        return sw;
    }
    if (info && info->gmac) {
        *n = 1;
        *model = TYPE_RALINK_FE;
        return ralink_soc_fe(s);
    }
    return NULL;
}

static void ralink_soc_map_unimp(RalinkSocState *s, const char *name,
                                 hwaddr base, uint64_t size, int priority)
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

static void ralink_soc_reset_line(RalinkSocState *s, int bit,
                                  DeviceState *dev, int n)
{
    qdev_connect_gpio_out_named(DEVICE(&s->sysctl), "reset", bit,
                                qdev_get_gpio_in_named(dev, "reset", n));
}

/*
 * The switch (the ESW, or the MT7620's GSW: the MT7530 model) and the
 * frame engine on its CPU port, or the frame engine alone with its GMAC,
 * where the SoC has them modelled
 */
static bool ralink_soc_net(RalinkSocState *s, Error **errp)
{
    const RalinkSocInfo *info = s->info;
    DeviceState *sw = ralink_soc_switch(s);
    DeviceState *fe;

    if (!sw && !info->gmac) {
        return true;
    }
    if (sw && !sysbus_realize(SYS_BUS_DEVICE(sw), errp)) {
        return false;
    }
    if (sw) {
        sysbus_mmio_map(SYS_BUS_DEVICE(sw), 0,
                        ralink_soc_palmbus(s) + SOC_ESW_OFS);
        sysbus_connect_irq(SYS_BUS_DEVICE(sw), 0,
                           qdev_get_gpio_in(DEVICE(&s->intc), SOC_IRQ_ESW));
        /* The ESW's line and the GSW's one reset input are input 0 */
        ralink_soc_reset_line(s, SOC_RST_ESW, sw, RALINK_ESW_RESET_ESW);
        if (info->ephy_reset) {
            ralink_soc_reset_line(s, SOC_RST_EPHY, sw, RALINK_ESW_RESET_EPHY);
        }
    }
    /* A child only where the SoC has one: every child must be realized */
    fe = ralink_soc_fe(s);
    if (info->fe_map) {
        qdev_prop_set_string(fe, "map", info->fe_map);
    }
    qdev_prop_set_uint8(fe, "eco", ralink_sysctl_eco(&s->sysctl));
    if (sw) {
        object_property_set_link(OBJECT(fe), info->gsw ? "gsw" : "esw",
                                 OBJECT(sw), &error_abort);
    }
    object_property_set_link(OBJECT(&s->fe), "dma-memory",
                             OBJECT(get_system_memory()), &error_abort);
    if (!sysbus_realize(SYS_BUS_DEVICE(&s->fe), errp)) {
        return false;
    }
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->fe), 0,
                    ralink_soc_palmbus(s) + SOC_FE_OFS);
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->fe), 0,
                       s->cpu->env.irq[info->fe_cpu_irq]);
    ralink_soc_reset_line(s, info->fe_reset ? info->fe_reset : SOC_RST_FE,
                          fe, 0);
    return true;
}

static void ralink_soc_realize(DeviceState *dev, Error **errp)
{
    ERRP_GUARD();
    RalinkSocState *s = RALINK_SOC(dev);
    MemoryRegion *sysmem = get_system_memory();
    const RalinkSocInfo *info;
    CPUMIPSState *env;
    int i;

    info = s->info = ralink_soc_info(s->soc);
    if (!info) {
        error_setg(errp, "ralink-soc: unknown SoC \"%s\"",
                   s->soc ? s->soc : "");
        return;
    }
    clock_set_hz(s->cpuclk, info->cpu_hz);
    s->cpu = mips_cpu_create_with_clock(s->cpu_type, s->cpuclk);
    cpu_mips_irq_init_cpu(s->cpu);
    cpu_mips_clock_init(s->cpu);
    env = &s->cpu->env;

    memory_region_init_rom(&s->bootrom, OBJECT(s), "ralink-soc.bootrom",
                           RALINK_SOC_BOOTROM_SIZE, errp);
    if (*errp) {
        return;
    }
    memory_region_add_subregion(sysmem, RALINK_SOC_BOOTROM_BASE,
                                &s->bootrom);

    if (!object_property_set_str(OBJECT(&s->sysctl), "soc", s->soc, errp) ||
        !object_property_set_uint(OBJECT(&s->sysctl), "eco", s->eco, errp) ||
        !sysbus_realize(SYS_BUS_DEVICE(&s->sysctl), errp)) {
        return;
    }
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->sysctl), 0,
                    ralink_soc_palmbus(s) + SOC_SYSCTL_OFS);

    for (i = 0; info->intc_regs && i < ARRAY_SIZE(intc_reg_props); i++) {
        object_property_set_uint(OBJECT(&s->intc), intc_reg_props[i],
                                 info->intc_regs[i], &error_abort);
    }
    if (!sysbus_realize(SYS_BUS_DEVICE(&s->intc), errp)) {
        return;
    }
    sysbus_mmio_map(SYS_BUS_DEVICE(&s->intc), 0,
                    ralink_soc_palmbus(s) + SOC_INTC_OFS);
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->intc), 0,
                       env->irq[SOC_CPU_IRQ_INTC]);
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->intc), 1,
                       env->irq[SOC_CPU_IRQ_INTC_FIQ]);

    for (i = 0; i < info->mtk_uarts; i++) {
        s->uart[i] = mtk_uart_init(sysmem, ralink_soc_palmbus(s) +
                                   SOC_UART_OFS + i * SOC_UART_STRIDE,
                                   qdev_get_gpio_in(DEVICE(&s->intc),
                                                    info->uart_irq + i),
                                   info->uart_hz / 16, serial_hd(i));
    }
    if (!info->mtk_uarts) {
        s->uartlite = ralink_uart_init(sysmem, ralink_soc_palmbus(s) +
                                       SOC_UART_OFS,
                                       qdev_get_gpio_in(DEVICE(&s->intc),
                                                        info->uart_irq),
                                       info->uart_hz / 16, serial_hd(0));
    }

    if (!ralink_soc_net(s, errp)) {
        return;
    }

    for (i = 0; info->unimp[i].name; i++) {
        ralink_soc_map_unimp(s, info->unimp[i].name,
                             ralink_soc_palmbus(s) + info->unimp[i].ofs,
                             info->unimp[i].size, -1000);
    }
    /* Anything else on the palmbus */
    ralink_soc_map_unimp(s, "palmbus", ralink_soc_palmbus(s),
                         RALINK_SOC_PALMBUS_SIZE, -2000);
}

static void ralink_soc_init(Object *obj)
{
    RalinkSocState *s = RALINK_SOC(obj);

    object_initialize_child(obj, "sysctl", &s->sysctl, TYPE_RALINK_SYSCTL);
    object_initialize_child(obj, "intc", &s->intc, TYPE_RALINK_INTC);
    s->cpuclk = qdev_init_clock_out(DEVICE(obj), "cpu-refclk");
}

static Property ralink_soc_properties[] = {
    DEFINE_PROP_STRING("cpu-type", RalinkSocState, cpu_type),
    DEFINE_PROP_STRING("soc", RalinkSocState, soc),
    DEFINE_PROP_UINT8("eco", RalinkSocState, eco, RALINK_SYSCTL_ECO_CHIP),
    DEFINE_PROP_END_OF_LIST(),
};

static void ralink_soc_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = ralink_soc_realize;
    device_class_set_props(dc, ralink_soc_properties);
    /* Created by the boards only: it wires the CPU's interrupt pins */
    dc->user_creatable = false;
}

static const TypeInfo ralink_soc_info_type = {
    .name = TYPE_RALINK_SOC,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(RalinkSocState),
    .instance_init = ralink_soc_init,
    .class_init = ralink_soc_class_init,
};

static void ralink_soc_register_types(void)
{
    type_register_static(&ralink_soc_info_type);
}

type_init(ralink_soc_register_types)
