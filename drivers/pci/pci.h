/*
 * drivers/pci/pci.h: what the PCI core's files share and drivers do not
 * see (theirs is include/kernel/pci.h).
 */
#ifndef _DRIVERS_PCI_PCI_H
#define _DRIVERS_PCI_PCI_H

#include <kernel/pci.h>

extern struct list_head pci_devices;	/* every function found, scan order */

/* setup-res.c: an address for each BAR the firmware left at 0, in the
 * window of memory addresses that nothing else uses. */
struct pci_window {
	u64 lo, hi;	/* [lo, hi) */
};
void pci_assign_unassigned_resources(void);
struct pci_window pci_mem_window(void);

#endif
