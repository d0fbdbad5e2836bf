/*
 * virtio-blk (drivers/block/virtio_blk.c): the block device protocol
 * (virtio 1.x spec 5.2) and the driver's per-disk state, which the
 * self-tests (virtio_blk_test.c) look into.
 *
 * A request is one descriptor chain:
 *   struct virtio_blk_outhdr   device reads: type, sector (512-byte units)
 *   data pieces                device reads (OUT) or writes (IN); none for
 *                              a FLUSH
 *   u8 status                  device writes: VIRTIO_BLK_S_*
 */
#ifndef _KERNEL_VIRTIO_BLK_H
#define _KERNEL_VIRTIO_BLK_H

#include <fs/blkdev.h>
#include <kernel/spinlock.h>
#include <kernel/virtio_ring.h>

/* Feature bits. */
#define VIRTIO_BLK_F_SIZE_MAX 1	/* size_max: longest piece */
#define VIRTIO_BLK_F_SEG_MAX 2	/* seg_max: most pieces per request */
#define VIRTIO_BLK_F_RO 5	/* the disk is read-only */
#define VIRTIO_BLK_F_BLK_SIZE 6	/* blk_size: its logical block size */
#define VIRTIO_BLK_F_FLUSH 9	/* it caches writes; FLUSH persists them */

struct virtio_blk_config {	/* device config, the fields pagelab reads */
	u64 capacity;	/* in 512-byte sectors, whatever blk_size says */
	u32 size_max;
	u32 seg_max;
	u16 cylinders;
	u8 heads, sectors;
	u32 blk_size;
} __packed;

#define VIRTIO_BLK_T_IN 0	/* read */
#define VIRTIO_BLK_T_OUT 1	/* write */
#define VIRTIO_BLK_T_FLUSH 4

struct virtio_blk_outhdr {
	u32 type;
	u32 ioprio;	/* "reserved" in 1.x */
	u64 sector;
};

#define VIRTIO_BLK_S_OK 0
#define VIRTIO_BLK_S_IOERR 1
#define VIRTIO_BLK_S_UNSUPP 2

#define VIRTIO_BLK_MAJOR 254	/* Linux's (dynamic) major on most PCs */
#define VIRTIO_BLK_MINORS 16	/* per disk (partitions), as Linux */

/* One request on the ring. hdr and status are DMA targets: the array of
 * these is one physically contiguous block. */
struct virtblk_req {
	struct virtio_blk_outhdr out_hdr;
	u8 status;
	struct bio *bio;
	u64 queued_at;	/* jiffies when it went on the ring */
	struct virtblk_req *next_free;
};

struct virtio_blk {
	struct virtio_device *vdev;
	struct virtqueue *vq;
	spinlock_t lock;	/* vq, reqs, waiting; taken in irq context */
	struct block_device disk;
	struct virtblk_req *reqs, *free_reqs;
	unsigned int nr_reqs;
	struct list_head waiting;	/* bios for which the ring was full */
	unsigned long nr_waiting;
	bool broken;	/* the device misbehaved: every bio fails */
	/* Counters for tests and the curious. */
	unsigned long nr_queued;	/* bios put on the ring */
	unsigned long nr_waited;	/* ... that first had to wait */
	unsigned long max_waiting;	/* longest the waiting list got */
	unsigned long nr_errors;	/* device status other than OK */
};

/* The driver state behind a virtio-blk disk, or NULL for another disk. */
struct virtio_blk *virtblk_from_bdev(struct block_device *bdev);

#endif
