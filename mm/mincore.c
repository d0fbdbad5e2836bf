/*
 * mm/mincore.c: mincore(2), which pages of a range are in memory.
 *
 * A page counts when a PTE maps it, or, in a file mapping, when the file's
 * page is in the page cache (it would map without I/O); an anonymous page
 * never touched is not. The answer is one byte per page, bit 0 set for
 * "resident", built a VMA at a time in a page-sized kernel buffer.
 * Unaligned start: EINVAL; a hole in the range: ENOMEM (after the answer
 * for the pages before it); a vector outside user space: EFAULT.
 * Each VMA's answer is built under mmap_lock (read) and copied out after
 * it is released, as in Linux: copy_to_user may fault, and a fault takes
 * mmap_lock again.
 */
#include <mm/mmap.h>
#include <mm/mmap_lock.h>
#include <mm/filemap.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/syscalls.h>
#include <kernel/uaccess.h>
#include <fs/fs.h>
#include <mm/slab.h>

static unsigned char mincore_page(struct vm_area_struct *vma,
				  unsigned long addr)
{
	pte_t *pte = lookup_pte(vma->vm_mm->pgd, addr, false);
	struct page *page;

	if (pte && (*pte & _PAGE_PRESENT))
		return 1;
	if (!vma->vm_file)
		return 0;
	page = find_get_page(vma->vm_file->f_inode->i_mapping,
			     vma->vm_pgoff +
				     ((addr - vma->vm_start) >> PAGE_SHIFT));
	if (!page)
		return 0;
	page_cache_release(page);
	return 1;
}

/* Up to pages answers for the VMA at addr: how many, or -ENOMEM.
 * mmap_lock held (find_vma asserts it). */
static long do_mincore(unsigned long addr, unsigned long pages,
		       unsigned char *vec)
{
	struct vm_area_struct *vma = find_vma(current->mm, addr);
	unsigned long end, i;

	if (!vma || addr < vma->vm_start)
		return -ENOMEM;
	end = min(vma->vm_end, addr + (pages << PAGE_SHIFT));
	for (i = 0; addr < end; addr += PAGE_SIZE)
		vec[i++] = mincore_page(vma, addr);
	return i;
}

SYSCALL_DEFINE3(mincore, unsigned long, start, size_t, len,
		unsigned char __user *, vec)
{
	unsigned long pages = DIV_ROUND_UP(len, PAGE_SIZE);
	unsigned char *tmp;
	long n = 0;

	if (start & ~PAGE_MASK)
		return -EINVAL;
	if (!access_ok((void __user *)start, len))
		return -ENOMEM;
	if (!access_ok(vec, pages))
		return -EFAULT;
	tmp = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!tmp)
		return -EAGAIN;	/* Linux's answer to no buffer */
	while (pages) {
		mmap_read_lock(current->mm);
		n = do_mincore(start, min(pages, PAGE_SIZE), tmp);
		mmap_read_unlock(current->mm);
		if (n <= 0)
			break;
		if (copy_to_user(vec, tmp, n)) {
			n = -EFAULT;
			break;
		}
		pages -= n;
		vec += n;
		start += n << PAGE_SHIFT;
	}
	kfree(tmp);
	return n < 0 ? n : 0;
}
