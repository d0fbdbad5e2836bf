/*
 * drivers/block/virtio_blk_test.h: what the virtio-blk self-test files
 * share (virtio_blk_test.c defines these; virtio_blk_burst_test.c and
 * virtio_blk_plug_test.c use them).
 */
#ifndef _DRIVERS_VIRTIO_BLK_TEST_H
#define _DRIVERS_VIRTIO_BLK_TEST_H

#include <fs/blkdev.h>
#include <kernel/completion.h>

#define TAIL_SECTORS 64	/* the pieces test, at the very end of a disk */
#define BURST_BIOS 64
#define BURST_PAGES BIO_MAX_VECS	/* per bio: 64 KiB */
#define BURST_SECTORS (BURST_BIOS * BURST_PAGES * (PAGE_SIZE >> SECTOR_SHIFT))
#define MAX_DISKS 2

/* Fill (or, with check, compare) len bytes at buf that belong at sector
 * s with a pattern that says where each word belongs. Returns the number
 * of wrong words. */
unsigned long pattern_fill(void *buf, u64 s, size_t len, u32 seed,
			   bool check);

/* Counts bios down; done completes when the last one ends. */
struct waiter {
	int pending, errors;
	struct completion done;
};
void waiter_init(struct waiter *w, int pending);
void waiter_end_io(struct bio *bio);	/* bi_private: the waiter */

/* 0 or -ENOMEM (then free_page_array frees what was allocated). */
int alloc_page_array(struct page **pages, int n);
void free_page_array(struct page **pages, int n);

/* The burst on n writable disks at once. 0 or selftest_fail(). */
int virtblk_test_burst(struct block_device **bds, int n);
/* Plugged bios (virtio_blk_plug_test.c) on a writable disk. */
int virtblk_test_plug(struct block_device *bd);

#endif
