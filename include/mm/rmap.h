/*
 * The reverse map of file pages (mm/rmap.c): which PTEs map a page-cache
 * page, found through mapping->i_mmap, the VMAs that map its file.
 */
#ifndef _MM_RMAP_H
#define _MM_RMAP_H

#include <mm/mm_types.h>
#include <mm/mm.h>
#include <asm/tlbflush.h>

/* Add/remove a file VMA (vma->vm_file set) on its mapping's i_mmap. */
void vma_link_file(struct vm_area_struct *vma);
void vma_unlink_file(struct vm_area_struct *vma);
/* The user address of file page index in vma, or 0 if outside it. */
unsigned long vma_address(struct vm_area_struct *vma, unsigned long index);
/* Drop a stale translation of address in vma's mm, if it is loaded. */
/* Write-protect page in every shared mapping; true if a PTE was dirty.
 * Page locked. */
bool page_mkclean(struct page *page);
/* Unmap page everywhere (dirty PTEs dirty the page); true when no
 * mapping is left. Page locked. */
bool try_to_unmap(struct page *page);

#endif
