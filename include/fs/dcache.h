/*
 * The dentry cache (fs/dcache.c): names in directories.
 *
 * A dentry ties a name to an inode (or to nothing: a negative dentry,
 * d_inode == NULL, caches "no such file"). Dentries form a tree through
 * d_parent and d_subdirs/d_child; a hash of (parent, name) finds a child
 * without asking the file system. ramfs has no other record of its
 * directories: its dentries are pinned (one extra d_count each) and are the
 * directory contents.
 *
 * Lifetime: d_count counts users (path walks, open files, cwd, children
 * hold their parent). When it drops to zero a dentry stays cached if it is
 * hashed and positive, or negative on a file system that caches misses
 * (FS_NEG_DENTRIES), on the LRU of unused dentries; otherwise it is
 * freed. The LRU is pruned oldest first: by reclaim (negative dentries,
 * which hold no inode), past a limit that grows with RAM, by
 * drop_caches 2 and at umount. dcache_lock protects the hash, the tree
 * links, d_count and the LRU.
 */
#ifndef _FS_DCACHE_H
#define _FS_DCACHE_H

#include <fs/fs.h>

struct qstr {
	const char *name;
	unsigned int len;
	unsigned int hash;
};

#define QSTR_INIT(n, l) { .name = (n), .len = (l) }
#define DNAME_INLINE_LEN 40

/* dentry->d_flags */
#define DCACHE_HASHED 0x1	/* findable by d_lookup */
#define DCACHE_CURSOR 0x2	/* a readdir position marker, not a name */
#define DCACHE_DISCONNECTED 0x4	/* pseudo dentry: pipes, no parent */

struct dentry {
	int d_count;
	unsigned int d_flags;
	struct inode *d_inode;	/* NULL: negative */
	struct dentry *d_parent;	/* itself at a file system's root */
	struct qstr d_name;
	struct list_head d_hash;	/* hash chain */
	struct list_head d_child;	/* on the parent's d_subdirs */
	struct list_head d_subdirs;	/* children, cursors included */
	struct list_head d_lru;	/* unused and cached: on the dcache's LRU */
	int d_mounted;	/* how many mounts sit on this dentry */
	struct super_block *d_sb;
	void *d_fsdata;
	char d_iname[DNAME_INLINE_LEN];	/* short names live here */
};

extern spinlock_t dcache_lock;

unsigned int full_name_hash(const char *name, unsigned int len);

/* A new negative child of parent named name (copied), d_count 1. */
struct dentry *d_alloc(struct dentry *parent, const struct qstr *name);
/* A file system's root dentry for inode (which it consumes). */
struct dentry *d_make_root(struct inode *inode);
/* A dentry with no parent and no hash: pipes and other pseudo files. */
struct dentry *d_alloc_pseudo(struct super_block *sb, const struct qstr *name);
/* Attach inode to a negative dentry (consumes the inode reference). */
void d_instantiate(struct dentry *dentry, struct inode *inode);
/* d_instantiate and hash: lookup's way to answer. */
void d_add(struct dentry *dentry, struct inode *inode);
/* d_add for a lookup that found inode on disk, refusing a second name for
 * a directory (a damaged disk's hard link to one): the walk would loop.
 * Returns NULL, or ERR_PTR(-ELOOP) having dropped inode. */
struct dentry *d_splice_alias(struct inode *inode, struct dentry *dentry);
void d_rehash(struct dentry *dentry);
void d_drop(struct dentry *dentry);
/* The child of parent named name, referenced, or NULL. */
struct dentry *d_lookup(struct dentry *parent, const struct qstr *name);
/* After unlink/rmdir: make dentry negative if unused, else unhash it. */
void d_delete(struct dentry *dentry);
/* Rename: dentry takes target's name and parent; target is unhashed. */
void d_move(struct dentry *dentry, struct dentry *target);
struct dentry *dget(struct dentry *dentry);
struct dentry *dget_parent(struct dentry *dentry);
void dput(struct dentry *dentry);
/* Free the cached unused dentries below root (umount, rmdir). */
void shrink_dcache_parent(struct dentry *root);
/* Free up to nr unused dentries, oldest first (drop_caches 2): how many
 * went. May call iput. */
unsigned long prune_dcache(unsigned long nr);
/* Reclaim's share: free up to nr unused negative dentries, which hold no
 * inode (nothing reaches a file system); how many went. */
unsigned long prune_dcache_negative(unsigned long nr);
struct seq_file;
/* /proc/sys/fs/dentry-state, as Linux: nr_dentry nr_unused age_limit
 * want_pages nr_negative dummy. */
int dentry_state_show(struct seq_file *m, void *v);
/* Drop the pin of every positive dentry below root (ramfs umount). */
void d_genocide(struct dentry *root);
/* Is p an ancestor of (or equal to) d? dcache_lock is taken here. */
bool is_subdir(struct dentry *d, struct dentry *p);

static inline bool d_unhashed(const struct dentry *dentry)
{
	return !(dentry->d_flags & DCACHE_HASHED);
}

static inline bool d_is_root(const struct dentry *dentry)
{
	return dentry->d_parent == dentry;
}

static inline bool d_mountpoint(const struct dentry *dentry)
{
	return dentry->d_mounted > 0;
}

/*
 * The path of path from root, "/a/b", written at the end of buf. Returns
 * a pointer into buf, or ERR_PTR(-ENAMETOOLONG), or ERR_PTR(-ENOENT) for
 * an unlinked path (getcwd's rules).
 */
char *d_path(const struct path *path, const struct path *root, char *buf,
	     int buflen);

#endif
