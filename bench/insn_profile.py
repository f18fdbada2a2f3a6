# SPDX-License-Identifier: GPL-2.0
"""The per-function profile of `make bench PROFILE=ROW` (bench/bench.py).

The plugin (bench/plugin/insn_window.c, profile=PATH) gives, for the
row's window, every TB start address that ran with the instructions its
TBs executed and how often they ran. Here each address becomes the
function it lies in:

- built-in kernel code: build/kernel/main/System.map (checked against a
  few symbols of the guest's /proc/kallsyms);
- modules (the driver sets, DSA, the tag driver): the guest's
  /proc/kallsyms, read after the driver set was loaded;
- user space (below 0x80000000): one entry, [user].

A TB counts whole for the function its first instruction is in. The
calls column is how often a TB starting at the function's first
instruction ran: its entries (a loop back to the very first instruction
would count too, which compilers rarely emit).

Groups: by module, then by the object file a built-in symbol comes from
(the thin archives of the kernel's object tree, KERNEL_OBJ, default
~/.cache/ralink-fe/kernel/main/obj, used if its System.map is the same),
then by name.
"""

import bisect
import collections
import filecmp
import os
import re
import subprocess

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
BUILD = os.environ.get('BUILD', os.path.join(TOP, 'build'))
SYSTEM_MAP = os.path.join(BUILD, 'kernel', 'main', 'System.map')
KERNEL_OBJ = os.environ.get('KERNEL_OBJ', os.path.expanduser(
    '~/.cache/ralink-fe/kernel/main/obj'))


def system_map(variant='main'):
    """The System.map of kernel build @variant."""
    return os.path.join(BUILD, 'kernel', variant, 'System.map')


def kernel_obj(variant='main'):
    """The object tree of kernel build @variant (KERNEL_OBJ: main's)."""
    if variant == 'main':
        return KERNEL_OBJ
    return os.path.expanduser('~/.cache/ralink-fe/kernel/%s/obj' % variant)
KSEG0 = 0x80000000
TOP_N = int(os.environ.get('PROFILE_TOP', '40'))

OURS = 'ours: ralink_fe, ralink_mt7530'
MAINLINE = 'mainline: mtk_eth, mt7530(-mdio)'
DSA = 'DSA + tag_mtk'
NET = 'core networking'
IRQ = 'IRQ + softirq + scheduler + time'
SYS = 'syscalls + user'
MEM = 'mm + DMA + cache'
OTHER = 'other'
GROUPS = [OURS, MAINLINE, DSA, NET, IRQ, SYS, MEM, OTHER]
SHORT = {OURS: 'ours', MAINLINE: 'mainline', DSA: 'dsa', NET: 'net',
         IRQ: 'irq', SYS: 'sys', MEM: 'mm', OTHER: 'other'}

MODULE_GROUP = {'ralink_fe': OURS, 'ralink_mt7530': OURS,
                'mtk_eth': MAINLINE, 'mt7530': MAINLINE,
                'mt7530_mdio': MAINLINE, 'pcs_mtk_lynxi': MAINLINE,
                'mtk_ge': MAINLINE, 'dsa_core': DSA, 'tag_mtk': DSA}

# Object file prefixes of built-in code, first match wins
OBJECT_GROUP = [
    ('net/socket.o', SYS), ('net/', NET),
    ('kernel/irq/', IRQ), ('kernel/softirq.o', IRQ), ('kernel/sched/', IRQ),
    ('kernel/time/', IRQ), ('kernel/rcu/', IRQ), ('kernel/irq_work.o', IRQ),
    ('kernel/smp.o', IRQ), ('drivers/irqchip/', IRQ),
    ('drivers/clocksource/', IRQ), ('arch/mips/kernel/irq', IRQ),
    ('arch/mips/kernel/cevt', IRQ), ('arch/mips/kernel/csrc', IRQ),
    ('arch/mips/kernel/genex.o', IRQ), ('arch/mips/kernel/entry.o', IRQ),
    ('arch/mips/ralink/irq', IRQ), ('arch/mips/ralink/', IRQ),
    ('arch/mips/kernel/scall', SYS), ('arch/mips/kernel/syscall.o', SYS),
    ('kernel/entry/', SYS), ('fs/', SYS), ('kernel/signal.o', SYS),
    ('mm/', MEM), ('kernel/dma/', MEM), ('arch/mips/mm/', MEM),
    ('arch/mips/lib/mem', MEM), ('arch/mips/lib/csum', NET),
    ('lib/', OTHER),
]

# By name, where there is no object file to go by
NAME_GROUP = [
    (r'^(__)?(netif|napi|skb|__skb|kfree_skb|consume_skb|build_skb|'
     r'__alloc_skb|__netdev|netdev|dev_|__dev_|eth_|gro|ip_|ipv4|udp|'
     r'__udp|inet|sock_def|sk_|__sk_|dst_|fib|neigh|page_pool|'
     r'net_rx_action|__napi|rps|xdp|csum|packet_)', NET),
    (r'^(do_IRQ|handle_|__handle_irq|generic_handle|irq_|__irq|'
     r'__do_softirq|do_softirq|raise_softirq|__raise_softirq|'
     r'plat_irq_dispatch|gic_|ret_from_irq|schedule|__schedule|'
     r'try_to_wake_up|wake_up|__wake_up|tick_|hrtimer|ktime|'
     r'update_|rcu_|enqueue|dequeue|pick_next|finish_task|'
     r'resume_userspace|restore_all|ret_from)', IRQ),
    (r'^(sys_|__sys_|__se_sys|handle_sys|syscall|do_sys_|do_select|'
     r'do_poll|__fget|fput|__fput)', SYS),
    (r'^(kmem_cache|kmalloc|__kmalloc|kfree|__kfree|page_frag|'
     r'__page_frag|alloc_pages|__alloc_pages|free_unref|'
     r'get_page_from_freelist|dma_|r4k_|blast_|local_r4k|memcpy|memset|'
     r'__copy_user|__bzero|tlb|handle_tlb|do_page_fault)', MEM),
]


# The drivers' own work (bench.py's driver-own columns): every function
# of the driver modules (OURS, MAINLINE; not DSA or the tag driver), and
# the kernel work a frame engine driver directly causes, which in the
# bench's windows nothing else does:
# - DMA mapping and syncing, and the cache maintenance it does on this
#   non-coherent SoC (L1 and the MT7621's L2);
# - the RX ring's buffers: page_pool, the page allocator, the page
#   fragments of small skbs, building or allocating an RX skb, memcpy
#   (copying a small frame out of its ring buffer; the stack's own
#   memcpy calls count too, the same for both sets);
# - freeing what TX completion frees through the calls only drivers make
#   (napi_consume_skb, dev_kfree_skb_*);
# - net DIM (interrupt moderation).
# Not counted, as shared with the stack (a flat profile cannot tell who
# called them): the skb core under the calls above (__build_skb_around,
# skb_release_data, kfree_skbmem, kmem_cache_alloc/free: the UDP socket
# allocates and frees its skbs through them too) and NAPI's own
# functions (napi_schedule_prep, __napi_schedule, napi_complete_done:
# DSA's gro_cells on the user port run them once more for every poll of
# the conduit's). Nor the generic interrupt path before the driver's
# handler (exception entry, irq chip, irq descriptors; shared with the
# timer), what the driver hands a frame to (GRO, netif_receive_skb, the
# XDP program itself) or anything else the stack does.
DRIVER_OBJECTS = ('kernel/dma/', 'arch/mips/mm/dma-noncoherent.o',
                  'net/core/page_pool.o', 'lib/dim/', 'mm/page_alloc.o',
                  'mm/page_frag_cache.o')
DRIVER_NAMES = re.compile(
    r'^(dma_|__dma_|arch_sync_dma|r4k_dma_cache|mips_sc_(wback_inv|inv)$|'
    r'blast_\w*range|page_pool|__page_pool|napi_pp_put_page|skb_pp_|'
    r'(__)?napi_alloc_skb|(__)?napi_build_skb|(__)?build_skb|'
    r'napi_skb_cache_(get|put)|(__)?napi_alloc_frag|'
    r'(__)?page_frag_(alloc|cache_refill|free)|memcpy$|'
    r'napi_consume_skb|__napi_kfree_skb|dev_kfree_skb_(any|irq)_reason|'
    r'net_dim|dim_)')


def _addr(s):
    return int(s, 16) & 0xffffffff


# Section markers, not functions: never the name of an address
MARKER = re.compile(r'^(_+\w*_(start|end)|_s?e?text|_sinittext|'
                    r'_einittext)$')


def kernel_symbols(path=SYSTEM_MAP):
    """Built-in text symbols: [(address, name)], sorted, one an address
    (the first System.map names there)."""
    syms = {}
    with open(path) as f:
        for line in f:
            a, t, name = line.split()[:3]
            if t in 'tTwW' and not MARKER.match(name):
                syms.setdefault(_addr(a), name)
    return sorted(syms.items())


def object_map(variant='main'):
    """{symbol name: object file} of kernel build @variant's built-in
    code, or {} if the object tree is not the one System.map describes."""
    omap = {}
    obj_dir = kernel_obj(variant)
    ref = os.path.join(obj_dir, 'System.map')
    if not os.path.exists(ref) or not filecmp.cmp(ref, system_map(variant),
                                                   False):
        return omap
    archives = [os.path.join(obj_dir, p) for p in (
        'vmlinux.a', 'lib/lib.a', 'arch/mips/lib/lib.a')]
    for a in archives:
        if not os.path.exists(a):
            continue
        out = subprocess.run(['mipsel-linux-gnu-nm', '-A', '--defined-only',
                              a], capture_output=True, text=True).stdout
        for line in out.splitlines():
            m = re.match(r'[^:]*:([^:]*):\S+ [tTwW] (\S+)$', line)
            if m:
                obj = m.group(1)
                if os.path.isabs(obj):
                    obj = os.path.relpath(obj, obj_dir)
                omap.setdefault(m.group(2), obj)
    return omap


def group_of(name, module, omap):
    if name == '[user]':
        return SYS
    if module:
        return MODULE_GROUP.get(module, OTHER)
    obj = omap.get(name) or omap.get(name.split('.')[0])
    if obj:
        for prefix, g in OBJECT_GROUP:
            if obj.startswith(prefix):
                return g
        return OTHER
    for pat, g in NAME_GROUP:
        if re.match(pat, name):
            return g
    return OTHER


def driver_own(funcs, omap):
    """The driver's own instructions in @funcs (Run.functions()):
    (in its modules, in the kernel work it causes: DRIVER_NAMES,
    DRIVER_OBJECTS)."""
    modules = kernel = 0
    for (name, module), (insns, _, _) in funcs.items():
        if module:
            if MODULE_GROUP.get(module) in (OURS, MAINLINE):
                modules += insns
            continue
        if name.startswith('['):
            continue
        obj = omap.get(name) or omap.get(name.split('.')[0]) or ''
        if obj.startswith(DRIVER_OBJECTS) or DRIVER_NAMES.match(name):
            kernel += insns
    return modules, kernel


class Run:
    """One driver set's row: the TB counts and what they are divided by."""

    def __init__(self, driver_set, counts, kallsyms, frames, sent, usecs):
        self.set = driver_set
        self.counts = counts
        self.kallsyms = kallsyms or []
        self.frames = frames
        self.sent = sent
        self.usecs = usecs

    def symbols(self, ksyms):
        """All text symbols, built-in and this guest's modules: sorted
        [(address, name, module)]; and the check lines that disagree
        with System.map."""
        syms = [(a, n, None) for a, n in ksyms]
        by_name = {n: a for a, n in ksyms}
        bad = []
        for line in self.kallsyms:
            m = re.match(r'([0-9a-f]+) [tTwW] (\S+)(?:\s+\[(\S+)\])?$',
                         line.strip())
            if not m:
                continue
            a, name, module = _addr(m.group(1)), m.group(2), m.group(3)
            if module and not MARKER.match(name):
                syms.append((a, name, module))
            elif by_name.get(name) != a:
                bad.append(line.strip())
        syms.sort()
        return syms, bad

    def functions(self, ksyms):
        """{(name, module): [insns, calls, tbs]} over the window."""
        syms, self.bad = self.symbols(ksyms)
        addrs = [s[0] for s in syms]
        funcs = collections.defaultdict(lambda: [0, 0, 0])
        self.total = 0
        for vaddr, (insns, execs) in self.counts.items():
            self.total += insns
            if vaddr < KSEG0:
                key, entry = ('[user]', None), False
            else:
                i = bisect.bisect_right(addrs, vaddr) - 1
                if i < 0:
                    key, entry = ('[below _text: exception vectors]',
                                  None), False
                else:
                    key, entry = syms[i][1:], syms[i][0] == vaddr
            f = funcs[key]
            f[0] += insns
            f[1] += execs if entry else 0
            f[2] += execs
        return funcs


def fmt(v):
    return '%.1f' % v if abs(v) < 100 else '%d' % round(v)


def label(key):
    name, module = key
    return '%s [%s]' % (name, module) if module else name


def report(row, runs, sets, ksyms, variant='main'):
    """The profile's lines (@ksyms: kernel build @variant's)."""
    omap = object_map(variant)
    funcs = {s: runs[s].functions(ksyms) for s in runs}
    lines = ['# make bench PROFILE=%s: instructions per frame by kernel '
             'function (TB start address -> function), mainline vs ours'
             % row]
    for s in sets:
        r = runs.get(s)
        if not r:
            lines.append('# %s: no profile' % s)
            continue
        lines.append('# %s: %d frames received of %d sent, window %.2f s, '
                     '%d instructions profiled: %s per frame%s'
                     % (s, r.frames, r.sent, r.usecs / 1e6, r.total,
                        fmt(r.total / r.frames),
                        '; kallsyms disagrees with System.map: %s'
                        % r.bad[:3] if r.bad else ''))
        if r.frames < 0.95 * r.sent:
            lines.append('# %s: WARNING: %d of %d frames lost: the work '
                         'on the lost ones is in the per-frame numbers (a '
                         'host too busy for the rate?)'
                         % (s, r.sent - r.frames, r.sent))
    if not omap:
        lines.append('# groups by name (no object tree matching System.map '
                     'in %s)' % kernel_obj(variant))

    def per_frame(s, key, i=0):
        r = runs.get(s)
        if not r or not r.frames:
            return 0.0
        return funcs[s].get(key, (0, 0, 0))[i] / r.frames

    keys = set()
    for s in funcs:
        keys |= set(funcs[s])
    m, o = sets
    ranked = sorted(keys, key=lambda k: -max(per_frame(m, k),
                                              per_frame(o, k)))
    width = max([len(label(k)) for k in ranked[:TOP_N]] + [8])
    head = '%-*s %-8s %9s %9s %9s %8s %8s' % (
        width, 'function', 'group', m, o, 'diff', 'calls/m', 'calls/o')
    lines += ['', '# top %d functions: instructions per frame, diff = %s - '
              '%s; calls: entries per frame' % (TOP_N, o, m), head]
    for k in ranked[:TOP_N]:
        vm, vo = per_frame(m, k), per_frame(o, k)
        lines.append('%-*s %-8s %9s %9s %9s %8.3f %8.3f' % (
            width, label(k), SHORT[group_of(k[0], k[1], omap)], fmt(vm),
            fmt(vo), fmt(vo - vm), per_frame(m, k, 1), per_frame(o, k, 1)))
    rest = ranked[TOP_N:]
    rm = sum(per_frame(m, k) for k in rest)
    ro = sum(per_frame(o, k) for k in rest)
    lines.append('%-*s %-8s %9s %9s %9s' % (
        width, '(%d more)' % len(rest), '', fmt(rm), fmt(ro), fmt(ro - rm)))

    diffs = sorted(keys, key=lambda k: -abs(per_frame(o, k) -
                                             per_frame(m, k)))
    lines += ['', '# largest differences (%s - %s), instructions per frame'
              % (o, m), head]
    for k in diffs[:25]:
        vm, vo = per_frame(m, k), per_frame(o, k)
        lines.append('%-*s %-8s %9s %9s %9s %8.3f %8.3f' % (
            width, label(k)[:width], SHORT[group_of(k[0], k[1], omap)],
            fmt(vm), fmt(vo), fmt(vo - vm), per_frame(m, k, 1),
            per_frame(o, k, 1)))

    lines += ['', '# groups: instructions per frame',
              '%-34s %9s %9s %9s' % ('group', m, o, 'diff')]
    tot = {m: 0.0, o: 0.0}
    for g in GROUPS:
        v = {}
        for s in (m, o):
            v[s] = sum(per_frame(s, k) for k in keys
                       if group_of(k[0], k[1], omap) == g)
            tot[s] += v[s]
        lines.append('%-34s %9s %9s %9s' % (g, fmt(v[m]), fmt(v[o]),
                                            fmt(v[o] - v[m])))
    lines.append('%-34s %9s %9s %9s' % ('total', fmt(tot[m]), fmt(tot[o]),
                                        fmt(tot[o] - tot[m])))

    # Every driver function, and the entry points that tell how often
    # the path runs: interrupts, softirqs, NAPI polls.
    lines += ['', '# driver modules (all their functions) and per-frame '
              'path entries: instructions / calls per frame']
    entry_names = ('do_IRQ', 'handle_int', 'plat_irq_dispatch',
                   '__do_softirq', 'net_rx_action', '__napi_poll',
                   'napi_complete_done', '__napi_schedule',
                   'napi_schedule_prep', 'netif_receive_skb_list_internal',
                   '__netif_receive_skb_list_core', 'napi_gro_receive',
                   'dsa_switch_rcv', 'mtk_tag_rcv', 'mtk_tag_xmit',
                   'dsa_user_xmit', 'dsa_slave_xmit', 'schedule',
                   'dev_hard_start_xmit', 'udp_recvmsg', 'udp_sendmsg')
    drv = [k for k in keys if k[1] in MODULE_GROUP and
           MODULE_GROUP[k[1]] in (OURS, MAINLINE, DSA)]
    drv += [k for k in keys if not k[1] and k[0] in entry_names]
    drv.sort(key=lambda k: (GROUPS.index(group_of(k[0], k[1], omap)),
                            -max(per_frame(m, k), per_frame(o, k))))
    width = max([len(label(k)) for k in drv] + [8])
    lines.append('%-*s %9s %9s %8s %8s' % (width, 'function', m, o,
                                           'calls/m', 'calls/o'))
    for k in drv:
        lines.append('%-*s %9s %9s %8.3f %8.3f' % (
            width, label(k), fmt(per_frame(m, k)), fmt(per_frame(o, k)),
            per_frame(m, k, 1), per_frame(o, k, 1)))
    return lines
