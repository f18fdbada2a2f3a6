/*
 * MediaTek MT7621 frame engine: Ethernet DMA, GDMAs, GMACs, MDIO master
 *
 * As mainline's mtk_eth_soc drives it on the MT7621 (NETSYS v1 with
 * MTK_QDMA): frames from the CPU go through QDMA (a linked list of TX
 * descriptors, CTX/DTX/CRX/DRX pointers), frames to the CPU through PDMA
 * RX ring 0. The PDMA's TX rings (ralink_pdma.c) send too: U-Boot's
 * mtk_eth uses ring 0. GDMA1 feeds GMAC0, wired to port 6 of the MT7530
 * switch core, GDMA2 GMAC1 on port 5. Register names follow mtk_eth_soc.h.
 *
 * GDMA_FWD_CFG sends each class of received frame (unicast to the GDMA's
 * own MAC address, broadcast, multicast, other: the nibbles of MediaTek's
 * SDK raeth driver, GDM1_UFRC_P/BFRC_P/MFRC_P/OFRC_P) to PDMA, to the PPE
 * (mt7621_ppe.c: mainline's 0x4444) or drops it.
 *
 * QDMA TX keeps 16 queues (the TX descriptor's PQID) with their min and
 * max rates, weights and two schedulers (fe_qdma_fetch() and below), on
 * the virtual clock, and honours the switch's pause of a GMAC.
 *
 * Not modelled: HW LRO, the QDMA free queue's pages and flow-control
 * thresholds, the QDMA RX ring (frames for it go to PDMA).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "hw/irq.h"
#include "hw/net/mt7621_fe.h"
#include "hw/net/mt7621_ppe.h"
#include "hw/net/ralink_csum.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "net/checksum.h"
#include "net/eth.h"
#include "sysemu/dma.h"
#include "trace.h"

/* Frame engine globals */
#define FE_GLO_CFG              0x0000
#define FE_RST_GL               0x0004
#define FE_INT_STATUS2          0x0008
#define FE_INT_ENABLE           0x000c
#define FE_FOE_TS               0x0010  /* seconds: mtk_eth_timestamp() */
#define FE_INT_GRP              0x0020
#define FE_GLO_MISC             0x0124
#define FE_PSE_IQ_STA           0x0110
#define FE_PSE_OQ_STA           0x0118  /* and +4, +0x10 */
#define FE_CDM1_FSM             0x0220
#define FE_GDM1_FSM             0x0228
#define FE_GDM2_FSM             0x022c
#define CDMP_IG_CTRL            0x0400
#define   CDMP_STAG_EN              BIT(0)
#define CDMP_EG_CTRL            0x0404
#define CDMQ_IG_CTRL            0x1400
#define   CDMQ_STAG_EN              BIT(0)
#define CDMQ_EG_CTRL            0x1404
/* GDMA n at 0x500 + n * 0x1000 */
#define GDMA_FWD_CFG(n)         (0x0500 + (n) * 0x1000)
#define   GDMA_SPECIAL_TAG          BIT(24)
#define   GDMA_ICS_EN               BIT(22)
#define   GDMA_TCS_EN               BIT(21)
#define   GDMA_UCS_EN               BIT(20)
#define   GDMA_FWD_OC(v)            extract32(v, 0, 4)  /* other */
#define   GDMA_FWD_MC(v)            extract32(v, 4, 4)  /* multicast */
#define   GDMA_FWD_BC(v)            extract32(v, 8, 4)  /* broadcast */
#define   GDMA_FWD_UC(v)            extract32(v, 12, 4) /* unicast to us */
#define   GDMA_FWD_PDMA             0
#define   GDMA_FWD_PPE              4
#define   GDMA_FWD_QDMA             5
#define   GDMA_FWD_DROP             7
#define GDMA_MAC_ADRL(n)        (0x0508 + (n) * 0x1000)
#define GDMA_MAC_ADRH(n)        (0x050c + (n) * 0x1000)
/* PDMA */
#define PDMA_TX_BASE            0x0800  /* 4 rings: ralink_pdma.h */
#define PDMA_RX_BASE_PTR(r)     (0x0900 + (r) * 0x10)
#define PDMA_RX_MAX_CNT(r)      (0x0904 + (r) * 0x10)
#define PDMA_RX_CRX_IDX(r)      (0x0908 + (r) * 0x10)
#define PDMA_RX_DRX_IDX(r)      (0x090c + (r) * 0x10)
#define PDMA_GLO_CFG            0x0a04
#define   GLO_RX_2B_OFFSET          BIT(31)
#define   GLO_RX_DMA_BUSY           BIT(3)
#define   GLO_RX_DMA_EN             BIT(2)
#define   GLO_TX_DMA_BUSY           BIT(1)
#define   GLO_TX_DMA_EN             BIT(0)
#define PDMA_RST_IDX            0x0a08
#define   RST_DRX_IDX(r)            BIT(16 + (r))
#define   RST_DTX_IDX_MASK          0xf
#define PDMA_DELAY_IRQ          0x0a0c  /* ralink_pdma.h's delay halves */
#define PDMA_IRQ_STATUS         0x0a20
#define PDMA_IRQ_MASK           0x0a28
#define   RX_DONE_DLY               BIT(30)
#define   RX_DONE_INT0              BIT(16)
#define   PDMA_TX_DONE_INT_MASK     0xf     /* TX_DONE_INT0..3 */
#define PDMA_ADMA_RX_DBG0       0x0a38
#define PDMA_INT_GRP            0x0a50
/* PPE (not modelled) */
#define PPE_BASE                0x0c00
#define PPE_END                 0x1000
/* QDMA */
#define QDMA_QTX_CFG            0x1800  /* 16 queues, 0x10 apart, + SCH */
#define QDMA_RX_BASE            0x1900
#define QDMA_GLO_CFG            0x1a04
#define QDMA_RST_IDX            0x1a08
#define QDMA_DELAY_IRQ          0x1a0c  /* TX half: QDMA TX done */
#define QDMA_FC_TH              0x1a10
#define QDMA_TX_SCH_RATE        0x1a14
#define QDMA_INT_STATUS         0x1a18
#define QDMA_INT_MASK           0x1a1c
#define   TX_DONE_DLY               BIT(28)
#define   TX_DONE_INT0              BIT(0)
#define QDMA_INT_GRP            0x1a20
#define QDMA_HRED               0x1a44
#define QDMA_CTX_PTR            0x1b00
#define QDMA_DTX_PTR            0x1b04
#define QDMA_CRX_PTR            0x1b10
#define QDMA_DRX_PTR            0x1b14
#define QDMA_FQ_HEAD            0x1b20
#define QDMA_FQ_CNT             0x1b28
#define   FQ_CNT_FREE(v)            extract32(v, 0, 16)
#define QDMA_FQ_BLEN            0x1b2c
#define   FQ_BLEN_PAGE(v)           extract32(v, 16, 16)
#define QDMA_END                0x1c00
/* GDMA counters: GDMA n at 0x2400 + n * 0x40, read to clear */
#define GDM_CNT_BASE            0x2400
#define   GDM_RX_BYTES_LO           0x00
#define   GDM_RX_BYTES_HI           0x04
#define   GDM_RX_PACKETS            0x08
#define   GDM_RX_OVERFLOW           0x10
#define   GDM_RX_CSUM_ERR           0x20
#define   GDM_TX_BYTES_LO           0x30
#define   GDM_TX_BYTES_HI           0x34
#define   GDM_TX_PACKETS            0x38
#define GDM_CNT_END             0x2480
/* WDMA (Wi-Fi offload, not on this board): idle */
#define WDMA_BASE               0x2800
#define WDMA_END                0x3000
/* The "GSW" block at 0x1e110000 */
#define MTK_PPSC                0x10000
#define MTK_PHY_IAC             0x10004
#define   PHY_IAC_ACCESS            BIT(31)
#define   PHY_IAC_REG(v)            extract32(v, 25, 5)
#define   PHY_IAC_ADDR(v)           extract32(v, 20, 5)
#define   PHY_IAC_CMD(v)            extract32(v, 18, 2)
#define   PHY_IAC_START(v)          extract32(v, 16, 2)
#define   PHY_IAC_CMD_C45_ADDR      0
#define   PHY_IAC_CMD_WRITE         1
#define   PHY_IAC_CMD_C22_READ      2
#define   PHY_IAC_CMD_C45_READ      3
#define   PHY_IAC_START_C22         1
#define MAC_MCR(n)              (0x10100 + (n) * 0x100)
#define   MAC_MCR_TX_EN             BIT(14)
#define   MAC_MCR_RX_EN             BIT(13)
#define MAC_MSR(n)              (0x10108 + (n) * 0x100)
#define MAC_FSM(n)              (0x1010c + (n) * 0x100)

/* TX descriptor (struct mtk_tx_dma) */
#define TXD3_OWNER_CPU          BIT(31)
#define TXD3_LS0                BIT(30)
#define TXD3_PLEN0(v)           extract32(v, 16, 14)
#define TXD4_CHKSUM             (7u << 29)
#define TXD4_TSO                BIT(28)
#define TXD4_FPORT(v)           extract32(v, 25, 3)
#define TXD4_INS_VLAN           BIT(16)
#define TXD4_VLAN_TCI(v)        extract32(v, 0, 16)
/* RX descriptor (struct mtk_rx_dma) */
#define RXD2_LS0                RALINK_PDMA_RXD2_LS0
#define RXD2_PLEN0_MASK         MAKE_64BIT_MASK(16, 14)
#define RXD2_VTAG               BIT(15)
#define RXD4_L4_VALID           BIT(24)
#define RXD4_SPORT_SHIFT        19
#define RXD4_SPORT_MASK         MAKE_64BIT_MASK(19, 3)
#define RXD4_FOE_ENTRY_NONE     0x3fff

#define MTK_TAG_LEN             4
#define RX_RINGS                4

static uint32_t fe_reg(MT7621FEState *s, hwaddr a)
{
    return s->regs[a / 4];
}

static void fe_set(MT7621FEState *s, hwaddr a, uint32_t v)
{
    s->regs[a / 4] = v;
}

static bool fe_running(MT7621FEState *s)
{
    return !s->in_reset[MT7621_FE_RESET_FE] &&
           !s->in_reset[MT7621_FE_RESET_ETH];
}

static void fe_update_irq(MT7621FEState *s)
{
    bool level = (fe_reg(s, PDMA_IRQ_STATUS) & fe_reg(s, PDMA_IRQ_MASK)) ||
                 (fe_reg(s, QDMA_INT_STATUS) & fe_reg(s, QDMA_INT_MASK)) ||
                 (fe_reg(s, FE_INT_STATUS2) & fe_reg(s, FE_INT_ENABLE));

    trace_mt7621_fe_irq(level, fe_reg(s, PDMA_IRQ_STATUS),
                        fe_reg(s, QDMA_INT_STATUS));
    qemu_set_irq(s->irq, level);
}

static void fe_update_irq_cb(void *opaque)
{
    fe_update_irq(opaque);
}

/* -- checksums and segmentation ---------------------------------------- */

static void fe_gdma_send(MT7621FEState *s, int gdma, const uint8_t *f,
                         size_t len)
{
    int port = gdma ? MT7530_GMAC1_PORT : MT7530_CPU_PORT;

    if (!(fe_reg(s, MAC_MCR(gdma)) & MAC_MCR_TX_EN)) {
        return;
    }
    s->tx_packets[gdma]++;
    s->tx_bytes[gdma] += len;
    trace_mt7621_fe_tx(gdma, len);
    mt7530_mac_transmit(s->sw, port, f, len, 0);
}

/* A TSO segment for the GDMA ralink_tso() was given */
typedef struct FETsoTarget {
    MT7621FEState *s;
    int gdma;
} FETsoTarget;

static void fe_tso_send(void *opaque, uint8_t *f, size_t len)
{
    FETsoTarget *t = opaque;

    fe_gdma_send(t->s, t->gdma, f, len);
}

static void fe_tx_frame(MT7621FEState *s, uint32_t txd4, size_t len)
{
    uint8_t *f = s->tx_buf;
    int fport = TXD4_FPORT(txd4), gdma;
    bool stag;

    if (fport != 1 && fport != 2) {
        qemu_log_mask(LOG_GUEST_ERROR, "mt7621-fe: TX to forward port %d\n",
                      fport);
        return;
    }
    gdma = fport - 1;
    /* CDMQ parses the special tag of frames to a GDMA told about DSA */
    stag = (fe_reg(s, CDMQ_IG_CTRL) & CDMQ_STAG_EN) &&
           (fe_reg(s, GDMA_FWD_CFG(gdma)) & GDMA_SPECIAL_TAG);
    if (len < 14) {
        qemu_log_mask(LOG_GUEST_ERROR, "mt7621-fe: TX frame of %zu bytes\n",
                      len);
        return;
    }
    if (txd4 & TXD4_INS_VLAN) {
        len = ralink_vlan_insert(f, len, sizeof(s->tx_buf),
                                 12 + (stag ? MTK_TAG_LEN : 0),
                                 TXD4_VLAN_TCI(txd4));
    }
    if (txd4 & TXD4_TSO) {
        FETsoTarget t = { s, gdma };

        ralink_tso("mt7621-fe", f, len, stag ? MTK_TAG_LEN : 0,
                   fe_tso_send, &t);
        return;
    }
    if (txd4 & TXD4_CHKSUM) {
        ralink_csum_tx(f, len, stag ? MTK_TAG_LEN : 0);
    }
    fe_gdma_send(s, gdma, f, len);
}

/*
 * QDMA TX, as mtk_eth_soc relies on it (NOTES.md, "Issue 20: the QDMA's
 * queues"): the engine reads the TX list from DTX up to CTX, in order,
 * and puts each frame on the queue its first descriptor's PQID names;
 * its scheduler sends the queues' frames as their rates allow, and gives
 * each frame's descriptors back once sent, linking them behind DRX in
 * the order it sent them (txd2 of the last one released), so that a
 * queue held by its rate does not hold the others' descriptors.
 */
#define QTX_SCH(q)              (QDMA_QTX_CFG + (q) * 0x10 + 4)
#define   QTX_SCH_TX_SEL            BIT(31)
#define   QTX_SCH_LEAKY_BUCKET_EN   BIT(30)
#define   QTX_SCH_LEAKY_BUCKET(v)   extract32(v, 28, 2)
#define   QTX_SCH_MIN_RATE_EN       BIT(27)
#define   QTX_SCH_MIN_RATE(v)       extract32(v, 16, 11)
#define   QTX_SCH_WEIGHT(v)         extract32(v, 12, 4)
#define   QTX_SCH_MAX_RATE_EN       BIT(11)
#define   QTX_SCH_MAX_RATE(v)       extract32(v, 0, 11)
#define   TX_SCH_MAX_WFQ            BIT(15)
#define   TX_SCH_RATE_EN            BIT(11)
#define TXD3_PQID(v)            extract32(v, 0, 4)
#define QDMA_FRAME_DESCS        64      /* more to a frame: a broken list */
#define MAC_MCR_FORCE_RX_FC     BIT(5)
#define QDMA_FCS_LEN            4       /* the rates count the FCS too */

/*
 * A rate field (mantissa 10:4, exponent 3:0) in bit/s: mantissa * 10^exp
 * kbit/s, as mtk_set_queue_speed() programs them (103 * 10^3: 103 Mbit/s)
 */
static uint64_t fe_qdma_rate(uint32_t field)
{
    unsigned man = extract32(field, 4, 7), exp = extract32(field, 0, 4);
    uint64_t bps = man * 1000ull;

    if (exp > 9) {
        qemu_log_mask(LOG_GUEST_ERROR, "mt7621-fe: QDMA rate exponent %u\n",
                      exp);
        exp = 9;
    }
    while (exp--) {
        bps *= 10;
    }
    return bps;
}

/* How long @bytes take at @bps, in ns of the virtual clock */
static int64_t fe_qdma_time(uint64_t bytes, uint64_t bps)
{
    return bps ? muldiv64(bytes * 8, NANOSECONDS_PER_SECOND, bps) : 0;
}

/*
 * The burst a rate lets through at once: LEAKY_BUCKET_SIZE 0-3 read as
 * 2, 4, 8 or 16 KiB (not documented; mainline sets 3), one frame without
 * LEAKY_BUCKET_EN
 */
static int64_t fe_qdma_burst(uint32_t sch, uint64_t bps)
{
    if (!(sch & QTX_SCH_LEAKY_BUCKET_EN)) {
        return 0;
    }
    return fe_qdma_time(2048u << QTX_SCH_LEAKY_BUCKET(sch), bps);
}

/* Charge @bytes to a rate's clock @next (a GCRA: the rate's own time) */
static void fe_qdma_charge(int64_t *next, int64_t now, int64_t burst,
                           uint64_t bytes, uint64_t bps)
{
    *next = MAX(*next, now - burst) + fe_qdma_time(bytes, bps);
}

static void fe_qdma_reset(MT7621FEState *s)
{
    MT7621QdmaHwFrame *h;
    int q;

    for (q = 0; q < MT7621_QDMA_QUEUES; q++) {
        while ((h = QTAILQ_FIRST(&s->qdma_q[q].hw))) {
            QTAILQ_REMOVE(&s->qdma_q[q].hw, h, next);
            g_free(h->data);
            g_free(h);
        }
        s->qdma_q[q].head = s->qdma_q[q].count = 0;
        s->qdma_q[q].max_next = s->qdma_q[q].min_next = 0;
        s->qdma_q[q].credit = 0;
    }
    s->qdma_rr = 0;
    s->qdma_fq_used = 0;
    s->qdma_sch_next[0] = s->qdma_sch_next[1] = 0;
    timer_del(s->qdma_timer);
}

/*
 * Give a sent frame's descriptor at @addr back, behind DRX: the last one
 * given back links to it (txd2), unless the CPU has handed that one over
 * again (owner not the CPU: a driver that reclaims by index, in order)
 */
static void fe_qdma_release(MT7621FEState *s, uint32_t addr, uint32_t txd3)
{
    uint32_t drx = fe_reg(s, QDMA_DRX_PTR), link[2];

    txd3 = cpu_to_le32(txd3 | TXD3_OWNER_CPU);
    dma_memory_write(&s->dma_as, addr + 8, &txd3, 4, MEMTXATTRS_UNSPECIFIED);
    if (drx != addr &&
        dma_memory_read(&s->dma_as, drx + 4, link, 8,
                        MEMTXATTRS_UNSPECIFIED) == MEMTX_OK &&
        (le32_to_cpu(link[1]) & TXD3_OWNER_CPU) &&
        le32_to_cpu(link[0]) != addr) {
        link[0] = cpu_to_le32(addr);
        dma_memory_write(&s->dma_as, drx + 4, link, 4,
                         MEMTXATTRS_UNSPECIFIED);
    }
    fe_set(s, QDMA_DRX_PTR, addr);
}

/*
 * Read frames from the TX list onto their queues. Returns true if a full
 * queue stopped it (the list is not read past a frame that has no room)
 */
static bool fe_qdma_fetch(MT7621FEState *s)
{
    int budget = 4096;

    while (fe_running(s) && (fe_reg(s, QDMA_GLO_CFG) & GLO_TX_DMA_EN) &&
           fe_reg(s, QDMA_DTX_PTR) != fe_reg(s, QDMA_CTX_PTR)) {
        uint32_t first = fe_reg(s, QDMA_DTX_PTR), addr = first;
        uint32_t txd3 = 0, txd4 = 0, len = 0, d[4];
        MT7621QdmaQueue *q;
        int i;

        if (!first) {
            /* (0 marks the PPE's frames on the queues) */
            qemu_log_mask(LOG_GUEST_ERROR, "mt7621-fe: QDMA TX descriptor "
                          "at address 0\n");
            return false;
        }

        for (i = 0; i < QDMA_FRAME_DESCS; i++) {
            if (i && addr == fe_reg(s, QDMA_CTX_PTR)) {
                return false;   /* the rest of the frame is not given yet */
            }
            if (!budget--) {
                qemu_log_mask(LOG_GUEST_ERROR, "mt7621-fe: QDMA TX "
                              "descriptor list does not reach CTX\n");
                return false;
            }
            if (dma_memory_read(&s->dma_as, addr, d, sizeof(d),
                                MEMTXATTRS_UNSPECIFIED) != MEMTX_OK) {
                qemu_log_mask(LOG_GUEST_ERROR, "mt7621-fe: TX descriptor at "
                              "0x%x outside RAM\n", addr);
                return false;
            }
            if (!i) {
                txd3 = le32_to_cpu(d[2]);
                txd4 = le32_to_cpu(d[3]);
            }
            len += TXD3_PLEN0(le32_to_cpu(d[2]));
            addr = le32_to_cpu(d[1]);
            if (le32_to_cpu(d[2]) & TXD3_LS0) {
                break;
            }
        }
        if (i == QDMA_FRAME_DESCS) {
            qemu_log_mask(LOG_GUEST_ERROR, "mt7621-fe: QDMA TX frame at 0x%x "
                          "of more than %d descriptors\n", first,
                          QDMA_FRAME_DESCS);
            return false;
        }
        q = &s->qdma_q[TXD3_PQID(txd3)];
        if (q->count == MT7621_QDMA_QUEUE_LEN) {
            trace_mt7621_fe_qdma_full(TXD3_PQID(txd3));
            return true;
        }
        i = (q->head + q->count++) % MT7621_QDMA_QUEUE_LEN;
        q->desc[i] = first;
        q->len[i] = len;
        q->txd4[i] = txd4;
        trace_mt7621_fe_qdma_fetch(TXD3_PQID(txd3), len, first, q->count);
        fe_set(s, QDMA_DTX_PTR, addr);
    }
    return false;
}

/* Free-queue pages a frame of @len bytes takes */
static uint32_t fe_qdma_fq_pages(MT7621FEState *s, uint32_t len)
{
    uint32_t page = FQ_BLEN_PAGE(fe_reg(s, QDMA_FQ_BLEN));

    return page ? DIV_ROUND_UP(len, page) : UINT32_MAX;
}

/*
 * The PPE forwards a frame of @len bytes at @f to @fport through queue
 * @qn (its entry's IB2 PSE_QOS and QID). It waits there for the queue's
 * rates in the engine's free-queue pages (QDMA_FQ_*: as many as FQ_CNT
 * says, QDMA_FQ_BLEN's bytes each); with none left, or the queue full,
 * or the QDMA's TX off, it is dropped. The pages are counted, not
 * written: the driver never reads them.
 */
static void fe_qdma_hw_enqueue(MT7621FEState *s, int qn, int fport,
                               const uint8_t *f, size_t len)
{
    MT7621QdmaQueue *q = &s->qdma_q[qn];
    uint32_t pages = fe_qdma_fq_pages(s, len);
    uint32_t free = FQ_CNT_FREE(fe_reg(s, QDMA_FQ_CNT));
    MT7621QdmaHwFrame *h;
    int i;

    if (!(fe_reg(s, QDMA_GLO_CFG) & GLO_TX_DMA_EN) ||
        q->count == MT7621_QDMA_QUEUE_LEN || pages > free ||
        s->qdma_fq_used > free - pages) {
        trace_mt7621_fe_qdma_hw_drop(qn, len, s->qdma_fq_used, free);
        return;
    }
    h = g_new0(MT7621QdmaHwFrame, 1);
    h->data = g_memdup2(f, len);
    h->len = len;
    QTAILQ_INSERT_TAIL(&q->hw, h, next);
    s->qdma_fq_used += pages;
    i = (q->head + q->count++) % MT7621_QDMA_QUEUE_LEN;
    q->desc[i] = 0;
    q->len[i] = len;
    q->txd4[i] = deposit32(0, 25, 3, fport);
    trace_mt7621_fe_qdma_hw(qn, len, s->qdma_fq_used, q->count);
    /* Not from within the switch's call that brought the frame */
    timer_mod(s->qdma_timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
}

/*
 * Send the frame at the head of queue @qn (picked in the min-rate stage:
 * @min), give its descriptors back (or its free-queue pages, a frame of
 * the PPE's); true for a frame of the CPU's
 */
static bool fe_qdma_send(MT7621FEState *s, int qn, bool min)
{
    MT7621QdmaQueue *q = &s->qdma_q[qn];
    uint32_t addr = q->desc[q->head], txd4 = q->txd4[q->head];
    size_t len = 0;
    int i;

    if (!addr) {
        MT7621QdmaHwFrame *h = QTAILQ_FIRST(&q->hw);

        q->head = (q->head + 1) % MT7621_QDMA_QUEUE_LEN;
        q->count--;
        if (!h) {
            return false;       /* (a loaded state without the frame) */
        }
        QTAILQ_REMOVE(&q->hw, h, next);
        s->qdma_fq_used -= MIN(s->qdma_fq_used, fe_qdma_fq_pages(s, h->len));
        trace_mt7621_fe_qdma_send(qn, h->len, min, q->count);
        memcpy(s->tx_buf, h->data, MIN(h->len, sizeof(s->tx_buf)));
        fe_tx_frame(s, txd4, MIN(h->len, sizeof(s->tx_buf)));
        g_free(h->data);
        g_free(h);
        return false;
    }
    for (i = 0; i < QDMA_FRAME_DESCS; i++) {
        uint32_t d[4];
        size_t n;

        if (dma_memory_read(&s->dma_as, addr, d, sizeof(d),
                            MEMTXATTRS_UNSPECIFIED) != MEMTX_OK) {
            qemu_log_mask(LOG_GUEST_ERROR, "mt7621-fe: TX descriptor at "
                          "0x%x outside RAM\n", addr);
            len = sizeof(s->tx_buf) + 1;
            break;
        }
        d[0] = le32_to_cpu(d[0]);
        d[2] = le32_to_cpu(d[2]);
        n = TXD3_PLEN0(d[2]);
        if (len + n > sizeof(s->tx_buf)) {
            qemu_log_mask(LOG_GUEST_ERROR, "mt7621-fe: TX frame too long\n");
            len = sizeof(s->tx_buf) + 1;
        } else if (len <= sizeof(s->tx_buf) &&
                   dma_memory_read(&s->dma_as, d[0], s->tx_buf + len, n,
                                   MEMTXATTRS_UNSPECIFIED) != MEMTX_OK) {
            qemu_log_mask(LOG_GUEST_ERROR, "mt7621-fe: TX buffer at 0x%x "
                          "outside RAM\n", d[0]);
            len = sizeof(s->tx_buf) + 1;
        } else if (len <= sizeof(s->tx_buf)) {
            len += n;
        }
        fe_qdma_release(s, addr, d[2]);
        if (d[2] & TXD3_LS0) {
            break;
        }
        addr = le32_to_cpu(d[1]);
    }
    q->head = (q->head + 1) % MT7621_QDMA_QUEUE_LEN;
    q->count--;
    trace_mt7621_fe_qdma_send(qn, len, min, q->count);
    if (len <= sizeof(s->tx_buf)) {
        fe_tx_frame(s, txd4, len);
    }
    return true;
}

/*
 * Whether queue @qn's head frame may go now, in the min-rate stage
 * (@min) or the max-rate one; *@wake: the earliest time a rate that held
 * it lets it go
 */
static bool fe_qdma_ready(MT7621FEState *s, int qn, bool min, int64_t now,
                          int64_t *wake)
{
    MT7621QdmaQueue *q = &s->qdma_q[qn];
    uint32_t sch = fe_reg(s, QTX_SCH(qn));
    uint32_t sch_rate = fe_reg(s, QDMA_TX_SCH_RATE);
    int sel = !!(sch & QTX_SCH_TX_SEL);
    int fport = TXD4_FPORT(q->txd4[q->head]);

    if (!q->count) {
        return false;
    }
    if ((fport == 1 || fport == 2) && s->gmac_paused[fport - 1] &&
        (fe_reg(s, MAC_MCR(fport - 1)) & MAC_MCR_FORCE_RX_FC)) {
        return false;           /* the switch's pause: its xon wakes us */
    }
    if ((extract32(sch_rate, sel * 16, 16) & TX_SCH_RATE_EN) &&
        s->qdma_sch_next[sel] > now) {
        *wake = MIN(*wake, s->qdma_sch_next[sel]);
        return false;
    }
    if (sch & QTX_SCH_MAX_RATE_EN) {
        if (!fe_qdma_rate(QTX_SCH_MAX_RATE(sch))) {
            return false;       /* a max rate of 0: nothing goes */
        }
        if (q->max_next > now) {
            trace_mt7621_fe_qdma_hold(qn, q->max_next - now);
            *wake = MIN(*wake, q->max_next);
            return false;
        }
    }
    return !min || ((sch & QTX_SCH_MIN_RATE_EN) && q->min_next <= now);
}

/*
 * The next queue to send from: first those below their min rate, in
 * turn; then, with MAX_WFQ, in turn by their weights (that many frames
 * each), without it by strict priority, the highest queue first; -1 if
 * none may send now. *@min: picked in the min-rate stage
 */
static int fe_qdma_pick(MT7621FEState *s, int64_t now, int64_t *wake,
                        bool *min)
{
    bool wfq = fe_reg(s, QDMA_TX_SCH_RATE) & TX_SCH_MAX_WFQ;
    int i, qn;

    for (i = 0; i < MT7621_QDMA_QUEUES; i++) {
        qn = (s->qdma_rr + i) % MT7621_QDMA_QUEUES;
        if (fe_qdma_ready(s, qn, true, now, wake)) {
            *min = true;
            return qn;
        }
    }
    *min = false;
    for (i = 0; i < MT7621_QDMA_QUEUES; i++) {
        qn = wfq ? (s->qdma_rr + i) % MT7621_QDMA_QUEUES
                 : MT7621_QDMA_QUEUES - 1 - i;
        if (fe_qdma_ready(s, qn, false, now, wake)) {
            if (qn != s->qdma_rr) {
                s->qdma_rr = qn;
                s->qdma_q[qn].credit =
                    MAX(QTX_SCH_WEIGHT(fe_reg(s, QTX_SCH(qn))), 1);
            }
            return qn;
        }
    }
    return -1;
}

/* Charge queue @qn's frame of @len bytes to its rates and its turn */
static void fe_qdma_account(MT7621FEState *s, int qn, uint32_t len,
                            int64_t now)
{
    MT7621QdmaQueue *q = &s->qdma_q[qn];
    uint32_t sch = fe_reg(s, QTX_SCH(qn));
    int sel = !!(sch & QTX_SCH_TX_SEL);
    uint32_t sch_rate = extract32(fe_reg(s, QDMA_TX_SCH_RATE), sel * 16, 16);
    uint64_t bps, bytes = len + QDMA_FCS_LEN;

    if (sch & QTX_SCH_MAX_RATE_EN) {
        bps = fe_qdma_rate(QTX_SCH_MAX_RATE(sch));
        fe_qdma_charge(&q->max_next, now, fe_qdma_burst(sch, bps), bytes,
                       bps);
    }
    if (sch & QTX_SCH_MIN_RATE_EN) {
        bps = fe_qdma_rate(QTX_SCH_MIN_RATE(sch));
        fe_qdma_charge(&q->min_next, now, fe_qdma_burst(sch, bps), bytes,
                       bps);
    }
    if (sch_rate & TX_SCH_RATE_EN) {
        bps = fe_qdma_rate(sch_rate);
        fe_qdma_charge(&s->qdma_sch_next[sel], now, 0, bytes, bps);
    }
    if (qn == s->qdma_rr && (!q->credit || !--q->credit)) {
        s->qdma_rr = (qn + 1) % MT7621_QDMA_QUEUES;
        s->qdma_q[s->qdma_rr].credit =
            MAX(QTX_SCH_WEIGHT(fe_reg(s, QTX_SCH(s->qdma_rr))), 1);
    }
}

/*
 * Send what the queues' rates allow now; returns how many of the CPU's
 * frames (whose descriptors went back)
 */
static uint32_t fe_qdma_schedule(MT7621FEState *s)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    int64_t wake = INT64_MAX;
    uint32_t frames = 0;
    bool min;
    int qn;

    while (fe_running(s) && (fe_reg(s, QDMA_GLO_CFG) & GLO_TX_DMA_EN) &&
           (qn = fe_qdma_pick(s, now, &wake, &min)) >= 0) {
        fe_qdma_account(s, qn, s->qdma_q[qn].len[s->qdma_q[qn].head], now);
        frames += fe_qdma_send(s, qn, min);
    }
    if (wake != INT64_MAX) {
        timer_mod(s->qdma_timer, wake);
    }
    return frames;
}

/*
 * Read the list and send what may go; a list that keeps filling a queue
 * (a loop of descriptors that never reaches CTX) is read a few rounds a
 * call, not forever
 */
static void fe_qdma_tx(MT7621FEState *s)
{
    uint32_t frames = 0, n;
    int rounds = 8;
    bool full;

    do {
        full = fe_qdma_fetch(s);
        n = fe_qdma_schedule(s);
        frames += n;
    } while (full && n && --rounds);
    if (frames) {
        fe_set(s, QDMA_INT_STATUS, fe_reg(s, QDMA_INT_STATUS) | TX_DONE_INT0);
        ralink_pdma_dly_complete(&s->dly[MT7621_FE_DLY_TX], frames);
        fe_update_irq(s);
    }
}

static void fe_qdma_timer(void *opaque)
{
    fe_qdma_tx(opaque);
}

/* The switch's CPU port asks GMAC @id to pause (802.3x), or to go on */
static void fe_gmac_pause(void *opaque, bool on)
{
    struct MT7621FEGmac *g = opaque;
    MT7621FEState *s = g->fe;

    if (s->gmac_paused[g->id] == on) {
        return;
    }
    s->gmac_paused[g->id] = on;
    trace_mt7621_fe_qdma_pause(g->id, on);
    if (!on) {
        /* Not from within the switch's own call: at the next event */
        timer_mod(s->qdma_timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    }
}

/* PDMA TX: the rings' frames, while the engine runs and TX DMA is on */
static void fe_pdma_tx(MT7621FEState *s)
{
    uint32_t rings, frames;

    if (!fe_running(s) || !(fe_reg(s, PDMA_GLO_CFG) & GLO_TX_DMA_EN)) {
        return;
    }
    frames = ralink_pdma_tx_run(&s->pdma_tx, &rings);
    if (rings) {
        /* TX_DONE_INT0..3: bits 0..3, as the rings' bits in @rings */
        fe_set(s, PDMA_IRQ_STATUS, fe_reg(s, PDMA_IRQ_STATUS) |
               (rings & PDMA_TX_DONE_INT_MASK));
        ralink_pdma_dly_complete(&s->dly[MT7621_FE_DLY_PDMA_TX],
                                 frames);
        fe_update_irq(s);
    }
}

static void fe_pdma_tx_frame(void *opaque, uint32_t txd4, size_t len,
                             unsigned segs)
{
    fe_tx_frame(opaque, txd4, len);
}

/* -- RX: PDMA ring 0 ----------------------------------------------------- */

static bool fe_rx_ring_free(MT7621FEState *s)
{
    return ralink_pdma_rx_free(&s->pdma_rx, 0);
}

/*
 * Fault "fault-rx-desc": the descriptor of a received frame comes back
 * broken, each in turn (from the count down) of four ways a driver must
 * not trust: no LS0 (as if the frame went on in the next descriptor), a
 * source port that is no GDMA, a length no buffer has (the field's
 * largest), no length. The one after no LS0 ends that "frame": a count
 * that is a multiple of 4 gives each of the four on its own.
 */
static void fe_rx_fault(MT7621FEState *s, uint32_t *rxd2, uint32_t *rxd4)
{
    switch (s->fault_rx_desc-- % 4) {
    case 0:
        *rxd2 &= ~RXD2_LS0;
        break;
    case 3:
        *rxd4 = (*rxd4 & ~RXD4_SPORT_MASK) | (7 << RXD4_SPORT_SHIFT);
        break;
    case 2:
        *rxd2 |= RXD2_PLEN0_MASK;
        break;
    case 1:
        *rxd2 &= ~RXD2_PLEN0_MASK;
        break;
    }
    trace_mt7621_fe_fault("rx-desc", s->fault_rx_desc);
}

static bool fe_gmac_can_receive(void *opaque)
{
    struct MT7621FEGmac *g = opaque;
    MT7621FEState *s = g->fe;

    if (!fe_running(s) || !(fe_reg(s, PDMA_GLO_CFG) & GLO_RX_DMA_EN) ||
        !(fe_reg(s, MAC_MCR(g->id)) & MAC_MCR_RX_EN) || s->fault_rx_stall) {
        return true;            /* the frame is dropped at the MAC */
    }
    return fe_rx_ring_free(s);
}

/* Where GDMA @gdma sends a received frame of @f's class (GDMA_FWD_*) */
static int fe_gdma_fwd_port(MT7621FEState *s, int gdma, const uint8_t *f)
{
    uint32_t fwd = fe_reg(s, GDMA_FWD_CFG(gdma));
    uint8_t mac[6];

    if (is_broadcast_ether_addr(f)) {
        return GDMA_FWD_BC(fwd);
    }
    if (is_multicast_ether_addr(f)) {
        return GDMA_FWD_MC(fwd);
    }
    stw_be_p(mac, fe_reg(s, GDMA_MAC_ADRH(gdma)));
    stl_be_p(mac + 2, fe_reg(s, GDMA_MAC_ADRL(gdma)));
    return memcmp(f, mac, 6) ? GDMA_FWD_OC(fwd) : GDMA_FWD_UC(fwd);
}

static void fe_gmac_receive(void *opaque, const uint8_t *buf, size_t len,
                            int sport)
{
    struct MT7621FEGmac *g = opaque;
    MT7621FEState *s = g->fe;
    uint32_t fwd = fe_reg(s, GDMA_FWD_CFG(g->id));
    uint32_t rxd2 = 0, rxd3 = 0, rxd4, off, ppe = 0;
    int idx, port, pse, qid;
    size_t size = len + MT7621_PPE_HEADROOM;
    g_autofree uint8_t *f = g_malloc(size);
    bool stag = fwd & GDMA_SPECIAL_TAG;

    if (!fe_running(s) || !(fe_reg(s, MAC_MCR(g->id)) & MAC_MCR_RX_EN) ||
        len < 14) {
        s->rx_overflow[g->id]++;
        trace_mt7621_fe_rx_drop(g->id, len, s->fault_rx_stall);
        return;
    }
    memcpy(f, buf, len);
    port = fe_gdma_fwd_port(s, g->id, f);
    if (port == GDMA_FWD_PPE) {
        size_t in = len;

        switch (mt7621_ppe_ingress(&s->ppe, f, &len, size,
                                   stag ? MTK_TAG_LEN : 0, &ppe, &pse, &qid)) {
        case MT7621_PPE_FORWARD:
            s->rx_packets[g->id]++;
            s->rx_bytes[g->id] += in;
            if (qid >= 0) {
                fe_qdma_hw_enqueue(s, qid, pse, f, len);
            } else {
                fe_gdma_send(s, pse - MT7621_PSE_GDM1, f, len);
            }
            return;
        case MT7621_PPE_DROP:
            s->rx_packets[g->id]++;
            s->rx_bytes[g->id] += in;
            return;
        case MT7621_PPE_TO_CPU:
            break;
        }
    } else if (port != GDMA_FWD_PDMA && port != GDMA_FWD_DROP) {
        qemu_log_mask(LOG_UNIMP, "mt7621-fe: GDMA%d forwards to port %d "
                      "(only PDMA, the PPE and drop are modelled): to PDMA\n",
                      g->id + 1, port);
    }
    if (!(fe_reg(s, PDMA_GLO_CFG) & GLO_RX_DMA_EN) ||
        port == GDMA_FWD_DROP || !fe_rx_ring_free(s) || s->fault_rx_stall) {
        s->rx_overflow[g->id]++;
        trace_mt7621_fe_rx_drop(g->id, len, s->fault_rx_stall);
        return;
    }
    s->rx_packets[g->id]++;
    s->rx_bytes[g->id] += len;

    rxd4 = ((g->id + 1) << RXD4_SPORT_SHIFT) |
           (port == GDMA_FWD_PPE ? ppe : RXD4_FOE_ENTRY_NONE);
    if (fwd & (GDMA_TCS_EN | GDMA_UCS_EN)) {
        RalinkCsum c = ralink_csum_rx(f, len, stag ? MTK_TAG_LEN : 0);

        if (c == RALINK_CSUM_OK) {
            rxd4 |= RXD4_L4_VALID;
        } else if (c == RALINK_CSUM_BAD) {
            s->rx_csum_err[g->id]++;
        }
    }
    /*
     * With CDMP_IG_CTRL.STAG_EN the CDM treats the special tag as a VLAN
     * tag and strips it: its halves land in rxd3 (VPID: the source port,
     * TCI), RXD2_VTAG says so (mtk_poll_rx(): "the hardware treats the
     * MTK special tag as a VLAN and untags it").
     */
    if (stag && (fe_reg(s, CDMP_IG_CTRL) & CDMP_STAG_EN) &&
        len >= 12 + MTK_TAG_LEN + 2) {
        rxd3 = (lduw_be_p(f + 12) << 16) | lduw_be_p(f + 14);
        memmove(f + 12, f + 16, len - 16);
        len -= MTK_TAG_LEN;
        rxd2 |= RXD2_VTAG;
    }

    off = (fe_reg(s, PDMA_GLO_CFG) & GLO_RX_2B_OFFSET) ? 2 : 0;
    idx = ralink_pdma_rx_fill(&s->pdma_rx, 0, f, len, off);
    if (idx < 0) {
        s->rx_overflow[g->id]++;
        return;
    }
    rxd2 |= RALINK_PDMA_RXD2_DONE | RALINK_PDMA_RXD2_LS0 |
            RALINK_PDMA_RXD2_PLEN0(len);
    if (s->fault_rx_desc) {
        fe_rx_fault(s, &rxd2, &rxd4);
    }
    trace_mt7621_fe_rx(g->id, len, idx, rxd2, rxd4);
    ralink_pdma_rx_done(&s->pdma_rx, 0, idx, rxd2, rxd3, rxd4);
    fe_set(s, PDMA_IRQ_STATUS, fe_reg(s, PDMA_IRQ_STATUS) | RX_DONE_INT0);
    ralink_pdma_dly_complete(&s->dly[MT7621_FE_DLY_RX], 1);
    fe_update_irq(s);
}

static const MT7530MacOps fe_gmac_ops = {
    .can_receive = fe_gmac_can_receive,
    .receive = fe_gmac_receive,
    .pause = fe_gmac_pause,
};

/* -- MDIO ---------------------------------------------------------------- */

static void fe_phy_iac(MT7621FEState *s, uint32_t val)
{
    unsigned addr = PHY_IAC_ADDR(val), reg = PHY_IAC_REG(val);
    uint16_t data = val & 0xffff;

    if (s->fault_mdio_stuck) {
        /* The access never completes: ACCESS stays set */
        fe_set(s, MTK_PHY_IAC, val);
        return;
    }
    if (s->fault_mdio_absent & BIT(addr)) {
        /* Nobody answers: the bus's pull-up reads all ones */
        fe_set(s, MTK_PHY_IAC, (val & ~(PHY_IAC_ACCESS | 0xffff)) | 0xffff);
        s->mdio_absent_hits++;
        return;
    }

    if (PHY_IAC_START(val) == PHY_IAC_START_C22) {
        switch (PHY_IAC_CMD(val)) {
        case PHY_IAC_CMD_WRITE:
            mt7530_mdio_write(s->sw, addr, reg, data);
            break;
        case PHY_IAC_CMD_C22_READ:
            data = mt7530_mdio_read(s->sw, addr, reg);
            break;
        default:
            qemu_log_mask(LOG_GUEST_ERROR, "mt7621-fe: PHY_IAC clause 22 "
                          "command %u\n", PHY_IAC_CMD(val));
            break;
        }
    } else if (PHY_IAC_START(val) == 0) {
        /* Clause 45: "reg" is the MMD */
        switch (PHY_IAC_CMD(val)) {
        case PHY_IAC_CMD_C45_ADDR:
            s->c45_addr[addr][reg] = data;
            break;
        case PHY_IAC_CMD_WRITE:
            mt7530_mdio_c45_write(s->sw, addr, reg, s->c45_addr[addr][reg],
                                  data);
            break;
        case PHY_IAC_CMD_C45_READ:
            data = mt7530_mdio_c45_read(s->sw, addr, reg,
                                        s->c45_addr[addr][reg]);
            break;
        default:
            qemu_log_mask(LOG_GUEST_ERROR, "mt7621-fe: PHY_IAC clause 45 "
                          "command %u\n", PHY_IAC_CMD(val));
            break;
        }
    } else {
        qemu_log_mask(LOG_GUEST_ERROR, "mt7621-fe: PHY_IAC start %u\n",
                      PHY_IAC_START(val));
    }
    /* The access completes at once: ACCESS reads back clear */
    fe_set(s, MTK_PHY_IAC, (val & ~(PHY_IAC_ACCESS | 0xffff)) | data);
}

/* -- registers ----------------------------------------------------------- */

/* Registers that only report the engine idle, read as zero */
static bool fe_idle_reg(hwaddr a)
{
    return a == FE_PSE_IQ_STA || a == FE_PSE_OQ_STA ||
           a == FE_PSE_OQ_STA + 4 || a == FE_PSE_OQ_STA + 0x10 ||
           a == FE_CDM1_FSM || a == FE_GDM1_FSM || a == FE_GDM2_FSM ||
           a == PDMA_ADMA_RX_DBG0 || a == MAC_FSM(0) || a == MAC_FSM(1) ||
           (a >= WDMA_BASE && a < WDMA_END) ||
           a == QDMA_QTX_CFG + 0x234 || a == QDMA_QTX_CFG + 0x308;
}

/* Registers the driver programs that are stored and have no effect */
static bool fe_plain_reg(hwaddr a)
{
    return a == FE_GLO_CFG || a == FE_INT_GRP || a == FE_GLO_MISC ||
           a == CDMP_IG_CTRL || a == CDMP_EG_CTRL || a == CDMQ_IG_CTRL ||
           a == CDMQ_EG_CTRL || a == FE_INT_ENABLE ||
           a == GDMA_FWD_CFG(0) || a == GDMA_FWD_CFG(1) ||
           a == GDMA_MAC_ADRL(0) || a == GDMA_MAC_ADRH(0) ||
           a == GDMA_MAC_ADRL(1) || a == GDMA_MAC_ADRH(1) ||
           a == GDMA_FWD_CFG(0) + 4 || a == GDMA_FWD_CFG(1) + 4 ||
           (a >= PDMA_RX_BASE_PTR(0) && a < PDMA_RX_BASE_PTR(RX_RINGS)) ||
           a == PDMA_INT_GRP || a == PDMA_INT_GRP + 4 ||
           (a >= QDMA_QTX_CFG && a < QDMA_RX_BASE + 0x100) ||
           a == QDMA_FC_TH || a == QDMA_TX_SCH_RATE ||
           a == QDMA_TX_SCH_RATE + 4 || a == QDMA_INT_GRP ||
           a == QDMA_INT_GRP + 4 || a == QDMA_HRED ||
           a == QDMA_CRX_PTR || a == QDMA_DRX_PTR ||
           (a >= QDMA_FQ_HEAD && a <= QDMA_FQ_BLEN) ||
           a == MTK_PPSC || a == MAC_MCR(0) || a == MAC_MCR(1);
}

static uint32_t fe_gdm_cnt_read(MT7621FEState *s, hwaddr a)
{
    int n = (a - GDM_CNT_BASE) / 0x40;
    uint32_t v = 0;

    switch ((a - GDM_CNT_BASE) % 0x40) {
    case GDM_RX_BYTES_LO:
        v = s->rx_bytes[n];
        s->rx_bytes[n] &= ~0xffffffffULL;
        break;
    case GDM_RX_BYTES_HI:
        v = s->rx_bytes[n] >> 32;
        s->rx_bytes[n] &= 0xffffffffULL;
        break;
    case GDM_RX_PACKETS:
        v = s->rx_packets[n];
        s->rx_packets[n] = 0;
        break;
    case GDM_RX_OVERFLOW:
        v = s->rx_overflow[n];
        s->rx_overflow[n] = 0;
        break;
    case GDM_RX_CSUM_ERR:
        v = s->rx_csum_err[n];
        s->rx_csum_err[n] = 0;
        break;
    case GDM_TX_BYTES_LO:
        v = s->tx_bytes[n];
        s->tx_bytes[n] &= ~0xffffffffULL;
        break;
    case GDM_TX_BYTES_HI:
        v = s->tx_bytes[n] >> 32;
        s->tx_bytes[n] &= 0xffffffffULL;
        break;
    case GDM_TX_PACKETS:
        v = s->tx_packets[n];
        s->tx_packets[n] = 0;
        break;
    }
    return v;
}

static uint64_t mt7621_fe_read(void *opaque, hwaddr addr, unsigned size)
{
    MT7621FEState *s = opaque;

    if (addr >= GDM_CNT_BASE && addr < GDM_CNT_END) {
        return fe_gdm_cnt_read(s, addr);
    }
    if (addr >= PPE_BASE && addr < PPE_END) {
        return mt7621_ppe_read(&s->ppe, addr - PPE_BASE);
    }
    if (addr == FE_FOE_TS) {
        return mt7621_ppe_timestamp() & 0xffff;
    }
    if (s->fault_rx_stall) {
        /*
         * A stalled RX DMA shows where mainline's mtk_hw_check_dma_hang()
         * looks for it ("ADMA sanity checks"): frames waiting in the PSE
         * output queue to PDMA, the CDM busy, the ADMA not idle.
         */
        switch (addr) {
        case FE_PSE_OQ_STA:
            return 1;
        case FE_CDM1_FSM:
            return 1 << 16;
        case PDMA_ADMA_RX_DBG0:
            return 0;
        }
    }
    if (fe_idle_reg(addr)) {
        return 0;
    }
    if (addr >= PDMA_TX_BASE && addr < PDMA_TX_BASE + RALINK_PDMA_TX_SIZE) {
        return ralink_pdma_tx_read(&s->pdma_tx, addr - PDMA_TX_BASE);
    }
    switch (addr) {
    case MAC_MSR(0):
    case MAC_MSR(1):
        /* Forced mode: the status is what MCR forces (link, speed...) */
        return fe_reg(s, addr - 8) & 0xff;
    case PDMA_GLO_CFG:
    case QDMA_GLO_CFG:
        return fe_reg(s, addr) & ~(GLO_RX_DMA_BUSY | GLO_TX_DMA_BUSY);
    case FE_RST_GL:
    case FE_INT_STATUS2:
    case PDMA_RX_DRX_IDX(0):
    case PDMA_RST_IDX:
    case PDMA_IRQ_STATUS:
    case PDMA_IRQ_MASK:
    case QDMA_RST_IDX:
    case QDMA_INT_STATUS:
    case QDMA_INT_MASK:
    case PDMA_DELAY_IRQ:
    case QDMA_DELAY_IRQ:
    case QDMA_CTX_PTR:
    case QDMA_DTX_PTR:
    case MTK_PHY_IAC:
        return fe_reg(s, addr);
    }
    if (!fe_plain_reg(addr)) {
        qemu_log_mask(LOG_UNIMP, "mt7621-fe: read of 0x%04" HWADDR_PRIx "\n",
                      addr);
    }
    return fe_reg(s, addr);
}

static void mt7621_fe_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    MT7621FEState *s = opaque;
    int r;

    if (addr >= PPE_BASE && addr < PPE_END) {
        mt7621_ppe_write(&s->ppe, addr - PPE_BASE, val);
        return;
    }
    if (addr >= PDMA_TX_BASE && addr < PDMA_TX_BASE + RALINK_PDMA_TX_SIZE) {
        ralink_pdma_tx_write(&s->pdma_tx, addr - PDMA_TX_BASE, val);
        if ((addr - PDMA_TX_BASE) % 0x10 == RALINK_PDMA_TX_CTX_IDX) {
            fe_pdma_tx(s);
        }
        return;
    }
    switch (addr) {
    case FE_INT_STATUS2:
    case PDMA_IRQ_STATUS:
    case QDMA_INT_STATUS:
        fe_set(s, addr, fe_reg(s, addr) & ~val);
        fe_update_irq(s);
        return;
    case PDMA_IRQ_MASK:
    case QDMA_INT_MASK:
    case FE_INT_ENABLE:
        fe_set(s, addr, val);
        fe_update_irq(s);
        return;
    case PDMA_RST_IDX:
        ralink_pdma_tx_reset_idx(&s->pdma_tx, val & RST_DTX_IDX_MASK);
        for (r = 0; r < RX_RINGS; r++) {
            if (val & RST_DRX_IDX(r)) {
                fe_set(s, PDMA_RX_DRX_IDX(r), 0);
            }
        }
        if ((val & RST_DRX_IDX(0)) && s->fault_rx_stall) {
            /* A stalled RX DMA starts again from a reset ring */
            s->fault_rx_stall = false;
            trace_mt7621_fe_fault("rx-stall", 0);
        }
        return;
    case PDMA_RX_CRX_IDX(0):
        fe_set(s, addr, val);
        if (fe_rx_ring_free(s)) {
            mt7530_mac_ready(s->sw, MT7530_CPU_PORT);
        }
        return;
    case PDMA_RX_MAX_CNT(0):
        if (!val) {
            qemu_log_mask(LOG_GUEST_ERROR, "mt7621-fe: RX ring of size 0\n");
        }
        fe_set(s, addr, val);
        return;
    case PDMA_GLO_CFG:
        fe_set(s, addr, val);
        mt7530_mac_ready(s->sw, MT7530_CPU_PORT);
        fe_pdma_tx(s);
        return;
    case PDMA_DELAY_IRQ:
    case QDMA_DELAY_IRQ:
        fe_set(s, addr, val);
        if (addr == PDMA_DELAY_IRQ) {
            ralink_pdma_dly_reconfigure(&s->dly[MT7621_FE_DLY_RX]);
            ralink_pdma_dly_reconfigure(&s->dly[MT7621_FE_DLY_PDMA_TX]);
        } else {
            ralink_pdma_dly_reconfigure(&s->dly[MT7621_FE_DLY_TX]);
        }
        return;
    case QDMA_DTX_PTR:
        /* The list starts again: what the queues held is forgotten */
        fe_qdma_reset(s);
        /* fall through */
    case QDMA_GLO_CFG:
    case QDMA_CTX_PTR:
    case QDMA_TX_SCH_RATE:
        fe_set(s, addr, val);
        fe_qdma_tx(s);
        return;
    case QDMA_RST_IDX:
    case FE_RST_GL:
        /* Self-clearing resets of the QDMA RX ring / PPE: nothing kept */
        return;
    case MTK_PHY_IAC:
        if (val & PHY_IAC_ACCESS) {
            fe_phy_iac(s, val);
        } else {
            fe_set(s, addr, val);
        }
        return;
    case MAC_MCR(0):
    case MAC_MCR(1):
        fe_set(s, addr, val);
        mt7530_mac_ready(s->sw, MT7530_CPU_PORT);
        return;
    case MAC_MSR(0):
    case MAC_MSR(1):
        qemu_log_mask(LOG_GUEST_ERROR, "mt7621-fe: write to MAC status "
                      "register 0x%" HWADDR_PRIx "\n", addr);
        return;
    }
    if (addr >= QTX_SCH(0) && addr <= QTX_SCH(MT7621_QDMA_QUEUES - 1) &&
        (addr & 0xf) == 4) {
        if ((val & QTX_SCH_MAX_RATE_EN) && !fe_qdma_rate(val)) {
            qemu_log_mask(LOG_GUEST_ERROR, "mt7621-fe: QDMA queue %d: max "
                          "rate 0, it sends nothing\n",
                          (int)(addr - QDMA_QTX_CFG) / 0x10);
        }
        fe_set(s, addr, val);
        fe_qdma_tx(s);
        return;
    }
    if (!fe_plain_reg(addr)) {
        qemu_log_mask(LOG_UNIMP, "mt7621-fe: write of 0x%" PRIx64 " to 0x%04"
                      HWADDR_PRIx "\n", val, addr);
    }
    fe_set(s, addr, val);
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

/* -- device -------------------------------------------------------------- */

/*
 * What each reset line clears. RSTCTRL's FE bit resets the frame engine
 * (DMA, GDMA/CDM, counters) and leaves the MAC block at 0x10000 (MAC
 * control and status, the MDIO master, the pads) alone; its GMAC bit
 * ("eth" in the kernel's binding, "gmac" in U-Boot's) resets that block.
 * The evidence: U-Boot's mtk_eth programs GMAC_PORT_MCR in probe and
 * pulses the FE reset alone in mtk_eth_start() (U-Boot's mt7621.dtsi
 * gives the two lines separately), and works on the silicon.
 */
static void mt7621_fe_reset_macs(MT7621FEState *s)
{
    memset(&s->regs[MTK_PPSC / 4], 0,
           sizeof(s->regs) - MTK_PPSC);
    memset(s->c45_addr, 0, sizeof(s->c45_addr));
}

static void mt7621_fe_reset_regs(MT7621FEState *s)
{
    int i;

    memset(s->regs, 0, MTK_PPSC);
    mt7621_ppe_reset(&s->ppe);
    s->fault_rx_stall = false;
    for (i = 0; i < MT7621_FE_NUM_GMACS; i++) {
        s->rx_bytes[i] = s->tx_bytes[i] = 0;
        s->rx_packets[i] = s->tx_packets[i] = s->rx_overflow[i] = 0;
        s->rx_csum_err[i] = 0;
        /* Forward to PDMA, as after reset */
        fe_set(s, GDMA_FWD_CFG(i), 0);
    }
    for (i = 0; i < ARRAY_SIZE(s->dly); i++) {
        ralink_pdma_dly_reset(&s->dly[i]);
    }
    fe_qdma_reset(s);
    fe_update_irq(s);
}

static void mt7621_fe_reset_in(void *opaque, int n, int level)
{
    MT7621FEState *s = opaque;

    s->in_reset[n] = level;
    if (level && n == MT7621_FE_RESET_FE) {
        mt7621_fe_reset_regs(s);
    } else if (level) {
        mt7621_fe_reset_macs(s);
    }
}

static void mt7621_fe_reset(DeviceState *dev)
{
    MT7621FEState *s = MT7621_FE(dev);

    s->in_reset[0] = s->in_reset[1] = false;
    mt7621_fe_reset_regs(s);
    mt7621_fe_reset_macs(s);
}

static void mt7621_fe_realize(DeviceState *dev, Error **errp)
{
    MT7621FEState *s = MT7621_FE(dev);
    int i;

    if (!s->sw || !s->dma_mr) {
        error_setg(errp, "mt7621-fe: the switch and dma-memory links are "
                   "required");
        return;
    }
    address_space_init(&s->dma_as, s->dma_mr, "mt7621-fe-dma");
    mt7621_ppe_init(&s->ppe, &s->dma_as);
    s->pdma_tx = (RalinkPDMATx) {
        .regs = &s->regs[PDMA_TX_BASE / 4],
        .rings = RALINK_PDMA_TX_RINGS,
        .as = &s->dma_as,
        .buf = s->tx_buf,
        .buf_size = sizeof(s->tx_buf),
        .frame = fe_pdma_tx_frame,
        .opaque = s,
        .name = TYPE_MT7621_FE,
    };
    for (i = 0; i < MT7621_FE_NUM_GMACS; i++) {
        s->gmac[i].fe = s;
        s->gmac[i].id = i;
    }
    s->pdma_rx = (RalinkPDMARx) {
        .regs = &s->regs[PDMA_RX_BASE_PTR(0) / 4],
        .as = &s->dma_as,
        .name = TYPE_MT7621_FE,
    };
    /*
     * PDMA_DELAY_IRQ's RX half for PDMA RX done, QDMA_DELAY_IRQ's TX half
     * for QDMA TX done, PDMA_DELAY_IRQ's TX half for PDMA TX done
     * (mtk_eth_soc writes the same value to both registers)
     */
    ralink_pdma_dly_init(&s->dly[MT7621_FE_DLY_RX],
                         &s->regs[PDMA_DELAY_IRQ / 4],
                         RALINK_PDMA_DLY_RX_SHIFT,
                         &s->regs[PDMA_IRQ_STATUS / 4], RX_DONE_DLY,
                         fe_update_irq_cb, s);
    ralink_pdma_dly_init(&s->dly[MT7621_FE_DLY_TX],
                         &s->regs[QDMA_DELAY_IRQ / 4],
                         RALINK_PDMA_DLY_TX_SHIFT,
                         &s->regs[QDMA_INT_STATUS / 4], TX_DONE_DLY,
                         fe_update_irq_cb, s);
    ralink_pdma_dly_init(&s->dly[MT7621_FE_DLY_PDMA_TX],
                         &s->regs[PDMA_DELAY_IRQ / 4],
                         RALINK_PDMA_DLY_TX_SHIFT,
                         &s->regs[PDMA_IRQ_STATUS / 4], TX_DONE_DLY,
                         fe_update_irq_cb, s);
    s->qdma_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, fe_qdma_timer, s);
    for (i = 0; i < MT7621_QDMA_QUEUES; i++) {
        QTAILQ_INIT(&s->qdma_q[i].hw);
    }
    mt7530_attach_mac(s->sw, MT7530_CPU_PORT, &fe_gmac_ops, &s->gmac[0]);
    mt7530_attach_mac(s->sw, MT7530_GMAC1_PORT, &fe_gmac_ops, &s->gmac[1]);
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

static const VMStateDescription vmstate_mt7621_qdma_hw_frame = {
    .name = "mt7621-qdma-hw-frame",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32(len, MT7621QdmaHwFrame),
        VMSTATE_VBUFFER_ALLOC_UINT32(data, MT7621QdmaHwFrame, 1, NULL, len),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_mt7621_qdma_queue = {
    .name = "mt7621-qdma-queue",
    .version_id = 2,
    .minimum_version_id = 2,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32_ARRAY(desc, MT7621QdmaQueue, MT7621_QDMA_QUEUE_LEN),
        VMSTATE_UINT32_ARRAY(len, MT7621QdmaQueue, MT7621_QDMA_QUEUE_LEN),
        VMSTATE_UINT32_ARRAY(txd4, MT7621QdmaQueue, MT7621_QDMA_QUEUE_LEN),
        VMSTATE_UINT32(head, MT7621QdmaQueue),
        VMSTATE_UINT32(count, MT7621QdmaQueue),
        VMSTATE_INT64(max_next, MT7621QdmaQueue),
        VMSTATE_INT64(min_next, MT7621QdmaQueue),
        VMSTATE_UINT32(credit, MT7621QdmaQueue),
        VMSTATE_QTAILQ_V(hw, MT7621QdmaQueue, 1, vmstate_mt7621_qdma_hw_frame,
                         MT7621QdmaHwFrame, next),
        VMSTATE_END_OF_LIST()
    }
};

static bool fe_qdma_needed(void *opaque)
{
    return true;
}

static int fe_qdma_post_load(void *opaque, int version_id)
{
    MT7621FEState *s = opaque;
    int q;

    if (s->qdma_rr >= MT7621_QDMA_QUEUES) {
        return -EINVAL;
    }
    for (q = 0; q < MT7621_QDMA_QUEUES; q++) {
        if (s->qdma_q[q].head >= MT7621_QDMA_QUEUE_LEN ||
            s->qdma_q[q].count > MT7621_QDMA_QUEUE_LEN) {
            return -EINVAL;
        }
    }
    return 0;
}

/* The QDMA's queues and scheduler (a subsection of their own) */
static const VMStateDescription vmstate_mt7621_fe_qdma = {
    .name = TYPE_MT7621_FE "/qdma",
    .version_id = 2,
    .minimum_version_id = 2,
    .needed = fe_qdma_needed,
    .post_load = fe_qdma_post_load,
    .fields = (VMStateField[]) {
        VMSTATE_STRUCT_ARRAY(qdma_q, MT7621FEState, MT7621_QDMA_QUEUES, 1,
                             vmstate_mt7621_qdma_queue, MT7621QdmaQueue),
        VMSTATE_UINT32(qdma_rr, MT7621FEState),
        VMSTATE_UINT32(qdma_fq_used, MT7621FEState),
        VMSTATE_INT64_ARRAY(qdma_sch_next, MT7621FEState, 2),
        VMSTATE_BOOL_ARRAY(gmac_paused, MT7621FEState, MT7621_FE_NUM_GMACS),
        VMSTATE_TIMER_PTR(qdma_timer, MT7621FEState),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_mt7621_fe = {
    .name = TYPE_MT7621_FE,
    .version_id = 6,
    .minimum_version_id = 6,
    .fields = (VMStateField[]) {
        VMSTATE_BOOL_ARRAY(in_reset, MT7621FEState, 2),
        VMSTATE_UINT32_ARRAY(regs, MT7621FEState, MT7621_FE_SIZE / 4),
        VMSTATE_UINT16_2DARRAY(c45_addr, MT7621FEState, 32, 32),
        VMSTATE_UINT64_ARRAY(rx_bytes, MT7621FEState, MT7621_FE_NUM_GMACS),
        VMSTATE_UINT64_ARRAY(tx_bytes, MT7621FEState, MT7621_FE_NUM_GMACS),
        VMSTATE_UINT32_ARRAY(rx_packets, MT7621FEState, MT7621_FE_NUM_GMACS),
        VMSTATE_UINT32_ARRAY(tx_packets, MT7621FEState, MT7621_FE_NUM_GMACS),
        VMSTATE_UINT32_ARRAY(rx_overflow, MT7621FEState,
                             MT7621_FE_NUM_GMACS),
        VMSTATE_UINT32_ARRAY(rx_csum_err, MT7621FEState,
                             MT7621_FE_NUM_GMACS),
        VMSTATE_STRUCT_ARRAY(dly, MT7621FEState, 3, 1,
                             vmstate_ralink_pdma_dly, RalinkPDMADelay),
        VMSTATE_STRUCT(ppe, MT7621FEState, 1, vmstate_mt7621_ppe, MT7621PPE),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * []) {
        &vmstate_mt7621_fe_qdma,
        NULL
    }
};

static Property mt7621_fe_properties[] = {
    DEFINE_PROP_LINK("switch", MT7621FEState, sw, TYPE_MT7530, MT7530State *),
    DEFINE_PROP_LINK("dma-memory", MT7621FEState, dma_mr, TYPE_MEMORY_REGION,
                     MemoryRegion *),
    DEFINE_PROP_END_OF_LIST(),
};

/*
 * Faults, for tests (qom-set /machine/soc/fe PROPERTY VALUE at run time):
 * fault-rx-stall: the RX DMA takes no frame (each is dropped and counted
 *   as a GDMA RX overflow) until the guest resets RX ring 0 (PDMA_RST_IDX)
 *   or the frame engine, or the property is set off;
 * fault-rx-desc: the next N received frames get a broken descriptor
 *   (fe_rx_fault());
 * fault-mdio-stuck: PHY_IAC accesses never complete;
 * fault-mdio-absent: a mask of MDIO addresses nobody answers (reads give
 *   0xffff, writes go nowhere); mdio-absent-hits (read only) counts the
 *   accesses it answered so, for a test to see that they happened.
 */
static bool fe_get_rx_stall(Object *obj, Error **errp)
{
    return MT7621_FE(obj)->fault_rx_stall;
}

static void fe_set_rx_stall(Object *obj, bool value, Error **errp)
{
    MT7621_FE(obj)->fault_rx_stall = value;
    trace_mt7621_fe_fault("rx-stall", value);
}

static bool fe_get_mdio_stuck(Object *obj, Error **errp)
{
    return MT7621_FE(obj)->fault_mdio_stuck;
}

static void fe_set_mdio_stuck(Object *obj, bool value, Error **errp)
{
    MT7621FEState *s = MT7621_FE(obj);
    uint32_t iac = fe_reg(s, MTK_PHY_IAC);

    s->fault_mdio_stuck = value;
    trace_mt7621_fe_fault("mdio-stuck", value);
    if (!value && (iac & PHY_IAC_ACCESS)) {
        /* The access that hung ends, and nobody answered it */
        fe_set(s, MTK_PHY_IAC, (iac & ~(PHY_IAC_ACCESS | 0xffff)) | 0xffff);
    }
}

static void fe_get_fault_u32(Object *obj, Visitor *v, const char *name,
                             void *opaque, Error **errp)
{
    visit_type_uint32(v, name, opaque + (uintptr_t)obj, errp);
}

static void fe_set_fault_u32(Object *obj, Visitor *v, const char *name,
                             void *opaque, Error **errp)
{
    uint32_t *field = opaque + (uintptr_t)obj;
    uint32_t value;

    if (visit_type_uint32(v, name, &value, errp)) {
        *field = value;
        trace_mt7621_fe_fault(name, value);
    }
}

static void mt7621_fe_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    object_class_property_add_bool(klass, "fault-rx-stall", fe_get_rx_stall,
                                   fe_set_rx_stall);
    object_class_property_add_bool(klass, "fault-mdio-stuck",
                                   fe_get_mdio_stuck, fe_set_mdio_stuck);
    object_class_property_add(klass, "fault-rx-desc", "uint32",
                              fe_get_fault_u32, fe_set_fault_u32, NULL,
                              (void *)offsetof(MT7621FEState,
                                               fault_rx_desc));
    object_class_property_add(klass, "fault-mdio-absent", "uint32",
                              fe_get_fault_u32, fe_set_fault_u32, NULL,
                              (void *)offsetof(MT7621FEState,
                                               fault_mdio_absent));
    object_class_property_add(klass, "mdio-absent-hits", "uint32",
                              fe_get_fault_u32, NULL, NULL,
                              (void *)offsetof(MT7621FEState,
                                               mdio_absent_hits));

    dc->desc = "MediaTek MT7621 frame engine";
    dc->realize = mt7621_fe_realize;
    dc->reset = mt7621_fe_reset;
    dc->vmsd = &vmstate_mt7621_fe;
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
