# SPDX-License-Identifier: GPL-2.0
"""Host-side peers on the board's switch ports, and the frames they send.

A Peer is a UDP socket on a front port's `-netdev socket` backend: QEMU
sends each frame the port transmits as one datagram and takes each
datagram as one frame the port receives. It answers ARP and ping for its
own address like a host, and keeps what it receives for wait()/match.
"""

import contextlib
import os
import random
import select
import socket
import struct
import subprocess
import threading
import time

from board import BUILD, TOP

BCAST = b'\xff' * 6


def _ephemeral_low():
    try:
        with open('/proc/sys/net/ipv4/ip_local_port_range') as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_udp_port():
    """A UDP port on 127.0.0.1 that is free now, for QEMU's end of a
    socket backend, which QEMU binds a little later. Not one the kernel
    hands out to bind(0) (the ephemeral range): every peer's socket and
    every other program's takes those, and one of them took a port
    chosen so between its check and QEMU's start (QEMU exited, "Address
    already in use"). Below it, only this function's other callers
    compete, at random over thousands of ports."""
    rng = random.SystemRandom()
    high = min(_ephemeral_low(), 65536) - 1
    for _ in range(1000):
        port = rng.randint(20000, high) if high > 20000 else 0
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            s.bind(('127.0.0.1', port))
            return s.getsockname()[1]
        except OSError:
            continue
        finally:
            s.close()
    raise RuntimeError('no free UDP port below %d' % (high + 1))


def csum(data):
    if len(data) % 2:
        data += b'\0'
    s = sum(struct.unpack('!%dH' % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def ipv4(src, dst, proto, payload):
    hdr = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(payload), 0, 0x4000,
                      64, proto, 0, socket.inet_aton(src),
                      socket.inet_aton(dst))
    hdr = hdr[:10] + struct.pack('!H', csum(hdr)) + hdr[12:]
    return hdr + payload


def eth(dst, src, etype, payload):
    frame = dst + src + struct.pack('!H', etype) + payload
    return frame + b'\0' * max(0, 60 - len(frame))


def arp(op, smac, sip, tmac, tip):
    return struct.pack('!HHBBH6s4s6s4s', 1, 0x0800, 6, 4, op, smac,
                       socket.inet_aton(sip), tmac, socket.inet_aton(tip))


def icmp_echo(typ, ident, seq, data=b'ralink-fe'):
    msg = struct.pack('!BBHHH', typ, 0, 0, ident, seq) + data
    return msg[:2] + struct.pack('!H', csum(msg)) + msg[4:]


def send_paced(sends):
    """Send each (peer, frame) of @sends, pausing 4 ms after every 50 so
    that the host's socket buffers hold what QEMU has not read yet; return
    the seconds it took."""
    t0 = time.monotonic()
    for i, (peer, frame) in enumerate(sends):
        peer.send(frame)
        if i % 50 == 49:
            time.sleep(0.004)
    return time.monotonic() - t0


class Peer:
    """A host on a front port: a UDP socket, one datagram per frame."""

    def __init__(self, name, mac, ip, port=0, qemu_port=None):
        """@port: our UDP port (0: any free one); @qemu_port: QEMU's
        (default: a free one)."""
        self.name, self.mac, self.ip = name, mac, ip
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
        self.sock.bind(('127.0.0.1', port))
        self.port = self.sock.getsockname()[1]
        self.qemu_port = qemu_port or free_udp_port()
        self.frames = []
        self.cond = threading.Condition()
        self.answer = True
        self.keep = True                     # keep what arrives in frames
        self.match, self.matched = None, 0   # frames equal to @match
        self.paused = False
        self.parked, self.resume = threading.Event(), threading.Event()
        threading.Thread(target=self._rx, daemon=True).start()

    def backend(self):
        """The -netdev backend (less its id) for QEMU's end."""
        return 'socket,udp=127.0.0.1:%d,localaddr=127.0.0.1:%d' % (
            self.port, self.qemu_port)

    def netdev(self, ident, model='mt7530'):
        """The options that put us on the next front port of the board's
        switch (@model: the switch's QEMU type)."""
        return ['-netdev', '%s,id=%s' % (self.backend(), ident),
                '-net', 'nic,netdev=%s,model=%s' % (ident, model)]

    def send(self, frame):
        self.sock.sendto(frame, ('127.0.0.1', self.qemu_port))

    def _rx(self):
        while True:
            if self.paused:
                self.parked.set()
                self.resume.wait()
                continue
            # A timeout, so that quiet() finds the thread outside recv()
            if not select.select([self.sock], [], [], 0.2)[0]:
                continue
            frame = self.sock.recv(65536)
            if self.answer:
                self._answer(frame)
            with self.cond:
                self.received(frame)
                self.cond.notify_all()

    @contextlib.contextmanager
    def quiet(self):
        """Take no frames from the socket while in the context, for a
        helper process that reads it (e.g. soak())."""
        self.resume.clear()
        self.parked.clear()
        self.paused = True
        try:
            if not self.parked.wait(10):
                raise RuntimeError('%s: receive thread did not stop'
                                   % self.name)
            yield self.sock
        finally:
            self.paused = False
            self.resume.set()

    def received(self, frame):
        """Keep @frame (called with self.cond held)."""
        if self.keep:
            self.frames.append(frame)
        if frame == self.match:
            self.matched += 1

    def _answer(self, f):
        """Answer ARP requests and pings for our address, like a host."""
        if len(f) < 14:
            return
        etype = struct.unpack('!H', f[12:14])[0]
        if etype == 0x0806 and len(f) >= 42:
            op, tip = struct.unpack('!H', f[20:22])[0], f[38:42]
            if op == 1 and tip == socket.inet_aton(self.ip):
                self.send(eth(f[6:12], self.mac, 0x0806,
                              arp(2, self.mac, self.ip, f[22:28],
                                  socket.inet_ntoa(f[28:32]))))
        elif etype == 0x0800 and len(f) >= 42 and f[23] == 1:
            ihl = (f[14] & 0xf) * 4
            icmp = f[14 + ihl:]
            if f[30:34] == socket.inet_aton(self.ip) and icmp[0] == 8:
                ident, seq = struct.unpack('!HH', icmp[4:8])
                tot = struct.unpack('!H', f[16:18])[0]
                data = f[14 + ihl + 8:14 + tot]
                self.send(eth(f[6:12], self.mac, 0x0800,
                              ipv4(self.ip, socket.inet_ntoa(f[26:30]), 1,
                                   icmp_echo(0, ident, seq, data))))

    def mark(self):
        """How many frames were kept so far: wait()'s @since."""
        with self.cond:
            return len(self.frames)

    def wait(self, pred, timeout, since=0):
        """Wait for a frame matching @pred, among those kept from the
        @since-th on; return it or None."""
        deadline = time.monotonic() + timeout
        seen = since
        with self.cond:
            while True:
                for f in self.frames[seen:]:
                    if pred(f):
                        return f
                seen = len(self.frames)
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(left)

    def wait_matched(self, n, timeout):
        """Wait until @n frames equal to self.match arrived; their count."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while self.matched < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self.cond.wait(left)
            return self.matched

    def ping(self, ip, seq, wait=10):
        """ARP for @ip, then one ICMP echo, waiting up to @wait seconds for
        each answer; return the round trip or why there is none. Only
        answers received after the question count: an older ARP reply
        would send the echo before the switch learned the new one's
        source (a frame that moved the address since would misdirect it)."""
        since = self.mark()
        self.send(eth(BCAST, self.mac, 0x0806,
                      arp(1, self.mac, self.ip, b'\0' * 6, ip)))
        rep = self.wait(lambda f: f[12:14] == b'\x08\x06' and
                        f[20:22] == b'\x00\x02' and
                        f[28:32] == socket.inet_aton(ip), wait, since)
        if rep is None:
            return 'no ARP reply from %s' % ip
        mac = rep[22:28]
        t0 = time.monotonic()
        since = self.mark()
        self.send(eth(mac, self.mac, 0x0800,
                      ipv4(self.ip, ip, 1, icmp_echo(8, 0x4242, seq))))
        rep = self.wait(lambda f: f[12:14] == b'\x08\x00' and f[23] == 1 and
                        f[34] == 0 and f[40:42] == struct.pack('!H', seq),
                        wait, since)
        if rep is None:
            return 'no echo reply from %s' % ip
        return time.monotonic() - t0


def soak(tx, rx, n, window, stall):
    """@tx sends @n numbered, checksummed frames to @rx through the board,
    at most @window of them not yet received (tests/tools/soak.c: credit
    pacing, its frame format and checks); in flight with no frame for
    @stall seconds count as lost. Returns (received, corrupted, duplicated,
    lost, seconds)."""
    src = os.path.join(TOP, 'tests', 'tools', 'soak.c')
    tool = os.path.join(BUILD, 'tools', 'soak')
    if (not os.path.exists(tool) or
            os.path.getmtime(tool) < os.path.getmtime(src)):
        os.makedirs(os.path.dirname(tool), exist_ok=True)
        subprocess.run(['cc', '-O2', '-Wall', '-Wextra', '-Werror', '-o',
                        tool, src], check=True)
    with rx.quiet():
        fds = (tx.sock.fileno(), rx.sock.fileno())
        out = subprocess.run(
            [tool, str(fds[0]), str(fds[1]), str(tx.qemu_port),
             rx.mac.hex(':'), tx.mac.hex(':'), str(n), str(window),
             str(int(stall * 1000))], pass_fds=fds, check=True,
            capture_output=True, text=True, timeout=n / 1000 + 600).stdout
    v = out.split()
    if v[0::2] != ['received', 'corrupted', 'duplicated', 'lost', 'seconds']:
        raise RuntimeError('soak: unexpected output %r' % out)
    return tuple(int(x) for x in v[1:9:2]) + (float(v[9]),)


def main():
    """A host on a board's port, from a shell: `python3 tests/lib/peer.py
    IP [PORT QEMU_PORT]` answers ARP and ping for IP and prints each frame
    it receives, until interrupted. The board's side of the wire is QEMU's
    `-netdev socket,udp=127.0.0.1:PORT,localaddr=127.0.0.1:QEMU_PORT`
    (README: make run LAN=...)."""
    import sys
    if len(sys.argv) not in (2, 4):
        sys.exit('usage: peer.py IP [PORT QEMU_PORT]   (defaults: 5001 5000)')
    ip = sys.argv[1]
    port, qport = (int(sys.argv[2]), int(sys.argv[3])) if len(
        sys.argv) == 4 else (5001, 5000)
    p = Peer('peer', bytes.fromhex('020000000ccc'), ip, port, qport)
    p.received = lambda f: print('%s > %s type %04x, %d bytes' % (
        f[6:12].hex(':'), f[0:6].hex(':'),
        struct.unpack('!H', f[12:14])[0], len(f)), flush=True)
    print('peer %s (02:00:00:00:0c:cc) on UDP 127.0.0.1:%d; QEMU: -netdev %s'
          % (ip, port, p.backend()), flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass


if __name__ == '__main__':
    main()
