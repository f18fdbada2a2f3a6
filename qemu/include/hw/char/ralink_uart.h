/*
 * Ralink UART ("ralink,rt2880-uart"): a 16550 with its registers moved
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_CHAR_RALINK_UART_H
#define HW_CHAR_RALINK_UART_H

#include "hw/char/serial.h"
#include "hw/sysbus.h"
#include "qom/object.h"

#define TYPE_RALINK_UART "ralink-uart"
OBJECT_DECLARE_SIMPLE_TYPE(RalinkUartState, RALINK_UART)

#define RALINK_UART_SIZE        0x100

struct RalinkUartState {
    SysBusDevice parent_obj;

    SerialState serial;
    MemoryRegion iomem;
};

/* The UART at @base of @address_space, its interrupt @irq */
RalinkUartState *ralink_uart_init(MemoryRegion *address_space, hwaddr base,
                                  qemu_irq irq, int baudbase, Chardev *chr);

#endif /* HW_CHAR_RALINK_UART_H */
