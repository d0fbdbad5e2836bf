/*
 * kernel/kallsyms.c: address -> function name, for backtraces.
 *
 * scripts/gen-kallsyms writes the tables below into .rodata.kallsyms, which
 * the linker script places at the very end of .rodata: the kernel is linked
 * twice (first with an empty table), and since .text comes before the table,
 * filling it in cannot move any function.
 */
#include <kernel/kallsyms.h>
#include <kernel/printk.h>
#include <kernel/string.h>

/* Sorted by address; kallsyms_addresses[kallsyms_num] is the end of text. */
extern const unsigned long kallsyms_num;
extern const unsigned long kallsyms_addresses[];
extern const unsigned int kallsyms_offsets[];
extern const char kallsyms_names[];

/* Index of the last symbol at or below addr, or -1. */
static long kallsyms_index(unsigned long addr)
{
	long lo = 0, hi = (long)kallsyms_num - 1, found = -1;

	if (!kallsyms_num || addr < kallsyms_addresses[0] ||
	    addr >= kallsyms_addresses[kallsyms_num])
		return -1;
	while (lo <= hi) {
		long mid = (lo + hi) / 2;

		if (kallsyms_addresses[mid] <= addr) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return found;
}

const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *offset)
{
	long i = kallsyms_index(addr);
	unsigned long next;

	if (i < 0)
		return NULL;
	/* Aliases share an address: the size runs to the next distinct one. */
	next = i + 1;
	while (next < kallsyms_num &&
	       kallsyms_addresses[next] == kallsyms_addresses[i])
		next++;
	if (size)
		*size = kallsyms_addresses[next] - kallsyms_addresses[i];
	if (offset)
		*offset = addr - kallsyms_addresses[i];
	return &kallsyms_names[kallsyms_offsets[i]];
}

unsigned long kallsyms_lookup_name(const char *name)
{
	unsigned long i;

	for (i = 0; i < kallsyms_num; i++)
		if (!strcmp(&kallsyms_names[kallsyms_offsets[i]], name))
			return kallsyms_addresses[i];
	return 0;
}

int sprint_symbol(char *buf, size_t size, unsigned long addr)
{
	unsigned long symsize, off;
	const char *name = kallsyms_lookup(addr, &symsize, &off);

	if (!name)
		return snprintf(buf, size, "0x%lx", addr);
	return snprintf(buf, size, "%s+0x%lx/0x%lx", name, off, symsize);
}

int sprint_symbol_name(char *buf, size_t size, unsigned long addr)
{
	const char *name = kallsyms_lookup(addr, NULL, NULL);

	if (!name)
		return snprintf(buf, size, "0x%lx", addr);
	return snprintf(buf, size, "%s", name);
}
