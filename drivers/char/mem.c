/*
 * drivers/char/mem.c: the memory devices of major 1 (Linux's
 * drivers/char/mem.c): /dev/null (1,3) swallows writes and reads as
 * empty, /dev/zero (1,5) reads as zeroes; /dev/random (1,8) and
 * /dev/urandom (1,9) are drivers/char/random.c's. Registered by
 * vfs_init.
 */
#include <fs/fs.h>
#include <kernel/errno.h>
#include <kernel/random.h>

#define MEM_MAJOR 1

static ssize_t read_null(struct file *file, struct iov_iter *to, loff_t *pos)
{
	return 0;
}

static ssize_t write_null(struct file *file, struct iov_iter *from,
			  loff_t *pos)
{
	size_t n = iov_iter_count(from);

	iov_iter_advance(from, n);
	return n;
}

static ssize_t read_zero(struct file *file, struct iov_iter *to, loff_t *pos)
{
	size_t n = iov_iter_count(to);
	size_t done = iov_iter_zero(n, to);

	return done ? (ssize_t)done : (n ? -EFAULT : 0);
}

/* Seeking these devices always succeeds and means nothing. */
static loff_t null_lseek(struct file *file, loff_t offset, int whence)
{
	return file->f_pos = 0;
}

static const struct file_operations null_fops = {
	.llseek = null_lseek,
	.read_iter = read_null,
	.write_iter = write_null,
};

static const struct file_operations zero_fops = {
	.llseek = null_lseek,
	.read_iter = read_zero,
	.write_iter = write_null,
};

static int memory_open(struct inode *inode, struct file *file)
{
	switch (MINOR(inode->i_rdev)) {
	case 3:
		file->f_op = &null_fops;
		return 0;
	case 5:
		file->f_op = &zero_fops;
		return 0;
	case 8:
		file->f_op = &random_fops;
		return 0;
	case 9:
		file->f_op = &urandom_fops;
		return 0;
	}
	return -ENXIO;
}

static const struct file_operations memory_fops = {
	.open = memory_open,
};

int chr_dev_init(void)
{
	return register_chrdev(MEM_MAJOR, "mem", &memory_fops);
}
