/*
 * What the boot loader told us, copied out of its (Multiboot 1 or 2)
 * structures early, so the memory they sit in can be reused.
 */
#ifndef _KERNEL_BOOTINFO_H
#define _KERNEL_BOOTINFO_H

#include <kernel/types.h>

#define BOOT_MAX_REGIONS 32
#define BOOT_MAX_MODULES 8
#define BOOT_REGION_RAM 1	/* Multiboot's "available" type */

struct boot_region {
	u64 base, size;
	u32 type;
};

struct boot_module {
	u64 start, end;	/* physical, end exclusive */
	char name[64];
};

struct boot_info {
	const char *protocol;	/* "multiboot1" or "multiboot2" */
	char loader[48];
	int nr_regions;
	struct boot_region regions[BOOT_MAX_REGIONS];
	int nr_modules;
	struct boot_module modules[BOOT_MAX_MODULES];
};

extern struct boot_info boot_info;

/* Fill boot_info and boot_command_line; false if magic is unknown. */
bool parse_boot_info(u32 magic, u32 info_phys);

#endif
