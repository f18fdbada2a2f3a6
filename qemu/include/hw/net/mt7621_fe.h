/*
 * MediaTek MT7621 frame engine (palmbus 0x1e100000)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_NET_MT7621_FE_H
#define HW_NET_MT7621_FE_H

#include "hw/sysbus.h"
#include "hw/net/mt7530.h"
#include "hw/net/mt7621_ppe.h"
#include "hw/net/ralink_pdma.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_MT7621_FE "mt7621-fe"
OBJECT_DECLARE_SIMPLE_TYPE(MT7621FEState, MT7621_FE)

/*
 * The DT's reg is 0x10000 long, but the Ethernet MACs and the MDIO master
 * (the "GSW" block, FE offset 0x10000: MTK_PPSC, MTK_PHY_IAC, MTK_MAC_MCR)
 * follow it at 0x1e110000; mtk_eth_soc reaches them through its mapping
 * of the frame engine (on MIPS a KSEG1 address, not bounded by the
 * resource), so the model covers both as one window.
 */
#define MT7621_FE_SIZE          0x20000
#define MT7621_FE_MAX_FRAME     (64 * 1024)
#define MT7621_FE_NUM_GMACS     2

/* Reset inputs ("reset" GPIOs), as the sysctl's RSTCTRL drives them */
#define MT7621_FE_RESET_FE      0
#define MT7621_FE_RESET_ETH     1

/*
 * The delay-interrupt engines: PDMA's for RX done, QDMA's for TX done,
 * PDMA's for TX done
 */
#define MT7621_FE_DLY_RX        0
#define MT7621_FE_DLY_TX        1
#define MT7621_FE_DLY_PDMA_TX   2

/*
 * The QDMA's TX queues (MTK_QDMA_NUM_QUEUES) and the frames each holds:
 * read from the TX list, not yet sent (their descriptors are the
 * engine's until then)
 */
#define MT7621_QDMA_QUEUES      16
#define MT7621_QDMA_QUEUE_LEN   512

/*
 * A frame the PPE forwarded onto a QDMA queue (its entry's IB2 PSE_QOS):
 * held in the engine's free-queue pages, which the model counts, not in
 * guest RAM
 */
typedef struct MT7621QdmaHwFrame {
    uint8_t *data;
    uint32_t len;
    QTAILQ_ENTRY(MT7621QdmaHwFrame) next;
} MT7621QdmaHwFrame;

/**
 * MT7621QdmaQueue: one QDMA TX queue
 * @desc: each held frame's first TX descriptor, oldest at @head (0: a
 *   frame from the PPE, the next of @hw)
 * @len: its length (the sum of its descriptors' PLEN0)
 * @txd4: its first descriptor's txd4 (the forward port)
 * @max_next: the virtual time (ns) from which the max rate lets it send
 * @min_next: the virtual time from which it is below its min rate again
 * @credit: frames it may still send in this weighted round
 * @hw: the frames from the PPE it holds, oldest first
 */
typedef struct MT7621QdmaQueue {
    uint32_t desc[MT7621_QDMA_QUEUE_LEN];
    uint32_t len[MT7621_QDMA_QUEUE_LEN];
    uint32_t txd4[MT7621_QDMA_QUEUE_LEN];
    uint32_t head;
    uint32_t count;
    int64_t max_next;
    int64_t min_next;
    uint32_t credit;
    QTAILQ_HEAD(, MT7621QdmaHwFrame) hw;
} MT7621QdmaQueue;

struct MT7621FEState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    qemu_irq irq;
    /* The switch on the MDIO bus, wired to GMAC0 (port 6), GMAC1 (port 5) */
    MT7530State *sw;
    /* Guest RAM, where the DMA descriptors and buffers live */
    MemoryRegion *dma_mr;
    AddressSpace dma_as;
    bool in_reset[2];

    /* The register file; the registers with behaviour are decoded */
    uint32_t regs[MT7621_FE_SIZE / 4];
    /* MDIO: the clause 45 address latched by an address cycle */
    uint16_t c45_addr[32][32];
    /* A frame being gathered from TX descriptors (QDMA or PDMA) */
    uint8_t tx_buf[MT7621_FE_MAX_FRAME];
    /* The packet processing engine (FE offset 0x0c00) */
    MT7621PPE ppe;
    /* The PDMA's TX rings (their registers in @regs) */
    RalinkPDMATx pdma_tx;
    /* Its RX rings (registers in @regs too) */
    RalinkPDMARx pdma_rx;
    /* GDMA counters (read-to-clear), per GDMA */
    uint64_t rx_bytes[MT7621_FE_NUM_GMACS], tx_bytes[MT7621_FE_NUM_GMACS];
    uint32_t rx_packets[MT7621_FE_NUM_GMACS];
    uint32_t tx_packets[MT7621_FE_NUM_GMACS];
    uint32_t rx_overflow[MT7621_FE_NUM_GMACS];
    uint32_t rx_csum_err[MT7621_FE_NUM_GMACS];
    /*
     * Delayed (coalesced) "done" interrupts: completions not yet signalled
     * and the timer of the oldest one, per MT7621_FE_DLY_*
     */
    RalinkPDMADelay dly[3];
    /*
     * The QDMA's TX queues and their scheduler: the queue the weighted
     * round is at, each scheduler's rate limit (as @max_next), whether
     * the switch pauses each GMAC, and the timer of the next frame a max
     * rate held
     */
    MT7621QdmaQueue qdma_q[MT7621_QDMA_QUEUES];
    uint32_t qdma_rr;
    int64_t qdma_sch_next[2];
    /* Free-queue pages the PPE's frames on the queues hold */
    uint32_t qdma_fq_used;
    bool gmac_paused[MT7621_FE_NUM_GMACS];
    QEMUTimer *qdma_timer;
    /*
     * Faults a test injects (QOM properties, settable at run time; see
     * the "fault-*" properties in mt7621_fe.c)
     */
    bool fault_rx_stall;
    uint32_t fault_rx_desc;
    bool fault_mdio_stuck;
    uint32_t fault_mdio_absent;
    uint32_t mdio_absent_hits;  /* accesses fault_mdio_absent answered */
    /* Which GDMA each switch-side MAC opaque belongs to */
    struct MT7621FEGmac {
        struct MT7621FEState *fe;
        int id;
    } gmac[MT7621_FE_NUM_GMACS];
};

#endif /* HW_NET_MT7621_FE_H */
