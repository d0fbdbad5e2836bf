/*
 * block/bio.c: the I/O itself, as bios.
 *
 * A bio names a disk, a starting sector and pages. submit_bio checks it
 * (inside the disk, not a write to a read-only disk) before handing it to
 * the driver, counts the I/O for /proc/vmstat, and bio_endio calls the
 * submitter back when the driver is done; submit_bio_wait turns that
 * completion into a sleep. A task may plug (blk_start_plug): its bios then
 * reach the driver as a batch. Requests are not merged or sorted here:
 * the disks are virtual, and a teaching kernel gains more from seeing
 * each bio as issued (QEMU merges a batch's adjacent requests itself).
 * (Linux: block/bio.c, blk-core.c and blk-flush.c, with request queues
 * and I/O schedulers between submit_bio and the driver.)
 */
#include <fs/blkdev.h>
#include <kernel/completion.h>
#include <kernel/errno.h>
#include <kernel/explore.h>
#include <kernel/fault_inject.h>
#include <kernel/init.h>
#include <kernel/preempt.h>
#include <kernel/sched.h>
#include <kernel/wait.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <kernel/string.h>
#include <kernel/vmstat.h>
#include <mm/slab.h>

/*
 * A reserve of one-vec bios, the size writeback of a buffer needs (Linux
 * keeps a mempool in each bio_set for the same reason). Writeback is how
 * memory comes back: when kmalloc has nothing left even from the page
 * allocator's reserve (reclaim writing many dirty pages at once), a write
 * takes a bio from here, or waits for a completing one to come back here,
 * instead of failing with EIO and losing the page's data.
 */
#define BIO_POOL_SIZE 32
static struct bio *bio_pool[BIO_POOL_SIZE];
static int bio_pool_nr;
static DEFINE_SPINLOCK(bio_pool_lock);
static DECLARE_WAIT_QUEUE_HEAD(bio_pool_wait);

static struct bio *bio_pool_get(void)
{
	struct bio *bio = NULL;
	unsigned long flags;

	spin_lock_irqsave(&bio_pool_lock, flags);
	if (bio_pool_nr)
		bio = bio_pool[--bio_pool_nr];
	spin_unlock_irqrestore(&bio_pool_lock, flags);
	return bio;
}

/* Returns false when the pool is full (the bio is then the caller's). */
static bool bio_pool_put(struct bio *bio)
{
	unsigned long flags;
	bool taken = false;

	spin_lock_irqsave(&bio_pool_lock, flags);
	if (bio_pool_nr < BIO_POOL_SIZE) {
		memset(bio, 0, sizeof(*bio) + sizeof(struct bio_vec));
		bio->bi_from_pool = true;
		bio_pool[bio_pool_nr++] = bio;
		taken = true;
	}
	spin_unlock_irqrestore(&bio_pool_lock, flags);
	if (taken)
		wake_up(&bio_pool_wait);
	return taken;
}

static int bio_pool_init(void)
{
	while (bio_pool_nr < BIO_POOL_SIZE) {
		struct bio *bio = kzalloc(sizeof(*bio) + sizeof(struct bio_vec),
					  GFP_KERNEL);

		if (!bio || !bio_pool_put(bio))
			return -ENOMEM;
	}
	return 0;
}
device_initcall(bio_pool_init);

/* A reserved bio for nr_vecs <= 1, waiting for one if the caller may. */
static struct bio *bio_alloc_reserved(gfp_t gfp)
{
	struct bio *bio = bio_pool_get();
	bool may_wait = (gfp & __GFP_RECLAIM) &&
			(local_save_flags() & X86_EFLAGS_IF);

	while (!bio && may_wait) {
		wait_event(bio_pool_wait, READ_ONCE(bio_pool_nr) > 0);
		bio = bio_pool_get();
	}
	if (bio)
		count_vm_event(BIO_POOL_USED);
	return bio;
}

struct bio *bio_alloc(struct block_device *bdev, unsigned short nr_vecs,
		      enum req_op op, gfp_t gfp)
{
	struct bio *bio;

	if (nr_vecs > BIO_MAX_VECS)
		nr_vecs = BIO_MAX_VECS;
	/* Writeback needs bios to free memory: let them use the page
	 * allocator's reserve first, then our own. */
	bio = should_fail(&fail_bio_alloc) ? NULL :
	      kzalloc(sizeof(*bio) + nr_vecs * sizeof(struct bio_vec),
		      gfp | __GFP_HIGH);
	if (!bio && nr_vecs <= 1)
		bio = bio_alloc_reserved(gfp);
	if (!bio)
		return NULL;
	bio->bi_bdev = bdev;
	bio->bi_opf = op;
	bio->bi_max_vecs = nr_vecs;
	INIT_LIST_HEAD(&bio->bi_list);
	return bio;
}

void bio_put(struct bio *bio)
{
	if (bio->bi_from_pool && bio_pool_put(bio))
		return;
	kfree(bio);
}

unsigned int bio_add_page(struct bio *bio, struct page *page,
			  unsigned int len, unsigned int offset)
{
	struct bio_vec *v;

	if (bio->bi_vcnt == bio->bi_max_vecs || offset + len > PAGE_SIZE ||
	    len % SECTOR_SIZE)
		return 0;
	v = &bio->bi_io_vec[bio->bi_vcnt++];
	v->bv_page = page;
	v->bv_len = len;
	v->bv_offset = offset;
	bio->bi_size += len;
	return len;
}

void bio_endio(struct bio *bio)
{
	struct block_device *bdev = bio->bi_bdev;

	if (bio->bi_opf == REQ_OP_READ) {
		bdev->bd_reads++;
		count_vm_events(PGPGIN, bio->bi_size >> 10);
	} else if (bio->bi_opf == REQ_OP_WRITE) {
		bdev->bd_writes++;
		count_vm_events(PGPGOUT, bio->bi_size >> 10);
	}
	if (bio->bi_end_io)
		bio->bi_end_io(bio);
}

/*
 * A request of a task the schedule explorer runs (kernel/sched/explore.c)
 * completes before the task goes on: it spins, interrupts on, until the
 * disk's interrupt has ended the bio. Otherwise the task would sleep, the
 * other task of the run would go on, and how far it got before the
 * interrupt came (a page unlocked by the read's end, or still locked)
 * would depend on the disk's speed, not on the schedule. The tick does
 * not switch an explored task, so nothing else runs meanwhile.
 */
struct explore_bio_wait {
	bio_end_io_t *end_io;
	void *private;
	volatile bool done;
};

static void explore_bio_end_io(struct bio *bio)
{
	struct explore_bio_wait *w = bio->bi_private;

	bio->bi_end_io = w->end_io;
	bio->bi_private = w->private;
	if (bio->bi_end_io)
		bio->bi_end_io(bio);	/* may free the bio */
	w->done = true;
}

static void submit_bio_explored(struct bio *bio)
{
	struct explore_bio_wait w = { bio->bi_end_io, bio->bi_private, false };

	bio->bi_end_io = explore_bio_end_io;
	bio->bi_private = &w;
	bio->bi_bdev->bd_ops->submit_bio(bio);
	while (!w.done)
		cpu_relax();
}

void blk_start_plug(struct blk_plug *plug)
{
	INIT_LIST_HEAD(&plug->bios);
	plug->count = 0;
	if (!current->plug)	/* nested: the outer one holds the bios */
		current->plug = plug;
}

/* Hand the plug's bios to their drivers: each disk's run as one batch. */
static void flush_plug_list(struct blk_plug *plug)
{
	while (!list_empty(&plug->bios)) {
		struct bio *bio = list_first_entry(&plug->bios, struct bio,
						   bi_list);
		struct block_device *bdev = bio->bi_bdev;
		LIST_HEAD(run);

		while (bio->bi_bdev == bdev) {
			list_move_tail(&bio->bi_list, &run);
			if (list_empty(&plug->bios))
				break;
			bio = list_first_entry(&plug->bios, struct bio,
					       bi_list);
		}
		if (bdev->bd_ops->submit_bios) {
			bdev->bd_ops->submit_bios(&run);
			continue;
		}
		while (!list_empty(&run)) {
			bio = list_first_entry(&run, struct bio, bi_list);
			list_del_init(&bio->bi_list);
			bdev->bd_ops->submit_bio(bio);
		}
	}
	plug->count = 0;
}

void blk_flush_plug(void)
{
	if (current->plug)
		flush_plug_list(current->plug);
}

void blk_finish_plug(struct blk_plug *plug)
{
	if (current->plug != plug)
		return;	/* a nested one: the outer one sends */
	flush_plug_list(plug);
	current->plug = NULL;
}

/*
 * Keep bio in the task's plug, if it has one (never from an interrupt:
 * the plug is the interrupted task's). A flush goes straight on: it
 * orders only writes that completed, and those left the plug before.
 * True when the plug took it.
 */
static bool plug_bio(struct bio *bio)
{
	struct blk_plug *plug = current->plug;

	if (!plug || in_interrupt() || bio->bi_opf == REQ_OP_FLUSH)
		return false;
	list_add_tail(&bio->bi_list, &plug->bios);
	if (++plug->count >= BLK_MAX_PLUGGED)
		flush_plug_list(plug);
	return true;
}

void submit_bio(struct bio *bio)
{
	struct block_device *bdev = bio->bi_bdev;
	u64 end = bio->bi_sector + (bio->bi_size >> SECTOR_SHIFT);

	if (end > bdev->bd_nr_sectors || end < bio->bi_sector) {
		pr_err("block: %s: %s beyond the end of the disk (sector %lu, "
		       "%u bytes)\n", bdev->bd_name,
		       bio->bi_opf == REQ_OP_WRITE ? "write" : "read",
		       bio->bi_sector, bio->bi_size);
		bio->bi_status = -EIO;
		bio_endio(bio);
		return;
	}
	if ((bio->bi_opf == REQ_OP_READ && should_fail(&fail_block_read)) ||
	    (bio->bi_opf == REQ_OP_WRITE && should_fail(&fail_block_write))) {
		bio->bi_status = -EIO;
		bio_endio(bio);
		return;
	}
	if (bio->bi_opf == REQ_OP_WRITE && bdev->bd_read_only) {
		bio->bi_status = -EROFS;
		bio_endio(bio);
		return;
	}
	if (unlikely(explore_active) && explore_current() && !irqs_disabled())
		submit_bio_explored(bio);
	else if (!plug_bio(bio))
		bdev->bd_ops->submit_bio(bio);
}

static void bio_wait_end_io(struct bio *bio)
{
	complete(bio->bi_private);
}

int submit_bio_wait(struct bio *bio)
{
	struct completion done;

	init_completion(&done);
	bio->bi_private = &done;
	bio->bi_end_io = bio_wait_end_io;
	submit_bio(bio);
	wait_for_completion(&done);
	return bio->bi_status;
}

int blkdev_issue_flush(struct block_device *bdev)
{
	struct bio *bio = bio_alloc(bdev, 0, REQ_OP_FLUSH, GFP_KERNEL);
	int err;

	if (!bio)
		return -ENOMEM;
	err = submit_bio_wait(bio);
	bio_put(bio);
	return err;
}

int bdev_rw_sync(struct block_device *bdev, enum req_op op, u64 sector,
		 void *buf, size_t len)
{
	int err = 0;

	while (len && !err) {
		unsigned long off = (unsigned long)buf & ~PAGE_MASK;
		unsigned int n = min(len, PAGE_SIZE - off);
		struct bio *bio = bio_alloc(bdev, 1, op, GFP_KERNEL);

		if (!bio)
			return -ENOMEM;
		bio->bi_sector = sector;
		if (!bio_add_page(bio, virt_to_page(buf), n, off))
			err = -EINVAL;	/* not sector-sized pieces */
		else
			err = submit_bio_wait(bio);
		bio_put(bio);
		buf = (char *)buf + n;
		sector += n >> SECTOR_SHIFT;
		len -= n;
	}
	return err;
}
