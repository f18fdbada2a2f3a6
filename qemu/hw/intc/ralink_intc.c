/*
 * Ralink/MediaTek SoC interrupt controller ("ralink,rt2880-intc")
 *
 * The palmbus peripherals' 32 level-triggered lines, cascaded into the
 * CPU: on the RT2880, RT305x, RT3883, MT7620 and MT7628 (the MT7621 has a
 * MIPS GIC instead). Each line can be enabled (ENABLE, write 1 to set) or
 * disabled (DISABLE, write 1 to clear), bit 31 of ENABLE enables the
 * controller as a whole, TYPE routes a line to the FIQ output instead of
 * the IRQ one; STATUS0 shows the enabled IRQ lines that are pending,
 * STATUS1 the FIQ ones, RAW every line. As Linux's
 * arch/mips/ralink/irq.c drives it: everything disabled, TYPE 0 ("route
 * all irqs to HW0"), the global enable set, then lines enabled as they
 * are requested; the cascade is the CPU's IP2.
 *
 * The register offsets differ between SoCs and come as properties, in
 * the order of the DT's ralink,intc-registers (RT2880 layout by default:
 * STATUS0 0x00, STATUS1 0x04, TYPE 0x20, RAW 0x30, ENABLE 0x34, DISABLE
 * 0x38; the MT7628's DT gives 0x9c 0xa0 0x6c 0xa4 0x80 0x78). Reading
 * ENABLE or DISABLE gives the enabled lines; the datasheets at hand do
 * not say what the silicon returns there.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "hw/intc/ralink_intc.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "trace.h"

#define INTC_GLOBAL_EN          BIT(31)

static uint32_t intc_pending(RalinkIntcState *s)
{
    return (s->enable & INTC_GLOBAL_EN) ? s->raw & s->enable &
                                          ~INTC_GLOBAL_EN : 0;
}

static void intc_update(RalinkIntcState *s)
{
    uint32_t pending = intc_pending(s);

    trace_ralink_intc_update(s->raw, s->enable, pending);
    qemu_set_irq(s->irq, !!(pending & ~s->type));
    qemu_set_irq(s->fiq, !!(pending & s->type));
}

static void intc_set_irq(void *opaque, int line, int level)
{
    RalinkIntcState *s = opaque;

    s->raw = deposit32(s->raw, line, 1, !!level);
    intc_update(s);
}

static int intc_reg(RalinkIntcState *s, hwaddr addr)
{
    int i;

    for (i = 0; i < RALINK_INTC_NUM_REGS; i++) {
        if (s->reg[i] == addr) {
            return i;
        }
    }
    return -1;
}

static uint64_t ralink_intc_read(void *opaque, hwaddr addr, unsigned size)
{
    RalinkIntcState *s = opaque;

    switch (intc_reg(s, addr)) {
    case RALINK_INTC_STATUS0:
        return intc_pending(s) & ~s->type;
    case RALINK_INTC_STATUS1:
        return intc_pending(s) & s->type;
    case RALINK_INTC_TYPE:
        return s->type;
    case RALINK_INTC_RAW:
        return s->raw;
    case RALINK_INTC_ENABLE:
    case RALINK_INTC_DISABLE:
        return s->enable;
    }
    qemu_log_mask(LOG_UNIMP, "ralink-intc: read of 0x%02" HWADDR_PRIx "\n",
                  addr);
    return 0;
}

static void ralink_intc_write(void *opaque, hwaddr addr, uint64_t val,
                              unsigned size)
{
    RalinkIntcState *s = opaque;

    switch (intc_reg(s, addr)) {
    case RALINK_INTC_TYPE:
        s->type = val & ~INTC_GLOBAL_EN;
        break;
    case RALINK_INTC_ENABLE:
        s->enable |= val;
        break;
    case RALINK_INTC_DISABLE:
        s->enable &= ~val;
        break;
    case RALINK_INTC_STATUS0:
    case RALINK_INTC_STATUS1:
    case RALINK_INTC_RAW:
        qemu_log_mask(LOG_GUEST_ERROR, "ralink-intc: write of 0x%" PRIx64
                      " to status register 0x%02" HWADDR_PRIx "\n", val, addr);
        return;
    default:
        qemu_log_mask(LOG_UNIMP, "ralink-intc: write of 0x%" PRIx64 " to "
                      "0x%02" HWADDR_PRIx "\n", val, addr);
        return;
    }
    intc_update(s);
}

static const MemoryRegionOps ralink_intc_ops = {
    .read = ralink_intc_read,
    .write = ralink_intc_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static void ralink_intc_reset(DeviceState *dev)
{
    RalinkIntcState *s = RALINK_INTC(dev);

    s->enable = 0;
    s->type = 0;
    intc_update(s);
}

static void ralink_intc_realize(DeviceState *dev, Error **errp)
{
    RalinkIntcState *s = RALINK_INTC(dev);
    int i, j;

    for (i = 0; i < RALINK_INTC_NUM_REGS; i++) {
        if (s->reg[i] >= RALINK_INTC_SIZE || s->reg[i] % 4) {
            error_setg(errp, "ralink-intc: register offset 0x%x", s->reg[i]);
            return;
        }
        for (j = 0; j < i; j++) {
            if (s->reg[i] == s->reg[j]) {
                error_setg(errp, "ralink-intc: two registers at 0x%x",
                           s->reg[i]);
                return;
            }
        }
    }
}

static void ralink_intc_init(Object *obj)
{
    RalinkIntcState *s = RALINK_INTC(obj);

    memory_region_init_io(&s->iomem, obj, &ralink_intc_ops, s,
                          TYPE_RALINK_INTC, RALINK_INTC_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->fiq);
    qdev_init_gpio_in(DEVICE(obj), intc_set_irq, RALINK_INTC_NUM_IRQS);
}

static const VMStateDescription vmstate_ralink_intc = {
    .name = TYPE_RALINK_INTC,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32(raw, RalinkIntcState),
        VMSTATE_UINT32(enable, RalinkIntcState),
        VMSTATE_UINT32(type, RalinkIntcState),
        VMSTATE_END_OF_LIST()
    }
};

static Property ralink_intc_properties[] = {
    DEFINE_PROP_UINT32("reg-status0", RalinkIntcState,
                       reg[RALINK_INTC_STATUS0], 0x00),
    DEFINE_PROP_UINT32("reg-status1", RalinkIntcState,
                       reg[RALINK_INTC_STATUS1], 0x04),
    DEFINE_PROP_UINT32("reg-type", RalinkIntcState, reg[RALINK_INTC_TYPE],
                       0x20),
    DEFINE_PROP_UINT32("reg-raw", RalinkIntcState, reg[RALINK_INTC_RAW],
                       0x30),
    DEFINE_PROP_UINT32("reg-enable", RalinkIntcState,
                       reg[RALINK_INTC_ENABLE], 0x34),
    DEFINE_PROP_UINT32("reg-disable", RalinkIntcState,
                       reg[RALINK_INTC_DISABLE], 0x38),
    DEFINE_PROP_END_OF_LIST(),
};

static void ralink_intc_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->realize = ralink_intc_realize;
    dc->reset = ralink_intc_reset;
    dc->vmsd = &vmstate_ralink_intc;
    device_class_set_props(dc, ralink_intc_properties);
}

static const TypeInfo ralink_intc_info = {
    .name = TYPE_RALINK_INTC,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(RalinkIntcState),
    .instance_init = ralink_intc_init,
    .class_init = ralink_intc_class_init,
};

static void ralink_intc_register_types(void)
{
    type_register_static(&ralink_intc_info);
}

type_init(ralink_intc_register_types)
