/*
 * drivers/pci/pci_test.c: self-test "pci". Whoever placed the BARs (the
 * firmware, or setup-res.c when it did not), every one of them must be
 * usable: a nonzero address that the BAR register really holds, aligned
 * to its size, overlapping no other BAR of the same space, and (memory)
 * clear of everything the memory map names; and every device's interrupt
 * line must be the one the board's router sends its pin to.
 */
#include "pci.h"
#include <kernel/bootinfo.h>
#include <kernel/printk.h>
#include <kernel/selftest.h>

#define pci_fail(d, fmt, ...)                                              \
	selftest_fail("%02x:%02x.%d: " fmt, (d)->bus, PCI_SLOT((d)->devfn), \
		      PCI_FUNC((d)->devfn), ##__VA_ARGS__)

/* The address the BAR register holds now, both halves of a 64-bit one. */
static u64 bar_register(struct pci_dev *d, int bar)
{
	const struct pci_resource *r = &d->resource[bar];
	int reg = PCI_BASE_ADDRESS_0 + 4 * bar;
	u64 v = pci_read_config_dword(d, reg) & (r->io ? ~3u : ~0xfu);

	if (r->mem64)
		v |= (u64)pci_read_config_dword(d, reg + 4) << 32;
	return v;
}

static bool in_memory_map(u64 start, u64 size)
{
	for (int i = 0; i < boot_info.nr_regions; i++) {
		const struct boot_region *m = &boot_info.regions[i];

		if (start < m->base + m->size && m->base < start + size)
			return true;
	}
	return false;
}

/* Another BAR of the same space that overlaps d's BAR `bar`, or NULL. */
static struct pci_dev *overlapping(struct pci_dev *d, int bar)
{
	const struct pci_resource *r = &d->resource[bar];
	struct pci_dev *o;

	list_for_each_entry(o, &pci_devices, bus_list)
		for (int i = 0; i < PCI_NUM_RESOURCES; i++) {
			const struct pci_resource *q = &o->resource[i];

			if ((o == d && i == bar) || !q->size || q->io != r->io)
				continue;
			if (r->start < q->start + q->size &&
			    q->start < r->start + r->size)
				return o;
		}
	return NULL;
}

static int check_bar(struct pci_dev *d, int bar)
{
	const struct pci_resource *r = &d->resource[bar];
	struct pci_dev *o;

	if (!r->start)
		return pci_fail(d, "BAR %d (%#lx bytes) has no address", bar,
				r->size);
	if (bar_register(d, bar) != r->start)
		return pci_fail(d, "BAR %d holds %#lx, the kernel thinks %#lx",
				bar, bar_register(d, bar), r->start);
	if (r->start & (r->size - 1))
		return pci_fail(d, "BAR %d at %#lx is not aligned to its size "
				"%#lx", bar, r->start, r->size);
	o = overlapping(d, bar);
	if (o)
		return pci_fail(d, "BAR %d [%#lx, +%#lx) overlaps a BAR of "
				"%02x:%02x.%d", bar, r->start, r->size, o->bus,
				PCI_SLOT(o->devfn), PCI_FUNC(o->devfn));
	if (!r->io && in_memory_map(r->start, r->size))
		return pci_fail(d, "BAR %d at %#lx lies in a region of the "
				"memory map", bar, r->start);
	return 0;
}

/* routed: the router's answer for d's pin. */
static int check_irq(struct pci_dev *d, int routed)
{
	u8 line = pci_read_config_byte(d, PCI_INTERRUPT_LINE);

	if (d->irq != routed || line != routed)
		return pci_fail(d, "INT%c goes to irq %d, but the kernel "
				"uses %d and the register says %d",
				'A' + d->pin - 1, routed, d->irq, line);
	return 0;
}

static int test_pci(void)
{
	struct pci_dev *d;
	int bars = 0, devs = 0, routed = 0, irq;

	list_for_each_entry(d, &pci_devices, bus_list) {
		if (d->bus != 0)
			continue;
		devs++;
		for (int i = 0; i < PCI_NUM_RESOURCES; i++) {
			if (!d->resource[i].size)
				continue;
			if (check_bar(d, i))
				return -1;
			bars++;
		}
		irq = pcibios_lookup_irq(d);	/* -1 without a pin */
		if (irq < 0)
			continue;
		if (check_irq(d, irq))
			return -1;
		routed++;
	}
	if (!routed)
		return selftest_fail("no device's interrupt went through the "
				     "PIIX3 router (no virtio disk?)");
	pr_info("pci_test: %d BARs of %d functions: at the address their "
		"register holds, aligned, apart, clear of the memory map; "
		"interrupt lines as the PIIX3 routes them: %d\n", bars, devs,
		routed);
	return 0;
}
DEFINE_SELFTEST(pci, test_pci);
