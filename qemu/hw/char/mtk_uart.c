/*
 * MediaTek UART: a 16550 with MediaTek's registers after it
 *
 * The UARTs of the MT7621 and MT7628 ("mediatek,hsuart" in U-Boot's DTs,
 * ns16550a with reg-shift 2 in Linux's) are 16550s, registers 4 bytes
 * apart, followed by MediaTek's own: HIGHSPEED at 0x24, the sample count
 * and point at 0x28 and 0x2c, which U-Boot's serial_mtk programs for its
 * baud rate (Linux's 8250 driver never touches them). They change nothing
 * on an emulated line: kept and read back.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "hw/char/mtk_uart.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"

static uint64_t mtk_uart_ext_read(void *opaque, hwaddr addr, unsigned size)
{
    MTKUartState *s = opaque;

    return s->ext_regs[addr / 4];
}

static void mtk_uart_ext_write(void *opaque, hwaddr addr, uint64_t val,
                               unsigned size)
{
    MTKUartState *s = opaque;

    s->ext_regs[addr / 4] = val;
}

static const MemoryRegionOps mtk_uart_ext_ops = {
    .read = mtk_uart_ext_read,
    .write = mtk_uart_ext_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static void mtk_uart_reset(DeviceState *dev)
{
    MTKUartState *s = MTK_UART(dev);

    memset(s->ext_regs, 0, sizeof(s->ext_regs));
}

static void mtk_uart_init_obj(Object *obj)
{
    MTKUartState *s = MTK_UART(obj);

    memory_region_init_io(&s->ext, obj, &mtk_uart_ext_ops, s, "mtk-uart-ext",
                          MTK_UART_EXT_REGS * 4);
}

static void mtk_uart_realize(DeviceState *dev, Error **errp)
{
    MTKUartState *s = MTK_UART(dev);
    DeviceClass *pc = DEVICE_CLASS(object_class_get_parent(
                                   object_get_class(OBJECT(dev))));

    pc->realize(dev, errp);
    if (*errp) {
        return;
    }
    /* Region 0: the 16550 (SerialMM's); region 1: MediaTek's registers */
    sysbus_init_mmio(SYS_BUS_DEVICE(dev), &s->ext);
}

MTKUartState *mtk_uart_init(MemoryRegion *address_space, hwaddr base,
                            qemu_irq irq, int baudbase, Chardev *chr)
{
    MTKUartState *s = MTK_UART(qdev_new(TYPE_MTK_UART));
    DeviceState *dev = DEVICE(s);

    qdev_prop_set_uint8(dev, "regshift", 2);
    qdev_prop_set_uint32(dev, "baudbase", baudbase);
    qdev_prop_set_chr(dev, "chardev", chr);
    qdev_set_legacy_instance_id(dev, base, 2);
    qdev_prop_set_uint8(dev, "endianness", DEVICE_LITTLE_ENDIAN);
    sysbus_realize_and_unref(SYS_BUS_DEVICE(s), &error_fatal);
    sysbus_connect_irq(SYS_BUS_DEVICE(s), 0, irq);
    memory_region_add_subregion(address_space, base,
                                sysbus_mmio_get_region(SYS_BUS_DEVICE(s), 0));
    memory_region_add_subregion(address_space, base + MTK_UART_EXT_OFS,
                                sysbus_mmio_get_region(SYS_BUS_DEVICE(s), 1));
    return s;
}

static const VMStateDescription vmstate_mtk_uart = {
    .name = TYPE_MTK_UART,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_STRUCT(parent_obj.serial, MTKUartState, 0, vmstate_serial,
                       SerialState),
        VMSTATE_UINT32_ARRAY(ext_regs, MTKUartState, MTK_UART_EXT_REGS),
        VMSTATE_END_OF_LIST()
    }
};

static void mtk_uart_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->realize = mtk_uart_realize;
    dc->reset = mtk_uart_reset;
    dc->vmsd = &vmstate_mtk_uart;
}

static const TypeInfo mtk_uart_info = {
    .name = TYPE_MTK_UART,
    .parent = TYPE_SERIAL_MM,
    .instance_size = sizeof(MTKUartState),
    .instance_init = mtk_uart_init_obj,
    .class_init = mtk_uart_class_init,
};

static void mtk_uart_register_types(void)
{
    type_register_static(&mtk_uart_info);
}

type_init(mtk_uart_register_types)
