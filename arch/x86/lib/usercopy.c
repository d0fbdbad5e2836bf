/*
 * arch/x86/lib/usercopy.c: copying to and from user memory (see
 * <kernel/uaccess.h>).
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

/*
 * rep OPq over rcx quadwords, then rep OPb over the last %[r] bytes; a
 * fault in the first resumes at 3, which turns the quadwords left back
 * into bytes and lets the byte loop stop at the exact byte that faults;
 * a fault in the second ends the copy (4) with rcx the bytes left.
 */
#define REP_QUADS_THEN_BYTES(op)					\
	"1:\trep " op "q\n\t"						\
	"movq %[r], %%rcx\n"						\
	"2:\trep " op "b\n"						\
	"4:\n\t"							\
	".pushsection .text.fixup, \"ax\"\n"				\
	"3:\tleaq (%[r], %%rcx, 8), %%rcx\n\t"				\
	"jmp 2b\n\t"							\
	".popsection\n\t"						\
	EX_ENTRY(1b, 3b)						\
	EX_ENTRY(2b, 4b)

/*
 * Eight bytes at a time (rep movsq), then the last n % 8 (rep movsb): under
 * TCG each rep iteration costs about one instruction, so this is eight
 * times cheaper than rep movsb alone (see lib/string.c). When the movsq
 * faults, rcx counts quadwords: the fixup (3) turns them back into bytes
 * and lets rep movsb go on from the same place, so that it stops at the
 * exact byte that faults. Returns the bytes not copied.
 */
static unsigned long copy_user_generic(void *to, const void *from,
				       unsigned long n)
{
	unsigned long r = n & 7;

	n >>= 3;
	user_access_begin();
	__asm__ volatile(REP_QUADS_THEN_BYTES("movs")
			 : "+c"(n), "+D"(to), "+S"(from)
			 : [r] "r"(r)
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
	unsigned long r;

	if (!access_ok(to, n))
		return n;
	r = n & 7;
	n >>= 3;
	user_access_begin();
	__asm__ volatile(REP_QUADS_THEN_BYTES("stos")
			 : "+c"(n), "+D"(to)
			 : "a"(0), [r] "r"(r)
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
