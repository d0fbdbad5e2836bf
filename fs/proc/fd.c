/*
 * fs/proc/fd.c: /proc/PID/fd, a symbolic link per open file descriptor,
 * named by its number, pointing at what it has open (Linux's
 * fs/proc/fd.c): `ls -l /proc/self/fd` shows a process's descriptors,
 * and trinity counts its own there.
 *
 * Linux's links are "magic": opening one opens that very file, even one
 * deleted or a pipe. pagelab's hold text, made when the name is looked
 * up: the file's path, "pipe:[INODE]" or "anon_inode:[NAME]", and
 * following one reaches only a file that still has that path.
 *
 * Only the owner (or root) may look inside, as Linux's ptrace check
 * allows: the directory is mode 0500.
 *
 *   proc_fd_dir_inode   the directory, for fs/proc/base.c's lookup
 *   proc_fd_lookup      "3" -> a link inode with the target's text
 *   proc_fd_readdir     ".", "..", then each open descriptor in order
 */
#include <fs/dcache.h>
#include <fs/file.h>
#include <fs/fs_struct.h>
#include <fs/namei.h>
#include <fs/proc_fs.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <mm/slab.h>
#include "internal.h"

/* Link inodes: FD_INO_BASE + pid * 2^20 + fd, apart from PID_INO_BASE's. */
#define FD_INO_BASE 0x100000000UL

static const struct inode_operations proc_fd_dir_inode_operations;
static const struct file_operations proc_fd_dir_operations;
static const struct inode_operations proc_fd_link_inode_operations = {
	.get_link = simple_get_link,
};

/* fd's file in t, with a reference; NULL if the slot is empty. */
static struct file *task_fget(struct task_struct *t, unsigned int fd)
{
	struct files_struct *files = t->files;
	struct file *file = NULL;
	unsigned long flags;

	if (!files)
		return NULL;
	spin_lock_irqsave(&files->file_lock, flags);
	if (fd < files->max_fds && files->fd[fd])
		file = get_file(files->fd[fd]);
	spin_unlock_irqrestore(&files->file_lock, flags);
	return file;
}

/* The link's text for file, written into buf (PAGE_SIZE bytes). */
static const char *fd_target(struct file *file, char *buf)
{
	struct inode *inode = file->f_inode;
	struct path root;
	const char *p;

	if (S_ISFIFO(inode->i_mode)) {
		snprintf(buf, PAGE_SIZE, "pipe:[%lu]", inode->i_ino);
		return buf;
	}
	get_fs_root(current->fs, &root);	/* as the reader sees it */
	p = d_path(&file->f_path, &root, buf, PAGE_SIZE);
	path_put(&root);
	if (!IS_ERR(p))
		return p;
	snprintf(buf, PAGE_SIZE, "anon_inode:[%s]",
		 (const char *)file->f_dentry->d_name.name);
	return buf;
}

/* The link of descriptor fd of task pid, owned by owner (its euid and
 * egid, in a struct cred). */
static struct inode *proc_fd_link_inode(struct super_block *sb, pid_t pid,
					const struct cred *owner,
					unsigned int fd, struct file *file)
{
	struct inode *inode = new_inode(sb);
	char *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	const char *target;

	if (!inode || !buf) {
		kfree(buf);
		if (inode)
			iput(inode);
		return NULL;
	}
	target = fd_target(file, buf);
	memmove(buf, target, strlen(target) + 1);
	inode->i_ino = FD_INO_BASE + ((unsigned long)pid << 20) + fd;
	inode->i_mode = S_IFLNK | 0700;
	inode->i_uid = owner->euid;
	inode->i_gid = owner->egid;
	inode->i_nlink = 1;
	inode->i_size = strlen(buf);
	inode->i_link = buf;	/* kfree'd with the inode */
	inode->i_op = &proc_fd_link_inode_operations;
	return inode;
}

struct inode *proc_fd_dir_inode(struct super_block *sb,
				const struct task_ids *t, unsigned long ino)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = ino;
	inode->i_mode = S_IFDIR | 0500;
	inode->i_uid = t->uid;
	inode->i_gid = t->gid;
	inode->i_nlink = 2;
	inode->i_private = (void *)(long)t->pid;
	inode->i_op = &proc_fd_dir_inode_operations;
	inode->i_fop = &proc_fd_dir_operations;
	return inode;
}

static struct dentry *proc_fd_lookup(struct inode *dir, struct dentry *dentry,
				     unsigned int flags)
{
	pid_t pid = (pid_t)(long)dir->i_private;
	long fd = proc_name_to_number(dentry->d_name.name, dentry->d_name.len);
	struct file *file = NULL;
	struct task_struct *t;
	struct inode *inode;
	struct cred owner;

	/* The task only under the lock: it may exit while we allocate. */
	lock_tasklist();
	t = find_task_by_pid(pid);
	if (t && fd >= 0) {
		file = task_fget(t, fd);
		owner = t->cred;
	}
	unlock_tasklist();
	if (!file)
		return ERR_PTR(-ENOENT);
	inode = proc_fd_link_inode(dir->i_sb, pid, &owner, fd, file);
	fput(file);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	d_instantiate(dentry, inode);
	return NULL;
}

/* The lowest open descriptor of pid at or above from; -1 if none. */
static long next_fd(pid_t pid, unsigned long from)
{
	struct task_struct *t;
	struct files_struct *files;
	unsigned long flags;
	long fd = -1;

	lock_tasklist();	/* t and its files stay while we look */
	t = find_task_by_pid(pid);
	files = t ? t->files : NULL;
	if (files) {
		spin_lock_irqsave(&files->file_lock, flags);
		for (unsigned long i = from; i < files->max_fds; i++)
			if (files->fd[i]) {
				fd = i;
				break;
			}
		spin_unlock_irqrestore(&files->file_lock, flags);
	}
	unlock_tasklist();
	return fd;
}

/* Descriptor fd is at position fd + 2, so that a reader that stops and
 * comes back resumes after the last one it saw. */
static int proc_fd_readdir(struct file *file, struct dir_context *ctx)
{
	struct inode *dir = file->f_inode;
	pid_t pid = (pid_t)(long)dir->i_private;
	char name[12];
	long fd;

	if (!find_task_by_pid(pid))
		return -ENOENT;
	if (!dir_emit_dots(file, ctx))
		return 0;
	while ((fd = next_fd(pid, ctx->pos - 2)) >= 0) {
		int len = snprintf(name, sizeof(name), "%ld", fd);

		/* The actor may sleep on the user's buffer: no task or file
		 * pointer is held across it. */
		if (!ctx->actor(ctx, name, len, fd + 3,
				FD_INO_BASE + ((unsigned long)pid << 20) + fd,
				DT_LNK))
			return 0;
		ctx->pos = fd + 3;
	}
	return 0;
}

static const struct inode_operations proc_fd_dir_inode_operations = {
	.lookup = proc_fd_lookup,
};

static const struct file_operations proc_fd_dir_operations = {
	.read_iter = generic_read_dir,
	.iterate = proc_fd_readdir,
};
