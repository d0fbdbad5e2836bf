/*
 * mm/fault_around.c: fault-around, pagelab's answer to a benchmark, not
 * part of any lab (labs paging, mkwrite and race pass with it or without
 * it, and their handouts need none of it).
 *
 * A read fault on a file page maps that page (mm/memory.c, do_read_fault)
 * and then calls do_fault_around, which asks vm_ops->map_pages to map the
 * pages around it that cost nothing to map: already cached, uptodate,
 * not locked. Programs read files in order, so one fault then does the
 * work of up to 16 (userland/bench/mmapfault.c measures it).
 *
 *   do_fault_around     the window: 16 pages (Linux: fault_around_bytes,
 *                       64 KiB), aligned, clipped to the VMA
 *   filemap_map_pages   vm_ops->map_pages for page-cache files
 *
 * Linux has do_fault_around in mm/memory.c and filemap_map_pages in
 * mm/filemap.c; Linux calls it before ->fault, pagelab after, once the
 * faulting page is mapped. Everything here is mapped read-only, so a
 * store still faults (page_mkwrite, or a private copy), and every check
 * is made under the page lock, as filemap_fault makes it, so truncation
 * (i_size first, then lock and drop each page, unmapping around that)
 * either sees the PTE or is seen here.
 */
#include <mm/fault_around.h>
#include <mm/filemap.h>
#include <mm/mmap.h>
#include <mm/writeback.h>	/* mark_page_accessed */
#include <fs/fs.h>

#define FAULT_AROUND_PAGES 16UL

/*
 * The window never crosses a page table (it is aligned and 2 MiB is a
 * multiple of it), so its PTEs sit next to the faulting one.
 */
void do_fault_around(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	unsigned long address = vmf->address, pgoff = vmf->pgoff;
	unsigned long mask = FAULT_AROUND_PAGES * PAGE_SIZE - 1;
	unsigned long start = max(address & ~mask, vma->vm_start);
	unsigned long end = min((address & ~mask) + mask + 1, vma->vm_end);

	vma->vm_ops->map_pages(vmf, pgoff - ((address - start) >> PAGE_SHIFT),
			       pgoff + ((end - address) >> PAGE_SHIFT));
}

/* Does page lie past the end of the file? Asked under the page lock. */
static bool beyond_eof(struct page *page, struct inode *inode)
{
	return page->index >= DIV_ROUND_UP(i_size_read(inode), PAGE_SIZE);
}

/*
 * Each page found is mapped only if it is still the file's, uptodate and
 * inside i_size once locked (trylock: nothing here sleeps), and its PTE
 * still empty; its find_get_pages reference becomes the PTE's.
 */
void filemap_map_pages(struct vm_fault *vmf, pgoff_t start, pgoff_t end)
{
	struct vm_area_struct *vma = vmf->vma;
	struct address_space *mapping = vma->vm_file->f_inode->i_mapping;
	pte_t prot = vm_page_prot(vma->vm_flags) & ~_PAGE_RW;
	struct page *pages[16];
	unsigned int nr;

	while (start < end) {
		nr = find_get_pages(mapping, start,
				    min(end - start, ARRAY_SIZE(pages)), pages);
		if (!nr)
			return;
		for (unsigned int i = 0; i < nr; i++) {
			struct page *page = pages[i];
			pte_t *pte =
			    vmf->pte + (long)(page->index - vmf->pgoff);

			start = page->index + 1;
			if (page->index >= end || (*pte & _PAGE_PRESENT) ||
			    !PageUptodate(page) || !trylock_page(page))
				goto skip;
			/* Locked: now the checks hold until the PTE is set. */
			if (page->mapping != mapping || !PageUptodate(page) ||
			    beyond_eof(page, mapping->host)) {
				unlock_page(page);
				goto skip;
			}
			mark_page_accessed(page);
			spin_lock(&vma->vm_mm->page_table_lock);
			if (*pte & _PAGE_PRESENT) {	/* another thread's */
				spin_unlock(&vma->vm_mm->page_table_lock);
				unlock_page(page);
				goto skip;
			}
			do_set_pte(vma->vm_mm, pte, page, prot);
			spin_unlock(&vma->vm_mm->page_table_lock);
			unlock_page(page);
			continue;
skip:
			page_cache_release(page);
		}
	}
}
