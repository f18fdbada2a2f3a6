/*
 * GnuBee GB-PC1 and GB-PC2 NAS boards (MediaTek MT7621)
 *
 * The boards are the SoC and its DDR3: 512 MiB, of which the first 448 MiB
 * appear at 0 and the last 64 MiB at 0x20000000, above the I/O window.
 * Smaller memories repeat through the low window, because the DDR
 * controller ignores address bits above the chip size; that is what
 * mt7621_memory_detect() in Linux probes for when a DT has no memory node.
 *
 * Linux is booted directly, or U-Boot proper without -dtb (ralink_boot.c).
 * A few instructions in the boot flash window leave the Coherence
 * Manager as the vendor U-Boot does before jumping to the kernel.
 *
 * The switch's front ports 0-4 (the GB-PC1's "ethblack" is port 0,
 * "ethblue" port 4) take their network backends from -nic or -net nic, in
 * order: the first NIC option is port 0. For example, a cable between
 * ports 0 and 1 is a QEMU hub with two ports:
 *   -netdev hubport,id=p0,hubid=1 -netdev hubport,id=p1,hubid=1
 *   -net nic,netdev=p0 -net nic,netdev=p1
 * Ports without a backend have no link.
 *
 * The MT7621 cannot power itself off; a guest that resets the system
 * through the sysctl ends QEMU when it runs with -no-reboot.
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
#include "hw/mips/mips.h"
#include "hw/mips/mt7621.h"
#include "hw/mips/ralink_boot.h"
#include "hw/qdev-properties.h"
#include "net/net.h"
#include "sysemu/reset.h"
#include "sysemu/sysemu.h"

#define TYPE_GNUBEE_MACHINE MACHINE_TYPE_NAME("gnubee")
OBJECT_DECLARE_SIMPLE_TYPE(GnubeeMachineState, GNUBEE_MACHINE)

struct GnubeeMachineState {
    MachineState parent_obj;

    MT7621State soc;
    MemoryRegion lowmem[MT7621_LOWMEM_MAX_SIZE / (32 * MiB)];
    MemoryRegion highmem;
};


/*
 * What the vendor U-Boot leaves behind, then the kernel's entry: every
 * core may access the GCRs, the GIC and CPC register blocks are enabled
 * at their usual addresses, CM region 0 routes the I/O window (64 MiB) and
 * region 1 the PCIe memory window (256 MiB) to IOCU0, regions 2 and 3
 * duplicate region 0. Then UHI arguments for the kernel, or none without
 * a DTB.
 */
static void gnubee_write_bootstub(MT7621State *soc, uint64_t kernel_entry,
                                  hwaddr dtb_paddr)
{
    static const struct {
        uint32_t base, size;
    } regions[GCR_NUM_REGIONS] = {
        { MT7621_IOCU_WINDOW, MT7621_IOCU_WINDOW_SIZE },
        { MT7621_PCIE_MEM_BASE, MT7621_PCIE_MEM_SIZE },
        { MT7621_IOCU_WINDOW, MT7621_IOCU_WINDOW_SIZE },
        { MT7621_IOCU_WINDOW, MT7621_IOCU_WINDOW_SIZE },
    };
    uint32_t *p = mt7621_bootrom_ptr(soc);
    int i;

#define GCR(ofs) cpu_mips_phys_to_kseg1(NULL, MT7621_GCR_BASE + (ofs))
    bl_gen_write_u32(&p, GCR(GCR_ACCESS_OFS), (1 << soc->num_cores) - 1);
    bl_gen_write_u32(&p, GCR(GCR_GIC_BASE_OFS),
                     MT7621_GIC_BASE | GCR_GIC_BASE_GICEN_MSK);
    bl_gen_write_u32(&p, GCR(GCR_CPC_BASE_OFS),
                     MT7621_CPC_BASE | GCR_CPC_BASE_CPCEN_MSK);
    for (i = 0; i < GCR_NUM_REGIONS; i++) {
        bl_gen_write_u32(&p, GCR(GCR_REG0_BASE_OFS + i * GCR_REG_STRIDE),
                         regions[i].base);
        bl_gen_write_u32(&p, GCR(GCR_REG0_MASK_OFS + i * GCR_REG_STRIDE),
                         ~(regions[i].size - 1) | GCR_REGn_MASK_CMTGT_IOCU0);
    }
#undef GCR
    bl_gen_jump_kernel(&p, false, 0, true, dtb_paddr ? (target_ulong)-2 : 0,
                       true, dtb_paddr ?
                             cpu_mips_phys_to_kseg0(NULL, dtb_paddr) : 0,
                       true, 0, true, 0, kernel_entry);
}

/* DDR: repeats through the low window, the rest above the I/O window */
static void gnubee_map_ram(GnubeeMachineState *s, MachineState *machine)
{
    MemoryRegion *sysmem = get_system_memory();
    uint64_t low = MIN(machine->ram_size, MT7621_LOWMEM_MAX_SIZE);
    hwaddr addr;
    int i = 0;

    for (addr = 0; addr < MT7621_LOWMEM_MAX_SIZE; addr += machine->ram_size) {
        memory_region_init_alias(&s->lowmem[i], OBJECT(s), "gnubee.lowmem",
                                 machine->ram, 0,
                                 MIN(low, MT7621_LOWMEM_MAX_SIZE - addr));
        memory_region_add_subregion(sysmem, MT7621_LOWMEM_BASE + addr,
                                    &s->lowmem[i++]);
    }
    if (machine->ram_size > MT7621_LOWMEM_MAX_SIZE) {
        memory_region_init_alias(&s->highmem, OBJECT(s), "gnubee.highmem",
                                 machine->ram, MT7621_LOWMEM_MAX_SIZE,
                                 machine->ram_size - MT7621_LOWMEM_MAX_SIZE);
        memory_region_add_subregion(sysmem, MT7621_HIGHMEM_BASE,
                                    &s->highmem);
    }
}

static void gnubee_init(MachineState *machine)
{
    GnubeeMachineState *s = GNUBEE_MACHINE(machine);
    uint64_t kernel_entry;
    hwaddr dtb_paddr;

    if (machine->ram_size < 32 * MiB || machine->ram_size > 512 * MiB ||
        !is_power_of_2(machine->ram_size)) {
        error_report("gnubee: the MT7621 takes 32, 64, 128, 256 or 512 MiB "
                     "of DDR");
        exit(1);
    }
    if (machine->smp.cpus % MT7621_VPES_PER_CORE) {
        error_report("gnubee: the MT7621's cores have %d VPEs each: use "
                     "-smp 2 (MT7621S) or -smp 4 (MT7621A)",
                     MT7621_VPES_PER_CORE);
        exit(1);
    }

    gnubee_map_ram(s, machine);

    object_initialize_child(OBJECT(machine), "soc", &s->soc, TYPE_MT7621_SOC);
    object_property_set_str(OBJECT(&s->soc), "cpu-type", machine->cpu_type,
                            &error_fatal);
    object_property_set_uint(OBJECT(&s->soc), "num-cores",
                             machine->smp.cpus / MT7621_VPES_PER_CORE,
                             &error_fatal);
    ralink_connect_ports(DEVICE(&s->soc.sw), MT7530_NUM_PHYS, TYPE_MT7530);
    sysbus_realize(SYS_BUS_DEVICE(&s->soc), &error_fatal);

    if (machine->firmware) {
        error_report("gnubee: -bios is not supported; boot Linux with "
                     "-kernel and -dtb, or U-Boot proper with -kernel");
        exit(1);
    }
    kernel_entry = ralink_load_kernel(machine,
                                      MIN(machine->ram_size,
                                          MT7621_LOWMEM_MAX_SIZE),
                                      &dtb_paddr);
    gnubee_write_bootstub(&s->soc, kernel_entry, dtb_paddr);
}

static void gnubee_class_init(ObjectClass *oc, void *data)
{
    MachineClass *mc = MACHINE_CLASS(oc);

    mc->init = gnubee_init;
    mc->default_ram_size = 512 * MiB;
    mc->default_ram_id = "gnubee.ram";
    mc->default_cpu_type = MIPS_CPU_TYPE_NAME("1004Kc");
    mc->min_cpus = MT7621_VPES_PER_CORE;
    mc->max_cpus = 2 * MT7621_VPES_PER_CORE;
    mc->default_cpus = 2 * MT7621_VPES_PER_CORE;
}

static void gnubee_pc1_class_init(ObjectClass *oc, void *data)
{
    MachineClass *mc = MACHINE_CLASS(oc);

    mc->desc = "GnuBee GB-PC1 (MediaTek MT7621A, 2.5\" drives)";
}

static void gnubee_pc2_class_init(ObjectClass *oc, void *data)
{
    MachineClass *mc = MACHINE_CLASS(oc);

    mc->desc = "GnuBee GB-PC2 (MediaTek MT7621A, 3.5\" drives)";
}

static const TypeInfo gnubee_types[] = {
    {
        .name = TYPE_GNUBEE_MACHINE,
        .parent = TYPE_MACHINE,
        .abstract = true,
        .instance_size = sizeof(GnubeeMachineState),
        .class_init = gnubee_class_init,
    }, {
        .name = MACHINE_TYPE_NAME("gnubee-pc1"),
        .parent = TYPE_GNUBEE_MACHINE,
        .class_init = gnubee_pc1_class_init,
    }, {
        .name = MACHINE_TYPE_NAME("gnubee-pc2"),
        .parent = TYPE_GNUBEE_MACHINE,
        .class_init = gnubee_pc2_class_init,
    },
};

DEFINE_TYPES(gnubee_types)
