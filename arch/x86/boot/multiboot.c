/*
 * arch/x86/boot/multiboot.c: read the Multiboot 1 or 2 information structure
 * into struct boot_info. Both protocols give the same three things we need:
 * the command line, the memory map and the modules (the initramfs). The
 * structures are reached through the boot direct map, which covers the
 * first 1 GiB; anything a loader put higher is ignored with a warning.
 */
#include <kernel/bootinfo.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <mm/mm.h>

#define EARLY_LIMIT (1UL << 30)

struct boot_info boot_info;

struct mb1_info {
	u32 flags, mem_lower, mem_upper, boot_device, cmdline;
	u32 mods_count, mods_addr, syms[4], mmap_length, mmap_addr;
	u32 drives_length, drives_addr, config_table, boot_loader_name;
} __attribute__((packed));

struct mb1_mmap_entry {
	u32 size;
	u64 addr, len;
	u32 type;
} __attribute__((packed));

struct mb1_module {
	u32 mod_start, mod_end, string, reserved;
};

#define MB1_INFO_CMDLINE (1 << 2)
#define MB1_INFO_MODS (1 << 3)
#define MB1_INFO_MMAP (1 << 6)
#define MB1_INFO_LOADER (1 << 9)

#define MB2_TAG_END 0
#define MB2_TAG_CMDLINE 1
#define MB2_TAG_LOADER 2
#define MB2_TAG_MODULE 3
#define MB2_TAG_MMAP 6

/* A C string from the loader, or NULL if it lies outside the early map. */
static const char *early_string(u64 pa)
{
	return pa && pa < EARLY_LIMIT ? phys_to_virt(pa) : NULL;
}

static void add_region(u64 base, u64 size, u32 type)
{
	struct boot_region *r;

	/* An empty entry says nothing (qboot's map ends with one). */
	if (!size)
		return;
	if (boot_info.nr_regions == BOOT_MAX_REGIONS) {
		pr_warn("boot: memory map has more than %d entries; rest ignored\n",
			BOOT_MAX_REGIONS);
		return;
	}
	r = &boot_info.regions[boot_info.nr_regions++];
	r->base = base;
	r->size = size;
	r->type = type;
}

static void add_module(u64 start, u64 end, const char *name)
{
	struct boot_module *m;

	if (boot_info.nr_modules == BOOT_MAX_MODULES || end < start)
		return;
	m = &boot_info.modules[boot_info.nr_modules++];
	m->start = start;
	m->end = end;
	strlcpy(m->name, name ? name : "", sizeof(m->name));
}

/*
 * Multiboot 1 loaders (QEMU, GRUB) put the kernel's path first; it is not
 * a parameter. No parameter contains '/', so a first word with one goes.
 */
static void copy_cmdline(const char *s)
{
	const char *first_end;

	if (!s)
		return;
	while (*s == ' ')
		s++;
	first_end = s;
	while (*first_end && *first_end != ' ')
		first_end++;
	if (memchr(s, '/', first_end - s) && !memchr(s, '=', first_end - s))
		s = *first_end ? first_end + 1 : first_end;
	strlcpy(boot_command_line, s, COMMAND_LINE_SIZE);
}

static void parse_mb1(const struct mb1_info *mbi)
{
	boot_info.protocol = "multiboot1";
	if (mbi->flags & MB1_INFO_CMDLINE)
		copy_cmdline(early_string(mbi->cmdline));
	if (mbi->flags & MB1_INFO_LOADER && early_string(mbi->boot_loader_name))
		strlcpy(boot_info.loader, early_string(mbi->boot_loader_name),
			sizeof(boot_info.loader));
	if (mbi->flags & MB1_INFO_MMAP) {
		u64 p = mbi->mmap_addr, end = p + mbi->mmap_length;

		while (p + sizeof(struct mb1_mmap_entry) <= end) {
			const struct mb1_mmap_entry *e = phys_to_virt(p);

			add_region(e->addr, e->len, e->type);
			p += e->size + sizeof(e->size);
		}
	}
	if (mbi->flags & MB1_INFO_MODS) {
		const struct mb1_module *m = phys_to_virt(mbi->mods_addr);

		for (u32 i = 0; i < mbi->mods_count; i++)
			add_module(m[i].mod_start, m[i].mod_end,
				   early_string(m[i].string));
	}
}

static void parse_mb2_tag(u32 type, const u32 *t)
{
	switch (type) {
	case MB2_TAG_CMDLINE:
		copy_cmdline((const char *)&t[2]);
		break;
	case MB2_TAG_LOADER:
		strlcpy(boot_info.loader, (const char *)&t[2],
			sizeof(boot_info.loader));
		break;
	case MB2_TAG_MODULE:
		add_module(t[2], t[3], (const char *)&t[4]);
		break;
	case MB2_TAG_MMAP: {
		u32 entry_size = t[2], size = t[1];

		for (u32 off = 16; entry_size && off + 24 <= size;
		     off += entry_size) {
			const u8 *e = (const u8 *)t + off;

			add_region(*(const u64 *)e, *(const u64 *)(e + 8),
				   *(const u32 *)(e + 16));
		}
		break;
	}
	}
}

static void parse_mb2(const u8 *info)
{
	u32 total = *(const u32 *)info;
	u32 off = 8;

	boot_info.protocol = "multiboot2";
	while (off + 8 <= total) {
		const u32 *tag = (const u32 *)(info + off);

		if (tag[0] == MB2_TAG_END || tag[1] < 8)
			break;
		parse_mb2_tag(tag[0], tag);
		off += ALIGN(tag[1], 8);
	}
}

bool parse_boot_info(u32 magic, u32 info_phys)
{
	if (magic == MULTIBOOT1_BOOTLOADER_MAGIC)
		parse_mb1(phys_to_virt(info_phys));
	else if (magic == MULTIBOOT2_BOOTLOADER_MAGIC)
		parse_mb2(phys_to_virt(info_phys));
	else
		return false;
	return true;
}
