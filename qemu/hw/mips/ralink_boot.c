/*
 * Ralink/MediaTek boards: starting Linux or a bootloader from -kernel,
 * and the switch's front ports on the command line's NICs
 *
 * Linux is booted directly: -kernel takes a vmlinux ELF, -dtb the board's
 * device tree, handed over by the UHI convention (a0 = -2, a1 = DTB);
 * -initrd and -append go to Linux in the DT's /chosen node. Without -dtb
 * the ELF is started as the vendor U-Boot starts a second bootloader it
 * loaded into RAM (U-Boot proper, which carries its own device tree).
 * The boards write the instructions that jump to it (their boot ROMs).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/units.h"
#include "elf.h"
#include "hw/boards.h"
#include "hw/loader.h"
#include "hw/qdev-properties.h"
#include "net/net.h"
#include "hw/mips/ralink_boot.h"
#include "sysemu/device_tree.h"
#include "target/mips/cpu.h"

#include <libfdt.h>

uint64_t ralink_load_kernel(MachineState *machine, hwaddr initrd_limit,
                            hwaddr *dtb_paddr)
{
    uint64_t kernel_entry, kernel_high;
    g_autofree void *fdt = NULL;
    hwaddr initrd_paddr = 0;
    ssize_t initrd_size = 0;
    const char *board = MACHINE_GET_CLASS(machine)->name;
    int fdt_size, err;

    if (!machine->kernel_filename) {
        error_report("%s: -kernel is required (a vmlinux with -dtb, or an "
                     "ELF of U-Boot proper)", board);
        exit(1);
    }
    if (load_elf(machine->kernel_filename, NULL, cpu_mips_kseg0_to_phys, NULL,
                 &kernel_entry, NULL, &kernel_high, NULL, 0, EM_MIPS, 1,
                 0) < 0) {
        error_report("%s: unable to load kernel ELF '%s'", board,
                     machine->kernel_filename);
        exit(1);
    }

    *dtb_paddr = 0;
    if (!machine->dtb) {
        if (machine->initrd_filename ||
            (machine->kernel_cmdline && *machine->kernel_cmdline)) {
            error_report("%s: -initrd and -append go to Linux in the "
                         "device tree: give -dtb (the board's, from the "
                         "kernel tree)", board);
            exit(1);
        }
        return kernel_entry;
    }
    fdt = load_device_tree(machine->dtb, &fdt_size);
    if (!fdt) {
        error_report("%s: unable to load device tree '%s'", board,
                     machine->dtb);
        exit(1);
    }

    *dtb_paddr = QEMU_ALIGN_UP(kernel_high, 64 * KiB);

    if (machine->initrd_filename) {
        initrd_paddr = QEMU_ALIGN_UP(*dtb_paddr + fdt_size, 64 * KiB);
        initrd_size = load_image_targphys(machine->initrd_filename,
                                          initrd_paddr,
                                          initrd_limit - initrd_paddr);
        if (initrd_size < 0) {
            error_report("%s: unable to load initrd '%s'", board,
                         machine->initrd_filename);
            exit(1);
        }
    }

    err = fdt_path_offset(fdt, "/chosen");
    if (err < 0) {
        err = fdt_add_subnode(fdt, 0, "chosen");
    }
    if (err < 0) {
        error_report("%s: cannot add /chosen to the device tree: %s", board,
                     fdt_strerror(err));
        exit(1);
    }
    if (machine->kernel_cmdline && *machine->kernel_cmdline) {
        qemu_fdt_setprop_string(fdt, "/chosen", "bootargs",
                                machine->kernel_cmdline);
    }
    if (initrd_size > 0) {
        qemu_fdt_setprop_cell(fdt, "/chosen", "linux,initrd-start",
                              initrd_paddr);
        qemu_fdt_setprop_cell(fdt, "/chosen", "linux,initrd-end",
                              initrd_paddr + initrd_size);
    }
    fdt_pack(fdt);
    fdt_size = fdt_totalsize(fdt);
    if (initrd_size > 0 && *dtb_paddr + fdt_size > initrd_paddr) {
        error_report("%s: device tree too large", board);
        exit(1);
    }
    rom_add_blob_fixed("dtb", fdt, fdt_size, *dtb_paddr);

    return kernel_entry;
}

void ralink_connect_ports(DeviceState *sw, int ports, const char *model)
{
    const char *board = MACHINE_GET_CLASS(qdev_get_machine())->name;
    int i;

    for (i = 0; i < nb_nics; i++) {
        NICInfo *nd = &nd_table[i];
        g_autofree char *prop = g_strdup_printf("netdev%d", i);

        if (i >= ports) {
            error_report("%s: the board has %d Ethernet ports; NIC %d has none",
                         board, ports, i);
            exit(1);
        }
        qemu_check_nic_model(nd, model);
        qdev_prop_set_netdev(sw, prop, nd->netdev);
        /* As qdev_set_nic_properties() does: no "was not created" warning */
        nd->instantiated = 1;
    }
}
