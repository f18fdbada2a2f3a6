/*
 * Ralink UART ("ralink,rt2880-uart"): a 16550 with its registers moved
 *
 * The UARTs of the RT2880, RT305x, RT3883 and MT7620 are 16550s whose
 * registers sit 4 bytes apart in an order of their own, with the divisor
 * latch as one register of its own instead of DLL/DLM behind LCR's DLAB
 * (Linux's 8250_rt288x.c: au_io_in_map/au_io_out_map, RT288X_DL 0x28;
 * arch/mips/ralink/early_printk.c writes TX at 0x04 and polls LSR at
 * 0x1c on these SoCs):
 *
 *   0x00 RBR (read)   0x10 FCR (write)   0x20 MSR
 *   0x04 TBR (write)  0x14 LCR           0x24 SCR
 *   0x08 IER          0x18 MCR           0x28 DL (the whole divisor)
 *   0x0c IIR (read)   0x1c LSR
 *
 * The 16550 itself is QEMU's (hw/char/serial.c); this file moves its
 * registers. Reads of write-only registers read as 0, writes to read-only
 * ones are guest errors.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "hw/char/ralink_uart.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "migration/vmstate.h"

#define RT_UART_RBR             0x00
#define RT_UART_TBR             0x04
#define RT_UART_IER             0x08
#define RT_UART_IIR             0x0c
#define RT_UART_FCR             0x10
#define RT_UART_LCR             0x14
#define RT_UART_MCR             0x18
#define RT_UART_LSR             0x1c
#define RT_UART_MSR             0x20
#define RT_UART_SCR             0x24
#define RT_UART_DL              0x28

/* The 16550's register numbers (serial_io_ops' offsets) */
#define UART16550_RBR_THR       0
#define UART16550_IER           1
#define UART16550_IIR_FCR       2
#define UART16550_LCR           3
#define UART16550_MCR           4
#define UART16550_LSR           5
#define UART16550_MSR           6
#define UART16550_SCR           7
#define UART16550_LCR_DLAB      0x80

static uint64_t uart16550_read(RalinkUartState *s, int reg)
{
    return serial_io_ops.read(&s->serial, reg, 1);
}

static void uart16550_write(RalinkUartState *s, int reg, uint64_t val)
{
    serial_io_ops.write(&s->serial, reg, val & 0xff, 1);
}

/* The divisor through the 16550's DLL/DLM, DLAB set for the access */
static uint64_t ralink_uart_dl(RalinkUartState *s, bool write, uint64_t val)
{
    uint8_t lcr = uart16550_read(s, UART16550_LCR);

    uart16550_write(s, UART16550_LCR, lcr | UART16550_LCR_DLAB);
    if (write) {
        uart16550_write(s, 0, val);
        uart16550_write(s, 1, val >> 8);
    } else {
        val = uart16550_read(s, 0) | (uart16550_read(s, 1) << 8);
    }
    uart16550_write(s, UART16550_LCR, lcr);
    return val;
}

static uint64_t ralink_uart_read(void *opaque, hwaddr addr, unsigned size)
{
    RalinkUartState *s = opaque;

    switch (addr) {
    case RT_UART_RBR:
        return uart16550_read(s, UART16550_RBR_THR);
    case RT_UART_IER:
        return uart16550_read(s, UART16550_IER);
    case RT_UART_IIR:
        return uart16550_read(s, UART16550_IIR_FCR);
    case RT_UART_LCR:
        return uart16550_read(s, UART16550_LCR);
    case RT_UART_MCR:
        return uart16550_read(s, UART16550_MCR);
    case RT_UART_LSR:
        return uart16550_read(s, UART16550_LSR);
    case RT_UART_MSR:
        return uart16550_read(s, UART16550_MSR);
    case RT_UART_SCR:
        return uart16550_read(s, UART16550_SCR);
    case RT_UART_DL:
        return ralink_uart_dl(s, false, 0);
    case RT_UART_TBR:
    case RT_UART_FCR:
        return 0;               /* write only */
    }
    qemu_log_mask(LOG_UNIMP, "ralink-uart: read of 0x%" HWADDR_PRIx "\n",
                  addr);
    return 0;
}

static void ralink_uart_write(void *opaque, hwaddr addr, uint64_t val,
                              unsigned size)
{
    RalinkUartState *s = opaque;

    switch (addr) {
    case RT_UART_TBR:
        uart16550_write(s, UART16550_RBR_THR, val);
        return;
    case RT_UART_IER:
        uart16550_write(s, UART16550_IER, val);
        return;
    case RT_UART_FCR:
        uart16550_write(s, UART16550_IIR_FCR, val);
        return;
    case RT_UART_LCR:
        /* DLAB has no use here: the divisor is a register of its own */
        uart16550_write(s, UART16550_LCR, val);
        return;
    case RT_UART_MCR:
        uart16550_write(s, UART16550_MCR, val);
        return;
    case RT_UART_SCR:
        uart16550_write(s, UART16550_SCR, val);
        return;
    case RT_UART_DL:
        ralink_uart_dl(s, true, val & 0xffff);
        return;
    case RT_UART_RBR:
    case RT_UART_IIR:
    case RT_UART_LSR:
    case RT_UART_MSR:
        qemu_log_mask(LOG_GUEST_ERROR, "ralink-uart: write of 0x%" PRIx64
                      " to read-only register 0x%" HWADDR_PRIx "\n", val,
                      addr);
        return;
    }
    qemu_log_mask(LOG_UNIMP, "ralink-uart: write of 0x%" PRIx64 " to 0x%"
                  HWADDR_PRIx "\n", val, addr);
}

static const MemoryRegionOps ralink_uart_ops = {
    .read = ralink_uart_read,
    .write = ralink_uart_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 1,
        .max_access_size = 4,
    },
    .impl = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static void ralink_uart_realize(DeviceState *dev, Error **errp)
{
    RalinkUartState *s = RALINK_UART(dev);

    if (!qdev_realize(DEVICE(&s->serial), NULL, errp)) {
        return;
    }
    memory_region_init_io(&s->iomem, OBJECT(dev), &ralink_uart_ops, s,
                          TYPE_RALINK_UART, RALINK_UART_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(dev), &s->iomem);
    sysbus_init_irq(SYS_BUS_DEVICE(dev), &s->serial.irq);
}

static void ralink_uart_instance_init(Object *obj)
{
    RalinkUartState *s = RALINK_UART(obj);

    object_initialize_child(obj, "serial", &s->serial, TYPE_SERIAL);
    qdev_alias_all_properties(DEVICE(&s->serial), obj);
}

RalinkUartState *ralink_uart_init(MemoryRegion *address_space, hwaddr base,
                                  qemu_irq irq, int baudbase, Chardev *chr)
{
    RalinkUartState *s = RALINK_UART(qdev_new(TYPE_RALINK_UART));

    qdev_prop_set_uint32(DEVICE(s), "baudbase", baudbase);
    qdev_prop_set_chr(DEVICE(s), "chardev", chr);
    sysbus_realize_and_unref(SYS_BUS_DEVICE(s), &error_fatal);
    sysbus_connect_irq(SYS_BUS_DEVICE(s), 0, irq);
    memory_region_add_subregion(address_space, base,
                                sysbus_mmio_get_region(SYS_BUS_DEVICE(s), 0));
    return s;
}

static const VMStateDescription vmstate_ralink_uart = {
    .name = TYPE_RALINK_UART,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_STRUCT(serial, RalinkUartState, 0, vmstate_serial,
                       SerialState),
        VMSTATE_END_OF_LIST()
    }
};

static void ralink_uart_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->realize = ralink_uart_realize;
    dc->vmsd = &vmstate_ralink_uart;
}

static const TypeInfo ralink_uart_info = {
    .name = TYPE_RALINK_UART,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(RalinkUartState),
    .instance_init = ralink_uart_instance_init,
    .class_init = ralink_uart_class_init,
};

static void ralink_uart_register_types(void)
{
    type_register_static(&ralink_uart_info);
}

type_init(ralink_uart_register_types)
