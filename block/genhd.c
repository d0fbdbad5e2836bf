/*
 * block/genhd.c: the disks the kernel knows, by number and by name.
 *
 * The block layer sits between file systems (buffer heads, ext2) above
 * and disk drivers (virtio-blk, the RAM disk, drivers/block/) below. This
 * half keeps the list of disks: a driver adds its disk (add_disk, which
 * also makes /dev/NAME), mount finds it (lookup_bdev), /proc/meminfo
 * counts its cached metadata pages, and the hung-task report asks each
 * driver what it has in flight. The other half, block/bio.c, carries
 * the I/O. (Linux splits the same between block/genhd.c and
 * block/bdev.c.)
 */
#include <fs/blkdev.h>
#include <fs/namei.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <kernel/string.h>

static LIST_HEAD(all_disks);
static DEFINE_SPINLOCK(disks_lock);

int add_disk(struct block_device *bdev)
{
	char path[32];
	long err;

	spin_lock(&disks_lock);
	list_add_tail(&bdev->bd_list, &all_disks);
	spin_unlock(&disks_lock);
	snprintf(path, sizeof(path), "/dev/%s", bdev->bd_name);
	/* mknod takes the user-space encoding of dev_t, and obeys the umask */
	err = do_mknodat(AT_FDCWD, path, S_IFBLK | 0660,
			 new_encode_dev(bdev->bd_dev));
	if (!err)
		err = do_fchmodat(AT_FDCWD, path, 0660);
	if (err && err != -EEXIST)
		pr_warn("block: %s: cannot create %s (error %ld)\n",
			bdev->bd_name, path, err);
	pr_info("block: %s: %lu sectors (%lu MiB)%s\n", bdev->bd_name,
		bdev->bd_nr_sectors, bdev->bd_nr_sectors >> 11,
		bdev->bd_read_only ? ", read-only" : "");
	return 0;
}

void show_disks_state(void)
{
	struct block_device *b;

	spin_lock(&disks_lock);
	list_for_each_entry(b, &all_disks, bd_list)
		if (b->bd_ops->show_state)
			b->bd_ops->show_state(b);
	spin_unlock(&disks_lock);
}

struct block_device *blkdev_get_by_dev(dev_t dev)
{
	struct block_device *b, *found = NULL;

	spin_lock(&disks_lock);
	list_for_each_entry(b, &all_disks, bd_list)
		if (b->bd_dev == dev)
			found = b;
	spin_unlock(&disks_lock);
	return found;
}

/*
 * Pages of every disk's own page cache (its metadata buffers): the
 * Buffers of /proc/meminfo, as Linux's nr_blockdev_pages. bd_inode is
 * freed only by invalidate_bdev, in process context; this walk does not
 * sleep and holds disks_lock (no preemption), so on one CPU it cannot see
 * one freed.
 */
unsigned long nr_blockdev_pages(void)
{
	struct block_device *b;
	unsigned long n = 0;

	spin_lock(&disks_lock);
	list_for_each_entry(b, &all_disks, bd_list)
		if (b->bd_inode)
			n += READ_ONCE(b->bd_inode->i_mapping->nrpages);
	spin_unlock(&disks_lock);
	return n;
}

struct block_device *blkdev_get_by_name(const char *name)
{
	struct block_device *b, *found = NULL;

	spin_lock(&disks_lock);
	list_for_each_entry(b, &all_disks, bd_list)
		if (!strcmp(b->bd_name, name))
			found = b;
	spin_unlock(&disks_lock);
	return found;
}

struct block_device *lookup_bdev(const char *kernel_path)
{
	struct block_device *bdev;
	struct inode *inode;
	struct path path;
	int err = kern_path(kernel_path, LOOKUP_FOLLOW, &path);

	if (err)
		return ERR_PTR(err);
	inode = path.dentry->d_inode;
	if (!S_ISBLK(inode->i_mode))
		bdev = ERR_PTR(-ENOTBLK);
	else if (!(bdev = blkdev_get_by_dev(inode->i_rdev)))
		bdev = ERR_PTR(-ENXIO);
	path_put(&path);
	return bdev;
}
