/*
 * drivers/pci/pci.c: the PCI buses, enough of them for QEMU's devices.
 *
 * Roadmap:
 *   configuration space  mechanism #1: write the address of a dword
 *                        (bus, device, function, register) to port 0xCF8,
 *                        then read or write it at 0xCFC..0xCFF
 *   pci_scan_bus         every device and function of a bus; a PCI-PCI
 *                        bridge leads to its secondary bus (the firmware
 *                        numbered the buses; pagelab keeps the BARs it
 *                        placed, as Linux does on PCs, and places those it
 *                        did not: setup-res.c)
 *   pci_read_bases       each BAR's address and size (write all-ones, read
 *                        back which bits stuck, restore)
 *   capabilities         the linked list at PCI_CAPABILITY_LIST
 *   drivers              pci_register_driver: probe each matching device
 *   pci_request_irq      an INTx line shared by several devices
 *
 * Linux splits this across drivers/pci/ (probe.c, access.c, pci-driver.c)
 * and arch/x86 (the port access; pagelab's ioremap is in
 * arch/x86/mm/ioremap.c); it also moves resources and routes interrupts
 * through ACPI tables. A device's interrupt is the 8259 input that the
 * board's router sends its pin to (arch/x86/pci/irq.c asks QEMU's PIIX3);
 * where the router cannot tell, the line the firmware wrote into
 * PCI_INTERRUPT_LINE.
 */
#include "pci.h"
#include <kernel/errno.h>
#include <kernel/init.h>
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <asm/io.h>
#include <mm/slab.h>

#define PCI_CONFIG_ADDRESS 0xcf8
#define PCI_CONFIG_DATA 0xcfc
#define PCI_MAX_BRIDGE_DEPTH 8

LIST_HEAD(pci_devices);
static LIST_HEAD(pci_drivers);
static DEFINE_SPINLOCK(pci_config_lock);	/* the 0xCF8/0xCFC pair */
static bool pci_scanned;

/* ---- configuration space ----------------------------------------------- */

/* Select the dword holding `where`. Called with pci_config_lock held. */
static void pci_conf1_select(u8 bus, u8 devfn, int where)
{
	outl(PCI_CONFIG_ADDRESS, 0x80000000u | (u32)bus << 16 |
					 (u32)devfn << 8 | (where & 0xfc));
}

static u32 pci_conf1_read(u8 bus, u8 devfn, int where, int size)
{
	unsigned long flags;
	u16 port = PCI_CONFIG_DATA + (where & 3);
	u32 v;

	spin_lock_irqsave(&pci_config_lock, flags);
	pci_conf1_select(bus, devfn, where);
	v = size == 1 ? inb(port) : size == 2 ? inw(port) : inl(port);
	spin_unlock_irqrestore(&pci_config_lock, flags);
	return v;
}

static void pci_conf1_write(u8 bus, u8 devfn, int where, int size, u32 v)
{
	unsigned long flags;
	u16 port = PCI_CONFIG_DATA + (where & 3);

	spin_lock_irqsave(&pci_config_lock, flags);
	pci_conf1_select(bus, devfn, where);
	if (size == 1)
		outb(port, v);
	else if (size == 2)
		outw(port, v);
	else
		outl(port, v);
	spin_unlock_irqrestore(&pci_config_lock, flags);
}

/* pci_{read,write}_config_{byte,word,dword}, as Linux's PCI_OP_* make them. */
#define PCI_CONFIG_OPS(name, type, size)                                   \
	type pci_read_config_##name(struct pci_dev *d, int where)          \
	{                                                                  \
		return pci_conf1_read(d->bus, d->devfn, where, size);      \
	}                                                                  \
	void pci_write_config_##name(struct pci_dev *d, int where, type v) \
	{                                                                  \
		pci_conf1_write(d->bus, d->devfn, where, size, v);         \
	}
PCI_CONFIG_OPS(byte, u8, 1)
PCI_CONFIG_OPS(word, u16, 2)
PCI_CONFIG_OPS(dword, u32, 4)

/* ---- enumeration -------------------------------------------------------- */

/* Size one BAR at reg: all-ones in, the bits that stay are the mask. */
static u32 pci_size_bar(struct pci_dev *d, int reg, u32 orig)
{
	u32 sz;

	pci_write_config_dword(d, reg, ~0u);
	sz = pci_read_config_dword(d, reg);
	pci_write_config_dword(d, reg, orig);
	return sz;
}

static void pci_read_bases(struct pci_dev *d, int nr)
{
	u16 cmd = pci_read_config_word(d, PCI_COMMAND);

	/* While a BAR holds all-ones the device would answer at a bogus
	 * address: stop it decoding until the sizes are known. */
	pci_write_config_word(d, PCI_COMMAND,
			      cmd & ~(PCI_COMMAND_IO | PCI_COMMAND_MEMORY));
	for (int i = 0; i < nr; i++) {
		struct pci_resource *r = &d->resource[i];
		int reg = PCI_BASE_ADDRESS_0 + 4 * i;
		u32 lo = pci_read_config_dword(d, reg);
		u32 szlo = pci_size_bar(d, reg, lo);
		u64 mask;

		if (!szlo || szlo == ~0u)
			continue;	/* not implemented */
		if (lo & PCI_BASE_ADDRESS_SPACE_IO) {
			r->io = true;
			r->start = lo & ~3u;
			r->size = (~(szlo & ~3u) + 1) & 0xffff;
			continue;
		}
		r->prefetch = lo & PCI_BASE_ADDRESS_MEM_PREFETCH;
		r->start = lo & ~0xfu;
		mask = 0xffffffff00000000ul | (szlo & ~0xfu);
		if ((lo & 6) == PCI_BASE_ADDRESS_MEM_TYPE_64 && i + 1 < nr) {
			u32 hi = pci_read_config_dword(d, reg + 4);
			u32 szhi = pci_size_bar(d, reg + 4, hi);

			r->mem64 = true;
			r->start |= (u64)hi << 32;
			mask = (u64)szhi << 32 | (szlo & ~0xfu);
			i++;	/* the next BAR was the upper half */
		}
		r->size = ~mask + 1;
	}
	pci_write_config_word(d, PCI_COMMAND, cmd);
}

static void pci_scan_bus(u8 bus, int depth);

/* The line the firmware wrote, unless the interrupt router says
 * otherwise (then the router is right: the pin is wired to it). */
static u8 pci_read_irq(struct pci_dev *d)
{
	u8 line;
	int routed;

	if (!d->pin)
		return 0xff;
	line = pci_read_config_byte(d, PCI_INTERRUPT_LINE);
	routed = pcibios_lookup_irq(d);
	if (routed < 0 || routed == line)
		return line;
	pr_info("pci %02x:%02x.%d: INT%c is routed to irq %d; the firmware "
		"wrote %d\n", d->bus, PCI_SLOT(d->devfn), PCI_FUNC(d->devfn),
		'A' + d->pin - 1, routed, line);
	pci_write_config_byte(d, PCI_INTERRUPT_LINE, routed);
	return routed;
}

static void pci_scan_function(u8 bus, u8 devfn, int depth)
{
	struct pci_dev *d = kzalloc(sizeof(*d), GFP_KERNEL);
	u32 class_rev;

	if (!d) {
		pr_err("pci %02x:%02x.%d: out of memory\n", bus,
		       PCI_SLOT(devfn), PCI_FUNC(devfn));
		return;
	}
	d->bus = bus;
	d->devfn = devfn;
	d->vendor = pci_read_config_word(d, PCI_VENDOR_ID);
	d->device = pci_read_config_word(d, PCI_DEVICE_ID);
	class_rev = pci_read_config_dword(d, PCI_CLASS_REVISION);
	d->class = class_rev >> 8;
	d->revision = class_rev & 0xff;
	d->hdr_type = pci_read_config_byte(d, PCI_HEADER_TYPE);
	d->pin = pci_read_config_byte(d, PCI_INTERRUPT_PIN);
	d->irq = pci_read_irq(d);
	if ((d->hdr_type & PCI_HEADER_TYPE_MASK) == 0) {
		d->subsystem_vendor =
			pci_read_config_word(d, PCI_SUBSYSTEM_VENDOR_ID);
		d->subsystem_device = pci_read_config_word(d, PCI_SUBSYSTEM_ID);
		pci_read_bases(d, 6);
	} else if ((d->hdr_type & PCI_HEADER_TYPE_MASK) ==
		   PCI_HEADER_TYPE_BRIDGE) {
		pci_read_bases(d, 2);
	}
	list_add_tail(&d->bus_list, &pci_devices);
	pr_info("pci %02x:%02x.%d: %04x:%04x class 0x%06x", bus,
		PCI_SLOT(devfn), PCI_FUNC(devfn), d->vendor, d->device,
		d->class);
	if (d->irq < NR_IRQS)
		pr_cont(" irq %d", d->irq);
	pr_cont("\n");

	if ((d->hdr_type & PCI_HEADER_TYPE_MASK) == PCI_HEADER_TYPE_BRIDGE) {
		u8 sec = pci_read_config_byte(d, PCI_SECONDARY_BUS);

		/* Firmware numbers buses depth first, each above its parent;
		 * anything else would loop. */
		if (sec > bus && depth < PCI_MAX_BRIDGE_DEPTH)
			pci_scan_bus(sec, depth + 1);
	}
}

static void pci_scan_bus(u8 bus, int depth)
{
	for (int slot = 0; slot < 32; slot++) {
		for (int fn = 0; fn < 8; fn++) {
			u8 devfn = slot << 3 | fn;

			if (pci_conf1_read(bus, devfn, PCI_VENDOR_ID, 2) ==
			    0xffff) {
				if (fn == 0)
					break;	/* an empty slot */
				continue;
			}
			pci_scan_function(bus, devfn, depth);
			if (fn == 0 && !(pci_conf1_read(bus, devfn,
							PCI_HEADER_TYPE, 1) &
					 PCI_HEADER_MULTIFUNC))
				break;
		}
	}
}

/* Called at boot (initcall time), before any driver probes. */
static void pci_scan_once(void)
{
	if (pci_scanned)
		return;
	pci_scanned = true;
	pci_scan_bus(0, 0);
	pci_assign_unassigned_resources();
}

static int pci_init(void)
{
	pci_scan_once();
	return 0;
}
device_initcall(pci_init);

struct pci_dev *pci_get_nth_device(int n)
{
	struct pci_dev *d;

	list_for_each_entry(d, &pci_devices, bus_list)
		if (n-- == 0)
			return d;
	return NULL;
}

struct pci_dev *pci_get_device(u8 bus, u8 devfn)
{
	struct pci_dev *d;

	list_for_each_entry(d, &pci_devices, bus_list)
		if (d->bus == bus && d->devfn == devfn)
			return d;
	return NULL;
}

int pci_enable_device(struct pci_dev *d)
{
	u16 cmd = pci_read_config_word(d, PCI_COMMAND);

	for (int i = 0; i < PCI_NUM_RESOURCES; i++) {
		if (!d->resource[i].size)
			continue;
		cmd |= d->resource[i].io ? PCI_COMMAND_IO : PCI_COMMAND_MEMORY;
	}
	cmd &= ~PCI_COMMAND_INTX_DISABLE;
	pci_write_config_word(d, PCI_COMMAND, cmd);
	return 0;
}

void pci_enable_bus_master(struct pci_dev *d)
{
	u16 cmd = pci_read_config_word(d, PCI_COMMAND);

	pci_write_config_word(d, PCI_COMMAND, cmd | PCI_COMMAND_MASTER);
}

/* ---- capabilities ------------------------------------------------------- */

/* At most 48 capabilities fit in the 192 bytes after the header: a longer
 * walk means the list loops (a broken or hostile device). */
#define PCI_FIND_CAP_TTL 48

static u8 pci_walk_caps(struct pci_dev *d, u8 pos, u8 id)
{
	for (int ttl = PCI_FIND_CAP_TTL; ttl && pos >= 0x40; ttl--) {
		pos &= ~3;
		if (pci_read_config_byte(d, pos) == id)
			return pos;
		pos = pci_read_config_byte(d, pos + 1);
	}
	return 0;
}

u8 pci_find_capability(struct pci_dev *d, u8 id)
{
	if (!(pci_read_config_word(d, PCI_STATUS) & PCI_STATUS_CAP_LIST))
		return 0;
	return pci_walk_caps(d, pci_read_config_byte(d, PCI_CAPABILITY_LIST),
			     id);
}

u8 pci_find_next_capability(struct pci_dev *d, u8 pos, u8 id)
{
	return pci_walk_caps(d, pci_read_config_byte(d, pos + 1), id);
}

/* ---- drivers ------------------------------------------------------------ */

static const struct pci_device_id *pci_match_id(const struct pci_device_id *id,
						struct pci_dev *d)
{
	for (; id->vendor; id++)
		if (id->vendor == d->vendor &&
		    (id->device == PCI_ANY_ID || id->device == d->device))
			return id;
	return NULL;
}

/* Called at boot (initcall time). */
int pci_register_driver(struct pci_driver *drv)
{
	struct pci_dev *d;

	pci_scan_once();
	list_add_tail(&drv->node, &pci_drivers);
	list_for_each_entry(d, &pci_devices, bus_list) {
		const struct pci_device_id *id = pci_match_id(drv->id_table, d);
		int err;

		if (d->driver || !id)
			continue;
		err = drv->probe(d, id);
		if (err)
			pr_warn("pci %02x:%02x.%d: %s: probe failed (error "
				"%d)\n", d->bus, PCI_SLOT(d->devfn),
				PCI_FUNC(d->devfn), drv->name, err);
		else
			d->driver = drv;
	}
	return 0;
}

/* ---- shared INTx lines -------------------------------------------------- */

struct pci_irq_action {
	pci_irq_handler_t handler;
	void *data;
	const char *name;
	struct pci_irq_action *next;
};

static struct pci_irq_action *pci_irq_actions[NR_IRQS];

/*
 * One 8259 input, every PCI handler on it. The pass repeats until no
 * handler finds work: on a shared line in edge mode, a device that raises
 * its interrupt while another still holds the line high makes no new
 * edge, so stopping after one pass could leave it unserved for ever.
 * Called with interrupts off.
 */
static void pci_irq_dispatch(int irq, void *unused)
{
	for (int pass = 0; pass < 64; pass++) {
		bool any = false;

		for (struct pci_irq_action *a = pci_irq_actions[irq]; a;
		     a = a->next)
			any |= a->handler(a->data) == IRQ_HANDLED;
		if (!any)
			return;
	}
	pr_warn("pci: irq %d: still busy after 64 passes\n", irq);
}

/* Called at boot (initcall time). */
int pci_request_irq(struct pci_dev *d, pci_irq_handler_t handler, void *data,
		    const char *name)
{
	struct pci_irq_action *a, **pp;
	unsigned long flags;
	int irq = d->irq, err = 0;

	if (!d->pin || irq >= NR_IRQS)
		return -ENXIO;
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return -ENOMEM;
	*a = (struct pci_irq_action){ handler, data, name, NULL };
	/* Link first, then unmask: an interrupt arriving in between must
	 * find its handler. */
	flags = local_irq_save();
	for (pp = &pci_irq_actions[irq]; *pp; pp = &(*pp)->next)
		;
	*pp = a;
	if (pp == &pci_irq_actions[irq]) {
		err = request_irq(irq, pci_irq_dispatch, NULL, "pci");
		if (err) {	/* the line belongs to a legacy device */
			*pp = NULL;
			kfree(a);
		}
	}
	local_irq_restore(flags);
	return err;
}
