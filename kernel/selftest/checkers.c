/*
 * kernel/selftest/checkers.c: plant each kind of bug the checkers exist
 * for, one per boot (each report ends in a panic), so that the harness
 * can check the report names the bug and the function that made it:
 *
 *	selftest=double_put		put_page twice on one reference
 *	selftest=free_locked_page	the last put_page of a page another
 *					function locked and left locked
 *	selftest=get_freed_page		get_page on a page already freed
 *	selftest=page_leak		a reference taken and never dropped:
 *					page_owner's report names where
 *	selftest=unlock_unheld_mutex	mutex_unlock of a mutex nobody holds
 *	selftest=assert_unheld_mutex	lockdep_assert_held on a free mutex
 *	selftest=find_vma_unlocked	find_vma on an mm whose mmap_lock
 *					nobody holds
 *	selftest=mmap_lock_recursion	mmap_read_lock twice by one task
 *	selftest=sleep_under_spinlock	mutex_lock with a spinlock held
 *	selftest=alloc_under_spinlock	alloc_page(GFP_KERNEL) with a
 *					spinlock held (it may reclaim, so
 *					sleep: reported even when it does not)
 *	selftest=lock_held_to_user	a mutex left locked; init's first
 *					return to user space finds it
 *	selftest=write_after_free	a byte written to a page after its
 *					last put_page (page poisoning; boot
 *					with debug_pagealloc=off, or the
 *					write itself faults)
 *	selftest=read_after_free	a byte read from a page after its
 *					last put_page (debug_pagealloc)
 *	selftest=pagecache_use_after_free
 *					a page-cache page read through a
 *					stale pointer after a truncate
 *					removed it (debug_pagealloc)
 *	selftest=lock_inversion		two mutexes taken in one order, then
 *					in the other (by one task: no
 *					deadlock happens, the order says
 *					two tasks could)
 *	selftest=kmalloc_redzone	a byte written just past a 40-byte
 *					kmalloc object, then kfree
 *	selftest=kmalloc_use_after_free
 *					a byte written to a kmalloc object
 *					after kfree, then a kmalloc of the
 *					same size takes it back
 *	selftest=tlb_stall		another CPU spins with interrupts
 *					off for good while a TLB shoot-down
 *					needs it (boot with smp 2)
 */
#include <asm/tlbflush.h>
#include <fs/fs.h>
#include <kernel/lockdep.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/selftest.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <mm/filemap.h>
#include <mm/mmap.h>
#include <mm/mmap_lock.h>
#include <mm/pagecheck.h>
#include <mm/pgtable.h>
#include <mm/gfp.h>
#include <mm/slab.h>

static __noinline int planted_double_put(void)
{
	struct page *page = alloc_page(GFP_KERNEL);

	if (!page)
		return selftest_fail("no page");
	pr_info("selftest: putting page %p twice\n", page);
	put_page(page);
	put_page(page);
	return selftest_fail("a double put_page went unreported");
}
DEFINE_SELFTEST(double_put, planted_double_put);

/* The mistake: returns with the page still locked. */
static __noinline void planted_lock_and_forget(struct page *page)
{
	lock_page(page);
}

/* Frees a page that planted_lock_and_forget left locked: the report must
 * name that function, not this one, as where the lock was taken. */
static __noinline int planted_free_locked_page(void)
{
	struct page *page = alloc_page(GFP_KERNEL);

	if (!page)
		return selftest_fail("no page");
	pr_info("selftest: freeing page %p while it is locked\n", page);
	planted_lock_and_forget(page);
	put_page(page);
	return selftest_fail("a locked page was freed unreported");
}
DEFINE_SELFTEST(free_locked_page, planted_free_locked_page);

static __noinline int planted_get_freed_page(void)
{
	struct page *page = alloc_page(GFP_KERNEL);

	if (!page)
		return selftest_fail("no page");
	put_page(page);
	pr_info("selftest: get_page on freed page %p\n", page);
	get_page(page);
	return selftest_fail("get_page on a free page went unreported");
}
DEFINE_SELFTEST(get_freed_page, planted_get_freed_page);

static DEFINE_MUTEX(planted_mutex);

static __noinline int planted_unlock_unheld_mutex(void)
{
	pr_info("selftest: unlocking a mutex nobody holds\n");
	mutex_unlock(&planted_mutex);
	return selftest_fail("mutex_unlock of a free mutex went unreported");
}
DEFINE_SELFTEST(unlock_unheld_mutex, planted_unlock_unheld_mutex);

static __noinline int planted_assert_unheld_mutex(void)
{
	pr_info("selftest: asserting a mutex nobody holds is held\n");
	lockdep_assert_held(&planted_mutex);
	return selftest_fail("lockdep_assert_held passed on a free mutex");
}
DEFINE_SELFTEST(assert_unheld_mutex, planted_assert_unheld_mutex);

static __noinline int planted_find_vma_unlocked(void)
{
	struct mm_struct *mm = mm_alloc();

	if (!mm)
		return selftest_fail("no memory for an mm");
	pr_info("selftest: find_vma without mmap_lock\n");
	find_vma(mm, 0);
	mmput(mm);
	return selftest_fail("find_vma without mmap_lock went unreported");
}
DEFINE_SELFTEST(find_vma_unlocked, planted_find_vma_unlocked);

/* A second down_read deadlocks only if a writer queues between the two;
 * the check does not wait for that run. */
static __noinline int planted_mmap_lock_recursion(void)
{
	struct mm_struct *mm = mm_alloc();

	if (!mm)
		return selftest_fail("no memory for an mm");
	pr_info("selftest: mmap_read_lock twice\n");
	mmap_read_lock(mm);
	mmap_read_lock(mm);
	mmap_read_unlock(mm);
	mmap_read_unlock(mm);
	mmput(mm);
	return selftest_fail("a recursive mmap_read_lock went unreported");
}
DEFINE_SELFTEST(mmap_lock_recursion, planted_mmap_lock_recursion);

static DEFINE_SPINLOCK(planted_spinlock);

static __noinline int planted_sleep_under_spinlock(void)
{
	pr_info("selftest: taking a mutex with a spinlock held\n");
	spin_lock(&planted_spinlock);
	mutex_lock(&planted_mutex);
	mutex_unlock(&planted_mutex);
	spin_unlock(&planted_spinlock);
	return selftest_fail("might_sleep under a spinlock went unreported");
}
DEFINE_SELFTEST(sleep_under_spinlock, planted_sleep_under_spinlock);

static __noinline int planted_alloc_under_spinlock(void)
{
	struct page *page;

	pr_info("selftest: alloc_page(GFP_KERNEL) with a spinlock held\n");
	spin_lock(&planted_spinlock);
	page = alloc_page(GFP_KERNEL);
	spin_unlock(&planted_spinlock);
	if (page)
		put_page(page);
	return selftest_fail("GFP_KERNEL under a spinlock went unreported");
}
DEFINE_SELFTEST(alloc_under_spinlock, planted_alloc_under_spinlock);

/* Passes itself: the report comes when init first enters user space. */
static __noinline int planted_lock_held_to_user(void)
{
	pr_info("selftest: leaving planted_mutex locked\n");
	mutex_lock(&planted_mutex);
	return 0;
}
DEFINE_SELFTEST(lock_held_to_user, planted_lock_held_to_user);

static DEFINE_MUTEX(planted_outer);
static DEFINE_MUTEX(planted_inner);

static __noinline void planted_take_in_order(struct mutex *a, struct mutex *b)
{
	mutex_lock(a);
	mutex_lock(b);
	mutex_unlock(b);
	mutex_unlock(a);
}

static __noinline int planted_lock_inversion(void)
{
	pr_info("selftest: planted_outer, then planted_inner\n");
	planted_take_in_order(&planted_outer, &planted_inner);
	pr_info("selftest: planted_inner, then planted_outer\n");
	planted_take_in_order(&planted_inner, &planted_outer);
	return selftest_fail("a lock inversion went unreported");
}
DEFINE_SELFTEST(lock_inversion, planted_lock_inversion);

/* The same mistake with spinlocks: taken in both orders, one run. */
static DEFINE_SPINLOCK(planted_spin_outer);
static DEFINE_SPINLOCK(planted_spin_inner);

static __noinline void planted_spin_in_order(spinlock_t *a, spinlock_t *b)
{
	spin_lock(a);
	spin_lock(b);
	spin_unlock(b);
	spin_unlock(a);
}

static __noinline int planted_spin_inversion(void)
{
	pr_info("selftest: planted_spin_outer, then planted_spin_inner\n");
	planted_spin_in_order(&planted_spin_outer, &planted_spin_inner);
	pr_info("selftest: planted_spin_inner, then planted_spin_outer\n");
	planted_spin_in_order(&planted_spin_inner, &planted_spin_outer);
	return selftest_fail("a spinlock inversion went unreported");
}
DEFINE_SELFTEST(spin_inversion, planted_spin_inversion);

/* A lock an interrupt handler takes (here, as if in one: irq_enter),
 * then taken with interrupts on: the second use is the mistake. */
static DEFINE_SPINLOCK(planted_irq_lock);

static __noinline void planted_irq_handler(void)
{
	unsigned long flags = local_irq_save();

	irq_enter();
	spin_lock(&planted_irq_lock);
	spin_unlock(&planted_irq_lock);
	irq_exit();
	local_irq_restore(flags);
}

static __noinline int planted_irq_unsafe_lock(void)
{
	planted_irq_handler();
	pr_info("selftest: planted_irq_lock with interrupts on\n");
	spin_lock(&planted_irq_lock);
	spin_unlock(&planted_irq_lock);
	return selftest_fail("an irq-unsafe lock went unreported");
}
DEFINE_SELFTEST(irq_unsafe_lock, planted_irq_unsafe_lock);

static __noinline struct page *planted_leaky_alloc(void)
{
	return alloc_page(GFP_KERNEL);
}

/* The mistake: a reference taken and never dropped. */
static __noinline void planted_forgotten_get(struct page *page)
{
	get_page(page);
}

/* A page whose last put leaves it held (the forgotten reference): the
 * leak report must say where it was allocated and show the get. */
static __noinline int planted_page_leak(void)
{
	u32 since = page_owner_alloc_seq();
	struct page *page = planted_leaky_alloc();

	if (!page)
		return selftest_fail("no page");
	if (!page_owner_refs)
		return selftest_fail("boot with page_owner=refs");
	planted_forgotten_get(page);
	put_page(page);		/* the allocation's reference */
	pr_info("selftest: page %p leaked; what page_owner says:\n", page);
	page_owner_print_leaks(PC_OTHER, since);
	put_page(page);		/* the leak, now reported */
	return 0;
}
DEFINE_SELFTEST(page_leak, planted_page_leak);

static __noinline int planted_read_after_free(void)
{
	struct page *page = alloc_page(GFP_KERNEL);
	const volatile char *p;

	if (!page)
		return selftest_fail("no page");
	if (!debug_pagealloc)
		return selftest_fail("debug_pagealloc is off");
	p = page_address(page);
	put_page(page);
	pr_info("selftest: reading page %p after its last put_page\n", page);
	(void)p[64];
	return selftest_fail("a read after free went unreported");
}
DEFINE_SELFTEST(read_after_free, planted_read_after_free);

/*
 * A page-cache page kept by address after the truncate that removed it
 * (a struct page * or a pointer into it held across truncate_inode_pages,
 * without a reference): the truncate's put_page was its last, the page
 * left the direct map, and the read faults at once, with the page's
 * history, which says the truncate freed it. The file is a bare inode of
 * no file system: a mapping and its page.
 */
static __noinline int planted_pagecache_use_after_free(void)
{
	struct inode *inode = kzalloc(sizeof(*inode), GFP_KERNEL);
	const volatile char *p;
	struct page *page;

	if (!inode)
		return selftest_fail("no memory");
	if (!debug_pagealloc)
		return selftest_fail("debug_pagealloc is off");
	mutex_init(&inode->i_mutex);
	address_space_init_once(&inode->i_data, inode);
	inode->i_mapping = &inode->i_data;
	page = find_or_create_page(inode->i_mapping, 0, GFP_KERNEL);
	if (!page)
		return selftest_fail("no page");
	memset(page_address(page), 'x', PAGE_SIZE);
	SetPageUptodate(page);
	unlock_page(page);
	p = page_address(page);
	page_cache_release(page);	/* the cache's reference is the last */
	mutex_lock(&inode->i_mutex);
	truncate_inode_pages(inode->i_mapping, 0);
	mutex_unlock(&inode->i_mutex);
	pr_info("selftest: reading page-cache page %p after a truncate "
		"removed it\n", page);
	(void)p[128];
	return selftest_fail("a read of a truncated page went unreported");
}
DEFINE_SELFTEST(pagecache_use_after_free, planted_pagecache_use_after_free);

static __noinline int planted_write_after_free(void)
{
	struct page *page = alloc_page(GFP_KERNEL), *again[64];
	int n = 0;
	char *p;

	if (!page)
		return selftest_fail("no page");
	p = page_address(page);
	put_page(page);
	pr_info("selftest: writing to page %p after its last put_page\n",
		page);
	p[100] = 1;
	/* The page freed last is handed out first: it comes back at once,
	 * and alloc_pages checks its poison. */
	while (n < 64 && (again[n] = alloc_page(GFP_KERNEL)) &&
	       again[n++] != page)
		;
	while (n--)
		if (again[n])
			put_page(again[n]);
	return selftest_fail("a write after free went unreported");
}
DEFINE_SELFTEST(write_after_free, planted_write_after_free);

/* With slub_debug=off nothing notices: the selftest then says FAILED. */
static __noinline int planted_kmalloc_redzone(void)
{
	char *p = kmalloc(40, GFP_KERNEL);

	if (!p)
		return selftest_fail("no memory");
	pr_info("selftest: writing byte 40 of a 40-byte kmalloc object %p\n",
		p);
	p[40] = 1;
	kfree(p);
	return selftest_fail("a write past a kmalloc object went unreported");
}
DEFINE_SELFTEST(kmalloc_redzone, planted_kmalloc_redzone);

static __noinline int planted_kmalloc_use_after_free(void)
{
	/* A neighbour in p's slab keeps the slab: with p alone in it,
	 * kfree would give the slab's page back, and the write would fault
	 * there (debug_pagealloc) instead of landing in a freed object. */
	char *p = kmalloc(40, GFP_KERNEL), *again, *neighbour = NULL;
	char *others[64];
	int n = 0;

	if (!p)
		return selftest_fail("no memory");
	while (n < 64 && (others[n] = kmalloc(40, GFP_KERNEL))) {
		if (virt_to_page(others[n]) == virt_to_page(p)) {
			neighbour = others[n];
			break;
		}
		n++;
	}
	for (int i = 0; i < n; i++)	/* in other slabs */
		kfree(others[i]);
	if (!neighbour)
		return selftest_fail("no second object in the slab of %p", p);
	kfree(p);
	pr_info("selftest: writing to kmalloc object %p after kfree\n", p);
	p[8] = 1;
	/* The object freed last is the first of its slab's freelist, and
	 * its slab the first with room: the same size takes it back. */
	again = kmalloc(40, GFP_KERNEL);
	kfree(again);
	kfree(neighbour);
	if (again != p)
		return selftest_fail("kmalloc gave %p, not the freed %p", again,
				     p);
	return selftest_fail("a write after kfree went unreported");
}
DEFINE_SELFTEST(kmalloc_use_after_free, planted_kmalloc_use_after_free);

/*
 * A CPU with interrupts off for good, and a shoot-down that needs it: the
 * sender must not wait for ever in silence. After tlb_stall_timeout= it
 * has the stuck CPU show its backtrace (an NMI gets through), which names
 * planted_irqs_off_forever, and panics. The other CPUs come up early
 * here, since self-tests run before smp_init.
 */
static volatile bool stall_spinning;

static __noinline void planted_irqs_off_forever(void *unused)
{
	set_cpus_allowed(current, 1UL << 1);
	while (smp_processor_id() != 1)
		schedule();
	local_irq_disable();
	stall_spinning = true;
	for (;;)
		cpu_relax();
}

static int planted_tlb_stall(void)
{
	smp_init();
	if (num_online_cpus() < 2)
		return selftest_fail("needs a second CPU (boot with smp 2)");
	kernel_thread(planted_irqs_off_forever, NULL, "stall");
	while (!stall_spinning)
		schedule_timeout_interruptible(1);
	flush_tlb_kernel_all();
	return selftest_fail("the shoot-down came back from a CPU that has "
			     "interrupts off");
}
DEFINE_SELFTEST(tlb_stall, planted_tlb_stall);
