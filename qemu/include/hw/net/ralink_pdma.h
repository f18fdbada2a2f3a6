/*
 * Ralink/MediaTek frame engine PDMA: descriptor rings and delayed
 * interrupts
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_NET_RALINK_PDMA_H
#define HW_NET_RALINK_PDMA_H

#include "exec/memory.h"
#include "migration/vmstate.h"
#include "qemu/timer.h"

#define RALINK_PDMA_TX_RINGS    4
/* A ring's four registers, 0x10 apart per ring, in this order */
#define RALINK_PDMA_TX_BASE_PTR 0x0
#define RALINK_PDMA_TX_MAX_CNT  0x4
#define RALINK_PDMA_TX_CTX_IDX  0x8
#define RALINK_PDMA_TX_DTX_IDX  0xc
#define RALINK_PDMA_TX_SIZE     (RALINK_PDMA_TX_RINGS * 0x10)

/**
 * RalinkPDMATxFrame: a whole frame, gathered into the engine's buffer.
 * @opaque: the frame engine's
 * @txd4: the frame's first descriptor's fourth word (per-SoC fields:
 *        forward port, checksum and VLAN insertion)
 * @len: the frame's length in the buffer
 * @segs: how many buffers (descriptor segments of non-zero length) it was
 *        gathered from
 */
typedef void RalinkPDMATxFrame(void *opaque, uint32_t txd4, size_t len,
                               unsigned segs);

/**
 * RalinkPDMATx: the TX half of a frame engine's PDMA.
 * @regs: the rings' registers (0x10 bytes a ring), kept in the frame
 *        engine's register file (its reset and migration)
 * @rings: how many rings follow each other there (at most
 *         RALINK_PDMA_TX_RINGS: the RT305x has rings 2 and 3 elsewhere)
 * @as: where descriptors and buffers live
 * @buf: where a frame is gathered, @buf_size bytes
 * @frame: called for each whole frame, with @opaque
 * @name: the frame engine's, for the log
 */
typedef struct RalinkPDMATx {
    uint32_t *regs;
    unsigned rings;
    AddressSpace *as;
    uint8_t *buf;
    size_t buf_size;
    RalinkPDMATxFrame *frame;
    void *opaque;
    const char *name;
} RalinkPDMATx;

uint32_t ralink_pdma_tx_read(RalinkPDMATx *p, hwaddr offset);
void ralink_pdma_tx_write(RalinkPDMATx *p, hwaddr offset, uint32_t val);
/* Rings whose bits are set in @mask restart at descriptor 0 */
void ralink_pdma_tx_reset_idx(RalinkPDMATx *p, uint32_t mask);
/*
 * Send what the CPU handed over on every ring. Returns the number of
 * frames sent; *@rings gets a bit for each ring that released descriptors.
 */
unsigned ralink_pdma_tx_run(RalinkPDMATx *p, uint32_t *rings);

/* RX rings: four registers a ring, 0x10 apart, as the TX rings */
#define RALINK_PDMA_RX_BASE_PTR 0x0
#define RALINK_PDMA_RX_MAX_CNT  0x4
#define RALINK_PDMA_RX_CRX_IDX  0x8     /* the CPU's: last one it freed */
#define RALINK_PDMA_RX_DRX_IDX  0xc     /* the DMA's: next one it fills */

/* An RX descriptor's second word, as the DMA writes it back */
#define RALINK_PDMA_RXD2_DONE   (1u << 31)
#define RALINK_PDMA_RXD2_LS0    (1u << 30)
#define RALINK_PDMA_RXD2_PLEN0(len) (((len) & 0x3fff) << 16)

/**
 * RalinkPDMARx: the RX half of a frame engine's PDMA.
 * @regs: the rings' registers, kept in the frame engine's register file
 * @as: where descriptors and buffers live
 * @buf_len: 0 if each descriptor's PLEN0 gives its buffer's size (MT7621),
 *           else the size every buffer has (RT5350/MT7628: drivers write
 *           no size there)
 * @name: the frame engine's, for the log
 */
typedef struct RalinkPDMARx {
    uint32_t *regs;
    AddressSpace *as;
    uint32_t buf_len;
    const char *name;
} RalinkPDMARx;

/* Whether @ring has a descriptor the CPU gave back to fill */
bool ralink_pdma_rx_free(RalinkPDMARx *p, int ring);
/*
 * Write @len bytes of @f at @off into the buffer of @ring's next
 * descriptor. Returns its index, or -1 (logged) if it cannot be filled.
 */
int ralink_pdma_rx_fill(RalinkPDMARx *p, int ring, const uint8_t *f,
                        size_t len, unsigned off);
/* Hand descriptor @idx back with its last three words; the index moves */
void ralink_pdma_rx_done(RalinkPDMARx *p, int ring, uint32_t idx,
                         uint32_t rxd2, uint32_t rxd3, uint32_t rxd4);

/*
 * A delay-interrupt register's half (PDMA_DELAY_IRQ, QDMA_DELAY_IRQ: RX
 * in bits 15:0, TX in 31:16): enable, completions, time in 20 us units
 */
#define RALINK_PDMA_DLY_RX_SHIFT    0
#define RALINK_PDMA_DLY_TX_SHIFT    16
#define RALINK_PDMA_DLY_EN          (1u << 15)

/**
 * RalinkPDMADelay: a delayed (coalesced) "done" interrupt.
 * @cfg: the delay register's word, @shift its half
 * @status: the interrupt status word @bit is raised in
 * @update_irq: called with @opaque after @bit is raised
 * @pending: completions not signalled yet
 * @timer: runs from the oldest of them
 */
typedef struct RalinkPDMADelay {
    uint32_t *cfg;
    unsigned shift;
    uint32_t *status;
    uint32_t bit;
    void (*update_irq)(void *opaque);
    void *opaque;
    uint32_t pending;
    QEMUTimer *timer;
} RalinkPDMADelay;

void ralink_pdma_dly_init(RalinkPDMADelay *d, uint32_t *cfg, unsigned shift,
                          uint32_t *status, uint32_t bit,
                          void (*update_irq)(void *opaque), void *opaque);
/* @n completions (frames received or sent) */
void ralink_pdma_dly_complete(RalinkPDMADelay *d, uint32_t n);
/* After a write of the delay register */
void ralink_pdma_dly_reconfigure(RalinkPDMADelay *d);
/* Reset: nothing pending */
void ralink_pdma_dly_reset(RalinkPDMADelay *d);
/* A delay engine's state (VMSTATE_STRUCT_ARRAY of RalinkPDMADelay) */
extern const VMStateDescription vmstate_ralink_pdma_dly;

#endif /* HW_NET_RALINK_PDMA_H */
