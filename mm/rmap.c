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
 * TLBs: pagelab has one CPU, and a task switch to another mm reloads CR3,
 * which drops every user translation; so only the current mm's TLB
 * entries can be stale, and invlpg on those suffices.
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
	unsigned long flags;

	spin_lock_irqsave(&mapping->i_mmap_lock, flags);
	list_add_tail(&vma->shared, &mapping->i_mmap);
	spin_unlock_irqrestore(&mapping->i_mmap_lock, flags);
}

void vma_unlink_file(struct vm_area_struct *vma)
{
	struct address_space *mapping = vma->vm_file->f_inode->i_mapping;
	unsigned long flags;

	spin_lock_irqsave(&mapping->i_mmap_lock, flags);
	list_del_init(&vma->shared);
	spin_unlock_irqrestore(&mapping->i_mmap_lock, flags);
}

void flush_tlb_page(struct vm_area_struct *vma, unsigned long address)
{
	if (vma->vm_mm == current->mm)
		invlpg(address);
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
	unsigned long flags, address;

	bool dirty = false;

	VM_BUG_ON_PAGE(!PageLocked(page), page);

	if (!mapping || page->_mapcount < 0)
		return false;
	fail_delay(FD_PAGE_MKCLEAN);	/* a store may still land now */
	spin_lock_irqsave(&mapping->i_mmap_lock, flags);
	list_for_each_entry(vma, &mapping->i_mmap, shared) {
		pte_t *pte;

		if (!(vma->vm_flags & VM_SHARED))
			continue;
		spin_lock(&vma->vm_mm->page_table_lock);
		pte = page_pte(page, vma, &address);
		if (pte && (*pte & (_PAGE_RW | _PAGE_DIRTY))) {
			dirty |= !!(*pte & _PAGE_DIRTY);
			*pte &= ~(_PAGE_RW | _PAGE_DIRTY);
			flush_tlb_page(vma, address);
		}
		spin_unlock(&vma->vm_mm->page_table_lock);
	}
	spin_unlock_irqrestore(&mapping->i_mmap_lock, flags);
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
	unsigned long flags, address;

	VM_BUG_ON_PAGE(!PageLocked(page), page);
	if (!mapping)
		return page->_mapcount < 0;
	spin_lock_irqsave(&mapping->i_mmap_lock, flags);
	if (page_mlocked(page, mapping)) {
		spin_unlock_irqrestore(&mapping->i_mmap_lock, flags);
		return false;
	}
	list_for_each_entry(vma, &mapping->i_mmap, shared) {
		pte_t *pte;

		spin_lock(&vma->vm_mm->page_table_lock);
		pte = page_pte(page, vma, &address);
		if (pte) {
			if (*pte & _PAGE_DIRTY)
				set_page_dirty(page);
			*pte = 0;
			flush_tlb_page(vma, address);
			page->_mapcount--;
			/* the PTE's reference; the caller holds one */
			put_page(page);
		}
		spin_unlock(&vma->vm_mm->page_table_lock);
	}
	spin_unlock_irqrestore(&mapping->i_mmap_lock, flags);
	return page->_mapcount < 0;
}
