/*
 * drivers/virtio/virtio_kick_test.c: self-test "virtio_kick". Every
 * request reaches the device, even when the device's used ring says "no
 * need to kick" (VRING_USED_F_NO_NOTIFY): virtqueue_kick must ring the
 * doorbell anyway (see there for the hang that trusting the flag caused
 * under QEMU's TCG).
 *
 * How: on the last disk, with nothing in flight, set the flag ourselves,
 * as a device that is busy polling would, and read a block. QEMU is not
 * polling, so only a kick makes it look: the read must end within 5 s.
 * Then the flag is cleared and the disk kicked, so that a failed test
 * leaves the disk usable for the rest of the boot.
 */
#include <kernel/virtio_blk.h>
#include <kernel/completion.h>
#include <kernel/printk.h>
#include <kernel/selftest.h>
#include <kernel/time.h>
#include <mm/slab.h>

static void kick_end_io(struct bio *bio)
{
	complete(bio->bi_private);
}

static int test_virtio_kick(void)
{
	struct block_device *bd = blkdev_get_by_name("vdb");
	struct virtio_blk *vblk;
	struct page *pg = alloc_page(GFP_KERNEL);
	struct bio *bio;
	struct completion done;
	unsigned long flags;
	u64 t0;
	int err = 0;

	if (!virtblk_from_bdev(bd))
		bd = blkdev_get_by_name("vda");
	vblk = virtblk_from_bdev(bd);
	if (!vblk)
		return selftest_fail("no virtio disk");
	bio = bio_alloc(bd, 1, REQ_OP_READ, GFP_KERNEL);
	if (!pg || !bio) {
		err = selftest_fail("out of memory");
		goto out;
	}
	if (vblk->broken || vblk->vq->in_flight) {
		err = selftest_fail("%s: broken, or busy", bd->bd_name);
		goto out;
	}
	init_completion(&done);
	bio->bi_private = &done;
	bio->bi_end_io = kick_end_io;
	bio_add_page(bio, pg, PAGE_SIZE, 0);
	flags = local_irq_save();
	vblk->vq->used->flags |= VRING_USED_F_NO_NOTIFY;
	submit_bio(bio);
	local_irq_restore(flags);
	t0 = ktime_get_ns();
	while (!READ_ONCE(done.done) && ktime_get_ns() - t0 < 5 * NSEC_PER_SEC)
		schedule_timeout_interruptible(1);
	if (!done.done)
		err = selftest_fail("%s: a read issued while the device said "
				    "\"no need to kick\" never reached it "
				    "(the kick was skipped)", bd->bd_name);
	flags = local_irq_save();
	vblk->vq->used->flags &= ~VRING_USED_F_NO_NOTIFY;
	virtqueue_kick(vblk->vq);	/* let a skipped one through now */
	local_irq_restore(flags);
	wait_for_completion(&done);
	if (!err && bio->bi_status)
		err = selftest_fail("%s: read failed: %d", bd->bd_name,
				    bio->bi_status);
	if (!err)
		pr_info("virtio_kick_test: %s: a read reached the device "
			"while it said no kick was needed\n", bd->bd_name);
out:
	if (bio)
		bio_put(bio);
	if (pg)
		__free_page(pg);
	return err;
}
DEFINE_SELFTEST(virtio_kick, test_virtio_kick);
