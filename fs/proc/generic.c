/*
 * fs/proc/generic.c: the tree of /proc entries, and the seq_file buffer
 * their show functions print into.
 *
 * An entry (proc_dir_entry) is registered once, by the subsystem that
 * owns the data; the "proc" file system (fs/proc/root.c) turns entries
 * into inodes when they are looked up. A file's text is made afresh at
 * each open: show() prints into a buffer that doubles until the text
 * fits, so a reader gets one consistent snapshot (Linux's single_open).
 */
#include <fs/fs.h>
#include <fs/proc_fs.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <mm/slab.h>
#include "internal.h"

struct proc_dir_entry proc_root = {
	.name = "/",
	.mode = S_IFDIR | 0555,
	.low_ino = 1,
	.subdir = LIST_HEAD_INIT(proc_root.subdir),
	.list = LIST_HEAD_INIT(proc_root.list),
};

static DEFINE_MUTEX(proc_tree_mutex);
static unsigned int proc_next_ino = 2;

/* ---- seq_file ------------------------------------------------------------ */

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	size_t room = m->size - m->count;
	va_list ap;
	int n;

	if (m->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(m->buf + m->count, room, fmt, ap);
	va_end(ap);
	if ((size_t)n >= room)
		m->overflow = true;	/* print again into a bigger buffer */
	else
		m->count += n;
}

void seq_puts(struct seq_file *m, const char *s)
{
	seq_printf(m, "%s", s);
}

void seq_putc(struct seq_file *m, char c)
{
	seq_printf(m, "%c", c);
}

#define SEQ_MAX_SIZE (256 * 1024)

/* Run show until its text fits; 0 or -errno. */
int proc_seq_fill(struct seq_file *m, const struct proc_dir_entry *de)
{
	size_t size = PAGE_SIZE;
	int err;

	for (;;) {
		m->buf = kmalloc(size, GFP_KERNEL);
		if (!m->buf)
			return -ENOMEM;
		m->size = size;
		m->count = 0;
		m->overflow = false;
		m->private = de->data;
		err = de->show(m, de->data);
		if (err || !m->overflow)
			break;
		kfree(m->buf);
		m->buf = NULL;
		size *= 2;
		if (size > SEQ_MAX_SIZE)
			return -EFBIG;
	}
	if (err) {
		kfree(m->buf);
		m->buf = NULL;
	}
	return err;
}

/* ---- the entry tree ------------------------------------------------------- */

/* The child of dir called name[0..len), or NULL. Tree mutex held. */
struct proc_dir_entry *proc_find(struct proc_dir_entry *dir,
				 const char *name, size_t len)
{
	struct proc_dir_entry *de;

	list_for_each_entry(de, &dir->subdir, list)
		if (strlen(de->name) == len && !memcmp(de->name, name, len))
			return de;
	return NULL;
}

/* Find the directory holding the last component of *name; advances
 * *name to that component. NULL if a directory is missing. */
static struct proc_dir_entry *proc_parent(const char **name)
{
	struct proc_dir_entry *dir = &proc_root;
	const char *slash;

	while ((slash = strchr(*name, '/'))) {
		dir = proc_find(dir, *name, slash - *name);
		if (!dir || !S_ISDIR(dir->mode))
			return NULL;
		*name = slash + 1;
	}
	return dir;
}

static struct proc_dir_entry *proc_register(const char *name, umode_t mode,
					    int (*show)(struct seq_file *,
							void *),
					    void *data)
{
	struct proc_dir_entry *dir, *de = NULL;
	size_t len;

	mutex_lock(&proc_tree_mutex);
	dir = proc_parent(&name);
	len = strlen(name);
	if (!dir || !len || proc_find(dir, name, len))
		goto out;
	de = kzalloc(sizeof(*de) + len + 1, GFP_KERNEL);
	if (!de)
		goto out;
	memcpy(de + 1, name, len + 1);
	de->name = (const char *)(de + 1);
	de->mode = mode;
	de->show = show;
	de->data = data;
	de->parent = dir;
	de->low_ino = proc_next_ino++;
	INIT_LIST_HEAD(&de->subdir);
	list_add_tail(&de->list, &dir->subdir);
out:
	mutex_unlock(&proc_tree_mutex);
	if (!de)
		pr_warn("proc: cannot create /proc/%s\n", name);
	return de;
}

struct proc_dir_entry *proc_create_single_data(const char *name,
					       umode_t mode,
					       int (*show)(struct seq_file *,
							   void *),
					       void *data)
{
	return proc_register(name, S_IFREG | (mode & 0777 ? mode & 0777 : 0444),
			     show, data);
}

struct proc_dir_entry *proc_create_single(const char *name,
					  int (*show)(struct seq_file *,
						      void *))
{
	return proc_create_single_data(name, 0444, show, NULL);
}

struct proc_dir_entry *proc_create_rw_data(const char *name, umode_t mode,
					   int (*show)(struct seq_file *,
						       void *),
					   int (*write)(const char *, size_t,
							void *),
					   void *data)
{
	struct proc_dir_entry *de =
		proc_register(name, S_IFREG | (mode & 0777), show, data);

	if (de)
		de->write = write;
	return de;
}

struct proc_dir_entry *proc_create_rw(const char *name, umode_t mode,
				      int (*show)(struct seq_file *, void *),
				      int (*write)(const char *, size_t,
						   void *))
{
	return proc_create_rw_data(name, mode, show, write, NULL);
}

struct proc_dir_entry *proc_mkdir(const char *name)
{
	return proc_register(name, S_IFDIR | 0555, NULL, NULL);
}

void proc_lock_tree(void)
{
	mutex_lock(&proc_tree_mutex);
}

void proc_unlock_tree(void)
{
	mutex_unlock(&proc_tree_mutex);
}

/* A /proc name that is a number, as a pid or fd is written: "12" -> 12,
 * "0" -> 0; anything else (signs, leading zeros, more than 9 digits, not
 * a digit) -> -1. */
long proc_name_to_number(const char *name, unsigned int len)
{
	long n = 0;

	if (!len || len > 9 || (name[0] == '0' && len > 1))
		return -1;
	for (unsigned int i = 0; i < len; i++) {
		if (name[i] < '0' || name[i] > '9')
			return -1;
		n = n * 10 + (name[i] - '0');
	}
	return n;
}

/*
 * ->setattr of /proc's files. They have no size of their own (a read
 * makes the text afresh), so a truncate succeeds and changes nothing, as
 * on Linux (proc_notify_change, proc_setattr): the size is dropped from
 * the request. A registered file may change owner, times and mode; a
 * /proc/PID file not its mode (EPERM).
 */
static int proc_notify_change(struct dentry *dentry, struct iattr *attr)
{
	attr->ia_valid &= ~ATTR_SIZE;
	return simple_setattr(dentry, attr);
}

static int proc_pid_setattr(struct dentry *dentry, struct iattr *attr)
{
	if (attr->ia_valid & ATTR_MODE)
		return -EPERM;
	return proc_notify_change(dentry, attr);
}

const struct inode_operations proc_file_inode_operations = {
	.setattr = proc_notify_change,
};

const struct inode_operations proc_pid_file_inode_operations = {
	.setattr = proc_pid_setattr,
};
