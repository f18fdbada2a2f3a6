# SPDX-License-Identifier: GPL-2.0
"""ralink_fe against broken DTs: each case removes or garbles one required
property of the test DT (fdtput on a copy), boots, loads ralink_fe and
prints what the driver said; the kernel must not oops or warn."""
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, 'tests/lib')
from board import Board, kernel_dir  # noqa: E402
import dsa  # noqa: E402

ETH = '/ethernet@1e100000'
CASES = {
    'no-ethsys': [['-d', ETH, 'mediatek,ethsys']],
    'no-reset-names': [['-d', ETH, 'reset-names']],
    'no-clock-names': [['-d', ETH, 'clock-names']],
    'no-interrupts': [['-d', ETH, 'interrupts']],
    'bad-phy-mode': [['-t', 's', ETH + '/mac@0', 'phy-mode', 'bogus']],
    'no-mac-reg': [['-d', ETH + '/mac@1', 'reg']],
    'mac-reg-7': [['-t', 'i', ETH + '/mac@1', 'reg', '7']],
    'bad-fixed-link': [['-t', 'i', ETH + '/mac@0/fixed-link', 'speed', '0']],
}

base = os.path.join(kernel_dir('main'), 'dtbs', dsa.DTB)
only = sys.argv[1:]
with tempfile.TemporaryDirectory() as tmp:
    for name, edits in CASES.items():
        if only and name not in only:
            continue
        dtb = os.path.join(tmp, name + '.dtb')
        subprocess.run(['cp', base, dtb], check=True)
        for e in edits:
            opt = e[:1] if e[0] == '-d' else e[:2]
            subprocess.run(['fdtput'] + opt + [dtb] + e[len(opt):],
                           check=True)
        with Board('gnubee-pc1', dtb=dtb, extra=dsa.loop_args()) as b:
            b.wait_ready()
            _, out = b.run('dmesg -n 1; modprobe ralink_fe; echo rc=$?; '
                           'sleep 2; dmesg | grep -E "ralink_fe|1e100000" | '
                           'tail -6; ls /sys/class/net | tr "\\n" " "; echo; '
                           'dmesg | grep -cE "Oops|BUG:|WARNING:|Call Trace"; '
                           'rmmod ralink_fe 2>&1; echo rmmod_rc=$?')
            print('=====', name)
            print(out, flush=True)
