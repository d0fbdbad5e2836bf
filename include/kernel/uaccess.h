/*
 * Kernel access to user memory. Never dereference a __user pointer: use
 * these. Each checks that the range lies in the user half, then copies with
 * instructions listed in the exception table, so a fault on a bad pointer
 * resumes at a fixup that reports failure instead of oopsing. A fault on a
 * valid but not-yet-present user page is handled normally (demand paging,
 * copy-on-write) and the copy goes on.
 */
#ifndef _KERNEL_UACCESS_H
#define _KERNEL_UACCESS_H

#include <kernel/syscalls.h>
#include <kernel/errno.h>

#define TASK_SIZE 0x00007ffffffff000UL	/* user addresses are below */

static inline bool access_ok(const void __user *p, unsigned long n)
{
	unsigned long a = (unsigned long)p;

	return a <= TASK_SIZE && n <= TASK_SIZE - a;
}

/* Both return the number of bytes NOT copied (0 on success), as Linux. */
unsigned long copy_from_user(void *to, const void __user *from,
			     unsigned long n);
unsigned long copy_to_user(void __user *to, const void *from, unsigned long n);
/* Zero n user bytes; returns bytes not cleared. */
unsigned long clear_user(void __user *to, unsigned long n);
/* Copy a NUL-terminated string of at most count bytes (including the NUL).
 * Returns its length, count if no NUL was found within count bytes, or
 * -EFAULT. */
long strncpy_from_user(char *dst, const char __user *src, long count);

/* Up to 8 bytes: read into a zeroed word, then convert. */
#define get_user(x, ptr)                                                  \
	({                                                                \
		unsigned long __gu_v = 0;                                 \
		int __gu_e = copy_from_user(&__gu_v, (ptr),               \
					    sizeof(*(ptr))) ? -EFAULT : 0; \
		(x) = (__typeof__(*(ptr)))__gu_v;                         \
		__gu_e;                                                   \
	})

#define put_user(x, ptr)                                                  \
	({                                                                \
		__typeof__(*(ptr)) __pu_v = (x);                          \
		copy_to_user((ptr), &__pu_v, sizeof(__pu_v)) ? -EFAULT : 0; \
	})

/* Exception table: a faulting instruction and where to resume instead. */
struct exception_table_entry {
	unsigned long insn, fixup;
};

/* Called by the page fault handler for kernel-mode faults: if regs->rip is
 * in the table, point it at the fixup and return true. */
struct pt_regs;
bool fixup_exception(struct pt_regs *regs);

#endif
