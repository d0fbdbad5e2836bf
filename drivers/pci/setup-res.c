/*
 * drivers/pci/setup-res.c: give an address to each BAR the firmware left
 * empty.
 *
 * A PC's firmware usually places every device's BARs before the kernel
 * starts (SeaBIOS does, and make run boots SeaBIOS). A firmware made only
 * to start a kernel fast places none: qboot, which the test harness boots
 * because QEMU starts it in a fraction of SeaBIOS's time, leaves every BAR
 * at 0 and sets only the interrupt routing. Then the kernel must choose the
 * addresses itself, as Linux does (pci_assign_unassigned_resources).
 *
 * Roadmap:
 *   pci_windows      where BARs may go: memory between the top of what the
 *                    memory map describes below 4 GiB and the I/O APIC at
 *                    0xfec00000 (the chipset's own registers lie above);
 *                    I/O ports 0xc000-0xffff (below is the ISA devices')
 *   pci_conflict     the assigned BAR, of any device, that a range overlaps
 *   pci_find_space   the highest free range of a BAR's size, aligned to its
 *                    size (the PCI rule: a BAR's low bits are its size)
 *   pci_assign_resource  write the address into the BAR (both halves of a
 *                    64-bit one) with the device's decoding off meanwhile
 *
 * Only bus 0: a device behind a bridge can only be reached through the
 * bridge's windows, which such a firmware does not open either; pagelab
 * says so and leaves it. QEMU's pc machine puts every device on bus 0.
 */
#include "pci.h"
#include <kernel/bootinfo.h>
#include <kernel/printk.h>

#define PCI_MEM_LIMIT 0xfec00000ul	/* the I/O APIC, HPET, LAPIC, ROM */
#define PCI_IO_START 0xc000ul
#define PCI_IO_LIMIT 0x10000ul

/* The memory window starts above every region the firmware's memory map
 * names below the limit, RAM or reserved: those addresses are taken. */
struct pci_window pci_mem_window(void)
{
	struct pci_window w = { 0x100000, PCI_MEM_LIMIT };

	for (int i = 0; i < boot_info.nr_regions; i++) {
		const struct boot_region *r = &boot_info.regions[i];

		if (r->base < PCI_MEM_LIMIT && r->base + r->size > w.lo)
			w.lo = r->base + r->size;
	}
	return w;
}

static struct pci_resource *pci_conflict(bool io, u64 start, u64 size)
{
	struct pci_dev *d;

	list_for_each_entry(d, &pci_devices, bus_list) {
		for (int i = 0; i < PCI_NUM_RESOURCES; i++) {
			struct pci_resource *r = &d->resource[i];

			if (r->size && r->start && r->io == io &&
			    start < r->start + r->size &&
			    r->start < start + size)
				return r;
		}
	}
	return NULL;
}

/* Top down, as SeaBIOS does: the BARs end up just below the limit, where
 * a student who has read a Linux boot log expects them. 0: no room. */
static u64 pci_find_space(struct pci_window w, bool io, u64 size)
{
	u64 top = w.hi;

	while (top > w.lo && top - w.lo >= size) {
		u64 start = (top - size) & ~(size - 1);
		struct pci_resource *busy;

		if (start < w.lo)
			return 0;
		busy = pci_conflict(io, start, size);
		if (!busy)
			return start;
		top = busy->start;
	}
	return 0;
}

static void pci_assign_resource(struct pci_dev *d, int bar, u64 start)
{
	struct pci_resource *r = &d->resource[bar];
	int reg = PCI_BASE_ADDRESS_0 + 4 * bar;
	u16 cmd = pci_read_config_word(d, PCI_COMMAND);
	u32 flags = pci_read_config_dword(d, reg) & (r->io ? 3u : 0xfu);

	pci_write_config_word(d, PCI_COMMAND,
			      cmd & ~(PCI_COMMAND_IO | PCI_COMMAND_MEMORY));
	pci_write_config_dword(d, reg, (u32)start | flags);
	if (r->mem64)
		pci_write_config_dword(d, reg + 4, start >> 32);
	pci_write_config_word(d, PCI_COMMAND, cmd);
	r->start = start;
	pr_info("pci %02x:%02x.%d: BAR %d [%s %#lx-%#lx%s%s]: assigned\n",
		d->bus, PCI_SLOT(d->devfn), PCI_FUNC(d->devfn), bar,
		r->io ? "io" : "mem", start, start + r->size - 1,
		r->mem64 ? " 64bit" : "", r->prefetch ? " pref" : "");
}

static void pci_assign_device(struct pci_dev *d, struct pci_window mem,
			      struct pci_window io)
{
	for (int i = 0; i < PCI_NUM_RESOURCES; i++) {
		struct pci_resource *r = &d->resource[i];
		u64 start;

		if (!r->size || r->start)
			continue;
		if (d->bus != 0) {
			pr_warn("pci %02x:%02x.%d: BAR %d left unassigned: "
				"the bridge above it has no window\n", d->bus,
				PCI_SLOT(d->devfn), PCI_FUNC(d->devfn), i);
			continue;
		}
		start = pci_find_space(r->io ? io : mem, r->io, r->size);
		if (!start) {
			pr_err("pci %02x:%02x.%d: BAR %d: no room for %#lx "
			       "bytes\n", d->bus, PCI_SLOT(d->devfn),
			       PCI_FUNC(d->devfn), i, r->size);
			continue;
		}
		pci_assign_resource(d, i, start);
	}
}

/* After the scan, before any driver probes. */
void pci_assign_unassigned_resources(void)
{
	struct pci_window mem = pci_mem_window();
	struct pci_window io = { PCI_IO_START, PCI_IO_LIMIT };
	struct pci_dev *d;

	list_for_each_entry(d, &pci_devices, bus_list)
		pci_assign_device(d, mem, io);
}
