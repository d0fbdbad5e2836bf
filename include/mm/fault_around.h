/*
 * Fault-around (mm/fault_around.c): a read fault on a file page also maps
 * the cached pages around it. pagelab's for speed; not part of any lab.
 */
#ifndef _MM_FAULT_AROUND_H
#define _MM_FAULT_AROUND_H

#include <fs/fs.h>	/* pgoff_t */
#include <mm/mm_types.h>

/*
 * After a read fault has mapped vmf->page at vmf->pte (and unlocked it):
 * map what vm_ops->map_pages finds ready in the aligned window around it.
 */
void do_fault_around(struct vm_fault *vmf);
/*
 * vm_ops->map_pages over the page cache: map the file's pages [start,
 * end) that are cached, uptodate, unlocked and inside i_size, read-only,
 * at their empty PTEs (vmf->pte maps vmf->pgoff).
 */
void filemap_map_pages(struct vm_fault *vmf, pgoff_t start, pgoff_t end);

#endif
