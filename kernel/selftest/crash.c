/*
 * kernel/selftest/crash.c: self-tests that crash the kernel on purpose, to
 * show (and let the harness check) what a kernel bug looks like: the oops
 * report must name the exception, the faulting function and, for a page
 * fault, the address in CR2 and what the error code says (write, fetch,
 * reserved bit).
 */
#include <kernel/selftest.h>
#include <kernel/printk.h>
#include <mm/pgtable.h>
#include <asm/pgtable_64_types.h>
#include <asm/traps.h>
#include <asm/desc.h>

#define SELFTEST_FAULT_ADDRESS 0xdead0000UL

/* noinline and a visible store: the backtrace must name this function. */
static __noinline int selftest_page_fault(void)
{
	pr_info("selftest: storing to unmapped address 0x%lx\n",
		SELFTEST_FAULT_ADDRESS);
	*(volatile unsigned long *)SELFTEST_FAULT_ADDRESS = 42;
	return selftest_fail("the store to an unmapped address did not fault");
}
DEFINE_SELFTEST(pagefault, selftest_page_fault);

static __noinline int selftest_divide_error(void)
{
	unsigned int eax = 1, edx = 0, zero = 0;

	pr_info("selftest: dividing by zero\n");
	/* In C the compiler may turn 1/x into compares; divl must run. */
	__asm__ volatile("divl %2" : "+a"(eax), "+d"(edx) : "r"(zero));
	return selftest_fail("division by zero did not trap");
}
DEFINE_SELFTEST(divide, selftest_divide_error);

static __noinline int selftest_invalid_opcode(void)
{
	pr_info("selftest: executing ud2\n");
	__asm__ volatile("ud2");
	return selftest_fail("ud2 did not trap");
}
DEFINE_SELFTEST(ud, selftest_invalid_opcode);

/* A store to kernel text must fault: text is mapped read-only. */
static __noinline int selftest_write_text(void)
{
	pr_info("selftest: storing to kernel text at %pS\n",
		(void *)selftest_write_text);
	*(volatile unsigned char *)selftest_write_text = 0xc3;
	return selftest_fail("kernel text is writable");
}
DEFINE_SELFTEST(write_text, selftest_write_text);

/* A call into data: data is mapped no-execute, so the fetch faults
 * (error code 0x11, a permissions violation on an instruction fetch). */
static unsigned char not_code[16] __aligned(16) = { 0xc3 };	/* ret */

static __noinline int selftest_exec_data(void)
{
	pr_info("selftest: calling data at %p\n", (void *)not_code);
	((void (*)(void))(unsigned long)not_code)();
	return selftest_fail("data is executable");
}
DEFINE_SELFTEST(exec_data, selftest_exec_data);

/*
 * A kernel read through a page-table entry with a reserved bit set, as a
 * CPU reports it (error code 0x9: reserved bit, and present, as reserved
 * bits are only checked in present entries), handed to do_page_fault in
 * a made-up frame whose rip is here: QEMU's TCG leaves the present bit
 * out of a real one, and the decoder must name the reserved bit however
 * the other bits are set.
 */
static __noinline int selftest_reserved_bit(void)
{
	struct pt_regs regs = {
		.cs = __KERNEL_CS, .ss = __KERNEL_DS, .vector = X86_TRAP_PF,
		.error_code = X86_PF_PROT | X86_PF_RSVD,
	};
	unsigned long va = IOREMAP_START + IOREMAP_SIZE - PMD_SIZE;

	regs.rip = (unsigned long)selftest_reserved_bit + 1;
	regs.rbp = (unsigned long)__builtin_frame_address(0);
	pr_info("selftest: a reserved-bit fault at %#lx\n", va);
	do_page_fault(&regs, va);
	return selftest_fail("a kernel-mode reserved-bit fault returned");
}
DEFINE_SELFTEST(reserved_bit, selftest_reserved_bit);

/* Keeps 256 bytes live in each frame, so that it stays a real recursion
 * (the depth test never ends it: 16 KiB of stack runs out first). */
static __noinline unsigned long recurse_deeply(unsigned long depth)
{
	volatile char pad[256];

	pad[0] = (char)depth;
	if (depth > (1UL << 40))
		return depth;
	return recurse_deeply(depth + 1) + pad[0];
}

static __noinline int selftest_stack_overflow(void)
{
	pr_info("selftest: recursing until the kernel stack runs out\n");
	recurse_deeply(0);
	return selftest_fail("the recursion came back");
}
DEFINE_SELFTEST(stackoverflow, selftest_stack_overflow);
