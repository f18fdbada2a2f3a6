/*
 * Ralink/MediaTek frame engine of the RT5350 and MT7628/MT7688, the
 * RT3050/RT3052, the MT7620, the RT3883 and the RT2880
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
 * The RT3050/RT3052's frame engine ("map" rt3050) is the older layout of
 * the same blocks, as the 2016 series' mtk_eth_soc.h names it
 * (../shared/seeds/, patch 003: MTK_PDMA_OFFSET 0x100 and the registers
 * after it, MTK_INT_STATUS/ENABLE, MTK_GDMA1_*, MTK_CDMA_CSG_CFG):
 *
 *   0x010  INT_STATUS (RX_DONE_INT0 2, TX_DONE_INT0-3 8-11, RX_DLY 0,
 *          TX_DLY 1)                      0x100  PDMA_GLO_CFG
 *   0x014  INT_ENABLE                     0x104  PDMA_RST_IDX
 *   0x020  GDMA1_FWD_CFG: RX checksums    0x10c  DLY_INT_CFG
 *          (ICS/TCS/UCS 22:20), where     0x110  TX rings 0, 1
 *          each class goes (15:0: a
 *          class sent to port 7 is
 *          dropped)
 *   0x02c  GDMA1_MAC_ADRL/ADRH            0x130  RX ring 0
 *   0x080  CDMA_CSG_CFG: TX checksums     0x140  TX rings 2, 3 (not
 *          (ICS/UCS/TCS_GEN 2:0)                 modelled: LOG_UNIMP)
 *
 * It has a GDMA between the PDMA and the switch's CPU port, which
 * verifies RX checksums, and it computes the IPv4, TCP and UDP checksums
 * of a frame whose txd4 asks (bits 31:29, the 2016 series' TX_DMA_CHKSUM)
 * while CDMA_CSG_CFG enables them. Its RX DMA fills up to 1536 bytes as
 * the RT5350's does (OpenWrt's driver and the Ralink SDK's raeth write
 * rxd2 with LS0 only on the RT3052). Its GDMA1 counters at 0x700 (good
 * TX bytes and frames, RX good bytes and frames, RX checksum errors; the
 * others read 0) are cleared when read, as the drivers that add them up
 * assume (OpenWrt's fe_stats_update(), raeth's ra_eth_reg.h, FreeBSD's
 * if_rtreg.h give the layout). A txd4 with bit 7 set has an 802.1Q tag
 * inserted after the MACs: its VID from the 16-entry VLAN table (DMA_VID0
 * at 0xa8, two 12-bit entries a register, the even one in 11:0, the odd
 * one in 27:16), the entry txd4's bits 3:0 name, and its priority from
 * bits 6:4 (the 2016 series' TX_DMA_INS_VLAN and OpenWrt's
 * fe_vlan_rx_add_vid() and fe_tx_map_dma() program it so).
 *
 * The MT7620's frame engine ("map" mt7620) has the RT5350's PDMA map
 * around other blocks (the Ralink SDK's ra_eth_reg.h, OpenWrt's
 * soc_mt7620.c, U-Boot's mt7620-eth.c): its CDMA at 0x400 (CSG_CFG: TX
 * checksums, as the RT305x's; the VLAN table at 0x430, as the RT305x's at
 * 0xa8), GDMA1 at 0x600 (FWD_CFG: the RX checksum checks in 22:20, the
 * destination of every frame in 2:0, which U-Boot and OpenWrt set to 0,
 * the CPU; 7 is taken as discard, as on the RT305x; the MAC address at
 * 0x608/0x60c, kept), GDMA1's counters at 0x1300 in the RT305x's layout,
 * and GDMA1 wired to the GSW's CPU port 6 (mt7530.c, chip mt7620). The
 * switch port travels in the descriptors rather than in a tag: txd4's
 * forced port map (FP_BMAP, bits 27:20: the SDK's TX4_DMA_FP_BMAP, U-Boot's
 * pdma_txd_info4; 0 forwards by address; bit 7, the PPE, is not modelled)
 * and rxd4's source port (SP, bits 21:19) beside its L4 checksum valid bit
 * (23: the SDK's RX4_DMA_L4FVLD, OpenWrt's MT7620_L4_VALID). From ECO 5
 * on (CHIP_REV's ECO, the property "eco"), the MT7620's TX also cuts a
 * frame with txd4's TSO bit (28) into TCP segments (ralink_csum.c) and
 * computes checksums over IPv6; OpenWrt's soc_mt7620.c offers
 * scatter-gather, TSO and IPv6 checksums only there ("Early chip
 * revisions had a few bugs"). What those bugs were is not known here:
 * before ECO 5 the model logs a frame asking for TSO (dropped), for an
 * IPv6 checksum (sent as it is) or gathered from more than one buffer
 * (sent) as a guest error.
 *
 * The RT3883's and RT2880's frame engines ("map" rt3883, rt2880) are the
 * RT305x's older layout without a switch: GDMA1 feeds a gigabit MAC
 * (GMAC) with an RGMII PHY outside the SoC, here a NIC of its own and
 * ralink_phy.c's generic gigabit PHY (OpenWrt's soc_rt3883.c,
 * soc_rt2880.c and mdio_rt2880.c; the Ralink SDK's ra_eth_reg.h lists the
 * RT3883 with the RT3052 for this map). The PHY is on the frame engine's
 * own MDIO master:
 *
 *   0x000  MDIO_ACCESS: bit 31 starts an access and reads 1 until it is
 *          done, bit 30 a write, PHY address 28:24, register 20:16, data
 *          15:0 (OpenWrt's rt2880_mdio_read/_write(): the address
 *          written first, then again with bit 31; the data read back)
 *   0x004  MDIO_CFG: GMAC1's forced link (FRC_EN 15, speed 14:13, duplex
 *          12, pause 11:10), the MDC divider, RGMII clock skews, PHY auto
 *          polling (29); kept as written, auto polling LOG_UNIMP
 *   0x018  MDIO_CFG2: the same for the RT3883's GMAC2 (kept)
 *
 * txd4's port number (PN, bits 26:24) names the GDMA: 1 is GDMA1 and the
 * GMAC; the RT3883's GDMA2 (2, its second GMAC) is not modelled. The
 * GMAC takes frames of up to 1536 bytes (the RX DMA's buffer; GDMA1's
 * jumbo frame bit 19 is not modelled) and of 14 at least, counting the
 * others in GDMA1's RX long and short counters (0x734, 0x730), and sends
 * only while its PHY has link (else the TX skip counter at 0x708). The
 * RT3883 verifies and computes checksums as the RT305x does; the RT2880
 * has neither (OpenWrt's soc_rt2880.c leaves NETIF_F_IP_CSUM and
 * NETIF_F_RXCSUM off: "maybe have hardware bug"): there, GDMA1's checksum
 * enables, CDMA_CSG_CFG's and a txd4 asking for checksums are LOG_UNIMP,
 * and frames pass unchanged and without a verdict.
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
#include "net/eth.h"
#include "sysemu/dma.h"
#include "trace.h"

#define GLO_RX_2B_OFFSET        BIT(31)
#define GLO_RX_DMA_BUSY         BIT(3)
#define GLO_RX_DMA_EN           BIT(2)
#define GLO_TX_DMA_BUSY         BIT(1)
#define GLO_TX_DMA_EN           BIT(0)
#define RST_DTX_IDX_MASK        0xf
#define RST_DRX_IDX_SHIFT       16
#define RXD4_L4_VALID           BIT(30)
#define TXD4_CHKSUM             (7u << 29)
#define TXD4_INS_VLAN           BIT(7)   /* RT305x: from the VLAN table */
#define TXD4_VLAN_PCP(v)        extract32(v, 4, 3)
#define TXD4_VLAN_IDX(v)        extract32(v, 0, 4)
#define RT3050_DMA_VID0         0x00a8   /* the VLAN table, 8 registers */

/* RT5350/MT7628 (mainline's mt7628_reg_map): the SDM */
#define SDM_CON                 0x0c00
#define   SDM_CSUM_EN               (BIT(16) | BIT(17) | BIT(18))
#define SDM_TPCNT               0x0d00
#define SDM_TBCNT               0x0d04
#define SDM_RPCNT               0x0d08
#define SDM_RBCNT               0x0d0c
#define SDM_CS_ERR              0x0d10

/* RT305x (the 2016 series' mtk_eth_soc.h) */
#define RT3050_GDMA1_FWD_CFG    0x0020
#define   RT3050_GDMA_CSUM_EN       (BIT(20) | BIT(21) | BIT(22))
/*
 * Where each class of frame goes, a port number per class (the Ralink
 * SDK's raeth, ra_eth_reg.h: GDM1_UFRC_P, _BFRC_P, _MFRC_P, _OFRC_P; the
 * 2016 series' MTK_GDM1_UFRC_P_*): 0 the CPU (PDMA), 7 discard; the
 * others (GDMA1, the PPE) are not modelled
 */
#define   RT3050_GDMA_UFRC(v)       extract32(v, 12, 4) /* to its own MAC */
#define   RT3050_GDMA_BFRC(v)       extract32(v, 8, 4)  /* broadcast */
#define   RT3050_GDMA_MFRC(v)       extract32(v, 4, 4)  /* multicast */
#define   RT3050_GDMA_OFRC(v)       extract32(v, 0, 4)  /* other unicast */
#define   RT3050_GDMA_TO_CPU        0
#define   RT3050_GDMA_DISCARD       7
#define RT3050_GDMA1_MAC_ADRL   0x002c  /* address bytes 2-5 */
#define RT3050_GDMA1_MAC_ADRH   0x0030  /* address bytes 0-1 */
#define RT3050_CDMA_CSG_CFG     0x0080
#define   RT3050_CSG_EN             (BIT(0) | BIT(1) | BIT(2))
#define RT3050_GDMA1_CNT        0x0700  /* to 0x73c */
#define   RT3050_GDMA_JMB_EN        BIT(19)
/* GDMA1's counters, from their base (RT305x 0x700, MT7620 0x1300) */
#define GDMA_CNT_TX_BYTES       0x00
#define GDMA_CNT_TX_PKTS        0x04
#define GDMA_CNT_RX_BYTES       0x20
#define GDMA_CNT_RX_PKTS        0x24
#define GDMA_CNT_TX_SKIP        0x08
#define GDMA_CNT_RX_SHORT       0x30
#define GDMA_CNT_RX_LONG        0x34
#define GDMA_CNT_RX_CSUM        0x38
#define GDMA_CNT_SIZE           0x40

/* MT7620 (the sources at the top) */
#define MT7620_CDMA_CSG_CFG     0x0400
#define MT7620_CDMA_VLAN_ID0    0x0430  /* the VLAN table, 8 registers */
#define MT7620_GDMA1_FWD_CFG    0x0600
#define   MT7620_GDMA_DST(v)        extract32(v, 0, 3)
#define MT7620_GDMA1_CNT        0x1300
#define MT7620_RXD4_SPORT_SHIFT 19
#define MT7620_RXD4_L4_VALID    BIT(23)
#define MT7620_TXD4_FP_BMAP(v)  extract32(v, 20, 8)
#define MT7620_TXD4_TSO         BIT(28)
#define MT7620_FP_PPE           BIT(7)

/* RT3883, RT2880: the MDIO master and the GMAC (the sources at the top) */
#define GMAC_MDIO_ACCESS        0x0000
#define   MDIO_GO                   BIT(31)
#define   MDIO_WRITE                BIT(30)
#define   MDIO_PHY(v)               extract32(v, 24, 5)
#define   MDIO_REG(v)               extract32(v, 16, 5)
#define GMAC_MDIO_CFG           0x0004
#define   MDIO_CFG_AUTO_POLL        BIT(29)
#define GMAC_MDIO_CFG2          0x0018
#define GMAC_TXD4_PN(v)         extract32(v, 24, 3)
#define GMAC_PN_GDMA1           1
#define GMAC_PN_GDMA2           2
#define GMAC_MIN_FRAME          14
#define GMAC_MAX_FRAME          1536

static const hwaddr rt5350_plain[] = {
    0x0a10,     /* PDMA_FREEQ_THRES */
    0x0a50,     /* PDMA_INT_GRP (mt7628_reg_map's int_grp) */
    0x0a80,     /* PDMA_SCH_Q01_CFG */
    0x0a84,     /* PDMA_SCH_Q23_CFG */
    SDM_CON,
    0x0c04,     /* SDM_RRING */
    0x0c08,     /* SDM_TRING */
    0x0c0c,     /* SDM_MAC_ADRL */
    0x0c10,     /* SDM_MAC_ADRH */
};

static const hwaddr rt3050_plain[] = {
    0x0008,     /* FE_GLO_CFG */
    0x000c,     /* FE_RST_GL: the PSE's reset (nothing to reset here) */
    0x0020,     /* GDMA1_FWD_CFG (writes: ralink_fe_write()) */
    0x0024,     /* GDMA1_SCH_CFG */
    0x0028,     /* GDMA1_SHPR_CFG */
    0x002c,     /* GDMA1_MAC_ADRL */
    0x0030,     /* GDMA1_MAC_ADRH */
    0x0040,     /* PSE_FQ_CFG */
    0x0044,     /* CDMA_FC_CFG */
    0x0048,     /* GDMA1_FC_CFG */
    0x004c,     /* GDMA2_FC_CFG */
    0x0080,     /* CDMA_CSG_CFG */
    0x0084,     /* CDMA_SCH_CFG */
    0x00a8, 0x00ac, 0x00b0, 0x00b4,     /* DMA_VID0-7: the VLAN table */
    0x00b8, 0x00bc, 0x00c0, 0x00c4,
    0x0108,     /* PDMA_SCH_CFG */
};

static const hwaddr mt7620_plain[] = {
    0x0000,     /* FE_GLO_CFG */
    0x0004,     /* FE_RST_GLO */
    MT7620_CDMA_CSG_CFG,
    0x0410,     /* CDMA_PPPOE_SID0 */
    0x0430, 0x0434, 0x0438, 0x043c,     /* CDMA_VLAN_ID0-7 */
    0x0440, 0x0444, 0x0448, 0x044c,
    0x0500,     /* PSE_FQFC_CFG */
    0x0504,     /* PSE_IQ_CFG */
    MT7620_GDMA1_FWD_CFG,       /* (writes: ralink_fe_write()) */
    0x0604,     /* GDMA1_SHPR_CFG */
    0x0608,     /* GDMA1_MAC_ADRL */
    0x060c,     /* GDMA1_MAC_ADRH */
    0x0a10,     /* PDMA_FREEQ_THRES */
    0x0a80,     /* PDMA_SCH_Q01_CFG */
    0x0a84,     /* PDMA_SCH_Q23_CFG */
};

/*
 * RalinkFEMap: where one generation of the frame engine has its
 * registers and bits (the rings: ralink_pdma.c)
 */
typedef struct RalinkFEMap {
    const char *name;
    hwaddr tx_base;             /* TX ring 0; the modelled rings follow */
    unsigned tx_rings;
    hwaddr rx_base;             /* RX ring 0; ring 1 0x10 after */
    unsigned rx_rings;
    hwaddr glo_cfg, rst_idx, dly_int, int_status, int_mask;
    uint32_t rx_done, rx_dly, tx_dly;
    unsigned tx_done_shift;     /* TX ring n's done bit: BIT(shift + n) */
    hwaddr csum_con;            /* RX checksum enables, @csum_en */
    uint32_t csum_en;
    hwaddr csg_cfg;             /* TX checksum enables (0: no TX checksums) */
    hwaddr gdma_fwd;            /* GDMA1's forwarding (0: no GDMA) */
    bool gdma_dst;              /* ... one destination (2:0), no classes */
    hwaddr vid_table;           /* TX VLAN insertion's table (0: none) */
    bool sdm_counters;          /* the SDM's (else GDMA1's at gdma_cnt) */
    hwaddr gdma_cnt;
    uint32_t rxd4_l4_valid;
    bool port_in_desc;          /* MT7620: txd4 FP_BMAP, rxd4 SP */
    bool tso;                   /* ... and TSO (txd4 bit 28) */
    uint8_t full_eco;           /* SG, TSO, IPv6 TX checksums from it on */
    bool gmac;                  /* GDMA1 to a GMAC, MDIO at 0x00 */
    bool gdma2;                 /* ... and a GDMA2 (not modelled) */
    uint32_t rx_buf_len;        /* fixed RX buffer size (0: from rxd2) */
    const hwaddr *plain;        /* registers kept as written */
    size_t n_plain;
} RalinkFEMap;

/* The PDMA at 0x100 of the RT305x, RT3883 and RT2880 */
#define PDMA_MAP_0100                                                   \
    .tx_base = 0x0110, .tx_rings = 2,                                   \
    .rx_base = 0x0130, .rx_rings = 1,                                   \
    .glo_cfg = 0x0100, .rst_idx = 0x0104, .dly_int = 0x010c,            \
    .int_status = 0x0010, .int_mask = 0x0014,                           \
    .rx_done = BIT(2), .rx_dly = BIT(0), .tx_dly = BIT(1),              \
    .tx_done_shift = 8

/* The GDMA1 of the RT305x and the RT3883, the RT2880's without checksums */
#define GDMA_MAP_0020                                                   \
    .gdma_fwd = RT3050_GDMA1_FWD_CFG,                                   \
    .vid_table = RT3050_DMA_VID0,                                       \
    .gdma_cnt = RT3050_GDMA1_CNT,                                       \
    .rx_buf_len = 1536,                                                 \
    .plain = rt3050_plain, .n_plain = ARRAY_SIZE(rt3050_plain)
#define GDMA_CSUM_0020                                                  \
    .csum_con = RT3050_GDMA1_FWD_CFG, .csum_en = RT3050_GDMA_CSUM_EN,   \
    .csg_cfg = RT3050_CDMA_CSG_CFG,                                     \
    .rxd4_l4_valid = RXD4_L4_VALID

/* The PDMA at 0x800 of the RT5350, MT7628 and MT7620 */
#define PDMA_MAP_0800                                                   \
    .tx_base = 0x0800, .tx_rings = 4,                                   \
    .rx_base = 0x0900, .rx_rings = 2,                                   \
    .glo_cfg = 0x0a04, .rst_idx = 0x0a08, .dly_int = 0x0a0c,            \
    .int_status = 0x0a20, .int_mask = 0x0a28,                           \
    .rx_done = BIT(16), .rx_dly = BIT(30), .tx_dly = BIT(28),           \
    .tx_done_shift = 0

static const RalinkFEMap fe_maps[] = {
    {
        .name = "rt5350",
        PDMA_MAP_0800,
        .csum_con = SDM_CON, .csum_en = SDM_CSUM_EN,
        .sdm_counters = true,
        .rxd4_l4_valid = RXD4_L4_VALID,
        /* The switch's largest frame, without its FCS */
        .rx_buf_len = 1536,
        .plain = rt5350_plain, .n_plain = ARRAY_SIZE(rt5350_plain),
    }, {
        .name = "rt3050",
        PDMA_MAP_0100,
        GDMA_MAP_0020,
        GDMA_CSUM_0020,
    }, {
        .name = "rt3883",
        PDMA_MAP_0100,
        GDMA_MAP_0020,
        GDMA_CSUM_0020,
        .gmac = true,
        .gdma2 = true,
    }, {
        .name = "rt2880",
        PDMA_MAP_0100,
        GDMA_MAP_0020,
        .gmac = true,
    }, {
        .name = "mt7620",
        PDMA_MAP_0800,
        .csum_con = MT7620_GDMA1_FWD_CFG, .csum_en = RT3050_GDMA_CSUM_EN,
        .csg_cfg = MT7620_CDMA_CSG_CFG,
        .gdma_fwd = MT7620_GDMA1_FWD_CFG,
        .gdma_dst = true,
        .vid_table = MT7620_CDMA_VLAN_ID0,
        .gdma_cnt = MT7620_GDMA1_CNT,
        .rxd4_l4_valid = MT7620_RXD4_L4_VALID,
        .port_in_desc = true,
        .tso = true,
        .full_eco = 5,
        /*
         * The buffer's size from rxd2 (OpenWrt's FE_FLAG_RX_SG_DMA on the
         * MT7620; U-Boot's mt7620-eth writes PLEN0 too)
         */
        .rx_buf_len = 0,
        .plain = mt7620_plain, .n_plain = ARRAY_SIZE(mt7620_plain),
    },
};

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
    uint32_t status = fe_reg(s, s->map->int_status);
    bool level = status & fe_reg(s, s->map->int_mask);

    trace_ralink_fe_irq(level, status);
    qemu_set_irq(s->irq, level);
}

static void fe_update_irq_cb(void *opaque)
{
    fe_update_irq(opaque);
}

static void fe_raise(RalinkFEState *s, uint32_t bits)
{
    fe_set(s, s->map->int_status, fe_reg(s, s->map->int_status) | bits);
}

/* -- TX ------------------------------------------------------------------ */

/* A frame for the GMAC (maps rt3883, rt2880): false if it goes nowhere */
static bool fe_gmac_tx_check(RalinkFEState *s, uint32_t txd4)
{
    switch (GMAC_TXD4_PN(txd4)) {
    case GMAC_PN_GDMA1:
        break;
    case GMAC_PN_GDMA2:
        if (s->map->gdma2) {
            qemu_log_mask(LOG_UNIMP, "ralink-fe: a frame for GDMA2 (txd4 "
                          "0x%08x) is dropped: GMAC2 is not modelled\n", txd4);
            return false;
        }
        /* fall through */
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "ralink-fe: txd4 0x%08x names no GDMA "
                      "of this SoC: the frame is dropped\n", txd4);
        return false;
    }
    if (!s->map->csg_cfg && (txd4 & TXD4_CHKSUM)) {
        qemu_log_mask(LOG_UNIMP, "ralink-fe: txd4 0x%08x asks for checksums "
                      "(no TX checksum offload here): sent as it is\n", txd4);
    }
    return true;
}

/* The GMAC sends a frame while its PHY has link */
static void fe_gmac_transmit(RalinkFEState *s, size_t len)
{
    if (!ralink_phy_link(&s->phy)) {
        s->tx_skip++;
        return;
    }
    s->tx_packets++;
    s->tx_bytes += len;
    qemu_send_packet(qemu_get_queue(s->nic), s->tx_buf, len);
}

/* A frame to the switch's CPU port (maps with a switch) */
static void fe_cpu_send(void *opaque, uint8_t *f, size_t len)
{
    RalinkFEState *s = opaque;

    s->tx_packets++;
    s->tx_bytes += len;
    if (!s->gsw) {
        ralink_esw_cpu_transmit(s->esw, f, len);
        return;
    }
    mt7530_mac_transmit(s->gsw, MT7530_CPU_PORT, f, len, s->tx_fp_bmap);
}

/*
 * What an MT7620 before ECO 5 is not asked for (the top of this file):
 * false if the frame is dropped, *@csum cleared for an IPv6 one
 */
static bool fe_tx_eco_check(RalinkFEState *s, uint32_t txd4, size_t len,
                            unsigned segs, bool *csum)
{
    uint16_t proto;

    if (segs > 1) {
        qemu_log_mask(LOG_GUEST_ERROR, "ralink-fe: a frame in %u buffers: "
                      "no scatter-gather before ECO 5 (ECO %u)\n", segs,
                      s->eco);
    }
    if (*csum) {
        ralink_csum_l3(s->tx_buf, len, 0, &proto);
        if (proto == ETH_P_IPV6) {
            qemu_log_mask(LOG_GUEST_ERROR, "ralink-fe: an IPv6 checksum "
                          "asked for before ECO 5 (ECO %u): not computed\n",
                          s->eco);
            *csum = false;
        }
    }
    if (txd4 & MT7620_TXD4_TSO) {
        qemu_log_mask(LOG_GUEST_ERROR, "ralink-fe: TSO before ECO 5 (ECO "
                      "%u): the frame is dropped\n", s->eco);
        return false;
    }
    return true;
}

static void fe_tx_frame(void *opaque, uint32_t txd4, size_t len,
                        unsigned segs)
{
    RalinkFEState *s = opaque;
    const RalinkFEMap *m = s->map;
    bool csum = m->csg_cfg && (txd4 & TXD4_CHKSUM) &&
                (fe_reg(s, m->csg_cfg) & RT3050_CSG_EN);

    if (m->gmac && !fe_gmac_tx_check(s, txd4)) {
        return;
    }
    if (s->eco < m->full_eco &&
        !fe_tx_eco_check(s, txd4, len, segs, &csum)) {
        return;
    }
    if (m->vid_table && (txd4 & TXD4_INS_VLAN)) {
        unsigned idx = TXD4_VLAN_IDX(txd4);
        uint32_t vids = fe_reg(s, m->vid_table + idx / 2 * 4);
        uint16_t vid = extract32(vids, idx & 1 ? 16 : 0, 12);
        size_t n = ralink_vlan_insert(s->tx_buf, len, sizeof(s->tx_buf), 12,
                                      TXD4_VLAN_PCP(txd4) << 13 | vid);

        trace_ralink_fe_tx_vlan(idx, vid, TXD4_VLAN_PCP(txd4), n > len);
        len = n;
    }
    if (m->port_in_desc) {
        if (MT7620_TXD4_FP_BMAP(txd4) & MT7620_FP_PPE) {
            qemu_log_mask(LOG_UNIMP, "ralink-fe: a frame forced to the PPE "
                          "(txd4 0x%08x) is dropped\n", txd4);
            return;
        }
        s->tx_fp_bmap = MT7620_TXD4_FP_BMAP(txd4);
    }
    if (m->tso && (txd4 & MT7620_TXD4_TSO)) {
        trace_ralink_fe_tx_tso(len);
        ralink_tso("ralink-fe", s->tx_buf, len, 0, fe_cpu_send, s);
        return;
    }
    if (csum) {
        ralink_csum_tx(s->tx_buf, len, 0);
    }
    if (m->gmac) {
        fe_gmac_transmit(s, len);
        return;
    }
    fe_cpu_send(s, s->tx_buf, len);
}

/* The switch's CPU port (or the GMAC's wire) may send again */
static void fe_switch_ready(RalinkFEState *s)
{
    if (s->nic) {
        qemu_flush_queued_packets(qemu_get_queue(s->nic));
    } else if (s->gsw) {
        mt7530_mac_ready(s->gsw, MT7530_CPU_PORT);
    } else {
        ralink_esw_cpu_ready(s->esw);
    }
}

static void fe_pdma_tx(RalinkFEState *s)
{
    uint32_t rings;
    unsigned frames;

    if (s->in_reset || !(fe_reg(s, s->map->glo_cfg) & GLO_TX_DMA_EN)) {
        return;
    }
    frames = ralink_pdma_tx_run(&s->pdma_tx, &rings);
    if (rings) {
        fe_raise(s, rings << s->map->tx_done_shift);
        ralink_pdma_dly_complete(&s->dly[RALINK_FE_DLY_TX], frames);
        fe_update_irq(s);
    }
}

/* -- RX: ring 0 ---------------------------------------------------------- */

static bool fe_rx_on(RalinkFEState *s)
{
    return !s->in_reset && (fe_reg(s, s->map->glo_cfg) & GLO_RX_DMA_EN);
}

static bool fe_cpu_can_receive(void *opaque)
{
    RalinkFEState *s = opaque;

    /* With RX DMA off the frame is dropped, not held */
    return !fe_rx_on(s) || ralink_pdma_rx_free(&s->pdma_rx, 0);
}

/*
 * Where GDMA1 sends a frame from the switch, by its class: its forward
 * port for the frame's destination (RT3050_GDMA_*FRC)
 */
static unsigned fe_gdma_fwd_port(RalinkFEState *s, const uint8_t *buf,
                                 size_t len)
{
    uint32_t fwd = fe_reg(s, s->map->gdma_fwd);
    uint8_t own[6];

    if (s->map->gdma_dst) {
        return MT7620_GDMA_DST(fwd);
    }
    if (len < 6) {
        return RT3050_GDMA_OFRC(fwd);
    }
    if (is_broadcast_ether_addr(buf)) {
        return RT3050_GDMA_BFRC(fwd);
    }
    if (is_multicast_ether_addr(buf)) {
        return RT3050_GDMA_MFRC(fwd);
    }
    stw_be_p(own, fe_reg(s, RT3050_GDMA1_MAC_ADRH));
    stl_be_p(own + 2, fe_reg(s, RT3050_GDMA1_MAC_ADRL));
    return memcmp(buf, own, 6) ? RT3050_GDMA_OFRC(fwd) :
                                 RT3050_GDMA_UFRC(fwd);
}

/* A frame from the switch, which it took in on port @sport */
static void fe_receive(RalinkFEState *s, const uint8_t *buf, size_t len,
                       int sport)
{
    const RalinkFEMap *m = s->map;
    unsigned off = (fe_reg(s, m->glo_cfg) & GLO_RX_2B_OFFSET) ? 2 : 0;
    uint32_t rxd4 = 0;
    int idx;

    if (!fe_rx_on(s) || !ralink_pdma_rx_free(&s->pdma_rx, 0) ||
        (m->gdma_fwd &&
         fe_gdma_fwd_port(s, buf, len) == RT3050_GDMA_DISCARD)) {
        trace_ralink_fe_rx_drop(len);
        return;
    }
    if (m->csum_en && (fe_reg(s, m->csum_con) & m->csum_en)) {
        RalinkCsum c = ralink_csum_rx(buf, len, 0);

        if (c == RALINK_CSUM_OK) {
            rxd4 |= m->rxd4_l4_valid;
        } else if (c == RALINK_CSUM_BAD) {
            s->rx_csum_err++;
        }
    }
    if (m->port_in_desc) {
        rxd4 |= sport << MT7620_RXD4_SPORT_SHIFT;
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
    fe_raise(s, m->rx_done);
    ralink_pdma_dly_complete(&s->dly[RALINK_FE_DLY_RX], 1);
    fe_update_irq(s);
}

static void fe_esw_receive(void *opaque, const uint8_t *buf, size_t len)
{
    fe_receive(opaque, buf, len, 0);
}

static void fe_gsw_receive(void *opaque, const uint8_t *buf, size_t len,
                           int sport)
{
    fe_receive(opaque, buf, len, sport);
}

static const RalinkEswCpuOps fe_esw_ops = {
    .can_receive = fe_cpu_can_receive,
    .receive = fe_esw_receive,
};

static const MT7530MacOps fe_gsw_ops = {
    .can_receive = fe_cpu_can_receive,
    .receive = fe_gsw_receive,
};

/* -- the GMAC and its PHY (maps rt3883, rt2880) ---------------------------- */

static bool fe_gmac_can_receive(NetClientState *nc)
{
    RalinkFEState *s = qemu_get_nic_opaque(nc);

    /* Without link the frame is lost on the wire, not held */
    return !ralink_phy_link(&s->phy) || fe_cpu_can_receive(s);
}

static ssize_t fe_gmac_receive(NetClientState *nc, const uint8_t *buf,
                               size_t size)
{
    RalinkFEState *s = qemu_get_nic_opaque(nc);

    if (!ralink_phy_link(&s->phy)) {
        trace_ralink_fe_rx_drop(size);
    } else if (size < GMAC_MIN_FRAME) {
        s->rx_short++;
    } else if (size > GMAC_MAX_FRAME) {
        s->rx_long++;
    } else {
        fe_receive(s, buf, size, 0);
    }
    return size;
}

static void fe_gmac_link_status_changed(NetClientState *nc)
{
    RalinkFEState *s = qemu_get_nic_opaque(nc);

    ralink_phy_check_link(&s->phy);
}

static NetClientInfo fe_gmac_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .can_receive = fe_gmac_can_receive,
    .receive = fe_gmac_receive,
    .link_status_changed = fe_gmac_link_status_changed,
};

/* The PHY's link partner is there: the NIC's backend (a cable), up */
static bool fe_phy_partner(void *opaque, int addr)
{
    RalinkFEState *s = opaque;
    NetClientState *nc = qemu_get_queue(s->nic);

    return nc->peer && !nc->link_down;
}

/*
 * The PHY's link changed: the drivers poll its BMSR (phylib; the MDIO
 * master's auto polling and GE1_STA_CHG are not modelled)
 */
static void fe_phy_link_changed(void *opaque, int addr)
{
    fe_switch_ready(opaque);
}

/* MDIO_ACCESS written: an access to the PHY, if bit 31 starts one */
static void fe_mdio_access(RalinkFEState *s, uint32_t val)
{
    unsigned phy = MDIO_PHY(val), reg = MDIO_REG(val);

    if (val & MDIO_GO) {
        val &= ~MDIO_GO;
        if (phy != s->phy_addr) {
            /* Nobody drives MDIO: the pull-up reads all ones */
            val |= (val & MDIO_WRITE) ? 0 : 0xffff;
        } else if (val & MDIO_WRITE) {
            ralink_phy_write(&s->phy, reg, extract32(val, 0, 16));
        } else {
            val = deposit32(val, 0, 16, ralink_phy_read(&s->phy, reg));
        }
    }
    fe_set(s, GMAC_MDIO_ACCESS, val);
}

/* -- registers ---------------------------------------------------------- */

static bool fe_plain_reg(RalinkFEState *s, hwaddr a)
{
    size_t i;

    if (s->map->gmac && (a == GMAC_MDIO_CFG || a == GMAC_MDIO_CFG2)) {
        return true;
    }
    for (i = 0; i < s->map->n_plain; i++) {
        if (s->map->plain[i] == a) {
            return true;
        }
    }
    return false;
}

static bool fe_in_tx(RalinkFEState *s, hwaddr a)
{
    const RalinkFEMap *m = s->map;

    return a >= m->tx_base && a < m->tx_base + m->tx_rings * 0x10;
}

static bool fe_in_rx(RalinkFEState *s, hwaddr a)
{
    const RalinkFEMap *m = s->map;

    return a >= m->rx_base && a < m->rx_base + m->rx_rings * 0x10;
}

static uint32_t fe_counter(uint32_t *c)
{
    uint32_t v = *c;

    *c = 0;
    return v;
}

/* The counter at @a (the SDM's or GDMA1's); NULL if @a is none */
static uint32_t *fe_sdm_counter(RalinkFEState *s, hwaddr a)
{
    if (!s->map->sdm_counters) {
        switch (a - s->map->gdma_cnt) {
        case GDMA_CNT_TX_BYTES:
            return &s->tx_bytes;
        case GDMA_CNT_TX_PKTS:
            return &s->tx_packets;
        case GDMA_CNT_RX_BYTES:
            return &s->rx_bytes;
        case GDMA_CNT_RX_PKTS:
            return &s->rx_packets;
        case GDMA_CNT_RX_CSUM:
            return &s->rx_csum_err;
        case GDMA_CNT_TX_SKIP:
            return s->map->gmac ? &s->tx_skip : NULL;
        case GDMA_CNT_RX_SHORT:
            return s->map->gmac ? &s->rx_short : NULL;
        case GDMA_CNT_RX_LONG:
            return s->map->gmac ? &s->rx_long : NULL;
        }
        return NULL;
    }
    switch (a) {
    case SDM_TPCNT:
        return &s->tx_packets;
    case SDM_TBCNT:
        return &s->tx_bytes;
    case SDM_RPCNT:
        return &s->rx_packets;
    case SDM_RBCNT:
        return &s->rx_bytes;
    case SDM_CS_ERR:
        return &s->rx_csum_err;
    }
    return NULL;
}

static uint64_t ralink_fe_read(void *opaque, hwaddr addr, unsigned size)
{
    RalinkFEState *s = opaque;
    const RalinkFEMap *m = s->map;
    uint32_t *c;

    if (fe_in_tx(s, addr)) {
        return ralink_pdma_tx_read(&s->pdma_tx, addr - m->tx_base);
    }
    if (fe_in_rx(s, addr)) {
        return fe_reg(s, addr);
    }
    if (m->gmac && addr == GMAC_MDIO_ACCESS) {
        return fe_reg(s, addr);     /* an access is done when written */
    }
    if (addr == m->glo_cfg) {
        /* The DMA is never busy between two register accesses */
        return fe_reg(s, addr) & ~(GLO_RX_DMA_BUSY | GLO_TX_DMA_BUSY);
    }
    if (addr == m->rst_idx) {
        return 0;
    }
    if (addr == m->dly_int || addr == m->int_status || addr == m->int_mask ||
        fe_plain_reg(s, addr)) {
        return fe_reg(s, addr);
    }
    c = fe_sdm_counter(s, addr);
    if (c) {
        return fe_counter(c);
    }
    if (!m->sdm_counters && addr >= m->gdma_cnt &&
        addr < m->gdma_cnt + GDMA_CNT_SIZE) {
        return 0;       /* a GDMA1 counter the model does not count */
    }
    qemu_log_mask(LOG_UNIMP, "ralink-fe: read of 0x%" HWADDR_PRIx "\n", addr);
    return 0;
}

static void fe_rx_write(RalinkFEState *s, hwaddr addr, uint32_t val)
{
    switch ((addr - s->map->rx_base) % 0x10) {
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
        fe_switch_ready(s);
    }
}

static void ralink_fe_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    RalinkFEState *s = opaque;
    const RalinkFEMap *m = s->map;
    unsigned r;

    if (fe_in_tx(s, addr)) {
        ralink_pdma_tx_write(&s->pdma_tx, addr - m->tx_base, val);
        if ((addr - m->tx_base) % 0x10 == RALINK_PDMA_TX_CTX_IDX) {
            fe_pdma_tx(s);
        }
        return;
    }
    if (fe_in_rx(s, addr)) {
        fe_rx_write(s, addr, val);
        return;
    }
    if (m->gmac && addr == GMAC_MDIO_ACCESS) {
        fe_mdio_access(s, val);
    } else if (addr == m->glo_cfg) {
        fe_set(s, addr, val & ~(GLO_RX_DMA_BUSY | GLO_TX_DMA_BUSY));
        fe_pdma_tx(s);
        fe_switch_ready(s);
    } else if (addr == m->rst_idx) {
        ralink_pdma_tx_reset_idx(&s->pdma_tx, val & RST_DTX_IDX_MASK);
        for (r = 0; r < m->rx_rings; r++) {
            if (val & BIT(RST_DRX_IDX_SHIFT + r)) {
                fe_set(s, m->rx_base + r * 0x10 + RALINK_PDMA_RX_DRX_IDX, 0);
            }
        }
    } else if (addr == m->dly_int) {
        fe_set(s, addr, val);
        ralink_pdma_dly_reconfigure(&s->dly[RALINK_FE_DLY_RX]);
        ralink_pdma_dly_reconfigure(&s->dly[RALINK_FE_DLY_TX]);
    } else if (addr == m->int_status) {
        fe_set(s, addr, fe_reg(s, addr) & ~val);
        fe_update_irq(s);
    } else if (addr == m->int_mask) {
        fe_set(s, addr, val);
        fe_update_irq(s);
    } else if (m->gdma_fwd && addr == m->gdma_fwd) {
        for (r = 0; r < (m->gdma_dst ? 4 : 16); r += 4) {
            unsigned port = extract32(val, r, m->gdma_dst ? 3 : 4);

            if (port != RT3050_GDMA_TO_CPU && port != RT3050_GDMA_DISCARD) {
                qemu_log_mask(LOG_UNIMP, "ralink-fe: GDMA1_FWD_CFG forwards "
                              "a class of frames to port %u (not modelled: "
                              "they go to the CPU)\n", port);
            }
        }
        if (m->gmac && !m->csum_en && (val & RT3050_GDMA_CSUM_EN)) {
            qemu_log_mask(LOG_UNIMP, "ralink-fe: GDMA1_FWD_CFG 0x%" PRIx64
                          ": no RX checksum offload here\n", val);
        }
        if (m->gmac && (val & RT3050_GDMA_JMB_EN)) {
            qemu_log_mask(LOG_UNIMP, "ralink-fe: GDMA1_FWD_CFG 0x%" PRIx64
                          ": jumbo frames not modelled\n", val);
        }
        fe_set(s, addr, val);
    } else if (m->gmac && !m->csg_cfg && addr == RT3050_CDMA_CSG_CFG &&
               (val & RT3050_CSG_EN)) {
        qemu_log_mask(LOG_UNIMP, "ralink-fe: CDMA_CSG_CFG 0x%" PRIx64 ": no "
                      "TX checksum offload here\n", val);
        fe_set(s, addr, val);
    } else if (m->gmac && addr == GMAC_MDIO_CFG &&
               (val & MDIO_CFG_AUTO_POLL)) {
        qemu_log_mask(LOG_UNIMP, "ralink-fe: MDIO_CFG 0x%" PRIx64 ": PHY auto "
                      "polling not modelled\n", val);
        fe_set(s, addr, val);
    } else if (fe_sdm_counter(s, addr)) {
        qemu_log_mask(LOG_GUEST_ERROR, "ralink-fe: write to counter "
                      "0x%" HWADDR_PRIx " (read only)\n", addr);
    } else if (fe_plain_reg(s, addr)) {
        fe_set(s, addr, val);
    } else {
        qemu_log_mask(LOG_UNIMP, "ralink-fe: write of 0x%" PRIx64 " to 0x%"
                      HWADDR_PRIx "\n", val, addr);
    }
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
    if (s->map->sdm_counters) {
        fe_set(s, SDM_CON, SDM_CSUM_EN);
    }
    s->tx_packets = s->tx_bytes = s->rx_packets = s->rx_bytes = 0;
    s->rx_csum_err = 0;
    s->rx_short = s->rx_long = s->tx_skip = 0;
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
    /* The external PHY: powered up with the board (not the FE's reset) */
    if (s->nic) {
        ralink_phy_reset(&s->phy);
        s->phy.link = ralink_phy_link(&s->phy);
    }
}

static void ralink_fe_realize(DeviceState *dev, Error **errp)
{
    RalinkFEState *s = RALINK_FE(dev);
    const RalinkFEMap *m = NULL;
    size_t i;

    if (!s->dma_mr) {
        error_setg(errp, "ralink-fe: the dma-memory link is required");
        return;
    }
    for (i = 0; i < ARRAY_SIZE(fe_maps); i++) {
        if (!strcmp(fe_maps[i].name, s->map_name ? s->map_name : "rt5350")) {
            m = &fe_maps[i];
        }
    }
    if (!m) {
        error_setg(errp, "ralink-fe: unknown map \"%s\" (rt5350, rt3050, "
                   "mt7620, rt3883, rt2880)", s->map_name);
        return;
    }
    if (m->gmac ? s->esw || s->gsw
                : !s->esw == !s->gsw || m->port_in_desc != !!s->gsw) {
        error_setg(errp, "ralink-fe: map \"%s\" takes %s", m->name,
                   m->gmac ? "no switch link (its GMAC is a NIC)" :
                   m->port_in_desc ? "the gsw link" : "the esw link");
        return;
    }
    if (s->phy_addr > 31) {
        error_setg(errp, "ralink-fe: phy-addr %u is not an MDIO address",
                   s->phy_addr);
        return;
    }
    s->map = m;
    address_space_init(&s->dma_as, s->dma_mr, "ralink-fe-dma");
    s->pdma_tx = (RalinkPDMATx) {
        .regs = &s->regs[m->tx_base / 4],
        .rings = m->tx_rings,
        .as = &s->dma_as,
        .buf = s->tx_buf,
        .buf_size = sizeof(s->tx_buf),
        .frame = fe_tx_frame,
        .opaque = s,
        .name = TYPE_RALINK_FE,
    };
    s->pdma_rx = (RalinkPDMARx) {
        .regs = &s->regs[m->rx_base / 4],
        .as = &s->dma_as,
        .buf_len = m->rx_buf_len,
        .name = TYPE_RALINK_FE,
    };
    ralink_pdma_dly_init(&s->dly[RALINK_FE_DLY_RX],
                         &s->regs[m->dly_int / 4],
                         RALINK_PDMA_DLY_RX_SHIFT,
                         &s->regs[m->int_status / 4], m->rx_dly,
                         fe_update_irq_cb, s);
    ralink_pdma_dly_init(&s->dly[RALINK_FE_DLY_TX],
                         &s->regs[m->dly_int / 4],
                         RALINK_PDMA_DLY_TX_SHIFT,
                         &s->regs[m->int_status / 4], m->tx_dly,
                         fe_update_irq_cb, s);
    if (m->gmac) {
        qemu_macaddr_default_if_unset(&s->conf.macaddr);
        s->nic = qemu_new_nic(&fe_gmac_net_info, &s->conf,
                              object_get_typename(OBJECT(s)),
                              dev->id ? dev->id : "ralink-fe.gmac1",
                              &dev->mem_reentrancy_guard, s);
        ralink_phy_init(&s->phy, &ralink_phy_generic, s->phy_addr,
                        fe_phy_partner, fe_phy_link_changed, s);
    } else if (s->gsw) {
        mt7530_attach_mac(s->gsw, MT7530_CPU_PORT, &fe_gsw_ops, s);
    } else {
        ralink_esw_attach_cpu(s->esw, &fe_esw_ops, s);
    }
}

static void ralink_fe_unrealize(DeviceState *dev)
{
    RalinkFEState *s = RALINK_FE(dev);

    if (s->nic) {
        qemu_del_nic(s->nic);
        ralink_phy_finalize(&s->phy);
    }
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

static bool ralink_fe_gmac_needed(void *opaque)
{
    return RALINK_FE(opaque)->nic != NULL;
}

static const VMStateDescription vmstate_ralink_fe_gmac = {
    .name = TYPE_RALINK_FE "/gmac",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = ralink_fe_gmac_needed,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32(rx_short, RalinkFEState),
        VMSTATE_UINT32(rx_long, RalinkFEState),
        VMSTATE_UINT32(tx_skip, RalinkFEState),
        VMSTATE_STRUCT(phy, RalinkFEState, 1, vmstate_ralink_phy, RalinkPhy),
        VMSTATE_END_OF_LIST()
    }
};

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
    },
    .subsections = (const VMStateDescription * []) {
        &vmstate_ralink_fe_gmac,
        NULL
    }
};

static Property ralink_fe_properties[] = {
    DEFINE_PROP_LINK("esw", RalinkFEState, esw, TYPE_RALINK_ESW,
                     RalinkEswState *),
    DEFINE_PROP_LINK("gsw", RalinkFEState, gsw, TYPE_MT7530, MT7530State *),
    DEFINE_PROP_LINK("dma-memory", RalinkFEState, dma_mr, TYPE_MEMORY_REGION,
                     MemoryRegion *),
    DEFINE_PROP_STRING("map", RalinkFEState, map_name),
    /* The newest revision unless the SoC says otherwise */
    DEFINE_PROP_UINT8("eco", RalinkFEState, eco, UINT8_MAX),
    /* The GMAC's wire and its PHY's MDIO address (maps rt3883, rt2880) */
    DEFINE_PROP_NETDEV("netdev0", RalinkFEState, conf.peers),
    DEFINE_PROP_MACADDR("mac", RalinkFEState, conf.macaddr),
    DEFINE_PROP_UINT32("phy-addr", RalinkFEState, phy_addr, 0),
    DEFINE_PROP_END_OF_LIST(),
};

static void ralink_fe_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->desc = "Ralink/MediaTek RT5350/MT7628 (map rt5350), RT305x (map "
               "rt3050), MT7620 (map mt7620), RT3883 (map rt3883) and RT2880 "
               "(map rt2880) frame engine";
    dc->realize = ralink_fe_realize;
    dc->unrealize = ralink_fe_unrealize;
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
