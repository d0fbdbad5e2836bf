/*
 * kernel/selftest/crash.c: self-tests that crash the kernel on purpose, to
 * show (and let the harness check) what a kernel bug looks like: the oops
 * report must name the exception, the faulting function and, for a page
 * fault, the address in CR2.
 */
#include <kernel/selftest.h>
#include <kernel/printk.h>

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
