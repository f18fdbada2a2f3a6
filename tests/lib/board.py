# SPDX-License-Identifier: GPL-2.0
"""Boot an emulated board in QEMU and talk to its serial console.

This is the one place that knows how to start a board: `make run` uses it
interactively (scripts/run.sh), the test suites through the Board class.
"""

import base64
import fcntl
import glob
import os
import re
import resource
import select
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import zlib

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
BUILD = os.environ.get('BUILD', os.path.join(TOP, 'build'))
# QEMU_BIN: another build to test with (e.g. scripts/qemu-dev.sh's).
QEMU = os.environ.get('QEMU_BIN') or os.path.join(BUILD, 'qemu',
                                                  'qemu-system-mipsel')

BOARDS = {
    'gnubee-pc1': 'mt7621-gnubee-gb-pc1.dtb',
    'gnubee-pc2': 'mt7621-gnubee-gb-pc2.dtb',
    'vocore2': 'vocore2.dtb',
    'omega2p': 'omega2p.dtb',
    'rt3052-eval': 'rt3052_eval.dtb',
    'rt5350-eval': 'rt5350_eval.dtb',
    'mt7620a-eval': 'mt7620a_eval.dtb',
    'rt3883-eval': 'rt3883_eval.dtb',
    'rt2880-eval': 'rt2880_eval.dtb',
}
# What differs per board beyond its DTB: the kernel build (its SoC
# family's: scripts/build-kernel.sh), the memory, the initramfs (the
# single-core boards' 128 or 32 MiB hold busybox's, with iproute2 on the
# 128 MiB ones, not the test bed's 71 MiB).
BOARD_KERNEL = {'vocore2': 'mt76x8', 'omega2p': 'mt76x8',
                'rt3052-eval': 'rt305x', 'rt5350-eval': 'rt305x',
                'mt7620a-eval': 'mt76x8', 'rt3883-eval': 'rt3883',
                'rt2880-eval': 'rt2880'}
BOARD_MEM = {'vocore2': '128M', 'omega2p': '128M', 'rt3052-eval': '32M',
             'rt5350-eval': '32M', 'mt7620a-eval': '32M',
             'rt3883-eval': '32M', 'rt2880-eval': '32M'}
BOARD_ROOTFS = {'vocore2': 'rootfs-net', 'omega2p': 'rootfs-net',
                'rt3052-eval': 'rootfs-base', 'rt5350-eval': 'rootfs-base',
                'mt7620a-eval': 'rootfs-base', 'rt3883-eval': 'rootfs-base',
                'rt2880-eval': 'rootfs-base'}
# The console's UART, when not the first (the DT's stdout-path)
BOARD_CONSOLE_UART = {'vocore2': 2}


def serial_args(board, console):
    """-serial options that put @console on @board's console UART."""
    return ['-serial', 'null'] * BOARD_CONSOLE_UART.get(board, 0) + \
        ['-serial', console]

# Printed by rootfs/init just before the first shell starts.
READY = 'ralink-fe: userspace ready'


def kernel_dir(variant='main'):
    return os.path.join(BUILD, 'kernel', variant)


def initrd_path(directory=BUILD, stem='rootfs', how='make rootfs'):
    """@directory/@stem.cpio (or .cpio.gz): an initramfs @how builds."""
    for name in (stem + '.cpio', stem + '.cpio.gz'):
        path = os.path.join(directory, name)
        if os.path.exists(path):
            return path
    raise FileNotFoundError('no %s.cpio in %s: run %s' % (stem, directory,
                                                         how))


def board_initrd(board, variant, stem=None):
    """@board's initramfs: its rootfs (build/@stem.cpio if given), and
    where kernel build @variant has a modules.cpio (the single-core
    boards' kernels: their modules are not the test bed's), that cpio
    appended to it (the kernel unpacks concatenated archives one after the
    other; a module of the same path replaces the rootfs's):
    build/initrd-@variant-@stem.cpio, made again when older than either."""
    stem = stem or BOARD_ROOTFS.get(board, 'rootfs')
    rootfs = initrd_path(stem=stem)
    mods = os.path.join(kernel_dir(variant), 'modules.cpio')
    if not os.path.exists(mods):
        return rootfs
    out = os.path.join(BUILD, 'initrd-%s-%s.cpio' % (variant, stem))
    mtime = os.path.getmtime(out) if os.path.exists(out) else -1
    if mtime < max(os.path.getmtime(rootfs), os.path.getmtime(mods)):
        # Per process and thread: two boards of one suite may make it at
        # once (the last replace wins; both copies are whole).
        tmp = '%s.%d.%d.tmp' % (out, os.getpid(), threading.get_ident())
        with open(tmp, 'wb') as f:
            for part in (rootfs, mods):
                with open(part, 'rb') as src:
                    shutil.copyfileobj(src, f)
        os.replace(tmp, out)
    return out


def dt_bootargs(dtb, variant='main'):
    """The command line in /chosen of @dtb, a DTB of kernel build
    @variant."""
    return subprocess.run(['fdtget', os.path.join(kernel_dir(variant), 'dtbs',
                                                  dtb), '/chosen', 'bootargs'],
                          check=True, capture_output=True,
                          text=True).stdout.strip()


# A guest clock that runs on the guest's instructions and jumps over idle
# time (QEMU's -icount with sleep=off), for boards whose guest exchanges
# nothing in real time with the host (the DSA selftests' ports are looped
# through QEMU hubs; the harness only types commands and waits for them).
# A `sleep 5`, a ping that waits 5 s for an answer that cannot come, a
# 180 s stall timer: each costs the host only the instructions the guest
# runs meanwhile, not real time; the scripts see the same seconds as
# before. Each instruction counts 2 ns (shift=1), i.e. 500 million a
# second, below one 1004Kc VPE's 880 MHz peak of one instruction a cycle,
# so that what a script times (timers in the bridge, ping intervals) sees
# a CPU of about the silicon's speed rather than TCG's (a few times
# slower, and varying with the host's load). -icount makes TCG run all
# vCPUs on one host thread, in turns.
VIRTUAL_CLOCK = ['-icount', 'shift=1,sleep=off']


def virtual_clock_args(shift):
    """VIRTUAL_CLOCK with 2^@shift ns an instruction; @shift True: 1."""
    return ['-icount', 'shift=%d,sleep=off' % (1 if shift is True else
                                                 shift)]


def qemu_args(board='gnubee-pc1', variant='main', initrd=True, append=None,
              extra=(), dtb=None, virtual_clock=False, nosmp=False,
              norandmaps=False, kernel=None, mem=None, rootfs=None):
    """The QEMU command line for @board with kernel build @variant.

    @kernel: a bootloader's ELF for -kernel instead of the build's vmlinux
    (U-Boot proper, which the board's own bootloader would have loaded
    into RAM and jumped to), started without a DTB, initrd or command line.

    @dtb names another DTB of the same kernel build (e.g. a test DT).
    @mem and @rootfs (a cpio's stem under build/) replace the board's own
    (BOARD_MEM, BOARD_ROOTFS).
    @virtual_clock: the guest runs on VIRTUAL_CLOCK (a number: on
    virtual_clock_args() of that shift). @nosmp: Linux brings
    up one CPU only (`nosmp` after the DT's command line, or @append);
    the board keeps its CPUs. With the vCPUs taking turns on one host
    thread, a CPU waiting for another's answer (an IPI, a lock) spins
    through its whole turn: a DSA script took 176 s with 4 CPUs and 20 s
    with one (bridge_vlan_aware.sh). @norandmaps: the guest maps each
    program's libraries at the same addresses every time (`norandmaps`):
    QEMU's MIPS translations are keyed by virtual address, and with the
    randomisation (256 places on MIPS32) each exec's code was translated
    anew until every place had been seen (1500 `bridge fdb add`/`del`
    pairs: 578,429 translation blocks with it, 86,763 without; side by
    side, bridge_mdb.sh took 186-188 s of vCPU time without it against
    200-205 s with it). Nothing the tests check depends on it.
    """
    if variant == 'main':
        variant = BOARD_KERNEL.get(board, 'main')
    kdir = kernel_dir(variant)
    dtb = dtb or BOARDS[board]
    mem = mem or BOARD_MEM.get(board, '512M')
    clock = virtual_clock_args(virtual_clock) if virtual_clock else []
    if kernel:
        return [QEMU, '-M', board, '-m', mem, '-no-reboot',
                '-kernel', kernel] + clock + list(extra)
    args = [QEMU, '-M', board, '-m', mem, '-no-reboot',
            '-kernel', os.path.join(kdir, 'vmlinux'),
            '-dtb', os.path.join(kdir, 'dtbs', dtb)]
    if initrd:
        args += ['-initrd', board_initrd(board, variant, rootfs)]
    if nosmp:
        append = (append or dt_bootargs(dtb, variant)) + ' nosmp'
    if norandmaps:
        append = (append or dt_bootargs(dtb, variant)) + ' norandmaps'
    if append:
        args += ['-append', append]
    return args + clock + list(extra)


class Timeout(Exception):
    pass


class Slot:
    """One of BOARD_SLOTS places for a board on a virtual clock, shared by
    every process of a test run (tests/run-all.py sets BOARD_SLOTS, by
    default the number of host CPUs): such a board computes all the time
    (its idle time costs nothing), so more of them than CPUs would only
    share the CPUs. A slot is an exclusive flock() on one of BOARD_SLOTS
    files under build/slots; the kernel drops it when its holder exits,
    however it exits.

    Waiters go longest first: each waits with a file naming its @expect
    (the seconds it expects to hold the slot), and only the waiter with
    the largest takes a free slot, so that the longest jobs of all suites
    start first and the short ones fill the end."""

    def __init__(self, expect=0):
        n = int(os.environ.get('BOARD_SLOTS', os.cpu_count() or 1))
        d = os.path.join(BUILD, 'slots')
        os.makedirs(d, exist_ok=True)
        me = 'wait.%08d.%d.%d' % (min(int(expect), 99999999), os.getpid(),
                                   threading.get_ident())
        waitfile = os.path.join(d, me)
        open(waitfile, 'w').close()
        self.f = None
        try:
            while self.f is None:
                if self._first(d, me):
                    self.f = self._take(d, n)
                if self.f is None:
                    time.sleep(0.2)
        finally:
            os.unlink(waitfile)

    @staticmethod
    def _first(d, me):
        """Whether @me is the live waiter with the largest expectation."""
        waiters = []
        for w in os.listdir(d):
            if not w.startswith('wait.'):
                continue
            pid = int(w.split('.')[2])
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                try:
                    os.unlink(os.path.join(d, w))
                except OSError:
                    pass
                continue
            waiters.append((-int(w.split('.')[1]), w))
        return not waiters or min(waiters)[1] == me

    @staticmethod
    def _take(d, n):
        for i in range(n):
            f = open(os.path.join(d, 'slot%d' % i), 'a')
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return f
            except OSError:
                f.close()
        return None

    def release(self):
        if self.f:
            self.f.close()
            self.f = None


# What the QEMU log of a board (-d guest_errors,unimp) may hold without
# failing the test that ran it, each with the reason it is no model bug.
# Filled from the logs of every suite's boards; anything else fails.
LOG_ALLOWED = [
    # The GPIO block (0x1e000600) is not modelled yet (NOTES.md): the
    # kernel's gpio-mt7621 driver probes it and gpio-keys reads the reset
    # button's line; QEMU's unimplemented-device stub logs each access.
    (re.compile(r'^gpio: unimplemented device (read|write) '),
     'GPIO block not modelled'),
    # The PPE's keepalive copies are not modelled (mt7621_ppe.c): mainline
    # keeps them off, but mtk_ppe_prepare_reset() turns them on while the
    # age scan still runs, before a frame engine reset (faults suite).
    (re.compile(r'^mt7621-ppe: keepalive copies to the CPU are not '
                r'modelled$'), "mainline's mtk_ppe_prepare_reset()"),
    # Mainline's mtk_stop() sets every GDMA to drop, for i < MTK_MAX_DEVS
    # (3): GMAC3's MTK_GDMA_FWD_CFG is 0x540, which the MT7621 (two GMACs)
    # does not have. The model logs that read-modify-write as unknown.
    (re.compile(r'^mt7621-fe: (read of 0x0540|write of 0x[0-9a-f]+ to '
                r'0x0540)$'), "mainline's mtk_stop() and GMAC3"),
    # Mainline's mtk_eth_soc on the MT7628 reads and writes registers of
    # the MT7621's frame engine that the MT7628's does not document:
    # MTK_INT_STATUS2 (0x08, mtk_handle_status_irq()), MTK_CDMP_IG_CTRL
    # and MTK_CDMP_EG_CTRL (0x400/0x404, mtk_open() without DSA). (Its
    # phylink MAC ops also read-modify-write MTK_MAC_MCR(0), 0x10100 from
    # the frame engine's base: the ESW's VUB0, which the model keeps, so
    # nothing is logged; NOTES.md.)
    (re.compile(r'^ralink-fe: (read of 0x(8|400)|write of 0x[0-9a-f]+ to '
                r'0x40[04])$'), "mainline's mtk_eth_soc, MT7621 registers"),
]


# The name of the TAP line every suite gives a board's QEMU log.
LOG_VERDICT = ('the QEMU log (guest errors, unimplemented accesses) holds '
               'nothing unexpected')


def log_problems(text):
    """The lines of QEMU log @text that LOG_ALLOWED does not explain."""
    return [ln for ln in text.splitlines() if ln.strip() and
            not any(p.search(ln) for p, _ in LOG_ALLOWED)]


def _qemu_preexec(niced):
    """In QEMU's child before exec: core dumps on, niced if asked."""
    try:
        hard = resource.getrlimit(resource.RLIMIT_CORE)[1]
        resource.setrlimit(resource.RLIMIT_CORE, (hard, hard))
    except (OSError, ValueError):
        pass            # no core then: core_backtrace() says so
    if niced:
        os.nice(10)


def core_backtrace(directory):
    """gdb's backtraces of the QEMU core in @directory, or why none."""
    cores = sorted(glob.glob(os.path.join(directory, 'core*')))
    if not cores:
        pattern = open('/proc/sys/kernel/core_pattern').read().strip()
        return 'no core in its directory (core_pattern %r)' % pattern
    if not shutil.which('gdb'):
        return 'core %s, no gdb to read it' % cores[0]
    out = subprocess.run(
        ['gdb', '-batch', '-nx', '-ex', 'bt 30',
         '-ex', 'thread apply all bt 8', QEMU, cores[0]],
        capture_output=True, text=True, timeout=300).stdout
    keep = [ln for ln in out.splitlines() if ln.startswith(('#', 'Thread',
                                                            'Program'))]
    return 'backtrace:\n' + '\n'.join(keep[:200])


class Board:
    """One QEMU instance: console on a pipe, HMP monitor on a socket."""

    def __init__(self, board='gnubee-pc1', variant='main', initrd=True,
                 append=None, extra=(), log=None, dtb=None,
                 virtual_clock=False, nosmp=False, expect=0,
                 norandmaps=False, kernel=None, mem=None, rootfs=None,
                 niced=False):
        self.tmp = tempfile.TemporaryDirectory(prefix='ralink-fe-')
        self.final_log = None
        self.mon_path = os.path.join(self.tmp.name, 'monitor.sock')
        args = qemu_args(board, variant, initrd, append, extra, dtb,
                         virtual_clock, nosmp, norandmaps, kernel, mem,
                         rootfs)
        # debug-threads names QEMU's threads ("CPU 0/TCG"): cpu_times().
        args += ['-display', 'none'] + serial_args(board, 'stdio') + [
                 '-name', '%s,debug-threads=on' % board,
                 '-monitor', 'unix:%s,server=on,wait=off' % self.mon_path,
                 '-d', 'guest_errors,unimp',
                 '-D', os.path.join(self.tmp.name, 'qemu.log')]
        self.args = args
        self.console = bytearray()
        self.cond = threading.Condition()
        self.log = log
        # A board on the virtual clock waits for a slot, and runs niced:
        # it does not mind waiting for the CPU, boards on the real clock
        # (host peers, real-time paced traffic) do. @niced: a board on
        # the real clock that times nothing runs niced too.
        self.slot = Slot(expect) if virtual_clock else None
        self.start_time = time.monotonic()
        # QEMU runs in the board's directory with core dumps on: if it
        # dies by a signal, close() puts gdb's backtrace of the core into
        # crash, and log_problems() (every suite's QEMU-log verdict) fails.
        self.proc = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, cwd=self.tmp.name,
            preexec_fn=lambda: _qemu_preexec(virtual_clock or niced))
        self.stderr = b''
        self.crash = None
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.err_reader = threading.Thread(target=self._read_err, daemon=True)
        self.err_reader.start()
        self.mon = None
        self.seq = 0
        self.final_cpu = None
        self.wall = None

    # -- console ---------------------------------------------------------
    def _read(self):
        fd = self.proc.stdout.fileno()
        while True:
            data = os.read(fd, 65536)
            if not data:
                break
            if self.log:
                self.log.write(data)
                self.log.flush()
            with self.cond:
                self.console += data
                self.cond.notify_all()
        with self.cond:
            self.cond.notify_all()

    def _read_err(self):
        self.stderr = self.proc.stderr.read()

    def text(self, start=0):
        with self.cond:
            return self.console[start:].decode('utf-8', 'replace')

    def mark(self):
        with self.cond:
            return len(self.console)

    def wait_for(self, pattern, timeout, start=0):
        """Wait until @pattern (regex) appears in the console after @start;
        return the match. Raise Timeout, or RuntimeError if QEMU exits."""
        rx = re.compile(pattern.encode() if isinstance(pattern, str)
                        else pattern)
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                m = rx.search(self.console, start)
                if m:
                    return m
                if self.proc.poll() is not None:
                    # What QEMU said on its way out (a backend's address
                    # in use, a bad option)
                    self.err_reader.join(5)
                    raise RuntimeError('QEMU exited (status %s) waiting for '
                                       '%r: %s' % (
                                           self.proc.returncode, pattern,
                                           self.stderr.decode(
                                               'utf-8', 'replace')[-2000:]))
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self.cond.wait(min(left, 1.0))
        # Outside the lock: the console reader goes on while gdb runs.
        self.dump_threads()
        raise Timeout('no %r within %.0f s' % (pattern, timeout))

    def dump_threads(self):
        """With BOARD_GDB set to a file name: append the console's end and
        the backtraces of QEMU's threads there, and what the gdb script
        BOARD_GDB_SCRIPT prints (e.g. tests/lib/qemu-state.gdb): a
        debugging aid for hangs."""
        out = os.environ.get('BOARD_GDB')
        if not out or self.proc.poll() is not None:
            return
        with open(out, 'a') as f:
            f.write('==> QEMU pid %d, %s; the console ends:\n%s\n'
                    % (self.proc.pid, time.ctime(),
                       self.text(max(0, self.mark() - 2000))))
            f.flush()
            cmd = ['gdb', '-p', str(self.proc.pid), '-batch',
                   '-ex', 'thread apply all bt']
            if os.environ.get('BOARD_GDB_SCRIPT'):
                cmd += ['-x', os.environ['BOARD_GDB_SCRIPT']]
            subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT,
                           timeout=120)

    def write(self, data):
        if isinstance(data, str):
            data = data.encode()
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def wait_ready(self, timeout=300):
        """Wait for the shell; return seconds since QEMU started."""
        self.wait_for(READY, timeout)
        # A command round trip proves the shell reads its input. Plain
        # output for the tests: iproute2 >= 6.x colours it on a terminal.
        self.run('export NO_COLOR=1', timeout=60)
        return time.monotonic() - self.start_time

    def run(self, cmd, timeout=120):
        """Run @cmd in the guest shell; return (status, output)."""
        # A trailing newline would end the line before the end marker.
        cmd = cmd.strip()
        self.seq += 1
        tag = 'RFE%d' % self.seq
        start = self.mark()
        # The markers are split so that the echoed command never matches.
        self.write("echo '%s''B'; %s; echo '%s''E' $?\n" % (tag, cmd, tag))
        m = self.wait_for(r'%sE (\d+)\r?\n' % tag, timeout, start)
        b = self.wait_for(r'%sB\r?\n' % tag, 1, start)
        out = self.console[b.end():m.start()].decode('utf-8', 'replace')
        return int(m.group(1)), out.replace('\r\n', '\n')

    def check(self, cmd, timeout=120):
        """Run @cmd; return its output, raise if it fails."""
        status, out = self.run(cmd, timeout)
        if status:
            raise RuntimeError('%r failed (%d): %s' % (cmd, status, out))
        return out

    def put(self, path, data, chunk=256):
        """Write @data (bytes) to @path in the guest, through the console
        as base64 in commands of @chunk characters: busybox's line editing
        lost the end of a 1000-character command typed on the VoCore2's
        console (it asks the terminal for the cursor's position, ESC [6n,
        when the line wraps, and takes what comes for the answer)."""
        text = base64.b64encode(data).decode()
        self.check('rm -f %s.b64' % path)
        for i in range(0, len(text), chunk):
            self.check('echo %s >> %s.b64' % (text[i:i + chunk], path))
        self.check('base64 -d %s.b64 > %s && rm %s.b64' % (path, path, path))

    # -- monitor ---------------------------------------------------------
    def hmp(self, command, timeout=30):
        """Run an HMP monitor command; return its output."""
        if self.mon is None:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    self.mon = socket.socket(socket.AF_UNIX)
                    self.mon.connect(self.mon_path)
                    break
                except OSError:
                    self.mon.close()
                    self.mon = None
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)
            self._hmp_read_prompt(timeout)
        self.mon.sendall(command.encode() + b'\n')
        out = self._hmp_read_prompt(timeout)
        # Drop the echoed command line and terminal escapes.
        out = re.sub(r'\x1b\[[0-9;]*[A-Za-z]', '', out)
        lines = out.replace('\r', '').split('\n')
        return '\n'.join(lines[1:]).strip()

    def _hmp_read_prompt(self, timeout):
        buf = b''
        deadline = time.monotonic() + timeout
        while not buf.endswith(b'(qemu) '):
            left = deadline - time.monotonic()
            if left <= 0:
                raise Timeout('monitor did not answer')
            r, _, _ = select.select([self.mon], [], [], left)
            if r:
                data = self.mon.recv(65536)
                if not data:
                    raise RuntimeError('monitor closed')
                buf += data
        return buf[:-len(b'(qemu) ')].decode('utf-8', 'replace')

    # -- host CPU ------------------------------------------------------
    def cpu_times(self):
        """Host CPU seconds QEMU's threads have used so far, by kind:
        {'vcpu': the TCG vCPU threads, 'io': the main loop (device models,
        network backends, monitor, chardevs), 'other': RCU, workers}."""
        hz = os.sysconf('SC_CLK_TCK')
        times = {'vcpu': 0.0, 'io': 0.0, 'other': 0.0}
        task = '/proc/%d/task' % self.proc.pid
        try:
            tids = os.listdir(task)
        except OSError:
            return times
        for tid in tids:
            try:
                with open('%s/%s/stat' % (task, tid)) as f:
                    stat = f.read()
            except OSError:
                continue
            # comm is in parentheses and may hold spaces ("CPU 0/TCG").
            comm = stat[stat.index('(') + 1:stat.rindex(')')]
            fields = stat[stat.rindex(')') + 2:].split()
            secs = (int(fields[11]) + int(fields[12])) / hz
            if comm.endswith('/TCG'):
                times['vcpu'] += secs
            elif tid == str(self.proc.pid):
                times['io'] += secs
            else:
                times['other'] += secs
        return times

    # -- lifetime --------------------------------------------------------
    def alive(self):
        return self.proc.poll() is None

    def qemu_log(self):
        if self.final_log is not None:
            return self.final_log
        try:
            with open(os.path.join(self.tmp.name, 'qemu.log'), 'rb') as f:
                return f.read().decode('utf-8', 'replace')
        except OSError:
            return ''

    def log_problems(self):
        """The lines of the QEMU log (-d guest_errors,unimp) that
        LOG_ALLOWED does not explain, after a crash report if QEMU died
        by a signal."""
        bad = log_problems(self.qemu_log())
        crash = self.crash_report()
        return ([crash] if crash else []) + bad

    def crash_report(self):
        """None, or how QEMU died: the signal and gdb's backtrace of its
        core (taken when the board closes; the core is not kept)."""
        if self.crash is None and self.proc.poll() is not None and \
                self.proc.returncode < 0 and self.proc.returncode not in (
                    -signal.SIGTERM, -signal.SIGKILL, -signal.SIGINT):
            self.crash = 'QEMU killed by signal %d; %s' % (
                -self.proc.returncode, core_backtrace(self.tmp.name))
        return self.crash

    def wait_exit(self, timeout):
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise Timeout('QEMU still running after %.0f s' % timeout)

    def close(self):
        if self.proc.poll() is None:
            self.final_cpu = self.cpu_times()
        self.wall = time.monotonic() - self.start_time
        if self.mon is not None:
            self.mon.close()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.reader.join(5)
        self.err_reader.join(5)
        self.final_log = self.qemu_log()
        self.crash_report()
        self.tmp.cleanup()
        if self.slot:
            self.slot.release()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# make run: which switch port of each board is its WAN port (on QEMU's
# user networking) and which its LAN port; the names come from the DT.
# On the GnuBee boards the DT enables two ports: ethblack (port 0) and
# ethblue (port 4); ethblue is the WAN side here.
RUN_PORTS = {
    'gnubee-pc1': {'lan': 0, 'wan': 4},
    'gnubee-pc2': {'lan': 0, 'wan': 4},
    'vocore2': {'lan': 1, 'wan': 0},
    'omega2p': {'lan': 1, 'wan': 0},
    'rt5350-eval': {'lan': 1, 'wan': 0},
    'rt3052-eval': {'lan': 1, 'wan': 0},
    # One port (the GMAC): LAN= joins the WAN on a QEMU hub
    'rt3883-eval': {'lan': None, 'wan': 0},
    'rt2880-eval': {'lan': None, 'wan': 0},
}
# The switch's QEMU type (its netdevN properties) and its ports' DT path
RUN_SWITCH = {
    'gnubee-pc1': ('mt7530',
                   '/ethernet@1e100000/mdio-bus/switch@1f/ports/port@%d'),
    'gnubee-pc2': ('mt7530',
                   '/ethernet@1e100000/mdio-bus/switch@1f/ports/port@%d'),
    'vocore2': ('ralink-esw', '/switch@10110000/ports/port@%d'),
    'omega2p': ('ralink-esw', '/switch@10110000/ports/port@%d'),
    'rt5350-eval': ('ralink-esw', '/switch@10110000/ports/port@%d'),
    'rt3052-eval': ('ralink-esw', None),
    'rt3883-eval': ('ralink-fe', None),
    'rt2880-eval': ('ralink-fe', None),
}
# Boards whose switch no driver manages (the RT3052's ESW: no special tag
# is known for it), or with no switch (the RT3883's and RT2880's GMAC to an
# external PHY): the frame engine's eth0 is their one network port, the
# WAN, and LAN_ADDR a second address on it (the switch as out of reset
# joins every port; the GMAC's one NIC is on a hub with the WAN and LAN
# backends); no mainline driver for their frame engine.
ETH0_ONLY = ('rt3052-eval', 'rt3883-eval', 'rt2880-eval')
# The DT of `make run` with our drivers where the board's own names no
# switch port (the ESW boards' DTs: their switch has no ports node)
RUN_DTB_OURS = {'vocore2': 'mt7628-vocore2-esw.dtb',
                'omega2p': 'mt7628-omega2p-esw.dtb',
                'rt5350-eval': 'rt5350-eval-esw.dtb'}
RUN_DEFAULTS = {
    'BOOT': 'direct',
    'DRIVERS': 'ours',
    'LAN': '',
    'LAN_ADDR': '192.168.10.1/24',
    'TELNET_PORT': '2323',
    'HTTP_PORT': '8080',
    'WAN': '',
    'QEMU_ARGS': '',
}


def port_label(board, dtb, port):
    return subprocess.run(['fdtget', '-t', 's', os.path.join(
        kernel_dir(BOARD_KERNEL.get(board, 'main')), 'dtbs', dtb),
        RUN_SWITCH[board][1] % port, 'label'],
        check=True, capture_output=True, text=True).stdout.strip()


# BOOT=tftp: U-Boot proper (make uboot) TFTP-boots the FIT image (make
# fit) from this directory, served by QEMU's user networking on the WAN
# port (uboot/gnubee-ram.env).
TFTP_DIR = os.path.join(BUILD, 'tftp')
FIT = 'gnubee.itb'
FIT_CONF = {'gnubee-pc1': 'gb-pc1', 'gnubee-pc2': 'gb-pc2'}
UBOOT = os.path.join(BUILD, 'u-boot', 'u-boot')
UBOOT_VOCORE2 = os.path.join(BUILD, 'u-boot', 'u-boot-vocore2')
UBOOT_MT7620 = os.path.join(BUILD, 'u-boot', 'u-boot-mt7620')


def tftp_root(board, bootargs):
    """A TFTP directory for U-Boot's netboot on @board: the FIT and a
    uEnv.txt that gives Linux @bootargs and picks @board's configuration.
    Named by its content, so that runs with the same options share it and
    runs with others do not disturb it."""
    uenv = 'bootargs=%s\nfitconf=%s\n' % (bootargs, FIT_CONF[board])
    d = os.path.join(TFTP_DIR, 'run', '%08x' % zlib.crc32(uenv.encode()))
    os.makedirs(d, exist_ok=True)
    tmp = os.path.join(d, 'uEnv.txt.%d' % os.getpid())
    with open(tmp, 'w') as f:
        f.write(uenv)
    os.replace(tmp, os.path.join(d, 'uEnv.txt'))
    link = os.path.join(d, FIT)
    if not os.path.islink(link):
        try:
            os.symlink(os.path.join('..', '..', FIT), link)
        except FileExistsError:
            pass
    return d


def run_args(board, env):
    """The QEMU command line of `make run` for @board, from @env's
    RUN_DEFAULTS variables (scripts/run.sh, README)."""
    o = {k: env.get(k) or v for k, v in RUN_DEFAULTS.items()}
    if o['BOOT'] not in ('direct', 'tftp'):
        sys.exit('BOOT=%s: direct (the default) or tftp' % o['BOOT'])
    if board not in RUN_PORTS:
        # A board without network in make run: the shell on the DT's
        # console UART, and nothing else.
        if o['BOOT'] != 'direct' or o['WAN'] or o['LAN'] or \
                (env.get('DRIVERS') or 'none') != 'none':
            sys.exit('%s has no network in make run yet: make run BOARD=%s '
                     'boots it without (no BOOT, DRIVERS, WAN or LAN)'
                     % (board, board))
        o['DRIVERS'] = 'none'
        o['TFTP_ROOT'] = None
        return (qemu_args(board) + ['-display', 'none', '-monitor', 'none']
                + serial_args(board, 'mon:stdio') +
                shlex.split(o['QEMU_ARGS'])), o
    dtb = BOARDS[board]
    ports = RUN_PORTS[board]
    switch = RUN_SWITCH[board][0]
    kvar = BOARD_KERNEL.get(board, 'main')
    esw = switch == 'ralink-esw'
    if board in ETH0_ONLY and o['DRIVERS'] not in ('ours', 'none'):
        sys.exit('DRIVERS=%s: ours or none on %s (mainline has no driver '
                 'for its frame engine)' % (o['DRIVERS'], board))
    if esw and o['BOOT'] != 'direct':
        sys.exit('BOOT=tftp: the GnuBee only (no FIT for %s yet)' % board)
    if esw and o['DRIVERS'] not in ('ours', 'mainline', 'none'):
        sys.exit('DRIVERS=%s: ours, mainline or none on %s'
                 % (o['DRIVERS'], board))
    if o['DRIVERS'] == 'ours':
        dtb = RUN_DTB_OURS.get(board, dtb)
    append = dt_bootargs(dtb, kvar)
    # Each used port's backend goes straight to its switch port's netdev
    # property; a port without one has no link. Mainline has no driver
    # for the ESW: its one network port is the frame engine's eth0.
    if (o['DRIVERS'] == 'mainline' and esw) or \
            (board in ETH0_ONLY and o['DRIVERS'] != 'none'):
        append += ' rfe.drivers=%s rfe.dhcp=eth0' % o['DRIVERS']
        if board in ETH0_ONLY and o['LAN_ADDR'] != 'none':
            append += ' rfe.lan=eth0=%s' % o['LAN_ADDR']
    elif o['DRIVERS'] != 'none':
        append += ' rfe.drivers=%s rfe.dhcp=%s' % (
            o['DRIVERS'], port_label(board, dtb, ports['wan']))
        if o['LAN_ADDR'] != 'none':
            append += ' rfe.lan=%s=%s' % (
                port_label(board, dtb, ports['lan']), o['LAN_ADDR'])
    wan = o['WAN'] or ('user,net=10.0.2.0/24,hostfwd=tcp:127.0.0.1:%s-:23,'
                       'hostfwd=tcp:127.0.0.1:%s-:80'
                       % (o['TELNET_PORT'], o['HTTP_PORT']))
    if o['BOOT'] == 'tftp':
        # U-Boot proper in RAM, as the vendor U-Boot would start it; the
        # command line goes to Linux through uEnv.txt and the FIT's DT.
        root = tftp_root(board, append)
        if not o['WAN']:
            wan += ',tftp=%s' % root
        args = qemu_args(board, kernel=UBOOT)
    else:
        root = None
        args = qemu_args(board, append=append, dtb=dtb)
    o['TFTP_ROOT'] = root
    nics = ['-netdev', '%s,id=wan' % wan]
    if ports['lan'] is None:
        # One port: it, the WAN and the LAN on a hub
        nics += ['-netdev', 'hubport,id=port,hubid=0',
                 '-global', '%s.netdev%d=port' % (switch, ports['wan']),
                 '-netdev', 'hubport,id=hwan,hubid=0,netdev=wan']
        if o['LAN']:
            nics += ['-netdev', '%s,id=lan' % o['LAN'],
                     '-netdev', 'hubport,id=hlan,hubid=0,netdev=lan']
    else:
        nics += ['-global', '%s.netdev%d=wan' % (switch, ports['wan'])]
        if o['LAN']:
            nics += ['-netdev', '%s,id=lan' % o['LAN'],
                     '-global', '%s.netdev%d=lan' % (switch, ports['lan'])]
    if board in BOARD_CONSOLE_UART:
        # The console is not the first UART: -nographic would take it
        console = (['-display', 'none', '-monitor', 'none'] +
                   serial_args(board, 'mon:stdio'))
    else:
        console = ['-nographic']
    return args + nics + console + shlex.split(o['QEMU_ARGS']), o


def main(argv):
    """scripts/run.sh: boot @board interactively on this terminal."""
    board = argv[1] if len(argv) > 1 else 'gnubee-pc1'
    if board not in BOARDS:
        sys.exit('unknown board %s (known: %s)' % (board, ', '.join(BOARDS)))
    args, o = run_args(board, os.environ)
    args += argv[2:]
    if board not in RUN_PORTS:
        what = 'no network in make run yet'
    elif o['DRIVERS'] == 'none':
        what = 'no network drivers loaded'
    else:
        what = '%s drivers' % o['DRIVERS']
    msg = 'Booting %s (%s).' % (board, what)
    if o['TFTP_ROOT']:
        msg += (' U-Boot in RAM TFTP-boots %s from %s%s.' % (
            FIT, o['TFTP_ROOT'], ' (serve it on your WAN network)'
            if o['WAN'] else ' through the WAN port'))
    if not o['WAN']:
        msg += (' From this host: telnet 127.0.0.1 %s (a root shell), '
                'http://127.0.0.1:%s/.' % (o['TELNET_PORT'], o['HTTP_PORT']))
    print(msg + ' `poweroff` in the guest (or Ctrl-A x) ends QEMU.',
          file=sys.stderr)
    sys.stderr.flush()
    os.execv(args[0], args)


def dmesg_and_poweroff(t, b, prefix):
    """No oops in dmesg; `poweroff` ends QEMU. These SoCs cannot power
    off: poweroff resets through the sysctl, and -no-reboot turns the
    reset into QEMU's exit."""
    dmesg = b.check('dmesg')
    bad = [ln for ln in dmesg.splitlines()
           if re.search(r'Oops|BUG:|WARNING:|Kernel panic', ln)]
    t.result(not bad, '%sno Oops, BUG, WARNING or panic in dmesg' % prefix,
             '\n'.join(bad))
    b.write('poweroff\n')
    try:
        status = b.wait_exit(60)
        t.result(status == 0, '%spoweroff ends QEMU' % prefix,
                 'exit status %d' % status)
    except Exception as e:
        t.fail('%spoweroff ends QEMU' % prefix,
               '%s\n%s' % (e, b.text()[-2000:]))


if __name__ == '__main__':
    main(sys.argv)
