#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""model: the emulator survives whatever the guest writes to its devices.

From the guest, our poke tool (tests/tools/poke.c: one process a window,
where busybox devmem is one a word and 12 ms of the guest's time) writes
pseudo-random words (a fixed LCG, so a failure reproduces) to every
register window the board models. Writes
that end the guest's world (relocating the GCR, powering the core down,
resetting the SoC) go last in their window. After each window QEMU must
still be there (its monitor answers) or have exited cleanly on a guest
reset; never aborted. A guest killed by its own writes is replaced by a
fresh boot for the next window.

The boards run on the real clock, all four CPUs up (the windows that
reach into the CM, CPC and GIC concern every core); tests/run-all.py runs
the suite niced beside the other batch suites. (On the virtual clock each
fresh board would wait for a board slot behind every longer DSA script.)
"""

import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from board import Board, Timeout  # noqa: E402
from tap import Suite  # noqa: E402

BOOT_TIMEOUT = 300
# The guest prints a dot every DOT_EVERY writes (microseconds apart); a
# guest that prints nothing for STALL_SECS was killed by its own writes,
# or is too slow to keep: either way the next window gets a fresh board
# (the verdict is QEMU's). A killed guest's vCPUs may spin meanwhile: 10 s
# of waiting cost the suite about 50 s of host CPU. WINDOW_SECS bounds a
# window however it goes.
DOT_EVERY = 16
STALL_SECS = 3
WINDOW_SECS = 300
DONE = 'GARBAGE-DONE'


def span(base, size, stride=4):
    """Words from @base to @base + @size, every @stride bytes."""
    return [(base, base + size, stride)]


def word(addr):
    return span(addr, 4)


# (name, address ranges in write order): the GB-PC1's (MT7621)
WINDOWS = [
    ('unimplemented palmbus blocks',
     [r for b in (0x1e000100, 0x1e000600, 0x1e000900, 0x1e000a00,
                  0x1e000b00, 0x1e002000, 0x1e002800, 0x1e003000,
                  0x1e004000, 0x1e007000,
                  0x1e130000, 0x1e140000, 0x1e1c0000, 0x1e1d0000,
                  0x1e180000) for r in span(b, 0x40)]),
    ('memory controller', span(0x1e005000, 0x1000, 0x10) + word(0x1e005648)),
    ('uart2 and uart3', span(0x1e000d00, 0x200)),
    ('boot flash window', span(0x1fc00000, 0x100)),
    # The frame engine: globals, CDM/GDMA, PDMA (TX rings, RX rings,
    # globals), QDMA (whose pointers and indexes start DMA from wherever
    # the garbage points), counters; the MACs and the MDIO master, through
    # which garbage reaches the switch and its PHYs.
    ('frame engine and switch',
     span(0x1e100000, 0x130) + span(0x1e100400, 0x10) +
     span(0x1e100500, 0x10) + span(0x1e100800, 0x40) +
     span(0x1e100900, 0x40) +
     span(0x1e100a00, 0x60) + span(0x1e101400, 0x10) +
     span(0x1e101500, 0x10) + span(0x1e101800, 0x40) +
     span(0x1e101a00, 0x50) + span(0x1e101b00, 0x30) +
     span(0x1e102400, 0x80) + span(0x1e110000, 0x10) +
     span(0x1e110100, 0x10) + span(0x1e110200, 0x10)),
    # The console UART last among the windows the guest survives.
    ('uart1 (console)', span(0x1e000c00, 0x100)),
    # RSTCTRL (0x34) last: its bit 0 resets the SoC.
    ('sysctl', span(0x1e000000, 0x34) + span(0x1e000038, 0xc8) +
     word(0x1e000034)),
    # The GIC: shared section, VP-local, VP-other, user-visible.
    ('GIC', span(0x1fbc0000, 0x800) + span(0x1fbc8000, 0x100) +
     span(0x1fbcc000, 0x100) + span(0x1fbd0000, 0x10)),
    # The CPC: global, core-other, core-local with core 0's own command
    # (which powers it down) last.
    ('CPC', span(0x1fbf0000, 0x150) + span(0x1fbf4000, 0x100) +
     span(0x1fbf2004, 0xfc) + word(0x1fbf2000)),
    # The GCR: what relocates or reroutes (GCR, GIC, CPC bases and the
    # address regions: 0x08, 0x80-0xcf) last.
    ('GCR', span(0x1fbf8000, 0x8) + span(0x1fbf800c, 0x74) +
     span(0x1fbf80d0, 0x630) + span(0x1fbfa000, 0x100) +
     span(0x1fbfc000, 0x100) + span(0x1fbfe000, 0x100) +
     span(0x1fbf8090, 0x40) +
     word(0x1fbf8080) + word(0x1fbf8088) + word(0x1fbf8008)),
]


# The VoCore2's (MT7628AN): its own frame engine, switch, interrupt
# controller and sysctl, on a board of its own (BOARD_WINDOWS)
# The RT5350/MT7628 frame engine: its undocumented low registers, PDMA
# (TX rings, RX rings, globals, interrupts, scheduler), the SDM and its
# counters
PDMA_FE = (span(0x10100000, 0x40) + span(0x10100400, 0x10) +
           span(0x10100800, 0x40) + span(0x10100900, 0x20) +
           span(0x10100a00, 0x90) + span(0x10100c00, 0x20) +
           span(0x10100d00, 0x20))
# The switch: every register the model decodes or keeps, the PHYs' MDIO
# (PCR0) among them, and the unknown ones around them
ESW = span(0x10110000, 0x120) + span(0x10110160, 0x10)
MT7628_WINDOWS = [
    ('MT7628 frame engine', PDMA_FE),
    ('MT7628 switch (ESW)', ESW),
    ('MT7628 interrupt controller', span(0x10000200, 0x100)),
    ('MT7628 uart0 and uart1', span(0x10000c00, 0x200)),
    # RSTCTL (0x34) last: its bit 0 resets the SoC.
    ('MT7628 sysctl', span(0x10000000, 0x34) + span(0x10000038, 0xc8) +
     word(0x10000034)),
]
# The RT305x's frame engine (ralink_fe.c's map "rt3050"): the global,
# GDMA1, PSE and CDMA registers with the VLAN table, the PDMA, GDMA1's
# counters
RT3050_FE = (span(0x10100000, 0xd0) + span(0x10100100, 0x70) +
             span(0x10100700, 0x40))
# The RT3052 evaluation board's: its frame engine and switch, interrupt
# controller (the RT2880 layout), the uartlite (its console: last but the
# sysctl) and sysctl
RT3052_WINDOWS = [
    ('RT3052 frame engine', RT3050_FE),
    ('RT3052 switch (ESW)', ESW),
    ('RT3052 interrupt controller', span(0x10000200, 0x40)),
    ('RT3052 uartlite (console)', span(0x10000c00, 0x30)),
    ('RT3052 sysctl', span(0x10000000, 0x34) + span(0x10000038, 0xc8) +
     word(0x10000034)),
]
# The RT5350 evaluation board's frame engine and switch (the rest is the
# RT3052's)
RT5350_WINDOWS = [
    ('RT5350 frame engine', PDMA_FE),
    ('RT5350 switch (ESW)', ESW),
]
# The MT7620's frame engine (ralink_fe.c's map "mt7620"): the globals,
# CDMA with the VLAN table, PSE, GDMA1, the PDMA, GDMA1's counters
MT7620_FE = (span(0x10100000, 0x10) + span(0x10100400, 0x50) +
             span(0x10100500, 0x10) + span(0x10100600, 0x10) +
             span(0x10100800, 0x40) + span(0x10100900, 0x20) +
             span(0x10100a00, 0x90) + span(0x10101300, 0x40))
# Its GSW (the MT7530 model, chip mt7620): the global registers with the
# VLAN slots, each port's control, MAC and MIB registers, the MAC globals,
# the PHY polling, PIAC, interrupt and GPC registers
GSW = span(0x10110000, 0x120)
for _p in range(7):
    GSW += (span(0x10112000 + _p * 0x100, 0x18) +
            span(0x10113000 + _p * 0x100, 0x10) +
            span(0x10114000 + _p * 0x100, 0x34))
GSW += span(0x10113fe0, 0x14) + span(0x10117000, 0x20)
MT7620_WINDOWS = [
    ('MT7620 frame engine', MT7620_FE),
    ('MT7620 switch (GSW)', GSW),
    ('MT7620 interrupt controller', span(0x10000200, 0x40)),
    ('MT7620 uartlite (console)', span(0x10000c00, 0x30)),
    ('MT7620 sysctl', span(0x10000000, 0x34) + span(0x10000038, 0xc8) +
     word(0x10000034)),
]
# The RT3883's and RT2880's frame engines (maps "rt3883", "rt2880"): the
# RT305x's windows, the MDIO master to the GMAC's PHY (0x00, 0x04, 0x18)
# among them; the RT2880's 1 MiB into its palmbus at 0x00300000
RT3883_WINDOWS = [('RT3883 frame engine', RT3050_FE)]
RT2880_WINDOWS = [('RT2880 frame engine',
                   [(b - 0x10100000 + 0x00400000, e - 0x10100000 + 0x00400000,
                     st) for b, e, st in RT3050_FE])]
BOARD_WINDOWS = [('gnubee-pc1', WINDOWS), ('vocore2', MT7628_WINDOWS),
                 ('rt3052-eval', RT3052_WINDOWS),
                 ('rt5350-eval', RT5350_WINDOWS),
                 ('mt7620a-eval', MT7620_WINDOWS),
                 ('rt3883-eval', RT3883_WINDOWS),
                 ('rt2880-eval', RT2880_WINDOWS)]


def count(ranges):
    return sum(len(range(b, e, s)) for b, e, s in ranges)


def garbage_script(ranges, seed):
    """A shell command writing LCG words to every address of @ranges
    (kept short: the console's line discipline takes 4095 characters)."""
    spec = ' '.join('%#x:%#x:%d' % r for r in ranges)
    return ("poke %d %d %s; echo \" poke-status=$?\"; echo %s''%s"
            % (seed, DOT_EVERY, spec, DONE[:4], DONE[4:]))


def survived(b):
    """Whether QEMU is alive and answering, or exited cleanly."""
    if not b.alive():
        err = b.stderr.decode('utf-8', 'replace')
        ok = b.proc.returncode == 0 and 'ssertion' not in err
        crash = b.crash_report()
        return ok, 'exited with status %d%s%s' % (
            b.proc.returncode, '\n' + err[-1500:] if err else '',
            '\n' + crash if crash else '')
    try:
        status = b.hmp('info status', timeout=30)
    except Exception as e:
        return False, 'monitor does not answer: %s' % e
    return 'running' in status or 'paused' in status, status


def main():
    t = Suite('model')
    for board, windows in BOARD_WINDOWS:
        garbage(t, board, windows)
    return 0


def garbage(t, board, windows):
    """Each of @windows in turn on @board, a fresh one after a death."""
    b = None
    try:
        for i, (name, ranges) in enumerate(windows):
            if b is None:
                b = Board(board)
                try:
                    b.wait_ready(BOOT_TIMEOUT)
                except Exception as e:
                    t.fail('garbage to %s: board boots' % name,
                           '%s\n%s' % (e, b.text()[-2000:]))
                    b.close()
                    b = None
                    continue
            start = b.mark()
            b.write(garbage_script(ranges, i + 1) + '\n')
            guest = 'the guest did not'
            deadline = time.monotonic() + WINDOW_SECS
            seen = b.mark()
            while time.monotonic() < deadline:
                try:
                    b.wait_for(DONE + r'\r?\n', STALL_SECS, start)
                    guest = 'the guest carried on'
                    break
                except Timeout:
                    # Dots since the last look: still writing.
                    if b.mark() == seen:
                        break
                    seen = b.mark()
                except Exception:
                    break
            ok, why = survived(b)
            if guest == 'the guest carried on':
                # poke wrote the whole window (it stops at an error)
                m = re.search(r'poke-status=(\d+)', b.text(start))
                if not m or m.group(1) != '0':
                    ok, why = False, 'poke did not write it all:\n%s' % (
                        b.text(start)[-1500:])
            t.result(ok, 'garbage to %s (%d writes): QEMU survives'
                     % (name, count(ranges)), why)
            t.comment('%s: %s' % (name, guest))
            # Keep the guest only if it still answers.
            if ok and b.alive():
                try:
                    b.run('true', timeout=20)
                    continue
                except Exception:
                    pass
            b.close()
            b = None
    finally:
        if b is not None:
            b.close()


if __name__ == '__main__':
    sys.exit(main())
