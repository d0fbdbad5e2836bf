/*
 * In-kernel self-tests, run at boot when named on the command line:
 * selftest=pagealloc,kmalloc. A test lives next to the code it tests:
 *
 *	static int test_foo(void)
 *	{
 *		if (bad)
 *			return selftest_fail("got %d, want %d", got, want);
 *		return 0;
 *	}
 *	DEFINE_SELFTEST(foo, test_foo);
 *
 * The runner prints "selftest: foo: ok" or "selftest: foo: FAILED (why)".
 * Tests that crash the kernel on purpose (pagefault, ...) never return;
 * the harness checks their oops report instead.
 */
#ifndef _KERNEL_SELFTEST_H
#define _KERNEL_SELFTEST_H

#include <kernel/compiler.h>

struct selftest {
	const char *name;
	int (*run)(void);
};

#define DEFINE_SELFTEST(tname, fn)                                       \
	static const struct selftest __selftest_##tname __used           \
		__section(".selftest") __aligned(8) = { #tname, fn }

/* Record why the running test failed; returns -1 to be returned. */
__printf(1, 2) int selftest_fail(const char *fmt, ...);

/*
 * Leak checks: take a snapshot before the work, check after it; the check
 * fails the test (through selftest_fail) when kmalloc objects or free
 * pages differ, saying by how much.
 *
 *	struct selftest_mem mem;
 *	selftest_mem_snapshot(&mem);
 *	...
 *	return err ? err : selftest_mem_check(&mem);
 */
struct selftest_mem {
	unsigned long objects, free_pages;
};
void selftest_mem_snapshot(struct selftest_mem *m);
int selftest_mem_check(const struct selftest_mem *before);

/* Run the tests named by selftest=; returns how many failed. */
int run_selftests(void);

#endif
