/*
 * MediaTek MT7621 frame engine: the packet processing engine (PPE)
 *
 * The hardware NAT of the MT7621 (NETSYS v1, FE offset 0x0c00), as
 * mainline's mtk_ppe.c and mtk_ppe_offload.c program it (Linux 6.12; the
 * register and field names are mtk_ppe_regs.h's and mtk_ppe.h's):
 *
 * - The FOE table: MTK_PPE_TB_BASE, 1024 << TB_CFG.ENTRY_NUM entries of
 *   80 bytes (TB_CFG.ENTRY_80B) in guest RAM, laid out as struct
 *   mtk_foe_entry (little-endian words). Its hash is mtk_ppe_hash_entry()
 *   (TB_CFG.HASH_MODE 1, the only mode mainline uses), shifted left by one:
 *   the MT7621's hash_offset of 2 (mt7621_data), buckets of two entries.
 * - Frames a GDMA forwards to the PPE (GDMA_FWD_CFG port 4, mainline's
 *   gdma_to_ppe 0x4444): IPv4 TCP/UDP are keyed as HNAPT (5-tuple), other
 *   IPv4 as IPV4_ROUTE (addresses and protocol, the ports word padded with
 *   0xa5a5a5 as mtk_foe_entry_prepare() pads it), IPv6 TCP/UDP as
 *   IPV6_ROUTE_5T and other IPv6 as IPV6_ROUTE_3T, as far as FLOW_CFG
 *   enables each. A miss builds an UNBIND entry holding the key in a free
 *   slot of the bucket (TB_CFG.SEARCH_MISS "forward and build"); hits on
 *   it count packets per second (IB1 UNBIND_PACKETS/TIMESTAMP) and from
 *   BIND_RATE's rate on tell the CPU "unbind rate reached", the reason
 *   mtk_poll_rx() binds on (__mtk_ppe_check_skb() compares the entry's key
 *   with its flows', then writes the bound entry over it).
 * - A BIND entry's frames never reach the CPU: addresses and ports
 *   replaced (HNAPT), TTL or hop limit decremented (IB1 BIND_TTL), the
 *   IPv4 and TCP/UDP checksums updated incrementally (a bad one stays
 *   bad), the MACs, VLAN layers (IB1 VLAN_LAYER, VLAN_TAG: the first
 *   tag's TPID is the entry's etype unless VLAN_TAG, which is how
 *   mtk_foe_entry_set_dsa() makes the MT7530's special tag) and a PPPoE
 *   session header (IB1 PPPOE) written, then out of the PSE port in IB2
 *   DEST_PORT, bound timestamp refreshed. To the CPU instead: TTL 1
 *   ("hit TTL 1"), TCP FIN/SYN/RST, a frame over VLAN_MTU's limit for its
 *   layers. IPv4 checksum errors drop the frame (GLO_CFG IP4_CS_DROP,
 *   IP4_L4_CS_DROP).
 * - The CPU gets the FOE entry and the reason in rxd4 (mtk_poll_rx()'s
 *   MTK_RXD4_FOE_ENTRY, MTK_RXD4_PPE_CPU_REASON).
 * - Ageing (TB_CFG.SCAN_MODE "check age", once a second): a bound entry
 *   idle longer than its delta (BIND_AGE0/1: UDP, TCP, non-L4; IB1 bind
 *   timestamp against the frame engine's seconds, FE offset 0x0010, which
 *   mtk_eth_timestamp() reads) goes back to UNBIND, an unbound one idle
 *   longer than UNBIND_AGE's delta to INVALID. Entries with IB1 STATIC are
 *   never built on nor aged (mtk_ppe_init_foe_table() marks the MT7621's
 *   entries that cross a 1 KiB boundary so).
 * - The entry cache (CACHE_CTL EN): bound entries are used as read until
 *   the driver clears the cache (CACHE_CTL CLEAR), as mainline does after
 *   each change to the table; a driver that does not keeps forwarding by
 *   the old entry here, as on the silicon.
 *
 * What public sources do not say, and this model chooses (each a guess
 * at the silicon, named so): ageing writes UNBIND with a fresh unbind
 * timestamp and the packet count 0; the unbind age ignores UNBIND_AGE's
 * MIN_PACKETS; broadcast and multicast frames are not keyed (reason
 * NO_FLOW); IPv4 fragments and options go to the CPU (reasons IPV4_FRAG,
 * OPTION_HEADER), as do IPv6 extension headers.
 *
 * Not modelled: keepalive copies to the CPU (TB_CFG.KEEPALIVE; mainline
 * keeps it off but for its reset path), the pre-bind state, BIND_LIMIT's
 * table-fill limits, IP_PROTO_CHK, multicast tables, DS-Lite and 6RD,
 * the L2 bridge type in the table (mainline binds bridged flows as the
 * IPv4/IPv6 entries of their frames), the per-entry MIB counters (the
 * MT7621 has none: mt7621_data has no has_accounting).
 *
 * IB2's QoS queue: with PSE_QOS a bound frame goes to the QDMA's queue
 * QID (mtk_foe_entry_set_queue(): a DSA port's, port + 3) and leaves by
 * that queue's rates, as the CPU's frames on it do; without, straight
 * to the GDMA (mt7621_fe.c, fe_qdma_hw_enqueue()).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/log.h"
#include "hw/net/mt7621_ppe.h"
#include "hw/net/ralink_csum.h"
#include "net/eth.h"
#include "sysemu/dma.h"
#include "trace.h"

/* Registers (offsets in the PPE's window; mtk_ppe_regs.h) */
#define PPE_GLO_CFG             0x200
#define   GLO_CFG_EN                BIT(0)
#define   GLO_CFG_IP4_L4_CS_DROP    BIT(2)
#define   GLO_CFG_IP4_CS_DROP       BIT(3)
#define   GLO_CFG_BUSY              BIT(31)
#define PPE_FLOW_CFG            0x204
#define   FLOW_CFG_IP6_3T_ROUTE     BIT(8)
#define   FLOW_CFG_IP6_5T_ROUTE     BIT(9)
#define   FLOW_CFG_IP4_NAT          BIT(12)
#define   FLOW_CFG_IP4_NAPT         BIT(13)
#define PPE_IP_PROTO_CHK        0x208
#define PPE_TB_CFG              0x21c
#define   TB_CFG_ENTRY_NUM(v)       extract32(v, 0, 3)
#define   TB_CFG_ENTRY_80B          BIT(3)
#define   TB_CFG_SEARCH_MISS(v)     extract32(v, 4, 2)
#define   TB_CFG_AGE_NON_L4         BIT(7)
#define   TB_CFG_AGE_UNBIND         BIT(8)
#define   TB_CFG_AGE_TCP            BIT(9)
#define   TB_CFG_AGE_UDP            BIT(10)
#define   TB_CFG_KEEPALIVE(v)       extract32(v, 12, 2)
#define   TB_CFG_HASH_MODE(v)       extract32(v, 14, 2)
#define   TB_CFG_SCAN_MODE(v)       extract32(v, 16, 2)
#define PPE_TB_BASE             0x220
#define PPE_TB_USED             0x224
#define PPE_BIND_RATE           0x228
#define   BIND_RATE_BIND(v)         extract32(v, 0, 16)
#define PPE_BIND_LIMIT0         0x22c
#define PPE_BIND_LIMIT1         0x230
#define PPE_KEEPALIVE           0x234
#define PPE_UNBIND_AGE          0x238
#define   UNBIND_AGE_DELTA(v)       extract32(v, 0, 8)
#define PPE_BIND_AGE0           0x23c
#define   BIND_AGE0_DELTA_UDP(v)    extract32(v, 0, 15)
#define   BIND_AGE0_DELTA_NON_L4(v) extract32(v, 16, 15)
#define PPE_BIND_AGE1           0x240
#define   BIND_AGE1_DELTA_TCP(v)    extract32(v, 0, 15)
#define PPE_HASH_SEED           0x244
#define PPE_DEFAULT_CPU_PORT    0x248
#define PPE_MTU_DROP            0x308
#define PPE_VLAN_MTU0           0x30c
#define PPE_VLAN_MTU1           0x310
#define PPE_VPM_TPID            0x318
#define PPE_CACHE_CTL           0x320
#define   CACHE_CTL_EN              BIT(0)
#define   CACHE_CTL_REQ             BIT(8)
#define   CACHE_CTL_CLEAR           BIT(9)

#define SEARCH_MISS_DROP        0
#define SEARCH_MISS_FORWARD     2
#define SEARCH_MISS_BUILD       3
#define SCAN_MODE_CHECK_AGE     1

/* An FOE entry (struct mtk_foe_entry, v1: 80 bytes, 20 words) */
#define FOE_WORDS               20
#define FOE_SIZE                (FOE_WORDS * 4)
#define IB1_UNBIND_TS(v)        extract32(v, 0, 8)
#define IB1_UNBIND_PACKETS(v)   extract32(v, 8, 16)
#define IB1_BIND_TS_MASK        0x7fff
#define IB1_BIND_VLAN_LAYER(v)  extract32(v, 16, 3)
#define IB1_BIND_PPPOE          BIT(19)
#define IB1_BIND_VLAN_TAG       BIT(20)
#define IB1_BIND_TTL            BIT(24)
#define IB1_PACKET_TYPE(v)      extract32(v, 25, 3)
#define IB1_STATE(v)            extract32(v, 28, 2)
#define IB1_UDP                 BIT(30)
#define IB1_STATIC              BIT(31)
#define IB1_KEEP                (7u << 25 | IB1_UDP | IB1_STATIC)
#define IB2_QID(v)              extract32(v, 0, 4)
#define IB2_PSE_QOS             BIT(4)
#define IB2_DEST_PORT(v)        extract32(v, 5, 3)

#define STATE_INVALID           0
#define STATE_UNBIND            1
#define STATE_BIND              2

#define TYPE_IPV4_HNAPT         0
#define TYPE_IPV4_ROUTE         1
#define TYPE_IPV6_ROUTE_3T      4
#define TYPE_IPV6_ROUTE_5T      5

/* Where the words are: IPv4 entries (struct mtk_foe_ipv4) */
#define FOE4_IB2                4
#define FOE4_NEW                5       /* src_ip, dest_ip, ports */
#define FOE4_L2                 11
/* IPv6 entries (struct mtk_foe_ipv6) */
#define FOE6_IB2                14
#define FOE6_L2                 15
/* struct mtk_foe_mac_info, from FOE*_L2 */
#define L2_VLAN1_ETYPE          0       /* vlan1 | etype << 16 */
#define L2_DMAC_HI              1
#define L2_VLAN2_DMAC_LO        2       /* vlan2 | dest_mac_lo << 16 */
#define L2_SMAC_HI              3
#define L2_PPPOE_SMAC_LO        4       /* pppoe_id | src_mac_lo << 16 */

/* The unused half of an IPV4_ROUTE/IPV6_ROUTE_3T ports word */
#define FOE_PORTS_PAD           0xa5a5a500

/* CPU reasons (mtk_ppe.h) */
#define CPU_REASON_OPTION_HEADER        0x03
#define CPU_REASON_NO_FLOW              0x07
#define CPU_REASON_IPV4_FRAG            0x08
#define CPU_REASON_TCP_FIN_SYN_RST      0x0c
#define CPU_REASON_UN_HIT               0x0d
#define CPU_REASON_HIT_UNBIND           0x0e
#define CPU_REASON_HIT_UNBIND_RATE      0x0f
#define CPU_REASON_HIT_BIND_TCP_FIN     0x10
#define CPU_REASON_HIT_TTL_1            0x11
#define CPU_REASON_HIT_BIND_FORCE_CPU   0x16
#define CPU_REASON_EXCEED_MTU           0x1c

/* rxd4's PPE fields (mtk_eth_soc.h: MTK_RXD4_FOE_ENTRY, _PPE_CPU_REASON) */
#define RXD4_FOE_NONE           0x3fff
#define RXD4_INFO(idx, reason)  ((idx) | ((reason) << 14))

/* Buckets of two entries: mt7621_data's hash_offset */
#define BUCKET                  2

#define TCP_FIN_SYN_RST         0x07

#define ETH_P_PPP_SES           0x8864  /* PPPoE session */
#define PPP_IP                  0x0021
#define PPP_IPV6                0x0057

static uint32_t ppe_reg(MT7621PPE *p, hwaddr a)
{
    return p->regs[a / 4];
}

/* The frame engine's seconds (FE offset 0x0010, mtk_eth_timestamp()) */
uint32_t mt7621_ppe_timestamp(void)
{
    return qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) / 1000;
}

static uint32_t ppe_entries(MT7621PPE *p)
{
    return 1024u << MIN(TB_CFG_ENTRY_NUM(ppe_reg(p, PPE_TB_CFG)), 5);
}

static bool ppe_read_entry(MT7621PPE *p, uint32_t idx, uint32_t *e)
{
    hwaddr a = ppe_reg(p, PPE_TB_BASE) + (hwaddr)idx * FOE_SIZE;
    int i;

    if (dma_memory_read(p->as, a, e, FOE_SIZE,
                        MEMTXATTRS_UNSPECIFIED) != MEMTX_OK) {
        qemu_log_mask(LOG_GUEST_ERROR, "mt7621-ppe: FOE entry %u at 0x%"
                      HWADDR_PRIx " outside RAM\n", idx, a);
        return false;
    }
    for (i = 0; i < FOE_WORDS; i++) {
        e[i] = le32_to_cpu(e[i]);
    }
    return true;
}

static void ppe_write_words(MT7621PPE *p, uint32_t idx, int first, int n,
                            const uint32_t *e)
{
    hwaddr a = ppe_reg(p, PPE_TB_BASE) + (hwaddr)idx * FOE_SIZE + first * 4;
    uint32_t le[FOE_WORDS];
    int i;

    for (i = 0; i < n; i++) {
        le[i] = cpu_to_le32(e[first + i]);
    }
    dma_memory_write(p->as, a, le, n * 4, MEMTXATTRS_UNSPECIFIED);
}

/* -- the entry cache ----------------------------------------------------- */

static void ppe_cache_drop(MT7621PPE *p, uint32_t idx)
{
    int slot = idx % ARRAY_SIZE(p->cache_tag);

    if (p->cache_tag[slot] == idx + 1) {
        p->cache_tag[slot] = 0;
    }
}

/* Entry @idx as the engine sees it: from its cache while it holds it */
static bool ppe_lookup_entry(MT7621PPE *p, uint32_t idx, uint32_t *e)
{
    int slot = idx % ARRAY_SIZE(p->cache_tag);
    bool cached = ppe_reg(p, PPE_CACHE_CTL) & CACHE_CTL_EN;

    if (cached && p->cache_tag[slot] == idx + 1) {
        memcpy(e, p->cache[slot], FOE_SIZE);
        return true;
    }
    if (!ppe_read_entry(p, idx, e)) {
        return false;
    }
    if (cached && IB1_STATE(e[0]) == STATE_BIND) {
        memcpy(p->cache[slot], e, FOE_SIZE);
        p->cache_tag[slot] = idx + 1;
    }
    return true;
}

/* IB1 written back by the engine: to RAM and to its cached copy */
static void ppe_write_ib1(MT7621PPE *p, uint32_t idx, uint32_t *e)
{
    int slot = idx % ARRAY_SIZE(p->cache_tag);

    if (p->cache_tag[slot] == idx + 1) {
        p->cache[slot][0] = e[0];
    }
    ppe_write_words(p, idx, 0, 1, e);
}

/* -- keys and the hash --------------------------------------------------- */

typedef struct PPEKey {
    int type;
    bool udp;
    bool ipv6;
    int nw;                     /* key words, from entry word 1 */
    uint32_t w[9];
    size_t l3, l4;
    uint8_t proto;
    bool tcp_ctl;               /* a TCP FIN, SYN or RST */
} PPEKey;

/* mtk_ppe_hash_entry(), TB_CFG.HASH_MODE 1 */
static uint32_t ppe_hash(MT7621PPE *p, const PPEKey *k)
{
    uint32_t hv1, hv2, hv3, hash;

    if (k->ipv6) {
        /* src_ip[0..3] in w[0..3], dest_ip[0..3] in w[4..7], ports w[8] */
        hv1 = k->w[3] ^ k->w[7] ^ k->w[8];
        hv2 = k->w[2] ^ k->w[6] ^ k->w[4];
        hv3 = k->w[1] ^ k->w[5] ^ k->w[0];
    } else {
        hv1 = k->w[2];
        hv2 = k->w[1];
        hv3 = k->w[0];
    }
    hash = (hv1 & hv2) | (~hv1 & hv3);
    hash = (hash >> 24) | ((hash & 0xffffff) << 8);
    hash ^= hv1 ^ hv2 ^ hv3;
    hash ^= hash >> 16;
    hash <<= ctz32(BUCKET);
    return hash & (ppe_entries(p) - 1);
}

static bool ppe_match(const uint32_t *e, const PPEKey *k)
{
    return IB1_STATE(e[0]) != STATE_INVALID &&
           IB1_PACKET_TYPE(e[0]) == k->type &&
           !!(e[0] & IB1_UDP) == k->udp &&
           !memcmp(&e[1], k->w, k->nw * 4);
}

/*
 * The frame's key, or a reason to give it to the CPU unkeyed. @l3 is
 * where its IP header starts, @proto its ethertype.
 */
static int ppe_key(MT7621PPE *p, const uint8_t *f, size_t len, size_t l3,
                   uint16_t proto, PPEKey *k)
{
    uint32_t flow = ppe_reg(p, PPE_FLOW_CFG);
    bool l4ok;
    int i;

    memset(k, 0, sizeof(*k));
    k->l3 = l3;
    if (proto == ETH_P_IP) {
        if (l3 + 20 > len || (f[l3] >> 4) != 4 ||
            l3 + lduw_be_p(f + l3 + 2) > len) {
            return CPU_REASON_NO_FLOW;
        }
        if ((f[l3] & 0xf) != 5) {
            return CPU_REASON_OPTION_HEADER;
        }
        if (lduw_be_p(f + l3 + 6) & 0x3fff) {
            return CPU_REASON_IPV4_FRAG;
        }
        k->proto = f[l3 + 9];
        k->l4 = l3 + 20;
        k->nw = 3;
        k->w[0] = ldl_be_p(f + l3 + 12);
        k->w[1] = ldl_be_p(f + l3 + 16);
        l4ok = (k->proto == IP_PROTO_TCP && k->l4 + 20 <= len) ||
               (k->proto == IP_PROTO_UDP && k->l4 + 8 <= len);
        if (l4ok && (flow & FLOW_CFG_IP4_NAPT)) {
            k->type = TYPE_IPV4_HNAPT;
            k->w[2] = ldl_be_p(f + k->l4);     /* src_port << 16 | dest */
        } else if (flow & FLOW_CFG_IP4_NAT) {
            k->type = TYPE_IPV4_ROUTE;
            k->w[2] = FOE_PORTS_PAD | k->proto;
        } else {
            return CPU_REASON_NO_FLOW;
        }
    } else if (proto == ETH_P_IPV6) {
        if (l3 + 40 > len || (f[l3] >> 4) != 6 ||
            l3 + 40 + lduw_be_p(f + l3 + 4) > len) {
            return CPU_REASON_NO_FLOW;
        }
        k->ipv6 = true;
        k->proto = f[l3 + 6];
        switch (k->proto) {
        case 0:         /* hop-by-hop */
        case 43:        /* routing */
        case 44:        /* fragment */
        case 50:        /* ESP */
        case 51:        /* AH */
        case 60:        /* destination options */
            return CPU_REASON_OPTION_HEADER;
        }
        k->l4 = l3 + 40;
        k->nw = 9;
        for (i = 0; i < 8; i++) {
            k->w[i] = ldl_be_p(f + l3 + 8 + i * 4);
        }
        l4ok = (k->proto == IP_PROTO_TCP && k->l4 + 20 <= len) ||
               (k->proto == IP_PROTO_UDP && k->l4 + 8 <= len);
        if (l4ok && (flow & FLOW_CFG_IP6_5T_ROUTE)) {
            k->type = TYPE_IPV6_ROUTE_5T;
            k->w[8] = ldl_be_p(f + k->l4);
        } else if (flow & FLOW_CFG_IP6_3T_ROUTE) {
            k->type = TYPE_IPV6_ROUTE_3T;
            k->w[8] = FOE_PORTS_PAD | k->proto;
        } else {
            return CPU_REASON_NO_FLOW;
        }
    } else {
        return CPU_REASON_NO_FLOW;
    }
    k->udp = k->proto == IP_PROTO_UDP;
    k->tcp_ctl = k->proto == IP_PROTO_TCP && l4ok &&
                 (f[k->l4 + 13] & TCP_FIN_SYN_RST);
    return 0;
}

/* -- a bound entry's rewrite --------------------------------------------- */

/* RFC 1624: checksum @sum after a 16-bit word of what it covers changed */
static uint16_t csum_replace16(uint16_t sum, uint16_t from, uint16_t to)
{
    uint32_t s = (uint16_t)~sum + (uint16_t)~from + to;

    s = (s & 0xffff) + (s >> 16);
    s = (s & 0xffff) + (s >> 16);
    return ~s;
}

static uint16_t csum_replace32(uint16_t sum, uint32_t from, uint32_t to)
{
    sum = csum_replace16(sum, from >> 16, to >> 16);
    return csum_replace16(sum, from & 0xffff, to & 0xffff);
}

/* Replace the 32 bits at @at, updating the checksums at @c1 and @c2 */
static void ppe_replace32(uint8_t *f, size_t at, uint32_t to, uint8_t *c1,
                          uint8_t *c2)
{
    uint32_t from = ldl_be_p(f + at);

    if (from == to) {
        return;
    }
    stl_be_p(f + at, to);
    if (c1) {
        stw_be_p(c1, csum_replace32(lduw_be_p(c1), from, to));
    }
    if (c2) {
        stw_be_p(c2, csum_replace32(lduw_be_p(c2), from, to));
    }
}

static void ppe_nat4(uint8_t *f, const PPEKey *k, const uint32_t *e)
{
    uint8_t *ipc = f + k->l3 + 10, *l4c = NULL;

    if (k->proto == IP_PROTO_TCP) {
        l4c = f + k->l4 + 16;
    } else if (lduw_be_p(f + k->l4 + 6)) {
        l4c = f + k->l4 + 6;    /* a UDP checksum of 0 is none */
    }
    /* The pseudo header's addresses are in the TCP/UDP checksum too */
    ppe_replace32(f, k->l3 + 12, e[FOE4_NEW], ipc, l4c);
    ppe_replace32(f, k->l3 + 16, e[FOE4_NEW + 1], ipc, l4c);
    ppe_replace32(f, k->l4, e[FOE4_NEW + 2], NULL, l4c);
}

static size_t ppe_ip_len(const uint8_t *f, const PPEKey *k)
{
    return k->ipv6 ? 40 + lduw_be_p(f + k->l3 + 4) : lduw_be_p(f + k->l3 + 2);
}

/*
 * Whether entry @e's output fits VLAN_MTU's limit for its tags (PPPoE
 * counted as one, as mtk_ppe_update_mtu() describes the check)
 */
static bool ppe_fits(MT7621PPE *p, const uint8_t *f, const PPEKey *k,
                     const uint32_t *e)
{
    int tags = IB1_BIND_VLAN_LAYER(e[0]) + !!(e[0] & IB1_BIND_PPPOE);
    uint32_t mtu;

    mtu = ppe_reg(p, tags < 2 ? PPE_VLAN_MTU0 : PPE_VLAN_MTU1);
    mtu = extract32(mtu, (tags & 1) * 16, 14);
    return ETH_HLEN + 4 * tags + ppe_ip_len(f, k) <= mtu;
}

/*
 * The frame as entry @e sends it: @f's IP packet (from @k->l3) behind the
 * entry's Ethernet header; false if there is no room for it
 */
static bool ppe_rewrite(uint8_t *f, size_t *len, size_t size,
                        const PPEKey *k, const uint32_t *e)
{
    const uint32_t *l2 = &e[k->ipv6 ? FOE6_L2 : FOE4_L2];
    uint32_t ib1 = e[0];
    int layers = IB1_BIND_VLAN_LAYER(ib1);
    size_t ip_len = ppe_ip_len(f, k);
    size_t payload = *len - k->l3, hlen = 12;
    uint8_t hdr[MT7621_PPE_HEADROOM];

    stl_be_p(hdr, l2[L2_DMAC_HI]);
    stw_be_p(hdr + 4, l2[L2_VLAN2_DMAC_LO] >> 16);
    stl_be_p(hdr + 6, l2[L2_SMAC_HI]);
    stw_be_p(hdr + 10, l2[L2_PPPOE_SMAC_LO] >> 16);
    if (layers >= 1) {
        stw_be_p(hdr + hlen, (ib1 & IB1_BIND_VLAN_TAG) ? ETH_P_VLAN
                                                       : l2[0] >> 16);
        stw_be_p(hdr + hlen + 2, l2[L2_VLAN1_ETYPE] & 0xffff);
        hlen += 4;
    }
    if (layers == 2) {
        stw_be_p(hdr + hlen, ETH_P_VLAN);
        stw_be_p(hdr + hlen + 2, l2[L2_VLAN2_DMAC_LO] & 0xffff);
        hlen += 4;
    }
    if (ib1 & IB1_BIND_PPPOE) {
        stw_be_p(hdr + hlen, ETH_P_PPP_SES);
        hdr[hlen + 2] = 0x11;                   /* version 1, type 1 */
        hdr[hlen + 3] = 0;                      /* session data */
        stw_be_p(hdr + hlen + 4, l2[L2_PPPOE_SMAC_LO] & 0xffff);
        stw_be_p(hdr + hlen + 6, ip_len + 2);
        stw_be_p(hdr + hlen + 8, k->ipv6 ? PPP_IPV6 : PPP_IP);
        hlen += 10;
    } else {
        stw_be_p(hdr + hlen, k->ipv6 ? ETH_P_IPV6 : ETH_P_IP);
        hlen += 2;
    }
    if (hlen + payload > size) {
        return false;
    }
    memmove(f + hlen, f + k->l3, payload);
    memcpy(f, hdr, hlen);
    *len = hlen + payload;
    return true;
}

/*
 * Entry @idx (@e, bound) takes the frame: 0 when it is rewritten for
 * *@port (through QDMA queue *@qid, -1: none), -1 to drop it, or a
 * reason to give it to the CPU as it is.
 */
static int ppe_bound(MT7621PPE *p, uint8_t *f, size_t *len, size_t size,
                     size_t tag, const PPEKey *k, uint32_t idx, uint32_t *e,
                     int *port, int *qid)
{
    uint32_t glo = ppe_reg(p, PPE_GLO_CFG), now;
    uint32_t ib2 = e[k->ipv6 ? FOE6_IB2 : FOE4_IB2];
    uint8_t *ttl = f + k->l3 + (k->ipv6 ? 7 : 8);
    int layers = IB1_BIND_VLAN_LAYER(e[0]);

    if (k->tcp_ctl) {
        return CPU_REASON_HIT_BIND_TCP_FIN;
    }
    if (!k->ipv6 && (glo & (GLO_CFG_IP4_CS_DROP | GLO_CFG_IP4_L4_CS_DROP)) &&
        ralink_csum_rx(f, *len, tag) == RALINK_CSUM_BAD) {
        trace_mt7621_ppe_drop(idx, "checksum");
        return -1;
    }
    if ((e[0] & IB1_BIND_TTL) && *ttl <= 1) {
        return CPU_REASON_HIT_TTL_1;
    }
    switch (IB2_DEST_PORT(ib2)) {
    case MT7621_PSE_GDM1:
    case MT7621_PSE_GDM2:
        break;
    case MT7621_PSE_CPU:
        return CPU_REASON_HIT_BIND_FORCE_CPU;
    case 7:
        trace_mt7621_ppe_drop(idx, "destination port 7 (drop)");
        return -1;
    default:
        qemu_log_mask(LOG_UNIMP, "mt7621-ppe: entry %u to PSE port %d (not "
                      "modelled)\n", idx, IB2_DEST_PORT(ib2));
        return CPU_REASON_HIT_BIND_FORCE_CPU;
    }
    if (layers > 2) {
        qemu_log_mask(LOG_GUEST_ERROR, "mt7621-ppe: entry %u has %d VLAN "
                      "layers (it holds two)\n", idx, layers);
        return -1;
    }
    if (!ppe_fits(p, f, k, e)) {
        return CPU_REASON_EXCEED_MTU;
    }

    if (e[0] & IB1_BIND_TTL) {
        if (k->ipv6) {
            (*ttl)--;
        } else {
            uint8_t *c = f + k->l3 + 10;

            stw_be_p(c, csum_replace16(lduw_be_p(c), *ttl << 8,
                                       (*ttl - 1) << 8));
            (*ttl)--;
        }
    }
    if (k->type == TYPE_IPV4_HNAPT) {
        ppe_nat4(f, k, e);
    }
    if (!ppe_rewrite(f, len, size, k, e)) {
        trace_mt7621_ppe_drop(idx, "no room for the header");
        return -1;
    }

    now = mt7621_ppe_timestamp() & IB1_BIND_TS_MASK;
    if ((e[0] & IB1_BIND_TS_MASK) != now) {
        e[0] = (e[0] & ~IB1_BIND_TS_MASK) | now;
        ppe_write_ib1(p, idx, e);
    }
    *port = IB2_DEST_PORT(ib2);
    *qid = (ib2 & IB2_PSE_QOS) ? IB2_QID(ib2) : -1;
    trace_mt7621_ppe_forward(idx, *port, *len);
    return 0;
}

/* -- ingress -------------------------------------------------------------- */

/* Where the IP header is: behind any VLAN tags and a PPPoE session header */
static size_t ppe_l3(const uint8_t *f, size_t len, size_t tag, uint16_t *proto)
{
    size_t l3 = ralink_csum_l3(f, len, tag, proto);

    if (*proto == ETH_P_PPP_SES && l3 + 8 <= len && f[l3] == 0x11 &&
        f[l3 + 1] == 0) {
        switch (lduw_be_p(f + l3 + 6)) {
        case PPP_IP:
            *proto = ETH_P_IP;
            return l3 + 8;
        case PPP_IPV6:
            *proto = ETH_P_IPV6;
            return l3 + 8;
        }
    }
    return l3;
}

MT7621PPEVerdict mt7621_ppe_ingress(MT7621PPE *p, uint8_t *f, size_t *len,
                                    size_t size, size_t tag, uint32_t *info,
                                    int *port, int *qid)
{
    uint32_t tb = ppe_reg(p, PPE_TB_CFG), e[FOE_WORDS], now, hash, idx;
    uint32_t slot = RXD4_FOE_NONE;
    int reason, i, r;
    uint16_t proto;
    size_t l3;
    PPEKey k;

    *info = RXD4_INFO(RXD4_FOE_NONE, 0);
    *qid = -1;
    if (!(ppe_reg(p, PPE_GLO_CFG) & GLO_CFG_EN) || !ppe_reg(p, PPE_TB_BASE)) {
        return MT7621_PPE_TO_CPU;
    }
    if (!(tb & TB_CFG_ENTRY_80B) || TB_CFG_HASH_MODE(tb) != 1) {
        qemu_log_mask(LOG_UNIMP, "mt7621-ppe: TB_CFG 0x%x: only 80-byte "
                      "entries and hash mode 1 are modelled\n", tb);
        return MT7621_PPE_TO_CPU;
    }
    if (f[0] & 1) {
        reason = CPU_REASON_NO_FLOW;
        goto to_cpu;
    }
    l3 = ppe_l3(f, *len, tag, &proto);
    reason = ppe_key(p, f, *len, l3, proto, &k);
    if (reason) {
        goto to_cpu;
    }

    hash = ppe_hash(p, &k);
    for (i = 0; i < BUCKET; i++) {
        idx = hash + i;
        if (!ppe_lookup_entry(p, idx, e)) {
            reason = CPU_REASON_NO_FLOW;
            goto to_cpu;
        }
        if (!ppe_match(e, &k)) {
            if (slot == RXD4_FOE_NONE && !(e[0] & IB1_STATIC) &&
                IB1_STATE(e[0]) == STATE_INVALID) {
                slot = idx;
            }
            continue;
        }
        if (IB1_STATE(e[0]) == STATE_BIND) {
            r = ppe_bound(p, f, len, size, tag, &k, idx, e, port, qid);
            if (r < 0) {
                return MT7621_PPE_DROP;
            }
            if (r == 0) {
                return MT7621_PPE_FORWARD;
            }
            *info = RXD4_INFO(idx, r);
            trace_mt7621_ppe_cpu(idx, r);
            return MT7621_PPE_TO_CPU;
        }
        /* UNBIND: packets this second, and the rate the CPU is told of */
        if (k.tcp_ctl) {
            reason = CPU_REASON_TCP_FIN_SYN_RST;
            slot = idx;
            goto to_cpu;
        }
        now = mt7621_ppe_timestamp() & 0xff;
        if (IB1_UNBIND_TS(e[0]) == now) {
            e[0] = deposit32(e[0], 8, 16,
                             MIN(IB1_UNBIND_PACKETS(e[0]) + 1, 0xffff));
        } else {
            e[0] = deposit32(deposit32(e[0], 8, 16, 1), 0, 8, now);
        }
        ppe_write_ib1(p, idx, e);
        reason = IB1_UNBIND_PACKETS(e[0]) >=
                 BIND_RATE_BIND(ppe_reg(p, PPE_BIND_RATE)) ?
                 CPU_REASON_HIT_UNBIND_RATE : CPU_REASON_HIT_UNBIND;
        slot = idx;
        goto to_cpu;
    }

    /* A miss */
    switch (TB_CFG_SEARCH_MISS(tb)) {
    case SEARCH_MISS_DROP:
        trace_mt7621_ppe_drop(hash, "search miss");
        return MT7621_PPE_DROP;
    case SEARCH_MISS_BUILD:
        if (slot != RXD4_FOE_NONE && !k.tcp_ctl) {
            memset(e, 0, sizeof(e));
            e[0] = STATE_UNBIND << 28 | k.type << 25 |
                   (k.udp ? IB1_UDP : 0) | 1 << 8 |
                   (mt7621_ppe_timestamp() & 0xff);
            memcpy(&e[1], k.w, k.nw * 4);
            /* The key first, then IB1, as the driver writes entries */
            ppe_write_words(p, slot, 1, k.nw, e);
            ppe_write_ib1(p, slot, e);
            trace_mt7621_ppe_build(slot, k.type);
        }
        break;
    }
    reason = k.tcp_ctl ? CPU_REASON_TCP_FIN_SYN_RST : CPU_REASON_UN_HIT;

to_cpu:
    *info = RXD4_INFO(slot, reason);
    trace_mt7621_ppe_cpu(slot, reason);
    return MT7621_PPE_TO_CPU;
}

/* -- ageing ---------------------------------------------------------------- */

static void ppe_scan_schedule(MT7621PPE *p)
{
    if ((ppe_reg(p, PPE_GLO_CFG) & GLO_CFG_EN) && ppe_reg(p, PPE_TB_BASE) &&
        TB_CFG_SCAN_MODE(ppe_reg(p, PPE_TB_CFG)) == SCAN_MODE_CHECK_AGE) {
        if (!timer_pending(p->scan)) {
            timer_mod(p->scan,
                      qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) + 1000);
        }
    } else {
        timer_del(p->scan);
    }
}

/* The bound entry's age limit in seconds, or 0 if it is not aged */
static uint32_t ppe_bind_delta(MT7621PPE *p, uint32_t ib1)
{
    uint32_t tb = ppe_reg(p, PPE_TB_CFG);
    int type = IB1_PACKET_TYPE(ib1);
    bool l4 = type == TYPE_IPV4_HNAPT || type == TYPE_IPV6_ROUTE_5T;

    if (l4 && (ib1 & IB1_UDP)) {
        return (tb & TB_CFG_AGE_UDP) ?
               BIND_AGE0_DELTA_UDP(ppe_reg(p, PPE_BIND_AGE0)) : 0;
    }
    if (l4) {
        return (tb & TB_CFG_AGE_TCP) ?
               BIND_AGE1_DELTA_TCP(ppe_reg(p, PPE_BIND_AGE1)) : 0;
    }
    return (tb & TB_CFG_AGE_NON_L4) ?
           BIND_AGE0_DELTA_NON_L4(ppe_reg(p, PPE_BIND_AGE0)) : 0;
}

static void ppe_scan(void *opaque)
{
    MT7621PPE *p = opaque;
    uint32_t n = ppe_entries(p), now = mt7621_ppe_timestamp(), idx;
    uint32_t unbind = UNBIND_AGE_DELTA(ppe_reg(p, PPE_UNBIND_AGE));
    bool age_unbind = ppe_reg(p, PPE_TB_CFG) & TB_CFG_AGE_UNBIND;
    hwaddr base = ppe_reg(p, PPE_TB_BASE);

    for (idx = 0; idx < n; idx++) {
        uint32_t e[FOE_WORDS], delta, ib1;

        if (dma_memory_read(p->as, base + (hwaddr)idx * FOE_SIZE, &ib1, 4,
                            MEMTXATTRS_UNSPECIFIED) != MEMTX_OK) {
            qemu_log_mask(LOG_GUEST_ERROR, "mt7621-ppe: FOE table at 0x%"
                          HWADDR_PRIx " outside RAM\n", base);
            break;
        }
        e[0] = ib1 = le32_to_cpu(ib1);
        if (ib1 & IB1_STATIC) {
            continue;
        }
        if (IB1_STATE(ib1) == STATE_BIND) {
            delta = ppe_bind_delta(p, ib1);
            if (!delta ||
                ((now - ib1) & IB1_BIND_TS_MASK) <= delta) {
                continue;
            }
            e[0] = (ib1 & IB1_KEEP) | STATE_UNBIND << 28 | (now & 0xff);
        } else if (IB1_STATE(ib1) == STATE_UNBIND && age_unbind) {
            if (((now - ib1) & 0xff) <= unbind) {
                continue;
            }
            e[0] = ib1 & IB1_STATIC;
        } else {
            continue;
        }
        ppe_cache_drop(p, idx);
        ppe_write_words(p, idx, 0, 1, e);
        trace_mt7621_ppe_age(idx, IB1_STATE(ib1), IB1_STATE(e[0]));
    }
    ppe_scan_schedule(p);
}

/* -- registers ------------------------------------------------------------ */

/* Registers mainline programs that are stored and have no effect here */
static bool ppe_plain_reg(hwaddr a)
{
    return a == PPE_FLOW_CFG || a == PPE_IP_PROTO_CHK ||
           a == PPE_BIND_RATE || a == PPE_BIND_LIMIT0 ||
           a == PPE_BIND_LIMIT1 || a == PPE_KEEPALIVE ||
           a == PPE_UNBIND_AGE || a == PPE_BIND_AGE0 || a == PPE_BIND_AGE1 ||
           a == PPE_VLAN_MTU0 || a == PPE_VLAN_MTU1 || a == PPE_TB_BASE;
}

uint32_t mt7621_ppe_read(MT7621PPE *p, hwaddr a)
{
    switch (a) {
    case PPE_GLO_CFG:
        /* Table accesses complete at once: never busy */
        return ppe_reg(p, a) & ~GLO_CFG_BUSY;
    case PPE_TB_CFG:
    case PPE_CACHE_CTL:
    case PPE_DEFAULT_CPU_PORT:
        return ppe_reg(p, a);
    }
    if (!ppe_plain_reg(a)) {
        qemu_log_mask(LOG_UNIMP, "mt7621-ppe: read of PPE register 0x%03"
                      HWADDR_PRIx "\n", a);
    }
    return ppe_reg(p, a);
}

void mt7621_ppe_write(MT7621PPE *p, hwaddr a, uint32_t v)
{
    uint32_t old = ppe_reg(p, a);

    p->regs[a / 4] = v;
    switch (a) {
    case PPE_GLO_CFG:
        ppe_scan_schedule(p);
        return;
    case PPE_TB_CFG:
        if (TB_CFG_KEEPALIVE(v) && !TB_CFG_KEEPALIVE(old) &&
            TB_CFG_SCAN_MODE(v)) {
            qemu_log_mask(LOG_UNIMP, "mt7621-ppe: keepalive copies to the "
                          "CPU are not modelled\n");
        }
        ppe_scan_schedule(p);
        return;
    case PPE_TB_BASE:
        memset(p->cache_tag, 0, sizeof(p->cache_tag));
        ppe_scan_schedule(p);
        return;
    case PPE_CACHE_CTL:
        if (v & CACHE_CTL_CLEAR) {
            memset(p->cache_tag, 0, sizeof(p->cache_tag));
            trace_mt7621_ppe_cache_clear();
        }
        if (v & CACHE_CTL_REQ) {
            qemu_log_mask(LOG_UNIMP, "mt7621-ppe: cache entry requests are "
                          "not modelled\n");
        }
        return;
    case PPE_DEFAULT_CPU_PORT:
        if (v) {
            qemu_log_mask(LOG_UNIMP, "mt7621-ppe: CPU-bound frames go to "
                          "PDMA whatever DEFAULT_CPU_PORT (0x%x) says\n", v);
        }
        return;
    }
    if (!ppe_plain_reg(a)) {
        qemu_log_mask(LOG_UNIMP, "mt7621-ppe: write of 0x%x to PPE register "
                      "0x%03" HWADDR_PRIx "\n", v, a);
    }
}

void mt7621_ppe_reset(MT7621PPE *p)
{
    memset(p->regs, 0, sizeof(p->regs));
    memset(p->cache_tag, 0, sizeof(p->cache_tag));
    timer_del(p->scan);
}

void mt7621_ppe_init(MT7621PPE *p, AddressSpace *as)
{
    p->as = as;
    p->scan = timer_new_ms(QEMU_CLOCK_VIRTUAL, ppe_scan, p);
}

const VMStateDescription vmstate_mt7621_ppe = {
    .name = "mt7621-ppe",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32_ARRAY(regs, MT7621PPE, MT7621_PPE_SIZE / 4),
        VMSTATE_UINT32_ARRAY(cache_tag, MT7621PPE, 16),
        VMSTATE_UINT32_2DARRAY(cache, MT7621PPE, 16, FOE_WORDS),
        VMSTATE_TIMER_PTR(scan, MT7621PPE),
        VMSTATE_END_OF_LIST()
    }
};
