/*
 * arch/x86/pci/irq.c: which 8259 input a PCI device's interrupt pin reaches.
 *
 * On QEMU's pc machine (i440FX + PIIX3) the INTA-INTD pins of the slots on
 * bus 0 are wired to the PIIX3's four PIRQ links, rotated by one link per
 * slot: slot S's pin P (1 = INTA) drives link (S - 1 + P - 1) mod 4. The
 * PIIX3 (00:01.0) has a register per link, 0x60-0x63, naming the IRQ it
 * drives (bit 7 set: none). A real PC describes its wiring in a BIOS
 * table ($PIR) or in ACPI's _PRT; QEMU's board is fixed, so the rotation
 * is written here. Slot 0 is the host bridge; slot 1 is the PIIX itself,
 * whose functions are wired inside the chip (its ACPI interrupt is IRQ 9,
 * not a PIRQ link): for those the firmware's word stands.
 *
 * Firmware reads the same registers and writes each device's answer into
 * PCI_INTERRUPT_LINE for the OS. pagelab asks the router itself, as Linux
 * does when it routes interrupts (arch/x86/pci/irq.c, pirq_piix_get),
 * because not every firmware computes it right: qboot writes 11 for slot
 * 2, whose INTA the PIIX3 sends to IRQ 10.
 */
#include <kernel/pci.h>

#define PIIX3_DEVFN (1 << 3)	/* 00:01.0, the ISA bridge */
#define PIIX3_DEVICE_ID 0x7000
#define PIIX_PIRQ_ROUTE 0x60	/* PIRQA's register; B-D follow */
#define PIIX_PIRQ_DISABLED 0x80

/* The IRQ the router sends the device's pin to, or -1 when there is no
 * router this code knows, the device is not on bus 0, or the link is off. */
int pcibios_lookup_irq(struct pci_dev *d)
{
	struct pci_dev *router = pci_get_device(0, PIIX3_DEVFN);
	int link;
	u8 irq;

	if (!router || router->vendor != PCI_VENDOR_ID_INTEL ||
	    router->device != PIIX3_DEVICE_ID || d->bus != 0 || !d->pin ||
	    d->pin > 4 || PCI_SLOT(d->devfn) < 2)
		return -1;
	link = (PCI_SLOT(d->devfn) - 1 + d->pin - 1) & 3;
	irq = pci_read_config_byte(router, PIIX_PIRQ_ROUTE + link);
	if ((irq & PIIX_PIRQ_DISABLED) || irq >= 16 || irq == 0)
		return -1;
	return irq;
}
