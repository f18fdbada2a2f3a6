/*
 * MediaTek MT7530 switch core, as built into the MT7621 (MCM), and the
 * MT7620's gigabit switch (GSW)
 *
 * Seven ports: 0-4 with internal gigabit PHYs, each on its own QEMU
 * network backend; 5 wired to the frame engine's GMAC1 and 6 (the CPU
 * port) to GMAC0. The core's 32-bit registers are reached over MDIO at
 * address 0x1f with the page/offset scheme of mainline's mt7530-mdio
 * (register 0x1f: page = reg[15:6]; registers 0-15: offset reg[5:2], low
 * half; register 0x10: high half, which completes a write). The PHYs
 * answer at MDIO addresses 0-4 of the same bus. A front port sends at its
 * link's speed on the virtual clock from a bounded buffer, and pauses
 * the frame engine's GMAC when frames from the CPU fill it
 * (mt7530_link_send()).
 *
 * Register names and fields follow mainline's drivers/net/dsa/mt7530.h.
 *
 * The MT7620's GSW ("chip" mt7620) is the same core with another global
 * block, compared register by register in the sources below: its
 * registers are on the palmbus (MMIO, 0x8000 bytes); ports 0-4 have
 * 100 Mbit PHYs, reached through PIAC (0x7004: the MT7531's PHY_IAC
 * layout); port 6 is the frame engine's CPU port, with the source port
 * and a forced destination map in the DMA descriptors rather than a
 * special tag; the VLAN table has 16 slots, each with its VID in VTIM
 * (0x100: two 12-bit VIDs a word) and VTCR naming a slot; the MIB
 * counters have their own layout (16-bit frame counters); the interrupt
 * mask at 0x7008 masks (OpenWrt writes ~0x7f to enable link changes).
 * Its port 5 is an RGMII MAC to a PHY outside the SoC (OpenWrt's
 * mt7620_port_init(): SYSCFG1's GE1 mode, GPC1's delays, a forced PMCR or
 * the PHY polled): here a backend of its own ("netdev5") with the generic
 * gigabit PHY (ralink_phy.c) at MDIO address "ext-phy-addr" on PIAC's bus;
 * the port's MAC takes its link from PMCR when forced (as the DSA drivers
 * do, through phylink), else from that PHY.
 * Sources: OpenWrt's gsw_mt7620.[ch] and gsw_mt7620_dsa.c (its 2026 DSA
 * driver: VTIM, the MIB fields, the address-table match modes), U-Boot's
 * mt7620-eth.c, the 2016 series' gsw_mt7620.h (../shared/seeds/).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "hw/irq.h"
#include "hw/net/mt7530.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "net/eth.h"
#include "trace.h"

/* Global registers */
#define MT753X_AGC              0x000c
#define   AGC_LOCAL_EN              BIT(7)
#define MT753X_MFC              0x0010
#define   MFC_BC_FFP(v)             extract32(v, 24, 8)
#define   MFC_UNM_FFP(v)            extract32(v, 16, 8)
#define   MFC_UNU_FFP(v)            extract32(v, 8, 8)
#define   MFC_CPU_EN                BIT(7)
#define   MFC_CPU_PORT(v)           extract32(v, 4, 3)
#define   MFC_MIRROR_EN             BIT(3)
#define   MFC_MIRROR_PORT(v)        extract32(v, 0, 3)
#define MT753X_BPC              0x0024
#define MT753X_RGAC1            0x0028
#define MT753X_RGAC2            0x002c
#define   RGAC_BPDU_FR_HI           BIT(25)
#define   RGAC_PORT_FW_HI(v)        extract32(v, 16, 3)
#define   RGAC_BPDU_FR_LO           BIT(9)
#define   RGAC_PORT_FW_LO(v)        extract32(v, 0, 3)
#define   TO_CPU_FW_SYSTEM_DEFAULT  0
#define   TO_CPU_FW_DROP            7
#define MT7530_ATA1             0x0074
#define MT7530_ATA2             0x0078
#define   ATA2_IVL                  BIT(15)
#define   ATA2_FID(v)               extract32(v, 12, 3)
#define   ATA2_CVID(v)              extract32(v, 0, 12)
#define MT7530_ATWD             0x007c
#define   ATWD_AGE(v)               extract32(v, 24, 8)
#define   ATWD_PORT_MAP(v)          extract32(v, 4, 8)
#define   ATWD_STATUS(v)            extract32(v, 2, 2)
#define MT7530_ATC              0x0080
#define   ATC_BUSY                  BIT(15)
#define   ATC_SRCH_END              BIT(14)
#define   ATC_SRCH_HIT              BIT(13)
#define   ATC_INVALID               BIT(12)
#define   ATC_MAT(v)                extract32(v, 8, 4)
#define   ATC_CMD(v)                extract32(v, 0, 3)
#define   FDB_READ                  0
#define   FDB_WRITE                 1
#define   FDB_FLUSH                 2
#define   FDB_START                 4
#define   FDB_NEXT                  5
#define   FDB_STATIC                3
#define MT7530_TSRA1            0x0084
#define MT7530_TSRA2            0x0088
#define MT7530_ATRD             0x008c
#define MT7530_VTCR             0x0090
#define   VTCR_BUSY                 BIT(31)
#define   VTCR_INVALID              BIT(16)
#define   VTCR_FUNC(v)              extract32(v, 12, 4)
#define   VTCR_VID(v)               extract32(v, 0, 12)
#define   VTCR_RD_VID               0
#define   VTCR_WR_VID               1
#define   VTCR_INVALID_VID          2
/*
 * The ACL tables, through VTCR/VAWD1/VAWD2 (sources: MediaTek's switch
 * utility, switch_fun.c's write_acl_table() & co., and the field names of
 * DENG Qingfang's 2021 RFC "net: dsa: mt7530: trap packets from
 * standalone ports to the CPU"; NOTES.md, "Issue 20: the MT7530's ACL").
 */
#define   VTCR_RD_ACL_PATTERN       4
#define   VTCR_WR_ACL_PATTERN       5
#define   VTCR_WR_ACL_TRTCM         7
#define   VTCR_RD_ACL_MASK          8
#define   VTCR_WR_ACL_MASK          9
#define   VTCR_RD_ACL_ACTION        10
#define   VTCR_WR_ACL_ACTION        11
#define   VTCR_WR_ACL_RATE          13
/* Pattern entry: VAWD1 */
#define   ACL_BIT_CMP(v)            extract32(v, 16, 16)
#define   ACL_CMP_PAT(v)            extract32(v, 0, 16)
/* Pattern entry: VAWD2 */
#define   ACL_TABLE_EN              BIT(19)
#define   ACL_OFST_TP(v)            extract32(v, 16, 3)
#define   ACL_SP(v)                 extract32(v, 8, 8)
#define   ACL_WORD_OFST(v)          extract32(v, 1, 7)
#define   ACL_CMP_SEL               BIT(0)
#define   ACL_MAC_HEADER            0
#define   ACL_L2_PAYLOAD            1
#define   ACL_IP_HEADER             2
#define   ACL_IP_DATAGRAM           3
#define   ACL_TCP_UDP_HEADER        4
#define   ACL_TCP_UDP_DATAGRAM      5
#define   ACL_IPV6_HEADER           6
/* Rule action: VAWD1 */
#define   ACL_MANG                  BIT(29)
#define   ACL_INT_EN                BIT(28)
#define   ACL_CNT_EN                BIT(27)
#define   ACL_CNT_IDX(v)            extract32(v, 24, 3)
#define   ACL_VLAN_PORT_EN          BIT(23)
#define   ACL_DA_SWAP               BIT(22)
#define   ACL_SA_SWAP               BIT(21)
#define   ACL_PPP_RM                BIT(20)
#define   ACL_LKY_VLAN              BIT(19)
#define   ACL_EG_TAG(v)             extract32(v, 16, 3)
#define   ACL_PORT(v)               extract32(v, 8, 8)
#define   ACL_PORT_EN               BIT(7)
#define   ACL_PRI_USER(v)           extract32(v, 4, 3)
#define   ACL_MIR_EN                BIT(3)
#define   ACL_PORT_FW(v)            extract32(v, 0, 3)
#define   ACL_UNMODELLED            (ACL_MANG | ACL_INT_EN | ACL_CNT_EN | \
                                     (7 << 24) | ACL_VLAN_PORT_EN | \
                                     ACL_DA_SWAP | ACL_SA_SWAP | \
                                     ACL_PPP_RM | ACL_LKY_VLAN | (7 << 4))
/* ACL_PORT_FW: mainline's enum mt7530_to_cpu_port_fw */
#define   ACL_FW_DEFAULT            0
#define   ACL_FW_EXCLUDE_CPU        4
#define   ACL_FW_INCLUDE_CPU        5
#define   ACL_FW_CPU_ONLY           6
#define   ACL_FW_DROP               7
#define MT7530_VAWD1            0x0094
#define   VAWD1_IVL_MAC             BIT(30)
#define   VAWD1_EG_CON              BIT(29)
#define   VAWD1_PORT_MEM(v)         extract32(v, 16, 8)
#define   VAWD1_FID(v)              extract32(v, 1, 3)
#define   VAWD1_VALID               BIT(0)
#define MT7530_VAWD2            0x0098
#define   VAWD2_ETAG(v, p)          extract32(v, (p) * 2, 2)
#define MT7530_AAC              0x00a0
#define   AAC_AGE_DIS               BIT(20)
#define   AAC_AGE_CNT(v)            extract32(v, 12, 8)
#define   AAC_AGE_UNIT(v)           extract32(v, 0, 12)
/* Per-port registers, 0x100 apart */
#define MT7530_SSP_P            0x2000
#define MT7530_PCR_P            0x2004
#define   PCR_PORT_ACL_EN           BIT(10)
#define   PCR_TX_MIR                BIT(9)
#define   PCR_RX_MIR                BIT(8)
#define   PCR_MATRIX(v)             extract32(v, 16, 8)
#define   PCR_PORT_VLAN(v)          extract32(v, 0, 2)
#define   PORT_MATRIX_MODE          0
#define   PORT_FALLBACK_MODE        1
#define   PORT_CHECK_MODE           2
#define   PORT_SECURITY_MODE        3
#define MT7530_PSC_P            0x200c
#define   PSC_SA_DIS                BIT(4)
#define MT7530_PVC_P            0x2010
#define   PVC_PORT_SPEC_TAG         BIT(5)
#define   PVC_EG_TAG(v)             extract32(v, 8, 3)
#define   PVC_VLAN_ATTR(v)          extract32(v, 6, 2)
#define   PVC_ACC_FRM(v)            extract32(v, 0, 2)
#define MT7530_PPBV1_P          0x2014
#define   PPBV1_PVID(v)             extract32(v, 0, 12)
#define MT753X_PMCR_P           0x3000
#define   PMCR_IFG_XMIT(v)          ((v) << 18)
#define   PMCR_MAC_MODE             BIT(16)
#define   PMCR_FORCE_MODE           BIT(15)
#define   PMCR_MAC_TX_EN            BIT(14)
#define   PMCR_MAC_RX_EN            BIT(13)
#define   PMCR_BACKOFF_EN           BIT(9)
#define   PMCR_BACKPR_EN            BIT(8)
#define   PMCR_FORCE_RX_FC          BIT(5)
#define   PMCR_FORCE_TX_FC          BIT(4)
#define   PMCR_FORCE_SPEED(v)       extract32(v, 2, 2)
#define   PMCR_FORCE_FDX            BIT(1)
#define   PMCR_FORCE_LNK            BIT(0)
#define   PMCR_FORCE_EEE1G          BIT(7)
#define   PMCR_FORCE_EEE100         BIT(6)
/*
 * PMEEECR: LPI threshold (bits 15:4) and LPI_MODE_EN (bit 0: enter LPI at
 * once rather than after the threshold, as the MT7531 reference manual
 * describes the bit), wake-up times above. Stored: an emulated link
 * carries no LPI. Its reset value is not known here; it resets to 0.
 */
#define MT753X_PMEEECR_P        0x3004
/*
 * Out of reset a port's MAC is on and not forced: its link, speed and
 * duplex follow what the switch polls from the port's PHY (0x56300).
 * Sources: MediaTek's SDK raeth driver writes this value to PMCR_P5 for
 * "P5, AN" (port 5 on an internal PHY, auto-polling), against 0x5e33b
 * for "Force 1000"; U-Boot's mtk_eth (mt7530_setup()) writes PMCR only
 * for ports 5 and 6 and switches frames through ports 0-4 on the
 * silicon; mainline's mt7530_setup() forces the link down on every port
 * ("until they're enabled later"), keeping the other bits.
 */
#define   PMCR_RESET                (PMCR_IFG_XMIT(1) | PMCR_MAC_MODE | \
                                     PMCR_MAC_TX_EN | PMCR_MAC_RX_EN | \
                                     PMCR_BACKOFF_EN | PMCR_BACKPR_EN)
/*
 * Egress rate limit (source: MediaTek's switch utility, switch_fun.c's
 * _egress_rate_set()): CIR in 32 kbit/s steps and an enable; the other
 * bits it writes (ERLCR 10:8, 7, 3:0, and GERLCR, where it clears all
 * but 4:3) have no known meaning and are only stored.
 */
#define MT7530_ERLCR_P          0x1040
#define   ERLCR_CIR(v)              extract32(v, 16, 16)
#define   ERLCR_EN                  BIT(15)
#define   ERLCR_CIR_BPS             32000
#define MT7530_GERLCR           0x10e0
#define MT7530_PMSR_P           0x3008
#define   PMSR_EEE1G                BIT(7)
#define   PMSR_EEE100M              BIT(6)
#define   PMSR_SPEED_1000           (2 << 2)
#define   PMSR_SPEED_100            (1 << 2)
#define   PMSR_DPX                  BIT(1)
#define   PMSR_LINK                 BIT(0)
#define MT7530_GMACCR           0x30e0
#define   GMACCR_MAX_RX_JUMBO(v)    extract32(v, 2, 4)
#define   GMACCR_MAX_RX_PKT_LEN(v)  extract32(v, 0, 2)
#define MT7530_MIB_BASE         0x4000
#define MT7530_MIB_CCR          0x4fe0
#define   CCR_MIB_ENABLE            BIT(31)
#define MT7530_SYS_CTRL         0x7000
#define   SYS_CTRL_PHY_RST          BIT(2)
#define   SYS_CTRL_SW_RST           BIT(1)
#define   SYS_CTRL_REG_RST          BIT(0)
#define MT7530_SYS_INT_EN       0x7008
#define MT7530_SYS_INT_STS      0x700c
#define MT753X_TRAP             0x7800
#define MT753X_MTRAP            0x7804
#define MT7530_CREV             0x7ffc

/* The MT7620 GSW's own registers (the sources at the top) */
#define MT7620_VTIM             0x0100  /* 8 words: two 12-bit VIDs each */
#define MT7620_VTIM_END         0x0120
#define   MT7620_VTCR_SLOT(v)       extract32(v, 0, 4)
#define MT7620_GMACCR           0x3fe0
#define   MT7620_GMACCR_JUMBO       2   /* MAX_RX_PKT_LEN: JMB_LEN KiB */
#define MT7620_SMACCR0          0x3fe4
#define MT7620_SMACCR1          0x3fe8
#define MT7620_CKGCR            0x3ff0
/* OpenWrt's gsw_mt7620.h; what its bit 1 enables is kept, not acted on */
#define MT7620_MIB_CNT_EN       0x4000
#define MT7620_PPSC             0x7000  /* PHY polling: kept */
#define MT7620_PIAC             0x7004
#define   PIAC_ACS_ST               BIT(31)
#define   PIAC_REG(v)               extract32(v, 25, 5)
#define   PIAC_PHY(v)               extract32(v, 20, 5)
#define   PIAC_CMD(v)               extract32(v, 18, 2)
#define   PIAC_CMD_WRITE            1
#define   PIAC_CMD_READ             2
#define MT7620_IMR              0x7008
#define MT7620_ISR              0x700c
#define MT7620_GPC1             0x7014
#define   GPC1_PHY_BASE(v)          extract32(v, 16, 5)
#define   GPC1_PHY_DIS(v)           extract32(v, 24, 5)
#define MT7620_GPC2             0x701c
#define PHY_PAGE_REG            31
/* MIB, 0x4000 + port * 0x100 (gsw_mt7620_dsa.c's mt7620_gsw_mibs) */
#define MT7620_MIB_TX_PKTS      0x10    /* good 15:0, bad 31:16 */
#define MT7620_MIB_TX_BAD_BYTES 0x14
#define MT7620_MIB_TX_BYTES     0x18
#define MT7620_MIB_TX_DROP      0x1c    /* 15:0 */
#define MT7620_MIB_RX_PKTS      0x20    /* good 15:0, bad 31:16 */
#define MT7620_MIB_RX_BAD_BYTES 0x24
#define MT7620_MIB_RX_BYTES     0x28
#define MT7620_MIB_RX_DROP      0x2c    /* ingress 15:0, control 31:16 */
#define MT7620_MIB_RX_FILTER    0x30    /* filtered 15:0, ARL 31:16 */
/* gsw_mt7620_dsa.c's MT7620_MAX_FRAME_LEN */
#define MT7620_MAX_FRAME        2048

/*
 * HWTRAP: the strap pins the MCM of an MT7621 reports. Only the crystal
 * field (bits 10:9) is known to the drivers: 40 MHz, as the SoC's own
 * SYSCFG0 straps in this board. The other bits are not known from a dump
 * of real silicon; the driver only needs the register to be nonzero once
 * the core is out of reset.
 */
#define MT7530_HWTRAP_VALUE     (2 << 9)
#define MT7530_CREV_VALUE       ((0x7530 << 16) | 0x0001)

/* MIB counters: word index of each (offset / 4) */
/*
 * Pad and clock settings of ports 5 and 6 (mainline's mt7530.h:
 * MT7530_TOP_SIG_CTRL 0x7808, MT7530_IO_DRV_CR 0x7810, MT7530_P6ECR
 * 0x7830, the TRGMII_* block at 0x7a00-0x7a78, MT7530_P5RGMIIRXCR/TXCR
 * 0x7b00/0x7b04): delays, drive strength, interface mode of the MAC-MAC
 * links. The model's links to the frame engine are not electrical: the
 * registers are kept and read back.
 */
#define MT7530_PAD_BASE         0x7800
#define MT7530_PAD_END          0x7c00

#define MIB_TX_DROP             (0x00 / 4)
#define MIB_TX_UNICAST          (0x08 / 4)
#define MIB_TX_MULTICAST        (0x0c / 4)
#define MIB_TX_BROADCAST        (0x10 / 4)
#define MIB_TX_PKT_SZ_64        (0x30 / 4)
#define MIB_TX_BYTES            (0x48 / 4)
#define MIB_RX_DROP             (0x60 / 4)
#define MIB_RX_FILTERING        (0x64 / 4)
#define MIB_RX_UNICAST          (0x68 / 4)
#define MIB_RX_MULTICAST        (0x6c / 4)
#define MIB_RX_BROADCAST        (0x70 / 4)
#define MIB_RX_UNDER_SIZE       (0x7c / 4)
#define MIB_RX_OVER_SIZE        (0x84 / 4)
#define MIB_RX_PAUSE            (0x8c / 4)
#define MIB_RX_PKT_SZ_64        (0x90 / 4)
#define MIB_RX_BYTES            (0xa8 / 4)
#define MIB_RX_ARL_DROP         (0xb8 / 4)

/* STP states in SSP, two bits per FID */
#define STP_DISABLED            0
#define STP_BLOCKING            1
#define STP_LEARNING            2
#define STP_FORWARDING          3

/* Egress tag control (VAWD2 per port, PVC_EG_TAG) */
#define ETAG_UNTAG              0
#define ETAG_SWAP               1
#define ETAG_TAG                2
#define ETAG_STACK              3
/*
 * PVC_EG_TAG, "Incoming Port Egress Tag VLAN Attribution": set on the port
 * a frame enters by, it overrides the VLAN table's per-port egress tag
 * for every port the frame leaves by. DISABLED: the VLAN table decides;
 * CONSISTENT: leave as received. Mainline relies on this reading: the CPU
 * port is CONSISTENT "for packets received by the switch from the CPU"
 * (mt7530_port_set_vlan_aware()), VLAN-aware user ports DISABLED.
 */
#define PVC_EG_DISABLED         0
#define PVC_EG_CONSISTENT       1
#define PVC_EG_UNTAGGED         4
#define PVC_EG_SWAP             5
#define PVC_EG_TAGGED           6
#define PVC_EG_STACK            7
#define ETAG_AS_RECEIVED        0xff    /* egress tag unchanged */
#define ETAG_VLAN_TABLE         0xfe    /* the VLAN table's ETAG decides */

/* PVC_EG_TAG to the egress tag mode it forces; 2 and 3 are reserved */
static const uint8_t pvc_eg_etag[8] = {
    [PVC_EG_DISABLED] = ETAG_VLAN_TABLE,
    [PVC_EG_CONSISTENT] = ETAG_AS_RECEIVED,
    [2] = ETAG_AS_RECEIVED,
    [3] = ETAG_AS_RECEIVED,
    [PVC_EG_UNTAGGED] = ETAG_UNTAG,
    [PVC_EG_SWAP] = ETAG_SWAP,
    [PVC_EG_TAGGED] = ETAG_TAG,
    [PVC_EG_STACK] = ETAG_STACK,
};
#define VLAN_ATTR_TRANSPARENT   3
#define ACC_FRM_TAGGED          1
#define ACC_FRM_UNTAGGED        2

/* The MTK special tag (net/dsa/tag_mtk.c) */
#define MTK_TAG_LEN             4
#define MTK_TAG_XMIT_TPID_8100  1
#define MTK_TAG_XMIT_TPID_88A8  2

/* The PHYs' 1000BASE-T EEE mode (ralink_phy.c) */
#define PHY_EEE_1000T           BIT(2)

#define ETH_FCS_LEN             4
#define MT7530_FRAME_MIN        64      /* with FCS */

static bool mt7530_port_up(MT7530State *s, int port);

/* -- interrupts and PHYs ------------------------------------------------ */

static void mt7530_update_irq(MT7530State *s)
{
    uint32_t en = s->gsw ? ~s->imr : s->sys_int_en;

    trace_mt7530_irq(s->sys_int_sts, en);
    qemu_set_irq(s->irq, !!(s->sys_int_sts & en));
}

/* A PHY's link partner is there: the port has a backend (a cable), up */
static bool mt7530_phy_partner(void *opaque, int n)
{
    MT7530State *s = opaque;

    NetClientState *nc = qemu_get_queue(s->nic[n]);

    return !s->in_reset && nc->peer && !nc->link_down;
}

/* The PHY reports a link change through the switch's interrupt status */
static void mt7530_phy_link_changed(void *opaque, int n)
{
    MT7530State *s = opaque;

    if (n >= MT7530_NUM_PHYS) {
        return;     /* the GSW's external PHY: no interrupt of the switch's */
    }
    s->sys_int_sts |= BIT(n);
    mt7530_update_irq(s);
}

/* -- address table ------------------------------------------------------ */

static int64_t mt7530_now_ms(void)
{
    return qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL);
}

/* Ageing time in ms: (AGE_CNT + 1) * (AGE_UNIT + 1) seconds */
static int64_t mt7530_age_ms(MT7530State *s)
{
    if (s->aac & AAC_AGE_DIS) {
        return INT64_MAX;
    }
    return (int64_t)(AAC_AGE_CNT(s->aac) + 1) *
           (AAC_AGE_UNIT(s->aac) + 1) * 1000;
}

static bool mt7530_fdb_live(MT7530State *s, MT7530Fdb *e)
{
    if (!e->status) {
        return false;
    }
    if (e->status != FDB_STATIC &&
        mt7530_now_ms() - e->last_seen > mt7530_age_ms(s)) {
        e->status = 0;          /* aged out */
        return false;
    }
    return true;
}

static MT7530Fdb *mt7530_fdb_find(MT7530State *s, const uint8_t *mac,
                                  uint16_t key, bool ivl)
{
    int i;

    for (i = 0; i < MT7530_NUM_FDB; i++) {
        MT7530Fdb *e = &s->fdb[i];

        if (e->status && e->ivl == ivl && e->key == key &&
            !memcmp(e->mac, mac, 6) && mt7530_fdb_live(s, e)) {
            return e;
        }
    }
    return NULL;
}

static MT7530Fdb *mt7530_fdb_alloc(MT7530State *s)
{
    int i;

    for (i = 0; i < MT7530_NUM_FDB; i++) {
        if (!mt7530_fdb_live(s, &s->fdb[i])) {
            return &s->fdb[i];
        }
    }
    return NULL;
}

static void mt7530_fdb_to_regs(MT7530State *s, MT7530Fdb *e)
{
    s->tsra1 = ldl_be_p(e->mac);
    s->tsra2 = (e->mac[4] << 24) | (e->mac[5] << 16) |
               (e->ivl ? ATA2_IVL | e->key : e->key << 12);
    s->atrd = (e->age << 24) | (e->port_map << 4) | (e->status << 2);
}

static void mt7530_fdb_search(MT7530State *s, int from)
{
    int i;

    for (i = from; i < MT7530_NUM_FDB; i++) {
        if (mt7530_fdb_live(s, &s->fdb[i])) {
            s->search_pos = i;
            mt7530_fdb_to_regs(s, &s->fdb[i]);
            s->atc = deposit32(s->atc, 16, 12, i) | ATC_SRCH_HIT;
            return;
        }
    }
    s->search_pos = MT7530_NUM_FDB;
    s->atc |= ATC_SRCH_END;
}

static void mt7530_atc_command(MT7530State *s, uint32_t val)
{
    uint8_t mac[6];
    bool ivl = s->ata2 & ATA2_IVL;
    uint16_t key = ivl ? ATA2_CVID(s->ata2) : ATA2_FID(s->ata2);
    MT7530Fdb *e;
    int i;

    stl_be_p(mac, s->ata1);
    mac[4] = s->ata2 >> 24;
    mac[5] = s->ata2 >> 16;
    s->atc = val & ~(ATC_BUSY | ATC_SRCH_END | ATC_SRCH_HIT | ATC_INVALID);
    trace_mt7530_atc(ATC_CMD(val), mac[0], mac[1], mac[2], mac[3], mac[4],
                     mac[5], key, s->atwd);

    if (ATC_MAT(val)) {
        qemu_log_mask(LOG_UNIMP, "mt7530: ATC match mode %u\n",
                      ATC_MAT(val));
    }
    switch (ATC_CMD(val)) {
    case FDB_READ:
        e = mt7530_fdb_find(s, mac, key, ivl);
        if (e) {
            mt7530_fdb_to_regs(s, e);
        } else {
            s->atc |= ATC_INVALID;
        }
        break;
    case FDB_WRITE:
        e = mt7530_fdb_find(s, mac, key, ivl);
        if (!ATWD_STATUS(s->atwd)) {
            if (e) {
                e->status = 0;
            }
            break;
        }
        if (!e) {
            e = mt7530_fdb_alloc(s);
            if (!e) {
                qemu_log_mask(LOG_GUEST_ERROR, "mt7530: address table "
                              "full\n");
                s->atc |= ATC_INVALID;
                break;
            }
        }
        memcpy(e->mac, mac, 6);
        e->key = key;
        e->ivl = ivl;
        e->port_map = ATWD_PORT_MAP(s->atwd);
        e->status = ATWD_STATUS(s->atwd);
        e->age = ATWD_AGE(s->atwd);
        e->last_seen = mt7530_now_ms();
        break;
    case FDB_FLUSH:
        /* Match mode 0 (the MAC table): every dynamic entry */
        for (i = 0; i < MT7530_NUM_FDB; i++) {
            if (s->fdb[i].status != FDB_STATIC) {
                s->fdb[i].status = 0;
            }
        }
        break;
    case FDB_START:
        mt7530_fdb_search(s, 0);
        break;
    case FDB_NEXT:
        mt7530_fdb_search(s, s->search_pos + 1);
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "mt7530: ATC command %u\n",
                      ATC_CMD(val));
        break;
    }
}

/*
 * An ACL table function of VTCR (its index in VTCR's VID field); false if
 * @val is not one. The GSW's ACL is not sourced: not modelled there.
 */
static bool mt7530_acl_command(MT7530State *s, uint32_t val)
{
    unsigned func = VTCR_FUNC(val), idx = VTCR_VID(val);
    uint32_t (*ent)[2];
    const char *name;
    unsigned size;
    bool wr;

    switch (func) {
    case VTCR_RD_ACL_PATTERN:
    case VTCR_WR_ACL_PATTERN:
        ent = s->acl_pat;
        size = MT7530_ACL_PATTERNS;
        name = "pattern";
        break;
    case VTCR_RD_ACL_MASK:
    case VTCR_WR_ACL_MASK:
        ent = s->acl_mask;
        size = MT7530_ACL_RULES;
        name = "rule mask";
        break;
    case VTCR_RD_ACL_ACTION:
    case VTCR_WR_ACL_ACTION:
        ent = s->acl_act;
        size = MT7530_ACL_RULES;
        name = "rule action";
        break;
    case VTCR_WR_ACL_TRTCM:
    case VTCR_WR_ACL_RATE:
        if (s->gsw) {
            return false;
        }
        qemu_log_mask(LOG_UNIMP, "mt7530: ACL %s table (VTCR function "
                      "%u)\n", func == VTCR_WR_ACL_RATE ? "rate" : "trTCM",
                      func);
        return true;
    default:
        return false;
    }
    if (s->gsw) {
        return false;
    }
    wr = func == VTCR_WR_ACL_PATTERN || func == VTCR_WR_ACL_MASK ||
         func == VTCR_WR_ACL_ACTION;
    if (idx >= size) {
        qemu_log_mask(LOG_GUEST_ERROR, "mt7530: ACL %s table entry %u of "
                      "%u\n", name, idx, size);
        s->vtcr |= VTCR_INVALID;
        return true;
    }
    if (!wr) {
        s->vawd1 = ent[idx][0];
        s->vawd2 = ent[idx][1];
        return true;
    }
    trace_mt7530_acl_write(name, idx, s->vawd1, s->vawd2);
    if (ent == s->acl_pat && (s->vawd2 & ACL_CMP_SEL)) {
        qemu_log_mask(LOG_UNIMP, "mt7530: ACL pattern %u: CMP_SEL\n", idx);
    }
    if (ent == s->acl_pat && (s->vawd2 & ACL_TABLE_EN) &&
        ACL_OFST_TP(s->vawd2) > ACL_IPV6_HEADER) {
        qemu_log_mask(LOG_GUEST_ERROR, "mt7530: ACL pattern %u: offset "
                      "type %u\n", idx, ACL_OFST_TP(s->vawd2));
    }
    if (ent == s->acl_act && ((s->vawd1 & ACL_UNMODELLED) || s->vawd2 ||
        (ACL_PORT_FW(s->vawd1) && ACL_PORT_FW(s->vawd1) < 4))) {
        qemu_log_mask(LOG_UNIMP, "mt7530: ACL rule %u action VAWD1 0x%08x "
                      "VAWD2 0x%08x: only PORT_FW 0/4-7, MIR_EN, PORT_EN "
                      "and EG_TAG act\n", idx, s->vawd1, s->vawd2);
    }
    ent[idx][0] = s->vawd1;
    ent[idx][1] = s->vawd2;
    return true;
}

static void mt7530_vtcr_command(MT7530State *s, uint32_t val)
{
    MT7530Vlan *v = &s->vlan[s->gsw ? MT7620_VTCR_SLOT(val) : VTCR_VID(val)];

    s->vtcr = val & ~(VTCR_BUSY | VTCR_INVALID);
    trace_mt7530_vtcr(VTCR_FUNC(val), VTCR_VID(val), s->vawd1, s->vawd2);
    if (mt7530_acl_command(s, val)) {
        return;
    }
    switch (VTCR_FUNC(val)) {
    case VTCR_RD_VID:
        /*
         * An entry that is not valid reads back with VAWD1's VALID bit
         * clear; VTCR_INVALID is not set for it: mainline's
         * mt7530_hw_vlan_update() reads every VID before it first writes
         * it and would log "read VTCR invalid" on every board at boot,
         * which real boards do not. What sets the bit on the silicon is
         * not documented here; the model never sets it.
         */
        s->vawd1 = v->vawd1;
        s->vawd2 = v->vawd2;
        break;
    case VTCR_WR_VID:
        v->vawd1 = s->vawd1;
        v->vawd2 = s->vawd2;
        break;
    case VTCR_INVALID_VID:
        v->vawd1 &= ~VAWD1_VALID;
        break;
    default:
        qemu_log_mask(LOG_UNIMP, "mt7530: VTCR function %u\n",
                      VTCR_FUNC(val));
        break;
    }
}

/*
 * The VLAN table's entry for @vid. The GSW's is the first of its 16 slots
 * whose VTIM names @vid and whose entry is valid (which slot wins when
 * two valid ones name a VID is not known here), else an entry never
 * written: invalid.
 */
static MT7530Vlan *mt7530_vlan(MT7530State *s, uint16_t vid)
{
    int i;

    if (!s->gsw) {
        return &s->vlan[vid];
    }
    for (i = 0; i < MT7620_NUM_VLANS; i++) {
        if (extract32(s->vtim[i / 2], (i & 1) * 12, 12) == vid &&
            (s->vlan[i].vawd1 & VAWD1_VALID)) {
            return &s->vlan[i];
        }
    }
    return &s->vlan[MT7620_NUM_VLANS];
}

/* -- the register file -------------------------------------------------- */

/*
 * The switch core's registers and tables back to their reset values, as
 * SYS_CTRL's SW_RST and REG_RST do; the PHYs are left to
 * mt7530_reset_phys().
 */
static void mt7530_reset_core(MT7530State *s)
{
    int p;

    s->agc = 0;
    s->mfc = 0xffffff00;        /* flood everything everywhere */
    s->bpc = s->rgac1 = s->rgac2 = 0;
    s->ata1 = s->ata2 = s->atwd = s->atc = 0;
    s->tsra1 = s->tsra2 = s->atrd = 0;
    s->vtcr = s->vawd1 = s->vawd2 = 0;
    s->aac = (0x95 << 12) | 1;  /* 300 s, as the datasheet's default */
    s->mtrap = 0;
    s->sys_int_en = s->sys_int_sts = 0;
    s->gmaccr = 0;
    s->mib_ccr = CCR_MIB_ENABLE;
    for (p = 0; p < MT7530_NUM_PORTS; p++) {
        s->ssp[p] = 0xffffffff;         /* forwarding in every FID */
        s->pcr[p] = 0xff << 16;         /* matrix: all ports */
        s->psc[p] = 0;
        s->pvc[p] = 0x81000000;
        s->ppbv1[p] = 0x10001;
        s->pmcr[p] = PMCR_RESET;
        s->pmeeecr[p] = 0;
        s->erlcr[p] = 0;
        memset(s->mib[p], 0, sizeof(s->mib[p]));
    }
    memset(s->vlan, 0, sizeof(s->vlan));
    memset(s->fdb, 0, sizeof(s->fdb));
    s->gerlcr = 0;
    memset(s->pad, 0, sizeof(s->pad));
    memset(s->vtim, 0, sizeof(s->vtim));
    memset(s->acl_pat, 0, sizeof(s->acl_pat));
    memset(s->acl_mask, 0, sizeof(s->acl_mask));
    memset(s->acl_act, 0, sizeof(s->acl_act));
    s->ppsc = s->piac = s->gpc1 = s->gpc2 = 0;
    s->smaccr0 = s->smaccr1 = s->ckgcr = s->mib_cnt_en = 0;
    s->imr = ~0u;               /* every interrupt masked */
    s->search_pos = 0;
    g_hash_table_remove_all(s->other);
}

/* The internal PHYs back to their defaults, their links down */
static void mt7530_reset_phys(MT7530State *s)
{
    int i;

    for (i = 0; i < s->num_nics; i++) {
        ralink_phy_reset(&s->phy[i]);
        s->phy[i].link = false;
    }
}

static uint32_t mt7530_pmsr(MT7530State *s, int p)
{
    uint32_t pmcr = s->pmcr[p];

    if (pmcr & PMCR_FORCE_MODE) {
        return (pmcr & PMCR_FORCE_LNK ? PMSR_LINK : 0) |
               (pmcr & PMCR_FORCE_FDX ? PMSR_DPX : 0) |
               (PMCR_FORCE_SPEED(pmcr) << 2) |
               (pmcr & PMCR_FORCE_EEE1G ? PMSR_EEE1G : 0) |
               (pmcr & PMCR_FORCE_EEE100 ? PMSR_EEE100M : 0) |
               (pmcr & (PMCR_FORCE_RX_FC | PMCR_FORCE_TX_FC));
    }
    if (p < s->num_nics && ralink_phy_link(&s->phy[p])) {
        return PMSR_LINK | PMSR_DPX |
               (s->phy[p].model->gigabit ? PMSR_SPEED_1000 : PMSR_SPEED_100) |
               (ralink_phy_eee(&s->phy[p]) & PHY_EEE_1000T ? PMSR_EEE1G : 0);
    }
    return 0;
}

/* The GSW's MIB counters, from the model's (MT7530) ones */
static uint32_t mt7620_mib_read(MT7530State *s, int p, unsigned off)
{
    const uint32_t *m = s->mib[p];

    switch (off) {
    case MT7620_MIB_TX_PKTS:
        return (m[MIB_TX_UNICAST] + m[MIB_TX_MULTICAST] +
                m[MIB_TX_BROADCAST]) & 0xffff;
    case MT7620_MIB_TX_BYTES:
        return m[MIB_TX_BYTES];
    case MT7620_MIB_TX_DROP:
        return m[MIB_TX_DROP] & 0xffff;
    case MT7620_MIB_RX_PKTS:
        /* Bad: the runts and the frames over the length limit */
        return deposit32(m[MIB_RX_UNICAST] + m[MIB_RX_MULTICAST] +
                         m[MIB_RX_BROADCAST], 16, 16,
                         m[MIB_RX_UNDER_SIZE] + m[MIB_RX_OVER_SIZE]);
    case MT7620_MIB_RX_BYTES:
        return m[MIB_RX_BYTES];
    case MT7620_MIB_RX_DROP:
        /* "Control" drops: the MAC control frames that end in the MAC */
        return deposit32(m[MIB_RX_DROP] & 0xffff, 16, 16, m[MIB_RX_PAUSE]);
    case MT7620_MIB_RX_FILTER:
        return deposit32(m[MIB_RX_FILTERING] & 0xffff, 16, 16,
                         m[MIB_RX_ARL_DROP]);
    case MT7620_MIB_TX_BAD_BYTES:
    case MT7620_MIB_RX_BAD_BYTES:
        return 0;               /* no bad frames on an emulated wire */
    }
    qemu_log_mask(LOG_UNIMP, "mt7620-gsw: read of MIB counter 0x%02x of "
                  "port %d\n", off, p);
    return 0;
}

/*
 * A PHY access through PIAC: the internal PHYs at GPC1's base address and
 * after it, port 5's PHY outside the SoC at its own address (the MDIO
 * pins are the same bus: OpenWrt's mt7620_mdio_read() reaches both)
 */
static void mt7620_piac(MT7530State *s, uint32_t val)
{
    int n = PIAC_PHY(val) - GPC1_PHY_BASE(s->gpc1);
    bool there = n >= 0 && n < MT7530_NUM_PHYS &&
                 !(GPC1_PHY_DIS(s->gpc1) & BIT(n));
    uint16_t data = val & 0xffff;

    if (PIAC_PHY(val) == s->ext_phy_addr) {
        if (there) {
            qemu_log_mask(LOG_GUEST_ERROR, "mt7620-gsw: internal PHY %d "
                          "and port 5's PHY both at MDIO address %u: port 5's "
                          "answers\n", n, s->ext_phy_addr);
        }
        n = MT7620_EXT_PORT;
        there = true;
    }
    switch (PIAC_CMD(val)) {
    case PIAC_CMD_WRITE:
        /*
         * Register 31, the page, is one for the five PHYs: OpenWrt's
         * mt7620_ephy_init() and U-Boot's mt7620-eth select a page through
         * PHY 1 and then write the paged registers of PHYs 0-4
         */
        if (there && n < MT7530_NUM_PHYS && PIAC_REG(val) == PHY_PAGE_REG) {
            for (n = 0; n < MT7530_NUM_PHYS; n++) {
                ralink_phy_write(&s->phy[n], PHY_PAGE_REG, data);
            }
        } else if (there) {
            ralink_phy_write(&s->phy[n], PIAC_REG(val), data);
        }
        break;
    case PIAC_CMD_READ:
        data = there ? ralink_phy_read(&s->phy[n], PIAC_REG(val)) : 0xffff;
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "mt7620-gsw: PIAC command %u\n",
                      PIAC_CMD(val));
        break;
    }
    trace_mt7620_piac(PIAC_CMD(val), PIAC_PHY(val), PIAC_REG(val), data);
    s->piac = deposit32(val & ~PIAC_ACS_ST, 0, 16, data);
}

/*
 * The GSW's own registers and the MT7530 ones it does not have: true if
 * @reg is one (read into @val)
 */
static bool mt7620_reg_read(MT7530State *s, uint32_t reg, uint32_t *val)
{
    if (reg >= MT7620_VTIM && reg < MT7620_VTIM_END) {
        *val = s->vtim[(reg - MT7620_VTIM) / 4];
        return true;
    }
    if (reg >= MT7530_MIB_BASE && reg < MT7530_MIB_BASE + 0x700 &&
        reg != MT7620_MIB_CNT_EN) {
        *val = mt7620_mib_read(s, (reg >> 8) & 0xf, reg & 0xff);
        return true;
    }
    switch (reg) {
    case MT7620_GMACCR:
        *val = s->gmaccr;
        return true;
    case MT7620_SMACCR0:
        *val = s->smaccr0;
        return true;
    case MT7620_SMACCR1:
        *val = s->smaccr1;
        return true;
    case MT7620_CKGCR:
        *val = s->ckgcr;
        return true;
    case MT7620_MIB_CNT_EN:
        *val = s->mib_cnt_en;
        return true;
    case MT7620_PPSC:
        *val = s->ppsc;
        return true;
    case MT7620_PIAC:
        *val = s->piac;
        return true;
    case MT7620_IMR:
        *val = s->imr;
        return true;
    case MT7620_ISR:
        *val = s->sys_int_sts;
        return true;
    case MT7620_GPC1:
        *val = s->gpc1;
        return true;
    case MT7620_GPC2:
        *val = s->gpc2;
        return true;
    case MT7530_GMACCR:
    case MT7530_MIB_CCR:
        break;
    default:
        if (reg < MT7530_SYS_CTRL) {
            return false;
        }
    }
    qemu_log_mask(LOG_UNIMP, "mt7620-gsw: read of register 0x%04x\n", reg);
    *val = GPOINTER_TO_UINT(g_hash_table_lookup(s->other,
                                                GUINT_TO_POINTER(reg)));
    return true;
}

static bool mt7620_reg_write(MT7530State *s, uint32_t reg, uint32_t val)
{
    if (reg >= MT7620_VTIM && reg < MT7620_VTIM_END) {
        s->vtim[(reg - MT7620_VTIM) / 4] = val;
        return true;
    }
    switch (reg) {
    case MT7620_GMACCR:
        s->gmaccr = val;
        return true;
    case MT7620_SMACCR0:
        s->smaccr0 = val;
        return true;
    case MT7620_SMACCR1:
        s->smaccr1 = val;
        return true;
    case MT7620_CKGCR:
        s->ckgcr = val;
        return true;
    case MT7620_MIB_CNT_EN:
        s->mib_cnt_en = val;
        return true;
    case MT7620_PPSC:
        s->ppsc = val;
        return true;
    case MT7620_PIAC:
        if (val & PIAC_ACS_ST) {
            mt7620_piac(s, val);
        } else {
            s->piac = val;
        }
        return true;
    case MT7620_IMR:
        s->imr = val;
        mt7530_update_irq(s);
        return true;
    case MT7620_ISR:
        s->sys_int_sts &= ~val;
        mt7530_update_irq(s);
        return true;
    case MT7620_GPC1:
        s->gpc1 = val;
        return true;
    case MT7620_GPC2:
        s->gpc2 = val;
        return true;
    case MT7530_GMACCR:
    case MT7530_MIB_CCR:
        break;
    default:
        if (reg >= MT7530_MIB_BASE && reg < MT7530_MIB_BASE + 0x700) {
            qemu_log_mask(LOG_GUEST_ERROR, "mt7620-gsw: write to MIB "
                          "counter 0x%04x\n", reg);
            return true;
        }
        if (reg < MT7530_SYS_CTRL) {
            return false;
        }
    }
    qemu_log_mask(LOG_UNIMP, "mt7620-gsw: write of 0x%x to register "
                  "0x%04x\n", val, reg);
    g_hash_table_insert(s->other, GUINT_TO_POINTER(reg),
                        GUINT_TO_POINTER(val));
    return true;
}

static uint32_t mt7530_reg_read(MT7530State *s, uint32_t reg)
{
    int p = (reg >> 8) & 0xf;
    uint32_t val;

    if (s->gsw && mt7620_reg_read(s, reg, &val)) {
        return val;
    }

    if (reg >= MT7530_MIB_BASE && reg < MT7530_MIB_BASE + 0x700) {
        unsigned w = (reg & 0xff) / 4;

        return w < MT7530_NUM_MIB ? s->mib[p][w] : 0;
    }
    if (reg >= 0x2000 && reg < 0x2700) {
        switch (reg & ~0xf00) {
        case MT7530_SSP_P:
            return s->ssp[p];
        case MT7530_PCR_P:
            return s->pcr[p];
        case MT7530_PSC_P:
            return s->psc[p];
        case MT7530_PVC_P:
            return s->pvc[p];
        case MT7530_PPBV1_P:
            return s->ppbv1[p];
        }
    } else if (!s->gsw && reg >= 0x1000 && reg < 0x1700 &&
               (reg & ~0xf00) == MT7530_ERLCR_P) {
        return s->erlcr[p];
    } else if (reg >= 0x3000 && reg < 0x3700) {
        switch (reg & ~0xf00) {
        case MT753X_PMCR_P:
            return s->pmcr[p];
        case MT753X_PMEEECR_P:
            return s->pmeeecr[p];
        case MT7530_PMSR_P:
            return mt7530_pmsr(s, p);
        }
    }
    switch (reg) {
    case MT7530_GERLCR:
        if (!s->gsw) {
            return s->gerlcr;
        }
        break;
    case MT753X_AGC:
        return s->agc;
    case MT753X_MFC:
        return s->mfc;
    case MT753X_BPC:
        return s->bpc;
    case MT753X_RGAC1:
        return s->rgac1;
    case MT753X_RGAC2:
        return s->rgac2;
    case MT7530_ATA1:
        return s->ata1;
    case MT7530_ATA2:
        return s->ata2;
    case MT7530_ATWD:
        return s->atwd;
    case MT7530_ATC:
        return s->atc;
    case MT7530_TSRA1:
        return s->tsra1;
    case MT7530_TSRA2:
        return s->tsra2;
    case MT7530_ATRD:
        return s->atrd;
    case MT7530_VTCR:
        return s->vtcr;
    case MT7530_VAWD1:
        return s->vawd1;
    case MT7530_VAWD2:
        return s->vawd2;
    case MT7530_AAC:
        return s->aac;
    case MT7530_GMACCR:
        return s->gmaccr;
    case MT7530_MIB_CCR:
        return s->mib_ccr;
    case MT7530_SYS_CTRL:
        return 0;
    case MT7530_SYS_INT_EN:
        return s->sys_int_en;
    case MT7530_SYS_INT_STS:
        return s->sys_int_sts;
    case MT753X_TRAP:
        return s->in_reset ? 0 : MT7530_HWTRAP_VALUE;
    case MT753X_MTRAP:
        return s->mtrap;
    case MT7530_CREV:
        return MT7530_CREV_VALUE;
    }
    if (reg >= MT7530_PAD_BASE && reg < MT7530_PAD_END) {
        return s->pad[(reg - MT7530_PAD_BASE) / 4];
    }
    qemu_log_mask(LOG_UNIMP, "mt7530: read of register 0x%04x\n", reg);
    return GPOINTER_TO_UINT(g_hash_table_lookup(s->other,
                                                GUINT_TO_POINTER(reg)));
}

static void mt7530_reg_write(MT7530State *s, uint32_t reg, uint32_t val)
{
    int p = (reg >> 8) & 0xf;
    int i;

    if (s->gsw && mt7620_reg_write(s, reg, val)) {
        return;
    }

    if (reg >= 0x2000 && reg < 0x2700) {
        switch (reg & ~0xf00) {
        case MT7530_SSP_P:
            s->ssp[p] = val;
            return;
        case MT7530_PCR_P:
            s->pcr[p] = val;
            return;
        case MT7530_PSC_P:
            s->psc[p] = val;
            return;
        case MT7530_PVC_P:
            s->pvc[p] = val;
            return;
        case MT7530_PPBV1_P:
            s->ppbv1[p] = val;
            return;
        }
    } else if (!s->gsw && reg >= 0x1000 && reg < 0x1700 &&
               (reg & ~0xf00) == MT7530_ERLCR_P) {
        if ((val & ERLCR_EN) && !ERLCR_CIR(val)) {
            qemu_log_mask(LOG_GUEST_ERROR, "mt7530: port %d's egress rate "
                          "limit on with a rate of 0: not limited\n", p);
        }
        trace_mt7530_erlcr(p, !!(val & ERLCR_EN),
                           (uint64_t)ERLCR_CIR(val) * ERLCR_CIR_BPS);
        s->erlcr[p] = val;
        return;
    } else if (reg >= 0x3000 && reg < 0x3700) {
        switch (reg & ~0xf00) {
        case MT753X_PMCR_P:
            s->pmcr[p] = val;
            return;
        case MT753X_PMEEECR_P:
            s->pmeeecr[p] = val;
            return;
        case MT7530_PMSR_P:
            qemu_log_mask(LOG_GUEST_ERROR, "mt7530: write to read-only "
                          "register 0x%04x\n", reg);
            return;
        }
    }
    switch (reg) {
    case MT7530_GERLCR:
        if (!s->gsw) {
            s->gerlcr = val;
            return;
        }
        break;
    case MT753X_AGC:
        s->agc = val;
        return;
    case MT753X_MFC:
        s->mfc = val;
        return;
    case MT753X_BPC:
        s->bpc = val;
        return;
    case MT753X_RGAC1:
        s->rgac1 = val;
        return;
    case MT753X_RGAC2:
        s->rgac2 = val;
        return;
    case MT7530_ATA1:
        s->ata1 = val;
        return;
    case MT7530_ATA2:
        s->ata2 = val;
        return;
    case MT7530_ATWD:
        s->atwd = val;
        return;
    case MT7530_ATC:
        if (val & ATC_BUSY) {
            mt7530_atc_command(s, val);
        }
        return;
    case MT7530_VTCR:
        if (val & VTCR_BUSY) {
            mt7530_vtcr_command(s, val);
        }
        return;
    case MT7530_VAWD1:
        s->vawd1 = val;
        return;
    case MT7530_VAWD2:
        s->vawd2 = val;
        return;
    case MT7530_AAC:
        s->aac = val;
        return;
    case MT7530_GMACCR:
        s->gmaccr = val;
        return;
    case MT7530_MIB_CCR:
        /* Writing with the enable bit clear flushes the counters */
        if (!(val & CCR_MIB_ENABLE)) {
            memset(s->mib, 0, sizeof(s->mib));
        }
        s->mib_ccr = val;
        return;
    case MT7530_SYS_CTRL:
        if (val & (SYS_CTRL_SW_RST | SYS_CTRL_REG_RST)) {
            uint32_t en = s->sys_int_en;

            mt7530_reset_core(s);
            s->sys_int_en = en;
        }
        if (val & SYS_CTRL_PHY_RST) {
            for (i = 0; i < MT7530_NUM_PHYS; i++) {
                ralink_phy_reset(&s->phy[i]);
            }
        }
        return;
    case MT7530_SYS_INT_EN:
        s->sys_int_en = val;
        mt7530_update_irq(s);
        return;
    case MT7530_SYS_INT_STS:
        s->sys_int_sts &= ~val;
        mt7530_update_irq(s);
        return;
    case MT753X_MTRAP:
        s->mtrap = val;
        return;
    case MT753X_TRAP:
    case MT7530_CREV:
        qemu_log_mask(LOG_GUEST_ERROR, "mt7530: write to read-only "
                      "register 0x%04x\n", reg);
        return;
    }
    if (reg >= MT7530_PAD_BASE && reg < MT7530_PAD_END) {
        s->pad[(reg - MT7530_PAD_BASE) / 4] = val;
        return;
    }
    qemu_log_mask(LOG_UNIMP, "mt7530: write of 0x%x to register 0x%04x\n",
                  val, reg);
    g_hash_table_insert(s->other, GUINT_TO_POINTER(reg),
                        GUINT_TO_POINTER(val));
}

/* -- MDIO --------------------------------------------------------------- */

uint16_t mt7530_mdio_read(MT7530State *s, unsigned addr, unsigned reg)
{
    uint32_t val;

    if (addr < MT7530_NUM_PHYS) {
        return ralink_phy_read(&s->phy[addr], reg);
    }
    if (addr != MT7530_MDIO_ADDR) {
        return 0xffff;          /* nobody there: the bus floats high */
    }
    if (reg == 0x1f) {
        return s->page;
    }
    if (reg == 0x10) {
        return s->rd_hi;
    }
    if (reg > 0xf) {
        return 0;
    }
    val = mt7530_reg_read(s, (s->page << 6) | (reg << 2));
    s->rd_hi = val >> 16;
    return val & 0xffff;
}

void mt7530_mdio_write(MT7530State *s, unsigned addr, unsigned reg,
                       uint16_t val)
{
    if (addr < MT7530_NUM_PHYS) {
        ralink_phy_write(&s->phy[addr], reg, val);
        return;
    }
    if (addr != MT7530_MDIO_ADDR) {
        return;
    }
    if (reg == 0x1f) {
        s->page = val & 0x3ff;
    } else if (reg == 0x10) {
        mt7530_reg_write(s, (s->page << 6) | (s->wr_lo_reg << 2),
                         (val << 16) | s->wr_lo);
    } else if (reg <= 0xf) {
        s->wr_lo = val;
        s->wr_lo_reg = reg;
    }
}

uint16_t mt7530_mdio_c45_read(MT7530State *s, unsigned addr, unsigned devad,
                              unsigned reg)
{
    qemu_log_mask(LOG_UNIMP, "mt7530: MDIO C45 read %u.%u.%u\n", addr,
                  devad, reg);
    return 0xffff;
}

void mt7530_mdio_c45_write(MT7530State *s, unsigned addr, unsigned devad,
                           unsigned reg, uint16_t val)
{
    qemu_log_mask(LOG_UNIMP, "mt7530: MDIO C45 write %u.%u.%u\n", addr,
                  devad, reg);
}

/* -- forwarding --------------------------------------------------------- */

/* The MAC says link, and on a front port the PHY has one: frames cross */
static bool mt7530_port_up(MT7530State *s, int port)
{
    return !s->in_reset && (mt7530_pmsr(s, port) & PMSR_LINK) &&
           (port >= s->num_nics || ralink_phy_link(&s->phy[port]));
}

static void mib_add64(uint32_t *mib, int w, uint64_t v)
{
    uint64_t cur = ((uint64_t)mib[w + 1] << 32) | mib[w];

    cur += v;
    mib[w] = cur;
    mib[w + 1] = cur >> 32;
}

static int mib_size_bin(size_t len)
{
    return len <= 64 ? 0 : len <= 127 ? 1 : len <= 255 ? 2 :
           len <= 511 ? 3 : len <= 1023 ? 4 : 5;
}

static void mt7530_count(MT7530State *s, int port, bool rx,
                         const uint8_t *buf, size_t len)
{
    uint32_t *mib = s->mib[port];
    size_t wire = MAX(len + ETH_FCS_LEN, MT7530_FRAME_MIN);
    int cast;

    if (!(s->mib_ccr & CCR_MIB_ENABLE)) {
        return;
    }
    cast = is_broadcast_ether_addr(buf) ? 2 :
           is_multicast_ether_addr(buf) ? 1 : 0;
    if (rx) {
        mib[MIB_RX_UNICAST + cast]++;
        mib[MIB_RX_PKT_SZ_64 + mib_size_bin(wire)]++;
        mib_add64(mib, MIB_RX_BYTES, wire);
    } else {
        mib[MIB_TX_UNICAST + cast]++;
        mib[MIB_TX_PKT_SZ_64 + mib_size_bin(wire)]++;
        mib_add64(mib, MIB_TX_BYTES, wire);
    }
}

static int mt7530_max_frame(MT7530State *s)
{
    static const int lens[] = { 1522, 1536, 1552 };
    unsigned sel = GMACCR_MAX_RX_PKT_LEN(s->gmaccr);

    /*
     * The GSW: MAX_RX_PKT_LEN 2 takes JMB_LEN KiB (OpenWrt's
     * gsw_mt7620.h: GMACCR_JMB_ENABLE 2), up to its 2 KiB; what 3 takes
     * is not known here (the MT7530's 1552 is assumed)
     */
    if (s->gsw) {
        if (sel == MT7620_GMACCR_JUMBO) {
            return MIN(MAX(GMACCR_MAX_RX_JUMBO(s->gmaccr), 1) * 1024,
                       MT7620_MAX_FRAME);
        }
        return lens[sel == 3 ? 2 : sel];
    }

    if (sel < 3) {
        return lens[sel];
    }
    return MAX(GMACCR_MAX_RX_JUMBO(s->gmaccr), 2) * 1024;
}

/* Which CPU port trapped frames go to */
static int mt7530_trap_port(MT7530State *s)
{
    return (s->mfc & MFC_CPU_EN) ? MFC_CPU_PORT(s->mfc) : MT7530_CPU_PORT;
}

/* Link-local 01:80:c2:00:00:0x: the port-forward field of BPC/RGACx */
static int mt7530_link_local_fw(MT7530State *s, const uint8_t *da)
{
    static const uint8_t prefix[5] = { 0x01, 0x80, 0xc2, 0x00, 0x00 };

    if (memcmp(da, prefix, 5) || da[5] > 0x0f) {
        return -1;
    }
    switch (da[5]) {
    case 0x00:
        return RGAC_PORT_FW_LO(s->bpc);
    case 0x01:
        return RGAC_PORT_FW_LO(s->rgac1);
    case 0x02:
        return RGAC_PORT_FW_HI(s->rgac1);
    case 0x03:
        return RGAC_PORT_FW_LO(s->rgac2);
    case 0x0e:
        return RGAC_PORT_FW_HI(s->rgac2);
    default:
        return TO_CPU_FW_SYSTEM_DEFAULT;
    }
}

/*
 * -- the front ports' links: their speed on the virtual clock ------------
 *
 * A frame leaves a front port at once when the link is idle, else waits
 * in the port's buffer (MT7530_EGRESS_BUF bytes; beyond, dropped and
 * counted as TxDrop) for the link to finish the frames before it, each
 * taking its wire time (with FCS, preamble and inter-frame gap) at the
 * speed the port's MAC has (PMSR). Frames from a CPU port filling the
 * buffer past MT7530_EGRESS_XOFF make each CPU port whose MAC sends
 * pause frames (PMCR's TX flow control) pause the frame engine's GMAC,
 * until the buffer is down to MT7530_EGRESS_XON: the 802.3x flow
 * control mtk_eth_soc and the MT7530 drivers set up on the CPU link.
 * The MT7620's GSW keeps its links without a speed (not modelled).
 */
static uint64_t mt7530_link_bps(MT7530State *s, int port)
{
    switch (extract32(mt7530_pmsr(s, port), 2, 2)) {
    case 0:
        return 10 * 1000 * 1000;
    case 1:
        return 100 * 1000 * 1000;
    default:
        return 1000 * 1000 * 1000;
    }
}

/*
 * How long port @port is busy with a frame of @len bytes: its wire time,
 * or with the egress rate limit on (ERLCR), the time the limit's rate
 * takes for it if longer. What the limit counts of a frame is not known:
 * here the frame with its FCS, as the QDMA's rates count; nor is its
 * burst: here none, the limit spaces every frame.
 */
static int64_t mt7530_wire_ns(MT7530State *s, int port, size_t len)
{
    uint64_t frame = MAX(len + ETH_FCS_LEN, MT7530_FRAME_MIN);
    uint64_t cir = ERLCR_CIR(s->erlcr[port]);
    int64_t ns = muldiv64((frame + 8 + 12) * 8, NANOSECONDS_PER_SECOND,
                          mt7530_link_bps(s, port));

    if ((s->erlcr[port] & ERLCR_EN) && cir) {
        ns = MAX(ns, muldiv64(frame * 8, NANOSECONDS_PER_SECOND,
                              cir * ERLCR_CIR_BPS));
    }
    return ns;
}

static bool mt7530_is_cpu_port(int port)
{
    return port == MT7530_CPU_PORT || port == MT7530_GMAC1_PORT;
}

/* Whether some front port asks CPU port @cpu to pause */
static bool mt7530_cpu_xoff(MT7530State *s, int cpu)
{
    int p;

    for (p = 0; p < s->num_nics; p++) {
        if (s->egress[p].xoff & BIT(cpu)) {
            return true;
        }
    }
    return false;
}

/* Port @port's buffer moved: pause the CPU ports' MACs, or let them go */
static void mt7530_egress_flow(MT7530State *s, int port)
{
    MT7530Egress *e = &s->egress[port];
    int cpu;

    for (cpu = MT7530_GMAC1_PORT; cpu <= MT7530_CPU_PORT; cpu++) {
        bool fc = mt7530_pmsr(s, cpu) & PMCR_FORCE_TX_FC;
        bool was = mt7530_cpu_xoff(s, cpu), now;

        if (fc && e->cpu_bytes > MT7530_EGRESS_XOFF) {
            e->xoff |= BIT(cpu);
        } else if (!fc || e->cpu_bytes <= MT7530_EGRESS_XON) {
            e->xoff &= ~BIT(cpu);
        }
        now = mt7530_cpu_xoff(s, cpu);
        if (was != now) {
            trace_mt7530_egress_pause(port, cpu, now, e->bytes);
            if (s->mac_ops[cpu] && s->mac_ops[cpu]->pause) {
                s->mac_ops[cpu]->pause(s->mac_opaque[cpu], now);
            }
        }
    }
}

static void mt7530_link_out(MT7530State *s, int port, const uint8_t *buf,
                            size_t len)
{
    mt7530_count(s, port, false, buf, len);
    qemu_send_packet(qemu_get_queue(s->nic[port]), buf, len);
}

/* The link is done with a frame: the next one goes */
static void mt7530_link_timer(void *opaque)
{
    MT7530Egress *e = opaque;
    MT7530State *s = e->sw;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    MT7530EgressFrame *f;

    while ((f = QTAILQ_FIRST(&e->queue)) && e->free_at <= now) {
        QTAILQ_REMOVE(&e->queue, f, next);
        e->bytes -= f->len;
        if (mt7530_is_cpu_port(f->src)) {
            e->cpu_bytes -= f->len;
        }
        e->free_at += mt7530_wire_ns(s, e->port, f->len);
        mt7530_link_out(s, e->port, f->data, f->len);
        g_free(f->data);
        g_free(f);
    }
    mt7530_egress_flow(s, e->port);
    if (!QTAILQ_EMPTY(&e->queue)) {
        timer_mod(e->timer, e->free_at);
    }
}

static void mt7530_link_send(MT7530State *s, int port, const uint8_t *buf,
                             size_t len, int src)
{
    MT7530Egress *e = &s->egress[port];
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    MT7530EgressFrame *f;

    if (s->gsw) {
        mt7530_link_out(s, port, buf, len);
        return;
    }
    if (QTAILQ_EMPTY(&e->queue) && e->free_at <= now) {
        e->free_at = now + mt7530_wire_ns(s, port, len);
        mt7530_link_out(s, port, buf, len);
        return;
    }
    if (e->bytes + len > MT7530_EGRESS_BUF) {
        trace_mt7530_egress_drop(port, len, e->bytes);
        s->mib[port][MIB_TX_DROP]++;
        return;
    }
    trace_mt7530_egress_queue(port, len, e->bytes, e->free_at - now);
    f = g_new0(MT7530EgressFrame, 1);
    f->data = g_memdup2(buf, len);
    f->len = len;
    f->src = src;
    QTAILQ_INSERT_TAIL(&e->queue, f, next);
    e->bytes += len;
    if (mt7530_is_cpu_port(src)) {
        e->cpu_bytes += len;
    }
    mt7530_egress_flow(s, port);
    if (!timer_pending(e->timer)) {
        timer_mod(e->timer, e->free_at);
    }
}

static void mt7530_egress_reset(MT7530State *s)
{
    MT7530EgressFrame *f;
    int p, cpu;

    for (p = 0; p < MT7530_NUM_NICS; p++) {
        MT7530Egress *e = &s->egress[p];

        while ((f = QTAILQ_FIRST(&e->queue))) {
            QTAILQ_REMOVE(&e->queue, f, next);
            g_free(f->data);
            g_free(f);
        }
        e->bytes = e->cpu_bytes = e->xoff = 0;
        e->free_at = 0;
        if (e->timer) {
            timer_del(e->timer);
        }
    }
    for (cpu = MT7530_GMAC1_PORT; cpu <= MT7530_CPU_PORT; cpu++) {
        if (s->mac_ops[cpu] && s->mac_ops[cpu]->pause) {
            s->mac_ops[cpu]->pause(s->mac_opaque[cpu], false);
        }
    }
}

typedef struct MT7530Frame {
    uint8_t buf[MT7530_MAX_FRAME + 2 * MTK_TAG_LEN];
    size_t len;
    bool tagged;        /* carries an 802.1Q header at offset 12 */
    uint16_t tci;
} MT7530Frame;

static void mt7530_egress(MT7530State *s, int port, MT7530Frame *f,
                          int src, uint8_t etag)
{
    uint8_t out[sizeof(f->buf) + 8];
    const uint8_t *body = f->buf + 12 + (f->tagged ? 4 : 0);
    size_t body_len = f->len - 12 - (f->tagged ? 4 : 0);
    bool tag_out = f->tagged;
    size_t n = 12;

    if (PVC_VLAN_ATTR(s->pvc[port]) != VLAN_ATTR_TRANSPARENT &&
        etag != ETAG_AS_RECEIVED) {
        tag_out = etag != ETAG_UNTAG;
    }
    memcpy(out, f->buf, 12);
    if (s->pvc[port] & PVC_PORT_SPEC_TAG) {
        /* Special tag to the CPU: the source port; a VLAN tag stacked */
        out[n++] = 0;
        out[n++] = src;
        out[n++] = 0;
        out[n++] = 0;
    }
    if (tag_out) {
        stw_be_p(out + n, ETH_P_VLAN);
        stw_be_p(out + n + 2, f->tci);
        n += 4;
    }
    memcpy(out + n, body, body_len);
    n += body_len;

    trace_mt7530_egress(src, port, n, tag_out);
    ralink_gen_trigger(&s->gen, port, out, n);
    if (port < s->num_nics) {
        mt7530_link_send(s, port, out, n, src);
        return;
    }
    mt7530_count(s, port, false, out, n);
    if (s->mac_ops[port]) {
        s->mac_ops[port]->receive(s->mac_opaque[port], out, n, src);
    } else {
        s->mib[port][MIB_TX_DROP]++;
    }
}

/* -- the ACL engine ------------------------------------------------------ */

/*
 * Where an ACL pattern's offset type starts in @f (as received: an 802.1Q
 * tag at 12 when tagged), or -1 if the frame has no such header. Only
 * the MAC header (type 0) is sourced with its offsets (word 6 is the
 * EtherType of an untagged frame); the other types' starts are this
 * model's reading of their names, skipping one 802.1Q tag: NOTES.md.
 */
static int mt7530_acl_base(const MT7530Frame *f, unsigned type)
{
    int l2 = 12 + (f->tagged ? 4 : 0) + 2, l3, l4;
    uint16_t proto;
    uint8_t ipp;

    if (type == ACL_MAC_HEADER) {
        return 0;
    }
    if (f->len < l2) {
        return -1;
    }
    if (type == ACL_L2_PAYLOAD) {
        return l2;
    }
    proto = lduw_be_p(f->buf + l2 - 2);
    if (type == ACL_IPV6_HEADER) {
        return proto == ETH_P_IPV6 ? l2 : -1;
    }
    if (proto != ETH_P_IP || f->len < l2 + 20) {
        return -1;
    }
    if (type == ACL_IP_HEADER) {
        return l2;
    }
    l3 = l2 + (f->buf[l2] & 0xf) * 4;
    ipp = f->buf[l2 + 9];
    if (type == ACL_IP_DATAGRAM) {
        return l3;
    }
    if (ipp != IP_PROTO_TCP && ipp != IP_PROTO_UDP) {
        return -1;
    }
    if (type == ACL_TCP_UDP_HEADER) {
        return l3;
    }
    if (type != ACL_TCP_UDP_DATAGRAM) {
        return -1;
    }
    if (ipp == IP_PROTO_UDP) {
        return l3 + 8;
    }
    if (f->len < l3 + 13) {
        return -1;
    }
    l4 = l3 + (f->buf[l3 + 12] >> 4) * 4;
    return l4;
}

/* Whether ACL pattern @i matches @f entering by port @src */
static bool mt7530_acl_pattern(MT7530State *s, unsigned i, int src,
                               const MT7530Frame *f)
{
    uint32_t w1 = s->acl_pat[i][0], w2 = s->acl_pat[i][1];
    int base;

    if (!(w2 & ACL_TABLE_EN) || !(ACL_SP(w2) & BIT(src))) {
        return false;
    }
    base = mt7530_acl_base(f, ACL_OFST_TP(w2));
    if (base < 0) {
        return false;
    }
    base += ACL_WORD_OFST(w2) * 2;
    if (base + 2 > f->len) {
        return false;
    }
    return !((lduw_be_p(f->buf + base) ^ ACL_CMP_PAT(w1)) & ACL_BIT_CMP(w1));
}

/*
 * The ACL rule @f entering by @src hits, or -1. A rule hits when every
 * pattern its mask names matches; a mask of 0 matches unconditionally
 * (the 2021 RFC). Which of several hitting rules acts is not sourced:
 * here the lowest-numbered one whose action is not all zero.
 */
static int mt7530_acl_lookup(MT7530State *s, int src, const MT7530Frame *f)
{
    uint64_t hits = 0, mask;
    unsigned i;

    for (i = 0; i < MT7530_ACL_PATTERNS; i++) {
        if (mt7530_acl_pattern(s, i, src, f)) {
            hits |= 1ULL << i;
        }
    }
    for (i = 0; i < MT7530_ACL_RULES; i++) {
        mask = deposit64(s->acl_mask[i][0], 32, 32, s->acl_mask[i][1]);
        if (s->acl_act[i][0] && (hits & mask) == mask) {
            return i;
        }
    }
    return -1;
}

/*
 * Apply the ACL rule that @f entering by @src hits, if any, to the
 * forwarding decision: @dest and the egress tags. The ACL acts before the
 * address table (the 2021 RFC); its port map is taken here as it is,
 * the port matrix not applied to it (not sourced either way).
 */
static void mt7530_acl(MT7530State *s, int src, const MT7530Frame *f,
                       unsigned *dest, uint8_t *etag)
{
    int r = mt7530_acl_lookup(s, src, f), p;
    uint32_t act;

    if (r < 0) {
        return;
    }
    act = s->acl_act[r][0];
    if (act & ACL_PORT_EN) {
        *dest = ACL_PORT(act);
    }
    switch (ACL_PORT_FW(act)) {
    case ACL_FW_EXCLUDE_CPU:
        *dest &= ~BIT(mt7530_trap_port(s));
        break;
    case ACL_FW_INCLUDE_CPU:
        *dest |= BIT(mt7530_trap_port(s));
        break;
    case ACL_FW_CPU_ONLY:
        *dest = BIT(mt7530_trap_port(s));
        break;
    case ACL_FW_DROP:
        *dest = 0;
        break;
    }
    if (ACL_EG_TAG(act)) {
        for (p = 0; p < MT7530_NUM_PORTS; p++) {
            etag[p] = pvc_eg_etag[ACL_EG_TAG(act)];
        }
    }
    if ((act & ACL_MIR_EN) && (s->mfc & MFC_MIRROR_EN)) {
        *dest |= BIT(MFC_MIRROR_PORT(s->mfc));
    }
    *dest &= ~BIT(src);
    trace_mt7530_acl_hit(src, r, act, *dest);
}

/*
 * Forward @f received on @src. Returns false if a CPU port the frame must
 * reach cannot take it now (the caller queues the frame); nothing has
 * been done then.
 */
static bool mt7530_forward(MT7530State *s, int src, MT7530Frame *f,
                           uint8_t cpu_dest)
{
    const uint8_t *da = f->buf, *sa = f->buf + 6;
    uint32_t pcr = s->pcr[src];
    uint16_t vid = f->tagged ? (f->tci & 0xfff) : PPBV1_PVID(s->ppbv1[src]);
    MT7530Vlan *v;
    bool vlan_ok, ivl;
    unsigned fid, state, dest = 0, mode = PCR_PORT_VLAN(pcr);
    uint8_t etag[MT7530_NUM_PORTS], eg;
    int fw, p;
    MT7530Fdb *e;

    if (!f->tagged || !(f->tci & 0xfff)) {
        /* Untagged and priority-tagged frames take the PVID */
        f->tci = (f->tci & 0xf000) | PPBV1_PVID(s->ppbv1[src]);
        vid = f->tci & 0xfff;
    }
    v = mt7530_vlan(s, vid);
    /*
     * Port matrix mode does not consult the VLAN table: FID 0 (the
     * driver's FID_STANDALONE), forwarding by the port matrix alone.
     */
    vlan_ok = mode != PORT_MATRIX_MODE && (v->vawd1 & VAWD1_VALID);
    fid = vlan_ok ? VAWD1_FID(v->vawd1) : 0;
    ivl = vlan_ok && (v->vawd1 & VAWD1_IVL_MAC);
    state = extract32(s->ssp[src], fid * 2, 2);
    /* The ingress port's EG_TAG, else the VLAN table (EG_CON: as received) */
    eg = pvc_eg_etag[PVC_EG_TAG(s->pvc[src])];
    for (p = 0; p < MT7530_NUM_PORTS; p++) {
        if (eg != ETAG_VLAN_TABLE) {
            etag[p] = eg;
        } else {
            etag[p] = vlan_ok && !(v->vawd1 & VAWD1_EG_CON) ?
                      VAWD2_ETAG(v->vawd2, p) : ETAG_AS_RECEIVED;
        }
    }

    if (cpu_dest) {
        /* From the CPU with a destination in its special tag */
        dest = cpu_dest & ~BIT(src);
    } else {
        fw = mt7530_link_local_fw(s, da);
        if (fw > 0 && fw != TO_CPU_FW_DROP && fw != TO_CPU_FW_SYSTEM_DEFAULT) {
            /* Trapped to the CPU, egress tag unchanged */
            p = mt7530_trap_port(s);
            if (p != src && s->mac_ops[p] &&
                !s->mac_ops[p]->can_receive(s->mac_opaque[p])) {
                return false;
            }
            mt7530_count(s, src, true, f->buf, f->len);
            if (p != src && mt7530_port_up(s, p)) {
                mt7530_egress(s, p, f, src, ETAG_AS_RECEIVED);
            }
            return true;
        }
        if (PVC_ACC_FRM(s->pvc[src]) == ACC_FRM_TAGGED && !f->tagged) {
            goto filtered;
        }
        if (PVC_ACC_FRM(s->pvc[src]) == ACC_FRM_UNTAGGED && f->tagged) {
            goto filtered;
        }
        if (mode == PORT_SECURITY_MODE || mode == PORT_CHECK_MODE) {
            if (!vlan_ok ||
                (mode == PORT_SECURITY_MODE &&
                 !(VAWD1_PORT_MEM(v->vawd1) & BIT(src)))) {
                goto filtered;
            }
        }
        if (state == STP_DISABLED || state == STP_BLOCKING) {
            goto filtered;
        }
        if (!(s->psc[src] & PSC_SA_DIS) && !is_multicast_ether_addr(sa)) {
            uint16_t key = ivl ? vid : fid;

            e = mt7530_fdb_find(s, sa, key, ivl);
            if (!e) {
                e = mt7530_fdb_alloc(s);
                if (e) {
                    memcpy(e->mac, sa, 6);
                    e->key = key;
                    e->ivl = ivl;
                    e->status = 1;
                    e->age = 1;
                }
            }
            if (e && e->status != FDB_STATIC) {
                e->port_map = BIT(src);
                e->last_seen = mt7530_now_ms();
            }
        }
        if (state != STP_FORWARDING) {
            goto filtered;
        }
        e = mt7530_fdb_find(s, da, ivl ? vid : fid, ivl);
        if (e) {
            dest = e->port_map;
        } else if (is_broadcast_ether_addr(da)) {
            dest = MFC_BC_FFP(s->mfc);
        } else if (is_multicast_ether_addr(da)) {
            dest = MFC_UNM_FFP(s->mfc);
        } else {
            dest = MFC_UNU_FFP(s->mfc);
        }
        dest &= PCR_MATRIX(pcr);
        if (mode != PORT_MATRIX_MODE && vlan_ok) {
            dest &= VAWD1_PORT_MEM(v->vawd1);
        } else if (mode == PORT_SECURITY_MODE || mode == PORT_CHECK_MODE) {
            dest = 0;
        }
        dest &= ~BIT(src);
        if (pcr & PCR_PORT_ACL_EN) {
            mt7530_acl(s, src, f, &dest, etag);
        }
    }

    /* Mirroring: ingress and egress copies to the monitor port */
    if (s->mfc & MFC_MIRROR_EN) {
        p = MFC_MIRROR_PORT(s->mfc);
        if (pcr & PCR_RX_MIR) {
            dest |= BIT(p);
        }
        for (fw = 0; fw < MT7530_NUM_PORTS; fw++) {
            if ((dest & BIT(fw)) && (s->pcr[fw] & PCR_TX_MIR)) {
                dest |= BIT(p);
            }
        }
        if (p == src && !(s->agc & AGC_LOCAL_EN)) {
            dest &= ~BIT(p);
        }
    }

    for (p = MT7530_GMAC1_PORT; p < MT7530_NUM_PORTS; p++) {
        if ((dest & BIT(p)) && s->mac_ops[p] && mt7530_port_up(s, p) &&
            !s->mac_ops[p]->can_receive(s->mac_opaque[p])) {
            return false;
        }
    }

    mt7530_count(s, src, true, f->buf, f->len);
    for (p = 0; p < MT7530_NUM_PORTS; p++) {
        if (!(dest & BIT(p))) {
            continue;
        }
        if (!mt7530_port_up(s, p) ||
            !(s->pmcr[p] & PMCR_MAC_TX_EN) ||
            (!cpu_dest &&
             extract32(s->ssp[p], fid * 2, 2) != STP_FORWARDING)) {
            s->mib[p][MIB_TX_DROP]++;
            continue;
        }
        mt7530_egress(s, p, f, src, etag[p]);
    }
    if (!dest) {
        s->mib[src][MIB_RX_ARL_DROP]++;
    }
    return true;

filtered:
    mt7530_count(s, src, true, f->buf, f->len);
    s->mib[src][MIB_RX_FILTERING]++;
    return true;
}

#define ETH_P_MAC_CONTROL       0x8808
#define MAC_CTRL_PAUSE          0x0001
static const uint8_t mac_ctrl_dst[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };

/* Parse a frame into @f; false (and counted) if the port drops it */
static bool mt7530_ingress(MT7530State *s, int port, const uint8_t *buf,
                           size_t len, MT7530Frame *f, uint8_t *cpu_dest)
{
    size_t wire = len + ETH_FCS_LEN;

    *cpu_dest = 0;
    if (s->in_reset || !mt7530_port_up(s, port) ||
        !(s->pmcr[port] & PMCR_MAC_RX_EN)) {
        return false;
    }
    if (len < 14) {
        s->mib[port][MIB_RX_UNDER_SIZE]++;
        return false;
    }
    if (wire > mt7530_max_frame(s) + (s->pvc[port] & PVC_PORT_SPEC_TAG ?
                                       MTK_TAG_LEN : 0) ||
        len > MT7530_MAX_FRAME) {
        s->mib[port][MIB_RX_OVER_SIZE]++;
        return false;
    }

    /*
     * A MAC Control frame (802.3 Annex 31B: PAUSE) ends in the port's MAC:
     * counted (RxPause), never forwarded. The pause itself is not
     * modelled: the model's ports do not queue.
     */
    if (lduw_be_p(buf + 12) == ETH_P_MAC_CONTROL &&
        !memcmp(buf, mac_ctrl_dst, sizeof(mac_ctrl_dst))) {
        if (len >= 16 && lduw_be_p(buf + 14) == MAC_CTRL_PAUSE) {
            s->mib[port][MIB_RX_PAUSE]++;
        }
        return false;
    }

    memcpy(f->buf, buf, len);
    f->len = len;
    if (s->pvc[port] & PVC_PORT_SPEC_TAG) {
        uint8_t type = buf[12] & 3;

        if (len < 12 + MTK_TAG_LEN + 2) {
            s->mib[port][MIB_RX_UNDER_SIZE]++;
            return false;
        }
        *cpu_dest = buf[13] & 0x7f;
        if (type == MTK_TAG_XMIT_TPID_8100) {
            /* Combined tag: the special tag took the place of the TPID */
            stw_be_p(f->buf + 12, ETH_P_VLAN);
        } else if (type == MTK_TAG_XMIT_TPID_88A8) {
            stw_be_p(f->buf + 12, ETH_P_DVLAN);
        } else {
            memmove(f->buf + 12, f->buf + 16, len - 16);
            f->len -= MTK_TAG_LEN;
        }
    }
    /*
     * A MAC pads what it sends to the minimum frame size, and the switch
     * drops a runt: a frame shorter than that from a backend (or from the
     * CPU port once its special tag is gone) is taken as the padded frame
     * it stands for. A tag or header cut short is then read from the pad.
     */
    if (f->len < ETH_ZLEN) {
        memset(f->buf + f->len, 0, ETH_ZLEN - f->len);
        f->len = ETH_ZLEN;
    }
    f->tagged = lduw_be_p(f->buf + 12) == ETH_P_VLAN &&
                PVC_VLAN_ATTR(s->pvc[port]) != VLAN_ATTR_TRANSPARENT;
    f->tci = f->tagged ? lduw_be_p(f->buf + 14) : 0;
    return true;
}

void mt7530_mac_transmit(MT7530State *s, int port, const uint8_t *buf,
                         size_t len, uint8_t port_map)
{
    MT7530Frame *f = g_new(MT7530Frame, 1);
    uint8_t cpu_dest;

    if (port != MT7530_CPU_PORT && port != MT7530_GMAC1_PORT) {
        qemu_log_mask(LOG_GUEST_ERROR, "mt7530: frame from port %d\n",
                      port);
    } else if (mt7530_ingress(s, port, buf, len, f, &cpu_dest)) {
        if (port_map) {
            cpu_dest = port_map & 0x7f;
        }
        /* Frames to another CPU port are dropped rather than queued */
        mt7530_forward(s, port, f, cpu_dest);
    }
    g_free(f);
}

void mt7530_mac_ready(MT7530State *s, int port)
{
    int i;

    for (i = 0; i < s->num_nics; i++) {
        qemu_flush_queued_packets(qemu_get_queue(s->nic[i]));
    }
}

void mt7530_attach_mac(MT7530State *s, int port, const MT7530MacOps *ops,
                       void *opaque)
{
    assert(port == MT7530_GMAC1_PORT || port == MT7530_CPU_PORT);
    s->mac_ops[port] = ops;
    s->mac_opaque[port] = opaque;
}

/* -- the front ports' backends ------------------------------------------ */

static int mt7530_nc_port(MT7530State *s, NetClientState *nc)
{
    int i;

    for (i = 0; i < s->num_nics; i++) {
        if (qemu_get_queue(s->nic[i]) == nc) {
            return i;
        }
    }
    g_assert_not_reached();
}

static bool mt7530_can_receive(NetClientState *nc)
{
    MT7530State *s = qemu_get_nic_opaque(nc);

    return !s->in_reset;
}

static ssize_t mt7530_receive(NetClientState *nc, const uint8_t *buf,
                              size_t size)
{
    MT7530State *s = qemu_get_nic_opaque(nc);
    int port = mt7530_nc_port(s, nc);
    g_autofree MT7530Frame *f = g_new(MT7530Frame, 1);
    uint8_t cpu_dest;

    if (!mt7530_ingress(s, port, buf, size, f, &cpu_dest)) {
        return size;            /* dropped by the port */
    }
    return mt7530_forward(s, port, f, 0) ? size : 0;
}

static void mt7530_link_status_changed(NetClientState *nc)
{
    MT7530State *s = qemu_get_nic_opaque(nc);

    ralink_phy_check_link(&s->phy[mt7530_nc_port(s, nc)]);
}

static NetClientInfo mt7530_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .can_receive = mt7530_can_receive,
    .receive = mt7530_receive,
    .link_status_changed = mt7530_link_status_changed,
};

/* -- the GSW's palmbus window ------------------------------------------- */

static uint64_t mt7620_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    return mt7530_reg_read(opaque, addr);
}

static void mt7620_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                              unsigned size)
{
    mt7530_reg_write(opaque, addr, val);
}

static const MemoryRegionOps mt7620_mmio_ops = {
    .read = mt7620_mmio_read,
    .write = mt7620_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

/* -- device ------------------------------------------------------------- */

/*
 * The frame generator (ralink_gen.c), a test instrument: a frame taken in
 * at front port @port as if from the wire
 */
static RalinkGenVerdict mt7530_gen_inject(void *opaque, int port,
                                          const uint8_t *buf, size_t len)
{
    MT7530State *s = opaque;
    g_autofree MT7530Frame *f = g_new(MT7530Frame, 1);
    uint8_t cpu_dest;

    if (!mt7530_ingress(s, port, buf, len, f, &cpu_dest)) {
        return RALINK_GEN_DROPPED;
    }
    return mt7530_forward(s, port, f, 0) ? RALINK_GEN_SENT : RALINK_GEN_HELD;
}

static char *mt7530_get_gen(Object *obj, Error **errp)
{
    return ralink_gen_get(&MT7530(obj)->gen);
}

static void mt7530_set_gen(Object *obj, const char *value, Error **errp)
{
    ralink_gen_set(&MT7530(obj)->gen, value, errp);
}

static void mt7530_reset_in(void *opaque, int n, int level)
{
    MT7530State *s = opaque;
    int i;

    s->in_reset = level;
    if (level) {
        mt7530_egress_reset(s);
        mt7530_reset_core(s);
        mt7530_reset_phys(s);
        mt7530_update_irq(s);
    } else {
        for (i = 0; i < s->num_nics; i++) {
            s->phy[i].link = ralink_phy_link(&s->phy[i]);
            qemu_flush_queued_packets(qemu_get_queue(s->nic[i]));
        }
    }
}

static void mt7530_reset(DeviceState *dev)
{
    MT7530State *s = MT7530(dev);

    ralink_gen_stop(&s->gen);

    mt7530_egress_reset(s);
    mt7530_reset_core(s);
    mt7530_reset_phys(s);
    s->page = s->rd_hi = s->wr_lo = s->wr_lo_reg = 0;
    s->in_reset = false;
}

static void mt7530_realize(DeviceState *dev, Error **errp)
{
    MT7530State *s = MT7530(dev);
    const RalinkPhyModel *phy = &ralink_phy_mt7530;
    int i;

    s->num_nics = MT7530_NUM_PHYS;
    if (s->chip && !strcmp(s->chip, "mt7620")) {
        s->gsw = true;
        s->num_nics = MT7530_NUM_NICS;
        if (s->ext_phy_addr > 31) {
            error_setg(errp, "mt7620-gsw: ext-phy-addr %u is no MDIO "
                       "address", s->ext_phy_addr);
            return;
        }
        phy = &ralink_phy_mt7620;
        memory_region_init_io(&s->mmio, OBJECT(s), &mt7620_mmio_ops, s,
                              "mt7620-gsw", MT7620_GSW_SIZE);
        sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->mmio);
    } else if (s->chip && strcmp(s->chip, "mt7530")) {
        error_setg(errp, "mt7530: unknown chip \"%s\" (mt7530, mt7620)",
                   s->chip);
        return;
    } else if (s->conf[MT7620_EXT_PORT].peers.ncs[0]) {
        error_setg(errp, "mt7530: netdev5: port 5 is the frame engine's "
                   "GMAC1 on the MT7530");
        return;
    }

    for (i = 0; i < s->num_nics; i++) {
        g_autofree char *name = g_strdup_printf("%s.port%d",
                                                dev->id ? dev->id : "mt7530",
                                                i);

        qemu_macaddr_default_if_unset(&s->conf[i].macaddr);
        s->nic[i] = qemu_new_nic(&mt7530_net_info, &s->conf[i],
                                 object_get_typename(OBJECT(s)), name,
                                 &dev->mem_reentrancy_guard, s);
    }
    ralink_gen_init(&s->gen, "mt7530", MT7530_NUM_PHYS, MT7530_MAX_FRAME,
                    mt7530_gen_inject, s);
    for (i = 0; i < MT7530_NUM_NICS; i++) {
        s->egress[i].sw = s;
        s->egress[i].port = i;
        s->egress[i].timer = timer_new_ns(QEMU_CLOCK_VIRTUAL,
                                          mt7530_link_timer, &s->egress[i]);
    }
    for (i = 0; i < MT7530_NUM_PHYS; i++) {
        ralink_phy_init(&s->phy[i], phy, i,
                        mt7530_phy_partner, mt7530_phy_link_changed, s);
    }
    if (s->gsw) {
        /* Named by its port: mt7620_piac() maps its MDIO address */
        ralink_phy_init(&s->phy[MT7620_EXT_PORT], &ralink_phy_generic,
                        MT7620_EXT_PORT, mt7530_phy_partner,
                        mt7530_phy_link_changed, s);
    }
}

static void mt7530_unrealize(DeviceState *dev)
{
    MT7530State *s = MT7530(dev);
    int i;

    for (i = 0; i < s->num_nics; i++) {
        qemu_del_nic(s->nic[i]);
    }
    ralink_gen_finalize(&s->gen);
    for (i = 0; i < s->num_nics; i++) {
        ralink_phy_finalize(&s->phy[i]);
    }
    mt7530_egress_reset(s);
    for (i = 0; i < MT7530_NUM_NICS; i++) {
        timer_free(s->egress[i].timer);
        s->egress[i].timer = NULL;
    }
}

static void mt7530_init(Object *obj)
{
    MT7530State *s = MT7530(obj);
    int i;

    for (i = 0; i < MT7530_NUM_NICS; i++) {
        QTAILQ_INIT(&s->egress[i].queue);
    }
    s->other = g_hash_table_new(NULL, NULL);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq);
    qdev_init_gpio_in_named(DEVICE(obj), mt7530_reset_in, "reset", 1);
}

static void mt7530_finalize(Object *obj)
{
    MT7530State *s = MT7530(obj);

    g_hash_table_destroy(s->other);
}

static const VMStateDescription vmstate_mt7530_vlan = {
    .name = "mt7530-vlan",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32(vawd1, MT7530Vlan),
        VMSTATE_UINT32(vawd2, MT7530Vlan),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_mt7530_fdb = {
    .name = "mt7530-fdb",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT8_ARRAY(mac, MT7530Fdb, 6),
        VMSTATE_UINT16(key, MT7530Fdb),
        VMSTATE_BOOL(ivl, MT7530Fdb),
        VMSTATE_UINT8(port_map, MT7530Fdb),
        VMSTATE_UINT8(status, MT7530Fdb),
        VMSTATE_UINT8(age, MT7530Fdb),
        VMSTATE_INT64(last_seen, MT7530Fdb),
        VMSTATE_END_OF_LIST()
    }
};

/* A running autonegotiation's end is in the PHYs' state: arm for it */
static const VMStateDescription vmstate_mt7530_egress_frame = {
    .name = "mt7530-egress-frame",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32(len, MT7530EgressFrame),
        VMSTATE_UINT32(src, MT7530EgressFrame),
        VMSTATE_VBUFFER_ALLOC_UINT32(data, MT7530EgressFrame, 1, NULL, len),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_mt7530_egress_port = {
    .name = "mt7530-egress-port",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_QTAILQ_V(queue, MT7530Egress, 1, vmstate_mt7530_egress_frame,
                         MT7530EgressFrame, next),
        VMSTATE_UINT32(bytes, MT7530Egress),
        VMSTATE_UINT32(cpu_bytes, MT7530Egress),
        VMSTATE_INT64(free_at, MT7530Egress),
        VMSTATE_UINT32(xoff, MT7530Egress),
        VMSTATE_TIMER_PTR(timer, MT7530Egress),
        VMSTATE_END_OF_LIST()
    }
};

static bool mt7530_egress_needed(void *opaque)
{
    return true;
}

/*
 * The front ports' egress buffers, links and rate limits (a subsection of
 * their own)
 */
static const VMStateDescription vmstate_mt7530_egress = {
    .name = TYPE_MT7530 "/egress",
    .version_id = 2,
    .minimum_version_id = 2,
    .needed = mt7530_egress_needed,
    .fields = (VMStateField[]) {
        VMSTATE_STRUCT_ARRAY(egress, MT7530State, MT7530_NUM_NICS, 1,
                             vmstate_mt7530_egress_port, MT7530Egress),
        VMSTATE_UINT32_ARRAY(erlcr, MT7530State, MT7530_NUM_PORTS),
        VMSTATE_UINT32(gerlcr, MT7530State),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_mt7530 = {
    .name = TYPE_MT7530,
    .version_id = 7,
    .minimum_version_id = 7,
    .fields = (VMStateField[]) {
        VMSTATE_BOOL(in_reset, MT7530State),
        VMSTATE_UINT16(page, MT7530State),
        VMSTATE_UINT16(rd_hi, MT7530State),
        VMSTATE_UINT16(wr_lo, MT7530State),
        VMSTATE_UINT16(wr_lo_reg, MT7530State),
        VMSTATE_UINT32(agc, MT7530State),
        VMSTATE_UINT32(mfc, MT7530State),
        VMSTATE_UINT32(bpc, MT7530State),
        VMSTATE_UINT32(rgac1, MT7530State),
        VMSTATE_UINT32(rgac2, MT7530State),
        VMSTATE_UINT32(ata1, MT7530State),
        VMSTATE_UINT32(ata2, MT7530State),
        VMSTATE_UINT32(atwd, MT7530State),
        VMSTATE_UINT32(atc, MT7530State),
        VMSTATE_UINT32(tsra1, MT7530State),
        VMSTATE_UINT32(tsra2, MT7530State),
        VMSTATE_UINT32(atrd, MT7530State),
        VMSTATE_UINT32(vtcr, MT7530State),
        VMSTATE_UINT32(vawd1, MT7530State),
        VMSTATE_UINT32(vawd2, MT7530State),
        VMSTATE_UINT32(aac, MT7530State),
        VMSTATE_UINT32(mtrap, MT7530State),
        VMSTATE_UINT32(sys_int_en, MT7530State),
        VMSTATE_UINT32(sys_int_sts, MT7530State),
        VMSTATE_UINT32(gmaccr, MT7530State),
        VMSTATE_UINT32(mib_ccr, MT7530State),
        VMSTATE_UINT32_ARRAY(pad, MT7530State, MT7530_PAD_REGS),
        VMSTATE_UINT32_ARRAY(vtim, MT7530State, MT7620_NUM_VLANS / 2),
        VMSTATE_UINT32(ppsc, MT7530State),
        VMSTATE_UINT32(piac, MT7530State),
        VMSTATE_UINT32(imr, MT7530State),
        VMSTATE_UINT32(gpc1, MT7530State),
        VMSTATE_UINT32(gpc2, MT7530State),
        VMSTATE_UINT32(smaccr0, MT7530State),
        VMSTATE_UINT32(smaccr1, MT7530State),
        VMSTATE_UINT32(ckgcr, MT7530State),
        VMSTATE_UINT32(mib_cnt_en, MT7530State),
        VMSTATE_UINT32_ARRAY(ssp, MT7530State, MT7530_NUM_PORTS),
        VMSTATE_UINT32_ARRAY(pcr, MT7530State, MT7530_NUM_PORTS),
        VMSTATE_UINT32_ARRAY(psc, MT7530State, MT7530_NUM_PORTS),
        VMSTATE_UINT32_ARRAY(pvc, MT7530State, MT7530_NUM_PORTS),
        VMSTATE_UINT32_ARRAY(ppbv1, MT7530State, MT7530_NUM_PORTS),
        VMSTATE_UINT32_ARRAY(pmcr, MT7530State, MT7530_NUM_PORTS),
        VMSTATE_UINT32_ARRAY(pmeeecr, MT7530State, MT7530_NUM_PORTS),
        VMSTATE_UINT32_2DARRAY(mib, MT7530State, MT7530_NUM_PORTS,
                               MT7530_NUM_MIB),
        VMSTATE_STRUCT_ARRAY(phy, MT7530State, MT7530_NUM_NICS, 1,
                             vmstate_ralink_phy, RalinkPhy),
        VMSTATE_STRUCT_ARRAY(vlan, MT7530State, MT7530_NUM_VLANS, 1,
                             vmstate_mt7530_vlan, MT7530Vlan),
        VMSTATE_STRUCT_ARRAY(fdb, MT7530State, MT7530_NUM_FDB, 1,
                             vmstate_mt7530_fdb, MT7530Fdb),
        VMSTATE_INT32(search_pos, MT7530State),
        VMSTATE_UINT32_2DARRAY(acl_pat, MT7530State, MT7530_ACL_PATTERNS, 2),
        VMSTATE_UINT32_2DARRAY(acl_mask, MT7530State, MT7530_ACL_RULES, 2),
        VMSTATE_UINT32_2DARRAY(acl_act, MT7530State, MT7530_ACL_RULES, 2),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * []) {
        &vmstate_mt7530_egress,
        NULL
    }
};

static Property mt7530_properties[] = {
    DEFINE_PROP_NETDEV("netdev0", MT7530State, conf[0].peers),
    DEFINE_PROP_NETDEV("netdev1", MT7530State, conf[1].peers),
    DEFINE_PROP_NETDEV("netdev2", MT7530State, conf[2].peers),
    DEFINE_PROP_NETDEV("netdev3", MT7530State, conf[3].peers),
    DEFINE_PROP_NETDEV("netdev4", MT7530State, conf[4].peers),
    DEFINE_PROP_NETDEV("netdev5", MT7530State, conf[5].peers),
    DEFINE_PROP_STRING("chip", MT7530State, chip),
    /* The MT7620's port 5 PHY (a board's choice; 5 unless it says) */
    DEFINE_PROP_UINT32("ext-phy-addr", MT7530State, ext_phy_addr, 5),
    DEFINE_PROP_END_OF_LIST(),
};

/*
 * The "fdb" property: the address table's live entries, one a line
 * ("MAC vid|fid KEY ports 0xMAP static|dynamic"), for tests to compare
 * with what the driver was asked to program.
 */
static char *mt7530_get_fdb(Object *obj, Error **errp)
{
    MT7530State *s = MT7530(obj);
    GString *str = g_string_new(NULL);
    int i;

    for (i = 0; i < MT7530_NUM_FDB; i++) {
        MT7530Fdb *e = &s->fdb[i];

        if (!mt7530_fdb_live(s, e)) {
            continue;
        }
        g_string_append_printf(str, "%02x:%02x:%02x:%02x:%02x:%02x %s %u "
                               "ports 0x%02x %s\n", e->mac[0], e->mac[1],
                               e->mac[2], e->mac[3], e->mac[4], e->mac[5],
                               e->ivl ? "vid" : "fid", e->key, e->port_map,
                               e->status == FDB_STATIC ? "static" :
                               "dynamic");
    }
    return g_string_free(str, false);
}

/*
 * The "mac" property: each port's MAC control, EEE control and status
 * registers ("PORT pmcr 0x... pmeeecr 0x... pmsr 0x..." a line), for tests
 * to compare with what the driver was asked to set.
 */
static char *mt7530_get_mac(Object *obj, Error **errp)
{
    MT7530State *s = MT7530(obj);
    GString *str = g_string_new(NULL);
    int p;

    for (p = 0; p < MT7530_NUM_PORTS; p++) {
        g_string_append_printf(str, "%d pmcr 0x%08x pmeeecr 0x%08x "
                               "pmsr 0x%08x\n", p, s->pmcr[p],
                               s->pmeeecr[p], mt7530_pmsr(s, p));
    }
    return g_string_free(str, false);
}

/*
 * The fault "fault-reset": setting it resets the switch core's registers
 * and tables at once, unasked (a glitch or a watchdog would), as SYS_CTRL's
 * SW_RST and REG_RST do; the PHYs and their links stay. It reads false:
 * what is left to see is what the driver does about it.
 */
static bool mt7530_get_fault_reset(Object *obj, Error **errp)
{
    return false;
}

static void mt7530_set_fault_reset(Object *obj, bool value, Error **errp)
{
    MT7530State *s = MT7530(obj);

    if (!value) {
        return;
    }
    trace_mt7530_fault("reset");
    mt7530_reset_core(s);
    mt7530_update_irq(s);
}

static void mt7530_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    object_class_property_add_str(klass, "fdb", mt7530_get_fdb, NULL);
    object_class_property_add_str(klass, "mac", mt7530_get_mac, NULL);
    object_class_property_add_bool(klass, "fault-reset",
                                   mt7530_get_fault_reset,
                                   mt7530_set_fault_reset);
    object_class_property_add_str(klass, "gen", mt7530_get_gen,
                                  mt7530_set_gen);

    dc->desc = "MediaTek MT7530 switch core";
    dc->realize = mt7530_realize;
    dc->unrealize = mt7530_unrealize;
    dc->reset = mt7530_reset;
    dc->vmsd = &vmstate_mt7530;
    device_class_set_props(dc, mt7530_properties);
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
}

static const TypeInfo mt7530_info = {
    .name = TYPE_MT7530,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(MT7530State),
    .instance_init = mt7530_init,
    .instance_finalize = mt7530_finalize,
    .class_init = mt7530_class_init,
};

static void mt7530_register_types(void)
{
    type_register_static(&mt7530_info);
}

type_init(mt7530_register_types)
