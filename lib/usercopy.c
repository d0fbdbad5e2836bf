/*
 * lib/usercopy.c: copying to and from user memory (see <kernel/uaccess.h>).
 *
 * Each access that may fault is an instruction listed in __ex_table with a
 * place to resume. do_page_fault() first tries to resolve the fault as it
 * would for the user (a demand-zero or copy-on-write page); only when that
 * fails does fixup_exception() send the copy to its resume point, where it
 * reports how much was left undone.
 */
#include <kernel/uaccess.h>
#include <asm/ptrace.h>
#include <asm/processor.h>

#define EX_ENTRY(insn, fixup)                                             \
	".section __ex_table, \"a\"\n\t.balign 8\n\t.quad " #insn ", "    \
	#fixup "\n\t.previous\n\t"

/* rep movsb; when it faults, rcx holds the bytes still to copy. */
static unsigned long copy_user_generic(void *to, const void *from,
				       unsigned long n)
{
	user_access_begin();
	__asm__ volatile("1:\trep movsb\n"
			 "2:\n\t"
			 EX_ENTRY(1b, 2b)
			 : "+c"(n), "+D"(to), "+S"(from)
			 :
			 : "memory");
	user_access_end();
	return n;
}

unsigned long copy_from_user(void *to, const void __user *from,
			     unsigned long n)
{
	unsigned long left;

	if (!access_ok(from, n))
		return n;
	left = copy_user_generic(to, from, n);
	if (left)	/* never hand back stale kernel data */
		__builtin_memset((char *)to + (n - left), 0, left);
	return left;
}

unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
	if (!access_ok(to, n))
		return n;
	return copy_user_generic(to, from, n);
}

unsigned long clear_user(void __user *to, unsigned long n)
{
	if (!access_ok(to, n))
		return n;
	user_access_begin();
	__asm__ volatile("1:\trep stosb\n"
			 "2:\n\t"
			 EX_ENTRY(1b, 2b)
			 : "+c"(n), "+D"(to)
			 : "a"(0)
			 : "memory");
	user_access_end();
	return n;
}

/* One byte from user memory: 0, or -EFAULT. */
static int get_user_byte(char *v, const char __user *p)
{
	int err;
	char c = 0;

	user_access_begin();
	__asm__ volatile("1:\tmovb (%[p]), %[c]\n\t"
			 "xorl %[e], %[e]\n"
			 "2:\n\t"
			 EX_ENTRY(1b, 2b)
			 : [e] "=&r"(err), [c] "+q"(c)
			 : [p] "r"(p), "0"(-EFAULT));
	user_access_end();
	*v = c;
	return err;
}

long strncpy_from_user(char *dst, const char __user *src, long count)
{
	long i;

	for (i = 0; i < count; i++) {
		if (!access_ok(src + i, 1) || get_user_byte(&dst[i], src + i))
			return -EFAULT;
		if (!dst[i])
			return i;
	}
	return count;
}

extern const struct exception_table_entry __ex_table_start[],
	__ex_table_end[];

bool fixup_exception(struct pt_regs *regs)
{
	const struct exception_table_entry *e;

	for (e = __ex_table_start; e < __ex_table_end; e++) {
		if (e->insn == regs->rip) {
			regs->rip = e->fixup;
			return true;
		}
	}
	return false;
}
