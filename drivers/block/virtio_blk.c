/*
 * drivers/block/virtio_blk.c: virtio block devices become disks vda, vdb,
 * ... (major 254, minor 16 * n, in probe order, as on Linux).
 *
 * Roadmap:
 *   virtblk_probe       read the config (capacity, limits), create the one
 *                       request queue, DRIVER_OK, add_disk()
 *   virtblk_submit_bio  a bio becomes one request (header, the bio's page
 *                       pieces, status byte) on the ring, and a kick; when
 *                       the ring is full the bio waits on vblk->waiting
 *   virtblk_submit_bios a plug's batch of bios: the same, one kick for all
 *   virtblk_done        the queue's callback, from the interrupt: reap the
 *                       used ring, refill the ring from the waiting list,
 *                       then bio_endio() each finished bio
 *   virtblk_fail_all    the device broke the protocol: reset it and fail
 *                       everything with -EIO, now and later
 *
 * Locking: vblk->lock (irqsave) covers the virtqueue, the request slots
 * and the waiting list. bio_endio() runs after the lock is dropped: a
 * bi_end_io may submit the next bio to this very disk.
 *
 * Order: bios start in the order they were submitted (the waiting list is
 * FIFO and a new bio queues behind waiting ones) but may finish in any
 * order. A FLUSH makes durable the writes that completed before it was
 * issued (the virtio rule, and Linux's: callers wait for their writes,
 * then flush), so nothing needs to drain in front of it.
 *
 * Linux's virtio_blk sits under blk-mq (request merging, tags, several
 * queues, timeouts); pagelab hands each bio to the device as it comes,
 * or a plug's bios together.
 */
#include <kernel/virtio_blk.h>
#include <kernel/errno.h>
#include <kernel/init.h>
#include <kernel/printk.h>
#include <kernel/time.h>
#include <mm/slab.h>

static const struct block_device_operations virtblk_fops;
static int virtblk_nr_disks;

struct virtio_blk *virtblk_from_bdev(struct block_device *bdev)
{
	return bdev && bdev->bd_ops == &virtblk_fops ? bdev->bd_private : NULL;
}

/*
 * Put bio on the ring. 0, or -ENOSPC when no request slot or not enough
 * descriptors are free (nothing changed).
 * Called with vblk->lock held.
 */
static int virtblk_queue_bio(struct virtio_blk *vblk, struct bio *bio)
{
	struct virtqueue_buf bufs[BIO_MAX_VECS + 2];
	struct virtblk_req *req = vblk->free_reqs;
	bool read = bio->bi_opf == REQ_OP_READ;
	unsigned int n = 0, out;
	int err;

	if (!req)
		return -ENOSPC;
	req->out_hdr.type = read ? VIRTIO_BLK_T_IN :
			    bio->bi_opf == REQ_OP_WRITE ? VIRTIO_BLK_T_OUT :
							 VIRTIO_BLK_T_FLUSH;
	req->out_hdr.ioprio = 0;
	req->out_hdr.sector = bio->bi_opf == REQ_OP_FLUSH ? 0 : bio->bi_sector;
	req->status = 0xff;	/* no status: the device must overwrite it */
	req->bio = bio;
	req->queued_at = jiffies;
	bufs[n++] = (struct virtqueue_buf){ virt_to_phys(&req->out_hdr),
					    sizeof(req->out_hdr) };
	for (int i = 0; bio->bi_opf != REQ_OP_FLUSH && i < bio->bi_vcnt; i++) {
		struct bio_vec *v = &bio->bi_io_vec[i];

		bufs[n++] = (struct virtqueue_buf){
			page_to_phys(v->bv_page) + v->bv_offset, v->bv_len };
	}
	bufs[n++] = (struct virtqueue_buf){ virt_to_phys(&req->status), 1 };
	/* Device-readable first: the header, and a write's data. */
	out = read ? 1 : n - 1;
	err = virtqueue_add(vblk->vq, bufs, out, n - out, req);
	if (err)
		return err;
	vblk->free_reqs = req->next_free;
	vblk->nr_queued++;
	return 0;
}

/* Called with vblk->lock held. */
static void virtblk_wait(struct virtio_blk *vblk, struct bio *bio)
{
	list_add_tail(&bio->bi_list, &vblk->waiting);
	vblk->nr_waited++;
	vblk->nr_waiting++;
	vblk->max_waiting = max(vblk->max_waiting, vblk->nr_waiting);
}

/* Queue waiting bios while the ring has room. Called with vblk->lock held. */
static void virtblk_issue_waiting(struct virtio_blk *vblk)
{
	bool kick = false;

	while (!list_empty(&vblk->waiting)) {
		struct bio *bio = list_first_entry(&vblk->waiting, struct bio,
						   bi_list);

		if (virtblk_queue_bio(vblk, bio))
			break;	/* full again */
		list_del_init(&bio->bi_list);
		vblk->nr_waiting--;
		kick = true;
	}
	if (kick)
		virtqueue_kick(vblk->vq);
}

static void virtblk_free_req(struct virtio_blk *vblk, struct virtblk_req *req)
{
	req->bio = NULL;
	req->next_free = vblk->free_reqs;
	vblk->free_reqs = req;
}

/* Called with vblk->lock held. */
static void virtblk_complete_req(struct virtio_blk *vblk,
				 struct virtblk_req *req,
				 struct list_head *done)
{
	struct bio *bio = req->bio;
	u8 status = READ_ONCE(req->status);

	if (status == VIRTIO_BLK_S_OK) {
		bio->bi_status = 0;
	} else {
		bio->bi_status = -EIO;
		vblk->nr_errors++;
		pr_err("virtio_blk %s: I/O error, sector %lu\n",
		       vblk->disk.bd_name, bio->bi_sector);
	}
	virtblk_free_req(vblk, req);
	list_add_tail(&bio->bi_list, done);
}

/*
 * The device broke the ring protocol. Reset it first: after a reset it no
 * longer reads or writes our rings or the bios' pages, so handing them
 * back is safe. Then fail every bio it held and every waiting one.
 * Called with vblk->lock held, interrupts off.
 */
static void virtblk_fail_all(struct virtio_blk *vblk, struct list_head *done)
{
	struct virtblk_req *req;
	unsigned int n = 0;

	vblk->broken = true;
	vblk->vdev->config->reset(vblk->vdev);
	while ((req = virtqueue_detach_unused_buf(vblk->vq))) {
		req->bio->bi_status = -EIO;
		list_add_tail(&req->bio->bi_list, done);
		virtblk_free_req(vblk, req);
		n++;
	}
	while (!list_empty(&vblk->waiting)) {
		struct bio *bio = list_first_entry(&vblk->waiting, struct bio,
						   bi_list);

		list_del(&bio->bi_list);
		vblk->nr_waiting--;
		bio->bi_status = -EIO;
		list_add_tail(&bio->bi_list, done);
		n++;
	}
	pr_err("virtio_blk %s: device reset; %u bios failed with -EIO, and "
	       "so will all later ones\n", vblk->disk.bd_name, n);
}

static void virtblk_end_bios(struct list_head *done)
{
	struct bio *bio, *tmp;

	list_for_each_entry_safe(bio, tmp, done, bi_list) {
		list_del_init(&bio->bi_list);
		bio_endio(bio);
	}
}

/* The queue's callback. Called from the interrupt, interrupts off. */
static void virtblk_done(struct virtqueue *vq)
{
	struct virtio_blk *vblk = vq->vdev->priv;
	struct virtblk_req *req;
	unsigned long flags;
	LIST_HEAD(done);

	if (!vblk)
		return;	/* probe failed after the queue was made */
	spin_lock_irqsave(&vblk->lock, flags);
	while ((req = virtqueue_get_buf(vq, NULL)))
		virtblk_complete_req(vblk, req, &done);
	if (virtqueue_is_broken(vq) && !vblk->broken)
		virtblk_fail_all(vblk, &done);
	else
		virtblk_issue_waiting(vblk);
	spin_unlock_irqrestore(&vblk->lock, flags);
	virtblk_end_bios(&done);
}

/*
 * Put bio on the ring, or behind the waiting ones (no overtaking) or in
 * the waiting list when the ring is full; *kick when it went on the ring.
 * 0, or -EIO: the caller ends the bio. Called with vblk->lock held.
 */
static int virtblk_add_bio(struct virtio_blk *vblk, struct bio *bio,
			   bool *kick)
{
	int err;

	if (vblk->broken)
		return -EIO;
	if (!list_empty(&vblk->waiting)) {
		virtblk_wait(vblk, bio);
		return 0;
	}
	err = virtblk_queue_bio(vblk, bio);
	if (err == -ENOSPC) {
		virtblk_wait(vblk, bio);
		return 0;
	}
	if (!err)
		*kick = true;
	return err ? -EIO : 0;
}

/* Must not sleep; may be called with interrupts off. */
static void virtblk_submit_bio(struct bio *bio)
{
	struct virtio_blk *vblk = bio->bi_bdev->bd_private;
	unsigned long flags;
	bool kick = false;
	int err;

	if (bio->bi_opf == REQ_OP_FLUSH &&
	    !virtio_has_feature(vblk->vdev, VIRTIO_BLK_F_FLUSH)) {
		/* No volatile write cache: completed writes are durable. */
		bio->bi_status = 0;
		bio_endio(bio);
		return;
	}
	spin_lock_irqsave(&vblk->lock, flags);
	err = virtblk_add_bio(vblk, bio, &kick);
	if (kick)
		virtqueue_kick(vblk->vq);
	spin_unlock_irqrestore(&vblk->lock, flags);
	if (err) {
		bio->bi_status = err;
		bio_endio(bio);
	}
}

/*
 * A plug's batch (block/bio.c; reads and writes, never a flush): all on
 * the ring, then one kick. The device sees them together and QEMU merges
 * the adjacent ones into one host write.
 */
static void virtblk_submit_bios(struct list_head *bios)
{
	struct bio *bio = list_first_entry(bios, struct bio, bi_list), *tmp;
	struct virtio_blk *vblk = bio->bi_bdev->bd_private;
	unsigned long flags;
	bool kick = false;
	LIST_HEAD(failed);

	spin_lock_irqsave(&vblk->lock, flags);
	list_for_each_entry_safe(bio, tmp, bios, bi_list) {
		list_del_init(&bio->bi_list);
		bio->bi_status = virtblk_add_bio(vblk, bio, &kick);
		if (bio->bi_status)
			list_add_tail(&bio->bi_list, &failed);
	}
	if (kick)
		virtqueue_kick(vblk->vq);
	spin_unlock_irqrestore(&vblk->lock, flags);
	virtblk_end_bios(&failed);
}

/*
 * For a hang report: what is on the ring and how long the oldest has been
 * there, what waits for room, and whether the device has finished work we
 * have not seen (used index ahead of ours: an interrupt that never came).
 */
static void virtblk_show_state(struct block_device *bdev)
{
	struct virtio_blk *vblk = bdev->bd_private;
	struct virtqueue *vq = vblk->vq;
	u64 oldest = jiffies;

	for (unsigned int i = 0; i < vblk->nr_reqs; i++)
		if (vblk->reqs[i].bio && vblk->reqs[i].queued_at < oldest)
			oldest = vblk->reqs[i].queued_at;
	pr_err("virtio_blk %s: %u on the ring (oldest %lu ms), %lu waiting, "
	       "used index %u, ours %u, %lu interrupts, %lu kicks%s\n",
	       bdev->bd_name, vq->in_flight,
	       (unsigned long)((jiffies - oldest) * 1000 / HZ),
	       vblk->nr_waiting, READ_ONCE(vq->used->idx), vq->last_used_idx,
	       vblk->vdev->nr_interrupts, vq->nr_kicks,
	       vblk->broken ? ", broken" : "");
}

static const struct block_device_operations virtblk_fops = {
	.submit_bio = virtblk_submit_bio,
	.submit_bios = virtblk_submit_bios,
	.show_state = virtblk_show_state,
};

static const unsigned int virtblk_features[] = {
	VIRTIO_BLK_F_SIZE_MAX, VIRTIO_BLK_F_SEG_MAX, VIRTIO_BLK_F_RO,
	VIRTIO_BLK_F_BLK_SIZE, VIRTIO_BLK_F_FLUSH,
};

/* Limits a bio must fit: BIO_MAX_VECS pieces of at most a page. */
static int virtblk_check_limits(struct virtio_blk *vblk)
{
	struct virtio_device *vdev = vblk->vdev;
	u32 v;

	if (virtio_has_feature(vdev, VIRTIO_BLK_F_SEG_MAX)) {
		virtio_cread(vdev, struct virtio_blk_config, seg_max, &v);
		if (v < BIO_MAX_VECS)
			goto too_small;
	}
	if (virtio_has_feature(vdev, VIRTIO_BLK_F_SIZE_MAX)) {
		virtio_cread(vdev, struct virtio_blk_config, size_max, &v);
		if (v < PAGE_SIZE)
			goto too_small;
	}
	if (virtio_has_feature(vdev, VIRTIO_BLK_F_BLK_SIZE)) {
		virtio_cread(vdev, struct virtio_blk_config, blk_size, &v);
		if (v != SECTOR_SIZE)	/* requests still count in 512 */
			pr_info("virtio_blk %s: logical block size %u\n",
				vdev->name, v);
	}
	return 0;
too_small:
	pr_err("virtio_blk %s: device limit %u too small for %d pieces of "
	       "a page each\n", vdev->name, v, BIO_MAX_VECS);
	return -EINVAL;
}

/* Called at boot (initcall time), after feature negotiation. */
static int virtblk_probe(struct virtio_device *vdev)
{
	struct virtio_blk *vblk;
	struct block_device *disk;
	u64 capacity;
	int err, index = virtblk_nr_disks;

	if (index >= 26)
		return -ENOSPC;	/* vda..vdz */
	vblk = kzalloc(sizeof(*vblk), GFP_KERNEL);
	if (!vblk)
		return -ENOMEM;
	vblk->vdev = vdev;
	vdev->priv = vblk;
	spin_lock_init(&vblk->lock);
	INIT_LIST_HEAD(&vblk->waiting);
	disk = &vblk->disk;
	snprintf(disk->bd_name, sizeof(disk->bd_name), "vd%c", 'a' + index);
	err = virtblk_check_limits(vblk);
	if (err)
		goto fail;
	virtio_cread(vdev, struct virtio_blk_config, capacity, &capacity);

	vblk->vq = vdev->config->setup_vq(vdev, 0, virtblk_done, disk->bd_name);
	if (IS_ERR(vblk->vq)) {
		err = PTR_ERR(vblk->vq);
		goto fail;
	}
	/* A refused device keeps its (reset, silent) queue: freeing it
	 * would need the transport to forget it too. */
	if (virtqueue_get_vring_size(vblk->vq) < BIO_MAX_VECS + 2) {
		pr_err("virtio_blk %s: queue of %u too small\n", vdev->name,
		       virtqueue_get_vring_size(vblk->vq));
		err = -EINVAL;
		goto fail;
	}
	/* Every request takes at least two descriptors. */
	vblk->nr_reqs = virtqueue_get_vring_size(vblk->vq) / 2;
	vblk->reqs = kzalloc(vblk->nr_reqs * sizeof(*vblk->reqs), GFP_KERNEL);
	if (!vblk->reqs) {
		err = -ENOMEM;
		goto fail;
	}
	for (unsigned int i = 0; i < vblk->nr_reqs; i++)
		virtblk_free_req(vblk, &vblk->reqs[i]);

	disk->bd_dev = MKDEV(VIRTIO_BLK_MAJOR, VIRTIO_BLK_MINORS * index);
	disk->bd_nr_sectors = capacity;
	disk->bd_read_only = virtio_has_feature(vdev, VIRTIO_BLK_F_RO);
	disk->bd_ops = &virtblk_fops;
	disk->bd_private = vblk;
	virtio_device_ready(vdev);
	virtblk_nr_disks++;
	pr_info("virtio_blk %s: %s, %lu sectors, queue %u%s%s\n",
		disk->bd_name, vdev->name, capacity,
		virtqueue_get_vring_size(vblk->vq),
		virtio_has_feature(vdev, VIRTIO_BLK_F_FLUSH) ? ", flush" : "",
		disk->bd_read_only ? ", read-only" : "");
	return add_disk(disk);
fail:
	vdev->priv = NULL;
	kfree(vblk);
	return err;
}

static struct virtio_driver virtio_blk_driver = {
	.name = "virtio_blk",
	.device_id = VIRTIO_ID_BLOCK,
	.feature_table = virtblk_features,
	.feature_table_size = ARRAY_SIZE(virtblk_features),
	.probe = virtblk_probe,
};

static int virtio_blk_init(void)
{
	return register_virtio_driver(&virtio_blk_driver);
}
device_initcall(virtio_blk_init);
