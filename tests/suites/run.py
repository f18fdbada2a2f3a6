#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""run: `make run` as a user runs it, its console driven through stdin.

For each driver set (ours, the default, then DRIVERS=mainline): `make run`
with the host ports for telnet and HTTP chosen free (TELNET_PORT,
HTTP_PORT) boots the GB-PC1 to its shell. Then:
- the frame engine and the switch are bound to the set's drivers, and
  the DT's front ports (ethblack, ethblue) exist and are up, with a
  carrier where a cable (a backend) is: ethblack has none without LAN=;
- the WAN port (ethblue, on QEMU's user networking) got its DHCP lease;
- the LAN port (ethblack) on a host-side peer (`LAN=socket,udp=...`, the
  README's way; tests/lib/peer.py) pings it (ours only);
- from the host, the forwarded HTTP port serves the guest's page (its
  hostname and kernel), and the forwarded telnet port gives a shell that
  runs a command (ours only: the network path is the same for both);
- `poweroff` typed on the console ends QEMU and `make run` exits 0.
The same for `make run BOARD=vocore2` (its console on UART2): ours
(ralink_fe as the conduit of our ralink_esw, on the test DT
mt7628-vocore2-esw.dts: WAN swp0, LAN swp1) and DRIVERS=mainline
(mainline's mtk_eth_soc; no ESW driver in mainline: eth0 is the WAN). Then `make run
BOARD=omega2p` and `make run BOARD=rt5350-eval` (ours: their test DTs
mt7628-omega2p-esw.dts and rt5350-eval-esw.dts). Then `make run
BOARD=rt3052-eval` (ours: ralink_fe, eth0 the WAN with the LAN's address
too: no driver manages its switch), and `make run BOARD=rt3883-eval` and
`BOARD=rt2880-eval` likewise (no switch: the GMAC's one NIC on a QEMU hub
with the WAN and LAN backends). Each run's QEMU log holds nothing
unexpected.
"""

import os
import re
import socket
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from board import LOG_VERDICT, READY  # noqa: E402
from makerun import Console, free_tcp_port  # noqa: E402
from peer import Peer  # noqa: E402
from tap import Suite  # noqa: E402

BOOT_TIMEOUT = 300
# Per board: its DT's model and host name, the LAN and WAN ports, and per
# driver set the drivers of the frame engine and of the switch (None:
# mainline has no switch driver for the ESW, the WAN is the conduit)
GNUBEE = dict(board='gnubee-pc1', model='GnuBee GB-PC1',
              host='gnubee-gb-pc1', lan='ethblack', wan='ethblue',
              sets=[('ours', 'ralink_fe', 'ralink-mt7530'),
                    ('mainline', 'mtk_soc_eth', 'mt7530-mdio')])
VOCORE2 = dict(board='vocore2', model='VoCore2', host='vocore2',
               lan='swp1', wan='swp0',
               sets=[('ours', 'ralink_fe', 'ralink-esw'),
                     ('mainline', 'mtk_soc_eth', None)])
# The other ESW boards: ours only (DRIVERS=mainline is the VoCore2's path)
OMEGA2P = dict(board='omega2p', model='Onion Omega2+', host='onion-omega2',
               lan='swp1', wan='swp0',
               sets=[('ours', 'ralink_fe', 'ralink-esw')])
RT5350 = dict(board='rt5350-eval', model='Ralink RT5350 evaluation board',
              host='ralink-rt5350-evaluation-board', lan='swp1', wan='swp0',
              sets=[('ours', 'ralink_fe', 'ralink-esw')])
# The RT3052: our frame engine driver, eth0 the WAN and the LAN's address
# too (no driver for its switch, none in mainline for its frame engine)
RT3052 = dict(board='rt3052-eval', model='Ralink RT3052 evaluation board',
              host='ralink-rt3052-evaluation-board', lan=None, wan='eth0',
              sets=[('ours', 'ralink_fe', None)])
# The RT3883 and the RT2880: no switch, the GMAC's one port the WAN, with
# LAN= on a hub beside it and the LAN's address on eth0 too
RT3883 = dict(board='rt3883-eval', model='Ralink RT3883 evaluation board',
              host='ralink-rt3883-evaluation-board', lan=None, wan='eth0',
              sets=[('ours', 'ralink_fe', None)])
RT2880 = dict(board='rt2880-eval', model='Ralink RT2880 evaluation board',
              host='ralink-rt2880-evaluation-board', lan=None, wan='eth0',
              sets=[('ours', 'ralink_fe', None)])
# The host peer on the LAN port, in make run's LAN_ADDR subnet.
LAN_PEER = '192.168.10.2'


def http_get(port, timeout=30):
    with socket.create_connection(('127.0.0.1', port), timeout) as s:
        s.sendall(b'GET / HTTP/1.0\r\nHost: localhost\r\n\r\n')
        data = b''
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return data.decode('utf-8', 'replace')
            data += chunk


def telnet_run(port, cmd, expect, timeout=30):
    """Log in through the forwarded telnet port (busybox telnetd: a shell,
    no login), type @cmd, return what came back once @expect (regex)
    shows. Telnet option negotiation (IAC ...) is refused or ignored."""
    deadline = time.monotonic() + timeout
    with socket.create_connection(('127.0.0.1', port), timeout) as s:
        s.sendall(cmd.encode() + b'\r\n')
        data = b''
        while not re.search(expect.encode(), data):
            s.settimeout(max(0.1, deadline - time.monotonic()))
            chunk = s.recv(4096)
            if not chunk:
                break
            # Refuse every option the server asks for (IAC DO x -> WONT x).
            for m in re.finditer(rb'\xff([\xfb-\xfe])(.)', chunk, re.S):
                verb = {0xfd: 0xfc, 0xfb: 0xfe}.get(m.group(1)[0])
                if verb:
                    s.sendall(bytes([0xff, verb]) + m.group(2))
            data += chunk
        return re.sub(rb'\xff[\xfb-\xfe].', b'', data, flags=re.S).decode(
            'utf-8', 'replace')


def run_set(t, cfg, name, fe_drv, sw_drv):
    telnet, http = free_tcp_port(), free_tcp_port()
    variables = dict(TELNET_PORT=str(telnet), HTTP_PORT=str(http))
    lan, wan = cfg['lan'], cfg['wan']
    if not sw_drv:
        lan, wan = None, 'eth0'
    peer = None
    if cfg['board'] != 'gnubee-pc1':
        variables['BOARD'] = cfg['board']
    if name != 'ours':
        variables['DRIVERS'] = name
    else:
        peer = Peer('lan', bytes.fromhex('020000000ccc'), LAN_PEER)
        variables['LAN'] = peer.backend()
    what = 'make run%s%s' % (
        '' if cfg['board'] == 'gnubee-pc1' else ' BOARD=' + cfg['board'],
        '' if name == 'ours' else ' DRIVERS=' + name)
    c = Console(**variables)
    try:
        try:
            c.wait_for(READY, BOOT_TIMEOUT)
            c.run('true')
        except Exception as e:
            t.fail('%s: boots to a shell' % what,
                   '%s\n%s' % (e, c.text()[-3000:]))
            return
        t.ok('%s: boots to a shell' % what)
        t.comment(re.findall(r'ralink-fe: [^\r\n]*', c.text()))
        # Kernel messages (e.g. "hrtimer: interrupt took ... ns" on a busy
        # host) would land inside the commands' output from here on.
        c.run('dmesg -n 1')

        out = c.run('for d in /sys/class/net/eth0/device/driver %s; do '
                    'basename $(readlink $d); done'
                    % ('/sys/class/net/%s/device/driver' % lan if lan
                       else ''))
        got = out.split()
        want = [fe_drv] + ([sw_drv] if sw_drv else [])
        t.result(got == want,
                 '%s: the frame engine%s bound to %s' % (
                     what, ' and the switch are' if sw_drv else ' is',
                     ' and '.join(want)), 'got %r' % got)

        # Up, with a carrier where a cable is: the WAN port always (QEMU's
        # user networking), the LAN port when LAN= gives it a backend (a
        # port without one has no link, as a port without a cable). By
        # sysfs: the VoCore2's busybox has no `ip -br`.
        ports = [p for p in (lan, wan) if p]
        out = c.run('for p in %s; do echo $p $(cat /sys/class/net/$p/'
                    'flags /sys/class/net/$p/carrier); done'
                    % ' '.join(ports))
        state = {w[0]: (int(w[1], 16) & 1, w[2]) for w in
                 (ln.split() for ln in out.splitlines()) if len(w) == 3}
        cabled = {wan: True, lan: bool(peer)}
        t.result(all(state.get(p) == (1, '1' if cabled[p] else '0')
                     for p in ports),
                 '%s: ports %s exist and are up, with a carrier where a '
                 'cable is (%s)' % (what, ' and '.join(ports),
                                    'both' if peer and lan else
                                    wan + ' only'),
                 out)

        out = c.run('ip -4 addr show dev %s' % wan)
        t.result('10.0.2.15/24' in out,
                 '%s: %s (WAN) has its DHCP lease 10.0.2.15' % (what, wan),
                 out)

        if peer:
            out = c.run('ping -c 2 -W 5 %s' % LAN_PEER)
            t.result(' 0% packet loss' in out, '%s LAN=<socket to a host '
                     'peer>: %s reaches the peer %s' % (what, lan or wan,
                                                        LAN_PEER),
                     out)

        try:
            page = http_get(http)
            ok = cfg['host'] in page and 'Linux' in page
        except OSError as e:
            page, ok = str(e), False
        t.result(ok, '%s: http://127.0.0.1:HTTP_PORT/ from the host is the '
                 "guest's page" % what, page[-1500:])

        if name == 'ours':
            try:
                out = telnet_run(telnet, 'tr -d "\\0" </proc/device-tree/'
                                 'model; echo telnet-$((6 * 7))',
                                 r'telnet-42')
                ok = cfg['model'] in out and 'telnet-42' in out
            except OSError as e:
                out, ok = str(e), False
            t.result(ok, '%s: telnet 127.0.0.1 TELNET_PORT from the host '
                     'is a shell on the guest' % what, out[-1500:])

        status = c.poweroff()
        t.result(status == 0, '%s: poweroff ends it, exit status 0' % what,
                 'exit status %r\n%s' % (status, c.text()[-1500:]))
    finally:
        bad = c.log_problems()
        t.result(not bad, '%s QEMU_ARGS="-d guest_errors,unimp -D ...": %s'
                 % (what, LOG_VERDICT), '\n'.join(bad[:30]))


def main():
    t = Suite('run')
    for cfg in (GNUBEE, VOCORE2, OMEGA2P, RT5350, RT3052, RT3883, RT2880):
        for name, fe_drv, sw_drv in cfg['sets']:
            run_set(t, cfg, name, fe_drv, sw_drv)
    return 0


if __name__ == '__main__':
    sys.exit(main())
