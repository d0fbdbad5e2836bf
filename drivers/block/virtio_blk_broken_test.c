/*
 * drivers/block/virtio_blk_broken_test.c: self-test "virtio_blk_broken".
 * The test plays a misbehaving device and checks that the driver logs
 * it, fails the affected bio with -EIO and every later one too, and never
 * panics or hangs.
 *
 * It breaks its disks for the rest of the boot, so run it last:
 *   on the last disk (vdb, or vda alone)  the used ring names an id that
 *                                         was never issued
 *   on vda, when there are two disks      used->idx jumps far ahead
 * How: with interrupts off, submit a read and wait (polling, the one place
 * where it is unavoidable: the handler must not run yet) until the device
 * has put it in the used ring; falsify the ring; turn interrupts back on
 * and let the interrupt handler find the lie.
 */
#include <kernel/virtio_blk.h>
#include <kernel/completion.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/selftest.h>
#include <kernel/time.h>
#include <mm/slab.h>

static void broken_end_io(struct bio *bio)
{
	complete(bio->bi_private);
}

enum lie { LIE_BAD_ID, LIE_INDEX_JUMP };

/* The device answered the read; now make its answer a lie. Interrupts
 * are off, and nothing else is in flight, so the device writes no more. */
static void falsify_used_ring(struct virtqueue *vq, enum lie lie)
{
	struct vring_used_elem *e =
		&vq->used->ring[vq->last_used_idx & (vq->num - 1)];

	if (lie == LIE_INDEX_JUMP) {
		WRITE_ONCE(vq->used->idx, vq->used->idx + 100);
		return;
	}
	for (unsigned int i = 0; i < vq->num; i++)
		if (!vq->data[i] && i != e->id) {	/* a free descriptor */
			WRITE_ONCE(e->id, i);
			return;
		}
}

static int lie_to(struct block_device *bd, enum lie lie)
{
	struct virtio_blk *vblk = virtblk_from_bdev(bd);
	struct virtqueue *vq = vblk->vq;
	struct page *pg = alloc_page(GFP_KERNEL);
	struct bio *bio = bio_alloc(bd, 1, REQ_OP_READ, GFP_KERNEL);
	struct completion done;
	unsigned long flags;
	int err = 0, later;
	u64 t0;

	if (!pg || !bio) {
		err = selftest_fail("out of memory");
		goto out;
	}
	if (vblk->broken || vq->in_flight) {
		err = selftest_fail("%s: already broken, or busy", bd->bd_name);
		goto out;
	}
	init_completion(&done);
	bio->bi_sector = 0;
	bio->bi_private = &done;
	bio->bi_end_io = broken_end_io;
	bio_add_page(bio, pg, PAGE_SIZE, 0);

	flags = local_irq_save();
	submit_bio(bio);
	t0 = ktime_get_ns();
	while (READ_ONCE(vq->used->idx) == vq->last_used_idx &&
	       ktime_get_ns() - t0 < NSEC_PER_SEC)
		cpu_relax();
	if (READ_ONCE(vq->used->idx) != vq->last_used_idx)
		falsify_used_ring(vq, lie);
	local_irq_restore(flags);	/* the interrupt comes in here */

	wait_for_completion(&done);
	if (bio->bi_status != -EIO || !vblk->broken)
		err = selftest_fail("%s: after the lie: bio status %d, disk "
				    "%s", bd->bd_name, bio->bi_status,
				    vblk->broken ? "broken" : "not broken");
	bio_put(bio);
	bio = NULL;
	if (err)
		goto out;
	/* Later bios fail at once, without reaching the device. */
	later = bdev_rw_sync(bd, REQ_OP_READ, 0, page_address(pg), PAGE_SIZE);
	if (later != -EIO)
		err = selftest_fail("%s: a bio after the breakage gave %d",
				    bd->bd_name, later);
out:
	if (bio)
		bio_put(bio);
	if (pg)
		__free_page(pg);
	return err;
}

static int test_virtio_blk_broken(void)
{
	struct block_device *vda = blkdev_get_by_name("vda");
	struct block_device *vdb = blkdev_get_by_name("vdb");
	struct selftest_mem mem;
	int err;

	if (!virtblk_from_bdev(vda))
		return selftest_fail("no disk: vda is missing");
	selftest_mem_snapshot(&mem);
	if (!virtblk_from_bdev(vdb))
		vdb = NULL;
	err = lie_to(vdb ? vdb : vda, LIE_BAD_ID);
	if (!err && vdb)
		err = lie_to(vda, LIE_INDEX_JUMP);
	if (err)
		return err;
	return selftest_mem_check(&mem);
}
DEFINE_SELFTEST(virtio_blk_broken, test_virtio_blk_broken);
