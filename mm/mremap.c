/*
 * mm/mremap.c: mremap(2), growing, shrinking or moving a mapping.
 *
 * Shrinking unmaps the tail. Growing extends the VMA in place when the
 * addresses after it are free; otherwise, with MREMAP_MAYMOVE (and always
 * with MREMAP_FIXED), move_vma makes a VMA elsewhere with the same flags,
 * file and offset, moves the page-table entries to it (move_page_tables:
 * the pages stay put, so anonymous memory keeps its contents and shared
 * pages stay shared) and unmaps the old range. File pages need no reverse
 * map update: mm/rmap.c finds them from the VMA's start and vm_pgoff,
 * which the new VMA carries. An old_len of 0 on a shared mapping maps the
 * same pages a second time, as Linux allows.
 *
 * Commit accounting (mm/overcommit.c): growth commits the added pages, a
 * move hands the old range's commitment to the new VMA.
 * MREMAP_DONTUNMAP is not implemented (EINVAL).
 * All of it runs under mmap_lock held for write (the system call takes
 * it; the helpers that change VMAs assert it).
 */
#include <mm/mmap.h>
#include <mm/mmap_lock.h>
#include <mm/overcommit.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/syscalls.h>
#include <kernel/uaccess.h>
#include <fs/file.h>

#define MREMAP_MAYMOVE 1
#define MREMAP_FIXED 2
#define MREMAP_DONTUNMAP 4

/* Move the present PTEs of [old, old + len) to new: the bytes done
 * (short only when a page table for new could not be allocated). */
static unsigned long move_page_tables(struct mm_struct *mm, unsigned long old,
				      unsigned long new, unsigned long len)
{
	unsigned long off;

	for (off = 0; off < len; off += PAGE_SIZE) {
		pte_t *src, *dst;

		off = next_pte_table(mm->pgd, old + off, old + len) - old;
		if (off >= len)
			break;
		src = lookup_pte(mm->pgd, old + off, false);
		if (!src || !(*src & _PAGE_PRESENT))
			continue;
		dst = lookup_pte(mm->pgd, new + off, true);
		if (!dst)
			break;
		/* The table allocation may have slept: look again, and move
		 * the entry in one step that no reverse-map walk sees half
		 * done (it would find the page at both addresses). */
		spin_lock(&mm->page_table_lock);
		*dst = *src;
		*src = 0;
		spin_unlock(&mm->page_table_lock);
	}
	flush_tlb_mm_range(mm, old, old + len);
	return min(off, len);
}

/* The VMA mapping [addr, addr + old_len) that may grow to new_len. */
static struct vm_area_struct *vma_to_resize(unsigned long addr,
					    unsigned long old_len,
					    unsigned long new_len)
{
	struct vm_area_struct *vma = find_vma(current->mm, addr);

	if (!vma || vma->vm_start > addr)
		return ERR_PTR(-EFAULT);
	if (!old_len && !(vma->vm_flags & VM_MAYSHARE))
		return ERR_PTR(-EINVAL);	/* duplicating private memory */
	if (old_len > vma->vm_end - addr)
		return ERR_PTR(-EFAULT);	/* across VMAs */
	if (vma->vm_pgoff + ((addr - vma->vm_start + new_len) >> PAGE_SHIFT) <
	    vma->vm_pgoff)
		return ERR_PTR(-EINVAL);
	return vma;
}

/* Pages to commit for growing vma from old_len to new_len. */
static long resize_charge(struct vm_area_struct *vma, unsigned long old_len,
			  unsigned long new_len)
{
	if (!(vma->vm_flags & VM_ACCOUNT) || new_len <= old_len)
		return 0;
	return (new_len - old_len) >> PAGE_SHIFT;
}

/* A VMA at new_addr like vma, mapping what vma maps at old_addr. */
static struct vm_area_struct *copy_vma(struct vm_area_struct *vma,
				       unsigned long old_addr,
				       unsigned long new_addr,
				       unsigned long new_len)
{
	struct vm_area_struct *new = vma_create(vma->vm_mm, new_addr,
						new_addr + new_len,
						vma->vm_flags);

	if (!new)
		return NULL;
	new->vm_pgoff = vma->vm_pgoff +
			((old_addr - vma->vm_start) >> PAGE_SHIFT);
	new->vm_ops = vma->vm_ops;
	if (vma->vm_file)
		vma_set_file(new, vma->vm_file);
	if (new->vm_ops && new->vm_ops->open)
		new->vm_ops->open(new);
	return new;
}

static unsigned long move_vma(unsigned long old_addr, unsigned long old_len,
			      unsigned long new_len, unsigned long new_addr)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma, *new;
	unsigned long moved;
	long charge;
	int err;

	mmap_assert_write_locked(mm);
	err = old_len ? split_range(mm, old_addr, old_addr + old_len) : 0;
	if (err)
		return err;
	vma = find_vma(mm, old_addr);
	charge = resize_charge(vma, old_len, new_len);
	if (charge && vm_enough_memory(charge))
		return -ENOMEM;
	new = copy_vma(vma, old_addr, new_addr, new_len);
	moved = new ? move_page_tables(mm, old_addr, new_addr, old_len) : 0;
	if (!new || moved < old_len) {
		/* Put back what moved (its old tables exist), drop the copy. */
		if (new) {
			move_page_tables(mm, new_addr, old_addr, moved);
			new->vm_flags &= ~VM_ACCOUNT;
			do_munmap(mm, new_addr, new_len);
		}
		if (charge)
			vm_unacct_memory(charge);
		return -ENOMEM;
	}
	if (old_len) {
		/* The new VMA has taken over its commitment. */
		vma->vm_flags &= ~VM_ACCOUNT;
		do_munmap(mm, old_addr, old_len);
	}
	return new_addr;
}

/* Grow vma's end by delta bytes if nothing is mapped there. */
static bool vma_expand(struct vm_area_struct *vma, unsigned long delta)
{
	struct vm_area_struct *next = find_vma(vma->vm_mm, vma->vm_end);
	unsigned long end = vma->vm_end + delta;

	mmap_assert_write_locked(vma->vm_mm);
	if (end < vma->vm_end || end > TASK_SIZE ||
	    (next && next->vm_start < end))
		return false;
	if ((vma->vm_flags & VM_ACCOUNT) &&
	    vm_enough_memory(delta >> PAGE_SHIFT))
		return false;
	vma->vm_end = end;
	return true;
}

/* MREMAP_FIXED: whatever is at new_addr goes; the ranges may not overlap. */
static unsigned long mremap_to(unsigned long addr, unsigned long old_len,
			       unsigned long new_addr, unsigned long new_len)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	int err;

	if (new_addr & ~PAGE_MASK)
		return -EINVAL;
	if (new_len > TASK_SIZE || new_addr > TASK_SIZE - new_len)
		return -EINVAL;
	if (addr + old_len > new_addr && new_addr + new_len > addr)
		return -EINVAL;
	if (mmap_addr_allowed(new_addr))
		return -EPERM;
	err = do_munmap(mm, new_addr, new_len);
	if (!err && old_len > new_len) {
		err = do_munmap(mm, addr + new_len, old_len - new_len);
		old_len = new_len;
	}
	if (err)
		return err;
	vma = vma_to_resize(addr, old_len, new_len);
	if (IS_ERR(vma))
		return PTR_ERR(vma);
	return move_vma(addr, old_len, new_len, new_addr);
}

/* mremap with the lengths checked and page-aligned; mmap_lock held for
 * write. */
static unsigned long do_mremap(unsigned long addr, unsigned long old_len,
			       unsigned long new_len, unsigned long flags,
			       unsigned long new_addr)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	int err;

	vma = find_vma(mm, addr);
	if (!vma || vma->vm_start > addr)
		return -EFAULT;
	if (flags & MREMAP_FIXED)
		return mremap_to(addr, old_len, new_addr, new_len);
	if (old_len >= new_len) {
		if (old_len > new_len)
			err = do_munmap(mm, addr + new_len, old_len - new_len);
		else
			err = 0;
		return err ? err : addr;
	}
	vma = vma_to_resize(addr, old_len, new_len);
	if (IS_ERR(vma))
		return PTR_ERR(vma);
	if (old_len && addr + old_len == vma->vm_end &&
	    vma_expand(vma, new_len - old_len))
		return addr;
	if (!(flags & MREMAP_MAYMOVE))
		return -ENOMEM;
	new_addr = get_unmapped_area(mm, new_len);
	if (!new_addr)
		return -ENOMEM;
	return move_vma(addr, old_len, new_len, new_addr);
}

SYSCALL_DEFINE5(mremap, unsigned long, addr, unsigned long, old_len,
		unsigned long, new_len, unsigned long, flags,
		unsigned long, new_addr)
{
	unsigned long ret;

	if (flags & ~(MREMAP_FIXED | MREMAP_MAYMOVE | MREMAP_DONTUNMAP))
		return -EINVAL;
	if ((flags & MREMAP_FIXED) && !(flags & MREMAP_MAYMOVE))
		return -EINVAL;
	if ((flags & MREMAP_DONTUNMAP) || (addr & ~PAGE_MASK))
		return -EINVAL;
	old_len = PAGE_ALIGN(old_len);
	new_len = PAGE_ALIGN(new_len);
	if (!new_len)
		return -EINVAL;
	mmap_write_lock(current->mm);
	ret = do_mremap(addr, old_len, new_len, flags, new_addr);
	mmap_write_unlock(current->mm);
	return ret;
}
