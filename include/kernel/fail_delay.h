/*
 * Race windows held open on demand (kernel/fail_delay.c). A race between
 * truncate and a fault happens by luck: a few instructions must run in
 * just the wrong order. A delay point names such a window; a test arms it
 * and the next task to pass sleeps there, so the other side of the race
 * runs inside the window every time:
 *
 *	echo "isize_set 500" > /proc/fail/delay	# next one: sleep 500 ms
 *	echo "isize_set 500 3" > /proc/fail/delay	# the next three
 *	echo "isize_set 0" > /proc/fail/delay	# disarm
 *	cat /proc/fail/delay			# every point and its state
 *
 * Points sit in code the labs never ask a student to write, so a
 * solution in any style passes them the same way: a call to fail_delay()
 * there, or, where the window opens as a function is entered and the
 * code around the call is a lab's, the function's entry itself, which
 * the tracer watches (isize_set: kernel/trace.c, trace_entry_delay).
 * Never in a primitive (i_size_write, lock_page): a point changes what
 * its code may do (sleep).
 *
 * A point where the caller may not sleep (spinlocks held) spins instead,
 * for the same time: fail_spin. Another CPU runs the other side of the
 * race meanwhile; on one CPU it only delays.
 */
#ifndef _KERNEL_FAIL_DELAY_H
#define _KERNEL_FAIL_DELAY_H

#include <kernel/types.h>

enum fail_delay_point {
	FD_ISIZE_SET,		/* entry of truncate_pagecache or
				 * pagecache_isize_extended: i_size has
				 * changed, the page cache not yet */
	FD_FAULT_PAGE_LOCKED,	/* __do_fault: page locked, PTE not yet set */
	FD_MKWRITE_BEFORE_LOCK,	/* do_page_mkwrite: before ->page_mkwrite */
	FD_TRUNCATE_PAGES_DROPPED, /* end of truncate_inode_pages */
	FD_BLOCK_TRUNCATE_READ,	/* block_truncate_page: before its read */
	FD_PAGE_MKCLEAN,	/* page_mkclean: before PTEs are write-protected */
	FD_FAULT_PAGE_FOUND,	/* filemap_fault: page referenced, not yet locked */
	FD_DIRTY_MAPPED_BUFFER,	/* __set_page_dirty_buffers: a buffer found
				 * mapped, not yet marked dirty (spins) */
	FD_NR_POINTS
};

extern unsigned long fail_delay_armed;	/* bit per point: the fast test */

void __fail_delay(enum fail_delay_point point);
void fail_delay_proc_init(void);
const char *fail_delay_name(enum fail_delay_point point);

/* Sleep here if the point is armed. May sleep: never call it atomic. */
static inline void fail_delay(enum fail_delay_point point)
{
	if (__builtin_expect(fail_delay_armed != 0, 0))
		__fail_delay(point);
}

/* Spin here if the point is armed (a point declared spinning). */
static inline void fail_spin(enum fail_delay_point point)
{
	fail_delay(point);
}

#endif
