/*
 * arch/x86/lib/usercopy_test.c: self-tests "uaccess" and (crashing) "smap".
 *
 * Both borrow a throwaway address space with one user page mapped, as if
 * the boot task were a process. uaccess: copies to and from the page work,
 * also into a not-yet-present page (demand-zero through the fault handler),
 * and copies touching unmapped or kernel addresses report failure instead
 * of oopsing. smap: a plain dereference of the user page must oops when the
 * CPU has SMAP (run with -cpu max); without SMAP it reads and the test
 * fails, saying so.
 */
#include <kernel/selftest.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/uaccess.h>
#include <mm/mmap.h>
#include <mm/mmap_lock.h>

#define TEST_ADDR 0x400000UL

static struct mm_struct *borrow_mm(void)
{
	struct mm_struct *mm = mm_alloc();
	struct vm_area_struct *vma;

	if (!mm)
		return NULL;
	mmap_write_lock(mm);	/* vma_create asserts it */
	vma = vma_create(mm, TEST_ADDR, TEST_ADDR + 2 * PAGE_SIZE,
			 VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE);
	mmap_write_unlock(mm);
	if (!vma)
		return NULL;
	current->mm = mm;
	switch_to_mm(mm);
	return mm;
}

static void return_mm(struct mm_struct *mm)
{
	current->mm = NULL;
	switch_to_mm(NULL);
	mmput(mm);
}

static int check_copies(void)
{
	char __user *u = (char __user *)TEST_ADDR;
	char buf[32], back[32];
	long n;

	memcpy(buf, "pagelab uaccess", 16);
	if (copy_to_user(u + PAGE_SIZE - 8, buf, 16))	/* spans both pages */
		return selftest_fail("copy_to_user into a demand-zero page");
	if (copy_from_user(back, u + PAGE_SIZE - 8, 16) || memcmp(buf, back, 16))
		return selftest_fail("copy_from_user did not read back");
	n = strncpy_from_user(back, u + PAGE_SIZE - 8, sizeof(back));
	if (n != 15)
		return selftest_fail("strncpy_from_user: %ld, want 15", n);
	if (copy_from_user(back, u + 2 * PAGE_SIZE - 4, 8) != 4)
		return selftest_fail("copy past the mapping: want 4 bytes left");
	if (copy_to_user((void __user *)0x10, buf, 1) != 1 ||
	    copy_from_user(back, (void __user *)KERNEL_VMA, 1) != 1 ||
	    strncpy_from_user(back, (void __user *)0x10, 4) != -EFAULT)
		return selftest_fail("a bad user pointer was not refused");
	return 0;
}

static int test_uaccess(void)
{
	struct mm_struct *mm = borrow_mm();
	int err;

	if (!mm)
		return selftest_fail("no memory for a test address space");
	err = check_copies();
	return_mm(mm);
	return err;
}
DEFINE_SELFTEST(uaccess, test_uaccess);

static __noinline int selftest_smap_violation(void)
{
	struct mm_struct *mm = borrow_mm();
	volatile char *p = (volatile char *)TEST_ADDR;
	char c;

	if (!mm || copy_to_user((void __user *)TEST_ADDR, "x", 1))
		return selftest_fail("could not set up a user page");
	pr_info("selftest: reading user memory without stac (SMAP %s)\n",
		smap_enabled ? "on" : "off");
	c = *p;
	return_mm(mm);
	return selftest_fail("the kernel read user memory ('%c'): no SMAP", c);
}
DEFINE_SELFTEST(smap, selftest_smap_violation);
