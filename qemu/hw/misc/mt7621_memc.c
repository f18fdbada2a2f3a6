/*
 * MediaTek MT7621 memory controller
 *
 * Only what software outside the DRAM set-up uses is modelled: the CPU PLL
 * register from which Linux and U-Boot compute the CPU clock, and the DDR
 * PLL from which U-Boot computes the DDR rate. The DDR timing and
 * calibration registers the DRAM set-up programs are logged as
 * unimplemented and read as zero.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "hw/misc/mt7621_memc.h"
#include "hw/misc/mt7621_sysctl.h"
#include "migration/vmstate.h"

/*
 * DDR3 at 1200 MT/s (U-Boot's default MT7621_DRAM_FREQ_1200): a 600 MHz
 * DDR clock from the 40 MHz crystal (FBDIV 15, no pre-divider, DIV2_SEL
 * set). The DRAM set-up blob programs these; no dump of the silicon's
 * values is at hand, so they are chosen to give that rate.
 */
#define MT7621_MEMPLL1          (1 << MEMPLL1_DIV2_SEL_SHIFT)
#define MT7621_MEMPLL6          (15 << CPU_PLL_FBDIV_SHIFT)

static uint64_t mt7621_memc_read(void *opaque, hwaddr addr, unsigned size)
{
    MT7621MemcState *s = opaque;

    switch (addr) {
    case MEMC_CPU_PLL:
        return s->cpu_pll;
    case MEMC_MEMPLL1:
        return MT7621_MEMPLL1;
    case MEMC_MEMPLL6:
        return MT7621_MEMPLL6;
    default:
        qemu_log_mask(LOG_UNIMP, "%s: read of unimplemented register 0x%"
                      HWADDR_PRIx "\n", __func__, addr);
        return 0;
    }
}

static void mt7621_memc_write(void *opaque, hwaddr addr, uint64_t val,
                              unsigned size)
{
    switch (addr) {
    case MEMC_CPU_PLL:
        /*
         * Reprogramming the PLL at run time would change the clock of the
         * CPUs and the GIC counter, which the model keeps fixed.
         */
        qemu_log_mask(LOG_UNIMP, "%s: CPU PLL reprogramming to 0x%" PRIx64
                      " ignored\n", __func__, val);
        break;
    default:
        qemu_log_mask(LOG_UNIMP, "%s: write 0x%" PRIx64
                      " to unimplemented register 0x%" HWADDR_PRIx "\n",
                      __func__, val, addr);
        break;
    }
}

static const MemoryRegionOps mt7621_memc_ops = {
    .read = mt7621_memc_read,
    .write = mt7621_memc_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static void mt7621_memc_reset(DeviceState *dev)
{
    MT7621MemcState *s = MT7621_MEMC(dev);

    s->cpu_pll = MT7621_CPU_PLL_FBDIV << CPU_PLL_FBDIV_SHIFT;
}

static void mt7621_memc_init(Object *obj)
{
    MT7621MemcState *s = MT7621_MEMC(obj);

    memory_region_init_io(&s->iomem, obj, &mt7621_memc_ops, s,
                          TYPE_MT7621_MEMC, MT7621_MEMC_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);
}

static const VMStateDescription vmstate_mt7621_memc = {
    .name = TYPE_MT7621_MEMC,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32(cpu_pll, MT7621MemcState),
        VMSTATE_END_OF_LIST()
    },
};

static void mt7621_memc_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->reset = mt7621_memc_reset;
    dc->vmsd = &vmstate_mt7621_memc;
}

static const TypeInfo mt7621_memc_info = {
    .name = TYPE_MT7621_MEMC,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(MT7621MemcState),
    .instance_init = mt7621_memc_init,
    .class_init = mt7621_memc_class_init,
};

static void mt7621_memc_register_types(void)
{
    type_register_static(&mt7621_memc_info);
}

type_init(mt7621_memc_register_types)
