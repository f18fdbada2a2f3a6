# SPDX-License-Identifier: GPL-2.0
"""The access concentrator's side of one PPPoE session (RFC 2516) for a
host-side peer, as pppd's pppoe plugin in the guest needs it: discovery
(PADI/PADO, PADR/PADS, PADT), LCP without authentication (RFC 1661),
IPCP giving the client its address (RFC 1332), LCP echo replies, and a
Protocol-Reject for every other protocol (IPv6CP, CCP, ...)."""

import socket
import struct
import threading

from peer import eth

ETH_P_PPP_DISC = 0x8863
ETH_P_PPP_SES = 0x8864
PPP_IP = 0x0021
PPP_LCP = 0xc021
PPP_IPCP = 0x8021
PADI, PADO, PADR, PADS, PADT = 0x09, 0x07, 0x19, 0x65, 0xa7
TAG_SERVICE_NAME, TAG_AC_NAME, TAG_HOST_UNIQ = 0x0101, 0x0102, 0x0103
CONF_REQ, CONF_ACK, CONF_NAK, CONF_REJ = 1, 2, 3, 4
TERM_REQ, TERM_ACK, PROTO_REJ, ECHO_REQ, ECHO_REP = 5, 6, 8, 9, 10
IPCP_ADDRESS = 3
MAGIC = 0x51e5a11e


def pppoe_session(dst, src, sid, proto, payload):
    """A PPPoE session frame of PPP protocol @proto."""
    return eth(dst, src, ETH_P_PPP_SES,
               struct.pack('!BBHHH', 0x11, 0, sid, len(payload) + 2, proto) +
               payload)


def tags(body):
    """A discovery packet's tags: [(type, value)]."""
    out = []
    while len(body) >= 4:
        t, n = struct.unpack('!HH', body[:4])
        out.append((t, body[4:4 + n]))
        body = body[4 + n:]
    return out


def options(body):
    """A configure packet's options: [(type, data)], None if malformed."""
    out = []
    while body:
        if len(body) < 2 or body[1] < 2 or body[1] > len(body):
            return None
        out.append((body[0], body[2:body[1]]))
        body = body[body[1]:]
    return out


def cp(code, ident, data):
    """An LCP/IPCP packet."""
    return struct.pack('!BBH', code, ident, len(data) + 4) + data


class PPPoEServer:
    """One session with session id @sid on @peer (a tests/lib/peer.Peer),
    the server at @server_ip, the client given @client_ip. Feed every
    frame to handle() from the peer's receive thread; @opened is set once
    both ends' IPCP have been acknowledged."""

    def __init__(self, peer, sid, server_ip, client_ip):
        self.peer, self.sid = peer, sid
        self.server_ip, self.client_ip = server_ip, client_ip
        self.client = None                  # the client's MAC
        self.ident = 0
        self.lcp_sent = self.ipcp_sent = False
        self.opened = threading.Event()
        self.ipcp_acked = self.ipcp_ours_acked = False
        self.terminated = threading.Event()

    def _send(self, proto, payload):
        self.peer.send(pppoe_session(self.client, self.peer.mac, self.sid,
                                     proto, payload))

    def _next(self):
        self.ident = (self.ident + 1) & 0xff
        return self.ident

    def _discovery(self, f):
        ver, code, sid, n = struct.unpack('!BBHH', f[14:20])
        tl = tags(f[20:20 + n])
        echo = b''.join(struct.pack('!HH', t, len(v)) + v for t, v in tl
                        if t in (TAG_SERVICE_NAME, TAG_HOST_UNIQ))
        if not any(t == TAG_SERVICE_NAME for t, _ in tl):
            echo += struct.pack('!HH', TAG_SERVICE_NAME, 0)
        if code == PADI:
            ac = b'qemu-test'
            body = struct.pack('!HH', TAG_AC_NAME, len(ac)) + ac + echo
            sid = 0
            code = PADO
        elif code == PADR:
            self.client = f[6:12]
            body, sid, code = echo, self.sid, PADS
            self.lcp_sent = self.ipcp_sent = False
            self.ipcp_acked = self.ipcp_ours_acked = False
            self.opened.clear()
            self.terminated.clear()
        else:
            if code == PADT:
                self.terminated.set()
            return
        self.peer.send(eth(f[6:12], self.peer.mac, ETH_P_PPP_DISC,
                           struct.pack('!BBHH', 0x11, code, sid,
                                       len(body)) + body))

    def _lcp(self, p):
        code, ident = p[0], p[1]
        if code == CONF_REQ:
            self._send(PPP_LCP, cp(CONF_ACK, ident, p[4:]))
            if not self.lcp_sent:
                self.lcp_sent = True
                self._send(PPP_LCP, cp(CONF_REQ, self._next(),
                                       struct.pack('!BBI', 5, 6, MAGIC)))
        elif code == ECHO_REQ:
            self._send(PPP_LCP, cp(ECHO_REP, ident,
                                   struct.pack('!I', MAGIC) + p[8:]))
        elif code == TERM_REQ:
            self._send(PPP_LCP, cp(TERM_ACK, ident, b''))
            self.terminated.set()

    def _ipcp(self, p):
        code, ident = p[0], p[1]
        if code == CONF_REQ:
            opts = options(p[4:struct.unpack('!H', p[2:4])[0]]) or []
            other = [o for o in opts if o[0] != IPCP_ADDRESS]
            want = socket.inet_aton(self.client_ip)
            if other:
                self._send(PPP_IPCP, cp(CONF_REJ, ident, b''.join(
                    struct.pack('!BB', t, len(d) + 2) + d for t, d in other)))
            elif any(d != want for t, d in opts) or not opts:
                self._send(PPP_IPCP, cp(CONF_NAK, ident, struct.pack(
                    '!BB', IPCP_ADDRESS, 6) + want))
            else:
                self._send(PPP_IPCP, cp(CONF_ACK, ident, p[4:]))
                self.ipcp_acked = True
            if not self.ipcp_sent:
                self.ipcp_sent = True
                self._send(PPP_IPCP, cp(CONF_REQ, self._next(), struct.pack(
                    '!BB', IPCP_ADDRESS, 6) +
                    socket.inet_aton(self.server_ip)))
        elif code == CONF_ACK:
            self.ipcp_ours_acked = True
        if self.ipcp_acked and self.ipcp_ours_acked:
            self.opened.set()

    def handle(self, f):
        """Answer @f if it is the session's control traffic; True if it
        was (IP in the session is left to the peer)."""
        if len(f) < 20:
            return False
        etype = struct.unpack('!H', f[12:14])[0]
        if etype == ETH_P_PPP_DISC:
            self._discovery(f)
            return True
        if etype != ETH_P_PPP_SES or len(f) < 26 or self.client is None:
            return False
        sid, n, proto = struct.unpack('!HHH', f[16:22])
        if sid != self.sid:
            return True
        p = f[22:20 + n]
        if proto == PPP_IP:
            return False
        if len(p) < 4:
            return True
        if proto == PPP_LCP:
            self._lcp(p)
        elif proto == PPP_IPCP:
            self._ipcp(p)
        else:
            self._send(PPP_LCP, cp(PROTO_REJ, self._next(),
                                   struct.pack('!H', proto) + p))
        return True
