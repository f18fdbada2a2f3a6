#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""board: the emulated boards boot mainline Linux 6.12 to a shell.

The GnuBee GB-PC1 (every check) and GB-PC2 (the DT's model); the VoCore2
(MT7628AN) and the Onion Omega2+ (MT7688) on the mt76x8 kernel with
mainline's DTs and our fixes to mt7628a.dtsi: the shell on the DT's
console UART (UART2 on the VoCore2), the model, the SoC as the kernel
names it from the sysctl (chip name, EFUSE's MT7688 bit, revision), the
24KEc as these SoCs have it (revision, TLB, caches) at the clock the
straps give (CP0 timer 290 MHz), 128 MiB, a clean dmesg, poweroff
through the sysctl's reset. On every board but the GB-PC2 the guest's
clock keeps the host's time (clock_check()).
"""

import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from board import Board, dmesg_and_poweroff  # noqa: E402
from tap import Suite  # noqa: E402

BOOT_TIMEOUT = 300
# 512 MiB of DDR, less what the kernel keeps for itself
MEMTOTAL_MIN_KB = 480 * 1024
MEMTOTAL_MAX_KB = 512 * 1024
# RSTCTRL and its frame engine (FE, bit 6) and GMAC (bit 23) lines; GMAC0's
# MAC control register in the frame engine's MAC block
RSTCTRL = 0x1e000034
RST_FE = 1 << 6
RST_GMAC = 1 << 23
MAC_MCR0 = 0x1e110100
# A value with the MAC enabled and a forced 1000/full link
MCR_VALUE = 0x0005e33b


# clock_check(): host seconds between the guest's two readings of its
# uptime, and how far its clock may be from the host's beyond what the
# host's times around each reading bound (uptime's 10 ms steps aside).
# QEMU's CP0 Count once ran 15 % fast on the MT7628 (qemu/patches/0029),
# 11 % on the RT5350, 4 % on the RT3052.
CLOCK_SECS = 3
CLOCK_TOL = 0.01


def clock_check(t, b, board):
    """Without -icount QEMU's virtual clock is the host's: the guest's
    uptime advances as the host's clock does, within CLOCK_TOL."""
    def read():
        before = time.monotonic()
        up = float(b.check('cat /proc/uptime').split()[0])
        return before, up, time.monotonic()

    a0, u0, a1 = read()
    time.sleep(CLOCK_SECS)
    b0, u1, b1 = read()
    lo, hi, got = b0 - a1, b1 - a0, u1 - u0
    t.result(lo * (1 - CLOCK_TOL) - 0.01 <= got <= hi * (1 + CLOCK_TOL) + 0.01,
             '%s: the guest\'s clock keeps the host\'s time (within %d %%)'
             % (board, CLOCK_TOL * 100), 'guest %.2f s, host %.3f-%.3f s'
             % (got, lo, hi))


def boot_checks(t, board, model, full):
    with Board(board) as b:
        boot_checks_on(t, b, board, model, full)
    t.qemu_log(b, board)


def boot_checks_on(t, b, board, model, full):
    """Boot to the shell and the DT's model; then (@full) the GnuBee's
    checks. False if the boot failed."""
    try:
        secs = b.wait_ready(BOOT_TIMEOUT)
    except Exception as e:
        t.fail('%s: boot reaches the shell' % board,
               '%s\n%s' % (e, b.text()[-3000:]))
        return False
    t.ok('%s: boot reaches the shell' % board)
    t.comment('%s: QEMU start to shell: %.1f s' % (board, secs))

    got = b.check('cat /proc/device-tree/model').strip('\x00\n ')
    t.result(got == model, '%s: /proc/device-tree/model is "%s"'
             % (board, model), 'got %r' % got)
    if not full:
        return True

    clock_check(t, b, board)
    online = b.check('cat /sys/devices/system/cpu/online').strip()
    procs = int(b.check('grep -c ^processor /proc/cpuinfo'))
    t.result(online == '0-3' and procs == 4,
             '4 CPUs online (2 cores x 2 VPEs)',
             'online=%r, /proc/cpuinfo processors=%d\n%s'
             % (online, procs, b.check('dmesg | grep -i -e smp -e cpu')))

    cpuinfo = b.check('cat /proc/cpuinfo')
    t.result('MIPS 1004Kc' in cpuinfo, 'CPUs are MIPS 1004Kc',
             cpuinfo[:800])

    meminfo = b.check('cat /proc/meminfo')
    m = re.search(r'MemTotal:\s+(\d+) kB', meminfo)
    total = int(m.group(1)) if m else 0
    t.result(MEMTOTAL_MIN_KB <= total <= MEMTOTAL_MAX_KB,
             'MemTotal is 512 MiB less the kernel (%d kB)' % total,
             meminfo[:400])

    reset_scope(t, b)
    dmesg_and_poweroff(t, b, '')


# The MT7628AN/MT7688's 24KEc as Linux reports it on real boards
# (qemu/patches/0027: revision 5.5, 32 TLB entries, 64 KiB + 32 KiB
# caches without aliases), not QEMU's generic 24KEc (revision 0, 16
# entries, 2 KiB caches)
MT7628_CPU = ('MIPS 24KEc V5.5', 'CPU0 revision is: 00019655',
              'tlb_entries\t\t: 32',
              'Primary instruction cache 64kB, VIPT, 4-way, linesize 32',
              'Primary data cache 32kB, 4-way, PIPT, no aliases')
MT7628_CPU_DESC = ('revision 5.5, 32 TLB entries, 64 + 32 KiB caches '
                   'without aliases')
# The MT7620's: the same at revision 5.0 (qemu/patches/0030)
MT7620_CPU = ('MIPS 24KEc V5.0', 'CPU0 revision is: 00019650') + \
    MT7628_CPU[2:]
MT7620_CPU_DESC = MT7628_CPU_DESC.replace('5.5', '5.0')
CPU_CONFIG = {'vocore2': (MT7628_CPU_DESC, MT7628_CPU),
              'omega2p': (MT7628_CPU_DESC, MT7628_CPU),
              'mt7620a-eval': (MT7620_CPU_DESC, MT7620_CPU)}


def single_core_checks(t, board, model, system, clock_mhz, mem_mib,
                       cpu='24KEc'):
    """A board with one of the single-core SoCs (MT7620A, MT7628/MT7688,
    RT3052, RT5350: a 24KEc; RT3883, RT2880: a 74Kc, a 4KEc, @cpu):
    boot, identity, CPU clock, memory, dmesg, poweroff."""
    with Board(board) as b:
        if not boot_checks_on(t, b, board, model, full=False):
            t.qemu_log(b, board)
            return
        cpuinfo = b.check('cat /proc/cpuinfo')
        t.result(re.search(r'system type\s*: %s\n' % re.escape(system),
                           cpuinfo),
                 '%s: the kernel names the SoC "%s"' % (board, system),
                 cpuinfo[:600])
        t.result(re.search(r'cpu model\s*: MIPS %s' % cpu, cpuinfo),
                 '%s: the CPU is a MIPS %s' % (board, cpu), cpuinfo[:600])
        dmesg = b.check('dmesg')
        if board in CPU_CONFIG:
            desc, want = CPU_CONFIG[board]
            got = [ln for ln in want if ln not in cpuinfo + dmesg]
            t.result(not got, '%s: the 24KEc as the SoC has it (%s)'
                     % (board, desc), 'missing: %s\n%s\n%s'
                     % (got, cpuinfo[:600], '\n'.join(
                         ln for ln in dmesg.splitlines()
                         if 'cache' in ln or 'revision' in ln)))
        clock_check(t, b, board)
        t.result('CPU Clock: %dMHz' % clock_mhz in dmesg,
                 '%s: the CPU clock is %d MHz (the straps)'
                 % (board, clock_mhz), '\n'.join(ln for ln in
                                                  dmesg.splitlines()
                                                  if 'lock' in ln)[:1500])
        # The memory the kernel found ("Memory: avail/total"), and what it
        # has left after its own image (whose size is the kernel's)
        m = re.search(r'Memory: (\d+)K/(\d+)K available', dmesg)
        t.result(m and int(m.group(2)) == mem_mib * 1024,
                 '%s: the kernel finds %d MiB of memory' % (board, mem_mib),
                 m.group(0) if m else dmesg[:1500])
        meminfo = b.check('cat /proc/meminfo')
        m = re.search(r'MemTotal:\s+(\d+) kB', meminfo)
        total = int(m.group(1)) if m else 0
        t.result(mem_mib * 1024 // 2 <= total <= mem_mib * 1024,
                 '%s: MemTotal is %d MiB less the kernel (%d kB)'
                 % (board, mem_mib, total), meminfo[:400])
        dmesg_and_poweroff(t, b, '%s: ' % board)
    t.qemu_log(b, board)


def pulse(b, bit):
    """Assert and release one RSTCTRL line; MAC_MCR0 afterwards."""
    rst = int(b.check('devmem %#x 32' % RSTCTRL), 16)
    b.check('devmem %#x 32 %#x && devmem %#x 32 %#x'
            % (RSTCTRL, rst | bit, RSTCTRL, rst & ~bit))
    return int(b.check('devmem %#x 32' % MAC_MCR0), 16)


def reset_scope(t, b):
    """What the frame engine's two reset lines clear (no Ethernet driver is
    loaded): the FE line leaves the MAC block alone, as U-Boot's mtk_eth
    relies on (it writes GMAC_PORT_MCR in probe and pulses the FE reset
    alone when it starts), the GMAC line clears it."""
    b.check('devmem %#x 32 %#x' % (MAC_MCR0, MCR_VALUE))
    after_fe = pulse(b, RST_FE)
    t.result(after_fe == MCR_VALUE, 'the frame engine\'s FE reset leaves '
             'GMAC0\'s MAC control register as written',
             'MAC_MCR0 %#x after the FE reset, %#x written'
             % (after_fe, MCR_VALUE))
    after_gmac = pulse(b, RST_GMAC)
    t.result(after_gmac == 0, 'the GMAC reset clears it',
             'MAC_MCR0 %#x after the GMAC reset' % after_gmac)


def main():
    t = Suite('board')
    boot_checks(t, 'gnubee-pc1', 'GnuBee GB-PC1', full=True)
    boot_checks(t, 'gnubee-pc2', 'GnuBee GB-PC2', full=False)
    single_core_checks(t, 'vocore2', 'VoCore2',
                       'MediaTek MT7628AN ver:1 eco:2', 580, 128)
    single_core_checks(t, 'omega2p', 'Onion Omega2+',
                       'MediaTek MT7688 ver:1 eco:2', 580, 128)
    single_core_checks(t, 'rt3052-eval', 'Ralink RT3052 evaluation board',
                       'Ralink RT3052 id:1 rev:3', 384, 32)
    single_core_checks(t, 'rt5350-eval', 'Ralink RT5350 evaluation board',
                       'Ralink RT5350 id:1 rev:3', 360, 32)
    single_core_checks(t, 'mt7620a-eval', 'Ralink MT7620A evaluation board',
                       'MediaTek MT7620A ver:2 eco:6', 580, 32)
    single_core_checks(t, 'rt3883-eval', 'Ralink RT3883 evaluation board',
                       'Ralink RT3883 ver:1 eco:5', 500, 32, cpu='74Kc')
    single_core_checks(t, 'rt2880-eval', 'Ralink RT2880 evaluation board',
                       'Ralink RT2880 id:1 rev:1', 266, 32, cpu='4KEc')
    return 0


if __name__ == '__main__':
    sys.exit(main())
