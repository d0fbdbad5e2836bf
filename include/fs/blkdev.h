/*
 * The block layer (block/genhd.c, block/bio.c): disks as arrays of 512-byte
 * sectors, and bios, the requests to read or write some of them.
 *
 * A driver fills in a struct block_device and calls add_disk(); its
 * ->submit_bio() queues the bio and later (usually from its interrupt
 * handler) calls bio_endio() with bi_status set. File systems build bios
 * of pages (bio_alloc, bio_add_page) and either submit_bio() with their
 * own bi_end_io, or submit_bio_wait() to sleep until it is done.
 *
 *	struct bio *bio = bio_alloc(bdev, 1, REQ_OP_READ, GFP_KERNEL);
 *	bio->bi_sector = block * (blocksize >> SECTOR_SHIFT);
 *	bio_add_page(bio, page, blocksize, offset_in_page);
 *	err = submit_bio_wait(bio);	// 0 or -EIO
 *	bio_put(bio);
 */
#ifndef _FS_BLKDEV_H
#define _FS_BLKDEV_H

#include <kernel/list.h>
#include <mm/gfp.h>
#include <fs/fs.h>

#define SECTOR_SHIFT 9
#define SECTOR_SIZE 512
#define BIO_MAX_VECS 16

enum req_op {
	REQ_OP_READ,
	REQ_OP_WRITE,
	REQ_OP_FLUSH,	/* make earlier writes durable (no data) */
};

struct bio;
typedef void(bio_end_io_t)(struct bio *bio);

struct bio_vec {
	struct page *bv_page;
	unsigned int bv_len, bv_offset;
};

struct bio {
	struct block_device *bi_bdev;
	enum req_op bi_opf;
	u64 bi_sector;	/* first sector */
	unsigned int bi_size;	/* bytes, the sum of the vecs */
	int bi_status;	/* 0 or -EIO, valid in bi_end_io */
	bio_end_io_t *bi_end_io;
	void *bi_private;
	unsigned short bi_vcnt, bi_max_vecs;
	bool bi_from_pool;	/* block/bio.c's reserve: goes back there */
	struct list_head bi_list;	/* for the driver's queue */
	struct bio_vec bi_io_vec[];
};

struct block_device_operations {
	/* Queue bio; call bio_endio() when done. Must not sleep. */
	void (*submit_bio)(struct bio *bio);
	/* Optional: a plug's bios for this disk (on their bi_list, in
	 * order): queue them all, then tell the device once. Must not
	 * sleep. Without it, ->submit_bio for each. */
	void (*submit_bios)(struct list_head *bios);
	/* Optional: one log line on what the driver holds (for a hang
	 * report). Interrupts off, must not sleep. */
	void (*show_state)(struct block_device *bdev);
};

struct block_device {
	char bd_name[16];	/* "vda": also /dev/vda */
	dev_t bd_dev;
	u64 bd_nr_sectors;
	bool bd_read_only;
	const struct block_device_operations *bd_ops;
	void *bd_private;	/* the driver's */
	void *bd_holder;	/* the super_block mounted on it, if any */
	struct inode *bd_inode;	/* its page cache: metadata buffers
				 * (fs/buffer.c), made on first use */
	struct list_head bd_list;
	unsigned long bd_reads, bd_writes;	/* completed bios */
};

/* Register a disk and create /dev/NAME (S_IFBLK). 0 or -errno. */
int add_disk(struct block_device *bdev);
/* A line per disk whose driver can say what it holds: a hung task waiting
 * for I/O is then reported with the I/O it waits for. */
void show_disks_state(void);
struct block_device *blkdev_get_by_dev(dev_t dev);
struct block_device *blkdev_get_by_name(const char *name);
/* Pages in the disks' own page caches (metadata buffers). */
unsigned long nr_blockdev_pages(void);
/* The block device a path names (a block special file), or ERR_PTR:
 * -ENOTBLK for other files, -ENXIO for a node without a disk. */
struct block_device *lookup_bdev(const char *kernel_path);

struct bio *bio_alloc(struct block_device *bdev, unsigned short nr_vecs,
		      enum req_op op, gfp_t gfp);
void bio_put(struct bio *bio);
/* Add a piece of a page; returns len, or 0 when the bio is full. */
unsigned int bio_add_page(struct bio *bio, struct page *page,
			  unsigned int len, unsigned int offset);
void submit_bio(struct bio *bio);
/* Submit and sleep until done; returns bi_status. */
int submit_bio_wait(struct bio *bio);
/* Drivers: the bio is finished; bi_status says how. */
void bio_endio(struct bio *bio);
int blkdev_issue_flush(struct block_device *bdev);

/*
 * Plugging (Linux's blk_start_plug): from blk_start_plug to
 * blk_finish_plug, the bios the task submits wait in its plug (after
 * submit_bio's checks) instead of going to the driver one by one. They go
 * together, in order, when the plug is finished, when it holds
 * BLK_MAX_PLUGGED, or when the task sleeps (schedule, so a task never
 * waits for a bio still in its own plug). The driver gets a batch: one
 * notification for many requests, and a device that merges adjacent ones
 * (QEMU's virtio-blk does) writes a run of blocks as one. Writeback plugs
 * (mm/page-writeback.c, fs/buffer.c): it writes many blocks, a buffer at
 * a time.
 *
 *	struct blk_plug plug;
 *	blk_start_plug(&plug);
 *	... submit_bio(), submit_bh() ...
 *	blk_finish_plug(&plug);
 */
#define BLK_MAX_PLUGGED 32
struct blk_plug {
	struct list_head bios;
	unsigned int count;
};
void blk_start_plug(struct blk_plug *plug);
void blk_finish_plug(struct blk_plug *plug);
/* Send what current's plug holds. Called by schedule() before a sleep. */
void blk_flush_plug(void);
/* Read or write len bytes (a multiple of 512) at sector from or to the
 * kernel buffer buf (direct-mapped memory). 0 or -EIO. For simple users:
 * superblock probes, tests. */
int bdev_rw_sync(struct block_device *bdev, enum req_op op, u64 sector,
		 void *buf, size_t len);

#endif
