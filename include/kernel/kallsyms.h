/*
 * kallsyms: the kernel's own table of function symbols, linked into the
 * image (scripts/gen-kallsyms makes it from `nm`), so a panic or an oops can
 * print "function+0x1a/0x40" without any host tool.
 */
#ifndef _KERNEL_KALLSYMS_H
#define _KERNEL_KALLSYMS_H

#include <kernel/types.h>

#define KSYM_NAME_LEN 64

/*
 * Find the function containing addr. Returns its name (NULL when addr is in
 * no known function) and fills *offset and *size when they are non-NULL.
 */
const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *offset);

/* Address of a function by name, 0 when unknown. */
unsigned long kallsyms_lookup_name(const char *name);

/* "name+0x1a/0x40", or the bare hex address when unknown. */
int sprint_symbol(char *buf, size_t size, unsigned long addr);
/* "name", or the bare hex address when unknown. */
int sprint_symbol_name(char *buf, size_t size, unsigned long addr);

#endif
