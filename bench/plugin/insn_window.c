// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * insn_window: count the guest instructions executed inside windows the
 * guest opens and closes itself, split into kernel and user.
 *
 * The guest marks a window with two instructions no compiler emits:
 *   ori $zero, $zero, 0x5a01   (0x34005a01)   open
 *   ori $zero, $zero, 0x5a02   (0x34005a02)   close
 * Every translation block adds its instruction count to the kernel
 * counter (TB start at or above 0x80000000, KSEG0 and up) or to the user
 * one, inline. A marker gets an execution callback: open snapshots both
 * counters, close appends "window <n> kernel <k> user <u>" (the
 * differences) to the file named by the argument out=PATH.
 *
 * The inline adds are plain, not atomic: with MTTCG two vCPU threads
 * could lose updates. The bench runs QEMU with -accel tcg,thread=single,
 * where all vCPUs share one thread, so the counts are exact. A TB's
 * count is added when the TB starts, so a window may include up to a
 * TB's worth of instructions around each marker.
 *
 * With profile=PATH, every TB also gets a pair of counters of its own
 * (instructions and executions), shared by all the translations of its
 * start address, added to inline as well. A window's open snapshots all
 * of them; its close writes "window <n>", then "<vaddr> <insns> <execs>"
 * (hex address, the differences) for every TB start address that ran in
 * the window, then "end", to PATH. Without profile= the translation and
 * execution paths are the same as before: two inline adds per TB less.
 *
 * Every load and store of kernel code (TBs at 0x80000000 and up: user
 * space has no uncached mappings here) gets a memory callback, which,
 * while a window is open, counts the uncached ones: those to KSEG1
 * (0xa0000000-0xbfffffff, the unmapped uncached segment, where these
 * SoCs' kernels reach their devices, ioremap() of the low 512 MiB, and
 * the memory dma_alloc_coherent() hands a non-coherent device) and those
 * to device I/O wherever the virtual address is (qemu_plugin_hwaddr_is_io:
 * an ioremap() into mapped space). The close line then goes on with
 * "uncached <loads> <stores> io <loads> <stores> mapped <n> devices":
 * all the uncached accesses, of them those to devices (the rest are
 * uncached RAM: DMA descriptors and the like), the device accesses
 * outside KSEG1 (counted in both), and for each device the window
 * reached, in name order, " <name>=<loads>/<stores>" (its memory
 * region's name, spaces and '=' as '_'). Uncached RAM through mapped
 * space (a TLB entry with an uncached attribute) is not seen: the plugin
 * API has no page attributes; `mapped` tells whether I/O goes through
 * mapped space at all.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MARK_OPEN  0x34005a01u
#define MARK_CLOSE 0x34005a02u
#define KERNEL_BASE 0x80000000ull
#define KSEG1_BASE 0xa0000000ull
#define KSEG1_END 0xc0000000ull

static uint64_t count_kernel;
static uint64_t count_user;
static uint64_t open_kernel;
static uint64_t open_user;
static bool is_open;
/* In the open window: uncached loads and stores, device ones, mapped I/O */
static uint64_t unc_load, unc_store, io_load, io_store, io_mapped;
/* The same, by device: its region's (interned) name: IOCount */
typedef struct {
    const char *name;
    uint64_t loads;
    uint64_t stores;
} IOCount;
static GHashTable *io_counts;
static unsigned int windows;
static FILE *out;
static GMutex lock;

/* Per TB start address, with profile=PATH */
typedef struct {
    uint64_t vaddr;
    uint64_t insns;
    uint64_t execs;
    uint64_t open_insns;
    uint64_t open_execs;
} TBCount;

static FILE *profile;
static GHashTable *tb_counts;

static void snapshot(gpointer key, gpointer value, gpointer udata)
{
    TBCount *c = value;

    c->open_insns = c->insns;
    c->open_execs = c->execs;
}

static void report(gpointer key, gpointer value, gpointer udata)
{
    TBCount *c = value;

    if (c->insns != c->open_insns || c->execs != c->open_execs) {
        fprintf(profile, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n", c->vaddr,
                c->insns - c->open_insns, c->execs - c->open_execs);
    }
}

static TBCount *tb_count(uint64_t vaddr)
{
    TBCount *c;

    g_mutex_lock(&lock);
    c = g_hash_table_lookup(tb_counts, &vaddr);
    if (!c) {
        /* Never freed: translated code keeps pointing at it */
        c = g_new0(TBCount, 1);
        c->vaddr = vaddr;
        g_hash_table_insert(tb_counts, &c->vaddr, c);
    }
    g_mutex_unlock(&lock);
    return c;
}

static void mark_open(unsigned int vcpu_index, void *udata)
{
    g_mutex_lock(&lock);
    open_kernel = count_kernel;
    open_user = count_user;
    unc_load = unc_store = io_load = io_store = io_mapped = 0;
    g_hash_table_remove_all(io_counts);
    is_open = true;
    if (profile) {
        g_hash_table_foreach(tb_counts, snapshot, NULL);
    }
    g_mutex_unlock(&lock);
}

static gint by_name(gconstpointer a, gconstpointer b)
{
    const IOCount *x = *(IOCount * const *)a;
    const IOCount *y = *(IOCount * const *)b;

    return strcmp(x->name, y->name);
}

/* " <name>=<loads>/<stores>" of each device the window reached */
static void print_devices(void)
{
    GPtrArray *all = g_ptr_array_new();
    GHashTableIter it;
    gpointer value;
    guint i;

    g_hash_table_iter_init(&it, io_counts);
    while (g_hash_table_iter_next(&it, NULL, &value)) {
        g_ptr_array_add(all, value);
    }
    g_ptr_array_sort(all, by_name);
    for (i = 0; i < all->len; i++) {
        IOCount *c = g_ptr_array_index(all, i);
        const char *p;

        fputc(' ', out);
        for (p = c->name; *p; p++) {
            fputc(*p == ' ' || *p == '=' ? '_' : *p, out);
        }
        fprintf(out, "=%" PRIu64 "/%" PRIu64, c->loads, c->stores);
    }
    g_ptr_array_free(all, true);
}

static void mark_close(unsigned int vcpu_index, void *udata)
{
    g_mutex_lock(&lock);
    if (is_open) {
        fprintf(out, "window %u kernel %" PRIu64 " user %" PRIu64
                " uncached %" PRIu64 " %" PRIu64 " io %" PRIu64 " %" PRIu64
                " mapped %" PRIu64 " devices",
                windows++, count_kernel - open_kernel,
                count_user - open_user, unc_load, unc_store, io_load,
                io_store, io_mapped);
        print_devices();
        fputc('\n', out);
        fflush(out);
        if (profile) {
            fprintf(profile, "window %u\n", windows - 1);
            g_hash_table_foreach(tb_counts, report, NULL);
            fprintf(profile, "end\n");
            fflush(profile);
        }
        is_open = false;
    }
    g_mutex_unlock(&lock);
}

/*
 * A kernel load or store. Under -accel tcg,thread=single every vCPU runs
 * on the thread that also runs the markers' callbacks: no lock.
 */
static void vcpu_mem(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
                     uint64_t vaddr, void *udata)
{
    struct qemu_plugin_hwaddr *hw;
    bool store, kseg1, io;

    if (!is_open) {
        return;
    }
    store = qemu_plugin_mem_is_store(info);
    kseg1 = vaddr >= KSEG1_BASE && vaddr < KSEG1_END;
    hw = qemu_plugin_get_hwaddr(info, vaddr);
    io = hw && qemu_plugin_hwaddr_is_io(hw);
    if (!kseg1 && !io) {
        return;
    }
    if (store) {
        unc_store++;
        io_store += io;
    } else {
        unc_load++;
        io_load += io;
    }
    if (io) {
        const char *name = qemu_plugin_hwaddr_device_name(hw);
        IOCount *c = g_hash_table_lookup(io_counts, name);

        if (!c) {
            c = g_new0(IOCount, 1);
            c->name = name;
            g_hash_table_insert(io_counts, (gpointer)name, c);
        }
        if (store) {
            c->stores++;
        } else {
            c->loads++;
        }
        io_mapped += !kseg1;
    }
}

static void vcpu_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    bool kernel = qemu_plugin_tb_vaddr(tb) >= KERNEL_BASE;
    uint64_t *counter;
    size_t i;

    counter = kernel ? &count_kernel : &count_user;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
                                             counter, n);
    if (profile) {
        TBCount *c = tb_count(qemu_plugin_tb_vaddr(tb));

        qemu_plugin_register_vcpu_tb_exec_inline(tb,
                                                 QEMU_PLUGIN_INLINE_ADD_U64,
                                                 &c->insns, n);
        qemu_plugin_register_vcpu_tb_exec_inline(tb,
                                                 QEMU_PLUGIN_INLINE_ADD_U64,
                                                 &c->execs, 1);
    }

    for (i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint32_t word;

        if (kernel) {
            qemu_plugin_register_vcpu_mem_cb(insn, vcpu_mem,
                                             QEMU_PLUGIN_CB_NO_REGS,
                                             QEMU_PLUGIN_MEM_RW, NULL);
        }
        if (qemu_plugin_insn_size(insn) != sizeof(word)) {
            continue;
        }
        /* The guest is little-endian (mipsel), so is the host. */
        memcpy(&word, qemu_plugin_insn_data(insn), sizeof(word));
        if (word == MARK_OPEN) {
            qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_open,
                                                   QEMU_PLUGIN_CB_NO_REGS,
                                                   NULL);
        } else if (word == MARK_CLOSE) {
            qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_close,
                                                   QEMU_PLUGIN_CB_NO_REGS,
                                                   NULL);
        }
    }
}

static void plugin_exit(qemu_plugin_id_t id, void *udata)
{
    if (out) {
        fclose(out);
        out = NULL;
    }
    if (profile) {
        fclose(profile);
        profile = NULL;
    }
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info,
                                           int argc, char **argv)
{
    const char *path = NULL;
    const char *profile_path = NULL;
    int i;

    for (i = 0; i < argc; i++) {
        if (g_str_has_prefix(argv[i], "out=")) {
            path = argv[i] + strlen("out=");
        } else if (g_str_has_prefix(argv[i], "profile=")) {
            profile_path = argv[i] + strlen("profile=");
        } else {
            fprintf(stderr, "insn_window: unknown argument %s\n", argv[i]);
            return -1;
        }
    }
    if (!path) {
        fprintf(stderr, "insn_window: needs out=PATH\n");
        return -1;
    }
    out = fopen(path, "w");
    if (!out) {
        perror(path);
        return -1;
    }
    if (profile_path) {
        profile = fopen(profile_path, "w");
        if (!profile) {
            perror(profile_path);
            return -1;
        }
        tb_counts = g_hash_table_new(g_int64_hash, g_int64_equal);
    }
    io_counts = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
                                      g_free);
    qemu_plugin_register_vcpu_tb_trans_cb(id, vcpu_tb_trans);
    qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
    return 0;
}
