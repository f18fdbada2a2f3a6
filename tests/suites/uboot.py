#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""uboot: U-Boot proper (make uboot) started from RAM on the emulated GB-PC1.

QEMU's -kernel loads build/u-boot/u-boot at 0x80200000 and starts it, as
the board's vendor U-Boot would after loading it into RAM (issue 17's
brick-safe boot; its TFTP boot is still to come). It must identify the
SoC and its clocks from the models' registers as on the silicon (chip
name and revision, straps, CPU and DDR PLLs), size the memory, find the
frame engine and reach its prompt; its `crc32` of its own first 64 KiB
in RAM must equal the host's CRC-32 of the same bytes of the ELF (the
load, the command, the CPU's loads and its arithmetic); and the QEMU log
must hold nothing unexpected (U-Boot programs registers Linux never
touches: the UART's MediaTek extension registers, the pads, the DDR
PLL). Broken once: a CRC over one byte less than the host's fails the
crc32 case.
"""

import os
import re
import struct
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from board import BUILD, Board  # noqa: E402
from tap import Suite  # noqa: E402

UBOOT = os.path.join(BUILD, 'u-boot', 'u-boot')
PROMPT = r'=> '
BANNER = [
    (r'CPU:\s+MediaTek MT7621A ver 1, eco 3', 'the SoC (chip name, revision)'),
    (r'Boot:\s+DDR3', 'the DRAM type (SYSCFG0)'),
    (r'Clock: CPU: 880MHz, DDR: 1200MT/s, Bus: 220MHz, XTAL: 40MHz',
     'the clocks (straps, CPU and DDR PLLs)'),
    (r'DRAM:\s+512 MiB', 'the memory size'),
    (r'Net:[^=]*eth0: eth@1e100000', 'the frame engine'),
]
CRC_ADDR = 0x80200000
CRC_LEN = 0x10000


def elf_bytes(path, addr, length):
    """@length bytes of the ELF at @path as loaded at virtual @addr."""
    with open(path, 'rb') as f:
        elf = f.read()
    phoff, = struct.unpack_from('<I', elf, 0x1c)
    phentsize, phnum = struct.unpack_from('<HH', elf, 0x2a)
    for i in range(phnum):
        typ, off, vaddr, _, filesz = struct.unpack_from(
            '<IIIII', elf, phoff + i * phentsize)
        if typ == 1 and vaddr <= addr and addr + length <= vaddr + filesz:
            return elf[off + addr - vaddr:off + addr - vaddr + length]
    raise ValueError('no loaded segment holds %#x+%#x' % (addr, length))


def main():
    suite = Suite('uboot')
    with Board('gnubee-pc1', kernel=UBOOT, initrd=False) as b:
        try:
            b.wait_for(PROMPT, 120)
        except Exception as e:
            suite.fail('U-Boot reaches its prompt', '%s\n%s' % (
                e, b.text()[-2000:]))
            return 1
        text = b.text()
        for pattern, what in BANNER:
            suite.result(re.search(pattern, text) is not None,
                         'U-Boot reports %s' % what, text[-1500:])
        start = b.mark()
        b.write('crc32 %#x %#x\r' % (CRC_ADDR, CRC_LEN))
        m = b.wait_for(r'==> ([0-9a-f]{8})', 30, start)
        want = zlib.crc32(elf_bytes(UBOOT, CRC_ADDR, CRC_LEN))
        got = m.group(1).decode()
        suite.result(int(got, 16) == want,
                     'crc32 of its first 64 KiB in RAM is the host\'s CRC-32 '
                     'of the ELF\'s', 'U-Boot %s, host %08x' % (got, want))
    suite.qemu_log(b, 'the U-Boot board')
    return 1 if suite.failed else 0


if __name__ == '__main__':
    sys.exit(main())
