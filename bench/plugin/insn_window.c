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

static uint64_t count_kernel;
static uint64_t count_user;
static uint64_t open_kernel;
static uint64_t open_user;
static bool is_open;
static unsigned int windows;
static FILE *out;
static GMutex lock;

static void mark_open(unsigned int vcpu_index, void *udata)
{
    g_mutex_lock(&lock);
    open_kernel = count_kernel;
    open_user = count_user;
    is_open = true;
    g_mutex_unlock(&lock);
}

static void mark_close(unsigned int vcpu_index, void *udata)
{
    g_mutex_lock(&lock);
    if (is_open) {
        fprintf(out, "window %u kernel %" PRIu64 " user %" PRIu64 "\n",
                windows++, count_kernel - open_kernel,
                count_user - open_user);
        fflush(out);
        is_open = false;
    }
    g_mutex_unlock(&lock);
}

static void vcpu_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    uint64_t *counter;
    size_t i;

    counter = qemu_plugin_tb_vaddr(tb) >= KERNEL_BASE ?
              &count_kernel : &count_user;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
                                             counter, n);

    for (i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint32_t word;

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
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info,
                                           int argc, char **argv)
{
    const char *path = NULL;
    int i;

    for (i = 0; i < argc; i++) {
        if (g_str_has_prefix(argv[i], "out=")) {
            path = argv[i] + strlen("out=");
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
    qemu_plugin_register_vcpu_tb_trans_cb(id, vcpu_tb_trans);
    qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
    return 0;
}
