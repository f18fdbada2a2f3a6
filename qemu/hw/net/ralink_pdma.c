/*
 * Ralink/MediaTek frame engine PDMA: descriptor rings and delayed
 * interrupts
 *
 * Every frame engine of the family has this DMA engine (RT2880, RT305x,
 * RT3883, RT5350, MT7620, MT7628 send through it; the MT7621 has it beside
 * its QDMA, and U-Boot's mtk_eth sends through it there). A TX ring is an
 * array of 16-byte descriptors in RAM with four registers: its base, its
 * size, the CPU's index (the descriptor after the last one it handed
 * over) and the DMA's (the next one to send). A descriptor carries two
 * buffer segments and a word of per-SoC fields for the frame engine:
 *
 *   txd1  SDP0, the first segment's address
 *   txd2  DDONE (31), LS0 (30), SDL0 (29:16), LS1 (14), SDL1 (13:0)
 *   txd3  SDP1, the second segment's address
 *   txd4  forward port, checksum, VLAN... (the frame engine's to decode)
 *
 * LS0 or LS1 marks the segment a frame ends with; a frame may go on over
 * several descriptors, whose txd4 is the first one's. The layout is the
 * one mainline's mtk_eth_soc (TX_DMA_LS0, TX_DMA_PLEN0/1, TX_DMA_LS1,
 * TX_DMA_DONE) and U-Boot's mtk_eth and mt7628-eth (PDMA_TXD2_*) program.
 * The DMA sends a frame once all its descriptors are handed over, then
 * sets DDONE in each (what drivers wait for: U-Boot's mtk_eth_send() takes
 * a descriptor only with DDONE set) and moves its index past them.
 *
 * An RX ring is the same with the roles swapped: the CPU's index is the
 * last descriptor it gave back, the DMA fills the ones after its own
 * index up to it, and hands each back with DDONE, LS0 and the frame's
 * length in rxd2 and the frame engine's fields (checksum, source port,
 * VLAN) in rxd3/rxd4. The MT7621's drivers write each buffer's size into
 * rxd2; the RT5350/MT7628 ones write LS0 alone (mainline's mtk_poll_rx()
 * "rxd->rxd2 = RX_DMA_LSO", U-Boot's mt7628-eth the same): there the
 * buffer has a size fixed by the SoC.
 *
 * The delayed interrupts coalesce "done" interrupts: a frame engine has
 * one for RX and one for TX completions, configured by the two halves of
 * a delay register.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/log.h"
#include "hw/net/ralink_pdma.h"
#include "sysemu/dma.h"
#include "trace.h"

#define TXD2_DDONE              BIT(31)
#define TXD2_LS0                BIT(30)
#define TXD2_SDL0(v)            extract32(v, 16, 14)
#define TXD2_LS1                BIT(14)
#define TXD2_SDL1(v)            extract32(v, 0, 14)
#define TXD_SIZE                16
/*
 * The model keeps 12 bits of a ring's size and CPU index (a ring of
 * 4096 descriptors, mainline's largest, fits; the fields' width on the
 * silicon is not sourced here), which bounds what one kick walks.
 */
#define IDX_MASK                0xfff
#define RXD_SIZE                16
#define RXD2_PLEN0(v)           extract32(v, 16, 14)    /* buffer size */
#define DLY_PINT(v)             extract32(v, 8, 7)  /* completions */
#define DLY_PTIME(v)            extract32(v, 0, 8)  /* 20 us units */
#define DLY_PTIME_NS            20000

static uint32_t *pdma_reg(RalinkPDMATx *p, int ring, hwaddr reg)
{
    return &p->regs[(ring * 0x10 + reg) / 4];
}

uint32_t ralink_pdma_tx_read(RalinkPDMATx *p, hwaddr offset)
{
    return p->regs[offset / 4];
}

void ralink_pdma_tx_write(RalinkPDMATx *p, hwaddr offset, uint32_t val)
{
    switch (offset % 0x10) {
    case RALINK_PDMA_TX_CTX_IDX:
        val &= IDX_MASK;
        break;
    case RALINK_PDMA_TX_DTX_IDX:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: write to PDMA TX ring %u's DMA "
                      "index (read only; PDMA_RST_IDX resets it)\n", p->name,
                      (unsigned)(offset / 0x10));
        return;
    case RALINK_PDMA_TX_MAX_CNT:
        val &= IDX_MASK;
        if (!val) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: PDMA TX ring %u of size 0\n",
                          p->name, (unsigned)(offset / 0x10));
        }
        break;
    }
    p->regs[offset / 4] = val;
}

void ralink_pdma_tx_reset_idx(RalinkPDMATx *p, uint32_t mask)
{
    int r;

    for (r = 0; r < p->rings; r++) {
        if (mask & BIT(r)) {
            *pdma_reg(p, r, RALINK_PDMA_TX_DTX_IDX) = 0;
        }
    }
}

static bool pdma_txd(RalinkPDMATx *p, int ring, uint32_t idx, uint32_t *d)
{
    uint32_t addr = *pdma_reg(p, ring, RALINK_PDMA_TX_BASE_PTR) +
                    idx * TXD_SIZE;
    int i;

    if (dma_memory_read(p->as, addr, d, TXD_SIZE,
                        MEMTXATTRS_UNSPECIFIED) != MEMTX_OK) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: PDMA TX ring %d descriptor %u at "
                      "0x%x outside RAM\n", p->name, ring, idx, addr);
        return false;
    }
    for (i = 0; i < 4; i++) {
        d[i] = le32_to_cpu(d[i]);
    }
    return true;
}

/* Append a segment to the frame being gathered; false if it cannot be */
static bool pdma_gather(RalinkPDMATx *p, size_t *len, unsigned *segs,
                        uint32_t addr, uint32_t n)
{
    if (*len + n > p->buf_size) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: PDMA TX frame longer than %zu "
                      "bytes\n", p->name, p->buf_size);
        return false;
    }
    if (dma_memory_read(p->as, addr, p->buf + *len, n,
                        MEMTXATTRS_UNSPECIFIED) != MEMTX_OK) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: PDMA TX buffer at 0x%x outside "
                      "RAM\n", p->name, addr);
        return false;
    }
    *len += n;
    *segs += !!n;
    return true;
}

/* Send the whole frames handed over on @ring; returns how many */
static unsigned pdma_tx_ring(RalinkPDMATx *p, int ring)
{
    uint32_t max = *pdma_reg(p, ring, RALINK_PDMA_TX_MAX_CNT);
    uint32_t ctx = *pdma_reg(p, ring, RALINK_PDMA_TX_CTX_IDX);
    uint32_t dtx = *pdma_reg(p, ring, RALINK_PDMA_TX_DTX_IDX);
    unsigned frames = 0;

    if (dtx == ctx) {
        return 0;
    }
    if (ctx >= max || dtx >= max) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: PDMA TX ring %d: index %u or %u "
                      "beyond its %u descriptors\n", p->name, ring, ctx, dtx,
                      max);
        return 0;
    }
    while (dtx != ctx) {
        uint32_t d[4], txd4 = 0, idx = dtx, n = 0, i;
        unsigned segs = 0;
        size_t len = 0;
        bool ends = false, ok = true;

        /* Find the frame's last descriptor, gathering its segments */
        while (idx != ctx && !ends) {
            if (!pdma_txd(p, ring, idx, d)) {
                return frames;
            }
            if (!n++) {
                txd4 = d[3];
            }
            ok = ok && pdma_gather(p, &len, &segs, d[0], TXD2_SDL0(d[1]));
            if (d[1] & TXD2_LS0) {
                ends = true;
            } else {
                ok = ok && pdma_gather(p, &len, &segs, d[2],
                                       TXD2_SDL1(d[1]));
                ends = d[1] & TXD2_LS1;
            }
            idx = (idx + 1) % max;
        }
        if (!ends) {
            if (n == max - 1) {
                qemu_log_mask(LOG_GUEST_ERROR, "%s: PDMA TX ring %d full "
                              "without a last segment (LS0/LS1)\n", p->name,
                              ring);
            }
            break;              /* the rest is not handed over yet */
        }
        trace_ralink_pdma_tx(p->name, ring, dtx, n, len);
        if (ok) {
            p->frame(p->opaque, txd4, len, segs);
        }
        frames++;
        /* Release the descriptors: DDONE, and the DMA index past them */
        for (i = 0; i < n; i++) {
            uint32_t addr = *pdma_reg(p, ring, RALINK_PDMA_TX_BASE_PTR) +
                            dtx * TXD_SIZE + 4;
            uint32_t txd2;

            if (ldl_le_dma(p->as, addr, &txd2,
                           MEMTXATTRS_UNSPECIFIED) == MEMTX_OK) {
                stl_le_dma(p->as, addr, txd2 | TXD2_DDONE,
                           MEMTXATTRS_UNSPECIFIED);
            }
            dtx = (dtx + 1) % max;
        }
        *pdma_reg(p, ring, RALINK_PDMA_TX_DTX_IDX) = dtx;
    }
    return frames;
}

unsigned ralink_pdma_tx_run(RalinkPDMATx *p, uint32_t *rings)
{
    unsigned frames = 0;
    int r;

    *rings = 0;
    for (r = 0; r < p->rings; r++) {
        uint32_t dtx = *pdma_reg(p, r, RALINK_PDMA_TX_DTX_IDX);

        frames += pdma_tx_ring(p, r);
        if (*pdma_reg(p, r, RALINK_PDMA_TX_DTX_IDX) != dtx) {
            *rings |= BIT(r);
        }
    }
    return frames;
}

/* -- RX ------------------------------------------------------------------ */

static uint32_t *pdma_rx_reg(RalinkPDMARx *p, int ring, hwaddr reg)
{
    return &p->regs[(ring * 0x10 + reg) / 4];
}

bool ralink_pdma_rx_free(RalinkPDMARx *p, int ring)
{
    uint32_t max = *pdma_rx_reg(p, ring, RALINK_PDMA_RX_MAX_CNT);

    return max && *pdma_rx_reg(p, ring, RALINK_PDMA_RX_DRX_IDX) !=
                  *pdma_rx_reg(p, ring, RALINK_PDMA_RX_CRX_IDX) % max;
}

int ralink_pdma_rx_fill(RalinkPDMARx *p, int ring, const uint8_t *f,
                        size_t len, unsigned off)
{
    uint32_t idx = *pdma_rx_reg(p, ring, RALINK_PDMA_RX_DRX_IDX);
    uint32_t addr = *pdma_rx_reg(p, ring, RALINK_PDMA_RX_BASE_PTR) +
                    idx * RXD_SIZE;
    uint32_t d[2], size;

    if (dma_memory_read(p->as, addr, d, sizeof(d),
                        MEMTXATTRS_UNSPECIFIED) != MEMTX_OK) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: PDMA RX ring %d descriptor %u at "
                      "0x%x outside RAM\n", p->name, ring, idx, addr);
        return -1;
    }
    size = p->buf_len ? p->buf_len : RXD2_PLEN0(le32_to_cpu(d[1]));
    if (len + off > size) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: PDMA RX frame of %zu bytes, "
                      "buffer of %u\n", p->name, len, size);
        return -1;
    }
    if (dma_memory_write(p->as, le32_to_cpu(d[0]) + off, f, len,
                         MEMTXATTRS_UNSPECIFIED) != MEMTX_OK) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: PDMA RX buffer at 0x%x outside "
                      "RAM\n", p->name, le32_to_cpu(d[0]));
        return -1;
    }
    return idx;
}

void ralink_pdma_rx_done(RalinkPDMARx *p, int ring, uint32_t idx,
                         uint32_t rxd2, uint32_t rxd3, uint32_t rxd4)
{
    uint32_t addr = *pdma_rx_reg(p, ring, RALINK_PDMA_RX_BASE_PTR) +
                    idx * RXD_SIZE;
    uint32_t max = *pdma_rx_reg(p, ring, RALINK_PDMA_RX_MAX_CNT);
    uint32_t d[3] = { cpu_to_le32(rxd2), cpu_to_le32(rxd3),
                      cpu_to_le32(rxd4) };

    dma_memory_write(p->as, addr + 4, d, sizeof(d), MEMTXATTRS_UNSPECIFIED);
    *pdma_rx_reg(p, ring, RALINK_PDMA_RX_DRX_IDX) = max ? (idx + 1) % max
                                                        : 0;
}

/* -- delayed interrupts ------------------------------------------------- */

static uint32_t pdma_dly_cfg(RalinkPDMADelay *d)
{
    return extract32(*d->cfg, d->shift, 16);
}

/* Signal the pending completions: the delayed "done" status bit */
static void pdma_dly_fire(RalinkPDMADelay *d)
{
    d->pending = 0;
    timer_del(d->timer);
    *d->status |= d->bit;
    d->update_irq(d->opaque);
}

static void pdma_dly_timeout(void *opaque)
{
    pdma_dly_fire(opaque);
}

void ralink_pdma_dly_init(RalinkPDMADelay *d, uint32_t *cfg, unsigned shift,
                          uint32_t *status, uint32_t bit,
                          void (*update_irq)(void *opaque), void *opaque)
{
    d->cfg = cfg;
    d->shift = shift;
    d->status = status;
    d->bit = bit;
    d->update_irq = update_irq;
    d->opaque = opaque;
    d->pending = 0;
    d->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, pdma_dly_timeout, d);
}

/*
 * While it is enabled the delayed bit is raised once PINT completions are
 * pending or PTIME x 20 us after the oldest of them, whichever comes
 * first; with both 0, at once. (PINT alone with PTIME 0 waits for PINT
 * completions, however long that takes.) While it is disabled the
 * delayed bit is not raised at all: only the immediate *_DONE_INT bits.
 */
void ralink_pdma_dly_complete(RalinkPDMADelay *d, uint32_t n)
{
    uint32_t cfg = pdma_dly_cfg(d);
    uint32_t pint = DLY_PINT(cfg), ptime = DLY_PTIME(cfg);

    if (!(cfg & RALINK_PDMA_DLY_EN)) {
        return;
    }
    d->pending += n;
    if ((pint && d->pending >= pint) || (!pint && !ptime)) {
        pdma_dly_fire(d);
    } else if (ptime && !timer_pending(d->timer)) {
        timer_mod(d->timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                  (int64_t)ptime * DLY_PTIME_NS);
    }
}

/* A new delay configuration applies to the completions already pending */
void ralink_pdma_dly_reconfigure(RalinkPDMADelay *d)
{
    if (!(pdma_dly_cfg(d) & RALINK_PDMA_DLY_EN)) {
        ralink_pdma_dly_reset(d);
    } else if (d->pending) {
        ralink_pdma_dly_complete(d, 0);
    }
}

void ralink_pdma_dly_reset(RalinkPDMADelay *d)
{
    d->pending = 0;
    timer_del(d->timer);
}

const VMStateDescription vmstate_ralink_pdma_dly = {
    .name = "ralink-pdma-dly",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32(pending, RalinkPDMADelay),
        VMSTATE_TIMER_PTR(timer, RalinkPDMADelay),
        VMSTATE_END_OF_LIST()
    }
};
