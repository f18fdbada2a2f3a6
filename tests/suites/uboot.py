#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""uboot: the GnuBee article's brick-safe boot, `make run BOOT=tftp`.

`make run BOOT=tftp` (README), driven through its terminal as a user
types: QEMU's -kernel starts U-Boot proper (make uboot) from RAM, as the
board's vendor U-Boot would after loading it; U-Boot's own Ethernet
driver (mtk_eth: PDMA TX ring 0, PDMA RX, the MT7530 set up for ports
5 and 6 only) is the second oracle of the frame engine and switch
models, after Linux's drivers. The suite stops the autoboot, then:
- U-Boot identifies the SoC and its clocks from the models' registers as
  on the silicon (chip name and revision, straps, CPU and DDR PLLs), sizes
  the memory and finds the frame engine;
- its `crc32` of its own first 64 KiB in RAM equals the host's CRC-32 of
  the same bytes of the ELF (the load, the command, the CPU);
- `dhcp` gets a lease from QEMU's user networking on the WAN port
  (ethblue, port 4) and `ping` reaches the TFTP host 10.0.2.2;
- `tftpboot` fetches the FIT (make fit) whole: its size and its `crc32`
  in RAM are the host file's;
- `boot` (the environment's `run netboot`: DHCP, uEnv.txt, the FIT,
  bootm) verifies the FIT's three images' hashes and starts Linux with
  the command line uEnv.txt gave; Linux reaches the same shell as `make
  run`: the frame engine and the switch bound to our drivers, ethblue with
  a DHCP lease, the TFTP host answering its ping;
- `poweroff` ends `make run` with status 0; the QEMU log holds nothing
  unexpected (U-Boot programs registers Linux never touches: the UART's
  MediaTek extension registers, the pads, the DDR PLL).
Broken once each: a CRC over one byte less than the host's fails the
self-CRC case; without the PDMA TX model, or with the switch's PHY ports'
PMCR reset to 0 (MAC off), U-Boot's ping, TFTP and the boot fail (issue
17's model fixes).

The single-core boards' U-Boots (the VoCore2's and the MT7620A
evaluation board's, from RAM with their own drivers: mt7628-eth and
mt7620-eth) identify their SoC, clocks and memory, take a DHCP lease,
ping and fetch a 1 MiB file whose CRC-32 in RAM is the host's. On the
MT7620A this is the only oracle of the frame engine and GSW models:
mainline has no driver for them.
"""

import os
import re
import struct
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'lib'))
from board import (Board, FIT, LOG_VERDICT, READY, TFTP_DIR,  # noqa: E402
                   UBOOT, UBOOT_MT7620, UBOOT_VOCORE2)
from makerun import Console, free_tcp_port  # noqa: E402
from tap import Suite  # noqa: E402

BOOT_TIMEOUT = 300
# At the start of a line: "==> " ends crc32's output
PROMPT = r'(?m)^=> '
BANNER = [
    (r'Model:\s+GnuBee GB-PC1', 'the board (its device tree)'),
    (r'CPU:\s+MediaTek MT7621A ver 1, eco 3', 'the SoC (chip name, revision)'),
    (r'Boot:\s+DDR3', 'the DRAM type (SYSCFG0)'),
    (r'Clock: CPU: 880MHz, DDR: 1200MT/s, Bus: 220MHz, XTAL: 40MHz',
     'the clocks (straps, CPU and DDR PLLs)'),
    (r'DRAM:\s+512 MiB', 'the memory size'),
    (r'Net:[^=]*eth0: eth@1e100000', 'the frame engine'),
]
CRC_ADDR = 0x80200000
CRC_LEN = 0x10000
TFTP_HOST = '10.0.2.2'
# (set, driver of the frame engine, driver of the switch): as `make run`
DRIVERS = ('ralink_fe', 'ralink-mt7530')


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


def uboot(c, cmd, pattern, timeout=60):
    """Type @cmd at U-Boot's prompt; the match of @pattern in what it
    printed up to its next prompt, and that text."""
    start = len(c.buf)
    c.type(cmd + '\r')
    echo = c.wait_for(re.escape(cmd) + r'\r?\n', timeout, start)
    end = c.wait_for(PROMPT, timeout, echo.end())
    out = c.buf[start:end.start()].decode('utf-8', 'replace')
    return re.search(pattern, out), out


def file_crc(path):
    crc = 0
    with open(path, 'rb') as f:
        while True:
            chunk = f.read(1 << 20)
            if not chunk:
                return crc
            crc = zlib.crc32(chunk, crc)


def in_uboot(t, c):
    """The U-Boot half: banner, self-CRC, DHCP, ping, TFTP and its CRC."""
    c.wait_for(r'Hit any key to stop autoboot', BOOT_TIMEOUT)
    c.type('\r')
    c.wait_for(PROMPT, 30)
    text = c.text()
    for pattern, what in BANNER:
        t.result(re.search(pattern, text) is not None,
                 'U-Boot reports %s' % what, text[-1500:])

    m, out = uboot(c, 'crc32 %#x %#x' % (CRC_ADDR, CRC_LEN),
                   r'==> ([0-9a-f]{8})')
    want = zlib.crc32(elf_bytes(UBOOT, CRC_ADDR, CRC_LEN))
    t.result(m and int(m.group(1), 16) == want,
             'crc32 of its first 64 KiB in RAM is the host\'s CRC-32 of the '
             'ELF\'s', '%s\nhost %08x' % (out, want))

    m, out = uboot(c, 'dhcp', r'DHCP client bound to address 10\.0\.2\.\d+')
    t.result(m, 'dhcp: a lease from QEMU\'s user networking on the WAN port',
             out)
    m, out = uboot(c, 'ping %s' % TFTP_HOST, r'host %s is alive' %
                   re.escape(TFTP_HOST))
    t.result(m, 'ping %s (the TFTP host) is answered' % TFTP_HOST, out)

    fit = os.path.join(TFTP_DIR, FIT)
    size = os.path.getsize(fit)
    m, out = uboot(c, 'tftpboot ${loadaddr} %s' % FIT,
                   r'Bytes transferred = (\d+)', 300)
    t.result(m and int(m.group(1)) == size,
             'tftpboot fetches the FIT (%d bytes)' % size, out[-1500:])
    m, out = uboot(c, 'crc32 ${loadaddr} ${filesize}', r'==> ([0-9a-f]{8})')
    want = file_crc(fit)
    t.result(m and int(m.group(1), 16) == want,
             'crc32 of the fetched FIT in RAM is the host file\'s',
             '%s\nhost %08x' % (out, want))


def in_linux(t, c):
    """`boot`: the environment's netboot, then Linux's shell."""
    start = len(c.buf)
    c.type('boot\r')
    try:
        c.wait_for(READY, BOOT_TIMEOUT, start)
        c.run('true')
    except Exception as e:
        t.fail('boot (run netboot): Linux reaches its shell',
               '%s\n%s' % (e, c.text()[-3000:]))
        return False
    t.ok('boot (run netboot): Linux reaches its shell')
    text = c.buf[start:].decode('utf-8', 'replace')
    oks = re.findall(r'Verifying Hash Integrity \.\.\. crc32\+ OK', text)
    t.result(len(oks) == 3, 'bootm verifies the kernel\'s, the initramfs\'s '
             'and the DT\'s CRC-32 in the FIT', '%d of 3' % len(oks))
    m = re.search(r'Kernel command line: ([^\r\n]*)', text)
    t.result(m and 'rfe.drivers=ours' in m.group(1),
             'Linux has the command line of uEnv.txt',
             m.group(0) if m else text[-2000:])
    c.run('dmesg -n 1')
    out = c.run('for d in /sys/class/net/eth0/device/driver '
                '/sys/class/net/ethblack/device/driver; do '
                'basename $(readlink $d); done')
    t.result(tuple(out.split()) == DRIVERS,
             'the frame engine and the switch are bound to %s and %s'
             % DRIVERS, out)
    out = c.run('ip -4 -br addr show dev ethblue')
    t.result(re.search(r'10\.0\.2\.\d+/24', out),
             'ethblue (WAN) has a DHCP lease', out)
    out = c.run('ping -c 2 -W 5 %s' % TFTP_HOST)
    t.result(' 0% packet loss' in out,
             'Linux pings the TFTP host %s' % TFTP_HOST, out)
    return True


class BoardConsole:
    """A Board's console as uboot() types into it (Console's interface)."""

    def __init__(self, b):
        self.b = b

    @property
    def buf(self):
        return self.b.console

    def type(self, text):
        self.b.write(text)

    def wait_for(self, pattern, timeout, start=0):
        return self.b.wait_for(pattern, timeout, start)

    def text(self):
        return self.b.text()


VOCORE2_BANNER = [
    (r'CPU:\s+MediaTek MT7628A ver:1 eco:2', 'the SoC (chip name, revision)'),
    (r'Boot:\s+DDR2', 'the DRAM type (SYSCFG0)'),
    (r'Clock:\s+CPU: 580MHz', 'the CPU clock (the 40 MHz crystal strap)'),
    (r'DRAM:\s+128 MiB', 'the memory size (get_ram_size())'),
    (r'Net:[^=]*eth0: eth@10110000', 'the frame engine and switch'),
]
MT7620_BANNER = [
    (r'CPU:\s+MediaTek MT7620A ver:2 eco:6', 'the SoC (chip name, revision)'),
    (r'Boot:\s+DDR2', 'the DRAM type (SYSCFG0)'),
    (r'Clock:\s+CPU: 580MHz, Bus: 193MHz, XTAL: 40MHz',
     'the clocks (the CPU PLL, CUR_CLK_STS, the crystal strap)'),
    (r'DRAM:\s+32 MiB', 'the memory size (get_ram_size())'),
    (r'Net:[^=]*eth0: eth@10100000', 'the frame engine'),
]


def single_core(t, board, name, image, model, banner, via):
    """U-Boot proper for a single-core board from RAM, an oracle of its
    frame engine and switch models independent of Linux: U-Boot's own
    driver gets a DHCP lease, pings and fetches a file by TFTP from QEMU's
    user networking on front port 0 (@via says how)."""
    blob = os.path.join(TFTP_DIR, '%s-blob.bin' % board)
    os.makedirs(TFTP_DIR, exist_ok=True)
    with open(blob, 'wb') as f:
        f.write(os.urandom(1 << 20))
    with Board(board, kernel=image,
               extra=['-nic', 'user,model=%s,tftp=%s' % (model, TFTP_DIR)]) \
            as b:
        c = BoardConsole(b)
        try:
            # The defconfigs have no boot command: straight to the prompt
            c.wait_for(PROMPT, BOOT_TIMEOUT)
            text = c.text()
            for pattern, what in banner:
                t.result(re.search(pattern, text) is not None,
                         '%s: U-Boot reports %s' % (name, what), text[-1500:])
            m, out = uboot(c, 'setenv autoload no; dhcp',
                           r'DHCP client bound to address 10\.0\.2\.\d+')
            t.result(m, '%s: dhcp gets a lease through %s' % (name, via), out)
            m, out = uboot(c, 'ping %s' % TFTP_HOST, r'host %s is alive' %
                           re.escape(TFTP_HOST))
            t.result(m, '%s: ping %s is answered' % (name, TFTP_HOST), out)
            m, out = uboot(c, 'tftpboot 0x80400000 %s'
                           % os.path.basename(blob),
                           r'Bytes transferred = (\d+)', 120)
            t.result(m and int(m.group(1)) == 1 << 20, '%s: tftpboot '
                     'fetches a 1 MiB file' % name, out[-1500:])
            m, out = uboot(c, 'crc32 0x80400000 ${filesize}',
                           r'==> ([0-9a-f]{8})')
            want = file_crc(blob)
            t.result(m and int(m.group(1), 16) == want, '%s: crc32 of '
                     'the fetched file in RAM is the host\'s' % name,
                     '%s\nhost %08x' % (out, want))
        except Exception as e:
            t.fail('%s: U-Boot reaches its prompt and runs the commands'
                   % name, '%s\n%s' % (e, c.text()[-3000:]))
    t.qemu_log(b, '%s U-Boot' % name)


def vocore2(t):
    """The VoCore2's: mt7628-eth (PDMA ring 0, polled; the ESW set up by
    rt305x_esw_init(), its PHYs by mt7628_ephy_init() through PCR0/PCR1,
    PHY 0's link polled), the second oracle of the MT7628's frame engine
    and ESW models."""
    single_core(t, 'vocore2', 'VoCore2', UBOOT_VOCORE2, 'ralink-esw',
                VOCORE2_BANNER, 'the ESW\'s port 0 and the frame engine')


def mt7620(t):
    """The MT7620A evaluation board's: mt7620-eth (PDMA ring 0, polled,
    txd4's port map 0: the switch forwards by address; the GSW set up by
    mt7620_gsw_init(): the user ports isolated to the CPU port, the PHYs
    through PIAC), the first oracle of the MT7620's frame engine and GSW
    models (mainline has no driver for them)."""
    single_core(t, 'mt7620a-eval', 'MT7620A', UBOOT_MT7620, 'mt7530',
                MT7620_BANNER, 'the GSW\'s port 0 and the frame engine')


def main():
    t = Suite('uboot')
    vocore2(t)
    mt7620(t)
    c = Console(BOOT='tftp', TELNET_PORT=str(free_tcp_port()),
                HTTP_PORT=str(free_tcp_port()))
    try:
        in_uboot(t, c)
        booted = in_linux(t, c)
    except Exception as e:
        t.fail('U-Boot reaches its prompt and runs the commands',
               '%s\n%s' % (e, c.text()[-3000:]))
        booted = False
    if booted:
        status = c.poweroff(120)
        t.result(status == 0, 'poweroff ends make run BOOT=tftp with '
                 'status 0', 'status %r' % status)
    bad = c.log_problems()
    t.result(not bad, 'make run BOOT=tftp: %s' % LOG_VERDICT,
             '\n'.join(bad[:40]))
    return 1 if t.failed else 0


if __name__ == '__main__':
    sys.exit(main())
