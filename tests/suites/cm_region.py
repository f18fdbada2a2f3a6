#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""cm-region: the GnuBee boot regression of commit 3af5a67c86a3, in emulation.

mips_cm_probe() disables every CM address region, including region 0 that
the bootloader set up to route the palmbus (sysctl, UARTs) to the IOCU.
Mainline re-programs region 0 at the top of prom_soc_init() (a63d706ea719);
a kernel built without that (tests/cm-region/*.patch) must boot to total
silence on the console, as the GnuBee did, while the normal kernel prints
its banner and reaches the shell. The monitor shows why: the CM region is
disabled while the CPU keeps running in the kernel.
"""

import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from board import Board, kernel_dir  # noqa: E402
from tap import Suite  # noqa: E402

BANNER = r'Linux version 6\.12'
# How long the broken kernel must stay silent: several times what the
# normal kernel needs to print its banner, and at least this.
MIN_SILENCE = 15


def region0_enabled(b):
    """Whether CM region 0 routes to the IOCU, from the memory tree."""
    mtree = b.hmp('info mtree -f')
    # The flattened view lists the palmbus blocks only where some region
    # routes them: look for the sysctl at its physical address.
    return re.search(r'^\s*000000001e000000-000000001e0000ff .*mt7621-sysctl',
                     mtree, re.M) is not None


def kernel_pc(b, variant):
    """The PC of CPU 0 and the kernel symbol it falls in."""
    regs = b.hmp('info registers')
    m = re.search(r'pc=0x([0-9a-f]+)', regs)
    if not m:
        raise RuntimeError('no pc in: %s' % regs[:300])
    pc = int(m.group(1), 16)
    best = None
    with open(os.path.join(kernel_dir(variant), 'System.map')) as f:
        for line in f:
            addr, kind, name = line.split()[:3]
            a = int(addr, 16) & 0xffffffff  # sign-extended in System.map
            if a <= pc and kind in 'tT' and (best is None or a > best[0]):
                best = (a, name)
    return pc, best[1] if best else '?'


def main():
    t = Suite('cm-region')

    # The normal kernel: banner, then the shell, with region 0 routed.
    with Board('gnubee-pc1') as b:
        try:
            b.wait_for(BANNER, 120)
            banner_secs = time.monotonic() - b.start_time
            b.wait_ready(300)
            t.ok('mainline kernel prints its banner (%.1f s) and reaches '
                 'the shell' % banner_secs)
            t.result(region0_enabled(b),
                     'mainline kernel: region 0 routes the palmbus to IOCU0',
                     b.hmp('info mtree -f')[-2000:])
        except Exception as e:
            t.fail('mainline kernel prints its banner and reaches the shell',
                   '%s\n%s' % (e, b.text()[-2000:]))
            banner_secs = 10

    # Without the fix: not one byte on the console.
    silence = max(MIN_SILENCE, 5 * banner_secs)
    with Board('gnubee-pc1', variant='no-cm-fix') as b:
        try:
            b.wait_for(rb'[\s\S]', silence)
            t.fail('kernel without the region-0 fix is silent for %.0f s'
                   % silence, 'console: %r' % b.text()[:500])
        except Exception as e:
            if not b.alive():
                t.fail('kernel without the region-0 fix is silent',
                       'QEMU exited: %s %s' % (e, b.stderr[-500:]))
                return 0
            t.ok('kernel without the region-0 fix is silent for %.0f s'
                 % silence)
        t.result(not region0_enabled(b),
                 'without the fix, no CM region routes the palmbus',
                 b.hmp('info mtree -f')[-2000:])
        # Not a crash or a hang in the emulator: the CPU runs the kernel.
        pc, sym = kernel_pc(b, 'no-cm-fix')
        t.result(pc >= 0x80000000, 'without the fix, CPU 0 runs in the '
                 'kernel (pc %#x in %s)' % (pc, sym))
        log = b.qemu_log()
        t.result('which no CM region routes' in log,
                 'the emulator logs the unrouted palmbus accesses',
                 log[-1000:])
    return 0


if __name__ == '__main__':
    sys.exit(main())
