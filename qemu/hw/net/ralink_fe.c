/*
 * Ralink/MediaTek frame engine of the RT5350 and MT7628/MT7688
 *
 * These frame engines have no GDMA and no QDMA: the PDMA's TX rings send
 * straight into the embedded switch's CPU port, and what the switch sends
 * to its CPU port fills PDMA RX ring 0. The register map is mainline's
 * mt7628_reg_map (mtk_eth_soc.c) and the 2016 series' RT5350 one
 * (../shared/seeds/, patch 003: PDMA at 0x800, GLO_CFG 0xa04, interrupts
 * 0xa20/0xa28, the SDM at 0xc00), which U-Boot's mt7628-eth.c programs
 * too:
 *
 *   0x800  TX rings 0-3 (ralink_pdma.c)   0xa20  INT_STATUS (write 1 to
 *   0x900  RX rings 0-1                          clear)
 *   0xa04  PDMA_GLO_CFG                   0xa28  INT_MASK
 *   0xa08  PDMA_RST_IDX                   0xc00  SDM_CON: RX checksums
 *   0xa0c  DLY_INT_CFG (RX, TX halves)    0xc0c  SDM_MAC_ADRL/ADRH
 *                                         0xd00  SDM counters
 *
 * TX: txd4's port field is not decoded (U-Boot's mt7628-eth writes PN 1
 * at bit 24, mainline's mtk_tx_set_dma_desc_v1() "mac->id + 1" at bit 25:
 * every frame goes to the switch either way); the RT5350 and MT7628
 * compute no TX checksum (mainline's MTK_HW_FEATURES_MT7628: SG and
 * RXCSUM). RX: the drivers write no buffer size into rxd2 (mainline
 * "rxd->rxd2 = RX_DMA_LSO"), so a frame takes up to the switch's largest
 * frame; rxd4's L4_VALID (bit 30, mainline's RX_DMA_L4_VALID_PDMA) says
 * its IP and TCP/UDP checksums are right (ralink_csum.c), while SDM_CON
 * enables the checks (ICS/TCS/UCS, the 2016 series' RT5350_SDM_*: the
 * model checks all or nothing, as for the MT7621). SDM_CON's reset
 * value has them on: mainline advertises NETIF_F_RXCSUM and never writes
 * SDM_CON; the silicon's value is not known here.
 *
 * The engine is reset by the system controller's FE line (RSTCTL bit 21
 * on the MT7628, OpenWrt's mt7628an.dtsi "fe"), which mainline's
 * device_reset() pulses at probe.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "hw/irq.h"
#include "hw/net/ralink_csum.h"
#include "hw/net/ralink_fe.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "sysemu/dma.h"
#include "trace.h"

#define PDMA_TX_BASE            0x0800  /* 4 rings: ralink_pdma.h */
#define PDMA_RX_BASE            0x0900  /* 2 rings: ralink_pdma.h */
#define PDMA_RX_RINGS           2
#define PDMA_GLO_CFG            0x0a04
#define   GLO_RX_2B_OFFSET          BIT(31)
#define   GLO_RX_DMA_BUSY           BIT(3)
#define   GLO_RX_DMA_EN             BIT(2)
#define   GLO_TX_DMA_BUSY           BIT(1)
#define   GLO_TX_DMA_EN             BIT(0)
#define PDMA_RST_IDX            0x0a08
#define   RST_DTX_IDX_MASK          0xf
#define   RST_DRX_IDX_SHIFT         16
#define PDMA_DLY_INT_CFG        0x0a0c
#define PDMA_FREEQ_THRES        0x0a10
#define PDMA_INT_STATUS         0x0a20
#define PDMA_INT_MASK           0x0a28
#define   RX_DONE_DLY               BIT(30)
#define   TX_DONE_DLY               BIT(28)
#define   RX_DONE_INT0              BIT(16)
#define   TX_DONE_INT_MASK          0xf     /* TX_DONE_INT0..3 */
#define PDMA_INT_GRP            0x0a50  /* mt7628_reg_map's int_grp */
#define PDMA_SCH_Q01_CFG        0x0a80
#define PDMA_SCH_Q23_CFG        0x0a84
#define SDM_CON                 0x0c00
#define   SDM_ICS_EN                BIT(16)
#define   SDM_TCS_EN                BIT(17)
#define   SDM_UCS_EN                BIT(18)
#define SDM_RRING               0x0c04
#define SDM_TRING               0x0c08
#define SDM_MAC_ADRL            0x0c0c
#define SDM_MAC_ADRH            0x0c10
#define SDM_TPCNT               0x0d00
#define SDM_TBCNT               0x0d04
#define SDM_RPCNT               0x0d08
#define SDM_RBCNT               0x0d0c
#define SDM_CS_ERR              0x0d10

#define RXD4_L4_VALID           BIT(30)

static uint32_t fe_reg(RalinkFEState *s, hwaddr a)
{
    return s->regs[a / 4];
}

static void fe_set(RalinkFEState *s, hwaddr a, uint32_t v)
{
    s->regs[a / 4] = v;
}

static void fe_update_irq(RalinkFEState *s)
{
    uint32_t status = fe_reg(s, PDMA_INT_STATUS);
    bool level = status & fe_reg(s, PDMA_INT_MASK);

    trace_ralink_fe_irq(level, status);
    qemu_set_irq(s->irq, level);
}

static void fe_update_irq_cb(void *opaque)
{
    fe_update_irq(opaque);
}

/* -- TX ------------------------------------------------------------------ */

static void fe_tx_frame(void *opaque, uint32_t txd4, size_t len)
{
    RalinkFEState *s = opaque;

    s->tx_packets++;
    s->tx_bytes += len;
    ralink_esw_cpu_transmit(s->esw, s->tx_buf, len);
}

static void fe_pdma_tx(RalinkFEState *s)
{
    uint32_t rings;
    unsigned frames;

    if (s->in_reset || !(fe_reg(s, PDMA_GLO_CFG) & GLO_TX_DMA_EN)) {
        return;
    }
    frames = ralink_pdma_tx_run(&s->pdma_tx, &rings);
    if (rings) {
        fe_set(s, PDMA_INT_STATUS, fe_reg(s, PDMA_INT_STATUS) |
               (rings & TX_DONE_INT_MASK));
        ralink_pdma_dly_complete(&s->dly[RALINK_FE_DLY_TX], frames);
        fe_update_irq(s);
    }
}

/* -- RX: ring 0 ---------------------------------------------------------- */

static bool fe_rx_on(RalinkFEState *s)
{
    return !s->in_reset && (fe_reg(s, PDMA_GLO_CFG) & GLO_RX_DMA_EN);
}

static bool fe_cpu_can_receive(void *opaque)
{
    RalinkFEState *s = opaque;

    /* With RX DMA off the frame is dropped, not held */
    return !fe_rx_on(s) || ralink_pdma_rx_free(&s->pdma_rx, 0);
}

static void fe_cpu_receive(void *opaque, const uint8_t *buf, size_t len)
{
    RalinkFEState *s = opaque;
    uint32_t con = fe_reg(s, SDM_CON), rxd4 = 0;
    unsigned off = (fe_reg(s, PDMA_GLO_CFG) & GLO_RX_2B_OFFSET) ? 2 : 0;
    int idx;

    if (!fe_rx_on(s) || !ralink_pdma_rx_free(&s->pdma_rx, 0)) {
        trace_ralink_fe_rx_drop(len);
        return;
    }
    if (con & (SDM_ICS_EN | SDM_TCS_EN | SDM_UCS_EN)) {
        RalinkCsum c = ralink_csum_rx(buf, len, 0);

        if (c == RALINK_CSUM_OK) {
            rxd4 |= RXD4_L4_VALID;
        } else if (c == RALINK_CSUM_BAD) {
            s->rx_csum_err++;
        }
    }
    idx = ralink_pdma_rx_fill(&s->pdma_rx, 0, buf, len, off);
    if (idx < 0) {
        return;
    }
    s->rx_packets++;
    s->rx_bytes += len;
    trace_ralink_fe_rx(len, idx, rxd4);
    ralink_pdma_rx_done(&s->pdma_rx, 0, idx,
                        RALINK_PDMA_RXD2_DONE | RALINK_PDMA_RXD2_LS0 |
                        RALINK_PDMA_RXD2_PLEN0(len), 0, rxd4);
    fe_set(s, PDMA_INT_STATUS, fe_reg(s, PDMA_INT_STATUS) | RX_DONE_INT0);
    ralink_pdma_dly_complete(&s->dly[RALINK_FE_DLY_RX], 1);
    fe_update_irq(s);
}

static const RalinkEswCpuOps fe_cpu_ops = {
    .can_receive = fe_cpu_can_receive,
    .receive = fe_cpu_receive,
};

/* -- registers ---------------------------------------------------------- */

static bool fe_plain_reg(hwaddr a)
{
    switch (a) {
    case PDMA_FREEQ_THRES:
    case PDMA_INT_GRP:
    case PDMA_SCH_Q01_CFG:
    case PDMA_SCH_Q23_CFG:
    case SDM_CON:
    case SDM_RRING:
    case SDM_TRING:
    case SDM_MAC_ADRL:
    case SDM_MAC_ADRH:
        return true;
    }
    return false;
}

static uint32_t fe_counter(uint32_t *c)
{
    uint32_t v = *c;

    *c = 0;
    return v;
}

static uint64_t ralink_fe_read(void *opaque, hwaddr addr, unsigned size)
{
    RalinkFEState *s = opaque;

    if (addr >= PDMA_TX_BASE && addr < PDMA_TX_BASE + RALINK_PDMA_TX_SIZE) {
        return ralink_pdma_tx_read(&s->pdma_tx, addr - PDMA_TX_BASE);
    }
    if (addr >= PDMA_RX_BASE && addr < PDMA_RX_BASE + PDMA_RX_RINGS * 0x10) {
        return fe_reg(s, addr);
    }
    switch (addr) {
    case PDMA_GLO_CFG:
        /* The DMA is never busy between two register accesses */
        return fe_reg(s, addr) & ~(GLO_RX_DMA_BUSY | GLO_TX_DMA_BUSY);
    case PDMA_RST_IDX:
        return 0;
    case PDMA_DLY_INT_CFG:
    case PDMA_INT_STATUS:
    case PDMA_INT_MASK:
        return fe_reg(s, addr);
    case SDM_TPCNT:
        return fe_counter(&s->tx_packets);
    case SDM_TBCNT:
        return fe_counter(&s->tx_bytes);
    case SDM_RPCNT:
        return fe_counter(&s->rx_packets);
    case SDM_RBCNT:
        return fe_counter(&s->rx_bytes);
    case SDM_CS_ERR:
        return fe_counter(&s->rx_csum_err);
    }
    if (fe_plain_reg(addr)) {
        return fe_reg(s, addr);
    }
    qemu_log_mask(LOG_UNIMP, "ralink-fe: read of 0x%" HWADDR_PRIx "\n", addr);
    return 0;
}

static void fe_rx_write(RalinkFEState *s, hwaddr addr, uint32_t val)
{
    switch ((addr - PDMA_RX_BASE) % 0x10) {
    case RALINK_PDMA_RX_DRX_IDX:
        qemu_log_mask(LOG_GUEST_ERROR, "ralink-fe: write to an RX ring's DMA "
                      "index (read only; PDMA_RST_IDX resets it)\n");
        return;
    case RALINK_PDMA_RX_MAX_CNT:
    case RALINK_PDMA_RX_CRX_IDX:
        val &= 0xfff;
        break;
    }
    fe_set(s, addr, val);
    if (ralink_pdma_rx_free(&s->pdma_rx, 0)) {
        ralink_esw_cpu_ready(s->esw);
    }
}

static void ralink_fe_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    RalinkFEState *s = opaque;
    int r;

    if (addr >= PDMA_TX_BASE && addr < PDMA_TX_BASE + RALINK_PDMA_TX_SIZE) {
        ralink_pdma_tx_write(&s->pdma_tx, addr - PDMA_TX_BASE, val);
        if ((addr - PDMA_TX_BASE) % 0x10 == RALINK_PDMA_TX_CTX_IDX) {
            fe_pdma_tx(s);
        }
        return;
    }
    if (addr >= PDMA_RX_BASE && addr < PDMA_RX_BASE + PDMA_RX_RINGS * 0x10) {
        fe_rx_write(s, addr, val);
        return;
    }
    switch (addr) {
    case PDMA_GLO_CFG:
        fe_set(s, addr, val & ~(GLO_RX_DMA_BUSY | GLO_TX_DMA_BUSY));
        fe_pdma_tx(s);
        ralink_esw_cpu_ready(s->esw);
        return;
    case PDMA_RST_IDX:
        ralink_pdma_tx_reset_idx(&s->pdma_tx, val & RST_DTX_IDX_MASK);
        for (r = 0; r < PDMA_RX_RINGS; r++) {
            if (val & BIT(RST_DRX_IDX_SHIFT + r)) {
                fe_set(s, PDMA_RX_BASE + r * 0x10 + RALINK_PDMA_RX_DRX_IDX,
                       0);
            }
        }
        return;
    case PDMA_DLY_INT_CFG:
        fe_set(s, addr, val);
        ralink_pdma_dly_reconfigure(&s->dly[RALINK_FE_DLY_RX]);
        ralink_pdma_dly_reconfigure(&s->dly[RALINK_FE_DLY_TX]);
        return;
    case PDMA_INT_STATUS:
        fe_set(s, addr, fe_reg(s, addr) & ~val);
        fe_update_irq(s);
        return;
    case PDMA_INT_MASK:
        fe_set(s, addr, val);
        fe_update_irq(s);
        return;
    case SDM_TPCNT:
    case SDM_TBCNT:
    case SDM_RPCNT:
    case SDM_RBCNT:
    case SDM_CS_ERR:
        qemu_log_mask(LOG_GUEST_ERROR, "ralink-fe: write to SDM counter "
                      "0x%" HWADDR_PRIx " (read only)\n", addr);
        return;
    }
    if (fe_plain_reg(addr)) {
        fe_set(s, addr, val);
        return;
    }
    qemu_log_mask(LOG_UNIMP, "ralink-fe: write of 0x%" PRIx64 " to 0x%"
                  HWADDR_PRIx "\n", val, addr);
}

static const MemoryRegionOps ralink_fe_ops = {
    .read = ralink_fe_read,
    .write = ralink_fe_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

/* -- device ------------------------------------------------------------- */

static void ralink_fe_reset_regs(RalinkFEState *s)
{
    int i;

    memset(s->regs, 0, sizeof(s->regs));
    fe_set(s, SDM_CON, SDM_ICS_EN | SDM_TCS_EN | SDM_UCS_EN);
    s->tx_packets = s->tx_bytes = s->rx_packets = s->rx_bytes = 0;
    s->rx_csum_err = 0;
    for (i = 0; i < ARRAY_SIZE(s->dly); i++) {
        ralink_pdma_dly_reset(&s->dly[i]);
    }
    fe_update_irq(s);
}

static void ralink_fe_reset_in(void *opaque, int n, int level)
{
    RalinkFEState *s = opaque;

    s->in_reset = level;
    if (level) {
        ralink_fe_reset_regs(s);
    }
}

static void ralink_fe_reset(DeviceState *dev)
{
    RalinkFEState *s = RALINK_FE(dev);

    s->in_reset = false;
    ralink_fe_reset_regs(s);
}

static void ralink_fe_realize(DeviceState *dev, Error **errp)
{
    RalinkFEState *s = RALINK_FE(dev);

    if (!s->esw || !s->dma_mr) {
        error_setg(errp, "ralink-fe: the esw and dma-memory links are "
                   "required");
        return;
    }
    address_space_init(&s->dma_as, s->dma_mr, "ralink-fe-dma");
    s->pdma_tx = (RalinkPDMATx) {
        .regs = &s->regs[PDMA_TX_BASE / 4],
        .as = &s->dma_as,
        .buf = s->tx_buf,
        .buf_size = sizeof(s->tx_buf),
        .frame = fe_tx_frame,
        .opaque = s,
        .name = TYPE_RALINK_FE,
    };
    s->pdma_rx = (RalinkPDMARx) {
        .regs = &s->regs[PDMA_RX_BASE / 4],
        .as = &s->dma_as,
        /* The switch's largest frame, without its FCS */
        .buf_len = 1536,
        .name = TYPE_RALINK_FE,
    };
    ralink_pdma_dly_init(&s->dly[RALINK_FE_DLY_RX],
                         &s->regs[PDMA_DLY_INT_CFG / 4],
                         RALINK_PDMA_DLY_RX_SHIFT,
                         &s->regs[PDMA_INT_STATUS / 4], RX_DONE_DLY,
                         fe_update_irq_cb, s);
    ralink_pdma_dly_init(&s->dly[RALINK_FE_DLY_TX],
                         &s->regs[PDMA_DLY_INT_CFG / 4],
                         RALINK_PDMA_DLY_TX_SHIFT,
                         &s->regs[PDMA_INT_STATUS / 4], TX_DONE_DLY,
                         fe_update_irq_cb, s);
    ralink_esw_attach_cpu(s->esw, &fe_cpu_ops, s);
}

static void ralink_fe_init(Object *obj)
{
    RalinkFEState *s = RALINK_FE(obj);

    memory_region_init_io(&s->iomem, obj, &ralink_fe_ops, s, TYPE_RALINK_FE,
                          RALINK_FE_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq);
    qdev_init_gpio_in_named(DEVICE(obj), ralink_fe_reset_in, "reset", 1);
}

static const VMStateDescription vmstate_ralink_fe = {
    .name = TYPE_RALINK_FE,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_BOOL(in_reset, RalinkFEState),
        VMSTATE_UINT32_ARRAY(regs, RalinkFEState, RALINK_FE_SIZE / 4),
        VMSTATE_STRUCT_ARRAY(dly, RalinkFEState, 2, 1,
                             vmstate_ralink_pdma_dly, RalinkPDMADelay),
        VMSTATE_UINT32(tx_packets, RalinkFEState),
        VMSTATE_UINT32(tx_bytes, RalinkFEState),
        VMSTATE_UINT32(rx_packets, RalinkFEState),
        VMSTATE_UINT32(rx_bytes, RalinkFEState),
        VMSTATE_UINT32(rx_csum_err, RalinkFEState),
        VMSTATE_END_OF_LIST()
    }
};

static Property ralink_fe_properties[] = {
    DEFINE_PROP_LINK("esw", RalinkFEState, esw, TYPE_RALINK_ESW,
                     RalinkEswState *),
    DEFINE_PROP_LINK("dma-memory", RalinkFEState, dma_mr, TYPE_MEMORY_REGION,
                     MemoryRegion *),
    DEFINE_PROP_END_OF_LIST(),
};

static void ralink_fe_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->desc = "Ralink/MediaTek RT5350/MT7628 frame engine";
    dc->realize = ralink_fe_realize;
    dc->reset = ralink_fe_reset;
    dc->vmsd = &vmstate_ralink_fe;
    device_class_set_props(dc, ralink_fe_properties);
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
}

static const TypeInfo ralink_fe_info = {
    .name = TYPE_RALINK_FE,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(RalinkFEState),
    .instance_init = ralink_fe_init,
    .class_init = ralink_fe_class_init,
};

static void ralink_fe_register_types(void)
{
    type_register_static(&ralink_fe_info);
}

type_init(ralink_fe_register_types)
