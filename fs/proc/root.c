/*
 * fs/proc/root.c: the "proc" file system: registered entries seen as
 * files and directories. Inodes are made on lookup from an entry
 * (i_private points back at it); a file's open runs the entry's show()
 * into a seq_file snapshot that read(2) and lseek(2) then walk. In the
 * root directory, names no entry has are the processes' (fs/proc/base.c:
 * /proc/PID, /proc/self), listed after the entries.
 */
#include <kernel/param.h>
#include <fs/dcache.h>
#include <fs/mount.h>
#include <fs/proc_fs.h>
#include <fs/stat.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <mm/slab.h>
#include "internal.h"

static const struct inode_operations proc_dir_inode_operations;
static const struct file_operations proc_dir_operations;
static const struct file_operations proc_single_file_operations;

static struct inode *proc_get_inode(struct super_block *sb,
				    struct proc_dir_entry *de)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = de->low_ino;
	inode->i_mode = de->mode;
	inode->i_private = de;
	if (S_ISDIR(de->mode)) {
		inode->i_nlink = 2;
		inode->i_op = &proc_dir_inode_operations;
		inode->i_fop = &proc_dir_operations;
	} else {
		inode->i_op = &proc_file_inode_operations;
		inode->i_fop = &proc_single_file_operations;
	}
	return inode;
}

static struct dentry *proc_lookup(struct inode *dir, struct dentry *dentry,
				  unsigned int flags)
{
	struct proc_dir_entry *de;
	struct inode *inode = NULL;

	proc_lock_tree();
	de = proc_find(dir->i_private, dentry->d_name.name,
		       dentry->d_name.len);
	proc_unlock_tree();
	if (!de && dir->i_private == &proc_root) {
		struct dentry *res = proc_pid_lookup(dir, dentry);

		if (res || dentry->d_inode)
			return res;
	}
	if (de) {
		inode = proc_get_inode(dir->i_sb, de);
		if (!inode)
			return ERR_PTR(-ENOMEM);
	}
	d_add(dentry, inode);
	return NULL;
}

static int proc_readdir(struct file *file, struct dir_context *ctx)
{
	struct proc_dir_entry *dir = file->f_inode->i_private, *de;
	loff_t i = 2;

	if (!dir_emit_dots(file, ctx))
		return 0;
	/* Entries are only ever added at the tail: positions are stable. */
	proc_lock_tree();
	list_for_each_entry(de, &dir->subdir, list) {
		if (i++ < ctx->pos)
			continue;
		if (!ctx->actor(ctx, de->name, strlen(de->name), ctx->pos + 1,
				de->low_ino, (de->mode >> 12) & 15)) {
			proc_unlock_tree();
			return 0;
		}
		ctx->pos++;
	}
	proc_unlock_tree();
	if (dir == &proc_root)
		proc_pid_readdir(ctx);
	return 0;
}

static const struct inode_operations proc_dir_inode_operations = {
	.lookup = proc_lookup,
};

static const struct file_operations proc_dir_operations = {
	.read_iter = generic_read_dir,
	.iterate = proc_readdir,
};

static int proc_single_open(struct inode *inode, struct file *file)
{
	struct seq_file *m = kzalloc(sizeof(*m), GFP_KERNEL);
	int err;

	if (!m)
		return -ENOMEM;
	err = proc_seq_fill(m, inode->i_private);
	if (err) {
		kfree(m);
		return err;
	}
	file->private_data = m;
	return 0;
}

ssize_t proc_seq_read(struct file *file, struct iov_iter *to,
				loff_t *pos)
{
	struct seq_file *m = file->private_data;
	size_t n;

	if (*pos >= (loff_t)m->count)
		return 0;
	n = copy_to_iter(m->buf + *pos, m->count - *pos, to);
	*pos += n;
	return n ? (ssize_t)n : -EFAULT;
}

/* The whole write goes to the entry's write(), in one piece. */
static ssize_t proc_single_write(struct file *file, struct iov_iter *from,
				 loff_t *pos)
{
	struct proc_dir_entry *de = file->f_inode->i_private;
	size_t len = iov_iter_count(from);
	char buf[PROC_WRITE_MAX + 1];
	int err;

	if (!de->write)
		return -EINVAL;
	if (len > PROC_WRITE_MAX)
		return -EINVAL;
	if (copy_from_iter(buf, len, from) != len)
		return -EFAULT;
	buf[len] = '\0';
	err = de->write(buf, len, de->data);
	return err ? err : (ssize_t)len;
}

loff_t proc_seq_lseek(struct file *file, loff_t offset, int whence)
{
	struct seq_file *m = file->private_data;

	if (whence == SEEK_CUR)
		offset += file->f_pos;
	else if (whence == SEEK_END)
		offset += m->count;
	else if (whence != SEEK_SET)
		return -EINVAL;
	if (offset < 0)
		return -EINVAL;
	return file->f_pos = offset;
}

int proc_seq_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	kfree(m->buf);
	kfree(m);
	return 0;
}

static const struct file_operations proc_single_file_operations = {
	.open = proc_single_open,
	.read_iter = proc_seq_read,
	.write_iter = proc_single_write,
	.llseek = proc_seq_lseek,
	.release = proc_seq_release,
};

static const struct super_operations proc_sops = {
	.statfs = simple_statfs,
};

static int proc_fill_super(struct super_block *sb, void *data, int silent)
{
	sb->s_magic = PROC_SUPER_MAGIC;
	sb->s_op = &proc_sops;
	sb->s_root = d_make_root(proc_get_inode(sb, &proc_root));
	return sb->s_root ? 0 : -ENOMEM;
}

static struct dentry *proc_mount(struct file_system_type *type, int flags,
				 const char *dev_name, void *data)
{
	return mount_nodev(type, flags, data, proc_fill_super);
}

/* proc dentries are ordinary cached ones: umount frees them. */
static void proc_kill_sb(struct super_block *sb)
{
	generic_shutdown_super(sb);
}

static struct file_system_type proc_fs_type = {
	.name = "proc",
	.mount = proc_mount,
	.kill_sb = proc_kill_sb,
};

int meminfo_proc_show(struct seq_file *m, void *v);
int cpuinfo_proc_show(struct seq_file *m, void *v);
int version_proc_show(struct seq_file *m, void *v);
int vmstat_proc_show(struct seq_file *m, void *v);
int drop_caches_show(struct seq_file *m, void *v);
int stat_proc_show(struct seq_file *m, void *v);
int uptime_proc_show(struct seq_file *m, void *v);
int loadavg_proc_show(struct seq_file *m, void *v);
int drop_caches_write(const char *buf, size_t len, void *data);

/* /proc/cmdline: the kernel command line, as Linux shows it (init reads
 * its pagelab.disk= settings here). */
static int cmdline_proc_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%s\n", boot_command_line);
	return 0;
}

void proc_init(void)
{
	register_filesystem(&proc_fs_type);
	proc_create_single("cmdline", cmdline_proc_show);
	proc_create_single("meminfo", meminfo_proc_show);
	proc_create_single("cpuinfo", cpuinfo_proc_show);
	proc_create_single("version", version_proc_show);
	proc_create_single("mounts", proc_mounts_show);
	proc_create_single("vmstat", vmstat_proc_show);
	proc_create_single("stat", stat_proc_show);
	proc_create_single("uptime", uptime_proc_show);
	proc_create_single("loadavg", loadavg_proc_show);
	proc_mkdir("sys");
	proc_mkdir("sys/vm");
	proc_create_rw("sys/vm/drop_caches", 0644, drop_caches_show,
		       drop_caches_write);
	proc_mkdir("sys/fs");
	proc_create_single("sys/fs/dentry-state", dentry_state_show);
}
