/*
 * Fault injection (kernel/fault_inject.c): make the Nth event of a kind
 * fail, to watch what the code above does with an error it rarely sees.
 * Each kind is a file in /proc/fail/:
 *
 *	echo 3 > /proc/fail/block_read	# the 3rd block read from now: EIO
 *	echo 1 > /proc/fail/alloc_reclaim	# the next allocation reclaims
 *	cat /proc/fail/block_read	# "armed 2 left, 0 injected"
 *
 * Writing 0 disarms. The code that can fail asks should_fail() at the
 * point where the real error would arise and fails the same way.
 */
#ifndef _KERNEL_FAULT_INJECT_H
#define _KERNEL_FAULT_INJECT_H

#include <kernel/compiler.h>
#include <kernel/types.h>

struct fault_attr {
	const char *name;
	long countdown;	/* events left before the failure; 0: disarmed */
	unsigned long injected;	/* failures so far */
};

extern struct fault_attr fail_block_read;	/* a bio read gets -EIO */
extern struct fault_attr fail_block_write;	/* a bio write gets -EIO */
extern struct fault_attr fail_block_alloc;	/* ext2 block allocation: ENOSPC */
extern struct fault_attr fail_block_free;	/* ext2 freeing a block: EIO */
extern struct fault_attr fail_bio_alloc;	/* kmalloc of a bio: the reserve */
extern struct fault_attr fail_radix_preload;	/* radix_tree_preload: ENOMEM */
/* A page allocation that may sleep first reclaims all it can, as if
 * memory had run out: what a caller that holds a PTE across
 * alloc_page must survive (mm/page_alloc.c). */
extern struct fault_attr fail_alloc_reclaim;

/* Count one event; true when this one is to fail (and log it). */
bool should_fail(struct fault_attr *attr);

/* Is attr armed at all? For a hot path, before it counts an event. */
static inline bool fault_armed(const struct fault_attr *attr)
{
	return READ_ONCE(attr->countdown) != 0;
}

#endif
