/*
 * Ralink/MediaTek frame engines: the checksum engine
 *
 * What the frame engines of the family compute on TX (the MT7621's GDMA,
 * the RT305x's and MT7620's) and check on RX (every one of them: the
 * MT7621's GDMA_FWD_CFG ICS/TCS/UCS, the RT5350's and MT7628's SDM_CON):
 * the IPv4 header checksum and the TCP or UDP checksum over IPv4 or IPv6,
 * found after the MACs, a switch's tag if the frame engine sees one, and
 * any VLAN tags. IPv6 extension headers are not followed. The TCP
 * segmentation (TSO) of the MT7621's and, from ECO 5 on, the MT7620's
 * TX. And the 802.1Q tag their TX inserts where a descriptor asks (the
 * MT7621's TCI in txd4, the RT305x's from its VLAN table).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "hw/net/ralink_csum.h"
#include "net/checksum.h"
#include "net/eth.h"

size_t ralink_csum_l3(const uint8_t *f, size_t len, size_t tag,
                      uint16_t *proto)
{
    size_t off = 12 + tag;

    while (off + 2 <= len) {
        uint16_t t = lduw_be_p(f + off);

        if (t != ETH_P_VLAN && t != ETH_P_DVLAN) {
            *proto = t;
            return off + 2;
        }
        off += 4;
    }
    *proto = 0;
    return len;
}

bool ralink_csum_l4(const uint8_t *f, size_t len, size_t l3, uint16_t proto,
                    size_t *l4, uint8_t *l4proto)
{
    if (proto == ETH_P_IP && l3 + 20 <= len) {
        *l4 = l3 + (f[l3] & 0xf) * 4;
        *l4proto = f[l3 + 9];
        return (f[l3] >> 4) == 4 && *l4 <= len;
    }
    if (proto == ETH_P_IPV6 && l3 + 40 <= len) {
        /* Extension headers are not followed (nor by the driver's TSO) */
        *l4 = l3 + 40;
        *l4proto = f[l3 + 6];
        return true;
    }
    return false;
}

/* (QEMU 7.2's net_checksum_add() takes a non-const buffer) */
static uint16_t csum_l4(uint8_t *f, size_t l3, size_t l4,
                       size_t end, uint16_t proto, uint8_t l4proto)
{
    uint32_t sum;
    size_t l4len = end - l4;

    if (proto == ETH_P_IP) {
        sum = net_checksum_add(8, f + l3 + 12);
    } else {
        sum = net_checksum_add(32, f + l3 + 8);
    }
    sum += l4proto + l4len;
    sum += net_checksum_add(l4len, f + l4);
    return net_checksum_finish(sum);
}

void ralink_csum_tx(uint8_t *f, size_t len, size_t tag)
{
    uint16_t proto, c;
    size_t l3 = ralink_csum_l3(f, len, tag, &proto), l4, off;
    uint8_t l4proto;

    if (!ralink_csum_l4(f, len, l3, proto, &l4, &l4proto)) {
        return;
    }
    if (proto == ETH_P_IP) {
        stw_be_p(f + l3 + 10, 0);
        stw_be_p(f + l3 + 10, net_checksum_finish(
                     net_checksum_add(l4 - l3, f + l3)));
    }
    if (l4proto == IP_PROTO_TCP) {
        off = l4 + 16;
    } else if (l4proto == IP_PROTO_UDP) {
        off = l4 + 6;
    } else {
        return;
    }
    if (off + 2 > len) {
        return;
    }
    stw_be_p(f + off, 0);
    c = csum_l4(f, l3, l4, len, proto, l4proto);
    if (l4proto == IP_PROTO_UDP && !c) {
        c = 0xffff;
    }
    stw_be_p(f + off, c);
}

RalinkCsum ralink_csum_rx(const uint8_t *cf, size_t len, size_t tag)
{
    uint8_t *f = (uint8_t *)cf;     /* only read: net_checksum_add() */
    uint16_t proto;
    size_t l3 = ralink_csum_l3(f, len, tag, &proto), l4, end;
    uint8_t l4proto;

    if (!ralink_csum_l4(f, len, l3, proto, &l4, &l4proto)) {
        return RALINK_CSUM_NONE;
    }
    if (l4proto != IP_PROTO_TCP && l4proto != IP_PROTO_UDP) {
        return RALINK_CSUM_NONE;
    }
    if (proto == ETH_P_IP) {
        end = l3 + lduw_be_p(f + l3 + 2);
    } else {
        end = l4 + lduw_be_p(f + l3 + 4);
    }
    if (end > len || end < l4 + 8) {
        return RALINK_CSUM_NONE;
    }
    if (proto == ETH_P_IP &&
        net_checksum_finish(net_checksum_add(l4 - l3, f + l3))) {
        return RALINK_CSUM_BAD;
    }
    if (l4proto == IP_PROTO_UDP && !lduw_be_p(f + l4 + 6)) {
        return RALINK_CSUM_OK;      /* no UDP checksum */
    }
    return csum_l4(f, l3, l4, end, proto, l4proto) ? RALINK_CSUM_BAD :
                                                     RALINK_CSUM_OK;
}

/*
 * The drivers put the MSS in the TCP checksum field (mainline's
 * mtk_tx_map(), ralink_fe's fe_start_xmit(): tcp_hdr(skb)->check =
 * htons(gso_size)); every segment gets the headers, its IPv4 total length
 * and ID (counted up from the frame's) or IPv6 payload length, its
 * sequence number, the flags (FIN and PSH on the last segment only, CWR
 * on the first only) and its checksums.
 */
void ralink_tso(const char *name, uint8_t *f, size_t len, size_t tag,
                RalinkTsoSend *send, void *opaque)
{
    uint16_t proto, mss, ipid = 0;
    size_t l3 = ralink_csum_l3(f, len, tag, &proto);
    size_t l4, hlen, off;
    uint8_t l4proto, flags;
    g_autofree uint8_t *seg = NULL;
    uint32_t seq;

    if (!ralink_csum_l4(f, len, l3, proto, &l4, &l4proto) ||
        l4proto != IP_PROTO_TCP || l4 + 20 > len) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: TSO on a frame that is not "
                      "TCP: sent as it is\n", name);
        send(opaque, f, len);
        return;
    }
    hlen = l4 + (f[l4 + 12] >> 4) * 4;
    mss = lduw_be_p(f + l4 + 16);
    if (!mss || hlen > len) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: TSO without an MSS or with a "
                      "TCP header past the frame: dropped\n", name);
        return;
    }
    seq = ldl_be_p(f + l4 + 4);
    flags = f[l4 + 13];
    if (proto == ETH_P_IP) {
        ipid = lduw_be_p(f + l3 + 4);
    }
    seg = g_malloc(hlen + MIN(mss, len - hlen));
    for (off = hlen; off < len; off += mss) {
        size_t n = MIN(mss, len - off);
        bool last = off + n >= len;

        memcpy(seg, f, hlen);
        memcpy(seg + hlen, f + off, n);
        if (proto == ETH_P_IP) {
            stw_be_p(seg + l3 + 2, hlen - l3 + n);
            stw_be_p(seg + l3 + 4, ipid++);
        } else {
            stw_be_p(seg + l3 + 4, hlen - l4 + n);
        }
        stl_be_p(seg + l4 + 4, seq + (off - hlen));
        seg[l4 + 13] = flags & ~(last ? 0 : TH_FIN | TH_PUSH) &
                       ~(off == hlen ? 0 : TH_CWR);
        ralink_csum_tx(seg, hlen + n, tag);
        send(opaque, seg, hlen + n);
    }
}

size_t ralink_vlan_insert(uint8_t *f, size_t len, size_t size, size_t at,
                          uint16_t tci)
{
    if (at > len || len + 4 > size) {
        return len;
    }
    memmove(f + at + 4, f + at, len - at);
    stw_be_p(f + at, ETH_P_VLAN);
    stw_be_p(f + at + 2, tci);
    return len + 4;
}
