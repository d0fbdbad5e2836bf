/*
 * Open files and file descriptor tables (fs/file_table.c, fs/fdtable.c).
 *
 * A struct file is shared by every fd (and every process, after fork) that
 * refers to it; f_count counts them, and the last fput() closes it. A
 * files_struct is one process's table from fd numbers to files, shared by
 * its users (files->count) until someone writes to it. Its file_lock
 * protects the table; fget() returns a file with its own reference, so the
 * table may change while the file is used.
 */
#ifndef _FS_FILE_H
#define _FS_FILE_H

#include <fs/fs.h>

#define NR_OPEN_DEFAULT 64	/* slots a table starts with, in place */
#define NR_OPEN (1024 * 1024)	/* the most a table grows to (Linux's
				 * fs.nr_open default); RLIMIT_NOFILE's cap */
#define FD_CLOEXEC 1

struct files_struct {
	int count;	/* tasks sharing the table */
	spinlock_t file_lock;
	int next_fd;	/* no free fd below this */
	unsigned int max_fds;	/* slots in fd[], bits in the two maps */
	struct file **fd;	/* NULL: free or reserved */
	/* fds in use, including reserved ones not installed yet */
	unsigned long *open_fds;
	unsigned long *close_on_exec;
	/* The first NR_OPEN_DEFAULT slots, so that most processes never
	 * allocate a table: one that needs more gets arrays of its own
	 * (expand_files, fs/fdtable.c), as Linux's fdtable does. */
	struct file *fd_array[NR_OPEN_DEFAULT];
	unsigned long open_fds_init[NR_OPEN_DEFAULT / (8 * sizeof(long))];
	unsigned long close_on_exec_init[NR_OPEN_DEFAULT / (8 * sizeof(long))];
};

/* fs/file_table.c */

/* A new file for path with f_op; takes references on the path.
 * f_count 1. NULL when out of memory. */
struct file *alloc_file(const struct path *path, fmode_t mode,
			const struct file_operations *fop);
/* The file behind fd in current's table, referenced; NULL if none. */
struct file *fget(unsigned int fd);
struct file *get_file(struct file *file);
/* Drop a reference; the last one releases the file (->release, the
 * write count, the path). */
void fput(struct file *file);

/* fs/locks.c: the file's last close drops its flock. */
void locks_remove_file(struct file *file);

/* fs/fdtable.c */

/* An empty table (vfs_init gives init_task one). */
struct files_struct *alloc_files(void);
/* fork: a copy of the table sharing the struct files (each fget'ed). */
struct files_struct *dup_fd(struct files_struct *old);
/* clone(CLONE_FILES): one more task uses files; returns it. */
struct files_struct *get_files_struct(struct files_struct *files);
/* exec: current gets a table of its own if it shares one (a
 * CLONE_FILES child); 0 or -ENOMEM. */
int unshare_files(void);
/* exit: drop a user; the last one closes every fd. */
void put_files_struct(struct files_struct *files);
/* execve: close every fd marked close-on-exec. */
void do_close_on_exec(struct files_struct *files);
/* The lowest free fd >= start (O_CLOEXEC in flags marks it); -EMFILE. */
int get_unused_fd_from(unsigned int start, unsigned int flags);
/* The lowest free fd >= 0 (O_CLOEXEC in flags marks it), reserved with
 * a NULL slot until fd_install; -EMFILE when full. */
int get_unused_fd_flags(unsigned int flags);
void put_unused_fd(unsigned int fd);
/* Put file in the reserved slot fd (consumes the caller's reference). */
void fd_install(unsigned int fd, struct file *file);
/* close(2): 0 or -EBADF. */
int close_fd(unsigned int fd);
long ksys_dup(unsigned int fildes);
long ksys_dup3(unsigned int oldfd, unsigned int newfd, int flags);
long do_fcntl(int fd, unsigned int cmd, unsigned long arg);
/* fs/pagemap.c: PAGELAB_IOC_PAGEMAP on file. */
long pagemap_ioctl(struct file *file, unsigned long arg);
/* The per-process fd limit (RLIMIT_NOFILE, capped at NR_OPEN). */
unsigned int task_nofile_limit(void);

#endif
