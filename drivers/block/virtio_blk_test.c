/*
 * drivers/block/virtio_blk_test.c: self-test "virtio_blk", on vda (and
 * vdb when there is one). It writes to the last 4 MiB + 32 KiB of each
 * disk: give it scratch disks (the harness's fresh images; on a new ext2
 * image of 8 MiB or more that area is free space).
 *
 * For each disk, in order:
 *   ends       read sector 0 (logged; an ext2 superblock is recognised)
 *              and the last sector, into the middle of a page whose other
 *              bytes must stay untouched
 *   read-only  (a read-only disk stops here) a write is refused by the
 *              block layer (-EROFS) and, sent to the driver directly, by
 *              the device (-EIO)
 *   pieces     a 22-sector write from five pieces at odd offsets in five
 *              pages, read back through three differently cut pieces
 *   flush      REQ_OP_FLUSH succeeds
 *   beyond     a bio past the end fails with -EIO, both through the block
 *              layer and straight at the device; the disk still works
 * Then, on all writable disks at once, the burst (virtio_blk_burst_test.c):
 * 64 bios of 64 KiB per disk in flight; and on the first, plugged bios
 * (virtio_blk_plug_test.c). Finally no pages and no kmalloc objects may
 * be left over.
 */
#include <kernel/virtio_blk.h>
#include <kernel/completion.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/selftest.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <mm/slab.h>
#include "virtio_blk_test.h"

struct piece {
	int page;
	unsigned int off, len;
};

/* The word at byte `pos` of sector s: says where it belongs. */
static u32 pattern(u64 s, unsigned int pos, u32 seed)
{
	return ((u32)s << 9 | pos) ^ seed;
}

unsigned long pattern_fill(void *buf, u64 s, size_t len, u32 seed,
				  bool check)
{
	u32 *w = buf;
	unsigned long bad = 0;

	for (size_t i = 0; i < len / 4; i++) {
		u32 want = pattern(s + i / 128, (i % 128) * 4, seed);

		if (!check)
			w[i] = want;
		else if (w[i] != want)
			bad++;
	}
	return bad;
}

void waiter_end_io(struct bio *bio)
{
	struct waiter *w = bio->bi_private;

	if (bio->bi_status)
		w->errors++;
	if (__atomic_sub_fetch(&w->pending, 1, __ATOMIC_SEQ_CST) == 0)
		complete(&w->done);
}

void waiter_init(struct waiter *w, int pending)
{
	*w = (struct waiter){ .pending = pending };
	init_completion(&w->done);
}

static struct bio *piece_bio(struct block_device *bd, enum req_op op,
			     u64 sector, struct page **pages,
			     const struct piece *p, int n)
{
	struct bio *bio = bio_alloc(bd, n, op, GFP_KERNEL);

	if (!bio)
		return NULL;
	bio->bi_sector = sector;
	for (int i = 0; i < n; i++)
		bio_add_page(bio, pages[p[i].page], p[i].len, p[i].off);
	return bio;
}

/* Submit one bio of pieces and wait. direct: straight to the driver,
 * skipping the block layer's checks. Returns bi_status or -ENOMEM. */
static int rw_pieces(struct block_device *bd, enum req_op op, u64 sector,
		     struct page **pages, const struct piece *p, int n,
		     bool direct)
{
	struct bio *bio = piece_bio(bd, op, sector, pages, p, n);
	struct waiter w;
	int err;

	if (!bio)
		return -ENOMEM;
	if (!direct) {
		err = submit_bio_wait(bio);
	} else {
		waiter_init(&w, 1);
		bio->bi_private = &w;
		bio->bi_end_io = waiter_end_io;
		bd->bd_ops->submit_bio(bio);
		wait_for_completion(&w.done);
		err = bio->bi_status;
	}
	bio_put(bio);
	return err;
}

int alloc_page_array(struct page **pages, int n)
{
	for (int i = 0; i < n; i++)
		if (!(pages[i] = alloc_page(GFP_KERNEL)))
			return -ENOMEM;
	return 0;
}

void free_page_array(struct page **pages, int n)
{
	for (int i = 0; i < n; i++)
		if (pages[i])
			__free_page(pages[i]);
}

static int test_ends(struct block_device *bd, struct page *pg)
{
	static const struct piece first = { 0, 0, PAGE_SIZE };
	static const struct piece last = { 0, 1536, SECTOR_SIZE };
	u8 *b = page_address(pg);
	int err;

	if ((err = rw_pieces(bd, REQ_OP_READ, 0, &pg, &first, 1, false)))
		return selftest_fail("%s: reading sector 0: %d", bd->bd_name,
				     err);
	pr_info("virtio_blk_test: %s: sector 0: %02x %02x %02x %02x %02x %02x "
		"%02x %02x\n", bd->bd_name, b[0], b[1], b[2], b[3], b[4], b[5],
		b[6], b[7]);
	if (b[1080] == 0x53 && b[1081] == 0xef)
		pr_info("virtio_blk_test: %s: ext2 superblock magic at byte "
			"1080\n", bd->bd_name);
	memset(b, 0xa5, PAGE_SIZE);
	if ((err = rw_pieces(bd, REQ_OP_READ, bd->bd_nr_sectors - 1, &pg,
			     &last, 1, false)))
		return selftest_fail("%s: reading the last sector: %d",
				     bd->bd_name, err);
	for (unsigned int i = 0; i < PAGE_SIZE; i++)
		if ((i < 1536 || i >= 2048) && b[i] != 0xa5)
			return selftest_fail("%s: byte %u of the page changed "
					     "outside the 512 bytes read",
					     bd->bd_name, i);
	return 0;
}

/* A read-only disk: writes fail cleanly at both levels, reads still work. */
static int test_read_only(struct block_device *bd, struct page *pg)
{
	static const struct piece one = { 0, 0, PAGE_SIZE };
	int by_block, by_device;

	by_block = rw_pieces(bd, REQ_OP_WRITE, 0, &pg, &one, 1, false);
	by_device = rw_pieces(bd, REQ_OP_WRITE, 0, &pg, &one, 1, true);
	pr_info("virtio_blk_test: %s: read-only: write refused by the block "
		"layer (%d) and by the device (%d)\n", bd->bd_name, by_block,
		by_device);
	if (by_block != -EROFS || by_device != -EIO)
		return selftest_fail("%s: writes gave %d and %d, want %d and "
				     "%d", bd->bd_name, by_block, by_device,
				     -EROFS, -EIO);
	if (rw_pieces(bd, REQ_OP_READ, 0, &pg, &one, 1, false))
		return selftest_fail("%s: read after refused writes failed",
				     bd->bd_name);
	return 0;
}

/* Five odd pieces written, three others read: every byte where it
 * belongs, nothing outside the pieces touched. */
static int test_pieces(struct block_device *bd, struct page **pg)
{
	static const struct piece wr[] = {
		{ 0, 512, 3584 }, { 1, 0, 4096 }, { 2, 1536, 1024 },
		{ 3, 3584, 512 }, { 4, 0, 2048 },
	};
	static const struct piece rd[] = {
		{ 0, 0, 4096 }, { 1, 1024, 3072 }, { 2, 0, 4096 },
	};
	u64 s = bd->bd_nr_sectors - TAIL_SECTORS, at = s;
	int err;

	for (int i = 0; i < 5; i++) {
		pattern_fill((char *)page_address(pg[wr[i].page]) + wr[i].off,
			     at, wr[i].len, 0x5eed, false);
		at += wr[i].len >> SECTOR_SHIFT;
	}
	if ((err = rw_pieces(bd, REQ_OP_WRITE, s, pg, wr, 5, false)))
		return selftest_fail("%s: write of 5 pieces: %d", bd->bd_name,
				     err);
	for (int i = 0; i < 5; i++)
		memset(page_address(pg[i]), 0xa5, PAGE_SIZE);
	if ((err = rw_pieces(bd, REQ_OP_READ, s, pg, rd, 3, false)))
		return selftest_fail("%s: read of 3 pieces: %d", bd->bd_name,
				     err);
	at = s;
	for (int i = 0; i < 3; i++) {
		char *p = (char *)page_address(pg[rd[i].page]) + rd[i].off;
		unsigned long bad;

		bad = pattern_fill(p, at, rd[i].len, 0x5eed, true);
		if (bad)
			return selftest_fail("%s: piece %d read back with %lu "
					     "wrong words", bd->bd_name, i,
					     bad);
		at += rd[i].len >> SECTOR_SHIFT;
	}
	for (int i = 0; i < 1024; i++)
		if (((u8 *)page_address(pg[1]))[i] != 0xa5)
			return selftest_fail("%s: read wrote outside its piece",
					     bd->bd_name);
	return 0;
}

static int test_flush_and_beyond(struct block_device *bd, struct page *pg)
{
	static const struct piece two = { 0, 0, 2 * SECTOR_SIZE };
	struct virtio_blk *vblk = virtblk_from_bdev(bd);
	unsigned long errors = vblk->nr_errors;
	u64 last = bd->bd_nr_sectors - 1;
	int err;

	if ((err = blkdev_issue_flush(bd)))
		return selftest_fail("%s: flush: %d", bd->bd_name, err);
	/* Two sectors from the last one: the second is past the end. */
	if ((err = rw_pieces(bd, REQ_OP_READ, last, &pg, &two, 1, false)) !=
	    -EIO)
		return selftest_fail("%s: read past the end through the block "
				     "layer gave %d", bd->bd_name, err);
	if ((err = rw_pieces(bd, REQ_OP_READ, last, &pg, &two, 1, true)) !=
	    -EIO)
		return selftest_fail("%s: read past the end at the device "
				     "gave %d", bd->bd_name, err);
	if (vblk->nr_errors != errors + 1)
		return selftest_fail("%s: the device error was not counted",
				     bd->bd_name);
	if ((err = rw_pieces(bd, REQ_OP_READ, 0, &pg, &two, 1, false)))
		return selftest_fail("%s: read after the errors: %d",
				     bd->bd_name, err);
	return 0;
}

static int test_one_disk(struct block_device *bd)
{
	struct page *pg[5] = { NULL };
	int err;

	if (bd->bd_holder)
		return selftest_fail("%s is mounted; this test writes to it",
				     bd->bd_name);
	if (!bd->bd_read_only &&
	    bd->bd_nr_sectors < BURST_SECTORS + TAIL_SECTORS)
		return selftest_fail("%s: %lu sectors; the test needs %lu",
				     bd->bd_name, bd->bd_nr_sectors,
				     BURST_SECTORS + TAIL_SECTORS);
	if (alloc_page_array(pg, 5)) {
		err = selftest_fail("out of memory");
		goto out;
	}
	err = test_ends(bd, pg[0]);
	if (!err && bd->bd_read_only)
		err = test_read_only(bd, pg[0]);
	else if (!err && !(err = test_pieces(bd, pg)))
		err = test_flush_and_beyond(bd, pg[0]);
out:
	free_page_array(pg, 5);
	return err;
}

static int test_virtio_blk(void)
{
	struct block_device *bds[MAX_DISKS];
	struct selftest_mem mem;
	int n = 0, err = 0;

	selftest_mem_snapshot(&mem);
	for (int i = 0; i < MAX_DISKS; i++) {
		char name[4] = { 'v', 'd', 'a' + i, 0 };
		struct block_device *bd = blkdev_get_by_name(name);

		if (!virtblk_from_bdev(bd))
			break;
		bds[n++] = bd;
	}
	if (!n)
		return selftest_fail("no disk: vda is missing (attach one with "
				     "-drive file=IMG,if=virtio,format=raw)");
	for (int i = 0; i < n && !err; i++)
		err = test_one_disk(bds[i]);
	if (!err && !bds[0]->bd_read_only)
		err = virtblk_test_burst(bds, bds[n - 1]->bd_read_only ? 1 : n);
	if (!err && !bds[0]->bd_read_only)
		err = virtblk_test_plug(bds[0]);
	if (err)
		return err;
	return selftest_mem_check(&mem);
}
DEFINE_SELFTEST(virtio_blk, test_virtio_blk);
