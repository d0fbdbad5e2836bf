/*
 * mm/mlock.c: mlock, mlock2, munlock, mlockall, munlockall.
 *
 * Roadmap:
 *   VM_LOCKED     what "locked" means: the flag on a VMA. Reclaim leaves
 *                 the pages of a VM_LOCKED VMA mapped (try_to_unmap,
 *                 mm/rmap.c), so they stay resident. Only mapped
 *                 page-cache pages need it: pagelab has no swap, and
 *                 anonymous pages are never reclaimed at all.
 *   the limit     RLIMIT_MEMLOCK for a caller that is not root (root has
 *                 CAP_IPC_LOCK on Linux); a limit of 0 is EPERM. The
 *                 pages locked are counted by walking the VMAs when
 *                 asked (mm_locked_pages), not kept in a counter like
 *                 Linux's mm->locked_vm: munmap, mremap and exit then
 *                 never have to keep one right.
 *   apply_vma_lock_flags   split the VMAs at the range's edges and set
 *                 or clear the flags on the VMAs in between.
 *   populate_range         fault in every page of the range, as
 *                 MAP_POPULATE would, so that the pages are resident
 *                 when mlock returns (not for VM_LOCKONFAULT).
 *
 * What Linux does and pagelab does not:
 *   - mlockall(MCL_FUTURE) is accepted but later mappings are not locked:
 *     mmap and brk would have to add VM_LOCKED to new VMAs (Linux's
 *     mm->def_flags).
 *   - a range with a hole fails with ENOMEM before any VMA changes; Linux
 *     locks (or unlocks) the VMAs before the hole, then fails.
 *   - VMAs are split but never merged again, so munlock after mlock
 *     leaves more, smaller VMAs behind (Linux merges them: vma_merge).
 *   - mremap keeps VM_LOCKED on the moved VMA but does not populate the
 *     part a growing mremap adds.
 * fork clears VM_LOCKED in the child (locks are not inherited, as on
 * Linux): kernel/fork.c calls mm_clear_locked.
 *
 * mmap_lock: the flags change under it held for write; populating only
 * faults, so the lock is downgraded to read for that, as Linux's
 * __mm_populate takes it for read (another thread's faults go on).
 */
#include <mm/mmap.h>
#include <mm/mmap_lock.h>
#include <kernel/errno.h>
#include <kernel/resource.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/syscalls.h>
#include <kernel/uaccess.h>
#include <asm/processor.h>

#define MCL_CURRENT 1
#define MCL_FUTURE 2
#define MCL_ONFAULT 4
#define MLOCK_ONFAULT 1

#define VM_LOCKED_MASK (VM_LOCKED | VM_LOCKONFAULT)

/* Linux's capable(CAP_IPC_LOCK): pagelab's only capability is root. */
static bool capable_ipc_lock(void)
{
	return current->cred.euid == 0;
}

static unsigned long lock_limit_pages(void)
{
	return current->rlim[RLIMIT_MEMLOCK].rlim_cur >> PAGE_SHIFT;
}

/* Linux's can_do_mlock: a limit of 0 forbids locking anything. */
static bool can_do_mlock(void)
{
	return current->rlim[RLIMIT_MEMLOCK].rlim_cur || capable_ipc_lock();
}

/* Pages of VM_LOCKED VMAs of mm inside [start, end). mmap_lock held. */
static unsigned long mm_locked_pages(struct mm_struct *mm, unsigned long start,
				     unsigned long end)
{
	struct vm_area_struct *vma;
	unsigned long n = 0;

	mmap_assert_locked(mm);
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		unsigned long s = max(vma->vm_start, start);
		unsigned long e = min(vma->vm_end, end);

		if ((vma->vm_flags & VM_LOCKED) && s < e)
			n += (e - s) >> PAGE_SHIFT;
	}
	return n;
}

/* For /proc/PID/status's VmLck. */
unsigned long mm_locked_vm(struct mm_struct *mm)
{
	return mm_locked_pages(mm, 0, TASK_SIZE);
}

/* A new child's copy of its parent's mm: locks are not inherited. (No
 * one else knows mm yet; the lock is for form's sake, and cheap.) */
void mm_clear_locked(struct mm_struct *mm)
{
	struct vm_area_struct *vma;

	mmap_write_lock(mm);
	list_for_each_entry(vma, &mm->mmap, vm_list)
		vma->vm_flags &= ~VM_LOCKED_MASK;
	mmap_write_unlock(mm);
}

/* Is every byte of [start, end) inside some VMA? */
static bool range_mapped(struct mm_struct *mm, unsigned long start,
			 unsigned long end)
{
	struct vm_area_struct *vma;
	unsigned long a;

	for (a = start; a < end; a = vma->vm_end) {
		vma = find_vma(mm, a);
		if (!vma || vma->vm_start > a)
			return false;
	}
	return true;
}

/*
 * Replace the lock flags of the VMAs in [start, end), which must all be
 * mapped, by flags (0 unlocks). The edges are split off first, so only
 * the range changes. 0 or -ENOMEM. mmap_lock held for write.
 */
static int apply_vma_lock_flags(struct mm_struct *mm, unsigned long start,
				unsigned long end, unsigned long flags)
{
	struct vm_area_struct *vma;
	int err;

	mmap_assert_write_locked(mm);
	if (!range_mapped(mm, start, end))
		return -ENOMEM;
	err = split_range(mm, start, end);
	if (err)
		return err;
	list_for_each_entry(vma, &mm->mmap, vm_list)
		if (vma->vm_start < end && vma->vm_end > start)
			vma->vm_flags = (vma->vm_flags & ~VM_LOCKED_MASK) |
					flags;
	return 0;
}

/* Is the page behind pte there, and writable if a write is wanted? */
static bool page_ready(pte_t *pte, unsigned int flags)
{
	return pte && (*pte & _PAGE_PRESENT) &&
	       (!(flags & FAULT_FLAG_WRITE) || (*pte & _PAGE_RW));
}

/*
 * Make the page at addr of vma present, as a user access would. Returns
 * 0, or -EFAULT / -ENOMEM as get_user_pages would. A fault that only
 * asked to be retried (truncation raced with it) is retried after
 * letting the others run, unless a signal came meanwhile (-EINTR).
 * mmap_lock held (for read): handle_mm_fault asserts it.
 */
static int populate_page(struct vm_area_struct *vma, unsigned long addr,
			 unsigned int flags)
{
	pte_t *pte = lookup_pte(vma->vm_mm->pgd, addr, false);

	while (!page_ready(pte, flags)) {
		int fault = handle_mm_fault(vma, addr, flags);

		if (fault & VM_FAULT_OOM)
			return -ENOMEM;
		if (fault & (VM_FAULT_SIGBUS | VM_FAULT_SIGSEGV))
			return -EFAULT;	/* e.g. a file page past EOF */
		pte = lookup_pte(vma->vm_mm->pgd, addr, false);
		if (page_ready(pte, flags))
			break;
		if (signal_pending(current))
			return -EINTR;
		schedule();
	}
	return 0;
}

/*
 * Fault in [start, end) of vma, as Linux's populate_vma_page_range does:
 * a write fault where the VMA is private and writable (the copy-on-write
 * copy is made now, not at the first store), a read fault elsewhere, so
 * that a shared file mapping is not dirtied for nothing. A VMA no access
 * may touch (PROT_NONE) fails with -EFAULT, as on Linux.
 */
static int populate_vma(struct vm_area_struct *vma, unsigned long start,
			unsigned long end)
{
	unsigned int flags = 0;
	int err = 0;

	if (vma->vm_flags & VM_LOCKONFAULT)
		return 0;
	if (!(vma->vm_flags & (VM_READ | VM_WRITE | VM_EXEC)))
		return -EFAULT;
	if ((vma->vm_flags & (VM_WRITE | VM_SHARED)) == VM_WRITE)
		flags |= FAULT_FLAG_WRITE;
	for (unsigned long a = start; a < end && !err; a += PAGE_SIZE)
		err = populate_page(vma, a, flags);
	return err;
}

/*
 * Fault in the pages of [start, end) VMA by VMA (Linux's __mm_populate).
 * ignore_errors: go on with the next VMA after a failure (mlockall).
 * mmap_lock held.
 */
static int populate_range(struct mm_struct *mm, unsigned long start,
			  unsigned long end, bool ignore_errors)
{
	struct vm_area_struct *vma;
	int err;

	mmap_assert_locked(mm);
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		if (vma->vm_end <= start)
			continue;
		if (vma->vm_start >= end)
			break;
		err = populate_vma(vma, max(vma->vm_start, start),
				   min(vma->vm_end, end));
		if (err && !ignore_errors)
			return err;
	}
	return 0;
}

/* mlock's errors are POSIX's: EAGAIN when memory ran out while faulting
 * the pages in, ENOMEM for a page that could not be there (Linux's
 * __mlock_posix_error_return). */
static int mlock_posix_error(int err)
{
	if (err == -EFAULT)
		return -ENOMEM;
	if (err == -ENOMEM)
		return -EAGAIN;
	return err;
}

/* mlock's checks and flags, mmap_lock held for write: 0 or -errno. */
static long mlock_range(struct mm_struct *mm, unsigned long start,
			unsigned long end, unsigned long flags)
{
	unsigned long locked;

	/* Pages locked already, inside the range, are not counted twice. */
	locked = ((end - start) >> PAGE_SHIFT) + mm_locked_pages(mm, 0, start) +
		 mm_locked_pages(mm, end < start ? TASK_SIZE : end, TASK_SIZE);
	if (locked > lock_limit_pages() && !capable_ipc_lock())
		return -ENOMEM;
	if (end < start)
		return -EINVAL;
	if (end == start)
		return 0;
	return apply_vma_lock_flags(mm, start, end, flags);
}

static long do_mlock(unsigned long start, size_t len, unsigned long flags)
{
	struct mm_struct *mm = current->mm;
	unsigned long end;
	long err;

	if (!can_do_mlock())
		return -EPERM;
	len = PAGE_ALIGN(len + (start & ~PAGE_MASK));
	start &= PAGE_MASK;
	end = start + len;
	mmap_write_lock(mm);
	err = mlock_range(mm, start, end, flags);
	if (err || end == start) {
		mmap_write_unlock(mm);
		return err;
	}
	mmap_write_downgrade(mm);
	err = mlock_posix_error(populate_range(mm, start, end, false));
	mmap_read_unlock(mm);
	return err;
}

SYSCALL_DEFINE2(mlock, unsigned long, start, size_t, len)
{
	return do_mlock(start, len, VM_LOCKED);
}

SYSCALL_DEFINE3(mlock2, unsigned long, start, size_t, len, int, flags)
{
	unsigned long vm_flags = VM_LOCKED;

	if (flags & ~MLOCK_ONFAULT)
		return -EINVAL;
	if (flags & MLOCK_ONFAULT)
		vm_flags |= VM_LOCKONFAULT;
	return do_mlock(start, len, vm_flags);
}

/* Unlocking needs no permission and no limit. */
SYSCALL_DEFINE2(munlock, unsigned long, start, size_t, len)
{
	unsigned long end;
	int err;

	len = PAGE_ALIGN(len + (start & ~PAGE_MASK));
	start &= PAGE_MASK;
	end = start + len;
	if (end < start)
		return -EINVAL;
	if (end == start)
		return 0;
	mmap_write_lock(current->mm);
	err = apply_vma_lock_flags(current->mm, start, end, 0);
	mmap_write_unlock(current->mm);
	return err;
}

/* Set (MCL_CURRENT) or clear (0) the lock flags of every VMA. For write. */
static void apply_mlockall_flags(struct mm_struct *mm, int flags)
{
	unsigned long to_add = 0;
	struct vm_area_struct *vma;

	mmap_assert_write_locked(mm);
	if (flags & MCL_CURRENT) {
		to_add = VM_LOCKED;
		if (flags & MCL_ONFAULT)
			to_add |= VM_LOCKONFAULT;
	}
	list_for_each_entry(vma, &mm->mmap, vm_list)
		vma->vm_flags = (vma->vm_flags & ~VM_LOCKED_MASK) | to_add;
}

/*
 * MCL_CURRENT locks and populates what is mapped now (a VMA that cannot
 * be populated, PROT_NONE say, stays locked and is passed over, as on
 * Linux); MCL_FUTURE alone changes nothing here (see the top).
 */
SYSCALL_DEFINE1(mlockall, int, flags)
{
	struct mm_struct *mm = current->mm;

	if (!flags || (flags & ~(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)) ||
	    flags == MCL_ONFAULT)
		return -EINVAL;
	if (!can_do_mlock())
		return -EPERM;
	if (!(flags & MCL_CURRENT))
		return 0;
	mmap_write_lock(mm);
	if (mm_total_vm(mm) > lock_limit_pages() && !capable_ipc_lock()) {
		mmap_write_unlock(mm);
		return -ENOMEM;
	}
	apply_mlockall_flags(mm, flags);
	mmap_write_downgrade(mm);
	populate_range(mm, 0, TASK_SIZE, true);
	mmap_read_unlock(mm);
	return 0;
}

SYSCALL_DEFINE0(munlockall)
{
	mmap_write_lock(current->mm);
	apply_mlockall_flags(current->mm, 0);
	mmap_write_unlock(current->mm);
	return 0;
}
