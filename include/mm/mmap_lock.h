/*
 * mm->mmap_lock, Linux's names for it (include/linux/mmap_lock.h): one
 * reader-writer semaphore per address space, over its VMAs.
 *
 *	read	look at the VMAs, or fault pages into them: the fault path
 *		(find_vma through handle_mm_fault), mincore, msync, futex
 *		keys, /proc/PID/maps and the VmSize-like counts, mlock's
 *		populate, exec's argument pages
 *	write	add, remove, split or change VMAs, or the brk: mmap, munmap,
 *		mprotect, brk, mremap, mlock's flags, fork (both mms), exec
 *		while it maps the new program, the last mmput
 *
 * The order (doc/design.md, "Locking rules"): i_mutex before mmap_lock
 * (write() faults on its user buffer holding i_mutex), mmap_lock before
 * the page lock and i_truncate_mutex (a fault takes them under it), and
 * the spinlocks (i_mmap_lock, page_table_lock) innermost.
 * Nothing that holds it may touch user memory (copy_to_user and friends:
 * a fault there takes it again, which deadlocks once a writer waits);
 * copy after mmap_read_unlock, as mincore does.
 *
 * The assertions panic naming the function that needs the lock; every
 * function whose comment says "mmap_lock held" has one.
 */
#ifndef _MM_MMAP_LOCK_H
#define _MM_MMAP_LOCK_H

#include <kernel/rwsem.h>
#include <mm/mm_types.h>

static inline void mmap_init_lock(struct mm_struct *mm)
{
	init_rwsem(&mm->mmap_lock);
}

static inline void mmap_read_lock(struct mm_struct *mm)
{
	down_read(&mm->mmap_lock);
}

static inline bool mmap_read_trylock(struct mm_struct *mm)
{
	return down_read_trylock(&mm->mmap_lock);
}

static inline void mmap_read_unlock(struct mm_struct *mm)
{
	up_read(&mm->mmap_lock);
}

static inline void mmap_write_lock(struct mm_struct *mm)
{
	down_write(&mm->mmap_lock);
}

static inline void mmap_write_unlock(struct mm_struct *mm)
{
	up_write(&mm->mmap_lock);
}

static inline void mmap_write_downgrade(struct mm_struct *mm)
{
	downgrade_write(&mm->mmap_lock);
}

/* Held by current, for read or write / for write. */
#define mmap_assert_locked(mm) rwsem_assert_held(&(mm)->mmap_lock)
#define mmap_assert_write_locked(mm) rwsem_assert_held_write(&(mm)->mmap_lock)

#endif
