/*
 * Ralink/MediaTek embedded 100 Mbit switch (ESW) of the RT3050/RT3052,
 * RT3352, RT5350 and MT7628/MT7688
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_NET_RALINK_ESW_H
#define HW_NET_RALINK_ESW_H

#include "hw/net/ralink_gen.h"
#include "hw/net/ralink_phy.h"
#include "hw/sysbus.h"
#include "net/net.h"
#include "qom/object.h"

#define TYPE_RALINK_ESW "ralink-esw"
OBJECT_DECLARE_SIMPLE_TYPE(RalinkEswState, RALINK_ESW)

#define RALINK_ESW_SIZE         0x8000
#define RALINK_ESW_NUM_PORTS    7
#define RALINK_ESW_NUM_PHYS     5       /* ports 0-4 */
#define RALINK_ESW_CPU_PORT     6       /* to the frame engine */
#define RALINK_ESW_NUM_VLANS    16
#define RALINK_ESW_NUM_FDB      1024
#define RALINK_ESW_NUM_REGS     (0x200 / 4)
#define RALINK_ESW_NUM_COUNTED  6       /* ports with frame counters */

/* Reset inputs ("reset" GPIOs), as the sysctl's RSTCTL drives them */
#define RALINK_ESW_RESET_ESW    0
#define RALINK_ESW_RESET_EPHY   1

/**
 * RalinkEswCpuOps: the frame engine behind the CPU port.
 * @can_receive: whether it takes a frame now; if not, the switch holds
 *               frames for the CPU until ralink_esw_cpu_ready()
 * @receive: a frame for the CPU
 */
typedef struct RalinkEswCpuOps {
    bool (*can_receive)(void *opaque);
    void (*receive)(void *opaque, const uint8_t *buf, size_t len);
} RalinkEswCpuOps;

void ralink_esw_attach_cpu(RalinkEswState *s, const RalinkEswCpuOps *ops,
                           void *opaque);
/* A frame from the frame engine enters the switch at the CPU port */
void ralink_esw_cpu_transmit(RalinkEswState *s, const uint8_t *buf,
                             size_t len);
/* The frame engine can take frames again */
void ralink_esw_cpu_ready(RalinkEswState *s);

typedef struct RalinkEswFdb {
    uint8_t mac[6];
    uint8_t vidx;       /* the VLAN table entry (its filtering ID) */
    uint8_t ports;
    bool valid;
    bool is_static;     /* written through WMAD0 with age 7: never ages */
    int64_t last_seen;  /* virtual ms; learned entries age */
} RalinkEswFdb;

struct RalinkEswState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    qemu_irq irq;
    NICConf conf[RALINK_ESW_NUM_PHYS];
    NICState *nic[RALINK_ESW_NUM_PHYS];
    bool in_reset[2];

    const RalinkEswCpuOps *cpu_ops;
    void *cpu_opaque;

    /* The register file; the registers with behaviour are decoded */
    uint32_t regs[RALINK_ESW_NUM_REGS];
    RalinkPhy phy[RALINK_ESW_NUM_PHYS];
    uint32_t pcr1;      /* the MDIO access's result and done flags */
    /* Per port 0-5: frames received and sent, good (15:0), bad (31:16) */
    uint32_t rx_count[RALINK_ESW_NUM_COUNTED];
    uint32_t tx_count[RALINK_ESW_NUM_COUNTED];
    RalinkEswFdb fdb[RALINK_ESW_NUM_FDB];
    uint32_t ats[3];    /* the search's result: ATS0, ATS1, ATS2 */
    uint32_t ats_next;  /* the table slot the next search starts at */
    RalinkGen gen;      /* the frame generator, a test instrument */
};

#endif /* HW_NET_RALINK_ESW_H */
