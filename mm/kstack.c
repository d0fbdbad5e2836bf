/*
 * mm/kstack.c: kernel stacks with a guard below them.
 *
 * A task's kernel stack is THREAD_SIZE bytes of ordinary pages, mapped in a
 * region of its own (KSTACK_START, asm/pgtable_64_types.h), each in a slot
 * twice that size: the upper half is the stack, the lower half is never
 * mapped. A kernel path that runs off the end of its stack (deep recursion,
 * a huge local array) then faults at once, and the CPU, unable to push the
 * fault frame on the same stack, raises a double fault, which runs on its
 * own IST stack and reports "kernel stack overflow" with the task and a
 * trace (arch/x86/kernel/traps.c). Stacks taken from the direct map, as
 * before, sat next to other memory: an overflow silently wrote over it,
 * page tables included, and ended in a triple fault with nothing on the
 * console.
 * (Linux: CONFIG_VMAP_STACK, stacks in vmalloc space.)
 *
 * The region's top-level page-table entry, which it shares with the
 * device-memory area, is made at boot (paging_init), so every address
 * space, which copies the kernel half once, sees stacks mapped later.
 *
 * Freeing with several CPUs: another CPU may hold the stack's
 * translations in its TLB, and must drop them (a shoot-down, which needs
 * interrupts on) before the pages or the slot are used again. A stack is
 * freed where interrupts are off (a dead task's, in schedule), so it is
 * only marked lazy there, still mapped; kstack_purge unmaps a batch of
 * lazy stacks, flushes every CPU once, and frees them (Linux's lazy
 * vunmap). The next allocation purges, and so do the idle loop and
 * drop_caches. With one CPU a stack is freed at once. The region's page
 * tables are all made with the first stack and kept: slots freed lazily
 * make new stacks go higher meanwhile, and tables made for them on demand
 * would look like a leak to the tests' page audit.
 */
#include <mm/kstack.h>
#include <mm/gfp.h>
#include <mm/pgtable.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/spinlock.h>
#include <asm/processor.h>
#include <asm/tlbflush.h>

#define KSTACK_SLOT_SIZE (2 * THREAD_SIZE)
#define KSTACK_PAGES (THREAD_SIZE / PAGE_SIZE)

#define PURGE_BATCH 16	/* stacks unmapped per flush */

static unsigned long slot_used[KSTACK_SLOTS / (8 * sizeof(long))];
static unsigned long slot_lazy[KSTACK_SLOTS / (8 * sizeof(long))];
static int nr_lazy;
static DEFINE_SPINLOCK(kstack_lock);
/* One purge at a time, and none half done (its pages unmapped but not
 * yet free) while the page audit counts: kstack_purge_hold. */
static DEFINE_SPINLOCK(purge_lock);

static long take_slot(void)
{
	unsigned long flags;
	long slot = -1;

	spin_lock_irqsave(&kstack_lock, flags);
	for (long i = 0; i < KSTACK_SLOTS; i++)
		if (!test_bit(i, slot_used)) {
			set_bit(i, slot_used);
			slot = i;
			break;
		}
	spin_unlock_irqrestore(&kstack_lock, flags);
	return slot;
}

static void put_slot(long slot)
{
	unsigned long flags;

	spin_lock_irqsave(&kstack_lock, flags);
	clear_bit(slot, slot_used);
	spin_unlock_irqrestore(&kstack_lock, flags);
}

static unsigned long slot_va(long slot)
{
	return KSTACK_START + slot * KSTACK_SLOT_SIZE + THREAD_SIZE;
}

/* Clear the PTEs of the stack at va, collecting its pages in pages[]
 * (NULL where none was mapped); nothing is flushed. */
static void clear_stack_ptes(unsigned long va, struct page **pages)
{
	for (int i = 0; i < KSTACK_PAGES; i++) {
		pte_t *pte = lookup_pte(init_pgd, va + i * PAGE_SIZE, false);

		pages[i] = NULL;
		if (!pte || !(*pte & _PAGE_PRESENT))
			continue;
		pages[i] = pfn_to_page((*pte & PTE_ADDR_MASK) >> PAGE_SHIFT);
		*pte = 0;
	}
}

static void free_stack_pages(struct page **pages, int n)
{
	for (int i = 0; i < n; i++)
		if (pages[i])
			__free_page(pages[i]);
}

/* Unmap and free the stack at va here, with only this CPU to flush. */
static void unmap_stack(unsigned long va)
{
	struct page *pages[KSTACK_PAGES];

	clear_stack_ptes(va, pages);
	for (int i = 0; i < KSTACK_PAGES; i++)
		invlpg(va + i * PAGE_SIZE);
	free_stack_pages(pages, KSTACK_PAGES);
}

/* Up to PURGE_BATCH lazy slots, taken off the lazy set into slots[]. */
static int take_lazy(long *slots)
{
	unsigned long flags;
	int n = 0;

	spin_lock_irqsave(&kstack_lock, flags);
	for (long i = 0; i < KSTACK_SLOTS && n < PURGE_BATCH && nr_lazy; i++)
		if (test_bit(i, slot_lazy)) {
			clear_bit(i, slot_lazy);
			nr_lazy--;
			slots[n++] = i;
		}
	spin_unlock_irqrestore(&kstack_lock, flags);
	return n;
}

static void __kstack_purge(void)
{
	struct page *pages[PURGE_BATCH * KSTACK_PAGES];
	long slots[PURGE_BATCH];
	int n;

	while (READ_ONCE(nr_lazy) && (n = take_lazy(slots))) {
		for (int i = 0; i < n; i++)
			clear_stack_ptes(slot_va(slots[i]),
					 &pages[i * KSTACK_PAGES]);
		flush_tlb_kernel_all();
		free_stack_pages(pages, n * KSTACK_PAGES);
		for (int i = 0; i < n; i++)
			put_slot(slots[i]);
	}
}

/* Free the stacks freed lazily. Interrupts on: it waits for other CPUs. */
void kstack_purge(void)
{
	if (!READ_ONCE(nr_lazy))
		return;
	spin_lock(&purge_lock);
	__kstack_purge();
	spin_unlock(&purge_lock);
}

/* Purge, and let no purge start until kstack_purge_release. */
void kstack_purge_hold(void)
{
	spin_lock(&purge_lock);
	__kstack_purge();
}

void kstack_purge_release(void)
{
	spin_unlock(&purge_lock);
}

/* Every page table of the region, once (a 2 MiB table covers 64 slots). */
static bool kstack_tables(void)
{
	static bool done;

	for (unsigned long va = KSTACK_START; !done &&
	     va < KSTACK_START + KSTACK_SLOTS * KSTACK_SLOT_SIZE; va += PMD_SIZE)
		if (!lookup_pte(init_pgd, va, true))
			return false;
	init_pgd[pt_index(KSTACK_START, PGDIR_SHIFT)] &= ~_PAGE_USER;
	done = true;
	return true;
}

void *alloc_kernel_stack(void)
{
	long slot;
	unsigned long va;

	if (!kstack_tables())
		return NULL;
	kstack_purge();
	slot = take_slot();
	if (slot < 0) {
		pr_err("kstack: all %d stack slots in use\n", KSTACK_SLOTS);
		return NULL;
	}
	va = slot_va(slot);
	for (int i = 0; i < KSTACK_PAGES; i++) {
		struct page *page = alloc_page(GFP_KERNEL);
		pte_t *pte = page ? lookup_pte(init_pgd, va + i * PAGE_SIZE,
					       true) : NULL;

		if (!pte) {
			if (page)
				__free_page(page);
			unmap_stack(va);
			put_slot(slot);
			return NULL;
		}
		*pte = page_to_phys(page) | PAGE_KERNEL;
	}
	/* lookup_pte made the new upper levels user-accessible; the kernel
	 * half never is. */
	init_pgd[pt_index(KSTACK_START, PGDIR_SHIFT)] &= ~_PAGE_USER;
	return (void *)va;
}

/* May be called with interrupts off (a dead task's stack). */
void free_kernel_stack(void *stack)
{
	unsigned long va = (unsigned long)stack, flags;
	long slot = (va - KSTACK_START) / KSTACK_SLOT_SIZE;

	if (num_online_cpus() == 1) {
		unmap_stack(va);
		put_slot(slot);
		return;
	}
	spin_lock_irqsave(&kstack_lock, flags);
	set_bit(slot, slot_lazy);
	nr_lazy++;
	spin_unlock_irqrestore(&kstack_lock, flags);
}

/* Pages of the stacks allocated and not yet freed (lazy ones included):
 * the page audit's "kstacks". */
unsigned long kstack_pages(void)
{
	unsigned long flags, n = 0;

	spin_lock_irqsave(&kstack_lock, flags);
	for (long i = 0; i < KSTACK_SLOTS; i++)
		n += test_bit(i, slot_used);
	spin_unlock_irqrestore(&kstack_lock, flags);
	return n * KSTACK_PAGES;
}

bool in_kstack_guard(unsigned long addr)
{
	return addr >= KSTACK_START &&
	       addr < KSTACK_START + KSTACK_SLOTS * KSTACK_SLOT_SIZE &&
	       (addr - KSTACK_START) % KSTACK_SLOT_SIZE < THREAD_SIZE;
}
