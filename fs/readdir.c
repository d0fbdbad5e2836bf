/*
 * fs/readdir.c: getdents64(2).
 *
 * iterate_dir calls the directory's ->iterate with a dir_context whose
 * actor packs each entry as a struct linux_dirent64 (8-byte aligned
 * records, d_off = the position after the entry, d_type from the mode).
 * The records go into a kernel buffer first and are copied out in one
 * piece, so an actor never touches user memory (it may run under
 * dcache_lock) and a bad user buffer costs nothing but EFAULT.
 */
#include <fs/file.h>
#include <fs/stat.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <kernel/uaccess.h>
#include <mm/slab.h>

struct getdents_buf {
	struct dir_context ctx;
	char *buf;
	unsigned int size, used;
	int error;
};

static bool filldir64(struct dir_context *ctx, const char *name, int namlen,
		      loff_t offset, u64 ino, unsigned int d_type)
{
	struct getdents_buf *gb = container_of(ctx, struct getdents_buf, ctx);
	unsigned int reclen = ALIGN(offsetof(struct linux_dirent64, d_name) +
					    namlen + 1,
				    sizeof(u64));
	struct linux_dirent64 *d;

	if (gb->used + reclen > gb->size) {
		/* Not even one entry fits: the caller's buffer is too small. */
		if (!gb->used)
			gb->error = -EINVAL;
		return false;
	}
	d = (struct linux_dirent64 *)(gb->buf + gb->used);
	d->d_ino = ino;
	d->d_off = offset;
	d->d_reclen = reclen;
	d->d_type = d_type;
	memcpy(d->d_name, name, namlen);
	memset(d->d_name + namlen, 0,
	       reclen - offsetof(struct linux_dirent64, d_name) - namlen);
	gb->used += reclen;
	return true;
}

int iterate_dir(struct file *file, struct dir_context *ctx)
{
	struct inode *inode = file->f_inode;
	int err;

	if (!file->f_op || !file->f_op->iterate)
		return -ENOTDIR;
	mutex_lock(&inode->i_mutex);
	err = -ENOENT;	/* a removed directory lists nothing */
	if (inode->i_nlink) {
		ctx->pos = file->f_pos;
		err = file->f_op->iterate(file, ctx);
		file->f_pos = ctx->pos;
	}
	mutex_unlock(&inode->i_mutex);
	touch_atime(file);
	return err;
}

long vfs_getdents64(struct file *file, void *buf, unsigned int count)
{
	struct getdents_buf gb = {
		.ctx.actor = filldir64,
		.buf = buf,
		.size = count,
	};
	int err;

	if (!S_ISDIR(file->f_inode->i_mode))
		return -ENOTDIR;
	err = iterate_dir(file, &gb.ctx);
	if (err == -ENOENT)
		return 0;	/* Linux: an rmdir'ed directory reads as empty */
	if (err)
		return err;
	return gb.error ? (long)gb.error : (long)gb.used;
}

/* One bounce page per call is plenty: getdents may return fewer entries
 * than would fit, and callers loop until it returns 0. */
#define GETDENTS_BOUNCE 4096u

SYSCALL_DEFINE3(getdents64, unsigned int, fd, void __user *, dirent,
		unsigned int, count)
{
	unsigned int size = min(count, GETDENTS_BOUNCE);
	struct file *file;
	void *kbuf;
	long ret;

	file = fget(fd);
	if (!file)
		return -EBADF;
	ret = -EFAULT;
	if (!access_ok(dirent, count))
		goto out;
	ret = -ENOMEM;
	kbuf = kmalloc(size, GFP_KERNEL);
	if (!kbuf)
		goto out;
	mutex_lock(&file->f_pos_lock);
	ret = vfs_getdents64(file, kbuf, size);
	mutex_unlock(&file->f_pos_lock);
	if (ret > 0 && copy_to_user(dirent, kbuf, ret))
		ret = -EFAULT;
	kfree(kbuf);
out:
	fput(file);
	return ret;
}
