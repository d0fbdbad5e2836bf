/*
 * fs/inode.c: inode life cycle.
 *
 * An inode is born in new_inode() (or iget_locked() for file systems that
 * number their inodes on disk) with one reference, lives while anyone
 * holds a reference (dentries, open files), and dies in iput() when the
 * last reference goes and it has no reason to stay cached: it has no links
 * left, or nobody can find it again (not hashed). Dying means: drop its
 * page cache (truncate_inode_pages), let the file system free what it
 * owns (->evict_inode: blocks, the symlink body), then free the memory.
 *
 * inode_lock protects i_count, the per-sb lists, the hash, and the
 * decisions taken on i_state (I_FREEING, I_NEW); i_state's bits themselves
 * change by atomic or/and (inode_state_set/clear), since marking dirty and
 * writeback change them without the lock.
 * The hash (sb, ino) -> inode is what iget_locked searches: a walk of
 * sb->s_inodes would cost in proportion to the inodes cached.
 */
#include <fs/fs.h>
#include <fs/pipe_fs_i.h>
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <mm/filemap.h>
#include <mm/slab.h>

static DEFINE_SPINLOCK(inode_lock);

/* Bumped by every i_size_write: the explorer asks whether a size changed
 * between two moments of a fault (kernel/sched/explore.c). */
unsigned long i_size_changes;

#define I_HASHBITS 12
static struct list_head inode_hashtable[1 << I_HASHBITS];

/* inode_lock held. */
static struct list_head *inode_hash(struct super_block *sb, unsigned long ino)
{
	static bool ready;
	unsigned long h = ino + ((unsigned long)sb >> 4);

	if (unlikely(!ready)) {
		for (size_t i = 0; i < ARRAY_SIZE(inode_hashtable); i++)
			INIT_LIST_HEAD(&inode_hashtable[i]);
		ready = true;
	}
	return &inode_hashtable[(h * 0x9e3779b97f4a7c15UL) >> (64 - I_HASHBITS)];
}

/*
 * No battery-backed clock is read yet: timestamps count from boot, as
 * seconds after the epoch. A real-time clock source replaces this.
 */
struct timespec64 current_time(struct inode *inode)
{
	u64 ns = ktime_get_real_ns();

	return (struct timespec64){ ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };
}

static const struct address_space_operations empty_aops;

static void destroy_inode(struct inode *inode)
{
	if (inode->i_sb->s_op && inode->i_sb->s_op->destroy_inode)
		inode->i_sb->s_op->destroy_inode(inode);
	else
		kfree(inode);
}

static struct inode *alloc_inode(struct super_block *sb)
{
	struct inode *inode;
	struct timespec64 now;

	inode = sb->s_op && sb->s_op->alloc_inode ? sb->s_op->alloc_inode(sb)
						  : kzalloc(sizeof(*inode),
							    GFP_KERNEL);
	if (!inode)
		return NULL;
	inode->i_sb = sb;
	inode->i_count = 1;
	inode->i_nlink = 1;
	inode->i_blkbits = sb->s_blocksize_bits;
	mutex_init(&inode->i_mutex);
	address_space_init_once(&inode->i_data, inode);
	inode->i_data.a_ops = &empty_aops;
	inode->i_mapping = &inode->i_data;
	INIT_LIST_HEAD(&inode->i_sb_list);
	INIT_LIST_HEAD(&inode->i_hash);
	now = current_time(inode);
	inode->i_atime = inode->i_mtime = inode->i_ctime = now;
	return inode;
}

struct inode *new_inode(struct super_block *sb)
{
	struct inode *inode = alloc_inode(sb);
	unsigned long flags;

	if (!inode)
		return NULL;
	spin_lock_irqsave(&inode_lock, flags);
	inode->i_ino = ++sb->s_next_ino;
	list_add(&inode->i_sb_list, &sb->s_inodes);
	spin_unlock_irqrestore(&inode_lock, flags);
	return inode;
}

struct inode *iget_locked(struct super_block *sb, unsigned long ino)
{
	struct inode *inode, *fresh;
	unsigned long flags;

	fresh = alloc_inode(sb);	/* may sleep: before the lock */
	spin_lock_irqsave(&inode_lock, flags);
	list_for_each_entry(inode, inode_hash(sb, ino), i_hash) {
		if (inode->i_ino != ino || inode->i_sb != sb ||
		    !(inode->i_state & I_HASHED) ||
		    (inode->i_state & I_FREEING))
			continue;
		inode->i_count++;
		spin_unlock_irqrestore(&inode_lock, flags);
		if (fresh)
			destroy_inode(fresh);
		return inode;
	}
	if (fresh) {
		fresh->i_ino = ino;
		fresh->i_state = I_NEW | I_HASHED;
		list_add(&fresh->i_sb_list, &sb->s_inodes);
		list_add(&fresh->i_hash, inode_hash(sb, ino));
	}
	spin_unlock_irqrestore(&inode_lock, flags);
	return fresh;
}

void unlock_new_inode(struct inode *inode)
{
	inode_state_clear(inode, I_NEW);
}

void ihold(struct inode *inode)
{
	unsigned long flags;

	spin_lock_irqsave(&inode_lock, flags);
	BUG_ON(inode->i_count <= 0);
	inode->i_count++;
	spin_unlock_irqrestore(&inode_lock, flags);
}

/*
 * A reference to an inode found on a list (writeback walks sb->s_inodes):
 * unused cached inodes (count 0) are fine, ones being freed are not.
 */
struct inode *igrab(struct inode *inode)
{
	unsigned long flags;

	spin_lock_irqsave(&inode_lock, flags);
	if (inode->i_state & I_FREEING)
		inode = NULL;
	else
		inode->i_count++;
	spin_unlock_irqrestore(&inode_lock, flags);
	return inode;
}

/*
 * Walk sb's inodes without holding inode_lock across the work: returns
 * the next inode after pos (pinned by the caller, or NULL to start) for
 * which wanted(inode, arg) holds, with a reference taken; NULL at the
 * end. The caller iputs each one when done with it. An unpinned inode
 * may be freed the moment the lock is dropped, so its list link is only
 * followed under the lock.
 */
struct inode *sb_next_inode(struct super_block *sb, struct inode *pos,
			    bool (*wanted)(struct inode *, void *), void *arg)
{
	struct list_head *l = pos ? pos->i_sb_list.next : sb->s_inodes.next;
	struct inode *inode, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&inode_lock, flags);
	for (; l != &sb->s_inodes; l = l->next) {
		inode = list_entry(l, struct inode, i_sb_list);
		if (!(inode->i_state & (I_NEW | I_FREEING)) &&
		    wanted(inode, arg)) {
			inode->i_count++;
			found = inode;
			break;
		}
	}
	spin_unlock_irqrestore(&inode_lock, flags);
	return found;
}

/* The last reference is gone and the inode will not be kept: free it. */
static void evict(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;
	unsigned long flags;

	truncate_inode_pages(&inode->i_data, 0);
	if (sb->s_op && sb->s_op->evict_inode)
		sb->s_op->evict_inode(inode);
	if (inode->i_pipe)
		free_pipe_info(inode->i_pipe);
	kfree(inode->i_link);
	spin_lock_irqsave(&inode_lock, flags);
	list_del(&inode->i_sb_list);
	list_del_init(&inode->i_hash);
	spin_unlock_irqrestore(&inode_lock, flags);
	destroy_inode(inode);
}

void iput(struct inode *inode)
{
	unsigned long flags;
	bool drop;

	if (!inode)
		return;
	spin_lock_irqsave(&inode_lock, flags);
	BUG_ON(inode->i_count <= 0);
	if (--inode->i_count) {
		spin_unlock_irqrestore(&inode_lock, flags);
		return;
	}
	/* Linux's generic_drop_inode: keep it only if it can be found and
	 * still names a file (a disk file system's inode cache). */
	drop = !inode->i_nlink || !(inode->i_state & I_HASHED) ||
	       !(inode->i_sb->s_flags & MS_ACTIVE);
	if (drop)
		inode_state_set(inode, I_FREEING);
	spin_unlock_irqrestore(&inode_lock, flags);
	if (drop)
		evict(inode);
	else if (inode->i_sb->s_op && inode->i_sb->s_op->write_inode)
		inode->i_sb->s_op->write_inode(inode, 0);
}

void iput_prune(struct inode *inode)
{
	unsigned long flags;

	spin_lock_irqsave(&inode_lock, flags);
	if (inode->i_count == 1 && !inode->i_dentries &&
	    !inode->i_data.nrpages &&
	    !(inode->i_state & (I_DIRTY_PAGES | I_NEW | I_FREEING))) {
		inode->i_count = 0;
		inode_state_set(inode, I_FREEING);
		spin_unlock_irqrestore(&inode_lock, flags);
		evict(inode);	/* ->evict_inode writes it if it must */
		return;
	}
	spin_unlock_irqrestore(&inode_lock, flags);
	iput(inode);
}

int evict_inodes(struct super_block *sb)
{
	struct inode *inode, *next;
	unsigned long flags;
	int busy = 0;

again:
	spin_lock_irqsave(&inode_lock, flags);
	list_for_each_entry_safe(inode, next, &sb->s_inodes, i_sb_list) {
		if (inode->i_state & I_FREEING)
			continue;
		if (inode->i_count) {
			busy++;
			continue;
		}
		inode_state_set(inode, I_FREEING);
		spin_unlock_irqrestore(&inode_lock, flags);
		evict(inode);	/* may sleep: the list may change */
		busy = 0;
		goto again;
	}
	spin_unlock_irqrestore(&inode_lock, flags);
	return busy;
}

/* Evict the unused inodes of sb that hold nothing worth keeping: clean,
 * no page cache (drop their pages first, drop_caches 1). */
static void prune_icache_sb(struct super_block *sb, void *count)
{
	struct inode *inode, *next;
	unsigned long flags;

again:
	spin_lock_irqsave(&inode_lock, flags);
	list_for_each_entry_safe(inode, next, &sb->s_inodes, i_sb_list) {
		if (inode->i_count || (inode->i_state & (I_FREEING | I_NEW |
							 I_DIRTY)) ||
		    inode->i_data.nrpages || inode->i_dentries)
			continue;
		inode_state_set(inode, I_FREEING);
		spin_unlock_irqrestore(&inode_lock, flags);
		evict(inode);	/* may sleep: the list may change */
		(*(unsigned long *)count)++;
		goto again;
	}
	spin_unlock_irqrestore(&inode_lock, flags);
}

unsigned long prune_icache(void)
{
	unsigned long count = 0;

	iterate_supers(prune_icache_sb, &count);
	return count;
}

void inode_init_owner(struct inode *inode, const struct inode *dir,
		      umode_t mode)
{
	inode->i_uid = current->cred.fsuid;
	if (dir && (dir->i_mode & S_ISGID)) {
		/* BSD group semantics in setgid directories, as Linux. */
		inode->i_gid = dir->i_gid;
		if (S_ISDIR(mode))
			mode |= S_ISGID;
	} else {
		inode->i_gid = current->cred.fsgid;
	}
	inode->i_mode = mode;
}

/* No inode is written anywhere yet; ext2 will hook ->write_inode. */
/*
 * Note that inode (I_DIRTY_SYNC: its fields) or its pages (I_DIRTY_PAGES)
 * need writing back; writeback (mm/page-writeback.c) finds dirty inodes
 * on their super block's s_inodes and writes the oldest first.
 */
void __mark_inode_dirty(struct inode *inode, unsigned long flags)
{
	if (!(inode->i_state & I_DIRTY))
		inode->dirtied_when = jiffies;
	inode_state_set(inode, flags);
}

void mark_inode_dirty(struct inode *inode)
{
	__mark_inode_dirty(inode, I_DIRTY_SYNC);
}

void inc_nlink(struct inode *inode)
{
	inode->i_nlink++;
}

void drop_nlink(struct inode *inode)
{
	WARN_ON(inode->i_nlink == 0);
	if (inode->i_nlink)
		inode->i_nlink--;
}

void clear_nlink(struct inode *inode)
{
	inode->i_nlink = 0;
}

void file_update_time(struct file *file)
{
	struct inode *inode = file->f_inode;

	inode->i_mtime = inode->i_ctime = current_time(inode);
	mark_inode_dirty(inode);
}

/* Reads update atime unless mounted noatime or opened O_NOATIME. */
void touch_atime(struct file *file)
{
	struct inode *inode = file->f_inode;

	if ((file->f_flags & O_NOATIME) || (inode->i_sb->s_flags &
					    (MS_NOATIME | MS_RDONLY)))
		return;
	inode->i_atime = current_time(inode);
}

int bmap(struct inode *inode, sector_t *block)
{
	const struct address_space_operations *a_ops = inode->i_mapping ?
		inode->i_mapping->a_ops : NULL;

	if (!a_ops || !a_ops->bmap)
		return -EINVAL;
	*block = a_ops->bmap(inode->i_mapping, *block);
	return 0;
}
