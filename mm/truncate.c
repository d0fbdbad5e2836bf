/*
 * mm/truncate.c: what a size change does to the page cache and to the
 * processes that map the file, in both truncate sequences (Nick Piggin's
 * 2009 "new truncate sequence" patches) and with the fix for blocksize <
 * pagesize (Jan Kara's "vfs: fix data corruption when blocksize <
 * pagesize for mmaped data", 2014): doc/design.md, doc/reading.md.
 *
 *   truncate_inode_pages      drop the cached pages past a byte offset and
 *                             zero the tail of the page that straddles it
 *   truncate_pagecache        the same, with user mappings removed around
 *                             it: the new sequence's page-cache step
 *   pagecache_isize_extended  i_size grew: write-protect and zero the page
 *                             that straddled the old EOF (the 2009 fix)
 *   truncate_setsize          the commit step of both sequences: i_size,
 *                             then truncate_pagecache (shrinking) or
 *                             pagecache_isize_extended (growing)
 *   vmtruncate                the old sequence: check, truncate_setsize,
 *                             then ->truncate, which cannot fail
 *   truncate_blocks           trim what a failed write prepared past EOF
 *
 * Callers hold i_mutex, and have already written the new i_size when they
 * call truncate_pagecache (truncate_setsize does both, in that order): a
 * fault that comes after the unmap must see the new size (filemap_fault
 * checks it under the page lock) and get SIGBUS.
 * Above: notify_change and the file systems' setattr/setsize. Below: the
 * page cache (mm/filemap.c), the reverse map (unmap_mapping_range,
 * page_mkclean) and the file system's ->invalidatepage.
 */
#include <kernel/lockdep.h>
#include <mm/filemap.h>
#include <mm/mmap.h>
#include <mm/rmap.h>
#include <mm/writeback.h>
#include <fs/fs.h>
#include <fs/proc_fs.h>
#include <kernel/errno.h>
#include <kernel/fail_delay.h>
#include <kernel/init.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/trace.h>	/* trace_note; calls are traced by kernel/trace.c */

/*
 * The part of the page from offset on becomes zeroes, and the file
 * system forgets its buffers there. Page locked, not under writeback.
 */
static void truncate_partial_page(struct page *page, unsigned int offset)
{
	struct address_space *mapping = page->mapping;

	VM_BUG_ON_PAGE(!PageLocked(page), page);
	VM_BUG_ON_PAGE(PageWriteback(page), page);
	memset((char *)page_address(page) + offset, 0, PAGE_SIZE - offset);
	if (PagePrivate(page) && mapping->a_ops->invalidatepage)
		mapping->a_ops->invalidatepage(page, offset);
}

/*
 * Pages truncate_setsize's cut removed from the cache while a PTE still
 * counted in their map count (a fault may map a page between the lab's
 * two unmaps: the second takes it away). Kept, referenced, until
 * truncate_setsize checks that the unmap dropped their map counts.
 */
#define WATCH_PAGES 8

struct truncate_watch {
	int n;
	struct page *pages[WATCH_PAGES];
};

static void watch_mapped_page(struct page *page)
{
	struct truncate_watch *w = current->truncate_watch;

	if (w && page_mapped(page) && w->n < WATCH_PAGES) {
		get_page(page);
		w->pages[w->n++] = page;
	}
}

/* Remove one page from the cache, buffers first. Locked, referenced. */
static void truncate_complete_page(struct address_space *mapping,
				   struct page *page)
{
	VM_BUG_ON_PAGE(!PageLocked(page), page);
	wait_on_page_writeback(page);
	if (page->mapping != mapping)	/* truncated while we waited */
		return;
	watch_mapped_page(page);
	/* Buffers would pin the page: drop them. */
	if (PagePrivate(page) && mapping->a_ops->invalidatepage)
		mapping->a_ops->invalidatepage(page, 0);
	delete_from_page_cache(page);
}

/*
 * Pages are cut from lstart on while i_size still reaches past lstart and
 * the file is mapped: a fault in between finds the size unchanged and
 * maps a page the cut has passed, past the new EOF for good. The size
 * must be written first (truncate_setsize does both, in that order).
 * Eviction cuts a file nobody maps; a failed write cuts at i_size.
 */
static __cold __noreturn void cut_before_size_bug(struct address_space *mapping,
						  loff_t lstart)
{
	printk(KERN_EMERG "BUG: truncate_inode_pages (inode %lu, from %lld) "
	       "while i_size is still %lld and the file is mapped: write the "
	       "new i_size first (truncate_setsize: i_size_write, then "
	       "truncate_pagecache), or a fault in between maps a page past "
	       "the new EOF that no unmap takes away\n", mapping->host->i_ino,
	       (long long)lstart, (long long)i_size_read(mapping->host));
	dump_stack();
	panic("page cache cut before i_size was written");
}

void truncate_inode_pages(struct address_space *mapping, loff_t lstart)
{
	pgoff_t next = (lstart + PAGE_SIZE - 1) >> PAGE_SHIFT;
	unsigned int partial = lstart & ~PAGE_MASK;
	struct page *pages[16];
	unsigned int n, dropped = 0;

	if (unlikely(lstart < i_size_read(mapping->host)) &&
	    mapping_mapped(mapping))
		cut_before_size_bug(mapping, lstart);

	while ((n = find_get_pages(mapping, next, ARRAY_SIZE(pages), pages))) {
		for (unsigned int i = 0; i < n; i++) {
			struct page *page = pages[i];

			next = page->index + 1;
			/* The lock waits out a read, a write or a fault in
			 * progress on this page. */
			lock_page(page);
			truncate_complete_page(mapping, page);
			dropped++;
			unlock_page(page);
			page_cache_release(page);
		}
	}
	/* The page straddling lstart stays, but nothing past lstart may
	 * survive in it: a later extension must read zeroes there. */
	if (partial) {
		struct page *page = find_lock_page(mapping,
						   lstart >> PAGE_SHIFT);

		if (page) {
			wait_on_page_writeback(page);
			truncate_partial_page(page, partial);
			unlock_page(page);
			page_cache_release(page);
		}
	}
	fail_delay(FD_TRUNCATE_PAGES_DROPPED);
	trace_note(truncate, mapping->host, "%u pages dropped%s", dropped,
		   partial ? ", partial page zeroed" : "");
}

/*
 * LAB truncate-old: truncate_pagecache starts from this.
 * void truncate_pagecache(struct inode *inode, loff_t oldsize,
 *			   loff_t newsize)
 * {
 *	truncate_inode_pages(inode->i_mapping, newsize);
 * }
 */
/* LAB truncate-old: BEGIN */
void truncate_pagecache(struct inode *inode, loff_t oldsize, loff_t newsize)
{
	struct address_space *mapping = inode->i_mapping;
	loff_t holebegin = PAGE_ALIGN(newsize);

	if (newsize >= oldsize)
		return;
	/*
	 * Unmap first, so that no process keeps a page we are about to
	 * drop; private copies of those pages (even_cows) go too, since
	 * their file offsets no longer exist. Then drop the pages and zero
	 * the partial one. Then unmap again: while truncate_inode_pages ran,
	 * a fault may have mapped a page again, or a private mapping copied
	 * one; the new i_size stops faults from now on.
	 */
	unmap_mapping_range(mapping, holebegin, 0, true);
	truncate_inode_pages(mapping, newsize);
	unmap_mapping_range(mapping, holebegin, 0, true);
}
/* LAB truncate-old: END */

/*
 * The 2009 fix switch, for the lab: /proc/sys/vm/pagecache_isize_extended
 * or the boot parameter pagecache_isize_extended=0 turns it off, and the
 * lost-data bug of blocksize < pagesize comes back.
 */
static unsigned long isize_extended_fix = 1;

/*
 * LAB mkwrite: pagecache_isize_extended starts from this.
 * void pagecache_isize_extended(struct inode *inode, loff_t from, loff_t to)
 * {
 * }
 */
/* LAB mkwrite: BEGIN */
void pagecache_isize_extended(struct inode *inode, loff_t from, loff_t to)
{
	unsigned int offset = from & ~PAGE_MASK, end = PAGE_SIZE;
	loff_t page_start = from & PAGE_MASK;
	struct page *page;

	/* from on a page boundary: no page straddles the old EOF. */
	if (!isize_extended_fix || to <= from || !offset)
		return;
	page = find_lock_page(inode->i_mapping, from >> PAGE_SHIFT);
	if (!page)
		return;
	/*
	 * Write-protect first: from here on a store to the page faults, and
	 * waits for the page lock. With blocks smaller than a page, the old
	 * page_mkwrite allocated blocks only up to the old EOF; the next one
	 * allocates what the new size needs. (Linux skips this when bsize >=
	 * PAGE_SIZE; pagelab does it always, so the zeroing below cannot
	 * race with a store that is file data already.)
	 */
	if (page_mkclean(page))
		set_page_dirty(page);
	/* What a mapping stored past the old EOF was never file data: it
	 * must not appear in the file now that the file covers it. */
	if (to - page_start < PAGE_SIZE)
		end = to - page_start;
	memset((char *)page_address(page) + offset, 0, end - offset);
	unlock_page(page);
	page_cache_release(page);
}
/* LAB mkwrite: END */

/*
 * After a cut: no PTE may map the file past the new EOF, shared or a
 * private copy (even_cows). One that does was missed by the lab's
 * unmap_mapping_range or truncate_pagecache: said here, with where it
 * is, rather than by a test's load that gets no SIGBUS. (It could also be
 * a fault that mapped the page after the cut without checking i_size
 * under the page lock: the race lab's filemap_fault; the report says
 * both.) At most CHECK_PAGES pages past EOF per mapping are looked at.
 */
#define CHECK_PAGES 256

static __cold __noreturn void mapped_past_eof_bug(struct inode *inode,
		loff_t oldsize, loff_t newsize, struct vm_area_struct *vma,
		pgoff_t index, pte_t entry)
{
	bool copy = !(vma->vm_flags & VM_SHARED) &&
		    !pfn_to_page((entry & PTE_ADDR_MASK) >> PAGE_SHIFT)->mapping;

	printk(KERN_EMERG "BUG: truncate_pagecache (inode %lu, %ld -> %ld) "
	       "left file page %lu mapped at %#lx (a %s mapping, %s), past "
	       "the new EOF: unmap_mapping_range must zap every mapping's "
	       "PTEs from the first page past EOF on, in each VMA's own page "
	       "tables and at its own offset, private copies too; and again "
	       "after truncate_inode_pages (or filemap_fault mapped it after "
	       "the cut without checking i_size under the page lock)\n",
	       inode->i_ino, (long)oldsize, (long)newsize, index,
	       vma_address(vma, index),
	       vma->vm_flags & VM_SHARED ? "shared" : "private",
	       copy ? "its private copy" : "the file's page");
	panic("a page past EOF still mapped after truncate_pagecache");
}

static void check_unmapped_past_eof(struct inode *inode, loff_t oldsize,
				    loff_t newsize)
{
	struct address_space *mapping = inode->i_mapping;
	pgoff_t first = PAGE_ALIGN(newsize) >> PAGE_SHIFT;
	pgoff_t end = min((pgoff_t)(PAGE_ALIGN(oldsize) >> PAGE_SHIFT),
			  first + CHECK_PAGES);
	struct vm_area_struct *vma;

	if (first >= end)
		return;
	spin_lock(&mapping->i_mmap_lock);
	list_for_each_entry(vma, &mapping->i_mmap, shared) {
		spin_lock(&vma->vm_mm->page_table_lock);
		for (pgoff_t i = first; i < end; i++) {
			unsigned long a = vma_address(vma, i);
			pte_t *pte = a ? lookup_pte(vma->vm_mm->pgd, a, false)
				       : NULL;

			if (pte && (*pte & _PAGE_PRESENT))
				mapped_past_eof_bug(inode, oldsize, newsize,
						    vma, i, *pte);
		}
		spin_unlock(&vma->vm_mm->page_table_lock);
	}
	spin_unlock(&mapping->i_mmap_lock);
}

/*
 * After the lab's truncate_pagecache, no page it removed may still count
 * a mapping (no PTE past EOF is left: check_unmapped_past_eof looked),
 * and every PTE it cleared must have been flushed from the TLBs. A PTE
 * cleared by hand (*pte = 0, not zap_pte) leaves the page's map count
 * and reference behind: the page leaks, found otherwise only by the page
 * audit when the program ends. A clear without a flush leaves the page
 * reachable through a TLB (another CPU's, or this one's) after it is
 * freed.
 */
static __cold __noreturn void unmap_leak_bug(struct inode *inode,
		loff_t oldsize, loff_t newsize, struct page *page)
{
	printk(KERN_EMERG "BUG: truncate_pagecache (inode %lu, %ld -> %ld) "
	       "removed file page %lu from the cache with its map count still "
	       "%d, though no page table maps it past EOF any more: "
	       "unmap_mapping_range cleared its PTE without zap_pte, which "
	       "drops the PTE's map count and page reference (the page "
	       "leaks)\n", inode->i_ino, (long)oldsize, (long)newsize,
	       page->index, page_mapcount(page));
	dump_page(page, "unmapped without zap_pte");
	panic("a truncated page's PTE was cleared without zap_pte");
}

static __cold __noreturn void unmap_unflushed_bug(struct inode *inode,
		loff_t oldsize, loff_t newsize, int n)
{
	printk(KERN_EMERG "BUG: truncate_pagecache (inode %lu, %ld -> %ld) "
	       "cleared %d PTE%s and flushed no TLB after: unmap_mapping_range "
	       "must flush each PTE it clears (flush_tlb_page, or "
	       "flush_tlb_range over them), or a CPU keeps reaching the page "
	       "through its TLB after the page is freed\n", inode->i_ino,
	       (long)oldsize, (long)newsize, n, n == 1 ? "" : "s");
	dump_stack();
	panic("PTEs cleared by truncation and never flushed");
}

static void check_unmap_done(struct inode *inode, loff_t oldsize,
			     loff_t newsize, struct truncate_watch *w,
			     int unflushed_before)
{
	int unflushed = current->nr_tlb_unflushed;

	if (unflushed && unflushed != unflushed_before)
		unmap_unflushed_bug(inode, oldsize, newsize,
				    unflushed - unflushed_before);
	for (int i = 0; i < w->n; i++)
		if (page_mapped(w->pages[i]))
			unmap_leak_bug(inode, oldsize, newsize, w->pages[i]);
}

/*
 * The commit step of every size change, once nothing can fail any more
 * (Linux: truncate_setsize, since 2.6.36): the new i_size first, then the
 * page cache. The order is the point. A fault that finds a page after
 * truncate_pagecache's last unmap must already read the new size under
 * the page lock (filemap_fault) and give SIGBUS; with the size written
 * after the cut, it would map a page past EOF that nothing unmaps again.
 * Growing, the page that straddled the old EOF is write-protected and
 * its tail zeroed instead (Linux calls truncate_pagecache either way; it
 * does nothing when growing, and pagelab skips the call). i_mutex held.
 * Callers: vmtruncate, ext2_setsize, simple_setsize.
 */
void truncate_setsize(struct inode *inode, loff_t newsize)
{
	loff_t oldsize = i_size_read(inode);

	lockdep_assert_held(&inode->i_mutex);
	i_size_write(inode, newsize);
	if (newsize > oldsize) {
		pagecache_isize_extended(inode, oldsize, newsize);
	} else {
		struct truncate_watch w = { 0 };
		int unflushed = current->nr_tlb_unflushed;

		current->truncate_watch = &w;
		truncate_pagecache(inode, oldsize, newsize);
		current->truncate_watch = NULL;
		check_unmapped_past_eof(inode, oldsize, newsize);
		check_unmap_done(inode, oldsize, newsize, &w, unflushed);
		while (w.n)
			put_page(w.pages[--w.n]);
	}
}

/*
 * LAB truncate-old: vmtruncate starts from this.
 * int vmtruncate(struct inode *inode, loff_t offset)
 * {
 *	return -ENOSYS;
 * }
 */
/* LAB truncate-old: BEGIN */
int vmtruncate(struct inode *inode, loff_t offset)
{
	int err;

	err = inode_newsize_ok(inode, offset);
	if (err)
		return err;
	/* From here on nothing can fail, and nothing can be undone: the
	 * file system hears of the change only once it is made. */
	truncate_setsize(inode, offset);
	if (inode->i_op->truncate)
		inode->i_op->truncate(inode);
	return 0;
}
/* LAB truncate-old: END */

/*
 * A write that failed after preparing blocks past i_size (a short write at
 * the end of the file, ENOSPC half way) left them allocated: give them
 * back. A file system of the new sequence does it itself, as it does all
 * size changes; for an old one the generic code drops the page cache past
 * i_size and calls ->truncate. (Nick Piggin's patch: truncate_blocks.)
 */
int truncate_blocks(struct inode *inode, loff_t offset)
{
	if (inode->i_op->new_truncate)	/* these handle it themselves */
		return 0;
	truncate_inode_pages(inode->i_mapping, offset);
	if (inode->i_op->truncate)
		inode->i_op->truncate(inode);
	return 0;
}

static int show_fix(struct seq_file *m, void *data)
{
	seq_printf(m, "%lu\n", isize_extended_fix);
	return 0;
}

static int write_fix(const char *buf, size_t len, void *data)
{
	if (len < 1 || (buf[0] != '0' && buf[0] != '1') ||
	    (len > 1 && buf[1] != '\n'))
		return -EINVAL;
	isize_extended_fix = buf[0] == '1';
	pr_info("truncate: pagecache_isize_extended %s\n",
		isize_extended_fix ? "on" : "OFF (the 2009 bug is back)");
	return 0;
}

static int set_fix_param(const char *val)
{
	if (strcmp(val, "0") && strcmp(val, "1"))
		return -EINVAL;
	isize_extended_fix = val[0] == '1';
	return 0;
}
__setup("pagecache_isize_extended", set_fix_param);

static int truncate_proc_init(void)
{
	proc_create_rw_data("sys/vm/pagecache_isize_extended", 0644, show_fix,
			    write_fix, NULL);
	if (!isize_extended_fix)
		pr_info("truncate: pagecache_isize_extended=0: stores through a "
			"mapping past an old EOF may be lost\n");
	return 0;
}
device_initcall(truncate_proc_init);
