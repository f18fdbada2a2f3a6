/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ralink/MediaTek switch cores: the MT7530 core of the MT7621 SoC and the
 * MT7620's gigabit switch (GSW)
 *
 * Register names follow the MT7530 datasheet as mainline's mt7530 driver
 * spells them; the GSW's own ones as OpenWrt's gsw_mt7620.h does.
 */

#ifndef _RALINK_MT7530_H_
#define _RALINK_MT7530_H_

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/hashtable.h>
#include <linux/if_ether.h>
#include <linux/mutex.h>
#include <linux/phylink.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <net/dsa.h>

#define RSW_MAX_PORTS			7
#define RSW_MTK_TAG_LEN			4

/* Table commands complete in microseconds */
#define RSW_TABLE_POLL_US		20
#define RSW_TABLE_TIMEOUT_US		20000

/* Global ARL control */
#define MT7530_AGC			0x000c
#define  AGC_LOCAL_EN			BIT(7)	/* mirror to the ingress port */

/* MAC forward control: flood maps, trap port, mirror port */
#define MT7530_MFC			0x0010
#define  MFC_BC_FFP			GENMASK(31, 24)
#define  MFC_UNM_FFP			GENMASK(23, 16)
#define  MFC_UNU_FFP			GENMASK(15, 8)
#define  MFC_CPU_EN			BIT(7)
#define  MFC_CPU_PORT			GENMASK(6, 4)
#define  MFC_MIRROR_EN			BIT(3)
#define  MFC_MIRROR_PORT		GENMASK(2, 0)

/* Link-local frame control: BPDU/PAE, 01-80-C2-00-00-{01,02}, {03,0E} */
#define MT7530_BPC			0x0024
#define MT7530_RGAC1			0x0028
#define MT7530_RGAC2			0x002c
#define  RGAC_HI_BPDU_FR		BIT(25)
#define  RGAC_HI_EG_TAG			GENMASK(24, 22)
#define  RGAC_HI_PORT_FW		GENMASK(18, 16)
#define  RGAC_LO_BPDU_FR		BIT(9)
#define  RGAC_LO_EG_TAG			GENMASK(8, 6)
#define  RGAC_LO_PORT_FW		GENMASK(2, 0)
#define  RGAC_FW_CPU_ONLY		6

/* Address table access */
#define MT7530_ATA1			0x0074
#define MT7530_ATA2			0x0078
#define  ATA2_MAC45			GENMASK(31, 16)
#define  ATA2_IVL			BIT(15)
#define  ATA2_FID			GENMASK(14, 12)
#define  ATA2_CVID			GENMASK(11, 0)
#define MT7530_ATWD			0x007c
#define  ATWD_AGE			GENMASK(31, 24)
#define  ATWD_PORT_MAP			GENMASK(11, 4)
#define  ATWD_STATUS			GENMASK(3, 2)
#define  ATWD_STATUS_EMPTY		0
#define  ATWD_STATUS_STATIC		3
#define MT7530_ATC			0x0080
#define  ATC_BUSY			BIT(15)
#define  ATC_SRCH_END			BIT(14)
#define  ATC_SRCH_HIT			BIT(13)
#define  ATC_INVALID			BIT(12)
#define  ATC_MAT			GENMASK(11, 8)	/* 0: the MAC table */
#define  ATC_CMD			GENMASK(2, 0)
#define  ATC_CMD_READ			0
#define  ATC_CMD_WRITE			1
#define  ATC_CMD_CLEAN			2	/* every dynamic entry */
#define  ATC_CMD_START			4
#define  ATC_CMD_NEXT			5
#define MT7530_TSRA1			0x0084
#define MT7530_TSRA2			0x0088
#define MT7530_ATRD			0x008c	/* fields as ATWD */
#define MT7530_NUM_FDB_RECORDS		2048

/* VLAN table access */
#define MT7530_VTCR			0x0090
#define  VTCR_BUSY			BIT(31)
#define  VTCR_INVALID			BIT(16)
#define  VTCR_FUNC			GENMASK(15, 12)
#define  VTCR_FUNC_RD_VID		0
#define  VTCR_FUNC_WR_VID		1
#define  VTCR_VID			GENMASK(11, 0)
#define MT7530_VAWD1			0x0094
#define  VAWD1_IVL_MAC			BIT(30)
#define  VAWD1_EG_CON			BIT(29)
#define  VAWD1_VTAG_EN			BIT(28)
#define  VAWD1_PORT_MEM			GENMASK(23, 16)
#define  VAWD1_FID			GENMASK(3, 1)
#define  VAWD1_VALID			BIT(0)
#define MT7530_VAWD2			0x0098
#define  VAWD2_ETAG(p)			(GENMASK(1, 0) << ((p) * 2))
#define  ETAG_UNTAG			0
#define  ETAG_TAG			2
#define  ETAG_STACK			3

/*
 * The ACL tables, through VTCR/VAWD1/VAWD2: MediaTek's switch utility
 * (switch_fun.c) and DENG Qingfang's 2021 RFC name them (NOTES.md,
 * "Issue 20: the MT7530's ACL engine").
 */
#define  VTCR_FUNC_WR_ACL_PATTERN	5
#define  VTCR_FUNC_WR_ACL_MASK		9
#define  VTCR_FUNC_WR_ACL_ACTION	11
#define RSW_ACL_PATTERNS		64
#define RSW_ACL_RULES			32
/* Pattern entry: VAWD1 */
#define  ACL_BIT_CMP			GENMASK(31, 16)
#define  ACL_CMP_PAT			GENMASK(15, 0)
/* Pattern entry: VAWD2 */
#define  ACL_TABLE_EN			BIT(19)
#define  ACL_OFST_TP			GENMASK(18, 16)
#define  ACL_MAC_HEADER			0
#define  ACL_IP_HEADER			2
#define  ACL_TCP_UDP_HEADER		4
#define  ACL_SP				GENMASK(15, 8)
#define  ACL_WORD_OFST			GENMASK(7, 1)
/* Rule action: VAWD1 */
#define  ACL_PORT			GENMASK(15, 8)
#define  ACL_PORT_EN			BIT(7)
#define  ACL_MIR_EN			BIT(3)
#define  ACL_PORT_FW			GENMASK(2, 0)
#define  ACL_FW_CPU_ONLY		6
#define  ACL_FW_DROP			7

/* Address ageing: (AGE_CNT + 1) * (AGE_UNIT + 1) seconds */
#define MT7530_AAC			0x00a0
#define  AAC_AGE_DIS			BIT(20)
#define  AAC_AGE_CNT			GENMASK(19, 12)
#define  AAC_AGE_UNIT			GENMASK(11, 0)

/*
 * Per-port egress rate limit and its global register (source: MediaTek's
 * switch utility, switch_fun.c's _egress_rate_set(), as for the MT7530)
 */
#define MT7530_ERLCR_P(p)		(0x1040 + (p) * 0x100)
#define  ERLCR_CIR			GENMASK(31, 16)
#define  ERLCR_EN			BIT(15)
/* What the utility writes beside ERLCR_EN on the MT7530; meaning unknown */
#define  ERLCR_MT7530_SDK_BITS		(GENMASK(10, 8) | BIT(7) | GENMASK(3, 0))
#define ERLCR_CIR_KBPS			32	/* kbit/s a CIR step */
#define ERLCR_MAX_KBPS			1000000	/* the utility's line rate */
/* The utility keeps these bits and clears the rest after each ERLCR
 * write; what either does is not known.
 */
#define MT7530_GERLCR			0x10e0
#define  GERLCR_SDK_KEEP		GENMASK(4, 3)

/* Per-port ARL registers */
#define MT7530_SSP_P(p)			(0x2000 + (p) * 0x100)
#define  SSP_FID_PST(fid)		(GENMASK(1, 0) << ((fid) * 2))
#define  STP_DISABLED			0
#define  STP_BLOCKING			1	/* and listening */
#define  STP_LEARNING			2
#define  STP_FORWARDING			3
#define MT7530_PCR_P(p)			(0x2004 + (p) * 0x100)
#define  PCR_MATRIX			GENMASK(23, 16)
#define  PCR_PORT_ACL_EN		BIT(10)
#define  PCR_TX_MIR			BIT(9)
#define  PCR_RX_MIR			BIT(8)
#define  PCR_PORT_VLAN			GENMASK(1, 0)
#define  PORT_VLAN_MATRIX		0	/* the port matrix alone */
#define  PORT_VLAN_FALLBACK		1	/* VLAN table, else matrix */
#define  PORT_VLAN_SECURITY		3	/* VLAN table, strict */
#define MT7530_PSC_P(p)			(0x200c + (p) * 0x100)
#define  PSC_SA_DIS			BIT(4)	/* no source learning */
#define MT7530_PVC_P(p)			(0x2010 + (p) * 0x100)
#define  PVC_EG_TAG			GENMASK(10, 8)
#define  PVC_EG_TAG_DISABLED		0	/* the VLAN table decides */
#define  PVC_EG_TAG_CONSISTENT		1	/* as received */
#define  PVC_VLAN_ATTR			GENMASK(7, 6)
#define  VLAN_ATTR_USER			0
#define  VLAN_ATTR_TRANSPARENT		3
#define  PVC_PORT_SPEC_TAG		BIT(5)	/* the MediaTek special tag */
#define  PVC_ACC_FRM			GENMASK(1, 0)
#define  ACC_FRM_ALL			0
#define  ACC_FRM_TAGGED			1
#define MT7530_PPBV1_P(p)		(0x2014 + (p) * 0x100)
#define  PPBV1_G0_PORT_VID		GENMASK(11, 0)

/* Port MAC */
#define MT7530_PMCR_P(p)		(0x3000 + (p) * 0x100)
#define  PMCR_FORCE_MODE		BIT(15)
#define  PMCR_MAC_TX_EN			BIT(14)
#define  PMCR_MAC_RX_EN			BIT(13)
#define  PMCR_FORCE_EEE1G		BIT(7)
#define  PMCR_FORCE_EEE100		BIT(6)
#define  PMCR_FORCE_RX_FC		BIT(5)
#define  PMCR_FORCE_TX_FC		BIT(4)
#define  PMCR_FORCE_SPEED_1000		BIT(3)
#define  PMCR_FORCE_SPEED_100		BIT(2)
#define  PMCR_FORCE_FDX			BIT(1)
#define  PMCR_FORCE_LNK			BIT(0)
#define  PMCR_LINK_SETTINGS		(PMCR_MAC_TX_EN | PMCR_MAC_RX_EN | \
					 PMCR_FORCE_EEE1G | PMCR_FORCE_EEE100 | \
					 PMCR_FORCE_RX_FC | PMCR_FORCE_TX_FC | \
					 PMCR_FORCE_SPEED_1000 | \
					 PMCR_FORCE_SPEED_100 | \
					 PMCR_FORCE_FDX | PMCR_FORCE_LNK)
/* EEE: LPI after LPI_THRESH microseconds idle; LPI_MODE_EN: at once */
#define MT7530_PMEEECR_P(p)		(0x3004 + (p) * 0x100)
#define  PMEEECR_LPI_THRESH		GENMASK(15, 4)
#define  PMEEECR_LPI_MODE_EN		BIT(0)
#define MT7530_PMSR_P(p)		(0x3008 + (p) * 0x100)
#define MT7530_GMACCR			0x30e0
#define  GMACCR_MAX_RX_JUMBO		GENMASK(5, 2)	/* in KiB */
#define  GMACCR_MAX_RX_PKT_LEN		GENMASK(1, 0)
#define  MAX_RX_PKT_LEN_1522		0
#define  MAX_RX_PKT_LEN_1536		1
#define  MAX_RX_PKT_LEN_1552		2
#define  MAX_RX_PKT_LEN_JUMBO		3
#define MT7530_MAX_FRAME		(15 * 1024)

/* MIB counters */
#define MT7530_MIB_P(p)			(0x4000 + (p) * 0x100)
/* ...their offsets from MT7530_MIB_P(port) */
#define MIB_TX_DROP		0x00
#define MIB_TX_CRC_ERR		0x04
#define MIB_TX_UNICAST		0x08
#define MIB_TX_MULTICAST	0x0c
#define MIB_TX_BROADCAST	0x10
#define MIB_TX_COLLISION	0x14
#define MIB_TX_SINGLE_COLL	0x18
#define MIB_TX_MULTI_COLL	0x1c
#define MIB_TX_DEFERRED		0x20
#define MIB_TX_LATE_COLL	0x24
#define MIB_TX_EXCESS_COLL	0x28
#define MIB_TX_PAUSE		0x2c
#define MIB_TX_PKT_SZ_64	0x30
#define MIB_TX_BYTES		0x48
#define MIB_RX_DROP		0x60
#define MIB_RX_FILTERING	0x64
#define MIB_RX_UNICAST		0x68
#define MIB_RX_MULTICAST	0x6c
#define MIB_RX_BROADCAST	0x70
#define MIB_RX_ALIGN_ERR	0x74
#define MIB_RX_CRC_ERR		0x78
#define MIB_RX_UNDER_SIZE	0x7c
#define MIB_RX_FRAG_ERR		0x80
#define MIB_RX_OVER_SIZE	0x84
#define MIB_RX_JABBER_ERR	0x88
#define MIB_RX_PAUSE		0x8c
#define MIB_RX_PKT_SZ_64	0x90
#define MIB_RX_BYTES		0xa8
#define MIB_RX_CTRL_DROP	0xb0
#define MIB_RX_INGRESS_DROP	0xb4
#define MIB_RX_ARL_DROP		0xb8
#define MIB_PKT_SZ_BINS		6
#define MT7530_MIB_CCR			0x4fe0
#define  CCR_MIB_ENABLE			BIT(31)
#define  CCR_RX_OCT_CNT_GOOD		BIT(7)
#define  CCR_RX_OCT_CNT_BAD		BIT(6)
#define  CCR_TX_OCT_CNT_GOOD		BIT(5)
#define  CCR_TX_OCT_CNT_BAD		BIT(4)
#define  CCR_OCT_CNT_ALL		(CCR_RX_OCT_CNT_GOOD | \
					 CCR_RX_OCT_CNT_BAD | \
					 CCR_TX_OCT_CNT_GOOD | \
					 CCR_TX_OCT_CNT_BAD)

/* System control */
#define MT7530_SYS_CTRL			0x7000
#define  SYS_CTRL_PHY_RST		BIT(2)
#define  SYS_CTRL_SW_RST		BIT(1)
#define  SYS_CTRL_REG_RST		BIT(0)
#define MT7530_SYS_INT_EN		0x7008
#define MT7530_SYS_INT_STS		0x700c
#define MT7530_TRAP			0x7800	/* strapping, 0 in reset */
#define  TRAP_XTAL			GENMASK(10, 9)
#define  TRAP_XTAL_20MHZ		1
#define  TRAP_XTAL_40MHZ		2
#define  TRAP_XTAL_25MHZ		3
#define MT7530_MTRAP			0x7804
#define  MTRAP_P5_PHY0_SEL		BIT(20)
#define  MTRAP_CHG_TRAP			BIT(16)
#define  MTRAP_P5_MAC_SEL		BIT(13)
#define  MTRAP_P6_DIS			BIT(8)
#define  MTRAP_P5_RGMII_MODE		BIT(7)
#define  MTRAP_P5_DIS			BIT(6)
#define  MTRAP_PHY_INDIRECT		BIT(5)
#define MT7530_TOP_SIG_CTRL		0x7808
/* Needed for the interrupt to fire; the bits are unnamed in the datasheet */
#define  TOP_SIG_CTRL_NORMAL		GENMASK(17, 16)
#define MT7530_IO_DRV_CR		0x7810
#define  IO_DRV_P5_CLK			GENMASK(1, 0)
#define  IO_DRV_P5_DATA			GENMASK(5, 4)
#define  IO_DRV_8MA			1
#define MT7530_P6ECR			0x7830
#define  P6ECR_INTF_MODE		GENMASK(1, 0)
#define  P6_INTF_MODE_RGMII		0
#define  P6_INTF_MODE_TRGMII		1
#define MT7530_P5RGMIIRXCR		0x7b00
#define  P5RGMIIRXCR_EDGE_ALIGN		BIT(8)
#define MT7530_P5RGMIITXCR		0x7b04
#define  P5RGMIITXCR_TXC_CFG		GENMASK(4, 0)
#define  P5_TXC_NO_DELAY		0x10	/* vendor value, TX clock as is */
#define MT7530_CREV			0x7ffc
#define  CREV_CHIP_NAME			GENMASK(31, 16)
#define MT7530_MAX_REG			0x7ffc

/*
 * Core (clock) registers, in MMD device 0x1f (MDIO_MMD_VEND2) of the
 * first internal PHY. The PLL values are the vendor's; their fields are
 * named as in the datasheet, what the numbers mean beyond that is not
 * documented.
 */
#define CORE_PLL_GROUP2			0x401
#define  RG_SYSPLL_EN_NORMAL		BIT(15)
#define  RG_SYSPLL_VODEN		BIT(14)
#define  RG_SYSPLL_POSDIV		GENMASK(6, 5)
#define CORE_PLL_GROUP4			0x403
#define  RG_SYSPLL_DDSFBK_EN		BIT(12)
#define  RG_SYSPLL_BIAS_EN		BIT(11)
#define  RG_SYSPLL_BIAS_LPF_EN		BIT(10)
#define CORE_PLL_GROUP5			0x404	/* RG_LCDDS_PCW_NCPO1 */
#define CORE_PLL_GROUP6			0x405	/* RG_LCDDS_PCW_NCPO0 */
#define CORE_PLL_GROUP7			0x406
#define  RG_LCDDS_PWDB			BIT(15)
#define  RG_LCDDS_ISO_EN		BIT(13)
#define  RG_LCCDS_C			GENMASK(6, 4)
#define  RG_LCDDS_PCW_NCPO_CHG		BIT(3)
#define CORE_PLL_GROUP10		0x409	/* RG_LCDDS_SSC_DELTA */
#define CORE_PLL_GROUP11		0x40a	/* RG_LCDDS_SSC_DELTA1 */
#define CORE_GSWPLL_GRP1		0x40d
#define  RG_GSWPLL_POSDIV_200M		GENMASK(13, 12)
#define  RG_GSWPLL_EN_PRE		BIT(11)
#define  RG_GSWPLL_FBKDIV_200M		GENMASK(7, 0)
#define CORE_GSWPLL_GRP2		0x40e
#define  RG_GSWPLL_POSDIV_500M		GENMASK(9, 8)
#define  RG_GSWPLL_FBKDIV_500M		GENMASK(7, 0)
#define CORE_TRGMII_GSW_CLK_CG		0x410
#define  REG_GSWCK_EN			BIT(0)
#define  REG_TRGMIICK_EN		BIT(1)

/*
 * The MT7620 GSW's own registers: the VLAN table's VIDs by slot, its MAC
 * control, MIB and interrupt registers, its PHYs' indirect access
 */
#define MT7620_VTIM(slot)		(0x0100 + (slot) / 2 * 4)
#define  VTIM_VID(slot)			(GENMASK(11, 0) << ((slot) % 2 * 12))
#define MT7620_NUM_VLAN_SLOTS		16
#define MT7620_GMACCR			0x3fe0
#define  MT7620_MAX_RX_PKT_LEN_JUMBO	2	/* GMACCR_MAX_RX_JUMBO KiB */
#define MT7620_MAX_FRAME		2048
#define MT7620_MIB_CNT_EN		0x4000
#define  MIB_CNT_EN_ENABLE		BIT(1)	/* OpenWrt: "Enable MIB stats" */
#define MT7620_PIAC			0x7004
#define  PIAC_ACS_ST			BIT(31)
#define  PIAC_REG			GENMASK(29, 25)
#define  PIAC_PHY			GENMASK(24, 20)
#define  PIAC_CMD			GENMASK(19, 18)
#define  PIAC_CMD_WRITE			1
#define  PIAC_CMD_READ			2
#define  PIAC_ST			GENMASK(17, 16)
#define  PIAC_ST_CLAUSE22		1
#define  PIAC_DATA			GENMASK(15, 0)
#define MT7620_IMR			0x7008	/* a mask: set bits are off */
#define MT7620_ISR			0x700c
/* Port 5's RGMII delays (OpenWrt's gsw_mt7620.h; see mt7620.c) */
#define MT7620_GPC1			0x7014
#define MT7620_EXT_PORT			5
#define  GPC1_TXDELAY			BIT(3)
#define  GPC1_RXDELAY			BIT(2)
#define MT7620_MAX_REG			0x7ffc

/* FIDs: standalone ports learn apart from bridged ones */
#define RSW_FID_STANDALONE		0
#define RSW_FID_BRIDGED			1

struct rsw_priv;

/**
 * struct rsw_mib_desc - one MIB counter
 * @offset: its register, from the port's MIB block
 * @shift: its lowest bit in the register
 * @width: its width in bits: 16, 32 or 64 (two registers, low first)
 * @name: its name in ethtool -S
 */
struct rsw_mib_desc {
	u16 offset;
	u8 shift;
	u8 width;
	const char *name;
};

/* MIB counters the stats work accumulates, at most */
#define RSW_STATS_MIBS			16

/**
 * struct rsw_info - what tells one switch core from another
 * @name: the chip's name in messages
 * @num_ports: ports, the CPU ports included
 * @num_phys: internal PHYs, behind ports 0 to @num_phys - 1
 * @cpu_port: the CPU port to prefer when the DT wires several
 * @tag_protocol: how frames carry their port to and from the CPU
 * @tag_len: the bytes the tag adds to a frame on the wire to the CPU
 * @max_frame: the largest frame a port receives, FCS and tag included
 * @vlan_slots: the VLAN table's entries, each naming its VID (0: the
 *	table is indexed by VID)
 * @has_mtrap: the MT7530's strap override register and what hangs on it:
 *	ports 5 and 6 off by strap
 * @reset_mark_reg: a register the driver sets @reset_mark_bit in and the
 *	core's reset clears: read without it, the core was reset behind the
 *	driver
 * @reset_mark_bit: see @reset_mark_reg (0: no reset is looked for)
 * @has_eee: the MACs signal EEE's low power idle
 * @irq_mask: SYS_INT_EN is a mask (set bits are off), as the GSW's IMR
 * @mibs: the MIB counters ethtool -S reports, @num_mibs of them
 * @num_mibs: see @mibs
 * @stats_mibs: the counters the stats work accumulates to 64 bits,
 *	@num_stats_mibs (up to RSW_STATS_MIBS) of them
 * @num_stats_mibs: see @stats_mibs
 * @mibs_accumulated: @mibs are @stats_mibs, too narrow to be reported as
 *	they are: ethtool -S reports their accumulated values
 * @has_rmon: the MIB has the RMON histogram and pause counters
 * @stats_period: how often the stats work must read @stats_mibs lest one
 *	wraps unseen, in jiffies (0: the core's periods, for 32-bit ones)
 * @fill_stats64: get_stats64's numbers from the accumulated counters
 * @reset: reset the switch core, registers, PHYs and all, and check it
 *	is the chip @name says
 * @setup: chip-specific setup after the reset, e.g. clocks (optional)
 * @start_mib: clear (where it can) and start the MIB counters
 * @set_max_frame: let the ports receive frames of @len bytes, FCS and
 *	tag included
 * @irq_setup: what the switch needs before its interrupt fires
 *	(optional)
 * @phylink_get_caps: the MAC capabilities and interfaces of a port
 * @mac_config: set up a port's interface outside the core, e.g. a CPU
 *	port's clock or port 5's mode in the SoC (optional)
 * @has_acl: the ACL engine is known (the MT7530's), for tc flower
 * @has_erlcr: the egress rate limit is known (the MT7530's), for tc TBF
 */
struct rsw_info {
	const char *name;
	u8 num_ports;
	u8 num_phys;
	u8 cpu_port;
	enum dsa_tag_protocol tag_protocol;
	u8 tag_len;
	unsigned int max_frame;
	u8 vlan_slots;
	bool has_mtrap;
	u32 reset_mark_reg;
	u32 reset_mark_bit;
	bool has_eee;
	bool has_acl;
	bool has_erlcr;
	bool irq_mask;
	const struct rsw_mib_desc *mibs;
	u8 num_mibs;
	const struct rsw_mib_desc *stats_mibs;
	u8 num_stats_mibs;
	bool mibs_accumulated;
	bool has_rmon;
	unsigned long stats_period;
	void (*fill_stats64)(struct rsw_priv *priv, int port, const u64 *acc,
			     struct rtnl_link_stats64 *s);
	int (*reset)(struct rsw_priv *priv);
	int (*setup)(struct rsw_priv *priv);
	int (*start_mib)(struct rsw_priv *priv);
	int (*set_max_frame)(struct rsw_priv *priv, int len);
	int (*irq_setup)(struct rsw_priv *priv);
	void (*phylink_get_caps)(struct dsa_switch *ds, int port,
				 struct phylink_config *config);
	void (*mac_config)(struct rsw_priv *priv, int port,
			   phy_interface_t interface);
};

/**
 * struct rsw_bus_ops - what the bus front end does for the core
 * @hw_reset: reset the whole switch core (optional)
 * @phy_read: read register @regnum of the internal PHY of @port
 * @phy_write: write @val to register @regnum of the internal PHY of @port
 * @core_read: read a core (clock) register (optional)
 * @core_write: write a core (clock) register (optional)
 */
struct rsw_bus_ops {
	void (*hw_reset)(struct rsw_priv *priv);
	int (*phy_read)(struct rsw_priv *priv, int port, int regnum);
	int (*phy_write)(struct rsw_priv *priv, int port, int regnum, u16 val);
	int (*core_read)(struct rsw_priv *priv, u16 reg);
	int (*core_write)(struct rsw_priv *priv, u16 reg, u16 val);
};

/**
 * struct rsw_port - the driver's view of one port
 * @stats: the port's hardware counters as get_stats64 reports them
 * @mib_acc: the chip's stats_mibs, accumulated to 64 bits
 * @mib_last: their last raw values
 * @bytes_base: octets counted before the switch core was last reset
 *	behind the driver, RX and TX
 * @interface: the interface mode phylink last configured, for
 *	rsw_restore()
 * @eee_phy: the PHY whose EEE settings were started (phy_support_eee())
 * @pvid: the bridge's PVID of the port, 0 for none
 * @enabled: the port is up (DSA port_enable)
 * @mc_flood: BR_MCAST_FLOOD
 * @isolated: BR_ISOLATED
 * @mirror_rx: ingress traffic is mirrored
 * @mirror_tx: egress traffic is mirrored
 * @counting: the port was up at its last refresh of @stats
 */
struct rsw_port {
	struct rtnl_link_stats64 stats;
	u64 mib_acc[RSW_STATS_MIBS];
	u32 mib_last[RSW_STATS_MIBS];
	u64 bytes_base[2];
	phy_interface_t interface;
	struct phy_device *eee_phy;
	u16 pvid;
	bool enabled;
	bool mc_flood;
	bool isolated;
	bool mirror_rx;
	bool mirror_tx;
	bool counting;
};

/**
 * struct rsw_acl_rule - one tc flower filter in the ACL
 * @cookie: the filter's
 * @prio: its tc priority (rules are kept in its order)
 * @port: the port it was added on
 * @patterns: the pattern entries it uses
 * @mirror: its action mirrors (to MFC's mirror port)
 * @action: the rule action's VAWD1 word
 */
struct rsw_acl_rule {
	unsigned long cookie;
	u32 prio;
	int port;
	u64 patterns;
	bool mirror;
	u32 action;
};

/**
 * struct rsw_priv - one switch
 * @ds: the DSA switch
 * @dev: its device
 * @info: the chip's data
 * @bus_ops: the front end's services
 * @regmap: the core's registers
 * @reg_mutex: serialises table commands and multi-register updates
 * @user_mii_bus: the bus the PHYs are reached through: the internal ones,
 *	and those the switch's "mdio" node names
 * @sysc: the SoC's system controller, where it holds a port's interface
 *	mode (the MT7620's port 5), or NULL
 * @xtal: the crystal, TRAP_XTAL_*
 * @irq: the switch's interrupt, 0 for none
 * @irq_domain: the PHYs' link-change interrupts
 * @irq_enable: SYS_INT_EN as the irq chip wants it
 * @active_cpu_ports: CPU ports whose conduit is up
 * @stats_lock: protects the ports' @stats
 * @stats_work: refreshes the ports' @stats
 * @stats_jiffies: when @stats were last refreshed
 * @stats_read: when get_stats64 was last called
 * @vlans: the VLAN table entries the driver wrote valid, by VID
 *	(struct rsw_vlan_entry), under @reg_mutex
 * @statics: the static address table entries it wrote
 *	(struct rsw_static_entry), changed under @reg_mutex, read under RCU
 *	too (rsw_mc_fwd_offloaded())
 * @mc_snooping: the user ports whose bridge snoops multicast
 * @vlan_slot_vid: the VID of each VLAN table slot in @vlan_slots_used
 *	(chips with vlan_slots), under @reg_mutex
 * @vlan_slots_used: the slots holding a valid entry
 * @acl: the ACL rules by index, valid where @acl_used says, under
 *	@reg_mutex
 * @acl_used: the rule indexes in use
 * @acl_pat: the pattern entries' VAWD1 and VAWD2 words
 * @acl_pat_used: the pattern entries in use
 * @ports: per-port state
 *
 * @vlans and @statics are what the registers do not keep: with the
 * regmap's cache they let rsw_restore() program the switch again after
 * its core was reset behind the driver.
 */
struct rsw_priv {
	struct dsa_switch ds;
	struct device *dev;
	const struct rsw_info *info;
	const struct rsw_bus_ops *bus_ops;
	struct regmap *regmap;
	struct mutex reg_mutex;	/* see kernel-doc */
	struct mii_bus *user_mii_bus;
	struct regmap *sysc;
	u32 xtal;
	int irq;
	struct irq_domain *irq_domain;
	u32 irq_enable;
	u8 active_cpu_ports;
	spinlock_t stats_lock;	/* see kernel-doc */
	struct delayed_work stats_work;
	unsigned long stats_jiffies;
	unsigned long stats_read;
	struct xarray vlans;
	DECLARE_HASHTABLE(statics, 6);
	u8 mc_snooping;
	u16 vlan_slot_vid[MT7620_NUM_VLAN_SLOTS];
	unsigned long vlan_slots_used;
	struct rsw_acl_rule acl[RSW_ACL_RULES];
	unsigned long acl_used;
	u32 acl_pat[RSW_ACL_PATTERNS][2];
	u64 acl_pat_used;
	struct rsw_port ports[RSW_MAX_PORTS];
};

extern const struct rsw_info rsw_mt7621_info;
extern const struct rsw_info rsw_mt7620_info;

bool rsw_volatile_reg(struct device *dev, unsigned int reg);
bool rsw_mt7620_volatile_reg(struct device *dev, unsigned int reg);
int rsw_rmw(struct rsw_priv *priv, u32 reg, u32 mask, u32 set);
int rsw_update(struct rsw_priv *priv, u32 reg, u32 val);
u64 rsw_mib_read64(struct rsw_priv *priv, int port, u32 offset);
bool rsw_has_ports(struct device *dev);
int rsw_get_irq(struct device *dev);

extern struct mdio_driver rsw_mdio_driver;
extern struct platform_driver rsw_mmio_driver;
void rsw_init(struct rsw_priv *priv, struct device *dev,
	      const struct rsw_info *info, const struct rsw_bus_ops *bus_ops,
	      struct regmap *regmap);
int rsw_register(struct rsw_priv *priv);
void rsw_unregister(struct rsw_priv *priv);
void rsw_shutdown(struct rsw_priv *priv);

#endif /* _RALINK_MT7530_H_ */
