/*
 * Boards with the MediaTek MT7628AN or MT7688: VoCore2, Onion Omega2+
 *
 * A board is its SoC and its DDR2 (128 MiB on both); the memory repeats
 * through the SoC's 256 MiB DDR window, because the DDR controller
 * ignores the address bits above the chip's size (what Linux's
 * detect_memory_region() and U-Boot's get_ram_size() probe when nothing
 * tells them the size). Boot: as the GnuBee's (ralink_boot.c), with a
 * few instructions at the reset vector that jump to the kernel.
 *
 * Mainline's DTs for them (arch/mips/boot/dts/ralink/vocore2.dts,
 * omega2p.dts) boot with our fixes to mt7628a.dtsi (kernel/patches).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/error-report.h"
#include "qemu/units.h"
#include "exec/address-spaces.h"
#include "hw/boards.h"
#include "hw/mips/bootloader.h"
#include "hw/mips/mt7628.h"
#include "hw/mips/ralink_boot.h"
#include "hw/qdev-properties.h"

#define TYPE_MT7628_BOARD MACHINE_TYPE_NAME("mt7628-board")
OBJECT_DECLARE_TYPE(MT7628BoardState, MT7628BoardClass, MT7628_BOARD)

struct MT7628BoardClass {
    MachineClass parent_class;

    const char *soc;            /* the SoC's "soc" property */
};

struct MT7628BoardState {
    MachineState parent_obj;

    MT7628State soc;
    MemoryRegion ddr[MT7628_DDR_WINDOW / (32 * MiB)];
};

/* The DDR, repeated through the window */
static void mt7628_board_map_ram(MT7628BoardState *s, MachineState *machine)
{
    hwaddr addr;
    int i = 0;

    for (addr = 0; addr < MT7628_DDR_WINDOW; addr += machine->ram_size) {
        memory_region_init_alias(&s->ddr[i], OBJECT(s), "mt7628.ddr",
                                 machine->ram, 0, machine->ram_size);
        memory_region_add_subregion(get_system_memory(), addr, &s->ddr[i++]);
    }
}

static void mt7628_board_init(MachineState *machine)
{
    MT7628BoardState *s = MT7628_BOARD(machine);
    MT7628BoardClass *bc = MT7628_BOARD_GET_CLASS(machine);
    uint64_t entry;
    hwaddr dtb_paddr;
    uint32_t *p;

    if (machine->ram_size < 32 * MiB || machine->ram_size > 256 * MiB ||
        !is_power_of_2(machine->ram_size)) {
        error_report("%s: the MT7628 takes 32, 64, 128 or 256 MiB of DDR",
                     MACHINE_GET_CLASS(machine)->name);
        exit(1);
    }
    if (machine->firmware) {
        error_report("%s: -bios is not supported; boot Linux with -kernel "
                     "and -dtb, or U-Boot proper with -kernel",
                     MACHINE_GET_CLASS(machine)->name);
        exit(1);
    }
    mt7628_board_map_ram(s, machine);

    object_initialize_child(OBJECT(machine), "soc", &s->soc, TYPE_MT7628_SOC);
    object_property_set_str(OBJECT(&s->soc), "cpu-type", machine->cpu_type,
                            &error_fatal);
    object_property_set_str(OBJECT(&s->soc), "soc", bc->soc, &error_fatal);
    ralink_connect_ports(DEVICE(&s->soc.esw), RALINK_ESW_NUM_PHYS,
                         TYPE_RALINK_ESW);
    sysbus_realize(SYS_BUS_DEVICE(&s->soc), &error_fatal);

    entry = ralink_load_kernel(machine, machine->ram_size, &dtb_paddr);
    p = mt7628_bootrom_ptr(&s->soc);
    bl_gen_jump_kernel(&p, false, 0, true, dtb_paddr ? (target_ulong)-2 : 0,
                       true, dtb_paddr ?
                             cpu_mips_phys_to_kseg0(NULL, dtb_paddr) : 0,
                       true, 0, true, 0, entry);
}

static void mt7628_board_class_init(ObjectClass *oc, void *data)
{
    MachineClass *mc = MACHINE_CLASS(oc);

    mc->init = mt7628_board_init;
    mc->default_ram_size = 128 * MiB;
    mc->default_ram_id = "mt7628.ram";
    mc->default_cpu_type = MIPS_CPU_TYPE_NAME("24KEc");
    mc->max_cpus = 1;
}

static void vocore2_class_init(ObjectClass *oc, void *data)
{
    MachineClass *mc = MACHINE_CLASS(oc);

    mc->desc = "VoCore2 (MediaTek MT7628AN, 128 MiB DDR2)";
    MT7628_BOARD_CLASS(oc)->soc = "mt7628an";
}

static void omega2p_class_init(ObjectClass *oc, void *data)
{
    MachineClass *mc = MACHINE_CLASS(oc);

    mc->desc = "Onion Omega2+ (MediaTek MT7688, 128 MiB DDR2)";
    MT7628_BOARD_CLASS(oc)->soc = "mt7688";
}

static const TypeInfo mt7628_board_types[] = {
    {
        .name = TYPE_MT7628_BOARD,
        .parent = TYPE_MACHINE,
        .abstract = true,
        .instance_size = sizeof(MT7628BoardState),
        .class_size = sizeof(MT7628BoardClass),
        .class_init = mt7628_board_class_init,
    }, {
        .name = MACHINE_TYPE_NAME("vocore2"),
        .parent = TYPE_MT7628_BOARD,
        .class_init = vocore2_class_init,
    }, {
        .name = MACHINE_TYPE_NAME("omega2p"),
        .parent = TYPE_MT7628_BOARD,
        .class_init = omega2p_class_init,
    },
};

DEFINE_TYPES(mt7628_board_types)
