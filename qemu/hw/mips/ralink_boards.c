/*
 * Boards with the single-core Ralink/MediaTek SoCs (ralink_soc.c): the
 * VoCore2 (MT7628AN), the Onion Omega2+ (MT7688), Ralink's RT3052 and
 * RT5350 evaluation boards, MediaTek's MT7620A evaluation board, Ralink's
 * RT3883 and RT2880 evaluation boards
 *
 * A board is its SoC and its DRAM (128 MiB of DDR2 on the MT7628 boards,
 * 32 MiB of SDRAM on the RT3052's and RT5350's, 32 MiB of DDR2 on the
 * MT7620A's and the RT3883's, 32 MiB of SDRAM at 0x08000000 on the
 * RT2880's); the memory repeats
 * through the SoC's DRAM window (256 MiB, 64 MiB), because the memory
 * controller ignores the address bits above the chip's size (what Linux's
 * detect_memory_region() and U-Boot's get_ram_size() probe when nothing
 * tells them the size). Boot: as the GnuBee's (ralink_boot.c), with a
 * few instructions at the reset vector that jump to the kernel. The
 * switch's front ports take the command line's NICs in order; on the
 * RT3883's and RT2880's boards, the frame engine's GMAC takes the one.
 *
 * Mainline's DTs for them (arch/mips/boot/dts/ralink/vocore2.dts,
 * omega2p.dts, rt3052_eval.dts, mt7620a_eval.dts, rt3883_eval.dts,
 * rt2880_eval.dts) boot with our fixes to mt7628a.dtsi, rt3050.dtsi,
 * mt7620a.dtsi, rt3883.dtsi and rt2880.dtsi; the RT5350's is ours
 * (kernel/patches).
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
#include "hw/mips/ralink_soc.h"
#include "hw/mips/ralink_boot.h"
#include "hw/qdev-properties.h"

#define TYPE_RALINK_BOARD MACHINE_TYPE_NAME("ralink-board")
OBJECT_DECLARE_TYPE(RalinkBoardState, RalinkBoardClass, RALINK_BOARD)

#define RALINK_BOARD_MIN_RAM    (2 * MiB)
#define RALINK_BOARD_MAX_ALIAS  (256 * MiB / RALINK_BOARD_MIN_RAM)

struct RalinkBoardClass {
    MachineClass parent_class;

    const char *soc;            /* the SoC's "soc" property */
    uint64_t min_ram;           /* the smallest DRAM the SoC takes */
};

struct RalinkBoardState {
    MachineState parent_obj;

    RalinkSocState soc;
    MemoryRegion ddr[RALINK_BOARD_MAX_ALIAS];
};

/* The DRAM, repeated through the SoC's window from @base */
static void ralink_board_map_ram(RalinkBoardState *s, MachineState *machine,
                                 hwaddr base, uint64_t window)
{
    hwaddr addr;
    int i = 0;

    for (addr = 0; addr < window; addr += machine->ram_size) {
        memory_region_init_alias(&s->ddr[i], OBJECT(s), "ralink.ddr",
                                 machine->ram, 0, machine->ram_size);
        memory_region_add_subregion(get_system_memory(), base + addr,
                                    &s->ddr[i++]);
    }
}

static void ralink_board_init(MachineState *machine)
{
    RalinkBoardState *s = RALINK_BOARD(machine);
    RalinkBoardClass *bc = RALINK_BOARD_GET_CLASS(machine);
    uint64_t entry, window = ralink_soc_ddr_window(bc->soc);
    hwaddr ddr = ralink_soc_ddr_base(bc->soc);
    hwaddr dtb_paddr;
    const char *model;
    DeviceState *sw;
    uint32_t *p;
    int ports;

    if (machine->ram_size < bc->min_ram || machine->ram_size > window ||
        !is_power_of_2(machine->ram_size)) {
        error_report("%s: the %s takes %" PRIu64 " to %" PRIu64 " MiB of "
                     "DRAM, a power of 2", MACHINE_GET_CLASS(machine)->name,
                     bc->soc, bc->min_ram / MiB, window / MiB);
        exit(1);
    }
    if (machine->firmware) {
        error_report("%s: -bios is not supported; boot Linux with -kernel "
                     "and -dtb, or U-Boot proper with -kernel",
                     MACHINE_GET_CLASS(machine)->name);
        exit(1);
    }
    ralink_board_map_ram(s, machine, ddr, window);

    object_initialize_child(OBJECT(machine), "soc", &s->soc, TYPE_RALINK_SOC);
    object_property_set_str(OBJECT(&s->soc), "cpu-type", machine->cpu_type,
                            &error_fatal);
    object_property_set_str(OBJECT(&s->soc), "soc", bc->soc, &error_fatal);
    /*
     * The ESW's and the GSW's five front ports, or the RT3883's and
     * RT2880's GMAC; a SoC with none modelled takes no NIC (QEMU warns of
     * those it could not create)
     */
    sw = ralink_soc_ports(&s->soc, &ports, &model);
    if (sw) {
        ralink_connect_ports(sw, ports, model);
    }
    sysbus_realize(SYS_BUS_DEVICE(&s->soc), &error_fatal);

    entry = ralink_load_kernel(machine, ddr + machine->ram_size, &dtb_paddr);
    p = ralink_soc_bootrom_ptr(&s->soc);
    bl_gen_jump_kernel(&p, false, 0, true, dtb_paddr ? (target_ulong)-2 : 0,
                       true, dtb_paddr ?
                             cpu_mips_phys_to_kseg0(NULL, dtb_paddr) : 0,
                       true, 0, true, 0, entry);
}

static void ralink_board_class_init(ObjectClass *oc, void *data)
{
    MachineClass *mc = MACHINE_CLASS(oc);

    mc->init = ralink_board_init;
    mc->default_ram_id = "ralink.ram";
    mc->default_cpu_type = MIPS_CPU_TYPE_NAME("24KEc");
    mc->max_cpus = 1;
}

static void ralink_board_set(ObjectClass *oc, const char *desc,
                             uint64_t ram, const char *soc, uint64_t min_ram)
{
    MACHINE_CLASS(oc)->desc = desc;
    MACHINE_CLASS(oc)->default_ram_size = ram;
    RALINK_BOARD_CLASS(oc)->soc = soc;
    RALINK_BOARD_CLASS(oc)->min_ram = min_ram;
}

/* The MT7628AN/MT7688's own 24KEc configuration (target/mips) */
static void vocore2_class_init(ObjectClass *oc, void *data)
{
    ralink_board_set(oc, "VoCore2 (MediaTek MT7628AN, 128 MiB DDR2)",
                     128 * MiB, "mt7628an", 32 * MiB);
    MACHINE_CLASS(oc)->default_cpu_type = MIPS_CPU_TYPE_NAME("24KEc-mt7628");
}

static void omega2p_class_init(ObjectClass *oc, void *data)
{
    ralink_board_set(oc, "Onion Omega2+ (MediaTek MT7688, 128 MiB DDR2)",
                     128 * MiB, "mt7688", 32 * MiB);
    MACHINE_CLASS(oc)->default_cpu_type = MIPS_CPU_TYPE_NAME("24KEc-mt7628");
}

static void rt5350_eval_class_init(ObjectClass *oc, void *data)
{
    ralink_board_set(oc, "Ralink RT5350 evaluation board (32 MiB SDRAM)",
                     32 * MiB, "rt5350", 2 * MiB);
}

/* The RT3052 takes from RT305X_MEM_SIZE_MIN (arch/mips/ralink/rt305x.c) */
static void rt3052_eval_class_init(ObjectClass *oc, void *data)
{
    ralink_board_set(oc, "Ralink RT3052 evaluation board (32 MiB SDRAM)",
                     32 * MiB, "rt3052", 2 * MiB);
}

/* mt7620a_eval.dts's 32 MiB; the MT7620's DDR2 takes 32 to 256 MiB */
static void mt7620a_eval_class_init(ObjectClass *oc, void *data)
{
    ralink_board_set(oc, "Ralink MT7620A evaluation board (32 MiB DDR2)",
                     32 * MiB, "mt7620a", 32 * MiB);
    MACHINE_CLASS(oc)->default_cpu_type = MIPS_CPU_TYPE_NAME("24KEc-mt7620");
}

/* rt3883_eval.dts's 32 MiB; RT3883_MEM_SIZE_MIN is 2 MiB */
static void rt3883_eval_class_init(ObjectClass *oc, void *data)
{
    ralink_board_set(oc, "Ralink RT3883 evaluation board (32 MiB DDR2)",
                     32 * MiB, "rt3883", 2 * MiB);
    MACHINE_CLASS(oc)->default_cpu_type = MIPS_CPU_TYPE_NAME("74Kc");
}

/* rt2880_eval.dts's 32 MiB; RT2880_MEM_SIZE_MIN is 2 MiB */
static void rt2880_eval_class_init(ObjectClass *oc, void *data)
{
    ralink_board_set(oc, "Ralink RT2880 evaluation board (32 MiB SDRAM)",
                     32 * MiB, "rt2880", 2 * MiB);
    MACHINE_CLASS(oc)->default_cpu_type = MIPS_CPU_TYPE_NAME("4KEc");
}

static const TypeInfo ralink_board_types[] = {
    {
        .name = TYPE_RALINK_BOARD,
        .parent = TYPE_MACHINE,
        .abstract = true,
        .instance_size = sizeof(RalinkBoardState),
        .class_size = sizeof(RalinkBoardClass),
        .class_init = ralink_board_class_init,
    }, {
        .name = MACHINE_TYPE_NAME("vocore2"),
        .parent = TYPE_RALINK_BOARD,
        .class_init = vocore2_class_init,
    }, {
        .name = MACHINE_TYPE_NAME("omega2p"),
        .parent = TYPE_RALINK_BOARD,
        .class_init = omega2p_class_init,
    }, {
        .name = MACHINE_TYPE_NAME("rt3052-eval"),
        .parent = TYPE_RALINK_BOARD,
        .class_init = rt3052_eval_class_init,
    }, {
        .name = MACHINE_TYPE_NAME("rt5350-eval"),
        .parent = TYPE_RALINK_BOARD,
        .class_init = rt5350_eval_class_init,
    }, {
        .name = MACHINE_TYPE_NAME("mt7620a-eval"),
        .parent = TYPE_RALINK_BOARD,
        .class_init = mt7620a_eval_class_init,
    }, {
        .name = MACHINE_TYPE_NAME("rt3883-eval"),
        .parent = TYPE_RALINK_BOARD,
        .class_init = rt3883_eval_class_init,
    }, {
        .name = MACHINE_TYPE_NAME("rt2880-eval"),
        .parent = TYPE_RALINK_BOARD,
        .class_init = rt2880_eval_class_init,
    },
};

DEFINE_TYPES(ralink_board_types)
