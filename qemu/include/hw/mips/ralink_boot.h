/*
 * Ralink/MediaTek boards: starting Linux or a bootloader from -kernel
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_MIPS_RALINK_BOOT_H
#define HW_MIPS_RALINK_BOOT_H

#include "hw/boards.h"

/**
 * ralink_load_kernel: load -kernel's ELF; with -dtb, the DTB after it
 * (-append as /chosen bootargs) and -initrd after the DTB, below
 * @initrd_limit (/chosen linux,initrd-start/end).
 * @machine: the board
 * @dtb_paddr: where the DTB went, 0 without -dtb
 *
 * Returns the ELF's entry point; exits with a message on error (no
 * -kernel, an ELF that does not load, -initrd or -append without -dtb).
 */
uint64_t ralink_load_kernel(MachineState *machine, hwaddr initrd_limit,
                            hwaddr *dtb_paddr);

/**
 * ralink_connect_ports: give the switch @sw's front ports (its properties
 * "netdev0".."netdev<@ports - 1>") the network backends of the command
 * line's NICs (-nic, -net nic), in order: the first NIC is port 0. Ports
 * without a backend have no link. More NICs than ports end QEMU.
 * @model: the NIC model name the command line may give (-nic model=)
 */
void ralink_connect_ports(DeviceState *sw, int ports, const char *model);

#endif /* HW_MIPS_RALINK_BOOT_H */
