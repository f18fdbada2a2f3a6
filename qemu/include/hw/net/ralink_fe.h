/*
 * Ralink/MediaTek frame engine of the RT5350 and MT7628/MT7688, the
 * RT305x's older layout of it and the MT7620's: PDMA to and from the
 * embedded switch's CPU port; the RT3883's and RT2880's: PDMA to and from
 * a GMAC with an external PHY
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_NET_RALINK_FE_H
#define HW_NET_RALINK_FE_H

#include "hw/sysbus.h"
#include "hw/net/mt7530.h"
#include "hw/net/ralink_esw.h"
#include "hw/net/ralink_pdma.h"
#include "hw/net/ralink_phy.h"
#include "net/net.h"
#include "qemu/units.h"
#include "qom/object.h"

#define TYPE_RALINK_FE "ralink-fe"
OBJECT_DECLARE_SIMPLE_TYPE(RalinkFEState, RALINK_FE)

#define RALINK_FE_SIZE          0x10000
/*
 * The largest frame a PDMA TX gathers: the MT7620's TSO takes up to 64
 * KiB (the kernel's GSO_LEGACY_MAX_SIZE) in several descriptors
 */
#define RALINK_FE_MAX_FRAME     (64 * KiB)

#define RALINK_FE_DLY_RX        0
#define RALINK_FE_DLY_TX        1

/**
 * RalinkFEState: the PDMA frame engine.
 * @esw: the switch whose CPU port the engine's DMA feeds and drains (the
 *       ESW), or
 * @gsw: the MT7620's GSW (map "mt7620"), or neither: the GMAC of maps
 *       "rt3883" and "rt2880", a NIC (@conf, @nic, property "netdev0")
 *       with an external PHY (@phy at MDIO address @phy_addr, property
 *       "phy-addr")
 * @dma_mr: guest RAM, where descriptors and buffers live
 * @map_name: the register map (property "map"): "rt5350" (RT5350,
 *            MT7628/MT7688; the default), "rt3050" (RT3050/RT3052),
 *            "mt7620", "rt3883" or "rt2880"
 * @map: its description (ralink_fe.c)
 * @eco: the chip's ECO revision (property "eco", set by the SoC from its
 *       own): the MT7620's scatter-gather, TSO and IPv6 TX checksums come
 *       with ECO 5
 * @in_reset: held in reset by the system controller (input "reset")
 * @regs: the register file; the registers with behaviour are decoded
 */
struct RalinkFEState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    qemu_irq irq;
    RalinkEswState *esw;
    MT7530State *gsw;
    NICConf conf;
    NICState *nic;
    RalinkPhy phy;
    uint32_t phy_addr;
    MemoryRegion *dma_mr;
    AddressSpace dma_as;
    char *map_name;
    const struct RalinkFEMap *map;
    uint8_t eco;
    bool in_reset;

    uint32_t regs[RALINK_FE_SIZE / 4];
    uint8_t tx_buf[RALINK_FE_MAX_FRAME];
    uint8_t tx_fp_bmap;         /* the frame being sent's txd4 FP_BMAP */
    RalinkPDMATx pdma_tx;
    RalinkPDMARx pdma_rx;
    RalinkPDMADelay dly[2];
    /* The SDM's (or GDMA1's) counters, cleared when read */
    uint32_t tx_packets, tx_bytes, rx_packets, rx_bytes, rx_csum_err;
    /* ... and the GMAC's: runts, overlong frames, TX without link */
    uint32_t rx_short, rx_long, tx_skip;
};

#endif /* HW_NET_RALINK_FE_H */
