/*
 * kernel/initrd_exec.c: TEMPORARY stand-ins, until the VFS lands, for the
 * file-system calls process code makes (<kernel/task_fs.h>). Every function
 * here is weak: fs/ provides the real ones and these then vanish.
 *
 * open_exec() finds a program by name straight in the initramfs archive
 * (cpio "newc") that the boot loader passed as a module; files and fs state
 * are absent (NULL), and the tasks' console output goes through the weak
 * write() below.
 */
#include <kernel/task_fs.h>
#include <kernel/bootinfo.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/syscalls.h>
#include <kernel/uaccess.h>
#include <mm/mm.h>
#include <mm/slab.h>

struct initrd_file {
	const u8 *data;
	size_t size;
};

static unsigned long hex8(const char *p)
{
	unsigned long v = 0;

	for (int i = 0; i < 8; i++)
		v = v * 16 + (p[i] <= '9' ? p[i] - '0' : (p[i] | 0x20) - 'a' + 10);
	return v;
}

/* Look path up in the newc archive [p, end): its data, or NULL. */
static const u8 *cpio_find(const u8 *p, const u8 *end, const char *path,
			   size_t *size)
{
	while (path[0] == '/')
		path++;
	while (p + 110 <= end && !memcmp(p, "070701", 6)) {
		unsigned long mode = hex8((const char *)p + 14);
		unsigned long fsize = hex8((const char *)p + 54);
		unsigned long nsize = hex8((const char *)p + 94);
		const char *name = (const char *)p + 110;
		const u8 *data = (const u8 *)ALIGN((unsigned long)name + nsize, 4);

		if (data + fsize > end)
			return NULL;
		if (!strcmp(name, "TRAILER!!!"))
			return NULL;
		if ((mode & 0170000) == 0100000 && !strcmp(name, path)) {
			*size = fsize;
			return data;
		}
		p = (const u8 *)ALIGN((unsigned long)data + fsize, 4);
	}
	return NULL;
}

__attribute__((weak)) struct file *open_exec(const char *path)
{
	struct initrd_file *f;
	const u8 *data = NULL;
	size_t size = 0;

	for (int i = 0; i < boot_info.nr_modules && !data; i++)
		data = cpio_find(phys_to_virt(boot_info.modules[i].start),
				 phys_to_virt(boot_info.modules[i].end), path,
				 &size);
	if (!data)
		return ERR_PTR(-ENOENT);
	f = kmalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return ERR_PTR(-ENOMEM);
	f->data = data;
	f->size = size;
	return (struct file *)f;
}

__attribute__((weak)) ssize_t kernel_read(struct file *file, void *buf,
					  size_t count, loff_t *pos)
{
	struct initrd_file *f = (struct initrd_file *)file;

	if (*pos >= (loff_t)f->size)
		return 0;
	count = min(count, f->size - *pos);
	memcpy(buf, f->data + *pos, count);
	*pos += count;
	return count;
}

__attribute__((weak)) void fput(struct file *file)
{
	kfree(file);
}

__attribute__((weak)) struct files_struct *dup_fd(struct files_struct *o)
{
	return NULL;
}

__attribute__((weak)) void put_files_struct(struct files_struct *f)
{
}

__attribute__((weak)) void do_close_on_exec(struct files_struct *f)
{
}

__attribute__((weak)) struct fs_struct *copy_fs_struct(struct fs_struct *o)
{
	return NULL;
}

__attribute__((weak)) void put_fs_struct(struct fs_struct *fs)
{
}

/* Console output for fds 1 and 2 until the VFS and tty exist. */
SYSCALL_DEFINE_WEAK3(write, int, fd, const char __user *, buf, size_t, count)
{
	char chunk[256];
	size_t done = 0;

	if (fd != 1 && fd != 2)
		return -EBADF;
	while (done < count) {
		size_t n = min(count - done, sizeof(chunk));

		if (copy_from_user(chunk, buf + done, n))
			return done ? (long)done : -EFAULT;
		console_write(chunk, n);
		done += n;
	}
	return done;
}

struct iovec_k {
	const char __user *base;
	size_t len;
};

SYSCALL_DEFINE_WEAK3(writev, int, fd, const struct iovec_k __user *, iov,
		     int, cnt)
{
	long total = 0;

	for (int i = 0; i < cnt; i++) {
		struct iovec_k v;
		long n;

		if (copy_from_user(&v, iov + i, sizeof(v)))
			return -EFAULT;
		n = __do_sys_write(fd, v.base, v.len);
		if (n < 0)
			return total ? total : n;
		total += n;
	}
	return total;
}
