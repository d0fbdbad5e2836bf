/*
 * fs/read_write.c: read(2), write(2), lseek(2) and their vector and
 * positioned forms.
 *
 * Every form comes down to vfs_iter_read/vfs_iter_write with an iov_iter
 * and a position: f_pos for read/readv (under f_pos_lock, so two threads
 * sharing a file do not read the same bytes), the caller's offset for
 * pread/preadv (which need FMODE_PREAD: ESPIPE on pipes and ttys). The
 * checks happen here, once: EBADF for a file not open for that direction,
 * EINVAL for no method or a negative position, EFAULT for a buffer outside
 * user space, counts capped at MAX_RW_COUNT.
 */
#include <fs/file.h>
#include <fs/uio.h>
#include <kernel/errno.h>
#include <kernel/uaccess.h>
#include <mm/slab.h>

#define SEEK_DATA 3
#define SEEK_HOLE 4
#ifndef EOPNOTSUPP
#define EOPNOTSUPP 95	/* belongs in include/kernel/errno.h */
#endif

loff_t generic_file_llseek(struct file *file, loff_t offset, int whence)
{
	struct inode *inode = file->f_inode;
	loff_t isize = i_size_read(inode);

	switch (whence) {
	case SEEK_SET:
		break;
	case SEEK_CUR:
		if (!offset)
			return file->f_pos;	/* ftell: no checks */
		offset += file->f_pos;
		break;
	case SEEK_END:
		offset += isize;
		break;
	case SEEK_DATA:	/* no holes are tracked: all data up to EOF */
		if (offset < 0 || offset >= isize)
			return -ENXIO;
		break;
	case SEEK_HOLE:
		if (offset < 0 || offset >= isize)
			return -ENXIO;
		offset = isize;
		break;
	default:
		return -EINVAL;
	}
	if (offset < 0 || offset > inode->i_sb->s_maxbytes)
		return -EINVAL;
	file->f_pos = offset;
	return offset;
}

loff_t no_llseek(struct file *file, loff_t offset, int whence)
{
	return -ESPIPE;
}

loff_t vfs_llseek(struct file *file, loff_t offset, int whence)
{
	if (file->f_mode & FMODE_PATH)
		return -EBADF;
	if (file->f_op && file->f_op->llseek)
		return file->f_op->llseek(file, offset, whence);
	return generic_file_llseek(file, offset, whence);
}

/* Only files and directories have a position worth serialising. */
static bool pos_locked(struct file *file)
{
	umode_t mode = file->f_inode->i_mode;

	return S_ISREG(mode) || S_ISDIR(mode);
}

SYSCALL_DEFINE3(lseek, unsigned int, fd, off_t, offset, unsigned int, whence)
{
	struct file *file = fget(fd);
	loff_t ret;

	if (!file)
		return -EBADF;
	mutex_lock(&file->f_pos_lock);
	ret = vfs_llseek(file, offset, whence);
	mutex_unlock(&file->f_pos_lock);
	fput(file);
	return ret;
}

/* A driver with only ->read/->write: one call per user segment. */
static ssize_t do_loop_readv_writev(struct file *file, struct iov_iter *iter,
				    loff_t *pos, bool write)
{
	ssize_t done = 0;

	if (iter->type != ITER_IOVEC)
		return -EINVAL;	/* kernel buffers need ->read_iter */
	while (iov_iter_count(iter)) {
		const struct iovec *v = iter->iov;
		size_t len = min(v->iov_len - iter->iov_offset, iter->count);
		char __user *base = (char __user *)v->iov_base +
				    iter->iov_offset;
		ssize_t n = write ? file->f_op->write(file, base, len, pos)
				  : file->f_op->read(file, base, len, pos);

		if (n < 0)
			return done ? done : n;
		done += n;
		iov_iter_advance(iter, n);
		if ((size_t)n < len)
			break;
	}
	return done;
}

ssize_t vfs_iter_read(struct file *file, struct iov_iter *iter, loff_t *pos)
{
	const struct file_operations *fop = file->f_op;

	if (!(file->f_mode & FMODE_READ))
		return -EBADF;
	if (!fop || (!fop->read_iter && !fop->read))
		return -EINVAL;
	if (*pos < 0)
		return -EINVAL;
	if (fop->read_iter)
		return fop->read_iter(file, iter, pos);
	return do_loop_readv_writev(file, iter, pos, false);
}

ssize_t vfs_iter_write(struct file *file, struct iov_iter *iter, loff_t *pos)
{
	const struct file_operations *fop = file->f_op;

	if (!(file->f_mode & FMODE_WRITE))
		return -EBADF;
	if (!fop || (!fop->write_iter && !fop->write))
		return -EINVAL;
	if (*pos < 0)
		return -EINVAL;
	if (fop->write_iter)
		return fop->write_iter(file, iter, pos);
	return do_loop_readv_writev(file, iter, pos, true);
}

ssize_t vfs_read(struct file *file, char __user *buf, size_t count,
		 loff_t *pos)
{
	struct iovec iov = { buf, min(count, MAX_RW_COUNT) };
	struct iov_iter iter;

	if (!(file->f_mode & FMODE_READ))
		return -EBADF;
	if (!access_ok(buf, count))
		return -EFAULT;
	iov_iter_init(&iter, &iov, 1, iov.iov_len);
	return vfs_iter_read(file, &iter, pos);
}

ssize_t vfs_write(struct file *file, const char __user *buf, size_t count,
		  loff_t *pos)
{
	struct iovec iov = { (void __user *)buf, min(count, MAX_RW_COUNT) };
	struct iov_iter iter;

	if (!(file->f_mode & FMODE_WRITE))
		return -EBADF;
	if (!access_ok(buf, count))
		return -EFAULT;
	iov_iter_init(&iter, &iov, 1, iov.iov_len);
	return vfs_iter_write(file, &iter, pos);
}

ssize_t kernel_read(struct file *file, void *buf, size_t count, loff_t *pos)
{
	struct kvec kv = { buf, min(count, MAX_RW_COUNT) };
	struct iov_iter iter;

	iov_iter_kvec(&iter, &kv, 1, kv.iov_len);
	return vfs_iter_read(file, &iter, pos);
}

ssize_t kernel_write(struct file *file, const void *buf, size_t count,
		     loff_t *pos)
{
	struct kvec kv = { (void *)buf, min(count, MAX_RW_COUNT) };
	struct iov_iter iter;

	iov_iter_kvec(&iter, &kv, 1, kv.iov_len);
	return vfs_iter_write(file, &iter, pos);
}

/*
 * The body of read/write/readv/writev on f_pos: fn does the I/O, with
 * f_pos_lock held for files that have a meaningful position.
 */
static ssize_t rw_at_fpos(unsigned int fd, struct iov_iter *iter, bool write,
			  long fault)
{
	struct file *file = fget(fd);
	bool locked;
	loff_t pos;
	ssize_t ret;

	if (!file)
		return -EBADF;
	/* Linux's order: a bad fd, then the wrong direction, then EFAULT. */
	if (fault && (file->f_mode & (write ? FMODE_WRITE : FMODE_READ))) {
		fput(file);
		return fault;
	}
	locked = pos_locked(file);
	if (locked)
		mutex_lock(&file->f_pos_lock);
	pos = file->f_pos;
	ret = write ? vfs_iter_write(file, iter, &pos)
		    : vfs_iter_read(file, iter, &pos);
	if (ret >= 0)
		file->f_pos = pos;
	if (locked)
		mutex_unlock(&file->f_pos_lock);
	fput(file);
	return ret;
}

/* pread/pwrite family: the caller's position, never f_pos. */
static ssize_t rw_at(unsigned int fd, struct iov_iter *iter, loff_t pos,
		     bool write, long fault)
{
	struct file *file;
	ssize_t ret;

	file = fget(fd);
	if (!file)
		return -EBADF;
	ret = pos < 0 ? -EINVAL : -ESPIPE;
	if (pos >= 0 && fault &&
	    (file->f_mode & (write ? FMODE_WRITE : FMODE_READ)))
		ret = fault;
	else if (pos >= 0 && (file->f_mode & (write ? FMODE_PWRITE : FMODE_PREAD)))
		ret = write ? vfs_iter_write(file, iter, &pos)
			    : vfs_iter_read(file, iter, &pos);
	else if (!(file->f_mode & (write ? FMODE_WRITE : FMODE_READ)))
		ret = -EBADF;
	fput(file);
	return ret;
}

/* One user buffer as an iterator; -EFAULT when it is not user memory
 * (reported after the fd checks). */
static long single_iter(void __user *buf, size_t count, struct iovec *iov,
			struct iov_iter *iter)
{
	iov->iov_base = buf;
	iov->iov_len = min(count, MAX_RW_COUNT);
	iov_iter_init(iter, iov, 1, iov->iov_len);
	return access_ok(buf, count) ? 0 : -EFAULT;
}

SYSCALL_DEFINE3(read, unsigned int, fd, char __user *, buf, size_t, count)
{
	struct iov_iter iter;
	struct iovec iov;
	long err = single_iter(buf, count, &iov, &iter);

	return rw_at_fpos(fd, &iter, false, err);
}

SYSCALL_DEFINE3(write, unsigned int, fd, const char __user *, buf, size_t,
		count)
{
	struct iov_iter iter;
	struct iovec iov;
	long err = single_iter((void __user *)buf, count, &iov, &iter);

	return rw_at_fpos(fd, &iter, true, err);
}

SYSCALL_DEFINE4(pread64, unsigned int, fd, char __user *, buf, size_t, count,
		loff_t, pos)
{
	struct iov_iter iter;
	struct iovec iov;
	long err = single_iter(buf, count, &iov, &iter);

	return rw_at(fd, &iter, pos, false, err);
}

SYSCALL_DEFINE4(pwrite64, unsigned int, fd, const char __user *, buf,
		size_t, count, loff_t, pos)
{
	struct iov_iter iter;
	struct iovec iov;
	long err = single_iter((void __user *)buf, count, &iov, &iter);

	return rw_at(fd, &iter, pos, true, err);
}

/*
 * The vector calls. pos == -1 means "at f_pos" (preadv2's convention;
 * readv/writev pass it too). flags: preadv2's RWF_*, none supported.
 */
static ssize_t do_vec(unsigned int fd, const struct iovec __user *vec,
		      unsigned long vlen, loff_t pos, int flags, bool write)
{
	struct iovec fast[UIO_FASTIOV], *iov;
	struct iov_iter iter;
	ssize_t ret;

	if (flags)
		return -EOPNOTSUPP;
	ret = import_iovec(vec, vlen, fast, &iov, &iter);
	if (ret < 0)
		return ret;
	ret = pos == -1 ? rw_at_fpos(fd, &iter, write, 0)
			: rw_at(fd, &iter, pos, write, 0);
	kfree(iov);
	return ret;
}

SYSCALL_DEFINE3(readv, unsigned long, fd, const struct iovec __user *, vec,
		unsigned long, vlen)
{
	return do_vec(fd, vec, vlen, -1, 0, false);
}

SYSCALL_DEFINE3(writev, unsigned long, fd, const struct iovec __user *, vec,
		unsigned long, vlen)
{
	return do_vec(fd, vec, vlen, -1, 0, true);
}

/* On x86-64 pos_l holds the whole offset; pos_h is ignored, as Linux. */
SYSCALL_DEFINE5(preadv, unsigned long, fd, const struct iovec __user *, vec,
		unsigned long, vlen, unsigned long, pos_l, unsigned long,
		pos_h)
{
	if ((loff_t)pos_l < 0)
		return -EINVAL;
	return do_vec(fd, vec, vlen, pos_l, 0, false);
}

SYSCALL_DEFINE5(pwritev, unsigned long, fd, const struct iovec __user *, vec,
		unsigned long, vlen, unsigned long, pos_l, unsigned long,
		pos_h)
{
	if ((loff_t)pos_l < 0)
		return -EINVAL;
	return do_vec(fd, vec, vlen, pos_l, 0, true);
}

SYSCALL_DEFINE6(preadv2, unsigned long, fd, const struct iovec __user *,
		vec, unsigned long, vlen, unsigned long, pos_l, unsigned long,
		pos_h, int, flags)
{
	if ((loff_t)pos_l < -1)
		return -EINVAL;
	return do_vec(fd, vec, vlen, pos_l, flags, false);
}

SYSCALL_DEFINE6(pwritev2, unsigned long, fd, const struct iovec __user *,
		vec, unsigned long, vlen, unsigned long, pos_l, unsigned long,
		pos_h, int, flags)
{
	if ((loff_t)pos_l < -1)
		return -EINVAL;
	return do_vec(fd, vec, vlen, pos_l, flags, true);
}
