/*
 * drivers/block/virtio_blk_burst_test.c: the burst part of self-test
 * "virtio_blk" (virtio_blk_test.c calls it).
 *
 * 64 bios of 64 KiB (16 whole pages each: a full bio) per disk, submitted
 * to every disk, interleaved, before any is waited for: 1152 descriptors
 * per disk for a ring of 256, so the ring fills and the driver keeps bios
 * on its waiting list, feeding them to the ring from the interrupt
 * handler as slots free. The whole 4 MiB is written, the pages cleared,
 * read back and compared. Then the same on vda one bio at a time (each
 * waits for the one before) for comparison. Both are timed and logged.
 */
#include <kernel/virtio_blk.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/selftest.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <mm/slab.h>
#include "virtio_blk_test.h"

struct burst {
	struct block_device *bd;
	u64 sector;
	struct page *pages[BURST_BIOS * BURST_PAGES];
	struct bio *bios[BURST_BIOS];
};

static unsigned long burst_pattern(struct burst *b, u32 seed, bool check)
{
	unsigned long bad = 0;

	for (int i = 0; i < BURST_BIOS * BURST_PAGES; i++) {
		void *p = page_address(b->pages[i]);

		if (seed == 0)	/* clear, for reading into */
			memset(p, 0, PAGE_SIZE);
		else
			bad += pattern_fill(p, b->sector + i * 8, PAGE_SIZE,
					    seed, check);
	}
	return bad;
}

static struct bio *burst_bio(struct burst *b, int j, enum req_op op)
{
	struct bio *bio = bio_alloc(b->bd, BURST_PAGES, op, GFP_KERNEL);

	if (!bio)
		return NULL;
	bio->bi_sector = b->sector + j * BURST_PAGES * 8;
	for (int k = 0; k < BURST_PAGES; k++)
		bio_add_page(bio, b->pages[j * BURST_PAGES + k], PAGE_SIZE, 0);
	return bio;
}

/* All bios of all disks submitted before any is waited for, interleaved
 * across the disks. Returns nanoseconds taken, or 0 on failure. */
static u64 burst_run(struct burst **bs, int n, enum req_op op)
{
	struct waiter w;
	u64 t0, ns = 0;

	waiter_init(&w, n * BURST_BIOS);
	for (int d = 0; d < n; d++)
		for (int j = 0; j < BURST_BIOS; j++)
			if (!(bs[d]->bios[j] = burst_bio(bs[d], j, op)))
				goto out;
	t0 = ktime_get_ns();
	for (int j = 0; j < BURST_BIOS; j++) {
		for (int d = 0; d < n; d++) {
			bs[d]->bios[j]->bi_private = &w;
			bs[d]->bios[j]->bi_end_io = waiter_end_io;
			submit_bio(bs[d]->bios[j]);
		}
	}
	wait_for_completion(&w.done);
	ns = w.errors ? 0 : ktime_get_ns() - t0;
out:
	for (int d = 0; d < n; d++)
		for (int j = 0; j < BURST_BIOS; j++) {
			if (bs[d]->bios[j])
				bio_put(bs[d]->bios[j]);
			bs[d]->bios[j] = NULL;
		}
	return ns;
}

/* The same on one disk, one bio at a time: each waits for the last. */
static u64 burst_one_at_a_time(struct burst *b, enum req_op op)
{
	u64 t0 = ktime_get_ns();

	for (int j = 0; j < BURST_BIOS; j++) {
		struct bio *bio = burst_bio(b, j, op);
		int err = bio ? submit_bio_wait(bio) : -ENOMEM;

		if (bio)
			bio_put(bio);
		if (err)
			return 0;
	}
	return ktime_get_ns() - t0;
}

#define MS(ns) (unsigned long)((ns) / NSEC_PER_MSEC), \
	(unsigned long)((ns) / (NSEC_PER_MSEC / 10) % 10)

static int burst_check(struct burst **bs, int n, u64 wr, u64 rd)
{
	for (int d = 0; d < n; d++) {
		unsigned long bad = burst_pattern(bs[d], 0xb0b0 + d, true);

		if (!wr || !rd)
			return selftest_fail("%s: a burst bio failed",
					     bs[d]->bd->bd_name);
		if (bad)
			return selftest_fail("%s: burst read back %lu wrong "
					     "words", bs[d]->bd->bd_name, bad);
	}
	return 0;
}

int virtblk_test_burst(struct block_device **bds, int n)
{
	struct burst *bs[MAX_DISKS] = { NULL };
	struct virtio_blk *vblk = virtblk_from_bdev(bds[0]);
	unsigned long waited = vblk->nr_waited;
	unsigned long irqs = vblk->vdev->nr_interrupts;
	u64 wr, rd;
	int err = 0;

	for (int d = 0; d < n; d++) {
		if (!(bs[d] = kzalloc(sizeof(*bs[d]), GFP_KERNEL)) ||
		    alloc_page_array(bs[d]->pages, BURST_BIOS * BURST_PAGES)) {
			err = selftest_fail("out of memory for the burst");
			goto out;
		}
		bs[d]->bd = bds[d];
		bs[d]->sector = bds[d]->bd_nr_sectors - TAIL_SECTORS -
				BURST_SECTORS;
		burst_pattern(bs[d], 0xb0b0 + d, false);
	}
	wr = burst_run(bs, n, REQ_OP_WRITE);
	for (int d = 0; d < n; d++)
		burst_pattern(bs[d], 0, false);
	rd = burst_run(bs, n, REQ_OP_READ);
	if ((err = burst_check(bs, n, wr, rd)))
		goto out;
	pr_info("virtio_blk_test: %s%s: %d bios of 64 KiB per disk at once: "
		"write 4 MiB per disk in %lu.%lu ms, read in %lu.%lu ms; %lu "
		"bios waited for ring space (at most %lu at once); %s: %lu "
		"interrupts for %d bios\n", bds[0]->bd_name,
		n > 1 ? "+vdb" : "", BURST_BIOS, MS(wr), MS(rd),
		vblk->nr_waited - waited, vblk->max_waiting, bds[0]->bd_name,
		vblk->vdev->nr_interrupts - irqs, 2 * BURST_BIOS);
	if (vblk->nr_waited == waited)
		err = selftest_fail("%s: the ring never filled",
				    bds[0]->bd_name);
	if (err)
		goto out;
	burst_pattern(bs[0], 0xc0c0, false);
	wr = burst_one_at_a_time(bs[0], REQ_OP_WRITE);
	burst_pattern(bs[0], 0, false);
	rd = burst_one_at_a_time(bs[0], REQ_OP_READ);
	if (!wr || !rd || burst_pattern(bs[0], 0xc0c0, true)) {
		err = selftest_fail("%s: one-at-a-time bios failed or read "
				    "back wrong", bds[0]->bd_name);
		goto out;
	}
	pr_info("virtio_blk_test: %s: one 64 KiB bio at a time: write 4 MiB "
		"in %lu.%lu ms, read in %lu.%lu ms\n", bds[0]->bd_name, MS(wr),
		MS(rd));
out:
	for (int d = 0; d < n; d++) {
		if (!bs[d])
			continue;
		free_page_array(bs[d]->pages, BURST_BIOS * BURST_PAGES);
		kfree(bs[d]);
	}
	return err;
}
