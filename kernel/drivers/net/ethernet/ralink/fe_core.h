/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ralink/MediaTek SoC frame engine Ethernet driver: shared definitions
 *
 * The frame engine (FE) of the Ralink/MediaTek router SoCs moves frames
 * between memory and its GDMA ports (one per GMAC, or one towards an
 * embedded switch). Register names follow the vendor's documentation as
 * used by the mainline mtk_eth_soc driver. What differs from one SoC to the
 * next (register offsets, the DMA engines, the MACs, the switch) is
 * described by struct fe_soc_data, one instance per SoC (fe_mt7620.c,
 * fe_mt7621.c, fe_rt2880.c for the RT2880 and RT3883, fe_rt3050.c,
 * fe_rt5350.c): register maps and descriptor
 * layouts as data, the TX DMA engine (fe_tx_qdma.c, fe_tx_pdma.c) and the
 * MAC side (fe_gdma.c, fe_sdm.c) as tables of operations.
 */

#ifndef FE_CORE_H
#define FE_CORE_H

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/dim.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/netdevice.h>
#include <linux/phylink.h>
#include <linux/spinlock.h>
#include <linux/u64_stats_sync.h>
#include <net/xdp.h>

#define FE_DRV_NAME		"ralink_fe"
#define FE_MAX_MACS		2

/* Frame engine global registers (offsets shared by all SoCs with a GDMA) */
#define FE_GLO_CFG		0x0000
#define FE_RST_GL		0x0004
#define FE_INT_STATUS2		0x0008
#define FE_INT_ENABLE		0x000c
#define FE_INT_GRP		0x0020

/* CDM: the DMA side of the PSE. MT7621 can parse the MTK special tag */
#define FE_CDMP_IG_CTRL		0x0400	/* from PDMA: ingress control */
#define FE_CDMP_EG_CTRL		0x0404	/* towards PDMA: egress control */
#define FE_CDMQ_IG_CTRL		0x1400	/* from QDMA: ingress control */
#define FE_CDM_STAG_EN		BIT(0)	/* parse/strip the special tag */
/*
 * CDMP egress control: the vendor SDK and mainline write 1 with DSA (bit 0
 * is not documented; written as they do).
 */
#define FE_CDMP_EG_STAG		BIT(0)

/* GDMA forward configuration (where each SoC has it: struct fe_reg_map) */
#define FE_GDMA_SPECIAL_TAG	BIT(24)	/* frames carry the MTK tag */
#define FE_GDMA_ICS_EN		BIT(22)	/* verify IPv4 header checksums */
#define FE_GDMA_TCS_EN		BIT(21)	/* verify TCP checksums */
#define FE_GDMA_UCS_EN		BIT(20)	/* verify UDP checksums */
#define FE_GDMA_STRP_CRC	BIT(16)	/* strip the FCS */
#define FE_GDMA_FWD_MASK	GENMASK(15, 0)	/* per-class forward ports */
#define FE_GDMA_FWD_PDMA	0x0000	/* all classes to PDMA (the CPU) */
#define FE_GDMA_FWD_PPE		0x4444	/* all classes to the PPE */
#define FE_GDMA_FWD_DROP	0x7777	/* all classes dropped */

/* PDMA/QDMA global configuration bits (both engines) */
#define FE_DMA_RX_2B_OFFSET	BIT(31)	/* start RX data 2 bytes in */
#define FE_DMA_MULTI_EN		BIT(10)	/* PDMA: several RX rings */
#define FE_DMA_NDP_CO_PRO	BIT(10)	/* QDMA: descriptor prefetch */
#define FE_DMA_RX_BT_32DWORDS	(3 << 11)	/* RX burst: 32 dwords */
#define FE_DMA_TX_WB_DDONE	BIT(6)	/* write back DONE before next */
#define FE_DMA_TX_BT_32DWORDS	(3 << 4)	/* TX burst: 32 dwords */
#define FE_DMA_TX_BT		GENMASK(5, 4)	/* TX burst */
#define FE_DMA_TX_BT_8DWORDS	FIELD_PREP_CONST(FE_DMA_TX_BT, 1)
#define FE_DMA_RX_BUSY		BIT(3)
#define FE_DMA_RX_EN		BIT(2)
#define FE_DMA_TX_BUSY		BIT(1)
#define FE_DMA_TX_EN		BIT(0)

/* PDMA reset index register */
#define FE_PDMA_RST_DTX(r)	BIT(r)
#define FE_PDMA_RST_DRX(r)	BIT(16 + (r))

/* Delay (coalesced) interrupt configuration, PDMA and QDMA alike */
#define FE_DLY_TX_EN		BIT(31)
#define FE_DLY_TX_PINT		GENMASK(30, 24)	/* frames */
#define FE_DLY_TX_PTIME		GENMASK(23, 16)	/* units of 20 us */
#define FE_DLY_RX_EN		BIT(15)
#define FE_DLY_RX_PINT		GENMASK(14, 8)
#define FE_DLY_RX_PTIME		GENMASK(7, 0)
#define FE_DLY_PINT_MAX		0x7f
#define FE_DLY_PTIME_MAX	0xff
#define FE_DLY_PTIME_US		20

/* Interrupt status/mask bits (TX: QDMA queue 0 or PDMA ring 0, alike) */
#define FE_RX_DONE_DLY		BIT(30)	/* PDMA: delayed RX done */
#define FE_RX_DONE_INT0		BIT(16)	/* PDMA: RX ring 0 done */
#define FE_TX_DONE_DLY		BIT(28)	/* delayed TX done */
#define FE_TX_DONE_INT0		BIT(0)	/* TX queue/ring 0 done */

/* QDMA queue configuration */
#define FE_QTX_STRIDE		0x10
#define FE_QTX_NUM		16
#define FE_QTX_RSV_MIN		GENMASK(7, 0)	/* reserved buffers, HW */
#define FE_QTX_RSV_MAX		GENMASK(15, 8)	/* reserved buffers, SW */
#define FE_QTX_RSV_DEFAULT	4	/* vendor SDK value */
#define FE_QDMA_TX_SCH_MAX_WFQ	BIT(15)
/* QTX_SCH: a queue's rates, mantissa * 10^exponent kbit/s each */
#define FE_QTX_SCH_LB_EN	BIT(30)		/* leaky bucket */
#define FE_QTX_SCH_LB_SIZE	GENMASK(29, 28)
#define FE_QTX_SCH_MIN_EN	BIT(27)
#define FE_QTX_SCH_MIN_MAN	GENMASK(26, 20)
#define FE_QTX_SCH_MIN_EXP	GENMASK(19, 16)
#define FE_QTX_SCH_WEIGHT	GENMASK(15, 12)
#define FE_QTX_SCH_MAX_EN	BIT(11)
#define FE_QTX_SCH_MAX_MAN	GENMASK(10, 4)
#define FE_QTX_SCH_MAX_EXP	GENMASK(3, 0)
/* The QDMA queue of DSA port 0's frames (mainline's mtk_select_queue()) */
#define FE_QDMA_DSA_QUEUE0	3
#define FE_QDMA_PAGE_SIZE	2048	/* free queue buffer size */

/* CDMA checksum generation (RT305x): TX checksums where txd4 asks */
#define FE_CDMA_CSG_ICS		BIT(2)
#define FE_CDMA_CSG_UCS		BIT(1)
#define FE_CDMA_CSG_TCS		BIT(0)

/* GDMA MIB counters: block of FE_GDM_CNT_STRIDE per GDMA, read-to-clear */
#define FE_GDM_CNT_STRIDE	0x40
#define FE_GDM_RX_BYTES_L	0x00
#define FE_GDM_RX_BYTES_H	0x04
#define FE_GDM_RX_PKTS		0x08
#define FE_GDM_RX_OVERFLOW	0x10
#define FE_GDM_RX_FCS_ERR	0x14
#define FE_GDM_RX_SHORT		0x18
#define FE_GDM_RX_LONG		0x1c
#define FE_GDM_RX_CSUM_ERR	0x20
#define FE_GDM_RX_FLOW_CTRL	0x24
#define FE_GDM_TX_SKIP		0x28
#define FE_GDM_TX_COLLISION	0x2c
#define FE_GDM_TX_BYTES_L	0x30
#define FE_GDM_TX_BYTES_H	0x34
#define FE_GDM_TX_PKTS		0x38
/* The RT305x's GDMA MIB counters: TX first, 32-bit byte counts */
#define FE_GDM1_TX_BYTES	0x00
#define FE_GDM1_TX_PKTS		0x04
#define FE_GDM1_TX_SKIP		0x08
#define FE_GDM1_TX_COLLISION	0x0c
#define FE_GDM1_RX_BYTES	0x20
#define FE_GDM1_RX_PKTS		0x24
#define FE_GDM1_RX_OVERFLOW	0x28
#define FE_GDM1_RX_FCS_ERR	0x2c
#define FE_GDM1_RX_SHORT	0x30
#define FE_GDM1_RX_LONG		0x34
#define FE_GDM1_RX_CSUM_ERR	0x38
#define FE_GDM1_RX_FLOW_CTRL	0x3c

/* MDIO master and MACs: the block behind the frame engine (MT7621) */
#define FE_PPSC			0x0000
#define FE_PPSC_MDC_CFG		GENMASK(29, 24)	/* MDC divider */
#define FE_PPSC_MDC_TURBO	BIT(20)
#define FE_MDC_MAX_FREQ		25000000
#define FE_MDC_MAX_DIVIDER	63
#define FE_PHY_IAC		0x0004
#define FE_PHY_IAC_ACCESS	BIT(31)
#define FE_PHY_IAC_REG		GENMASK(29, 25)	/* register or MMD */
#define FE_PHY_IAC_ADDR		GENMASK(24, 20)
#define FE_PHY_IAC_CMD		GENMASK(19, 18)
#define FE_PHY_IAC_CMD_C45_ADDR	0
#define FE_PHY_IAC_CMD_WRITE	1
#define FE_PHY_IAC_CMD_C22_READ	2
#define FE_PHY_IAC_CMD_C45_READ	3
#define FE_PHY_IAC_START	GENMASK(17, 16)
#define FE_PHY_IAC_START_C45	0
#define FE_PHY_IAC_START_C22	1
#define FE_PHY_IAC_DATA		GENMASK(15, 0)

/*
 * The RT2880's and RT3883's MDIO master, in the frame engine (struct
 * fe_reg_map's mdio_access, mdio_cfg): the access register starts an
 * access with bit 31, which reads 1 until it is done
 */
#define FE_MDIO_GO		BIT(31)
#define FE_MDIO_WRITE		BIT(30)
#define FE_MDIO_PHY		GENMASK(28, 24)
#define FE_MDIO_REG		GENMASK(20, 16)
#define FE_MDIO_DATA		GENMASK(15, 0)
/* ...and its configuration register: GMAC1's forced link mode */
#define FE_MDIO_CFG_FRC_EN	BIT(15)
#define FE_MDIO_CFG_SPEED	GENMASK(14, 13)
#define FE_MDIO_CFG_SPEED_10	0
#define FE_MDIO_CFG_SPEED_100	1
#define FE_MDIO_CFG_SPEED_1000	2
#define FE_MDIO_CFG_DUPLEX	BIT(12)
#define FE_MDIO_CFG_FC_TX	BIT(11)
#define FE_MDIO_CFG_FC_RX	BIT(10)
#define FE_MDIO_CFG_RX_SKEW	GENMASK(3, 2)
#define FE_MDIO_CFG_TX_SKEW	GENMASK(1, 0)
#define FE_MDIO_CFG_SKEW_200PS	1

#define FE_MAC_MCR(n)		(0x0100 + (n) * 0x100)
#define FE_MCR_MAX_RX		GENMASK(25, 24)
#define FE_MCR_MAX_RX_1518	0
#define FE_MCR_MAX_RX_1536	1
#define FE_MCR_MAX_RX_1552	2
#define FE_MCR_MAX_RX_2048	3
#define FE_MCR_IPG_CFG		(BIT(18) | BIT(16))	/* 96 bit times */
#define FE_MCR_FORCE_MODE	BIT(15)
#define FE_MCR_TX_EN		BIT(14)
#define FE_MCR_RX_EN		BIT(13)
#define FE_MCR_RX_FIFO_CLR_DIS	BIT(12)
#define FE_MCR_BACKOFF_EN	BIT(9)
#define FE_MCR_BACKPR_EN	BIT(8)
#define FE_MCR_FORCE_RX_FC	BIT(5)
#define FE_MCR_FORCE_TX_FC	BIT(4)
#define FE_MCR_SPEED_1000	BIT(3)
#define FE_MCR_SPEED_100	BIT(2)
#define FE_MCR_FORCE_DPX	BIT(1)
#define FE_MCR_FORCE_LINK	BIT(0)

/* DMA descriptors (NETSYS v1 layout, 16 bytes) */
struct fe_rx_desc {
	__le32 rxd1;	/* buffer address */
	__le32 rxd2;	/* DONE, LS0, length, VTAG */
	__le32 rxd3;	/* stripped tag: TPID or special tag, TCI */
	__le32 rxd4;	/* checksum verdict, source port, PPE entry */
};

#define FE_RXD2_DONE		BIT(31)
#define FE_RXD2_LS0		BIT(30)
#define FE_RXD2_PLEN0		GENMASK(29, 16)
#define FE_RXD2_VTAG		BIT(15)
#define FE_RXD3_VPID		GENMASK(31, 16)
#define FE_RXD3_TCI		GENMASK(15, 0)

/* The special tag's first half: the source switch port */
#define FE_STAG_PORT		GENMASK(2, 0)

/*
 * TX descriptors of both engines are 16 bytes with the buffer address in
 * txd1 and the offloads in txd4; the control word (QDMA: txd3, PDMA:
 * txd2) has the same done bit, last-segment bit and length field in both.
 */
struct fe_tx_desc {
	__le32 txd1;	/* buffer address */
	__le32 txd2;	/* QDMA: next descriptor; PDMA: control word */
	__le32 txd3;	/* QDMA: control word; PDMA: second segment */
	__le32 txd4;	/* offloads, forward port, VLAN tag */
};

/* The control word: done (QDMA OWNER_CPU, PDMA DDONE), LS0, length */
#define FE_TXC_DONE		BIT(31)
#define FE_TXC_LS0		BIT(30)
#define FE_TXC_PLEN0		GENMASK(29, 16)
#define FE_TXD3_SWC		BIT(14)	/* QDMA: no scheduler timestamp */
#define FE_TXD3_PQID		GENMASK(3, 0)	/* QDMA: the TX queue */
#define FE_TXD4_CHKSUM		GENMASK(31, 29)	/* IPv4, TCP, UDP */
#define FE_TXD4_TSO		BIT(28)
#define FE_TXD4_FPORT		GENMASK(27, 25)	/* GDMA n + 1 */
#define FE_TXD4_INS_VLAN	BIT(16)
#define FE_TXD4_VLAN_TCI	GENMASK(15, 0)

#define FE_TX_MAX_LEN		FIELD_MAX(FE_TXC_PLEN0)

/*
 * RT305x: txd4 names an entry of the TX VLAN table (struct fe_reg_map's
 * vid_table) and the tag's priority; the table holds a 12-bit VID in each
 * half of its registers, the even entry in the low one
 */
#define FE_TXD4_PN		GENMASK(26, 24)	/* GDMA n + 1 */
#define FE_TXD4_RT_INS_VLAN	BIT(7)
#define FE_TXD4_RT_VLAN_PCP	GENMASK(6, 4)
#define FE_TXD4_RT_VLAN_IDX	GENMASK(3, 0)
#define FE_VID_ENTRIES		16
#define FE_RX_MAX_LEN		FIELD_MAX(FE_RXD2_PLEN0)

/**
 * struct fe_pdma_regs - PDMA register offsets
 * @tx_base: TX ring 0 base address (SoCs whose PDMA sends)
 * @tx_max_cnt: TX ring 0 size
 * @tx_ctx_idx: TX ring 0 CPU index (the first descriptor not handed over)
 * @tx_dtx_idx: TX ring 0 DMA index
 * @rx_base: RX ring 0 base address; ring n at @rx_base + n * 0x10
 * @rx_max_cnt: RX ring 0 size
 * @rx_crx_idx: RX ring 0 CPU index (last descriptor given to the DMA)
 * @rx_drx_idx: RX ring 0 DMA index
 * @glo_cfg: global configuration (enables, bursts, 2-byte offset)
 * @rst_idx: index reset
 * @int_grp: interrupt grouping (0: none)
 */
struct fe_pdma_regs {
	u32 tx_base;
	u32 tx_max_cnt;
	u32 tx_ctx_idx;
	u32 tx_dtx_idx;
	u32 rx_base;
	u32 rx_max_cnt;
	u32 rx_crx_idx;
	u32 rx_drx_idx;
	u32 glo_cfg;
	u32 rst_idx;
	u32 int_grp;
};

/*
 * The PDMA's registers where the MT7620, MT7621, MT7628 and RT5350 have
 * them (TX rings from 0x800, RX rings from 0x900, the global registers
 * from 0xa00): the designators of a struct fe_pdma_regs initializer
 */
#define FE_PDMA_REGS_0800		\
	.tx_base	= 0x0800,	\
	.tx_max_cnt	= 0x0804,	\
	.tx_ctx_idx	= 0x0808,	\
	.tx_dtx_idx	= 0x080c,	\
	.rx_base	= 0x0900,	\
	.rx_max_cnt	= 0x0904,	\
	.rx_crx_idx	= 0x0908,	\
	.rx_drx_idx	= 0x090c,	\
	.glo_cfg	= 0x0a04,	\
	.rst_idx	= 0x0a08

/*
 * The PDMA's registers in the older map (RT2880, RT305x, RT3883): rings
 * from 0x110, the global registers from 0x100
 */
#define FE_PDMA_REGS_0100		\
	.tx_base	= 0x0110,	\
	.tx_max_cnt	= 0x0114,	\
	.tx_ctx_idx	= 0x0118,	\
	.tx_dtx_idx	= 0x011c,	\
	.rx_base	= 0x0130,	\
	.rx_max_cnt	= 0x0134,	\
	.rx_crx_idx	= 0x0138,	\
	.rx_drx_idx	= 0x013c,	\
	.glo_cfg	= 0x0100,	\
	.rst_idx	= 0x0104

/*
 * Their interrupt registers and bits (both directions in the frame
 * engine's status and enable registers), a struct fe_irq_regs each
 */
#define FE_PDMA_RX_IRQ_0010				\
	{						\
		.status		= 0x0010,		\
		.mask		= 0x0014,		\
		.delay		= 0x010c,		\
		.done		= BIT(2),		\
		.done_dly	= BIT(0),		\
	}
#define FE_PDMA_TX_IRQ_0010				\
	{						\
		.status		= 0x0010,		\
		.mask		= 0x0014,		\
		.delay		= 0x010c,		\
		.done		= BIT(8),		\
		.done_dly	= BIT(1),		\
	}

/*
 * That map whole (the PDMA, its interrupts, GDMA1's forward configuration,
 * MAC address and counters, the TX VLAN table): designators of a struct
 * fe_reg_map
 */
#define FE_REGS_0100					\
	.pdma		= { FE_PDMA_REGS_0100 },	\
	.rx_irq		= FE_PDMA_RX_IRQ_0010,		\
	.tx_irq		= FE_PDMA_TX_IRQ_0010,		\
	.gdma_fwd	= 0x0020,			\
	.gdma_mac_adrl	= 0x002c,			\
	.gdma_mac_adrh	= 0x0030,			\
	.gdma_stride	= 0x0040,			\
	.gdm_cnt	= 0x0700,			\
	.vid_table	= 0x00a8

/* Their RX interrupt registers and bits: a struct fe_irq_regs */
#define FE_PDMA_RX_IRQ_0A00				\
	{						\
		.status		= 0x0a20,		\
		.mask		= 0x0a28,		\
		.delay		= 0x0a0c,		\
		.done		= FE_RX_DONE_INT0,	\
		.done_dly	= FE_RX_DONE_DLY,	\
	}

/* ...and TX's, in the same registers (RT5350, MT7628, MT7620) */
#define FE_PDMA_TX_IRQ_0A00				\
	{						\
		.status		= 0x0a20,		\
		.mask		= 0x0a28,		\
		.delay		= 0x0a0c,		\
		.done		= FE_TX_DONE_INT0,	\
		.done_dly	= FE_TX_DONE_DLY,	\
	}

/**
 * struct fe_qdma_regs - QDMA register offsets
 * @qtx_cfg: queue 0 configuration (reservations); queue n at + n * 0x10
 * @qtx_sch: queue 0 scheduler configuration
 * @glo_cfg: global configuration
 * @rst_idx: index reset
 * @fc_th: flow control thresholds
 * @int_grp: interrupt grouping
 * @hred: hardware random early drop
 * @ctx_ptr: CPU TX pointer: the first descriptor the CPU has not queued
 * @dtx_ptr: DMA TX pointer: the next descriptor the DMA sends
 * @crx_ptr: CPU release pointer: the last released descriptor the CPU took
 * @drx_ptr: DMA release pointer: the last descriptor the DMA released
 * @fq_head: free queue head
 * @fq_tail: free queue tail
 * @fq_count: free queue size
 * @fq_blen: free queue buffer length
 * @tx_sch_rate: scheduler rates
 */
struct fe_qdma_regs {
	u32 qtx_cfg;
	u32 qtx_sch;
	u32 glo_cfg;
	u32 rst_idx;
	u32 fc_th;
	u32 int_grp;
	u32 hred;
	u32 ctx_ptr;
	u32 dtx_ptr;
	u32 crx_ptr;
	u32 drx_ptr;
	u32 fq_head;
	u32 fq_tail;
	u32 fq_count;
	u32 fq_blen;
	u32 tx_sch_rate;
};

/**
 * struct fe_irq_regs - one DMA direction's interrupt registers and bits
 * @status: interrupt status, write 1 to clear
 * @mask: interrupt enable
 * @delay: delay interrupt configuration (RX half and TX half)
 * @done: the "ring 0 done" bit in @status and @mask
 * @done_dly: the delayed "done" bit (raised as @delay says)
 */
struct fe_irq_regs {
	u32 status;
	u32 mask;
	u32 delay;
	u32 done;
	u32 done_dly;
};

/**
 * struct fe_reg_map - where a SoC has its registers
 * @pdma: PDMA registers (RX always; TX too on PDMA-only SoCs)
 * @qdma: QDMA registers (SoCs with a QDMA)
 * @rx_irq: the PDMA's RX interrupt registers and bits
 * @tx_irq: the TX engine's interrupt registers and bits (the QDMA's, or
 *	the PDMA's own: then the same registers as RX's)
 * @fe_int_enable: the frame engine's own interrupt enable (0: none)
 * @gdma_fwd: GDMA1's forward configuration (GDMA SoCs)
 * @gdma_mac_adrl: GDMA1's MAC address, low four bytes
 * @gdma_mac_adrh: GDMA1's MAC address, high two bytes
 * @gdma_stride: from one GDMA's registers to the next one's
 * @gdm_cnt: GDMA1 MIB counters; GDMA n at + n * FE_GDM_CNT_STRIDE
 *	(0: none)
 * @cdma_csg: the CDMA's TX checksum generation enables (0: none; the
 *	descriptor alone asks)
 * @mac_base: offset of the MDIO master and MAC block from the frame
 *	engine's base (mapped separately: the DT's "reg" covers the frame
 *	engine only); 0: no such block
 * @mac_size: size of that block
 * @vid_table: the TX VLAN table, FE_VID_ENTRIES VIDs two to a register,
 *	whose entry txd4 names instead of carrying the tag (0: txd4
 *	carries the tag)
 * @mdio_access: the MDIO master's access register in the frame engine
 *	(RT2880, RT3883: FE_MDIO_*), valid when @mdio_cfg is not 0
 * @mdio_cfg: its configuration register, GMAC1's forced link mode
 *	(FE_MDIO_CFG_*); 0: no such MDIO master
 * @ppe: the packet processing engine's registers (fe_ppe.c); 0: none
 */
struct fe_reg_map {
	struct fe_pdma_regs pdma;
	struct fe_qdma_regs qdma;
	struct fe_irq_regs rx_irq;
	struct fe_irq_regs tx_irq;
	u32 fe_int_enable;
	u32 gdma_fwd;
	u32 gdma_mac_adrl;
	u32 gdma_mac_adrh;
	u32 gdma_stride;
	u32 gdm_cnt;
	u32 cdma_csg;
	u32 mac_base;
	u32 mac_size;
	u32 vid_table;
	u32 mdio_access;
	u32 mdio_cfg;
	u32 ppe;
};

struct fe_eth;
struct fe_mac;

/**
 * struct fe_soc_ops - SoC specific hooks
 * @hw_init: after the frame engine reset: SoC-wide setup, and the
 *	features of the chip's revision in &fe_eth.hw_features (optional)
 * @mac_config: set up a MAC's interface mode outside the frame engine,
 *	e.g. the TRGMII clock and GE mode in the system controller (optional)
 * @phylink_caps: fill in the interface modes and MAC capabilities of a
 *	MAC's phylink configuration
 */
struct fe_soc_ops {
	int (*hw_init)(struct fe_eth *eth);
	int (*mac_config)(struct fe_mac *mac, phy_interface_t interface);
	void (*phylink_caps)(struct fe_mac *mac, struct phylink_config *config);
};

/**
 * struct fe_tx_ops - a TX DMA engine (fe_tx_qdma.c, fe_tx_pdma.c)
 * @ctrl_word: which 32-bit word of a descriptor is its control word
 *	(FE_TXC_*): 1 (txd2, PDMA) or 2 (txd3, QDMA)
 * @ctrl_set: bits ORed into every control word the CPU hands over
 * @ctrl_idle: the control word of a descriptor the CPU owns
 * @link: txd2 links each descriptor to the next (QDMA), written again at
 *	each fill: the engine relinks the ones it gives back
 * @probe: one-time allocations (optional)
 * @ring_init: after the ring's descriptors are idle: link them as the
 *	engine wants and program its registers (DMA stopped)
 * @start: start the engine (optional: the PDMA's global configuration
 *	starts both directions)
 * @stop: stop the engine and wait for it (optional, likewise)
 * @kick: hand the descriptors up to @head over (tx->lock held); once per
 *	batch of frames
 * @release: give the engine the descriptors before @tail back (tx->lock
 *	held; optional); once per completion poll
 *
 * The per-frame descriptor writes go through the data above, without an
 * indirect call.
 */
struct fe_tx_ops {
	u8 ctrl_word;
	u32 ctrl_set;
	u32 ctrl_idle;
	bool link;
	int (*probe)(struct fe_eth *eth);
	void (*ring_init)(struct fe_eth *eth);
	void (*start)(struct fe_eth *eth);
	void (*stop)(struct fe_eth *eth);
	void (*kick)(struct fe_eth *eth, unsigned int head);
	void (*release)(struct fe_eth *eth, unsigned int tail);
};

/**
 * struct fe_stat_desc - an ethtool statistic kept in a structure
 * @name: its name
 * @offset: its u64's offset in the structure
 */
struct fe_stat_desc {
	char name[ETH_GSTRING_LEN];
	size_t offset;
};

/**
 * struct fe_mac_ops - the frame engine's MAC side: the GDMAs and the MACs
 *	behind them (fe_gdma.c), or the RT5350/MT7628's SDM (fe_sdm.c)
 * @fwd_config: let the MAC's frames through to the CPU or not, with RX
 *	checksum verification as the netdev's features say
 * @set_addr: program the MAC address
 * @set_max_rx: the longest frame the MAC receives for an MTU (optional)
 * @link_up: phylink's mac_link_up (optional)
 * @link_down: phylink's mac_link_down (optional)
 * @stats_update: fold the clear-on-read counters into the MAC's
 *	fe_hw_stats (eth->stats_lock held)
 * @hw_stats: the counters ethtool -S shows
 * @num_hw_stats: their number
 * @has_rx_overflow: fe_hw_stats.rx_overflow counts frames the RX DMA had
 *	no room for (the RX stall watch needs it)
 * @has_pause_rmon: fe_hw_stats has pause frame and length error counts
 */
struct fe_mac_ops {
	void (*fwd_config)(struct fe_mac *mac, bool up);
	void (*set_addr)(struct fe_mac *mac, const u8 *addr);
	void (*set_max_rx)(struct fe_mac *mac, unsigned int mtu);
	void (*link_up)(struct fe_mac *mac, int speed, int duplex,
			bool tx_pause, bool rx_pause);
	void (*link_down)(struct fe_mac *mac);
	void (*stats_update)(struct fe_mac *mac);
	const struct fe_stat_desc *hw_stats;
	unsigned int num_hw_stats;
	bool has_rx_overflow;
	bool has_pause_rmon;
};

/**
 * struct fe_soc_data - what tells one SoC's frame engine from another's
 * @name: SoC name, for messages
 * @regs: register offsets
 * @ops: SoC specific hooks
 * @tx_ops: the TX DMA engine
 * @mac_ops: the MAC side
 * @clk_names: the clocks the frame engine needs, NULL-terminated
 * @reset_names: its resets, NULL-terminated, asserted together
 * @needs_ethsys: it needs the system controller ("mediatek,ethsys")
 * @num_macs: number of GMACs with their own netdev
 * @max_frame: largest frame the MACs receive, FCS included
 * @rx_fixed_buf_len: the RX DMA fills up to this many bytes whatever the
 *	descriptor says (0: it takes the length from the descriptor)
 * @rx_2b_offset: the RX DMA can start frames 2 bytes into the buffer
 *	(FE_DMA_RX_2B_OFFSET); without it the buffer address is offset
 * @rx_l4_valid: rxd4's "checksums verified" bit
 * @rx_sport: rxd4's source port field (0: every frame is MAC 0's)...
 * @rx_sport_base: ...and its value for MAC 0
 * @rx_swport: rxd4's field of the switch port a frame came in by, which
 *	DSA is told in a metadata dst (0: none)
 * @pdma_glo_cfg: the PDMA global configuration that starts it
 * @hw_features: netdev features the frame engine offers (every revision)
 * @txd4_fport: txd4's forward port field (GDMA n + 1); 0: none
 * @txd4_swports: txd4's field of the switch ports a frame is forced to,
 *	which DSA names in a metadata dst (0: none)
 * @rx_ring_size: default RX ring size
 * @tx_ring_size: default TX ring size
 * @fq_size: QDMA free queue entries (QDMA only)
 * @tx_queues: QDMA TX queues each netdev gets, by DSA port or MAC (0: one)
 * @has_stag: the CDM can parse (TX) and strip (RX) the MTK special tag
 * @has_gdm_tx_cnt: GDMA counters include TX
 */
struct fe_soc_data {
	const char *name;
	const struct fe_reg_map *regs;
	const struct fe_soc_ops *ops;
	const struct fe_tx_ops *tx_ops;
	const struct fe_mac_ops *mac_ops;
	const char * const *clk_names;
	const char * const *reset_names;
	bool needs_ethsys;
	unsigned int num_macs;
	unsigned int max_frame;
	unsigned int rx_fixed_buf_len;
	bool rx_2b_offset;
	u32 rx_l4_valid;
	u32 rx_sport;
	u8 rx_sport_base;
	u32 rx_swport;
	u32 pdma_glo_cfg;
	netdev_features_t hw_features;
	u32 txd4_fport;
	u32 txd4_swports;
	unsigned int rx_ring_size;
	unsigned int tx_ring_size;
	unsigned int fq_size;
	unsigned int tx_queues;
	bool has_stag;
	bool has_gdm_tx_cnt;
};

/**
 * struct fe_hw_stats - GDMA counters, accumulated (they clear on read)
 * @syncp: u64 stats sequence
 * @rx_bytes: received bytes
 * @rx_packets: received frames
 * @rx_overflow: frames dropped for lack of RX descriptors or FIFO space
 * @rx_fcs_errors: frames with a bad FCS
 * @rx_short_errors: runt frames
 * @rx_long_errors: oversized frames
 * @rx_checksum_errors: frames whose IP/TCP/UDP checksum failed
 * @rx_flow_control_packets: pause frames received
 * @tx_skip: frames the GDMA dropped
 * @tx_collisions: collisions
 * @tx_bytes: sent bytes
 * @tx_packets: sent frames
 */
struct fe_hw_stats {
	struct u64_stats_sync syncp;
	u64 rx_bytes;
	u64 rx_packets;
	u64 rx_overflow;
	u64 rx_fcs_errors;
	u64 rx_short_errors;
	u64 rx_long_errors;
	u64 rx_checksum_errors;
	u64 rx_flow_control_packets;
	u64 tx_skip;
	u64 tx_collisions;
	u64 tx_bytes;
	u64 tx_packets;
};

#define FE_HW_STAT(m)	{ #m, offsetof(struct fe_hw_stats, m) }

/**
 * struct fe_sw_stats - what the driver counts per netdev
 * @rx_syncp: u64 stats sequence of the RX NAPI's counters
 * @rx_packets: frames received (to the stack or XDP)
 * @rx_bytes: their bytes
 * @rx_dropped: frames dropped by the driver (no buffer, too long)
 * @xdp_drop: XDP_DROP verdicts (and failed XDP_TX/REDIRECT)
 * @xdp_pass: XDP_PASS verdicts
 * @xdp_tx: XDP_TX frames queued
 * @xdp_tx_errors: XDP_TX frames that found no room
 * @xdp_redirect: XDP_REDIRECT verdicts that succeeded
 * @tx_syncp: u64 stats sequence of the TX NAPI's counters
 * @tx_packets: frames completed
 * @tx_bytes: their bytes
 * @tx_dropped: frames the driver could not queue (any context)
 * @xdp_xmit: frames sent through ndo_xdp_xmit (any context)
 * @xdp_xmit_errors: frames ndo_xdp_xmit could not queue (any context)
 */
struct fe_sw_stats {
	struct u64_stats_sync rx_syncp;
	u64_stats_t rx_packets;
	u64_stats_t rx_bytes;
	u64_stats_t rx_dropped;
	u64_stats_t xdp_drop;
	u64_stats_t xdp_pass;
	u64_stats_t xdp_tx;
	u64_stats_t xdp_tx_errors;
	u64_stats_t xdp_redirect;
	struct u64_stats_sync tx_syncp;
	u64_stats_t tx_packets;
	u64_stats_t tx_bytes;
	atomic64_t tx_dropped;
	atomic64_t xdp_xmit;
	atomic64_t xdp_xmit_errors;
};

/**
 * enum fe_tx_type - what a TX descriptor's buffer is
 * @FE_TX_NONE: nothing (a free descriptor, or a fragment after the first)
 * @FE_TX_SKB: an skb (unmap, free on completion)
 * @FE_TX_XDP_TX: a page of our RX page_pool (XDP_TX; back to the pool)
 * @FE_TX_XDP_NDO: an xdp_frame from ndo_xdp_xmit (unmap and return)
 */
enum fe_tx_type {
	FE_TX_NONE,
	FE_TX_SKB,
	FE_TX_XDP_TX,
	FE_TX_XDP_NDO,
};

/**
 * struct fe_tx_buf - software state of a TX descriptor
 * @type: what @data is, on the frame's last descriptor
 * @mac: the MAC (0/1) the frame went to
 * @queue: the netdev TX queue (and QDMA queue) of the frame, on its last
 *	descriptor
 * @map_single: @dma_addr is a dma_map_single() mapping (else a page)
 * @data: skb, page or xdp_frame, on the last descriptor of a frame
 * @dma_addr: mapping of this descriptor's buffer (0: not ours to unmap)
 * @dma_len: its length
 * @bytes: the frame's length for BQL/stats, on the last descriptor
 * @copy: this descriptor's slot in the TX copy area (short frames)
 * @copy_dma: the slot's DMA address
 */
struct fe_tx_buf {
	u8 type;
	u8 mac;
	u8 queue;
	bool map_single;
	void *data;
	dma_addr_t dma_addr;
	u32 dma_len;
	u32 bytes;
	void *copy;
	dma_addr_t copy_dma;
};

/**
 * struct fe_tx_ring - the TX descriptor ring (QDMA: a closed linked list;
 *	PDMA: ring 0)
 * @desc: descriptors
 * @phys: their DMA address
 * @buf: software state, one per descriptor
 * @size: number of descriptors
 * @head: next descriptor to fill (producer)
 * @tail: oldest descriptor not yet completed (consumer)
 * @lock: serializes producers (two netdevs, XDP) and the completion
 * @stopped: bitmap of the MACs whose queue was stopped for lack of room
 * @copy_pages: the TX copy area, FE_TX_COPY_SLOT bytes per descriptor,
 *	mapped to the device for as long as the ring exists
 * @copy_npages: number of @copy_pages
 * @ctrl_word: the engine's fe_tx_ops.ctrl_word (a copy: no pointer chase
 *	per descriptor)
 * @ctrl_set: the engine's fe_tx_ops.ctrl_set
 * @ctrl_idle: the engine's fe_tx_ops.ctrl_idle
 * @link: the engine's fe_tx_ops.link
 * @ooo: frames may complete out of order (the netdevs have more than one
 *	TX queue, each a QDMA queue with its own rate)
 */
struct fe_tx_ring {
	struct fe_tx_desc *desc;
	dma_addr_t phys;
	struct fe_tx_buf *buf;
	struct page **copy_pages;
	unsigned int copy_npages;
	unsigned int size;
	unsigned int head;
	unsigned int tail;
	spinlock_t lock;	/* see above */
	unsigned long stopped;
	u8 ctrl_word;
	u32 ctrl_set;
	u32 ctrl_idle;
	bool link;
	bool ooo;
};

/**
 * struct fe_rx_buf - one RX descriptor's buffer
 * @page: its page_pool page
 * @data: the page's address (page_address() is a call on HIGHMEM kernels)
 */
struct fe_rx_buf {
	struct page *page;
	void *data;
};

/**
 * struct fe_rx_ring - a PDMA RX ring on page_pool pages
 * @desc: descriptors
 * @phys: their DMA address
 * @buf: the buffer behind each descriptor
 * @pool: page_pool the buffers come from
 * @size: number of descriptors
 * @idx: next descriptor to look at
 * @buf_len: buffer size the DMA may fill (from the frame's start)
 * @in_frame: inside a frame that spans descriptors (being dropped)
 * @rxd2_rearm: rxd2 of a descriptor given to the DMA
 * @dma_off: where in a page the DMA writes (headroom, alignment)
 * @l4_valid: the SoC's fe_soc_data.rx_l4_valid
 * @sport_shift: shift of the SoC's fe_soc_data.rx_sport field
 * @sport_mask: its mask, shifted down
 * @sport_base: the SoC's fe_soc_data.rx_sport_base
 * @swport_shift: shift of the SoC's fe_soc_data.rx_swport field
 * @swport_mask: its mask, shifted down (0: none)
 */
struct fe_rx_ring {
	struct fe_rx_desc *desc;
	dma_addr_t phys;
	struct fe_rx_buf *buf;
	struct page_pool *pool;
	unsigned int size;
	unsigned int idx;
	unsigned int buf_len;
	bool in_frame;
	u32 rxd2_rearm;
	u32 dma_off;
	u32 l4_valid;
	u8 sport_shift;
	u8 sport_mask;
	u8 sport_base;
	u8 swport_shift;
	u8 swport_mask;
};

/**
 * struct fe_coal - interrupt coalescing for one direction
 * @usecs: delay in microseconds (0 with @frames 0: no coalescing)
 * @frames: frame count
 * @adaptive: net DIM sets @usecs and @frames (ethtool adaptive-rx/-tx)
 * @dim: DIM's state, while @adaptive
 * @events: interrupts, for DIM's samples
 * @packets: frames, for DIM's samples
 * @bytes: bytes, for DIM's samples
 */
struct fe_coal {
	u32 usecs;
	u32 frames;
	bool adaptive;
	struct dim dim;
	u16 events;
	u64 packets;
	u64 bytes;
};

/**
 * struct fe_mac - one GMAC and its netdev
 * @id: GMAC number (0 or 1)
 * @eth: the frame engine
 * @netdev: its netdev
 * @np: its DT node
 * @interface: the interface mode phylink configured last
 * @phylink: its phylink instance
 * @phylink_config: phylink configuration
 * @stats: software counters
 * @hw_stats: GDMA counters
 * @xdp_rxq: XDP RX queue info (ifindex for programs, memory model)
 * @xdp_prog: XDP program for the frames this MAC receives
 * @dsa_untag: RX strips the special tag in hardware (DSA conduit)
 * @txd4: txd4 of every descriptor of this MAC's frames (its forward port)
 * @speed: the link's speed phylink last gave (0: down)
 */
struct fe_mac {
	unsigned int id;
	struct fe_eth *eth;
	struct net_device *netdev;
	struct device_node *np;
	phy_interface_t interface;
	struct phylink *phylink;
	struct phylink_config phylink_config;
	struct fe_sw_stats stats;
	struct fe_hw_stats hw_stats;
	struct xdp_rxq_info xdp_rxq;
	struct bpf_prog __rcu *xdp_prog;
	bool dsa_untag;
	u32 txd4;
	int speed;
};

/* RX buffers: XDP headroom, then the DMA's 2-byte offset (IP alignment) */
#define FE_RX_HEADROOM		XDP_PACKET_HEADROOM
#define FE_RX_IP_ALIGN		(NET_IP_ALIGN ? 2 : 0)

/* RX copybreak: the default, and the most ethtool may set */
#define FE_RX_COPYBREAK		256
#define FE_RX_COPYBREAK_MAX	1024
/* TX copybreak: the default; the most ethtool may set is the slot size */
#define FE_TX_COPYBREAK		128
#define FE_TX_COPY_SLOT		128

/**
 * struct fe_rx_batch - what one RX poll accumulates before touching shared
 *	state (the counters are zero between polls: fe_rx_account() adds
 *	and clears them)
 * @packets: frames per MAC
 * @bytes: bytes per MAC
 * @dropped: drops per MAC
 * @xdp: XDP verdict counts per MAC, indexed by XDP action (valid once
 *	@xdp_ran: zeroed when the poll first runs a program)
 * @xdp_tx_err: XDP_TX frames with no room, per MAC (likewise)
 * @xdp_ran: an XDP program ran in this poll
 * @xdp_tx: XDP_TX frames were queued: kick the TX DMA
 * @redirect: XDP_REDIRECT happened: flush
 */
struct fe_rx_batch {
	u32 packets[FE_MAX_MACS];
	u32 bytes[FE_MAX_MACS];
	u32 dropped[FE_MAX_MACS];
	u32 xdp[FE_MAX_MACS][XDP_REDIRECT + 1];
	u32 xdp_tx_err[FE_MAX_MACS];
	bool xdp_ran;
	bool xdp_tx;
	bool redirect;
};

/**
 * struct fe_eth - a frame engine
 * @dev: platform device
 * @soc: per-SoC data
 * @base: frame engine registers
 * @mac_base: MDIO master and MAC registers
 * @ethsys: system controller (syscon)
 * @hw_features: netdev features this chip's frame engine offers
 * @irq: the frame engine's interrupt
 * @mac: the GMACs that have a DT node
 * @napi_dev: dummy netdev the shared NAPI contexts hang on
 * @rx_napi: RX NAPI
 * @tx_napi: TX completion NAPI
 * @rx: RX ring 0
 * @tx: TX ring
 * @fq: QDMA free queue descriptors
 * @fq_phys: their DMA address
 * @fq_buf: QDMA free queue buffers
 * @fq_buf_phys: their DMA address
 * @mii_bus: MDIO bus
 * @mdc_divider: MDC clock divider
 * @rx_irq_bit: PDMA RX interrupt bit in use (delayed or not)
 * @tx_irq_bit: TX interrupt bit in use
 * @irq_shared: RX and TX share one interrupt enable register
 * @irq_lock: serializes its read-modify-writes, then
 * @rx_irq_en: RX's bits in it
 * @tx_irq_en: TX's bits in it
 * @rx_irq_status: the SoC's rx_irq.status (copies of the register offsets
 *	the interrupt handler and the polls use, one load away)
 * @rx_irq_mask: its rx_irq.mask
 * @tx_irq_status: its tx_irq.status
 * @tx_irq_mask: its tx_irq.mask
 * @rx_coal: RX coalescing
 * @tx_coal: TX coalescing
 * @coal_lock: serializes the writes of the delay registers (both halves)
 * @rx_batch: the RX poll's counts (NAPI context only)
 * @rx_copybreak: RX frames up to this length are copied (ethtool
 *	--set-tunable rx-copybreak)
 * @tx_copybreak: TX frames up to this length are copied into the TX copy
 *	area instead of being mapped (ethtool --set-tunable tx-copybreak)
 * @rx_ring_size: RX ring size (ethtool -G)
 * @tx_ring_size: TX ring size
 * @open_count: netdevs that are up
 * @dma_running: the rings exist and the DMA runs
 * @vid_entry: the TX VLAN table's entry + 1 of each VID (0: none), when
 *	the SoC has the table (fe_tx.c)
 * @vid_table: the VID in each entry
 * @vid_used: the entries holding a VID the stack uses
 * @vid_stale: entries freed while the DMA ran, which queued descriptors
 *	may still name: free again once the TX ring is reset
 * @dsa_meta: metadata dsts telling DSA the source port of untagged frames
 * @xdp_progs: number of MACs with an XDP program
 * @xdp_mem: XDP memory model of the RX page_pool
 * @stats_lock: serializes reading the clear-on-read counters
 * @reset_work: TX timeout and RX stall recovery
 * @resetting: a reset is in progress
 * @rx_watch: looks for a stalled RX DMA while the DMA runs (fe_rx_watch())
 * @rx_watch_overflow: the GDMAs' RX overflow count it last saw
 * @rx_watch_drx: the RX DMA index it last saw
 * @rx_watch_idx: our RX ring index it last saw
 * @rx_watch_strikes: periods in a row it saw the DMA stalled
 * @ppe: the packet processing engine, if the SoC has one (fe_ppe.c)
 * @netdev_nb: sees DSA user ports' link changes (a queue's rate)
 * @qtx_sch: each QDMA queue's QTX_SCH, kept across DMA restarts
 * @qtx_speed: the link speed each QDMA queue has the max rate of (0: none)
 * @qtx_tc_kbps: the rate a tc TBF gives each QDMA queue (0: none)
 */
struct fe_eth {
	struct device *dev;
	const struct fe_soc_data *soc;
	void __iomem *base;
	void __iomem *mac_base;
	struct regmap *ethsys;
	netdev_features_t hw_features;
	int irq;
	struct fe_mac *mac[FE_MAX_MACS];

	struct net_device *napi_dev;
	struct napi_struct rx_napi;
	struct napi_struct tx_napi;
	struct fe_rx_ring rx;
	struct fe_tx_ring tx;
	struct fe_tx_desc *fq;
	dma_addr_t fq_phys;
	void *fq_buf;
	dma_addr_t fq_buf_phys;

	struct mii_bus *mii_bus;
	unsigned int mdc_divider;

	u32 rx_irq_bit;
	u32 tx_irq_bit;
	bool irq_shared;
	spinlock_t irq_lock;	/* the shared interrupt enable register */
	u32 rx_irq_en;
	u32 tx_irq_en;
	u32 rx_irq_status;
	u32 rx_irq_mask;
	u32 tx_irq_status;
	u32 tx_irq_mask;
	struct fe_coal rx_coal;
	struct fe_coal tx_coal;
	spinlock_t coal_lock;	/* delay registers: RX and TX halves */
	struct fe_rx_batch rx_batch;
	u32 rx_copybreak;
	u32 tx_copybreak;
	unsigned int rx_ring_size;
	unsigned int tx_ring_size;
	unsigned int open_count;
	bool dma_running;

	u8 *vid_entry;
	u16 vid_table[FE_VID_ENTRIES];
	unsigned long vid_used;
	unsigned long vid_stale;

	struct metadata_dst *dsa_meta[8];
	unsigned int xdp_progs;
	struct xdp_mem_info xdp_mem;

	spinlock_t stats_lock;	/* counters clear on read */
	struct work_struct reset_work;
	bool resetting;

	struct delayed_work rx_watch;
	u64 rx_watch_overflow;
	u32 rx_watch_drx;
	unsigned int rx_watch_idx;
	unsigned int rx_watch_strikes;
	struct fe_ppe *ppe;

	struct notifier_block netdev_nb;
	u32 qtx_sch[FE_QTX_NUM];
	int qtx_speed[FE_QTX_NUM];
	u64 qtx_tc_kbps[FE_QTX_NUM];
};

static inline u32 fe_r32(struct fe_eth *eth, u32 reg)
{
	return readl(eth->base + reg);
}

static inline void fe_w32(struct fe_eth *eth, u32 val, u32 reg)
{
	writel(val, eth->base + reg);
}

static inline void fe_m32(struct fe_eth *eth, u32 clr, u32 set, u32 reg)
{
	fe_w32(eth, (fe_r32(eth, reg) & ~clr) | set, reg);
}

static inline u32 fe_mac_r32(struct fe_eth *eth, u32 reg)
{
	return readl(eth->mac_base + reg);
}

static inline void fe_mac_w32(struct fe_eth *eth, u32 val, u32 reg)
{
	writel(val, eth->mac_base + reg);
}

/* Ring index arithmetic without a division on the hot paths */
static inline unsigned int fe_ring_next(unsigned int idx, unsigned int size)
{
	return idx + 1 == size ? 0 : idx + 1;
}

static inline unsigned int fe_ring_prev(unsigned int idx, unsigned int size)
{
	return idx ? idx - 1 : size - 1;
}

static inline dma_addr_t fe_tx_desc_phys(const struct fe_tx_ring *tx,
					 unsigned int idx)
{
	return tx->phys + idx * sizeof(struct fe_tx_desc);
}

/* fe_core.c */
int fe_restart(struct fe_eth *eth);
int fe_dma_busy_wait(struct fe_eth *eth, u32 reg);
bool fe_mac_uses_dsa_tag(struct fe_mac *mac);
void fe_phylink_caps_gmii(struct fe_mac *mac, struct phylink_config *config);

/* fe_ppe.c */
int fe_ppe_probe(struct fe_eth *eth);
void fe_ppe_remove(struct fe_eth *eth);
void fe_ppe_start(struct fe_eth *eth, unsigned int mtu);
void fe_ppe_stop(struct fe_eth *eth);
int fe_ppe_setup_tc(struct net_device *dev, enum tc_setup_type type,
		    void *type_data);

/* fe_irq.c */
irqreturn_t fe_irq(int irq, void *priv);
void fe_irq_set_shared(struct fe_eth *eth, bool tx, u32 bits);
void fe_irq_disable_all(struct fe_eth *eth);
void fe_write_coalesce(struct fe_eth *eth);
void fe_dim_init(struct fe_eth *eth, struct fe_coal *c);
void fe_set_coalesce(struct fe_eth *eth, const struct ethtool_coalesce *ec);

/* Set one direction's interrupt enable bits (the hot paths: inline) */
static inline void fe_irq_set(struct fe_eth *eth, bool tx, u32 bits)
{
	if (unlikely(eth->irq_shared))
		fe_irq_set_shared(eth, tx, bits);
	else
		fe_w32(eth, bits, tx ? eth->tx_irq_mask : eth->rx_irq_mask);
}

static inline void fe_rx_irq_enable(struct fe_eth *eth)
{
	fe_irq_set(eth, false, eth->rx_irq_bit);
}

static inline void fe_tx_irq_enable(struct fe_eth *eth)
{
	fe_irq_set(eth, true, eth->tx_irq_bit);
}

/*
 * One NAPI poll's work for DIM (NAPI context, while @c->adaptive); its
 * events are the interrupts, counted by fe_irq()
 */
static inline void fe_dim_sample(struct fe_coal *c, u32 packets, u32 bytes)
{
	struct dim_sample sample = {};

	c->packets += packets;
	c->bytes += bytes;
	dim_update_sample(c->events, c->packets, c->bytes, &sample);
	net_dim(&c->dim, sample);
}

/* fe_rx.c */
unsigned int fe_rx_buf_len(struct fe_eth *eth);
int fe_rx_alloc(struct fe_eth *eth);
void fe_rx_free_ring(struct fe_eth *eth);
int fe_rx_poll(struct napi_struct *napi, int budget);

/* fe_tx.c */
int fe_tx_alloc(struct fe_eth *eth);
void fe_tx_free_ring(struct fe_eth *eth);
int fe_xdp_queue(struct fe_eth *eth, struct fe_mac *mac, dma_addr_t addr,
		 u32 len, bool map_single, enum fe_tx_type type, void *data);
void fe_tx_kick(struct fe_eth *eth);
int fe_xdp_xmit(struct net_device *dev, int n, struct xdp_frame **frames,
		u32 flags);
int fe_tx_poll(struct napi_struct *napi, int budget);
netdev_tx_t fe_start_xmit(struct sk_buff *skb, struct net_device *dev);
int fe_vlan_rx_add_vid(struct net_device *dev, __be16 proto, u16 vid);
int fe_vlan_rx_kill_vid(struct net_device *dev, __be16 proto, u16 vid);
void fe_vid_table_init(struct fe_eth *eth);

/* fe_gdma.c */
extern const struct fe_mac_ops fe_gdma_mac_ops;
extern const struct fe_mac_ops fe_gdma_rt3050_mac_ops;
extern const struct fe_mac_ops fe_gdma_rt2880_mac_ops;
unsigned int fe_gdma_max_rx_len(unsigned int mtu);

/* fe_sdm.c */
extern const struct fe_mac_ops fe_sdm_mac_ops;

/* fe_tx_qdma.c, fe_tx_pdma.c */
extern const struct fe_tx_ops fe_qdma_tx_ops;
void fe_qdma_set_queue_speed(struct fe_eth *eth, unsigned int queue,
			     int speed);
int fe_qdma_set_queue_rate(struct fe_eth *eth, unsigned int queue, u64 bps);
extern const struct fe_tx_ops fe_pdma_tx_ops;

/* fe_mdio.c */
int fe_mdio_init(struct fe_eth *eth);
void fe_mdio_cleanup(struct fe_eth *eth);

/* fe_ethtool.c */
extern const struct ethtool_ops fe_ethtool_ops;

/* SoCs */
extern const struct fe_soc_data fe_mt7621_data;
extern const struct fe_soc_data fe_mt7620_data;
extern const struct fe_soc_data fe_rt5350_data;
extern const struct fe_soc_data fe_rt3050_data;
extern const struct fe_soc_data fe_rt3883_data;
extern const struct fe_soc_data fe_rt2880_data;

#endif /* FE_CORE_H */
