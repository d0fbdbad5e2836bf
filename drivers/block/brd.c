/*
 * drivers/block/brd.c: RAM disks made of boot modules (Linux's
 * drivers/block/brd.c serves RAM it allocates; this one serves the
 * images the boot loader loaded).
 *
 * Every boot module that is not a cpio archive (the initramfs: it starts
 * with "070701") becomes a block device ram0, ram1, ... (major 1, as in
 * Linux), backed in place by the module's memory, which the boot code
 * reserved. Requests are served at once: ->submit_bio copies and calls
 * bio_endio before returning, so completions run in the submitter's
 * context. Writes land in guest memory only: they are gone at power-off
 * (scripts/mkimages can save a RAM disk's final contents for e2fsck).
 *
 *   qemu ... -initrd build/initramfs.cpio,disk.img    ->  /dev/ram0
 */
#include <fs/blkdev.h>
#include <kernel/bootinfo.h>
#include <kernel/errno.h>
#include <kernel/init.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <mm/mm.h>
#include <mm/slab.h>

#define RAMDISK_MAJOR 1

struct brd_device {
	struct block_device bdev;
	char *data;	/* the module, through the direct map */
};

static void brd_submit_bio(struct bio *bio)
{
	struct brd_device *brd = bio->bi_bdev->bd_private;
	char *disk = brd->data + (bio->bi_sector << SECTOR_SHIFT);

	for (unsigned int i = 0; i < bio->bi_vcnt; i++) {
		struct bio_vec *v = &bio->bi_io_vec[i];
		char *mem = (char *)page_address(v->bv_page) + v->bv_offset;

		if (bio->bi_opf == REQ_OP_WRITE)
			memcpy(disk, mem, v->bv_len);
		else if (bio->bi_opf == REQ_OP_READ)
			memcpy(mem, disk, v->bv_len);
		disk += v->bv_len;
	}
	bio->bi_status = 0;
	bio_endio(bio);
}

static const struct block_device_operations brd_ops = {
	.submit_bio = brd_submit_bio,
};

static int brd_init(void)
{
	int nr = 0;

	for (int i = 0; i < boot_info.nr_modules; i++) {
		struct boot_module *m = &boot_info.modules[i];
		u64 bytes = m->end - m->start;
		struct brd_device *brd;

		if (bytes >= 6 && !memcmp(phys_to_virt(m->start), "070701", 6))
			continue;	/* the initramfs */
		if (bytes < SECTOR_SIZE) {
			pr_warn("brd: boot module %d (%s) is too small for a "
				"disk\n", i, m->name);
			continue;
		}
		brd = kzalloc(sizeof(*brd), GFP_KERNEL);
		if (!brd)
			return -ENOMEM;
		brd->data = phys_to_virt(m->start);
		snprintf(brd->bdev.bd_name, sizeof(brd->bdev.bd_name), "ram%d",
			 nr);
		brd->bdev.bd_dev = MKDEV(RAMDISK_MAJOR, nr);
		brd->bdev.bd_nr_sectors = bytes >> SECTOR_SHIFT;
		brd->bdev.bd_ops = &brd_ops;
		brd->bdev.bd_private = brd;
		/* scripts/mkimages reads this line to find the disk's final
		 * contents in a dump of guest memory. */
		pr_info("brd: ram%d: boot module %d (%s), %lu KiB at phys "
			"0x%lx\n", nr, i, m->name, bytes >> 10, m->start);
		add_disk(&brd->bdev);
		nr++;
	}
	return 0;
}
device_initcall(brd_init);
