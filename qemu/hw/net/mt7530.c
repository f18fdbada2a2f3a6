/*
 * MediaTek MT7530 switch core, as built into the MT7621 (MCM)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "hw/irq.h"
#include "hw/net/mt7530.h"
#include "hw/qdev-properties.h"

void mt7530_attach_mac(MT7530State *s, int port, const MT7530MacOps *ops,
                       void *opaque)
{
    assert(port == MT7530_GMAC1_PORT || port == MT7530_CPU_PORT);
    s->mac_ops[port] = ops;
    s->mac_opaque[port] = opaque;
}

void mt7530_mac_transmit(MT7530State *s, int port, const uint8_t *buf,
                         size_t len)
{
    qemu_log_mask(LOG_UNIMP, "mt7530: frame from port %d dropped\n", port);
}

void mt7530_mac_ready(MT7530State *s, int port)
{
}

uint16_t mt7530_mdio_read(MT7530State *s, unsigned addr, unsigned reg)
{
    qemu_log_mask(LOG_UNIMP, "mt7530: MDIO read %u.%u\n", addr, reg);
    return 0xffff;
}

void mt7530_mdio_write(MT7530State *s, unsigned addr, unsigned reg,
                       uint16_t val)
{
    qemu_log_mask(LOG_UNIMP, "mt7530: MDIO write %u.%u\n", addr, reg);
}

uint16_t mt7530_mdio_c45_read(MT7530State *s, unsigned addr, unsigned devad,
                              unsigned reg)
{
    qemu_log_mask(LOG_UNIMP, "mt7530: MDIO C45 read %u.%u.%u\n", addr,
                  devad, reg);
    return 0xffff;
}

void mt7530_mdio_c45_write(MT7530State *s, unsigned addr, unsigned devad,
                           unsigned reg, uint16_t val)
{
    qemu_log_mask(LOG_UNIMP, "mt7530: MDIO C45 write %u.%u.%u\n", addr,
                  devad, reg);
}

static void mt7530_reset_in(void *opaque, int n, int level)
{
    MT7530State *s = opaque;

    s->in_reset = level;
}

static bool mt7530_can_receive(NetClientState *nc)
{
    return true;
}

static ssize_t mt7530_receive(NetClientState *nc, const uint8_t *buf,
                              size_t size)
{
    return size;
}

static NetClientInfo mt7530_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .can_receive = mt7530_can_receive,
    .receive = mt7530_receive,
};

static void mt7530_realize(DeviceState *dev, Error **errp)
{
    MT7530State *s = MT7530(dev);
    int i;

    for (i = 0; i < MT7530_NUM_PHYS; i++) {
        g_autofree char *name = g_strdup_printf("%s.port%d",
                                                dev->id ? dev->id : "mt7530",
                                                i);

        qemu_macaddr_default_if_unset(&s->conf[i].macaddr);
        s->nic[i] = qemu_new_nic(&mt7530_net_info, &s->conf[i],
                                 object_get_typename(OBJECT(s)), name,
                                 &dev->mem_reentrancy_guard, s);
    }
}

static void mt7530_init(Object *obj)
{
    MT7530State *s = MT7530(obj);

    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq);
    qdev_init_gpio_in_named(DEVICE(obj), mt7530_reset_in, "reset", 1);
}

static Property mt7530_properties[] = {
    DEFINE_PROP_NETDEV("netdev0", MT7530State, conf[0].peers),
    DEFINE_PROP_NETDEV("netdev1", MT7530State, conf[1].peers),
    DEFINE_PROP_NETDEV("netdev2", MT7530State, conf[2].peers),
    DEFINE_PROP_NETDEV("netdev3", MT7530State, conf[3].peers),
    DEFINE_PROP_NETDEV("netdev4", MT7530State, conf[4].peers),
    DEFINE_PROP_END_OF_LIST(),
};

static void mt7530_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->realize = mt7530_realize;
    device_class_set_props(dc, mt7530_properties);
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
}

static const TypeInfo mt7530_info = {
    .name = TYPE_MT7530,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(MT7530State),
    .instance_init = mt7530_init,
    .class_init = mt7530_class_init,
};

static void mt7530_register_types(void)
{
    type_register_static(&mt7530_info);
}

type_init(mt7530_register_types)
