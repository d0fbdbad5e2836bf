/*
 * mm/rmap.c: the reverse map of file pages: from a page-cache page to the
 * page-table entries that map it.
 *
 * Each address_space keeps the VMAs that map its file on mapping->i_mmap
 * (vma->shared), under mapping->i_mmap_lock. A page at file index i sits,
 * in a VMA that maps the file from page vm_pgoff, at
 *     vm_start + (i - vm_pgoff) * PAGE_SIZE
 * when that falls inside the VMA, so no per-page list is needed (Linux's
 * "object-based" rmap for files, the one it also uses; it keeps the VMAs
 * in an interval tree, pagelab in a list).
 *
 *   vma_link_file / vma_unlink_file  keep i_mmap up to date (mm/mmap.c)
 *   page_mkclean    write-protect every shared PTE of a page about to be
 *                   written back, so the next store faults (page_mkwrite)
 *   try_to_unmap    remove every PTE of a page reclaim wants to free,
 *                   unless an mlock()ed (VM_LOCKED) VMA maps it
 *
 * A private (MAP_PRIVATE) VMA may map the file's page, until a store
 * replaces it by an anonymous copy: the walks compare the PTE's frame with
 * the page, so such a copy is never touched here.
 *
 * Each walk changes a PTE under its mm's page_table_lock, taken inside
 * i_mmap_lock, so that it never sees the owner's change of the same PTE
 * (a zap, a copy-on-write, a move) half done.
 *
 * TLBs: a PTE taken away is flushed with flush_tlb_page, on this CPU and
 * on every other CPU that has the mm loaded (arch/x86/mm/tlb.c), before
 * the page can go. That needs interrupts on, so i_mmap_lock is a plain
 * spinlock (no interrupt handler takes it).
 */
#include <mm/rmap.h>
#include <kernel/fail_delay.h>
#include <mm/filemap.h>
#include <fs/fs.h>
#include <kernel/sched.h>
#include <asm/processor.h>

void vma_link_file(struct vm_area_struct *vma)
{
	struct address_space *mapping = vma->vm_file->f_inode->i_mapping;

	spin_lock(&mapping->i_mmap_lock);
	list_add_tail(&vma->shared, &mapping->i_mmap);
	spin_unlock(&mapping->i_mmap_lock);
}

void vma_unlink_file(struct vm_area_struct *vma)
{
	struct address_space *mapping = vma->vm_file->f_inode->i_mapping;

	spin_lock(&mapping->i_mmap_lock);
	list_del_init(&vma->shared);
	spin_unlock(&mapping->i_mmap_lock);
}

/* The address of file page index in vma, or 0 when vma does not cover it. */
unsigned long vma_address(struct vm_area_struct *vma, pgoff_t index)
{
	unsigned long address;

	if (index < vma->vm_pgoff)
		return 0;
	address = vma->vm_start + ((index - vma->vm_pgoff) << PAGE_SHIFT);
	return address < vma->vm_end ? address : 0;
}

/* The PTE mapping page in vma, or NULL (not mapped there, or a COW copy). */
static pte_t *page_pte(struct page *page, struct vm_area_struct *vma,
		       unsigned long *addressp)
{
	unsigned long address = vma_address(vma, page->index);
	pte_t *pte;

	if (!address)
		return NULL;
	pte = lookup_pte(vma->vm_mm->pgd, address, false);
	if (!pte || !(*pte & _PAGE_PRESENT) ||
	    ((*pte & PTE_ADDR_MASK) >> PAGE_SHIFT) != page_to_pfn(page))
		return NULL;
	*addressp = address;
	return pte;
}

/*
 * Write-protect page in every shared mapping. Returns true if some PTE was
 * dirty (written through since the page was last cleaned): the caller
 * must keep or re-mark the page dirty. Page locked.
 */
bool page_mkclean(struct page *page)
{
	struct address_space *mapping = page->mapping;
	struct vm_area_struct *vma;
	unsigned long address;

	bool dirty = false;

	VM_BUG_ON_PAGE(!PageLocked(page), page);

	if (!mapping || page->_mapcount < 0)
		return false;
	fail_delay(FD_PAGE_MKCLEAN);	/* a store may still land now */
	spin_lock(&mapping->i_mmap_lock);
	list_for_each_entry(vma, &mapping->i_mmap, shared) {
		pte_t *pte;

		if (!(vma->vm_flags & VM_SHARED))
			continue;
		spin_lock(&vma->vm_mm->page_table_lock);
		pte = page_pte(page, vma, &address);
		if (pte && (*pte & (_PAGE_RW | _PAGE_DIRTY))) {
			/* One locked and: the dirty bit another CPU's store
			 * sets meanwhile is seen, not overwritten. */
			pte_t old = __atomic_fetch_and(pte, ~(_PAGE_RW |
							      _PAGE_DIRTY),
						       __ATOMIC_SEQ_CST);

			dirty |= !!(old & _PAGE_DIRTY);
			flush_tlb_page(vma, address);
		}
		spin_unlock(&vma->vm_mm->page_table_lock);
	}
	spin_unlock(&mapping->i_mmap_lock);
	return dirty;
}

/* Does a VM_LOCKED VMA map page? i_mmap_lock held. */
static bool page_mlocked(struct page *page, struct address_space *mapping)
{
	struct vm_area_struct *vma;
	unsigned long address;

	list_for_each_entry(vma, &mapping->i_mmap, shared)
		if ((vma->vm_flags & VM_LOCKED) &&
		    page_pte(page, vma, &address))
			return true;
	return false;
}

/*
 * Remove page from every page table that maps it (reclaim). A dirty PTE
 * dirties the page, so its data is written before the page is freed.
 * Page locked. Returns true when no mapping is left.
 * A page that an mlock()ed VMA maps stays everywhere it is (false): it
 * must stay resident (Linux stops at that VMA, and moves the page to
 * its unevictable list; here reclaim just keeps meeting it).
 */
bool try_to_unmap(struct page *page)
{
	struct address_space *mapping = page->mapping;
	struct vm_area_struct *vma;
	unsigned long address;

	VM_BUG_ON_PAGE(!PageLocked(page), page);
	if (!mapping)
		return page->_mapcount < 0;
	spin_lock(&mapping->i_mmap_lock);
	if (page_mlocked(page, mapping)) {
		spin_unlock(&mapping->i_mmap_lock);
		return false;
	}
	list_for_each_entry(vma, &mapping->i_mmap, shared) {
		pte_t *pte, old;

		spin_lock(&vma->vm_mm->page_table_lock);
		pte = page_pte(page, vma, &address);
		/* The exchange may find it gone: a truncate's unmap, which
		 * takes no page_table_lock, won (see zap_pte). */
		if (pte && (old = __atomic_exchange_n(pte, 0,
						      __ATOMIC_SEQ_CST))) {
			if (old & _PAGE_DIRTY)
				set_page_dirty(page);
			flush_tlb_page(vma, address);
			__atomic_sub_fetch(&page->_mapcount, 1,
					   __ATOMIC_SEQ_CST);
			/* the PTE's reference; the caller holds one */
			put_page(page);
		}
		spin_unlock(&vma->vm_mm->page_table_lock);
	}
	spin_unlock(&mapping->i_mmap_lock);
	return page->_mapcount < 0;
}
