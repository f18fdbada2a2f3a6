/*
 * MediaTek MT7621 frame engine (palmbus 0x1e100000)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "exec/address-spaces.h"
#include "hw/irq.h"
#include "hw/net/mt7621_fe.h"
#include "hw/qdev-properties.h"

static uint64_t mt7621_fe_read(void *opaque, hwaddr addr, unsigned size)
{
    qemu_log_mask(LOG_UNIMP, "%s: read of unimplemented register 0x%"
                  HWADDR_PRIx "\n", __func__, addr);
    return 0;
}

static void mt7621_fe_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    qemu_log_mask(LOG_UNIMP, "%s: write 0x%" PRIx64
                  " to unimplemented register 0x%" HWADDR_PRIx "\n",
                  __func__, val, addr);
}

static const MemoryRegionOps mt7621_fe_ops = {
    .read = mt7621_fe_read,
    .write = mt7621_fe_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static void mt7621_fe_reset_in(void *opaque, int n, int level)
{
    MT7621FEState *s = opaque;

    s->in_reset[n] = level;
}

static void mt7621_fe_realize(DeviceState *dev, Error **errp)
{
    MT7621FEState *s = MT7621_FE(dev);

    if (!s->sw || !s->dma_mr) {
        error_setg(errp, "mt7621-fe: the switch and dma-memory links are "
                   "required");
        return;
    }
    address_space_init(&s->dma_as, s->dma_mr, "mt7621-fe-dma");
}

static void mt7621_fe_init(Object *obj)
{
    MT7621FEState *s = MT7621_FE(obj);

    memory_region_init_io(&s->iomem, obj, &mt7621_fe_ops, s, TYPE_MT7621_FE,
                          MT7621_FE_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq);
    qdev_init_gpio_in_named(DEVICE(obj), mt7621_fe_reset_in, "reset", 2);
}

static Property mt7621_fe_properties[] = {
    DEFINE_PROP_LINK("switch", MT7621FEState, sw, TYPE_MT7530, MT7530State *),
    DEFINE_PROP_LINK("dma-memory", MT7621FEState, dma_mr, TYPE_MEMORY_REGION,
                     MemoryRegion *),
    DEFINE_PROP_END_OF_LIST(),
};

static void mt7621_fe_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->realize = mt7621_fe_realize;
    device_class_set_props(dc, mt7621_fe_properties);
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
}

static const TypeInfo mt7621_fe_info = {
    .name = TYPE_MT7621_FE,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(MT7621FEState),
    .instance_init = mt7621_fe_init,
    .class_init = mt7621_fe_class_init,
};

static void mt7621_fe_register_types(void)
{
    type_register_static(&mt7621_fe_info);
}

type_init(mt7621_fe_register_types)
