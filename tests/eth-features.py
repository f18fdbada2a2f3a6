# SPDX-License-Identifier: GPL-2.0
"""Hand checks of ralink_fe on the emulated board (ours-eth+mainline-dsa):
TSO/checksum through TCP, MTU limits, ethtool, XDP drop/tx, TX timeout
recovery, rmmod/modprobe. Prints every command and its output."""
import base64
import os
import sys
sys.path.insert(0, 'tests/lib')
from board import Board  # noqa: E402
import dsa  # noqa: E402

# argv: the XDP object ('-': build tests/xdp/xdp_test.c with clang), steps
XDP_OBJ = sys.argv[1] if len(sys.argv) > 1 else '-'
only = set(sys.argv[2:])
if XDP_OBJ == '-':
    import subprocess
    import tempfile
    XDP_OBJ = os.path.join(tempfile.mkdtemp(), 'xdp_test.o')
    subprocess.run(['clang', '-O2', '-g0', '-target', 'bpfel', '-c',
                    'tests/xdp/xdp_test.c', '-o', XDP_OBJ], check=True)

SETUP = [
    'ip link set swp0 address 02:00:00:00:00:10',
    'ip link set swp1 address 02:00:00:00:00:11',
    'ip netns add ns1',
    'ip link set swp1 netns ns1',
    'ip addr add 192.0.2.1/24 dev swp0',
    'ip link set swp0 up',
    'ip -n ns1 addr add 192.0.2.2/24 dev swp1',
    'ip -n ns1 link set swp1 up',
    'sleep 3',
    'ping -c 3 -i 0.2 192.0.2.2; echo ping_rc=$?',
]

STEPS = {
    'ethtool': [
        'ethtool -i eth0', 'ethtool eth0', 'ethtool -g eth0', 'ethtool -a eth0',
        'ethtool -c eth0', 'ethtool -C eth0 rx-usecs 0 rx-frames 0 tx-usecs 0 tx-frames 0; echo rc=$?',
        'ping -c 3 -i 0.2 192.0.2.2 | tail -2',
        'ethtool -C eth0 rx-usecs 40 rx-frames 8 tx-usecs 40 tx-frames 8; ethtool -c eth0 | grep -E "usecs|frames" | head -4',
        'ethtool -G eth0 rx 256 tx 1024; echo rc=$?; ethtool -g eth0 | tail -5',
        'ping -c 3 -i 0.2 192.0.2.2 | tail -2',
        'ethtool -k eth0 | grep -E "scatter|checksum|segmentation|vlan|gro"',
        'ethtool --include-statistics -a eth0 2>&1 | tail -3', 'ethtool -S eth0 --groups rmon 2>&1 | head', 'ethtool -S eth0 --groups pause 2>&1 | head',
    ],
    'mtu': [
        'ip link set eth0 mtu 2031; echo rc=$?',
        'ip link set eth0 mtu 2030; echo rc=$?',
        'ip link set swp0 mtu 1900; ip -n ns1 link set swp1 mtu 1900; echo rc=$?',
        'ping -c 2 -s 1872 -M do 192.0.2.2 | tail -2',
        'ip link set swp0 mtu 1500; ip -n ns1 link set swp1 mtu 1500',
    ],
    'tcp': [
        'ip netns exec ns1 sh -c "ncat -l 5001 > /tmp/rx.bin 2>/dev/null &"; sleep 1',
        'head -c 3000000 /dev/urandom > /tmp/tx.bin; md5sum /tmp/tx.bin',
        'ethtool -S eth0 | grep -E " (tx|rx)_packets"',
        'time ncat --send-only 192.0.2.2 5001 < /tmp/tx.bin; sleep 1; md5sum /tmp/rx.bin',
        'ethtool -S eth0 | grep -E " (tx|rx)_packets"; ip -s link show eth0 | head -6',
        'ip netns exec ns1 sh -c "ncat -l 5002 --send-only < /tmp/tx.bin > /dev/null 2>&1 &"; sleep 1',
        'timeout 60 ncat --recv-only 192.0.2.2 5002 > /tmp/rx2.bin; md5sum /tmp/rx2.bin',
        'ethtool -S eth0 | grep -E " (tx|rx)_packets"',
        'ethtool -K eth0 tso off; ip netns exec ns1 sh -c "ncat -l 5003 > /tmp/rx3.bin 2>/dev/null &"; sleep 1; '
        'timeout 60 ncat --send-only 192.0.2.2 5003 < /tmp/tx.bin; sleep 1; md5sum /tmp/rx3.bin; ethtool -K eth0 tso on',
    ],
    'xdp': [
        'ip link set dev eth0 xdpdrv obj /tmp/xdp.o sec xdp_drop; echo rc=$?',
        'ip -d link show eth0 | grep -i xdp',
        'ping -c 3 -W 1 -i 0.3 192.0.2.2 | tail -2',
        'ethtool -S eth0 | grep xdp',
        'ip link set dev eth0 xdpdrv off; echo rc=$?',
        'ping -c 3 -i 0.3 192.0.2.2 | tail -2',
        'ip -n ns1 neigh replace 192.0.2.1 lladdr 02:00:00:00:00:10 dev swp1',
        'ip link set dev eth0 xdpdrv obj /tmp/xdp.o sec xdp_tx; echo rc=$?',
        'ip -n ns1 -s link show swp1 | grep -A1 RX',
        'ip netns exec ns1 ping -c 5 -W 1 -i 0.3 192.0.2.1 | tail -2',
        'ip -n ns1 -s link show swp1 | grep -A1 RX',
        'ethtool -S eth0 | grep xdp',
        'ip link set dev eth0 xdpdrv off; echo rc=$?',
        'ping -c 3 -i 0.3 192.0.2.2 | tail -2',
    ],
    'timeout': [
        'devmem 0x1e101a04 32; devmem 0x1e101a04 32 0; echo stalled',
        'ping -c 3 -W 1 -i 0.3 192.0.2.2 | tail -2',
        'sleep 9; dmesg | grep -iE "timeout|restart|watchdog|WARN" | tail -8',
        'ping -c 3 -i 0.3 192.0.2.2 | tail -2',
    ],
    'rmmod': [
        'ip netns del ns1; sleep 1',
        'mount -t debugfs none /sys/kernel/debug 2>/dev/null; '
        'echo scan > /sys/kernel/debug/kmemleak; echo clear > /sys/kernel/debug/kmemleak; echo kmemleak_cleared',
        'for i in 1 2 3 4 5; do rmmod mt7530_mdio mt7530 && rmmod ralink_fe && modprobe ralink_fe && modprobe mt7530-mdio || echo FAIL $i; '
        'for j in $(seq 100); do [ -e /sys/class/net/swp3 ] && break; sleep 0.1; done; done; echo loops_done',
        'ip -br link | grep -E "eth|swp"',
        'sleep 5; echo scan > /sys/kernel/debug/kmemleak; sleep 5; echo scan > /sys/kernel/debug/kmemleak; '
        'cat /sys/kernel/debug/kmemleak | head -60; echo kmemleak_end',
        'dmesg | grep -cE "WARNING|BUG:|Oops"; dmesg | grep -E "WARNING|BUG:|Oops" -A 12 | head -60',
        'ip link set swp0 address 02:00:00:00:00:10; ip link set swp1 address 02:00:00:00:00:11; '
        'ip netns add ns1; ip link set swp1 netns ns1; ip addr add 192.0.2.1/24 dev swp0; ip link set swp0 up; '
        'ip -n ns1 addr add 192.0.2.2/24 dev swp1; ip -n ns1 link set swp1 up; sleep 3; ping -c 3 -i 0.3 192.0.2.2 | tail -2',
    ],
}
ORDER = ['ethtool', 'mtu', 'tcp', 'xdp', 'timeout', 'rmmod']

with Board('gnubee-pc1', dtb=dsa.DTB, extra=dsa.loop_args(),
           append='console=ttyS0,57600 kmemleak=on') as b:
    b.wait_ready()
    st, out = b.run('%s ours-eth+mainline-dsa swp0 swp1 swp2 swp3; echo rc=$?'
                    % dsa.LOAD, timeout=120)
    print(out)
    if XDP_OBJ:
        data = base64.b64encode(open(XDP_OBJ, 'rb').read()).decode()
        b.run('echo %s | base64 -d > /tmp/xdp.o; ls -la /tmp/xdp.o' % data)
    for c in SETUP:
        st, out = b.run(c, timeout=60)
        print('$', c)
        print(out)
    for name in ORDER:
        if only and name not in only:
            continue
        print('=====', name)
        for c in STEPS[name]:
            print('$', c)
            try:
                st, out = b.run(c, timeout=120)
            except Exception as e:  # a hung command: say so, go on
                print('TIMEOUT/ERROR: %s' % e)
                b.write('\x03\n')
                continue
            print(out, flush=True)
    st, out = b.run('dmesg | grep -E "WARNING|BUG:|Oops|Call Trace" | head -20; dmesg | tail -15')
    print('===== dmesg')
    print(out)
