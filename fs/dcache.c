/*
 * fs/dcache.c: the dentry cache.
 *
 * Roadmap: allocation (d_alloc: a negative child of a parent; d_make_root;
 * d_alloc_pseudo), binding to inodes (d_instantiate, d_add), the hash that
 * finds (parent, name) pairs (d_lookup, d_rehash, d_drop), reference
 * counting (dget, dput: a dentry whose count drops to zero stays cached,
 * on the LRU, if it is hashed and positive, or negative where the file
 * system caches misses; it is freed otherwise, releasing its inode and
 * its parent), changes of name (d_delete after unlink, d_move after
 * rename), pruning the LRU (prune_dcache, prune_dcache_negative, the
 * limit), and whole-tree walks (shrink_dcache_parent at umount, d_path).
 *
 * Negative dentries: a lookup that finds nothing leaves a hashed negative
 * dentry, so the next lookup of that name (a stat of a missing file, a
 * PATH search) costs a hash probe instead of a directory scan. Every way
 * a name comes into being (create, mkdir, mknod, symlink, link, rename)
 * starts with a lookup of it, which returns that same dentry, and the
 * operation instantiates it (or d_move replaces it): a cached miss cannot
 * outlive the name's creation. rmdir frees the dead directory's cached
 * children (they would keep its inode).
 *
 * dcache_lock (one lock for everything, as Linux had until 2.6.38)
 * protects the hash chains, d_subdirs/d_child, d_count, d_flags, the LRU
 * and the names. It is never held while calling a file system or iput().
 */
#include <fs/dcache.h>
#include <fs/mount.h>
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <fs/proc_fs.h>
#include <mm/gfp.h>
#include <mm/slab.h>

DEFINE_SPINLOCK(dcache_lock);

#define D_HASHBITS 13	/* 8192 chains: a few dentries each at 20,000 */
static struct list_head dentry_hashtable[1 << D_HASHBITS];

/* Unused cached dentries, newest first; counts for dentry-state. */
static LIST_HEAD(dentry_lru);
static unsigned long nr_dentry, nr_unused, nr_negative;
static bool pruning;	/* dput's own pruning is under way */

/* More unused dentries than this, and dput prunes the oldest (and their
 * inodes): one per page of RAM, for a dentry, its inode and its share of
 * an inode-table block take more than a kilobyte. */
static unsigned long dcache_limit(void)
{
	return max(1024UL, totalram_pages);
}

/* FNV-1a: good enough spread for short names, and a few lines long. */
unsigned int full_name_hash(const char *name, unsigned int len)
{
	unsigned int h = 2166136261u;

	while (len--)
		h = (h ^ (unsigned char)*name++) * 16777619u;
	return h;
}

static struct list_head *d_hash(const struct dentry *parent, unsigned int hash)
{
	static bool ready;
	unsigned long h;

	if (unlikely(!ready)) {
		for (size_t i = 0; i < ARRAY_SIZE(dentry_hashtable); i++)
			INIT_LIST_HEAD(&dentry_hashtable[i]);
		ready = true;
	}
	h = (hash ^ ((unsigned long)parent >> 4)) * 0x9e3779b97f4a7c15UL;
	return &dentry_hashtable[h >> (64 - D_HASHBITS)];
}

static void d_free(struct dentry *dentry)
{
	spin_lock(&dcache_lock);
	nr_dentry--;
	spin_unlock(&dcache_lock);
	if (dentry->d_name.name != dentry->d_iname)
		kfree(dentry->d_name.name);
	kfree(dentry);
}

static struct dentry *__d_alloc(struct super_block *sb,
				const struct qstr *name)
{
	struct dentry *dentry = kzalloc(sizeof(*dentry), GFP_KERNEL);
	char *dname = dentry ? dentry->d_iname : NULL;

	if (!dentry)
		return NULL;
	if (name->len >= DNAME_INLINE_LEN) {
		dname = kmalloc(name->len + 1, GFP_KERNEL);
		if (!dname) {
			kfree(dentry);
			return NULL;
		}
	}
	memcpy(dname, name->name, name->len);
	dname[name->len] = '\0';
	dentry->d_name.name = dname;
	dentry->d_name.len = name->len;
	dentry->d_name.hash = full_name_hash(dname, name->len);
	dentry->d_count = 1;
	dentry->d_parent = dentry;
	dentry->d_sb = sb;
	INIT_LIST_HEAD(&dentry->d_hash);
	INIT_LIST_HEAD(&dentry->d_child);
	INIT_LIST_HEAD(&dentry->d_subdirs);
	INIT_LIST_HEAD(&dentry->d_lru);
	spin_lock(&dcache_lock);
	nr_dentry++;
	spin_unlock(&dcache_lock);
	return dentry;
}

/* dcache_lock held for all three. */
static void d_lru_add(struct dentry *dentry)
{
	list_add(&dentry->d_lru, &dentry_lru);
	nr_unused++;
	if (!dentry->d_inode)
		nr_negative++;
}

static void d_lru_del(struct dentry *dentry)
{
	if (list_empty(&dentry->d_lru))
		return;
	list_del_init(&dentry->d_lru);
	nr_unused--;
	if (!dentry->d_inode)
		nr_negative--;
}

/* Take a reference: an unused dentry leaves the LRU. */
static void __dget_locked(struct dentry *dentry)
{
	if (dentry->d_count++ == 0)
		d_lru_del(dentry);
}

struct dentry *d_alloc(struct dentry *parent, const struct qstr *name)
{
	struct dentry *dentry = __d_alloc(parent->d_sb, name);

	if (!dentry)
		return NULL;
	spin_lock(&dcache_lock);
	__dget_locked(parent);	/* a child keeps its parent */
	dentry->d_parent = parent;
	list_add_tail(&dentry->d_child, &parent->d_subdirs);
	spin_unlock(&dcache_lock);
	return dentry;
}

struct dentry *d_make_root(struct inode *inode)
{
	static const struct qstr slash = QSTR_INIT("/", 1);
	struct dentry *root;

	if (!inode)
		return NULL;
	root = __d_alloc(inode->i_sb, &slash);
	if (!root) {
		iput(inode);
		return NULL;
	}
	root->d_inode = inode;
	inode->i_dentries++;
	return root;
}

struct dentry *d_alloc_pseudo(struct super_block *sb, const struct qstr *name)
{
	struct dentry *dentry = __d_alloc(sb, name);

	if (dentry)
		dentry->d_flags |= DCACHE_DISCONNECTED;
	return dentry;
}

void d_instantiate(struct dentry *dentry, struct inode *inode)
{
	spin_lock(&dcache_lock);
	BUG_ON(dentry->d_inode);
	dentry->d_inode = inode;
	if (inode)
		inode->i_dentries++;
	spin_unlock(&dcache_lock);
}

static void __d_rehash(struct dentry *dentry)
{
	list_add(&dentry->d_hash,
		 d_hash(dentry->d_parent, dentry->d_name.hash));
	dentry->d_flags |= DCACHE_HASHED;
}

static void __d_drop(struct dentry *dentry)
{
	if (dentry->d_flags & DCACHE_HASHED) {
		list_del_init(&dentry->d_hash);
		dentry->d_flags &= ~DCACHE_HASHED;
	}
}

void d_rehash(struct dentry *dentry)
{
	spin_lock(&dcache_lock);
	__d_rehash(dentry);
	spin_unlock(&dcache_lock);
}

void d_drop(struct dentry *dentry)
{
	spin_lock(&dcache_lock);
	__d_drop(dentry);
	spin_unlock(&dcache_lock);
}

void d_add(struct dentry *dentry, struct inode *inode)
{
	d_instantiate(dentry, inode);
	d_rehash(dentry);
}

struct dentry *d_splice_alias(struct inode *inode, struct dentry *dentry)
{
	spin_lock(&dcache_lock);
	if (inode && S_ISDIR(inode->i_mode) && inode->i_dentries) {
		spin_unlock(&dcache_lock);
		/* Linux refuses it the same way (d_splice_alias). */
		pr_warn("VFS: lookup of '%s' in directory inode %lu would make "
			"directory inode %lu a second time: loop refused\n",
			dentry->d_name.name, dentry->d_parent->d_inode->i_ino,
			inode->i_ino);
		iput(inode);
		return ERR_PTR(-ELOOP);
	}
	spin_unlock(&dcache_lock);
	d_add(dentry, inode);
	return NULL;
}

struct dentry *d_lookup(struct dentry *parent, const struct qstr *name)
{
	unsigned int hash = full_name_hash(name->name, name->len);
	struct dentry *dentry, *found = NULL;

	spin_lock(&dcache_lock);
	list_for_each_entry(dentry, d_hash(parent, hash), d_hash) {
		if (dentry->d_parent != parent ||
		    dentry->d_name.hash != hash ||
		    dentry->d_name.len != name->len ||
		    memcmp(dentry->d_name.name, name->name, name->len))
			continue;
		__dget_locked(dentry);
		found = dentry;
		break;
	}
	spin_unlock(&dcache_lock);
	return found;
}

struct dentry *dget(struct dentry *dentry)
{
	if (dentry) {
		spin_lock(&dcache_lock);
		__dget_locked(dentry);
		spin_unlock(&dcache_lock);
	}
	return dentry;
}

struct dentry *dget_parent(struct dentry *dentry)
{
	struct dentry *parent;

	spin_lock(&dcache_lock);
	parent = dentry->d_parent;
	__dget_locked(parent);
	spin_unlock(&dcache_lock);
	return parent;
}

/* May an unused dentry stay cached? dcache_lock held. */
static bool d_keep(const struct dentry *dentry)
{
	const struct dentry *parent = dentry->d_parent;

	if (!(dentry->d_flags & DCACHE_HASHED))
		return false;
	if (dentry->d_inode)
		return true;
	/* A miss in a removed directory would only keep it from going. */
	return (dentry->d_sb->s_type->fs_flags & FS_NEG_DENTRIES) &&
	       (d_is_root(parent) || !d_unhashed(parent));
}

/*
 * Drop a reference. At zero a dentry that may stay cached goes on the LRU
 * (a later lookup finds it without the file system); any other dentry is
 * freed, which releases its inode and its reference on its parent, so the
 * parent may go next: the loop instead of recursion keeps the stack flat.
 */
void dput(struct dentry *dentry)
{
	bool prune = false;

	while (dentry) {
		struct dentry *parent;
		struct inode *inode;

		spin_lock(&dcache_lock);
		BUG_ON(dentry->d_count <= 0);
		if (--dentry->d_count) {
			spin_unlock(&dcache_lock);
			break;
		}
		if (d_keep(dentry)) {
			d_lru_add(dentry);
			prune = nr_unused > dcache_limit();
			spin_unlock(&dcache_lock);
			break;
		}
		__d_drop(dentry);
		list_del_init(&dentry->d_child);
		parent = d_is_root(dentry) ? NULL : dentry->d_parent;
		inode = dentry->d_inode;
		dentry->d_inode = NULL;
		if (inode)
			inode->i_dentries--;
		spin_unlock(&dcache_lock);
		iput(inode);
		d_free(dentry);
		dentry = parent;
	}
	/* Over the limit: free a few of the oldest (not from inside such a
	 * pruning, whose dputs come back here). */
	if (prune && !pruning) {
		pruning = true;
		prune_dcache(16);
		pruning = false;
	}
}

/*
 * After a successful unlink or rmdir. If nobody else uses the dentry it
 * turns negative at once (and the inode may go); otherwise it is unhashed
 * so no new lookup finds it, and the users keep the inode alive (an open
 * unlinked file) until their last dput.
 */
void d_delete(struct dentry *dentry)
{
	struct inode *inode = NULL;

	spin_lock(&dcache_lock);
	if (dentry->d_count == 1) {
		inode = dentry->d_inode;
		dentry->d_inode = NULL;
		if (inode)
			inode->i_dentries--;
	} else {
		__d_drop(dentry);
	}
	spin_unlock(&dcache_lock);
	iput(inode);
}

/* Exchange the names of two dentries, wherever each one is stored. */
static void swap_names(struct dentry *a, struct dentry *b)
{
	bool a_inline = a->d_name.name == a->d_iname;
	bool b_inline = b->d_name.name == b->d_iname;
	char tmp[DNAME_INLINE_LEN];
	struct qstr q = a->d_name;

	if (a_inline && b_inline) {
		memcpy(tmp, a->d_iname, DNAME_INLINE_LEN);
		memcpy(a->d_iname, b->d_iname, DNAME_INLINE_LEN);
		memcpy(b->d_iname, tmp, DNAME_INLINE_LEN);
	} else if (a_inline) {	/* b's external name moves to a */
		memcpy(b->d_iname, a->d_iname, DNAME_INLINE_LEN);
		a->d_name.name = b->d_name.name;
		b->d_name.name = b->d_iname;
	} else if (b_inline) {
		memcpy(a->d_iname, b->d_iname, DNAME_INLINE_LEN);
		b->d_name.name = a->d_name.name;
		a->d_name.name = a->d_iname;
	} else {
		a->d_name.name = b->d_name.name;
		b->d_name.name = q.name;
	}
	a->d_name.len = b->d_name.len;
	a->d_name.hash = b->d_name.hash;
	b->d_name.len = q.len;
	b->d_name.hash = q.hash;
}

/*
 * dentry is renamed to target's place: it takes target's name and parent,
 * and target (unhashed from now on) takes dentry's old ones, so that each
 * parent keeps exactly the child references it had. Both directories'
 * i_mutex are held by the caller.
 */
void d_move(struct dentry *dentry, struct dentry *target)
{
	struct dentry *old_parent;

	spin_lock(&dcache_lock);
	__d_drop(target);
	__d_drop(dentry);
	swap_names(dentry, target);
	old_parent = dentry->d_parent;
	dentry->d_parent = target->d_parent;
	target->d_parent = old_parent;
	list_del_init(&dentry->d_child);
	list_del_init(&target->d_child);
	list_add_tail(&dentry->d_child, &dentry->d_parent->d_subdirs);
	list_add_tail(&target->d_child, &target->d_parent->d_subdirs);
	__d_rehash(dentry);
	spin_unlock(&dcache_lock);
}

/* An unused dentry with no children below parent (dcache_lock held). */
static struct dentry *find_unused_leaf(struct dentry *parent)
{
	struct dentry *d;

	list_for_each_entry(d, &parent->d_subdirs, d_child) {
		if (!list_empty(&d->d_subdirs)) {
			struct dentry *leaf = find_unused_leaf(d);

			if (leaf)
				return leaf;
			continue;
		}
		if (d->d_count == 0)
			return d;
	}
	return NULL;
}

void shrink_dcache_parent(struct dentry *root)
{
	for (;;) {
		struct dentry *d;

		spin_lock(&dcache_lock);
		d = find_unused_leaf(root);
		if (!d) {
			spin_unlock(&dcache_lock);
			return;
		}
		/* Take it and unhash it: the dput below then frees it. */
		__dget_locked(d);
		__d_drop(d);
		spin_unlock(&dcache_lock);
		dput(d);
	}
}

/* The oldest unused dentry that pick accepts, taken (d_count 1) and
 * unhashed, so that dput frees it; NULL if none. */
static struct dentry *lru_take(bool (*pick)(struct dentry *d))
{
	struct dentry *d, *found = NULL;
	struct list_head *p;

	spin_lock(&dcache_lock);
	for (p = dentry_lru.prev; p != &dentry_lru; p = p->prev) {	/* oldest */
		d = list_entry(p, struct dentry, d_lru);
		if (list_empty(&d->d_subdirs) && (!pick || pick(d))) {
			found = d;
			__dget_locked(d);
			__d_drop(d);
			break;
		}
	}
	spin_unlock(&dcache_lock);
	return found;
}

unsigned long prune_dcache(unsigned long nr)
{
	unsigned long freed = 0;
	struct dentry *d;

	while (freed < nr && (d = lru_take(NULL))) {
		struct inode *inode = d->d_inode;	/* d is ours */

		if (inode)
			ihold(inode);
		dput(d);
		if (inode)	/* and the inode, unless it has pages */
			iput_prune(inode);
		freed++;
	}
	return freed;
}

/*
 * Freeing d reaches no file system: it has no inode, and its parent, left
 * with one reference less, either keeps some or stays cached. dcache_lock
 * held.
 */
static bool negative_leaf(struct dentry *d)
{
	struct dentry *parent = d->d_parent;

	return !d->d_inode && !d_is_root(d) &&
	       (parent->d_count > 1 || d_keep(parent));
}

unsigned long prune_dcache_negative(unsigned long nr)
{
	unsigned long freed = 0;
	struct dentry *d;

	while (freed < nr && (d = lru_take(negative_leaf))) {
		dput(d);
		freed++;
	}
	return freed;
}

int dentry_state_show(struct seq_file *m, void *v)
{
	unsigned long total, unused, negative;

	spin_lock(&dcache_lock);
	total = nr_dentry;
	unused = nr_unused;
	negative = nr_negative;
	spin_unlock(&dcache_lock);
	seq_printf(m, "%lu\t%lu\t45\t0\t%lu\t0\n", total, unused, negative);
	return 0;
}

/* dcache_lock held; recursion depth is the directory depth. */
static void __d_genocide(struct dentry *parent)
{
	struct dentry *d;

	list_for_each_entry(d, &parent->d_subdirs, d_child) {
		if (!d->d_inode || (d->d_flags & DCACHE_CURSOR))
			continue;
		__d_genocide(d);
		d->d_count--;
	}
}

void d_genocide(struct dentry *root)
{
	spin_lock(&dcache_lock);
	__d_genocide(root);
	spin_unlock(&dcache_lock);
}

bool is_subdir(struct dentry *d, struct dentry *p)
{
	bool ret = false;

	spin_lock(&dcache_lock);
	for (;;) {
		if (d == p) {
			ret = true;
			break;
		}
		if (d_is_root(d))
			break;
		d = d->d_parent;
	}
	spin_unlock(&dcache_lock);
	return ret;
}

/* Put "/name" in front of *pos (which moves back); false if no room. */
static bool prepend_name(char **pos, char *buf, const struct qstr *name)
{
	if (*pos - buf < (long)name->len + 1)
		return false;
	*pos -= name->len;
	memcpy(*pos, name->name, name->len);
	*--*pos = '/';
	return true;
}

char *d_path(const struct path *path, const struct path *root, char *buf,
	     int buflen)
{
	struct dentry *dentry = path->dentry;
	struct vfsmount *mnt = path->mnt;
	char *pos = buf + buflen;

	if (buflen < 2)
		return ERR_PTR(-ENAMETOOLONG);
	*--pos = '\0';
	spin_lock(&dcache_lock);
	if (d_unhashed(dentry) && !d_is_root(dentry)) {
		spin_unlock(&dcache_lock);
		return ERR_PTR(-ENOENT);	/* unlinked: getcwd says so */
	}
	while (dentry != root->dentry || mnt != root->mnt) {
		if (dentry == mnt->mnt_root || d_is_root(dentry)) {
			if (mnt->mnt_parent == mnt)
				break;	/* above the process root */
			dentry = mnt->mnt_mountpoint;
			mnt = mnt->mnt_parent;
			continue;
		}
		if (!prepend_name(&pos, buf, &dentry->d_name)) {
			spin_unlock(&dcache_lock);
			return ERR_PTR(-ENAMETOOLONG);
		}
		dentry = dentry->d_parent;
	}
	spin_unlock(&dcache_lock);
	if (!*pos)
		*--pos = '/';
	return pos;
}
