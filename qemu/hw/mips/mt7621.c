/*
 * MediaTek MT7621 SoC
 *
 * Two MIPS 1004Kc cores of two VPEs each behind a MIPS Coherence Manager
 * (CM2 GCR, CPC, GIC), and the "palmbus": the SoC's peripherals, which
 * the CPUs reach through the CM's I/O coherence unit (IOCU0) only while a
 * CM address region routes their window there. The vendor bootloader
 * programs region 0 for 0x1c000000-0x1fffffff; Linux's mips_cm_probe()
 * disables every region, and arch/mips/ralink/mt7621.c re-programs region
 * 0 before it touches the palmbus (commit a63d706ea719). Without that,
 * palmbus accesses go to the CM's default target, the memory controller,
 * which has no DRAM there: see mt7621_unrouted_ops.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/units.h"
#include "exec/address-spaces.h"
#include "hw/mips/mt7621.h"
#include "hw/misc/unimp.h"
#include "hw/qdev-clock.h"
#include "hw/qdev-properties.h"
#include "sysemu/sysemu.h"

/*
 * The revision of the 1004K's Coherence Manager was not found in any dump
 * of real hardware. That CM predates CM2 (major revision 6), and Linux
 * treats every revision below 6 alike (no L2-only sync region, core-other
 * addressing by core number), so the model reports a pre-CM2 revision.
 */
#define MT7621_GCR_REV          0x0500

/*
 * Blocks the model does not implement yet: logged as unimplemented,
 * reads as zero. Offsets from the palmbus base unless stated.
 */
static const struct {
    const char *name;
    hwaddr base;
    uint64_t size;
} mt7621_unimp_blocks[] = {
    { "wdt", MT7621_PALMBUS_BASE + 0x000100, 0x100 },
    { "gpio", MT7621_PALMBUS_BASE + 0x000600, 0x100 },
    { "i2c", MT7621_PALMBUS_BASE + 0x000900, 0x100 },
    { "i2s", MT7621_PALMBUS_BASE + 0x000a00, 0x100 },
    { "spi", MT7621_PALMBUS_BASE + 0x000b00, 0x100 },
    { "pcm", MT7621_PALMBUS_BASE + 0x002000, 0x800 },
    { "gdma", MT7621_PALMBUS_BASE + 0x002800, 0x800 },
    { "nand", MT7621_PALMBUS_BASE + 0x003000, 0x800 },
    { "crypto", MT7621_PALMBUS_BASE + 0x004000, 0x1000 },
    { "hsdma", MT7621_PALMBUS_BASE + 0x007000, 0x1000 },
    { "sdxc", MT7621_PALMBUS_BASE + 0x130000, 0x4000 },
    { "pcie", MT7621_PALMBUS_BASE + 0x140000, 0x30000 },
    { "xhci", MT7621_PALMBUS_BASE + 0x1c0000, 0x1000 },
    { "usb-phy", MT7621_PALMBUS_BASE + 0x1d0000, 0x1000 },
    { "pcie-mem", MT7621_PCIE_MEM_BASE, MT7621_PCIE_MEM_SIZE },
};

/*
 * The I/O window while no CM region routes it to IOCU0: the access goes to
 * the CM default target, the memory controller, which decodes no DRAM
 * there. The model reads such addresses as zero and drops writes (no bus
 * error is raised). For the early console this means the UART's line
 * status never shows the transmitter empty: the kernel spins in silence,
 * as the GnuBee did after commit 3af5a67c86a3.
 */
static uint64_t mt7621_unrouted_read(void *opaque, hwaddr addr, unsigned size)
{
    qemu_log_mask(LOG_GUEST_ERROR, "mt7621: read at 0x%" HWADDR_PRIx
                  ", which no CM region routes to the IOCU: reads as zero\n",
                  addr + MT7621_IOCU_WINDOW);
    return 0;
}

static void mt7621_unrouted_write(void *opaque, hwaddr addr, uint64_t val,
                                  unsigned size)
{
    qemu_log_mask(LOG_GUEST_ERROR, "mt7621: write 0x%" PRIx64 " at 0x%"
                  HWADDR_PRIx ", which no CM region routes to the IOCU: "
                  "dropped\n", val, addr + MT7621_IOCU_WINDOW);
}

static const MemoryRegionOps mt7621_unrouted_ops = {
    .read = mt7621_unrouted_read,
    .write = mt7621_unrouted_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
};

static void mt7621_map_unimp(MT7621State *s, const char *name, hwaddr base,
                             uint64_t size, int priority)
{
    DeviceState *dev = qdev_new(TYPE_UNIMPLEMENTED_DEVICE);
    g_autofree char *child = g_strdup_printf("unimp-%s", name);

    qdev_prop_set_string(dev, "name", name);
    qdev_prop_set_uint64(dev, "size", size);
    object_property_add_child(OBJECT(s), child, OBJECT(dev));
    sysbus_realize_and_unref(SYS_BUS_DEVICE(dev), &error_fatal);
    memory_region_add_subregion_overlap(&s->iocu, base,
                        sysbus_mmio_get_region(SYS_BUS_DEVICE(dev), 0),
                        priority);
}

static void mt7621_map_palmbus(MT7621State *s, SysBusDevice *dev, hwaddr ofs)
{
    memory_region_add_subregion(&s->iocu, MT7621_PALMBUS_BASE + ofs,
                                sysbus_mmio_get_region(dev, 0));
}

static void mt7621_realize(DeviceState *dev, Error **errp)
{
    ERRP_GUARD();
    MT7621State *s = MT7621_SOC(dev);
    MemoryRegion *sysmem = get_system_memory();
    int i;

    if (s->num_cores < 1 || s->num_cores > 2) {
        error_setg(errp, "the MT7621 has 1 or 2 cores, not %u", s->num_cores);
        return;
    }

    /* The I/O bus behind IOCU0, covering the 32-bit physical space */
    memory_region_init(&s->iocu, OBJECT(s), "mt7621-iocu", 4 * GiB);

    /* CPUs and the Coherence Manager */
    clock_set_hz(s->cpuclk, MT7621_CPU_HZ);
    object_property_set_str(OBJECT(&s->cps), "cpu-type", s->cpu_type,
                            &error_abort);
    object_property_set_uint(OBJECT(&s->cps), "num-vp",
                             s->num_cores * MT7621_VPES_PER_CORE,
                             &error_abort);
    object_property_set_uint(OBJECT(&s->cps), "num-core", s->num_cores,
                             &error_abort);
    object_property_set_uint(OBJECT(&s->cps), "num-iocu", 1, &error_abort);
    object_property_set_uint(OBJECT(&s->cps), "gcr-rev", MT7621_GCR_REV,
                             &error_abort);
    object_property_set_uint(OBJECT(&s->cps), "num-irq", MT7621_GIC_NUM_IRQS,
                             &error_abort);
    /*
     * The GIC counter is 64 bits wide and runs at the CPU clock (the DT's
     * gic-timer clocks; real boards register "sched_clock: 64 bits at
     * 880MHz").
     */
    object_property_set_uint(OBJECT(&s->cps), "gic-timer-freq", MT7621_CPU_HZ,
                             &error_abort);
    object_property_set_uint(OBJECT(&s->cps), "gic-counter-bits", 64,
                             &error_abort);
    /*
     * The CPUs' CP0 timer interrupts are GIC local interrupts (routable,
     * as Linux finds on real boards), not wired to a CPU pin of their own.
     */
    object_property_set_bool(OBJECT(&s->cps), "gic-routes-cpu-timer", true,
                             &error_abort);
    object_property_set_link(OBJECT(&s->cps), "iocu0", OBJECT(&s->iocu),
                             &error_abort);
    qdev_connect_clock_in(DEVICE(&s->cps), "clk-in", s->cpuclk);
    if (!sysbus_realize(SYS_BUS_DEVICE(&s->cps), errp)) {
        return;
    }
    sysbus_mmio_map_overlap(SYS_BUS_DEVICE(&s->cps), 0, 0, 1);

    /* The I/O window when unrouted, under the CM's regions */
    memory_region_init_io(&s->unrouted, OBJECT(s), &mt7621_unrouted_ops, s,
                          "mt7621-unrouted", MT7621_IOCU_WINDOW_SIZE);
    memory_region_add_subregion_overlap(sysmem, MT7621_IOCU_WINDOW,
                                        &s->unrouted, -1);

    /*
     * The boot flash window, where the CPUs start. It is reachable before
     * any CM region is programmed, and through IOCU0 once region 0 covers
     * it.
     */
    memory_region_init_rom(&s->bootrom, OBJECT(s), "mt7621.bootrom",
                           MT7621_BOOTROM_SIZE, errp);
    if (*errp) {
        return;
    }
    memory_region_add_subregion(sysmem, MT7621_BOOTROM_BASE, &s->bootrom);
    memory_region_init_alias(&s->bootrom_iocu, OBJECT(s),
                             "mt7621.bootrom-iocu", &s->bootrom, 0,
                             MT7621_BOOTROM_SIZE);
    memory_region_add_subregion(&s->iocu, MT7621_BOOTROM_BASE,
                                &s->bootrom_iocu);

    /* Palmbus blocks */
    if (!object_property_set_uint(OBJECT(&s->sysctl), "chip-rev",
                                  MT7621_CHIP_REV(s->num_cores), errp) ||
        !sysbus_realize(SYS_BUS_DEVICE(&s->sysctl), errp)) {
        return;
    }
    mt7621_map_palmbus(s, SYS_BUS_DEVICE(&s->sysctl), MT7621_SYSCTL_OFS);

    if (!sysbus_realize(SYS_BUS_DEVICE(&s->memc), errp)) {
        return;
    }
    mt7621_map_palmbus(s, SYS_BUS_DEVICE(&s->memc), MT7621_MEMC_OFS);

    for (i = 0; i < MT7621_NUM_UARTS; i++) {
        s->uart[i] = mtk_uart_init(&s->iocu, MT7621_PALMBUS_BASE +
                                   MT7621_UART1_OFS + i * MT7621_UART_STRIDE,
                                   get_cps_irq(&s->cps, MT7621_IRQ_UART1 + i),
                                   MT7621_UART_CLK_HZ / 16, serial_hd(i));
    }

    /* The switch core (MCM), on the frame engine's MDIO bus */
    if (!sysbus_realize(SYS_BUS_DEVICE(&s->sw), errp)) {
        return;
    }
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->sw), 0,
                       get_cps_irq(&s->cps, MT7621_IRQ_SWITCH));
    qdev_connect_gpio_out_named(DEVICE(&s->sysctl), "reset", MT7621_RST_MCM,
                                qdev_get_gpio_in_named(DEVICE(&s->sw),
                                                       "reset", 0));

    /* The frame engine: DMA to and from memory through the IOCU */
    object_property_set_link(OBJECT(&s->fe), "switch", OBJECT(&s->sw),
                             &error_abort);
    object_property_set_link(OBJECT(&s->fe), "dma-memory", OBJECT(sysmem),
                             &error_abort);
    if (!sysbus_realize(SYS_BUS_DEVICE(&s->fe), errp)) {
        return;
    }
    mt7621_map_palmbus(s, SYS_BUS_DEVICE(&s->fe), MT7621_FE_OFS);
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->fe), 0,
                       get_cps_irq(&s->cps, MT7621_IRQ_FE));
    qdev_connect_gpio_out_named(DEVICE(&s->sysctl), "reset", MT7621_RST_FE,
                                qdev_get_gpio_in_named(DEVICE(&s->fe), "reset",
                                                       MT7621_FE_RESET_FE));
    qdev_connect_gpio_out_named(DEVICE(&s->sysctl), "reset", MT7621_RST_ETH,
                                qdev_get_gpio_in_named(DEVICE(&s->fe), "reset",
                                                       MT7621_FE_RESET_ETH));

    for (i = 0; i < ARRAY_SIZE(mt7621_unimp_blocks); i++) {
        mt7621_map_unimp(s, mt7621_unimp_blocks[i].name,
                         mt7621_unimp_blocks[i].base,
                         mt7621_unimp_blocks[i].size, -1000);
    }
    /* Anything else on the palmbus */
    mt7621_map_unimp(s, "palmbus", MT7621_PALMBUS_BASE, MT7621_PALMBUS_SIZE,
                     -2000);
}

static void mt7621_init(Object *obj)
{
    MT7621State *s = MT7621_SOC(obj);

    object_initialize_child(obj, "cps", &s->cps, TYPE_MIPS_CPS);
    object_initialize_child(obj, "sysctl", &s->sysctl, TYPE_MT7621_SYSCTL);
    object_initialize_child(obj, "memc", &s->memc, TYPE_MT7621_MEMC);
    object_initialize_child(obj, "switch", &s->sw, TYPE_MT7530);
    object_initialize_child(obj, "fe", &s->fe, TYPE_MT7621_FE);
    s->cpuclk = qdev_init_clock_out(DEVICE(obj), "cpu-refclk");
}

static Property mt7621_properties[] = {
    DEFINE_PROP_UINT32("num-cores", MT7621State, num_cores, 2),
    DEFINE_PROP_STRING("cpu-type", MT7621State, cpu_type),
    DEFINE_PROP_END_OF_LIST(),
};

static void mt7621_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = mt7621_realize;
    device_class_set_props(dc, mt7621_properties);
    /* Uses serial_hd() and get_system_memory(): one per machine */
    dc->user_creatable = false;
}

static const TypeInfo mt7621_info = {
    .name = TYPE_MT7621_SOC,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(MT7621State),
    .instance_init = mt7621_init,
    .class_init = mt7621_class_init,
};

static void mt7621_register_types(void)
{
    type_register_static(&mt7621_info);
}

type_init(mt7621_register_types)
