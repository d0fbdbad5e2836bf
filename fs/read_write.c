/*
 * fs/read_write.c: read(2), write(2), lseek(2) and their vector and
 * positioned forms; sendfile(2) and copy_file_range(2).
 *
 * Every form comes down to vfs_iter_read/vfs_iter_write with an iov_iter
 * and a position: f_pos for read/readv (under f_pos_lock, so two threads
 * sharing a file do not read the same bytes), the caller's offset for
 * pread/preadv (which need FMODE_PREAD: ESPIPE on pipes and ttys). The
 * checks happen here, once: EBADF for a file not open for that direction,
 * EINVAL for no method or a negative position, EFAULT for a buffer outside
 * user space, counts capped at MAX_RW_COUNT.
 *
 * sendfile and copy_file_range move bytes from file to file inside the
 * kernel, a page at a time (copy_through_page; Linux splices page-cache
 * pages instead, which saves the copy, not the rules): sendfile from a
 * regular file to anything writable, copy_file_range between regular
 * files of one file system.
 */
#include <fs/file.h>
#include <fs/uio.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/uaccess.h>
#include <mm/gfp.h>
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

/* ---- sendfile, copy_file_range ------------------------------------------ */

/*
 * Copy up to count bytes from in at *ipos to out at *opos through a
 * kernel page. Stops at in's end, at a short write, or when a signal is
 * pending; both positions advance by what was written. Returns the bytes
 * copied, or -errno if none.
 */
static ssize_t copy_through_page(struct file *in, loff_t *ipos,
				 struct file *out, loff_t *opos, size_t count)
{
	char *buf = (char *)__get_free_pages(GFP_KERNEL, 0);
	ssize_t done = 0, n = 0, w = 0;

	if (!buf)
		return -ENOMEM;
	while (count) {
		loff_t rpos = *ipos;

		n = kernel_read(in, buf, min(count, PAGE_SIZE), &rpos);
		if (n <= 0)
			break;
		w = kernel_write(out, buf, n, opos);
		if (w <= 0)
			break;
		*ipos += w;
		done += w;
		count -= w;
		if (w < n || signal_pending(current))
			break;
	}
	free_page((unsigned long)buf);
	if (done)
		return done;
	return n < 0 ? n : w < 0 ? w : 0;
}

/* Linux's order: the input (EBADF, ESPIPE, EINVAL), then the output. */
static ssize_t do_sendfile(int out_fd, int in_fd, loff_t *ppos, size_t count)
{
	struct file *in = fget(in_fd), *out = NULL;
	loff_t pos, out_pos;
	ssize_t ret = -EBADF;

	if (!in || !(in->f_mode & FMODE_READ))
		goto out;
	ret = -ESPIPE;
	if (ppos && !(in->f_mode & FMODE_PREAD))
		goto out;
	pos = ppos ? *ppos : in->f_pos;
	ret = -EINVAL;
	if (pos < 0)
		goto out;
	ret = -EBADF;
	out = fget(out_fd);
	if (!out || !(out->f_mode & FMODE_WRITE))
		goto out;
	/* Only files whose pages can be read at a position (Linux: that
	 * have ->splice_read); no appending output. */
	ret = -EINVAL;
	if (!S_ISREG(in->f_inode->i_mode) || (out->f_flags & O_APPEND))
		goto out;
	out_pos = out->f_pos;
	ret = copy_through_page(in, &pos, out, &out_pos,
				min(count, MAX_RW_COUNT));
	if (ret > 0) {
		if (ppos)
			*ppos = pos;
		else
			in->f_pos = pos;
		out->f_pos = out_pos;
	}
out:
	if (out)
		fput(out);
	if (in)
		fput(in);
	return ret;
}

SYSCALL_DEFINE4(sendfile, int, out_fd, int, in_fd, loff_t __user *, offset,
		size_t, count)
{
	loff_t pos;
	ssize_t ret;

	if (!offset)
		return do_sendfile(out_fd, in_fd, NULL, count);
	if (copy_from_user(&pos, offset, sizeof(pos)))
		return -EFAULT;
	ret = do_sendfile(out_fd, in_fd, &pos, count);
	if (put_user(pos, offset))
		return -EFAULT;
	return ret;
}

/*
 * What copy_file_range may copy: 0 and *len trimmed to in's end, or
 * -errno in Linux's order (generic_copy_file_checks).
 */
static int copy_file_checks(struct file *in, loff_t pos_in, struct file *out,
			    loff_t pos_out, size_t *len)
{
	struct inode *inode_in = in->f_inode, *inode_out = out->f_inode;
	loff_t size_in;

	if (S_ISDIR(inode_in->i_mode) || S_ISDIR(inode_out->i_mode))
		return -EISDIR;
	if (!S_ISREG(inode_in->i_mode) || !S_ISREG(inode_out->i_mode))
		return -EINVAL;
	if (!(in->f_mode & FMODE_READ) || !(out->f_mode & FMODE_WRITE) ||
	    (out->f_flags & O_APPEND))
		return -EBADF;
	if (inode_in->i_sb != inode_out->i_sb)
		return -EXDEV;
	if (pos_in < 0 || pos_out < 0)
		return -EINVAL;
	size_in = i_size_read(inode_in);
	*len = pos_in >= size_in ? 0 : min(*len, (size_t)(size_in - pos_in));
	*len = min(*len, MAX_RW_COUNT);
	if (inode_in == inode_out && pos_out + (loff_t)*len > pos_in &&
	    pos_out < pos_in + (loff_t)*len)
		return -EINVAL;	/* overlapping ranges of one file */
	return 0;
}

/* A position from the user, or the file's own. */
static int get_pos(loff_t __user *upos, struct file *file, loff_t *pos)
{
	*pos = file->f_pos;
	return upos && copy_from_user(pos, upos, sizeof(*pos)) ? -EFAULT : 0;
}

static int put_pos(loff_t __user *upos, struct file *file, loff_t pos)
{
	if (!upos) {
		file->f_pos = pos;
		return 0;
	}
	return copy_to_user(upos, &pos, sizeof(pos)) ? -EFAULT : 0;
}

SYSCALL_DEFINE6(copy_file_range, int, fd_in, loff_t __user *, off_in,
		int, fd_out, loff_t __user *, off_out, size_t, len,
		unsigned int, flags)
{
	struct file *in = fget(fd_in), *out = fget(fd_out);
	loff_t pos_in, pos_out;
	ssize_t ret = -EBADF;

	if (!in || !out)
		goto out;
	ret = get_pos(off_in, in, &pos_in) ?: get_pos(off_out, out, &pos_out);
	if (!ret && flags)
		ret = -EINVAL;
	if (!ret)
		ret = copy_file_checks(in, pos_in, out, pos_out, &len);
	if (!ret && len)
		ret = copy_through_page(in, &pos_in, out, &pos_out, len);
	if (ret > 0 && (put_pos(off_in, in, pos_in) ||
			put_pos(off_out, out, pos_out)))
		ret = -EFAULT;
out:
	if (in)
		fput(in);
	if (out)
		fput(out);
	return ret;
}
