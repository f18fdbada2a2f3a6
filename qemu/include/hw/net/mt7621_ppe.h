/*
 * MediaTek MT7621 frame engine: the packet processing engine (PPE)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_NET_MT7621_PPE_H
#define HW_NET_MT7621_PPE_H

#include "exec/memory.h"
#include "migration/vmstate.h"
#include "qemu/timer.h"

/* The PPE's window in the frame engine (FE offset 0x0c00) */
#define MT7621_PPE_SIZE         0x400

typedef struct MT7621PPE {
    uint32_t regs[MT7621_PPE_SIZE / 4];
    /* Guest RAM, where the FOE table lives */
    AddressSpace *as;
    /* The age scan, once a second while SCAN_MODE asks for it */
    QEMUTimer *scan;
    /*
     * The entry cache (MTK_PPE_CACHE_CTL): bound entries the engine read,
     * used until the driver clears the cache. Index + 1, 0 for none.
     */
    uint32_t cache_tag[16];
    uint32_t cache[16][20];
} MT7621PPE;

/*
 * What a frame can grow by on its way through (two VLAN tags and a PPPoE
 * session header where it had none): the room mt7621_ppe_ingress() needs
 */
#define MT7621_PPE_HEADROOM     32

/* What the PPE did with a frame */
typedef enum {
    MT7621_PPE_TO_CPU,      /* to the CPU: *info holds rxd4's PPE fields */
    MT7621_PPE_FORWARD,     /* rewritten in place, for *port (a PSE port) */
    MT7621_PPE_DROP,
} MT7621PPEVerdict;

/* PSE ports an entry's IB2 DEST_PORT names (mtk_eth_soc.h's PSE_*_PORT) */
#define MT7621_PSE_CPU          0
#define MT7621_PSE_GDM1         1
#define MT7621_PSE_GDM2         2

void mt7621_ppe_init(MT7621PPE *p, AddressSpace *as);
void mt7621_ppe_reset(MT7621PPE *p);
uint32_t mt7621_ppe_read(MT7621PPE *p, hwaddr a);
void mt7621_ppe_write(MT7621PPE *p, hwaddr a, uint32_t v);
uint32_t mt7621_ppe_timestamp(void);
MT7621PPEVerdict mt7621_ppe_ingress(MT7621PPE *p, uint8_t *f, size_t *len,
                                    size_t size, size_t tag, uint32_t *info,
                                    int *port, int *qid);

extern const VMStateDescription vmstate_mt7621_ppe;

#endif /* HW_NET_MT7621_PPE_H */
