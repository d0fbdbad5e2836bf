/*
 * The VFS objects (Linux's include/linux/fs.h, a fraction of it).
 *
 *   super_block   one mounted file system instance (its root, its limits)
 *   inode         one file: type, owner, size, times, and its page cache
 *   address_space the page cache of an inode: index -> struct page
 *   dentry        a name in a directory (include/fs/dcache.h)
 *   file          an open file: position, flags, the ops to use
 *   vfsmount      where a super_block is attached in the tree (fs/mount.h)
 *
 * Each comes with a table of operations that a file system fills in; NULL
 * means "the generic behaviour" or "not supported", as documented per field.
 * Locking, as in Linux 2.6.30: an inode's i_mutex serialises changes to its
 * size and, for directories, to its entries; dcache_lock protects the
 * dentry tree; mapping->tree_lock the page index.
 */
#ifndef _FS_FS_H
#define _FS_FS_H

#include <kernel/cred.h>
#include <kernel/list.h>
#include <kernel/mutex.h>
#include <kernel/radix_tree.h>
#include <kernel/spinlock.h>
#include <kernel/syscalls.h>
#include <kernel/types.h>
#include <fs/uio.h>

struct dentry;
struct epitem;
struct file;
struct inode;
struct iattr;
struct kstat;
struct kstatfs;
struct page;
struct path;
struct pipe_inode_info;
struct seq_file;
struct block_device;
struct super_block;
struct vfsmount;
struct dir_context;
struct file_system_type;
struct vm_area_struct;

typedef unsigned int dev_t;	/* kernel form: 12-bit major, 20-bit minor */
typedef unsigned int fmode_t;
typedef unsigned long pgoff_t;
typedef u64 blkcnt_t;

#define MINORBITS 20
#define MINORMASK ((1U << MINORBITS) - 1)
#define MAJOR(dev) ((unsigned int)((dev) >> MINORBITS))
#define MINOR(dev) ((unsigned int)((dev) & MINORMASK))
#define MKDEV(ma, mi) (((ma) << MINORBITS) | (mi))

/* The user-visible encoding (st_rdev, mknod's dev): glibc's and musl's. */
static inline u64 new_encode_dev(dev_t dev)
{
	u64 major = MAJOR(dev), minor = MINOR(dev);

	return (minor & 0xff) | (major << 8) | ((minor & ~0xffUL) << 12);
}

static inline dev_t new_decode_dev(u64 dev)
{
	unsigned int major = (dev & 0xfff00) >> 8;
	unsigned int minor = (dev & 0xff) | ((dev >> 12) & 0xfff00);

	return MKDEV(major, minor);
}

struct timespec64 {
	s64 tv_sec;
	long tv_nsec;
};

/* File types and permission bits (octal, as in stat(2)). */
#define S_IFMT 0170000
#define S_IFSOCK 0140000
#define S_IFLNK 0120000
#define S_IFREG 0100000
#define S_IFBLK 0060000
#define S_IFDIR 0040000
#define S_IFCHR 0020000
#define S_IFIFO 0010000
#define S_ISUID 0004000
#define S_ISGID 0002000
#define S_ISVTX 0001000
#define S_ISLNK(m) (((m) & S_IFMT) == S_IFLNK)
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#define S_ISCHR(m) (((m) & S_IFMT) == S_IFCHR)
#define S_ISBLK(m) (((m) & S_IFMT) == S_IFBLK)
#define S_ISFIFO(m) (((m) & S_IFMT) == S_IFIFO)
#define S_ISSOCK(m) (((m) & S_IFMT) == S_IFSOCK)
#define S_IRWXU 00700
#define S_IRUSR 00400
#define S_IWUSR 00200
#define S_IXUSR 00100
#define S_IRWXG 00070
#define S_IXGRP 00010
#define S_IRWXO 00007
#define S_IRWXUGO (S_IRWXU | S_IRWXG | S_IRWXO)
#define S_IALLUGO (S_ISUID | S_ISGID | S_ISVTX | S_IRWXUGO)
#define S_IRUGO 00444
#define S_IWUGO 00222
#define S_IXUGO 00111

/* Directory entry types (getdents64's d_type): the S_IFMT bits >> 12. */
#define DT_UNKNOWN 0
#define DT_FIFO 1
#define DT_CHR 2
#define DT_DIR 4
#define DT_BLK 6
#define DT_REG 8
#define DT_LNK 10
#define DT_SOCK 12
#define dt_type(inode) (((inode)->i_mode >> 12) & 15)

/* open(2) flags, x86-64 values. */
#define O_ACCMODE 00000003
#define O_RDONLY 00000000
#define O_WRONLY 00000001
#define O_RDWR 00000002
#define O_CREAT 00000100
#define O_EXCL 00000200
#define O_NOCTTY 00000400
#define O_TRUNC 00001000
#define O_APPEND 00002000
#define O_NONBLOCK 00004000
#define O_DSYNC 00010000
#define FASYNC 00020000
#define O_DIRECT 00040000
#define O_LARGEFILE 00100000
#define O_DIRECTORY 00200000
#define O_NOFOLLOW 00400000
#define O_NOATIME 01000000
#define O_CLOEXEC 02000000
#define O_SYNC 04010000
#define O_PATH 010000000
#define O_TMPFILE 020200000

/* The *at() calls' dirfd and flags. */
#define AT_FDCWD (-100)
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_EACCESS 0x200
#define AT_REMOVEDIR 0x200
#define AT_SYMLINK_FOLLOW 0x400
#define AT_NO_AUTOMOUNT 0x800
#define AT_EMPTY_PATH 0x1000

/* file->f_mode */
#define FMODE_READ 0x1
#define FMODE_WRITE 0x2
#define FMODE_LSEEK 0x4
#define FMODE_PREAD 0x8
#define FMODE_PWRITE 0x10
#define FMODE_EXEC 0x20
#define FMODE_PATH 0x4000	/* O_PATH: no I/O at all */

#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

/* Permission masks for inode_permission() (and access(2)'s R/W/X_OK). */
#define MAY_EXEC 0x1
#define MAY_WRITE 0x2
#define MAY_READ 0x4
#define MAY_APPEND 0x8
#define MAY_ACCESS 0x10
#define MAY_OPEN 0x20

/* super_block->s_flags and mount(2) flags. */
#define MS_RDONLY 1
#define MS_NOSUID 2
#define MS_NODEV 4
#define MS_NOEXEC 8
#define MS_SYNCHRONOUS 16
#define MS_REMOUNT 32
#define MS_NOATIME 1024
#define MS_BIND 4096
#define MS_MOVE 8192
#define MS_SILENT 32768
#define MS_ACTIVE (1 << 30)

#define MAX_LFS_FILESIZE LONG_MAX
#define NAME_MAX 255	/* bytes in one path component */
#define PATH_MAX 4096	/* bytes in a path, with its NUL */

/* ---- page cache: address_space ---------------------------------------- */

/*
 * What writeback asks of ->writepage (mm/page-writeback.c). WB_SYNC_ALL:
 * data integrity (sync, fsync, umount): every dirty page, and the caller
 * waits. WB_SYNC_NONE: memory cleaning (the flusher, reclaim): as many as
 * nr_to_write, skipping pages that would block.
 */
enum writeback_sync_modes { WB_SYNC_NONE, WB_SYNC_ALL };

struct writeback_control {
	enum writeback_sync_modes sync_mode;
	long nr_to_write;	/* pages left to write; decremented */
	bool for_reclaim;	/* called from page reclaim */
};

/*
 * How a file system moves a page cache page to and from its storage.
 * readpage: called with the page locked and not uptodate; reads it, sets
 *	PG_uptodate on success and unlocks the page in every case (the caller
 *	waits on the lock for the I/O). Returns 0 or -errno.
 * writepage: page locked and dirty; writes it, unlocks it. (unused by ramfs)
 * write_begin: prepare pos..pos+len (within one page) for a copy from the
 *	user: return in *pagep a locked, referenced page whose bytes outside
 *	the range are valid (read or zeroed). May allocate blocks, may fail.
 * write_end: after copying `copied` bytes (<= len, short on a fault):
 *	commit them (dirty the page, grow i_size), unlock and release the
 *	page. Returns the bytes committed or -errno.
 * set_page_dirty: mark a page dirty; returns true if it was clean.
 * releasepage: page locked, clean, PG_private set (buffer heads): drop
 *	the private data so reclaim can free the page; false when busy.
 * invalidatepage: page locked, PG_private set, being truncated from byte
 *	offset on (0: the whole page leaves the cache): forget the private
 *	data there (buffers past offset unmapped; all freed for offset 0).
 */
struct address_space_operations {
	int (*readpage)(struct file *file, struct page *page);
	/* Start reading nr new pages (locked, in the cache, in index
	 * order) and unlock each when it is read: read-ahead's batch
	 * (mm/readahead.c), so that neighbouring blocks go in one request.
	 * Optional: without it each page gets ->readpage. */
	void (*readpages)(struct file *file, struct address_space *mapping,
			  struct page **pages, unsigned int nr);
	int (*writepage)(struct page *page, struct writeback_control *wbc);
	int (*write_begin)(struct file *file, struct address_space *mapping,
			   loff_t pos, unsigned int len, unsigned int flags,
			   struct page **pagep, void **fsdata);
	int (*write_end)(struct file *file, struct address_space *mapping,
			 loff_t pos, unsigned int len, unsigned int copied,
			 struct page *page, void *fsdata);
	bool (*set_page_dirty)(struct page *page);
	bool (*releasepage)(struct page *page, unsigned int gfp);
	void (*invalidatepage)(struct page *page, unsigned long offset);
	/* The disk block holding file block `block`, 0 for a hole; never
	 * allocates (FIBMAP, pagemap). Optional. */
	sector_t (*bmap)(struct address_space *mapping, sector_t block);
};

struct address_space {
	struct inode *host;
	struct radix_tree_root page_tree;	/* index -> struct page */
	spinlock_t tree_lock;	/* protects page_tree and nrpages */
	unsigned long nrpages;
	const struct address_space_operations *a_ops;
	struct list_head i_mmap;	/* VMAs mapping this file (mm/rmap.c) */
	spinlock_t i_mmap_lock;	/* protects i_mmap */
	/* Attaching and freeing a page's buffers against set_page_dirty,
	 * which runs without the page lock (zap_pte, page_mkclean's
	 * callers): fs/buffer_page.c. */
	spinlock_t private_lock;
	unsigned long flags;	/* AS_* (error bits) */
	unsigned long nrdirty;	/* dirty pages (writeback-capable files) */
	pgoff_t writeback_index;	/* where cyclic writeback goes on */
	loff_t resize_from;	/* i_size when AS_RESIZING was set */
};

/* Does any VMA map the file? (A moment's answer: i_mmap_lock not held.) */
static inline bool mapping_mapped(struct address_space *mapping)
{
	return !list_empty(&mapping->i_mmap);
}

/* ---- attributes -------------------------------------------------------- */

#define ATTR_MODE (1 << 0)
#define ATTR_UID (1 << 1)
#define ATTR_GID (1 << 2)
#define ATTR_SIZE (1 << 3)
#define ATTR_ATIME (1 << 4)
#define ATTR_MTIME (1 << 5)
#define ATTR_CTIME (1 << 6)
#define ATTR_ATIME_SET (1 << 7)
#define ATTR_MTIME_SET (1 << 8)
#define ATTR_FORCE (1 << 9)	/* not a change: skip the permission checks */
#define ATTR_KILL_SUID (1 << 11)
#define ATTR_KILL_SGID (1 << 12)
#define ATTR_FILE (1 << 13)	/* ia_file is valid (ftruncate) */
#define ATTR_OPEN (1 << 15)	/* truncation from open(O_TRUNC) */
#define ATTR_TIMES_SET (1 << 16)	/* utimensat with explicit times */

/* What notify_change() is asked to change: the ia_valid bits say which. */
struct iattr {
	unsigned int ia_valid;
	umode_t ia_mode;
	uid_t ia_uid;
	gid_t ia_gid;
	loff_t ia_size;
	struct timespec64 ia_atime, ia_mtime, ia_ctime;
	struct file *ia_file;	/* with ATTR_FILE */
};

/* stat(2)'s answer, before it is laid out for user space (fs/stat.c). */
struct kstat {
	u64 ino;
	dev_t dev;
	umode_t mode;
	unsigned int nlink;
	uid_t uid;
	gid_t gid;
	dev_t rdev;
	loff_t size;
	struct timespec64 atime, mtime, ctime;
	unsigned long blksize;
	u64 blocks;	/* 512-byte units */
};

struct kstatfs {
	long f_type;
	long f_bsize;
	u64 f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	long f_namelen;
	long f_frsize;
	long f_flags;
};

/* ---- inode ------------------------------------------------------------ */

/* inode->i_state */
#define I_NEW 0x1	/* being filled by iget_locked's caller */
#define I_HASHED 0x2	/* findable by iget_locked: kept when unused */
#define I_FREEING 0x4
#define I_DIRTY_SYNC 0x8	/* inode fields changed: ->write_inode */
#define I_DIRTY_PAGES 0x10	/* the mapping has dirty pages */
#define I_DIRTY (I_DIRTY_SYNC | I_DIRTY_PAGES)
#define I_SYNC 0x20	/* being written back (writeback_single_inode) */

/*
 * Inode operations. Directory operations are called with the directory's
 * i_mutex held (rename: both directories'); the dentry passed in is
 * negative for create/mkdir/mknod/symlink/link and positive otherwise.
 * lookup: find name in dir; d_add() the inode (or NULL for "no such
 *	name") to the dentry and return NULL, or return an ERR_PTR.
 * get_link: the target of a symlink, as a kernel string valid while the
 *	caller holds the inode.
 * setattr: apply an iattr (notify_change calls it with i_mutex held); NULL
 *	means inode_change_ok + inode_setattr.
 * truncate / new_truncate: the two truncate sequences (doc/design.md).
 *	truncate is the old void hook, called after i_size changed;
 *	new_truncate set means the file system's setattr does the whole
 *	ATTR_SIZE change itself (through simple_setsize or its own setsize).
 */
struct inode_operations {
	struct dentry *(*lookup)(struct inode *dir, struct dentry *dentry,
				 unsigned int flags);
	int (*create)(struct inode *dir, struct dentry *dentry, umode_t mode,
		      bool excl);
	int (*link)(struct dentry *old, struct inode *dir, struct dentry *new);
	int (*unlink)(struct inode *dir, struct dentry *dentry);
	int (*symlink)(struct inode *dir, struct dentry *dentry,
		       const char *target);
	int (*mkdir)(struct inode *dir, struct dentry *dentry, umode_t mode);
	int (*rmdir)(struct inode *dir, struct dentry *dentry);
	int (*mknod)(struct inode *dir, struct dentry *dentry, umode_t mode,
		     dev_t dev);
	int (*rename)(struct inode *old_dir, struct dentry *old,
		      struct inode *new_dir, struct dentry *new);
	int (*readlink)(struct dentry *dentry, char *buf, int buflen);
	const char *(*get_link)(struct dentry *dentry, struct inode *inode);
	int (*permission)(struct inode *inode, int mask);
	int (*setattr)(struct dentry *dentry, struct iattr *attr);
	int (*getattr)(const struct path *path, struct kstat *stat);
	void (*truncate)(struct inode *inode);
	int new_truncate;
};

/* inode->i_flags: what the file system says about a file (ext2: chattr). */
#define S_APPEND 4	/* writes only at the end; no truncate, rename, unlink */
#define S_IMMUTABLE 8	/* no change at all, not even a new name */
#define IS_APPEND(inode) ((inode)->i_flags & S_APPEND)
#define IS_IMMUTABLE(inode) ((inode)->i_flags & S_IMMUTABLE)

struct inode {
	unsigned long i_ino;
	umode_t i_mode;
	uid_t i_uid;
	gid_t i_gid;
	unsigned int i_nlink;
	unsigned int i_dentries;	/* dentries bound to it (dcache_lock):
					 * a directory has at most one */
	dev_t i_rdev;
	loff_t i_size;	/* changes under i_mutex; read with i_size_read */
	blkcnt_t i_blocks;	/* 512-byte units */
	unsigned int i_blkbits;
	struct timespec64 i_atime, i_mtime, i_ctime;
	unsigned long i_state;	/* I_* */
	unsigned long i_flags;	/* S_APPEND, S_IMMUTABLE (from the fs) */
	int i_count;	/* references: dentries, open files, iget callers */
	int i_writecount;	/* >0: open for write; <0: deny_write_access */
	struct mutex i_mutex;
	const struct inode_operations *i_op;
	const struct file_operations *i_fop;
	struct super_block *i_sb;
	struct address_space *i_mapping;	/* &i_data, for all we have */
	struct address_space i_data;
	struct list_head i_sb_list;	/* on sb->s_inodes */
	struct list_head i_hash;	/* iget_locked's hash chain */
	unsigned long dirtied_when;	/* jiffies when it first became dirty */
	struct pipe_inode_info *i_pipe;	/* FIFOs and pipes */
	char *i_link;	/* symlink target in memory (ramfs): kmalloc'ed,
			 * kfree'd when the inode is evicted */
	void *i_private;	/* the file system's */
};

/*
 * i_state's bits change under inode_lock (fs/inode.c) and outside it
 * (marking dirty from a fault, writeback clearing them), on several CPUs:
 * every change is one atomic or/and, so none undoes another's.
 */
static inline void inode_state_set(struct inode *inode, unsigned long bits)
{
	__atomic_or_fetch(&inode->i_state, bits, __ATOMIC_SEQ_CST);
}

static inline void inode_state_clear(struct inode *inode, unsigned long bits)
{
	__atomic_and_fetch(&inode->i_state, ~bits, __ATOMIC_SEQ_CST);
}

static inline loff_t i_size_read(const struct inode *inode)
{
	return READ_ONCE(inode->i_size);
}

/* i_size_writes during a schedule explorer run (fs/inode.c). A plain
 * increment: the explorer runs on one CPU; and only during a run, so
 * that several CPUs writing sizes do not all write this one line. */
extern unsigned long i_size_changes;
extern bool explore_active;	/* kernel/sched/explore.c */

/* i_mutex held: the size only changes under it. */
static inline void i_size_write(struct inode *inode, loff_t size)
{
	WRITE_ONCE(inode->i_size, size);
	if (unlikely(explore_active))
		i_size_changes++;
}

/* ---- file ------------------------------------------------------------- */

/*
 * filldir: called by ->iterate for each entry; offset is the position
 * just past this entry (what getdents64 reports as d_off). Returns true to go on,
 * false when the caller's buffer is full (the entry was not taken, and
 * ctx->pos must stay on it).
 */
typedef bool (*filldir_t)(struct dir_context *ctx, const char *name,
			  int namelen, loff_t offset, u64 ino,
			  unsigned int d_type);

struct dir_context {
	filldir_t actor;
	loff_t pos;	/* the position of the next entry to emit */
};

/*
 * File operations. read_iter/write_iter are the main entries (the
 * iterator hides user vs kernel memory); read/write take a __user buffer
 * and are kept for Linux's shape (used when read_iter is NULL). pos is
 * the position to use and to advance (file->f_pos, or pread's offset).
 * iterate: list a directory from ctx->pos. open/release: first open and
 * last close. fsync: NULL means EINVAL. mmap: NULL until the mmap work.
 * poll: the EPOLL* events that hold now, after poll_wait() on the queues
 * that change them (<fs/poll.h>); NULL: always ready, and not epollable.
 */
typedef unsigned int __poll_t;
struct poll_table_struct;

struct file_operations {
	loff_t (*llseek)(struct file *file, loff_t offset, int whence);
	ssize_t (*read)(struct file *file, char __user *buf, size_t count,
			loff_t *pos);
	ssize_t (*write)(struct file *file, const char __user *buf,
			 size_t count, loff_t *pos);
	ssize_t (*read_iter)(struct file *file, struct iov_iter *to,
			     loff_t *pos);
	ssize_t (*write_iter)(struct file *file, struct iov_iter *from,
			      loff_t *pos);
	int (*iterate)(struct file *file, struct dir_context *ctx);
	long (*unlocked_ioctl)(struct file *file, unsigned int cmd,
			       unsigned long arg);
	int (*mmap)(struct file *file, struct vm_area_struct *vma);
	int (*fsync)(struct file *file, int datasync);
	int (*open)(struct inode *inode, struct file *file);
	int (*release)(struct inode *inode, struct file *file);
	__poll_t (*poll)(struct file *file, struct poll_table_struct *pt);
	/* fallocate(2), arguments checked (vfs_fallocate, fs/open.c);
	 * optional: without it the answer is EOPNOTSUPP. */
	long (*fallocate)(struct file *file, int mode, loff_t offset,
			  loff_t len);
};

/* A place in the tree: a dentry, and the mount it is seen through. */
struct path {
	struct vfsmount *mnt;
	struct dentry *dentry;
};

/*
 * Read-ahead state of an open file (mm/readahead.c): the window last read
 * ahead, [start, start + size), whose last async_size pages are still
 * ahead of the reader (the first of them has PG_readahead: reaching it
 * reads the next window), and the page read last, to tell a sequential
 * reader from a random one.
 */
struct file_ra_state {
	unsigned long start;
	unsigned int size, async_size;
	unsigned long prev_index;	/* + 1; 0: nothing read yet */
};

struct file {
	struct path f_path;
#define f_dentry f_path.dentry
#define f_vfsmnt f_path.mnt
	struct inode *f_inode;
	const struct file_operations *f_op;
	loff_t f_pos;
	unsigned int f_flags;	/* O_* as opened, less the open-only ones */
	fmode_t f_mode;	/* FMODE_* */
	int f_count;
	struct mutex f_pos_lock;	/* read/write/lseek on one file */
	void *private_data;	/* the driver's (tty, pipe, seq buffer) */
	unsigned int f_pipe;	/* FIFO read end opened with no writer: the
				 * w_counter then (fs/pipe.c, pipe_poll) */
	struct epitem *f_ep;	/* epoll registrations of this file (NULL:
				 * none), chained by epitem->fnext */
	struct file_ra_state f_ra;	/* read-ahead (mm/readahead.c) */
};

/* ---- super_block -------------------------------------------------------- */

/*
 * alloc_inode/destroy_inode: NULL means plain kzalloc/kfree of a struct
 * inode. evict_inode: the inode's last reference went away and it is
 * being dropped (nlink 0, or the sb is going down); the page cache is
 * already truncated. statfs fills a kstatfs. put_super at umount.
 */
struct super_operations {
	struct inode *(*alloc_inode)(struct super_block *sb);
	void (*destroy_inode)(struct inode *inode);
	int (*write_inode)(struct inode *inode, int sync);
	void (*evict_inode)(struct inode *inode);
	void (*put_super)(struct super_block *sb);
	int (*sync_fs)(struct super_block *sb, int wait);
	int (*statfs)(struct dentry *dentry, struct kstatfs *buf);
	int (*remount_fs)(struct super_block *sb, int *flags, char *data);
	/* Append ",opt=value..." to the mount's line in /proc/mounts. */
	int (*show_options)(struct seq_file *m, struct super_block *sb);
};

struct super_block {
	struct list_head s_list;	/* all super blocks */
	dev_t s_dev;
	struct block_device *s_bdev;	/* disk file systems: the device */
	int s_walkers;	/* iterate_supers callers inside; sb_lock */
	unsigned long s_blocksize;
	unsigned char s_blocksize_bits;
	loff_t s_maxbytes;	/* largest file size */
	unsigned long s_flags;	/* MS_RDONLY, MS_ACTIVE, ... */
	unsigned long s_magic;
	struct file_system_type *s_type;
	const struct super_operations *s_op;
	struct dentry *s_root;
	struct mutex s_vfs_rename_mutex;	/* cross-directory renames */
	struct list_head s_inodes;	/* every inode of this sb */
	int s_count;	/* mounts of this sb */
	unsigned long s_next_ino;	/* for file systems without numbers */
	void *s_fs_info;	/* the file system's */
};

static inline bool sb_rdonly(const struct super_block *sb)
{
	return sb->s_flags & MS_RDONLY;
}

/*
 * A file system type. mount returns the root dentry of a (new or
 * existing) super_block, referenced, or an ERR_PTR. kill_sb undoes it
 * when the last mount goes.
 */
/* file_system_type->fs_flags */
#define FS_NEG_DENTRIES 0x1	/* lookup misses stay cached (pagelab: Linux
				 * keeps them everywhere; a file system such
				 * as proc refuses with ->d_delete) */

struct file_system_type {
	const char *name;
	int fs_flags;
	struct dentry *(*mount)(struct file_system_type *type, int flags,
				const char *dev_name, void *data);
	void (*kill_sb)(struct super_block *sb);
	struct file_system_type *next;
};

/* ---- fs/super.c --------------------------------------------------------- */

/* 0, or -EBUSY if a type of that name exists. */
int register_filesystem(struct file_system_type *type);
struct file_system_type *get_fs_type(const char *name);
/*
 * A super block for a file system without a device: fill_super sets
 * s_op, s_root and the limits; returns the root dentry, referenced.
 */
struct dentry *mount_nodev(struct file_system_type *type, int flags,
			   void *data,
			   int (*fill_super)(struct super_block *, void *, int));
/* Drop every pinned dentry (ramfs keeps each one pinned), then the sb. */
void kill_litter_super(struct super_block *sb);
void generic_shutdown_super(struct super_block *sb);
void deactivate_super(struct super_block *sb);
/* Call fn for each live super block (sync(2), /proc/mounts). */
void iterate_supers(void (*fn)(struct super_block *, void *), void *arg);
/* The dcache pruned inode's last dentry: drop this reference, and if it
 * was the last, evict the inode now unless it has pages (Linux puts it on
 * the inode LRU for the inode shrinker instead). */
void iput_prune(struct inode *inode);
/* drop_caches 2: evict every unused, clean inode without pages; how many
 * went (fs/inode.c). */
unsigned long prune_icache(void);
dev_t get_anon_bdev(void);

/* ---- fs/inode.c ------------------------------------------------------- */

/* A fresh inode on sb: i_count 1, nlink 1, times now, on s_inodes. */
struct inode *new_inode(struct super_block *sb);
/*
 * The inode numbered ino on sb: found (referenced) among the hashed ones,
 * or a new one with I_NEW set that the caller fills and then passes to
 * unlock_new_inode(). NULL when out of memory.
 */
struct inode *iget_locked(struct super_block *sb, unsigned long ino);
void unlock_new_inode(struct inode *inode);
struct inode *igrab(struct inode *inode);
struct inode *sb_next_inode(struct super_block *sb, struct inode *pos,
			    bool (*wanted)(struct inode *, void *), void *arg);
void ihold(struct inode *inode);
/* Drop a reference; the last one of an unlinked (or unhashed) inode
 * truncates its page cache and frees it. May sleep. */
void iput(struct inode *inode);
void inode_init_owner(struct inode *inode, const struct inode *dir,
		      umode_t mode);
void mark_inode_dirty(struct inode *inode);
/* File block *block -> its disk block (0: a hole) through ->bmap; -EINVAL
 * when the file system has none (Linux's bmap()). */
int bmap(struct inode *inode, sector_t *block);
void __mark_inode_dirty(struct inode *inode, unsigned long flags);
void inc_nlink(struct inode *inode);
void drop_nlink(struct inode *inode);
void clear_nlink(struct inode *inode);
struct timespec64 current_time(struct inode *inode);
void file_update_time(struct file *file);
void touch_atime(struct file *file);
/* Evict every unused inode of sb (umount); returns how many stay busy. */
int evict_inodes(struct super_block *sb);

/* ---- fs/attr.c --------------------------------------------------------- */

/* May the caller make the changes in attr? 0 or -EPERM. Changes nothing. */
int inode_change_ok(const struct inode *inode, struct iattr *attr);
/*
 * May the file become offset bytes long? Checks RLIMIT_FSIZE (sending
 * SIGXFSZ) and s_maxbytes when growing: 0, -EFBIG or -EINVAL. Call before
 * changing anything (the new truncate sequence's first step).
 */
__traced int inode_newsize_ok(const struct inode *inode, loff_t offset);
/*
 * Should a change by the current task drop set-group-ID? ATTR_KILL_SGID
 * when group-executable, or of a group the caller is not in (and it is not
 * privileged); else 0. (chown asks it; should_remove_suid too.)
 */
unsigned int setattr_should_drop_sgid(const struct inode *inode);
/*
 * The ATTR_KILL_* bits a change of contents (truncate, write) by the
 * current task must pass: set-user-ID always, set-group-ID as above;
 * nothing for a privileged caller or a file that is not regular.
 */
unsigned int should_remove_suid(const struct inode *inode);
/* Apply attr to the in-memory inode (sizes through simple_setsize). */
__traced int inode_setattr(struct inode *inode, const struct iattr *attr);
/* Change attributes of dentry's inode; i_mutex held. 0 or -errno. */
__traced int notify_change(struct dentry *dentry, struct iattr *attr);

/* ---- fs/libfs.c --------------------------------------------------------- */

__traced int simple_setsize(struct inode *inode, loff_t newsize);
__traced int simple_setattr(struct dentry *dentry, struct iattr *attr);
int simple_getattr(const struct path *path, struct kstat *stat);
int simple_statfs(struct dentry *dentry, struct kstatfs *buf);
struct dentry *simple_lookup(struct inode *dir, struct dentry *dentry,
			     unsigned int flags);
int simple_link(struct dentry *old, struct inode *dir, struct dentry *new);
int simple_unlink(struct inode *dir, struct dentry *dentry);
int simple_rmdir(struct inode *dir, struct dentry *dentry);
int simple_rename(struct inode *old_dir, struct dentry *old,
		  struct inode *new_dir, struct dentry *new);
/* True when dentry (a directory) has no positive children. */
bool simple_empty(struct dentry *dentry);
int simple_readpage(struct file *file, struct page *page);
int simple_write_begin(struct file *file, struct address_space *mapping,
		       loff_t pos, unsigned int len, unsigned int flags,
		       struct page **pagep, void **fsdata);
int simple_write_end(struct file *file, struct address_space *mapping,
		     loff_t pos, unsigned int len, unsigned int copied,
		     struct page *page, void *fsdata);
const char *simple_get_link(struct dentry *dentry, struct inode *inode);
/* "." and ".." for a readdir at positions 0 and 1; false: buffer full. */
bool dir_emit_dots(struct file *file, struct dir_context *ctx);
int noop_fsync(struct file *file, int datasync);
int dcache_dir_open(struct inode *inode, struct file *file);
int dcache_dir_close(struct inode *inode, struct file *file);
loff_t dcache_dir_lseek(struct file *file, loff_t offset, int whence);
int dcache_readdir(struct file *file, struct dir_context *ctx);
ssize_t generic_read_dir(struct file *file, struct iov_iter *to, loff_t *pos);
extern const struct file_operations simple_dir_operations;
extern const struct inode_operations simple_dir_inode_operations;
extern const struct inode_operations simple_symlink_inode_operations;

/* ---- fs/read_write.c ---------------------------------------------------- */

loff_t generic_file_llseek(struct file *file, loff_t offset, int whence);
loff_t no_llseek(struct file *file, loff_t offset, int whence);
loff_t vfs_llseek(struct file *file, loff_t offset, int whence);
/* read(2)/write(2) on an open file: buf is a user pointer. */
ssize_t vfs_read(struct file *file, char __user *buf, size_t count,
		 loff_t *pos);
ssize_t vfs_write(struct file *file, const char __user *buf, size_t count,
		  loff_t *pos);
/* The same through an iterator (readv, kernel buffers). */
ssize_t vfs_iter_read(struct file *file, struct iov_iter *iter, loff_t *pos);
ssize_t vfs_iter_write(struct file *file, struct iov_iter *iter, loff_t *pos);
/* Read/write with a kernel buffer (exec, initramfs, self-tests). */
ssize_t kernel_read(struct file *file, void *buf, size_t count, loff_t *pos);
ssize_t kernel_write(struct file *file, const void *buf, size_t count,
		     loff_t *pos);

/* ---- fs/open.c ------------------------------------------------------- */

/*
 * Open a path (kernel string) relative to dfd; returns a referenced file
 * or an ERR_PTR. flags are open(2)'s; mode is used with O_CREAT and has
 * the umask applied here.
 */
struct file *do_filp_open(int dfd, const char *pathname, int flags,
			  umode_t mode);
struct file *filp_open(const char *pathname, int flags, umode_t mode);
/* Open an already looked-up path (takes its own references). */
struct file *dentry_open(const struct path *path, int flags);
/* Drop an fd's file (close(2) after the fd is gone); 0 (no ->flush yet). */
int filp_close(struct file *file);
/* open(2) with a kernel path; installs the file in current->files.
 * Returns the fd or -errno. */
int ksys_open(const char *pathname, int flags, umode_t mode);
long do_sys_open(int dfd, const char *pathname, int flags, umode_t mode);
/*
 * Open a regular file for execve: ERR_PTR(-ENOENT, -EACCES (not a regular
 * file, no x bit, noexec mount), ...). Unlike Linux's open_exec it does
 * not deny writes itself: exec calls deny_write_access(file) (-ETXTBSY
 * while the file is open for writing) and allow_write_access(file) once
 * the image is no longer in use, before the final fput.
 */
struct file *open_exec(const char *pathname);
/* i_mutex taken here: size to length, through notify_change. */
__traced int do_truncate(struct dentry *dentry, loff_t length,
			 unsigned int time_attrs, struct file *filp);
__traced long do_sys_truncate(const char *pathname, loff_t length);
__traced long do_sys_ftruncate(unsigned int fd, loff_t length);
long do_faccessat(int dfd, const char *pathname, int mode, int flags);
long do_fchmodat(int dfd, const char *pathname, umode_t mode);
long do_fchownat(int dfd, const char *pathname, uid_t user, gid_t group,
		 int flag);
int chmod_common(const struct path *path, umode_t mode);
int chown_common(const struct path *path, uid_t user, gid_t group);
long ksys_chdir(const char *pathname);

/*
 * Write access bookkeeping: i_writecount > 0 counts writers (opens for
 * write, truncate in progress), < 0 counts deniers (running executables).
 * get_write_access fails with -ETXTBSY while writes are denied;
 * deny_write_access fails with -ETXTBSY while someone writes.
 */
int get_write_access(struct inode *inode);
void put_write_access(struct inode *inode);
int deny_write_access(struct file *file);
void allow_write_access(struct file *file);

/* ---- fs/stat.c --------------------------------------------------------- */

void generic_fillattr(struct inode *inode, struct kstat *stat);
int vfs_getattr(const struct path *path, struct kstat *stat);
int vfs_fstat(unsigned int fd, struct kstat *stat);
/* flags: AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH. */
int vfs_fstatat(int dfd, const char *pathname, struct kstat *stat, int flags);
/* Copy the target of a symlink into a kernel buffer, unterminated;
 * returns its length (at most buflen) or -errno (EINVAL: not a link). */
int vfs_readlink(struct dentry *dentry, char *buf, int buflen);
long do_readlinkat(int dfd, const char *pathname, char *buf, int bufsiz);

/* ---- fs/readdir.c ------------------------------------------------------- */

int iterate_dir(struct file *file, struct dir_context *ctx);
/* getdents64 into a kernel buffer: bytes filled, 0 at the end, -errno
 * (-EINVAL: buffer too small for the next entry). */
long vfs_getdents64(struct file *file, void *buf, unsigned int count);

/* ---- fs/statfs.c, fs/sync.c, fs/utimes.c -------------------------------- */

int vfs_statfs(const struct path *path, struct kstatfs *buf);
int vfs_fsync(struct file *file, int datasync);
void ksys_sync(void);
/* times == NULL: now. UTIME_NOW/UTIME_OMIT in tv_nsec as utimensat(2). */
long do_utimes(int dfd, const char *pathname, struct timespec64 *times,
	       int flags);
#define UTIME_NOW ((1L << 30) - 1L)
#define UTIME_OMIT ((1L << 30) - 2L)

/* ---- fs/char_dev.c ------------------------------------------------------ */

/* Give major (all 256 minors) to fops; open() of such a node calls
 * fops->open. 0 or -EBUSY/-EINVAL. */
int register_chrdev(unsigned int major, const char *name,
		    const struct file_operations *fops);
void unregister_chrdev(unsigned int major, const char *name);
/* Set up a device, FIFO or socket inode: i_fop and i_rdev. */
void init_special_inode(struct inode *inode, umode_t mode, dev_t rdev);
extern const struct file_operations def_chr_fops;
/* drivers/char/mem.c: register /dev/null and /dev/zero's major (1). */
int chr_dev_init(void);

/* ---- fs/init.c ---------------------------------------------------------- */

/*
 * Mount ramfs as /, give init_task its fs_struct (root, cwd, umask 022)
 * and files_struct, unpack the boot modules that are cpio archives, create
 * /dev (console, tty, null, zero), /proc and /tmp where missing, and open
 * /dev/console as init_task's fds 0-2 (inherited by pid 1). Call it from
 * start_kernel after sched_init (and after tty_init, for the console),
 * before start_init. Idempotent: the self-tests call it too.
 */
void vfs_init(void);

#endif
