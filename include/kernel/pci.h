/*
 * PCI (drivers/pci/pci.c): the devices on the PCI buses, found at boot
 * through configuration mechanism #1 (I/O ports 0xCF8/0xCFC), and a tiny
 * driver registry. A driver names the vendor:device pairs it handles:
 *
 *	static const struct pci_device_id ids[] = {
 *		{ 0x1af4, 0x1042 }, { 0 } };
 *	static struct pci_driver drv = { "virtio-pci", ids, my_probe };
 *	pci_register_driver(&drv);	// my_probe(dev, id) for each match
 *
 * Also here: pci_request_irq(), a legacy INTx line that several PCI devices
 * may share. A device's memory BAR is reached through ioremap() (asm/io.h).
 */
#ifndef _KERNEL_PCI_H
#define _KERNEL_PCI_H

#include <kernel/compiler.h>
#include <kernel/list.h>

/* Configuration space header (type 0 and the common part of type 1). */
#define PCI_VENDOR_ID 0x00
#define PCI_DEVICE_ID 0x02
#define PCI_COMMAND 0x04
#define  PCI_COMMAND_IO 0x1
#define  PCI_COMMAND_MEMORY 0x2
#define  PCI_COMMAND_MASTER 0x4
#define  PCI_COMMAND_INTX_DISABLE 0x400
#define PCI_STATUS 0x06
#define  PCI_STATUS_CAP_LIST 0x10
#define PCI_CLASS_REVISION 0x08	/* class << 8 | revision */
#define PCI_HEADER_TYPE 0x0e
#define  PCI_HEADER_TYPE_MASK 0x7f
#define  PCI_HEADER_TYPE_BRIDGE 1
#define  PCI_HEADER_MULTIFUNC 0x80
#define PCI_BASE_ADDRESS_0 0x10
#define  PCI_BASE_ADDRESS_SPACE_IO 0x1
#define  PCI_BASE_ADDRESS_MEM_TYPE_64 0x4
#define  PCI_BASE_ADDRESS_MEM_PREFETCH 0x8
#define PCI_SUBSYSTEM_VENDOR_ID 0x2c
#define PCI_SUBSYSTEM_ID 0x2e
#define PCI_CAPABILITY_LIST 0x34
#define PCI_INTERRUPT_LINE 0x3c
#define PCI_INTERRUPT_PIN 0x3d
#define PCI_SECONDARY_BUS 0x19	/* type 1 (bridge) header */

#define PCI_CAP_ID_VNDR 0x09	/* vendor-specific (virtio's) */

#define PCI_NUM_RESOURCES 6

struct pci_resource {
	u64 start;	/* bus (= physical) address or I/O port; 0: none */
	u64 size;
	bool io;	/* I/O ports rather than memory */
	bool mem64, prefetch;
};

struct pci_dev {
	u8 bus, devfn;	/* devfn: device << 3 | function */
	u16 vendor, device;
	u16 subsystem_vendor, subsystem_device;
	u32 class;	/* base class << 16 | subclass << 8 | prog-if */
	u8 revision, hdr_type;
	u8 irq, pin;	/* INTx line (0xff: none) and pin (0: none) */
	struct pci_resource resource[PCI_NUM_RESOURCES];
	struct pci_driver *driver;	/* bound driver, or NULL */
	void *driver_data;
	struct list_head bus_list;
};

#define PCI_SLOT(devfn) (((devfn) >> 3) & 0x1f)
#define PCI_FUNC(devfn) ((devfn) & 7)

#define PCI_ANY_ID 0xffff
#define PCI_VENDOR_ID_INTEL 0x8086

struct pci_device_id {
	u16 vendor, device;	/* device may be PCI_ANY_ID; vendor 0 ends */
};

struct pci_driver {
	const char *name;
	const struct pci_device_id *id_table;
	/* 0 binds the device; an errno leaves it free. May sleep. */
	int (*probe)(struct pci_dev *dev, const struct pci_device_id *id);
	struct list_head node;
};

u8 pci_read_config_byte(struct pci_dev *dev, int where);
u16 pci_read_config_word(struct pci_dev *dev, int where);
u32 pci_read_config_dword(struct pci_dev *dev, int where);
void pci_write_config_byte(struct pci_dev *dev, int where, u8 val);
void pci_write_config_word(struct pci_dev *dev, int where, u16 val);
void pci_write_config_dword(struct pci_dev *dev, int where, u32 val);

/* Turn on memory and I/O decoding and INTx. 0 or -errno. */
int pci_enable_device(struct pci_dev *dev);
/* Let the device read and write RAM itself (DMA). */
void pci_enable_bus_master(struct pci_dev *dev);

/* Offset of the first capability with this id, or 0 when there is none.
 * pci_find_next_capability continues after the one at pos. */
u8 pci_find_capability(struct pci_dev *dev, u8 id);
u8 pci_find_next_capability(struct pci_dev *dev, u8 pos, u8 id);
#define pci_for_each_capability(dev, pos, id)                     \
	for ((pos) = pci_find_capability(dev, id); (pos);         \
	     (pos) = pci_find_next_capability(dev, pos, id))

/* Scan the buses now if not done yet; probe matching devices. 0. */
int pci_register_driver(struct pci_driver *drv);
/* The n-th device (0, 1, ...) found at boot, for tests; NULL past the end. */
struct pci_dev *pci_get_nth_device(int n);
/* The function at bus:devfn found so far, or NULL. */
struct pci_dev *pci_get_device(u8 bus, u8 devfn);

/* arch/x86/pci/irq.c: the IRQ the board's interrupt router sends the
 * device's pin to, or -1 when it cannot tell. */
int pcibios_lookup_irq(struct pci_dev *dev);

/*
 * A legacy INTx interrupt for a PCI device. Several devices may share the
 * line: every handler on it runs, each checks its own device (a virtio
 * device's ISR register says whether it interrupted). 0 or -errno
 * (-EBUSY: a legacy ISA device owns the line).
 */
enum irqreturn { IRQ_NONE, IRQ_HANDLED };
typedef enum irqreturn irqreturn_t;
/* IRQ_HANDLED when its device had interrupted. Interrupts off. */
typedef irqreturn_t (*pci_irq_handler_t)(void *data);
int pci_request_irq(struct pci_dev *dev, pci_irq_handler_t handler, void *data,
		    const char *name);

#endif
