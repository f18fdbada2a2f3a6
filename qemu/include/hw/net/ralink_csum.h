/*
 * Ralink/MediaTek frame engines: the checksum engine
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_NET_RALINK_CSUM_H
#define HW_NET_RALINK_CSUM_H

/* The RX checksum verdict on a frame */
typedef enum {
    RALINK_CSUM_NONE,   /* not TCP or UDP over IP, or cut short: unchecked */
    RALINK_CSUM_OK,     /* the IPv4 header and the TCP/UDP checksum verify */
    RALINK_CSUM_BAD,    /* one of them does not */
} RalinkCsum;

/*
 * The offset of a frame's L3 header, after its MACs, @tag bytes of a
 * switch's tag and any VLAN tags; *@proto gets its EtherType (0: none)
 */
size_t ralink_csum_l3(const uint8_t *f, size_t len, size_t tag,
                      uint16_t *proto);
/* The L4 header of an IPv4/IPv6 packet at @l3: offset and protocol */
bool ralink_csum_l4(const uint8_t *f, size_t len, size_t l3, uint16_t proto,
                    size_t *l4, uint8_t *l4proto);
/* Fill in a frame's IPv4 header and TCP/UDP checksums */
void ralink_csum_tx(uint8_t *f, size_t len, size_t tag);
/* Check them */
RalinkCsum ralink_csum_rx(const uint8_t *f, size_t len, size_t tag);
/* Where ralink_tso() hands each segment */
typedef void RalinkTsoSend(void *opaque, uint8_t *f, size_t len);
/*
 * TSO: cut a TCP frame into segments of the MSS in its TCP checksum
 * field, each sent through @send; a frame that is not TCP is sent whole
 * and one without an MSS dropped, both logged as guest errors of @name
 */
void ralink_tso(const char *name, uint8_t *f, size_t len, size_t tag,
                RalinkTsoSend *send, void *opaque);
/*
 * Insert an 802.1Q tag (TPID 0x8100, @tci) at offset @at of a frame of
 * @len bytes in a buffer of @size; return the new length (@len if the
 * tag does not fit)
 */
size_t ralink_vlan_insert(uint8_t *f, size_t len, size_t size, size_t at,
                          uint16_t tci);

#endif /* HW_NET_RALINK_CSUM_H */
