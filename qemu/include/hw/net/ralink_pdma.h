/*
 * Ralink/MediaTek frame engine PDMA: the TX descriptor rings
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_NET_RALINK_PDMA_H
#define HW_NET_RALINK_PDMA_H

#include "exec/memory.h"

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
 */
typedef void RalinkPDMATxFrame(void *opaque, uint32_t txd4, size_t len);

/**
 * RalinkPDMATx: the TX half of a frame engine's PDMA.
 * @regs: the rings' registers (RALINK_PDMA_TX_SIZE bytes of them), kept
 *        in the frame engine's register file (its reset and migration)
 * @as: where descriptors and buffers live
 * @buf: where a frame is gathered, @buf_size bytes
 * @frame: called for each whole frame, with @opaque
 * @name: the frame engine's, for the log
 */
typedef struct RalinkPDMATx {
    uint32_t *regs;
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

#endif /* HW_NET_RALINK_PDMA_H */
