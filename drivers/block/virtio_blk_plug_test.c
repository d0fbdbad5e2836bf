/*
 * drivers/block/virtio_blk_plug_test.c: the plug part of self-test
 * "virtio_blk" (virtio_blk_test.c calls it), on the first disk, in the
 * burst's area.
 *
 * Writeback of a file on 1 KiB blocks submits a bio per block; a plug
 * (block/bio.c) is what lets them reach the device together. Three
 * checks, each with 1 KiB bios over 8 pages, as writeback makes them:
 *   held       31 writes under a plug: the driver sees none of them
 *              until blk_finish_plug, then all of them with one kick
 *   sleep      31 reads under a plug, and the task waits for them before
 *              finishing it: schedule() must send them (without that,
 *              this boot hangs here, and the harness says so)
 *   full       32 reads: the plug sends itself at BLK_MAX_PLUGGED, before
 *              blk_finish_plug
 * What was read must be what was written (the 31 blocks; the 32nd is
 * whatever the disk held).
 */
#include <kernel/virtio_blk.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/selftest.h>
#include <kernel/string.h>
#include <mm/slab.h>
#include "virtio_blk_test.h"

#define PLUG_PAGES 8
#define PLUG_BIOS (PLUG_PAGES * (int)(PAGE_SIZE / 1024))	/* 32 */

struct plug_test {
	struct block_device *bd;
	struct virtqueue *vq;
	u64 sector;
	struct page *pages[PLUG_PAGES];
	struct bio *bios[PLUG_BIOS];
	struct waiter w;
};

/* Submit bios 0..n-1 (1 KiB each, block i at sector + 2i) into the
 * caller's plug: all made first, so that on -ENOMEM none is in flight. */
static int plug_submit(struct plug_test *t, enum req_op op, int n)
{
	for (int i = 0; i < n; i++) {
		struct bio *bio = bio_alloc(t->bd, 1, op, GFP_KERNEL);

		if (!bio) {
			while (i--)
				bio_put(t->bios[i]);
			return -ENOMEM;
		}
		bio->bi_sector = t->sector + 2 * i;
		bio_add_page(bio, t->pages[i / 4], 1024, i % 4 * 1024);
		bio->bi_private = &t->w;
		bio->bi_end_io = waiter_end_io;
		t->bios[i] = bio;
	}
	waiter_init(&t->w, n);
	for (int i = 0; i < n; i++)
		submit_bio(t->bios[i]);
	return 0;
}

static int plug_end(struct plug_test *t, int n, const char *what)
{
	wait_for_completion(&t->w.done);
	for (int i = 0; i < n; i++) {
		bio_put(t->bios[i]);
		t->bios[i] = NULL;
	}
	return t->w.errors ? selftest_fail("plug: %s: %d bios failed", what,
					   t->w.errors) : 0;
}

/* Fill, or check, the first n 1 KiB pieces (bio i's). Wrong words. */
static unsigned long plug_pattern(struct plug_test *t, int n, bool check)
{
	unsigned long bad = 0;

	for (int i = 0; i < n; i++)
		bad += pattern_fill((char *)page_address(t->pages[i / 4]) +
				    i % 4 * 1024, t->sector + 2 * i, 1024,
				    0x9106, check);
	return bad;
}

static void plug_clear(struct plug_test *t)
{
	for (int i = 0; i < PLUG_PAGES; i++)
		memset(page_address(t->pages[i]), 0, PAGE_SIZE);
}

static int plug_held(struct plug_test *t)
{
	unsigned long kicks = t->vq->nr_kicks;
	unsigned int in_flight = t->vq->in_flight;
	struct blk_plug plug;
	int err, early;

	plug_pattern(t, PLUG_BIOS - 1, false);
	blk_start_plug(&plug);
	err = plug_submit(t, REQ_OP_WRITE, PLUG_BIOS - 1);
	/* on the ring, or already done */
	early = t->vq->in_flight - in_flight + (PLUG_BIOS - 1) - t->w.pending;
	blk_finish_plug(&plug);
	if (err)
		return selftest_fail("plug: out of memory");
	kicks = t->vq->nr_kicks - kicks;
	err = plug_end(t, PLUG_BIOS - 1, "held");
	if (!err && (early || kicks != 1))
		err = selftest_fail("plug: %d of %d plugged bios reached the "
				    "driver before blk_finish_plug, then %lu "
				    "kicks (want 0, then 1)", early,
				    PLUG_BIOS - 1, kicks);
	return err;
}

static int plug_sleep(struct plug_test *t)
{
	struct blk_plug plug;
	int err;

	plug_clear(t);
	blk_start_plug(&plug);
	err = plug_submit(t, REQ_OP_READ, PLUG_BIOS - 1);
	if (!err)
		err = plug_end(t, PLUG_BIOS - 1, "sleep");	/* plugged */
	blk_finish_plug(&plug);
	return err;
}

static int plug_full(struct plug_test *t)
{
	unsigned long kicks = t->vq->nr_kicks;
	struct blk_plug plug;
	int err;

	blk_start_plug(&plug);
	err = plug_submit(t, REQ_OP_READ, PLUG_BIOS);
	kicks = t->vq->nr_kicks - kicks;
	blk_finish_plug(&plug);
	if (!err)
		err = plug_end(t, PLUG_BIOS, "full");
	if (!err && kicks != 1)
		err = selftest_fail("plug: %d bios: %lu kicks before "
				    "blk_finish_plug, want 1 (the plug sends "
				    "itself at %d)", PLUG_BIOS, kicks,
				    BLK_MAX_PLUGGED);
	return err;
}

int virtblk_test_plug(struct block_device *bd)
{
	struct plug_test *t = kzalloc(sizeof(*t), GFP_KERNEL);
	unsigned long bad = 0;
	int err;

	if (!t)
		return selftest_fail("out of memory for the plug test");
	t->bd = bd;
	t->vq = virtblk_from_bdev(bd)->vq;
	t->sector = bd->bd_nr_sectors - TAIL_SECTORS - BURST_SECTORS;
	err = alloc_page_array(t->pages, PLUG_PAGES) ?
	      selftest_fail("out of memory for the plug test") : 0;
	if (!err)
		err = plug_held(t);
	if (!err && !(err = plug_sleep(t)) &&
	    (bad = plug_pattern(t, PLUG_BIOS - 1, true)))
		err = selftest_fail("plug: read back %lu wrong words", bad);
	if (!err)
		plug_clear(t), err = plug_full(t);
	if (!err && (bad = plug_pattern(t, PLUG_BIOS - 1, true)))
		err = selftest_fail("plug: read back %lu wrong words", bad);
	if (!err)
		pr_info("virtio_blk_test: %s: plug: %d bios of 1 KiB held "
			"until blk_finish_plug, then one kick; sent by a "
			"sleep; %d send themselves\n", bd->bd_name,
			PLUG_BIOS - 1, PLUG_BIOS);
	free_page_array(t->pages, PLUG_PAGES);
	kfree(t);
	return err;
}
