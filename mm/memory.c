/*
 * mm/memory.c: page faults and page-table maintenance for user memory.
 *
 * handle_mm_fault() is called by do_page_fault() once it knows the access
 * is allowed by the VMA. It finds (allocating) the PTE and then:
 *   - PTE empty, anonymous VMA:    do_anonymous_page(): a zeroed page;
 *   - PTE empty, file VMA:         vma->vm_ops->fault() (the mmap work);
 *   - PTE present, write to a read-only PTE in a writable VMA:
 *                                  do_wp_page(): copy-on-write.
 * Reference counts: each PTE that maps a page holds one reference (and one
 * _mapcount); the last put_page() frees it.
 */
#include <mm/mmap.h>
#include <mm/gfp.h>
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/string.h>
#include <kernel/vmstat.h>
#include <asm/processor.h>

pte_t vm_page_prot(unsigned long vm_flags)
{
	pte_t prot = _PAGE_PRESENT | _PAGE_USER;

	if (vm_flags & VM_WRITE)
		prot |= _PAGE_RW;
	if (!(vm_flags & VM_EXEC))
		prot |= _PAGE_NX;
	return prot;
}

void flush_tlb_range(unsigned long start, unsigned long end)
{
	if (end - start > 64 * PAGE_SIZE) {
		flush_tlb_all();
		return;
	}
	for (; start < end; start += PAGE_SIZE)
		invlpg(start);
}

void flush_tlb_all(void)
{
	write_cr3(read_cr3());
}

static void put_page(struct page *page)
{
	__free_pages(page, 0);
}

static struct page *pte_page(pte_t pte)
{
	return pfn_to_page((pte & PTE_ADDR_MASK) >> PAGE_SHIFT);
}

static int do_anonymous_page(struct vm_area_struct *vma, pte_t *pte,
			     unsigned long address)
{
	/* LAB paging: BEGIN */
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);

	if (!page)
		return VM_FAULT_OOM;
	page->_mapcount++;
	*pte = page_to_phys(page) | vm_page_prot(vma->vm_flags);
	count_vm_event(PGFAULT_ANON);
	return 0;
	/* LAB paging: END */
}

/*
 * A write to a present, write-protected page in a writable private VMA:
 * the page is shared with another address space since fork (or is the
 * zero-filled original of one). If we hold the only reference, just make
 * it writable again; otherwise copy it and map the copy.
 */
static int do_wp_page(struct vm_area_struct *vma, pte_t *pte,
		      unsigned long address)
{
	/* LAB paging: BEGIN */
	struct page *old = pte_page(*pte), *new;

	if (page_count(old) == 1) {
		*pte |= _PAGE_RW;
		invlpg(address);
		return 0;
	}
	new = alloc_page(GFP_KERNEL);
	if (!new)
		return VM_FAULT_OOM;
	memcpy(page_address(new), page_address(old), PAGE_SIZE);
	new->_mapcount++;
	*pte = page_to_phys(new) | vm_page_prot(vma->vm_flags);
	invlpg(address);
	old->_mapcount--;
	put_page(old);
	count_vm_event(COW_FAULT);
	return 0;
	/* LAB paging: END */
}

int handle_mm_fault(struct vm_area_struct *vma, unsigned long address,
		    unsigned int flags)
{
	pte_t *pte = lookup_pte(vma->vm_mm->pgd, address & PAGE_MASK, true);

	count_vm_event(PGFAULT);
	address &= PAGE_MASK;
	if (!pte)
		return VM_FAULT_OOM;
	if (!(*pte & _PAGE_PRESENT)) {
		if (vma->vm_ops && vma->vm_ops->fault)
			return VM_FAULT_SIGBUS;	/* file faults: later */
		return do_anonymous_page(vma, pte, address);
	}
	if ((flags & FAULT_FLAG_WRITE) && !(*pte & _PAGE_RW))
		return do_wp_page(vma, pte, address);
	/* Present and allowed: another path fixed it first, or a stale TLB. */
	invlpg(address);
	return 0;
}

/* Unmap one PTE, dropping its page reference. */
static void zap_pte(pte_t *pte)
{
	struct page *page;

	if (!(*pte & _PAGE_PRESENT))
		return;
	page = pte_page(*pte);
	*pte = 0;
	page->_mapcount--;
	put_page(page);
}

void zap_page_range(struct vm_area_struct *vma, unsigned long start,
		    unsigned long end)
{
	for (unsigned long a = start; a < end; a += PAGE_SIZE) {
		pte_t *pte = lookup_pte(vma->vm_mm->pgd, a, false);

		if (pte)
			zap_pte(pte);
	}
	flush_tlb_range(start, end);
}

/*
 * fork: the child maps the same pages. Private writable pages become
 * read-only in both, so the first write by either copies (do_wp_page).
 */
int copy_page_range(struct mm_struct *dst, struct mm_struct *src,
		    struct vm_area_struct *vma)
{
	bool cow = (vma->vm_flags & (VM_SHARED | VM_MAYWRITE)) == VM_MAYWRITE;

	for (unsigned long a = vma->vm_start; a < vma->vm_end; a += PAGE_SIZE) {
		pte_t *spte = lookup_pte(src->pgd, a, false), *dpte;
		struct page *page;

		if (!spte || !(*spte & _PAGE_PRESENT))
			continue;
		dpte = lookup_pte(dst->pgd, a, true);
		if (!dpte)
			return -ENOMEM;
		if (cow)
			*spte &= ~_PAGE_RW;
		page = pte_page(*spte);
		get_page(page);
		page->_mapcount++;
		*dpte = *spte;
	}
	return 0;
}

/* Free the tables below one entry at `level` (3: a PUD table, 1: a PT). */
static void free_table(pte_t *table, int level)
{
	for (int i = 0; level > 1 && i < PTRS_PER_TABLE; i++)
		if (table[i] & _PAGE_PRESENT)
			free_table(pte_table(table[i]), level - 1);
	free_page((unsigned long)table);
}

void free_pgtables(struct mm_struct *mm)
{
	for (int i = 0; i < PTRS_PER_TABLE / 2; i++) {
		if (mm->pgd[i] & _PAGE_PRESENT)
			free_table(pte_table(mm->pgd[i]), 3);
		mm->pgd[i] = 0;
	}
}
