/*
 * mm/filemap_fault.c: the page cache seen through mmap (Linux keeps this
 * in mm/filemap.c; here it has a file of its own to keep both short).
 *
 *   generic_file_mmap    a file system's ->mmap: the VMA gets
 *                        generic_file_vm_ops (or the fs's own ops)
 *   filemap_find_fault_page  the page at the faulting offset, read in
 *                        if needed, referenced but not locked
 *   filemap_fault        vm_ops->fault: that page locked and checked
 *                        again (still the file's? still inside i_size?),
 *                        so that truncation cannot take it before
 *                        do_fault has set the PTE; SIGBUS past EOF,
 *                        where there is no file to map (lab race)
 *   filemap_page_mkwrite vm_ops->page_mkwrite for files whose blocks need
 *                        no allocation (ramfs): lock, check, dirty
 *
 * generic_file_vm_ops also names filemap_map_pages, fault-around's
 * vm_ops->map_pages: it is in mm/fault_around.c, not part of any lab.
 *
 * Below: the page cache (mm/filemap.c) and the file system's ->readpage.
 * Above: __do_fault and do_page_mkwrite in mm/memory.c.
 */
#include <mm/fault_around.h>
#include <mm/filemap.h>
#include <mm/mmap.h>
#include <mm/writeback.h>
#include <fs/fs.h>
#include <kernel/errno.h>
#include <kernel/fail_delay.h>
#include <kernel/vmstat.h>

/* Pages the file covers: an offset at or past this is beyond EOF. */
static pgoff_t size_in_pages(struct inode *inode)
{
	return (i_size_read(inode) + PAGE_SIZE - 1) >> PAGE_SHIFT;
}

/*
 * The page at vmf->pgoff, referenced and uptodate, read in if it was not
 * cached: returns 0 (minor) or VM_FAULT_MAJOR with *pagep set, or, with
 * *pagep NULL, VM_FAULT_SIGBUS (past EOF, or the read failed) or
 * VM_FAULT_OOM. The page is NOT locked: until it is, truncation may take
 * it out of the file, and i_size may move.
 */
static int filemap_find_fault_page(struct vm_fault *vmf, struct page **pagep)
{
	struct file *file = vmf->vma->vm_file;
	struct address_space *mapping = file->f_inode->i_mapping;
	struct page *page;
	int ret = 0;

	*pagep = NULL;
	if (vmf->pgoff >= size_in_pages(mapping->host))
		return VM_FAULT_SIGBUS;
	page = find_get_page(mapping, vmf->pgoff);
	check_found_page(page, mapping);
	if (!page || !PageUptodate(page)) {
		if (page)
			page_cache_release(page);
		page = read_mapping_page(mapping, vmf->pgoff, file);
		if (IS_ERR(page))
			return PTR_ERR(page) == -ENOMEM ? VM_FAULT_OOM
							 : VM_FAULT_SIGBUS;
		ret = VM_FAULT_MAJOR;
		count_vm_event(PGMAJFAULT);
	}
	/* A test may hold this window open: truncation runs now. */
	fail_delay(FD_FAULT_PAGE_FOUND);
	*pagep = page;
	return ret;
}

/*
 * vm_ops->fault: find the page for vmf->pgoff, reading it in if it is not
 * cached (a major fault). Returns VM_FAULT_LOCKED with vmf->page locked,
 * referenced, uptodate and still inside i_size, or VM_FAULT_SIGBUS (past
 * EOF, or the read failed), or VM_FAULT_OOM. do_fault sets the PTE
 * before it unlocks the page (finish_fault).
 */
/*
 * LAB race: filemap_fault starts from this.
 * int filemap_fault(struct vm_fault *vmf)
 * {
 *	struct page *page;
 *	int ret = filemap_find_fault_page(vmf, &page);
 *
 *	if (!page)
 *		return ret;
 *	lock_page(page);
 *	vmf->page = page;
 *	return ret | VM_FAULT_LOCKED;
 * }
 */
/* LAB race: BEGIN */
int filemap_fault(struct vm_fault *vmf)
{
	struct address_space *mapping = vmf->vma->vm_file->f_inode->i_mapping;
	struct page *page;
	int ret;

	for (;;) {
		ret = filemap_find_fault_page(vmf, &page);
		if (!page)
			return ret;
		lock_page(page);
		/* Truncated while we did not hold the lock: the page is no
		 * longer the file's. Start again; the size check decides. */
		if (page->mapping == mapping)
			break;
		unlock_page(page);
		page_cache_release(page);
	}
	/* i_size is checked again under the page lock: truncation sets
	 * i_size first and then locks each page it drops, so either it
	 * finds our PTE when it unmaps again, or we see its size here. */
	if (vmf->pgoff >= size_in_pages(mapping->host)) {
		unlock_page(page);
		page_cache_release(page);
		return VM_FAULT_SIGBUS;
	}
	vmf->page = page;
	return ret | VM_FAULT_LOCKED;
}
/* LAB race: END */

/*
 * vm_ops->page_mkwrite for a file with no blocks to allocate: the page
 * only has to be still in the file. Returns it locked (and dirty), or
 * VM_FAULT_NOPAGE when truncation took it (the fault is retried).
 */
int filemap_page_mkwrite(struct vm_fault *vmf)
{
	struct page *page = vmf->page;
	struct inode *inode = vmf->vma->vm_file->f_inode;

	lock_page(page);
	if (page->mapping != inode->i_mapping) {
		unlock_page(page);
		return VM_FAULT_NOPAGE;
	}
	set_page_dirty(page);
	return VM_FAULT_LOCKED;
}

const struct vm_operations_struct generic_file_vm_ops = {
	.fault = filemap_fault,
	.map_pages = filemap_map_pages,
	.page_mkwrite = filemap_page_mkwrite,
};

/* ->mmap: every regular file whose pages come from the page cache. */
int generic_file_mmap(struct file *file, struct vm_area_struct *vma)
{
	const struct address_space_operations *a_ops =
		file->f_inode->i_mapping->a_ops;

	if (!a_ops || !a_ops->readpage)
		return -ENODEV;
	vma->vm_ops = &generic_file_vm_ops;
	return 0;
}
