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
 */
#include <mm/kstack.h>
#include <mm/gfp.h>
#include <mm/pgtable.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <asm/processor.h>

#define KSTACK_SLOT_SIZE (2 * THREAD_SIZE)
#define KSTACK_PAGES (THREAD_SIZE / PAGE_SIZE)

static unsigned long slot_used[KSTACK_SLOTS / (8 * sizeof(long))];
static DEFINE_SPINLOCK(kstack_lock);

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

/* Unmap and free the pages of the stack at va (some may be missing). */
static void unmap_stack(unsigned long va)
{
	for (int i = 0; i < KSTACK_PAGES; i++) {
		unsigned long a = va + i * PAGE_SIZE;
		pte_t *pte = lookup_pte(init_pgd, a, false);

		if (!pte || !(*pte & _PAGE_PRESENT))
			continue;
		__free_page(pfn_to_page((*pte & PTE_ADDR_MASK) >> PAGE_SHIFT));
		*pte = 0;
		invlpg(a);
	}
}

void *alloc_kernel_stack(void)
{
	long slot = take_slot();
	unsigned long va;

	if (slot < 0) {
		pr_err("kstack: all %d stack slots in use\n", KSTACK_SLOTS);
		return NULL;
	}
	va = KSTACK_START + slot * KSTACK_SLOT_SIZE + THREAD_SIZE;
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

void free_kernel_stack(void *stack)
{
	unsigned long va = (unsigned long)stack;

	unmap_stack(va);
	put_slot((va - KSTACK_START) / KSTACK_SLOT_SIZE);
}

bool in_kstack_guard(unsigned long addr)
{
	return addr >= KSTACK_START &&
	       addr < KSTACK_START + KSTACK_SLOTS * KSTACK_SLOT_SIZE &&
	       (addr - KSTACK_START) % KSTACK_SLOT_SIZE < THREAD_SIZE;
}
