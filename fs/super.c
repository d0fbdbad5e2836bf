/*
 * fs/super.c: file system types and super blocks.
 *
 * A file system registers a file_system_type; mounting one calls its
 * ->mount, which builds (or finds) a super_block and returns its root
 * dentry. mount_nodev is the helper for file systems with no device
 * (ramfs, proc). A super block lives while some vfsmount uses it
 * (s_count); the last one calls ->kill_sb, which for ramfs is
 * kill_litter_super: unpin every dentry, then generic_shutdown_super frees
 * the dcache, the inodes and the super block.
 */
#include <fs/dcache.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/wait.h>
#include <mm/slab.h>

static struct file_system_type *file_systems;
static LIST_HEAD(super_blocks);
static DEFINE_SPINLOCK(sb_lock);
static DECLARE_WAIT_QUEUE_HEAD(sb_walkers_wait);

int register_filesystem(struct file_system_type *type)
{
	struct file_system_type **p;

	for (p = &file_systems; *p; p = &(*p)->next)
		if (!strcmp((*p)->name, type->name))
			return (*p == type) ? 0 : -EBUSY;
	type->next = NULL;
	*p = type;
	return 0;
}

struct file_system_type *get_fs_type(const char *name)
{
	struct file_system_type *t;

	for (t = file_systems; t; t = t->next)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

dev_t get_anon_bdev(void)
{
	static unsigned int next_minor;

	return MKDEV(0, __atomic_add_fetch(&next_minor, 1, __ATOMIC_RELAXED));
}

static struct super_block *alloc_super(struct file_system_type *type,
				       int flags)
{
	struct super_block *sb = kzalloc(sizeof(*sb), GFP_KERNEL);

	if (!sb)
		return NULL;
	INIT_LIST_HEAD(&sb->s_inodes);
	mutex_init(&sb->s_vfs_rename_mutex);
	sb->s_type = type;
	sb->s_flags = flags;
	sb->s_blocksize = 4096;
	sb->s_blocksize_bits = 12;
	sb->s_maxbytes = MAX_LFS_FILESIZE;
	sb->s_dev = get_anon_bdev();
	spin_lock(&sb_lock);
	list_add_tail(&sb->s_list, &super_blocks);
	spin_unlock(&sb_lock);
	return sb;
}

struct dentry *mount_nodev(struct file_system_type *type, int flags,
			   void *data,
			   int (*fill_super)(struct super_block *, void *, int))
{
	struct super_block *sb = alloc_super(type, flags);
	int err;

	if (!sb)
		return ERR_PTR(-ENOMEM);
	err = fill_super(sb, data, flags & MS_SILENT ? 1 : 0);
	if (err) {
		generic_shutdown_super(sb);
		return ERR_PTR(err);
	}
	sb->s_flags |= MS_ACTIVE;
	return dget(sb->s_root);
}

void generic_shutdown_super(struct super_block *sb)
{
	int busy;

	/* Without MS_ACTIVE, iput drops inodes at their last reference
	 * instead of keeping them cached. */
	sb->s_flags &= ~MS_ACTIVE;
	if (sb->s_root) {
		shrink_dcache_parent(sb->s_root);
		dput(sb->s_root);
		sb->s_root = NULL;
	}
	/* iterate_supers callers (sync, the flusher) may be asleep inside
	 * this super block: let them leave before anything is freed. */
	wait_event(sb_walkers_wait, READ_ONCE(sb->s_walkers) == 0);
	busy = evict_inodes(sb);
	if (busy)
		pr_err("VFS: %s: %d busy inodes after unmount\n",
		       sb->s_type->name, busy);
	if (sb->s_op && sb->s_op->put_super)
		sb->s_op->put_super(sb);
	spin_lock(&sb_lock);
	list_del(&sb->s_list);
	spin_unlock(&sb_lock);
	kfree(sb);
}

void kill_litter_super(struct super_block *sb)
{
	if (sb->s_root)
		d_genocide(sb->s_root);
	generic_shutdown_super(sb);
}

/* A mount went away; the last one shuts the super block down. */
void deactivate_super(struct super_block *sb)
{
	if (--sb->s_count == 0)
		sb->s_type->kill_sb(sb);
}

static void put_walker(struct super_block *sb)
{
	spin_lock(&sb_lock);
	sb->s_walkers--;
	spin_unlock(&sb_lock);
	wake_up(&sb_walkers_wait);
}

/*
 * Call fn on every active super block. fn may sleep: each super block is
 * pinned (s_walkers) while fn runs and until the walk has moved past it,
 * so an umount meanwhile waits instead of freeing it under us.
 */
void iterate_supers(void (*fn)(struct super_block *, void *), void *arg)
{
	struct super_block *sb, *prev = NULL;

	spin_lock(&sb_lock);
	list_for_each_entry(sb, &super_blocks, s_list) {
		if (!(sb->s_flags & MS_ACTIVE))
			continue;
		sb->s_walkers++;
		spin_unlock(&sb_lock);
		if (prev)
			put_walker(prev);
		fn(sb, arg);
		prev = sb;	/* pinned: its s_list stays valid */
		spin_lock(&sb_lock);
	}
	spin_unlock(&sb_lock);
	if (prev)
		put_walker(prev);
}
