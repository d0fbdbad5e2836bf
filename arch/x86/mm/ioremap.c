/*
 * arch/x86/mm/ioremap.c: device memory in the kernel's address space.
 *
 * The direct map covers RAM only. A device's memory BAR (virtio's
 * registers, say) lies above it in the physical address space, so a driver
 * asks ioremap() for a kernel virtual address of its own, in the area the
 * address map sets aside (IOREMAP_START, asm/pgtable_64_types.h). The
 * mapping is uncached, and never taken down: no device here goes away.
 * (Linux: arch/x86/mm/ioremap.c, which also tracks memory types with PAT.)
 */
#include <asm/io.h>
#include <asm/pgtable_64_types.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <mm/mm.h>
#include <mm/pgtable.h>

static unsigned long ioremap_next = IOREMAP_START;
static DEFINE_SPINLOCK(ioremap_lock);

void *ioremap(phys_addr_t phys, size_t size)
{
	phys_addr_t start = phys & PAGE_MASK;
	size_t len = PAGE_ALIGN(phys + size) - start;
	unsigned long va, flags;

	if (!size || phys + size < phys)
		return NULL;
	/* The direct map already maps RAM write-back; a second, uncached
	 * mapping of the same frames is undefined behaviour on x86. (Holes
	 * below max_pfn are PG_reserved and may hold device memory.) */
	if ((start >> PAGE_SHIFT) < max_pfn &&
	    !PageReserved(pfn_to_page(start >> PAGE_SHIFT))) {
		pr_err("ioremap: %#lx is RAM, not device memory\n", phys);
		return NULL;
	}
	spin_lock_irqsave(&ioremap_lock, flags);
	if (len > IOREMAP_START + IOREMAP_SIZE - ioremap_next) {
		spin_unlock_irqrestore(&ioremap_lock, flags);
		pr_err("ioremap: area full (%#lx bytes asked)\n", size);
		return NULL;
	}
	va = ioremap_next;
	ioremap_next += len + PAGE_SIZE;	/* an unmapped guard page */
	spin_unlock_irqrestore(&ioremap_lock, flags);

	for (size_t off = 0; off < len; off += PAGE_SIZE) {
		pte_t *pte = lookup_pte(init_pgd, va + off, true);

		if (!pte)
			return NULL;	/* the area's space stays used */
		/* PCD|PWT: uncached. Device registers have side effects and
		 * must see every access, in order, at its size. */
		*pte = (start + off) | PAGE_KERNEL | _PAGE_PCD | _PAGE_PWT;
	}
	/* lookup_pte made the upper levels user-accessible; the kernel half
	 * never is (see clear_user_bit_kernel_half). */
	init_pgd[pt_index(IOREMAP_START, PGDIR_SHIFT)] &= ~_PAGE_USER;
	return (void *)(va + (phys & ~PAGE_MASK));
}
