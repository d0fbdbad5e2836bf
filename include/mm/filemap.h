/*
 * The page cache (mm/filemap.c): file data in struct pages, indexed by
 * (address_space, page index). Every read and write of a regular file goes
 * through it; ramfs keeps its files nowhere else.
 *
 * References: the cache holds one reference on each page it indexes;
 * find_get_page() and friends return pages with one more, which the caller
 * drops with page_cache_release(). The page lock (PG_locked) is held while
 * a page is read in, while its contents are prepared for a write, and
 * while it is being removed: page->mapping == NULL after lock_page() means
 * the page was truncated meanwhile.
 */
#ifndef _MM_FILEMAP_H
#define _MM_FILEMAP_H

#include <fs/fs.h>
#include <mm/gfp.h>

/* Drop a reference taken by a find_* call (Linux 2.6.30's name). */
static inline void page_cache_release(struct page *page)
{
	__free_page(page);
}

static inline void page_cache_get(struct page *page)
{
	get_page(page);
}

static inline struct page *page_cache_alloc(struct address_space *mapping)
{
	return alloc_page(GFP_KERNEL);
}

/* Address space setup for a new inode (fs/inode.c calls it). */
void address_space_init_once(struct address_space *mapping,
			     struct inode *host);

/* The page at index, referenced, or NULL. */
struct page *find_get_page(struct address_space *mapping, pgoff_t index);
/*
 * What find_get_page returned, checked where teacher code receives it: a
 * page still in mapping whose count is 1 holds the cache's reference
 * alone, and the caller's put would free a page the cache still indexes.
 * Said here, naming find_get_page, rather than at that free.
 */
#define check_found_page(page, mapping) \
	__check_found_page(page, mapping, _THIS_IP_)
void __check_found_page(struct page *page, struct address_space *mapping,
			unsigned long ip);
/* The same, locked, and still in mapping (a truncated page is skipped). */
struct page *find_lock_page(struct address_space *mapping, pgoff_t index);
/* find_lock_page, or a new locked page added at index; NULL: no memory. */
struct page *find_or_create_page(struct address_space *mapping,
				 pgoff_t index, gfp_t gfp);
/*
 * Insert a new (not yet cached) page at index: the cache takes a
 * reference, sets page->mapping/index, and the page comes back locked.
 * -EEXIST when index is taken, -ENOMEM. The caller keeps its reference.
 */
int add_to_page_cache(struct page *page, struct address_space *mapping,
		      pgoff_t index, gfp_t gfp);
/* The same, and onto the reclaim LRU if the file can be written back. */
int add_to_page_cache_lru(struct page *page, struct address_space *mapping,
			  pgoff_t index, gfp_t gfp);
/* Remove a locked page from its mapping and drop the cache's reference
 * (and from the LRU; a dirty page is written off: see cancel_dirty_page). */
void delete_from_page_cache(struct page *page);
/* ---- truncation (mm/truncate.c); i_mutex held ---- */
/*
 * Drop every page at or past lstart (bytes) and zero the tail of the page
 * straddling lstart. Waits for locked pages. Dirty data there is thrown
 * away: the caller has set i_size (or is freeing the inode). Does not
 * unmap: see truncate_pagecache.
 */
__traced void truncate_inode_pages(struct address_space *mapping,
				   loff_t lstart);
/*
 * The new sequence's page-cache step, after i_size was set to newsize:
 * unmap user mappings past newsize (private copies too), drop the pages,
 * zero the partial page, unmap again. Nothing when growing.
 */
__traced void truncate_pagecache(struct inode *inode, loff_t oldsize,
				 loff_t newsize);
/*
 * i_size grew from `from` to `to` (set already): write-protect the page that
 * straddled the old EOF in every mapping, so the next store calls
 * page_mkwrite for the blocks the new size needs, and zero what lies past
 * the old EOF in it (up to `to`). Page not locked by the caller.
 */
__traced void pagecache_isize_extended(struct inode *inode, loff_t from,
				       loff_t to);
/*
 * Commit a size change that can no longer fail: write i_size, then cut
 * the page cache (truncate_pagecache) or, growing, fix the page that
 * straddled the old EOF (pagecache_isize_extended). i_mutex held.
 */
__traced void truncate_setsize(struct inode *inode, loff_t newsize);
/*
 * The old sequence: check (inode_newsize_ok), commit (truncate_setsize),
 * then call ->truncate, which cannot fail. 0 or -errno (only from the
 * checks).
 */
__traced int vmtruncate(struct inode *inode, loff_t offset);
/*
 * A write failed after instantiating blocks past i_size (== offset): for a
 * file system of the old sequence, drop the pages past it and call
 * ->truncate. New-sequence file systems do this themselves: nothing.
 */
__traced int truncate_blocks(struct inode *inode, loff_t offset);

/* The page lock: sleeps while another holder has it. */
void lock_page(struct page *page);
bool trylock_page(struct page *page);
void unlock_page(struct page *page);
void wait_on_page_locked(struct page *page);

/* Mark dirty through a_ops->set_page_dirty (or just PG_dirty). */
bool set_page_dirty(struct page *page);
/* Dirty flag off, for pages being dropped without writeback. */
void cancel_dirty_page(struct page *page);

/*
 * Read from *pos into to through the page cache: ->readpage fills pages
 * that are missing or not uptodate. Returns bytes copied (short at EOF),
 * or -errno if nothing was copied; advances *pos.
 */
ssize_t generic_file_read(struct file *file, struct iov_iter *to, loff_t *pos);
/*
 * Write from into the file at *pos (i_size for O_APPEND) through
 * ->write_begin/->write_end, page by page. i_mutex held by the caller.
 * Returns bytes written or -errno (EFBIG past the limits, EFAULT).
 */
ssize_t generic_file_write(struct file *file, struct iov_iter *from,
			   loff_t *pos);
/* Takes i_mutex around generic_file_write: a ->write_iter. */
ssize_t generic_file_write_iter(struct file *file, struct iov_iter *from,
				loff_t *pos);
/* Clamp count for RLIMIT_FSIZE and s_maxbytes: 0 or -EFBIG. */
int generic_write_checks(struct file *file, loff_t pos, size_t *count);

/* Up to nr pages at or after index start, each referenced. */
unsigned int find_get_pages(struct address_space *mapping, pgoff_t start,
			    unsigned int nr, struct page **pages);
/* The wait queue for PG_locked and PG_writeback of page. */
void pagecache_init(void);	/* boot: the page-lock wait queues */
wait_queue_head_t *page_waitqueue(struct page *page);

/* Pages in all page caches, for /proc/meminfo's "Cached:". */
unsigned long nr_pagecache_pages(void);

/*
 * The uptodate page at index, referenced (not locked): from the cache or
 * read in by ->readpage(file, page). ERR_PTR(-ENOMEM/-EIO) on failure.
 */
struct page *read_mapping_page(struct address_space *mapping, pgoff_t index,
			       struct file *file);

/* ---- read-ahead (mm/readahead.c) ---- */
struct file_ra_state;
/* index was not in the cache: read it and, for a sequential reader, the
 * window after it, without waiting. */
void page_cache_sync_readahead(struct address_space *mapping,
			       struct file_ra_state *ra, struct file *file,
			       pgoff_t index);
/* The reader reached page (PG_readahead): read the next window ahead. */
void page_cache_async_readahead(struct address_space *mapping,
				struct file_ra_state *ra, struct file *file,
				struct page *page, pgoff_t index);

/* ---- mmap (mm/filemap_fault.c) ---- */
struct vm_fault;
struct vm_area_struct;
/* vm_ops->fault through the page cache: the page locked, or SIGBUS past
 * EOF. */
int filemap_fault(struct vm_fault *vmf);
/* vm_ops->page_mkwrite for files without blocks to allocate (ramfs). */
int filemap_page_mkwrite(struct vm_fault *vmf);
extern const struct vm_operations_struct generic_file_vm_ops;
/* ->mmap for page-cache files: sets generic_file_vm_ops. */
int generic_file_mmap(struct file *file, struct vm_area_struct *vma);

#endif
