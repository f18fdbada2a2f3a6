/*
 * MediaTek UART: a 16550 with MediaTek's registers after it
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_CHAR_MTK_UART_H
#define HW_CHAR_MTK_UART_H

#include "hw/char/serial.h"
#include "qom/object.h"

#define TYPE_MTK_UART "mtk-uart"
OBJECT_DECLARE_SIMPLE_TYPE(MTKUartState, MTK_UART)

/* HIGHSPEED (0x24) to the last one U-Boot's serial_mtk programs */
#define MTK_UART_EXT_OFS        0x20
#define MTK_UART_EXT_REGS       9

struct MTKUartState {
    SerialMM parent_obj;

    MemoryRegion ext;
    uint32_t ext_regs[MTK_UART_EXT_REGS];
};

/* A 16550 at @base with registers 4 bytes apart, as serial_mm_init() */
MTKUartState *mtk_uart_init(MemoryRegion *address_space, hwaddr base,
                            qemu_irq irq, int baudbase, Chardev *chr);

#endif /* HW_CHAR_MTK_UART_H */
