/* fs/proc internals: the entry tree (generic.c) and its use (root.c). */
#ifndef _FS_PROC_INTERNAL_H
#define _FS_PROC_INTERNAL_H

#include <fs/fs.h>
#include <fs/proc_fs.h>
#include <kernel/list.h>

struct proc_dir_entry {
	const char *name;
	umode_t mode;
	unsigned int low_ino;	/* the inode number, fixed per entry */
	int (*show)(struct seq_file *m, void *v);	/* files */
	/* Writable files: the written text (NUL-terminated, at most
	 * PROC_WRITE_MAX bytes); returns 0 or -errno. */
	int (*write)(const char *buf, size_t len, void *data);
	void *data;
	struct proc_dir_entry *parent;
	struct list_head subdir;	/* children (directories) */
	struct list_head list;	/* on the parent's subdir */
};

extern struct proc_dir_entry proc_root;
/* generic.c: "12" -> 12 for a pid or fd name; -1 if not such a number. */
long proc_name_to_number(const char *name, unsigned int len);
/* generic.c: the files' ->setattr (a size is dropped, as on Linux); the
 * registered files', and /proc/PID's (no mode change either). */
extern const struct inode_operations proc_file_inode_operations;
extern const struct inode_operations proc_pid_file_inode_operations;

struct proc_dir_entry *proc_find(struct proc_dir_entry *dir,
				 const char *name, size_t len);
int proc_seq_fill(struct seq_file *m, const struct proc_dir_entry *de);
/* The registered files' read, lseek and release on an opened snapshot
 * (file->private_data is the seq_file); fs/proc/base.c's files too. */
struct iov_iter;
ssize_t proc_seq_read(struct file *file, struct iov_iter *to, loff_t *pos);
loff_t proc_seq_lseek(struct file *file, loff_t offset, int whence);
int proc_seq_release(struct inode *inode, struct file *file);

/* fs/proc/base.c: /proc/PID and /proc/self in the root directory. Their
 * readdir positions come after every registered entry's. */
#define PROC_SELF_POS 0x10000
#define PROC_PID_POS (PROC_SELF_POS + 1)
struct dentry *proc_pid_lookup(struct inode *dir, struct dentry *dentry);
/* fs/proc/fd.c: the inode of /proc/PID/fd, number ino. */
struct task_struct;
/* What an inode of /proc/PID needs of its task, read under the tasklist
 * lock (base.c: get_task_ids): the inode's allocation may sleep, and the
 * task be reaped on another CPU meanwhile. */
struct task_ids {
	pid_t pid, tgid;
	uid_t uid;
	gid_t gid;
};

bool get_task_ids(pid_t pid, struct task_ids *ids);
struct inode *proc_fd_dir_inode(struct super_block *sb,
				const struct task_ids *t,
				unsigned long ino);
void proc_pid_readdir(struct dir_context *ctx);

/* Entries are never removed; the lock orders readers and registration. */
void proc_lock_tree(void);
void proc_unlock_tree(void);

#endif
