/*
 * fs/libfs.c: generic pieces for simple in-memory file systems (ramfs,
 * proc, pipefs), as Linux's fs/libfs.c.
 *
 *   directories   the dcache is the directory: simple_lookup answers
 *                 "no such name" for anything not already cached, and
 *                 create/link pin the new dentry with an extra reference
 *                 (dropped again by unlink), so it is never evicted.
 *                 dcache_readdir lists d_subdirs with a cursor dentry
 *                 that marks the position, so entries removed during a
 *                 listing ("rm -r") neither shift nor repeat the rest.
 *   file data     the page cache is the storage: readpage finds only
 *                 holes (zero-filled), write_begin zeroes the parts of a
 *                 new page the write will not cover, write_end dirties
 *                 the page so nothing ever tries to drop it.
 *   truncation    simple_setsize: the new truncate sequence without any
 *                 blocks to free (inode_newsize_ok, then truncate_setsize:
 *                 i_size, then the page cache).
 */
#include <fs/dcache.h>
#include <fs/namei.h>
#include <fs/stat.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <mm/filemap.h>

/* ---- size and attributes ------------------------------------------------ */

int simple_setsize(struct inode *inode, loff_t newsize)
{
	int err;

	err = inode_newsize_ok(inode, newsize);
	if (err)
		return err;
	/* No blocks: the commit is all there is. (Linux 2.6.36 moved the
	 * check into inode_change_ok, and simple_setsize became
	 * truncate_setsize.) */
	truncate_setsize(inode, newsize);
	return 0;
}

int simple_setattr(struct dentry *dentry, struct iattr *attr)
{
	struct inode *inode = dentry->d_inode;
	int err = inode_change_ok(inode, attr);

	if (err)
		return err;
	/* A size change is a modification (POSIX truncate semantics). */
	if ((attr->ia_valid & ATTR_SIZE) && attr->ia_size != inode->i_size)
		attr->ia_valid |= ATTR_MTIME | ATTR_CTIME;
	return inode_setattr(inode, attr);
}

int simple_getattr(const struct path *path, struct kstat *stat)
{
	struct inode *inode = path->dentry->d_inode;

	generic_fillattr(inode, stat);
	stat->blocks = inode->i_mapping->nrpages << (PAGE_SHIFT - 9);
	return 0;
}

int simple_statfs(struct dentry *dentry, struct kstatfs *buf)
{
	buf->f_type = dentry->d_sb->s_magic;
	buf->f_bsize = PAGE_SIZE;
	buf->f_frsize = PAGE_SIZE;
	buf->f_namelen = NAME_MAX;
	return 0;
}

int noop_fsync(struct file *file, int datasync)
{
	return 0;
}

/* ---- directories in the dcache -------------------------------------------- */

struct dentry *simple_lookup(struct inode *dir, struct dentry *dentry,
			     unsigned int flags)
{
	if (dentry->d_name.len > NAME_MAX)
		return ERR_PTR(-ENAMETOOLONG);
	d_add(dentry, NULL);	/* not cached, so it does not exist */
	return NULL;
}

bool simple_empty(struct dentry *dentry)
{
	struct dentry *child;
	bool empty = true;

	spin_lock(&dcache_lock);
	list_for_each_entry(child, &dentry->d_subdirs, d_child) {
		if (child->d_inode && !d_unhashed(child)) {
			empty = false;
			break;
		}
	}
	spin_unlock(&dcache_lock);
	return empty;
}

static void touch_dir(struct inode *dir, struct inode *inode)
{
	struct timespec64 now = current_time(dir);

	dir->i_ctime = dir->i_mtime = now;
	if (inode)
		inode->i_ctime = now;
}

int simple_link(struct dentry *old, struct inode *dir, struct dentry *new)
{
	struct inode *inode = old->d_inode;

	touch_dir(dir, inode);
	inc_nlink(inode);
	ihold(inode);
	dget(new);	/* pin: the dcache is all a ramfs directory is */
	d_instantiate(new, inode);
	return 0;
}

int simple_unlink(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = dentry->d_inode;

	touch_dir(dir, inode);
	drop_nlink(inode);
	dput(dentry);	/* the pin taken at creation */
	return 0;
}

int simple_rmdir(struct inode *dir, struct dentry *dentry)
{
	if (!simple_empty(dentry))
		return -ENOTEMPTY;
	drop_nlink(dentry->d_inode);	/* its "." */
	simple_unlink(dir, dentry);
	drop_nlink(dir);	/* its ".." */
	return 0;
}

int simple_rename(struct inode *old_dir, struct dentry *old,
		  struct inode *new_dir, struct dentry *new)
{
	bool they_are_dirs = S_ISDIR(old->d_inode->i_mode);

	if (!simple_empty(new))
		return -ENOTEMPTY;
	if (new->d_inode) {
		simple_unlink(new_dir, new);
		if (they_are_dirs) {
			drop_nlink(new->d_inode);
			drop_nlink(old_dir);
		}
	} else if (they_are_dirs) {
		drop_nlink(old_dir);
		inc_nlink(new_dir);
	}
	touch_dir(old_dir, old->d_inode);
	touch_dir(new_dir, NULL);
	return 0;
}

const char *simple_get_link(struct dentry *dentry, struct inode *inode)
{
	return inode->i_link;
}

/* ---- readdir over d_subdirs ---------------------------------------------- */

/* "." and ".." at positions 0 and 1, as Linux's dir_emit_dots: ".." is
 * the parent dentry's inode (the root's own, at the top). false when the
 * reader's buffer is full; the position says where to go on. */
bool dir_emit_dots(struct file *file, struct dir_context *ctx)
{
	struct dentry *dir = file->f_dentry;

	if (ctx->pos == 0) {
		if (!ctx->actor(ctx, ".", 1, 1, dir->d_inode->i_ino, DT_DIR))
			return false;
		ctx->pos = 1;
	}
	if (ctx->pos == 1) {
		if (!ctx->actor(ctx, "..", 2, 2, dir->d_parent->d_inode->i_ino,
				DT_DIR))
			return false;
		ctx->pos = 2;
	}
	return true;
}

int dcache_dir_open(struct inode *inode, struct file *file)
{
	static const struct qstr cursor_name = QSTR_INIT(".", 1);
	struct dentry *cursor = d_alloc(file->f_dentry, &cursor_name);

	if (!cursor)
		return -ENOMEM;
	spin_lock(&dcache_lock);
	cursor->d_flags |= DCACHE_CURSOR;
	/* Before every child: position 2, just after "." and "..". */
	list_del_init(&cursor->d_child);
	list_add(&cursor->d_child, &file->f_dentry->d_subdirs);
	spin_unlock(&dcache_lock);
	file->private_data = cursor;
	return 0;
}

int dcache_dir_close(struct inode *inode, struct file *file)
{
	dput(file->private_data);
	return 0;
}

static bool listable(const struct dentry *d)
{
	return d->d_inode && !(d->d_flags & DCACHE_CURSOR) && !d_unhashed(d);
}

/* Put the cursor after the first `skip` listable children. */
static void place_cursor(struct dentry *dir, struct dentry *cursor, loff_t skip)
{
	struct list_head *p = &dir->d_subdirs;

	list_del_init(&cursor->d_child);
	while (skip > 0 && p->next != &dir->d_subdirs) {
		p = p->next;
		if (listable(list_entry(p, struct dentry, d_child)))
			skip--;
	}
	list_add(&cursor->d_child, p);
}

loff_t dcache_dir_lseek(struct file *file, loff_t offset, int whence)
{
	if (whence == SEEK_CUR)
		offset += file->f_pos;
	else if (whence != SEEK_SET)
		return -EINVAL;
	if (offset < 0)
		return -EINVAL;
	if (offset != file->f_pos) {
		file->f_pos = offset;
		spin_lock(&dcache_lock);
		place_cursor(file->f_dentry, file->private_data,
			     offset >= 2 ? offset - 2 : 0);
		spin_unlock(&dcache_lock);
	}
	return offset;
}

int dcache_readdir(struct file *file, struct dir_context *ctx)
{
	struct dentry *dir = file->f_dentry, *cursor = file->private_data;
	struct list_head *p;

	if (!dir_emit_dots(file, ctx))
		return 0;
	/* The actor fills a kernel buffer and never sleeps: it may run
	 * under dcache_lock. */
	spin_lock(&dcache_lock);
	if (ctx->pos == 2)
		place_cursor(dir, cursor, 0);	/* rewinddir */
	for (p = cursor->d_child.next; p != &dir->d_subdirs;
	     p = cursor->d_child.next) {
		struct dentry *next = list_entry(p, struct dentry, d_child);

		if (listable(next)) {
			if (!ctx->actor(ctx, next->d_name.name,
					next->d_name.len, ctx->pos + 1,
					next->d_inode->i_ino,
					dt_type(next->d_inode)))
				break;
			ctx->pos++;
		}
		list_del(&cursor->d_child);
		list_add(&cursor->d_child, p);	/* step past next */
	}
	spin_unlock(&dcache_lock);
	return 0;
}

ssize_t generic_read_dir(struct file *file, struct iov_iter *to, loff_t *pos)
{
	return -EISDIR;
}

const struct file_operations simple_dir_operations = {
	.open = dcache_dir_open,
	.release = dcache_dir_close,
	.llseek = dcache_dir_lseek,
	.read_iter = generic_read_dir,
	.iterate = dcache_readdir,
	.fsync = noop_fsync,
};

const struct inode_operations simple_dir_inode_operations = {
	.lookup = simple_lookup,
};

const struct inode_operations simple_symlink_inode_operations = {
	.get_link = simple_get_link,
	.setattr = simple_setattr,
	.getattr = simple_getattr,
};

/* ---- file data in the page cache ------------------------------------------- */

int simple_readpage(struct file *file, struct page *page)
{
	/* Only a hole (a file truncated up) reaches here: zeroes. */
	memset(page_address(page), 0, PAGE_SIZE);
	SetPageUptodate(page);
	unlock_page(page);
	return 0;
}

int simple_write_begin(struct file *file, struct address_space *mapping,
		       loff_t pos, unsigned int len, unsigned int flags,
		       struct page **pagep, void **fsdata)
{
	unsigned int from = pos & ~PAGE_MASK;
	struct page *page;

	page = find_or_create_page(mapping, pos >> PAGE_SHIFT, GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	*pagep = page;
	/* A new page: what this write will not cover must read as zeroes. */
	if (!PageUptodate(page) && len != PAGE_SIZE) {
		char *kaddr = page_address(page);

		memset(kaddr, 0, from);
		memset(kaddr + from + len, 0, PAGE_SIZE - from - len);
	}
	return 0;
}

int simple_write_end(struct file *file, struct address_space *mapping,
		     loff_t pos, unsigned int len, unsigned int copied,
		     struct page *page, void *fsdata)
{
	struct inode *inode = mapping->host;
	unsigned int from = pos & ~PAGE_MASK;
	loff_t old_size = inode->i_size;	/* i_mutex held: stays put */

	if (!PageUptodate(page)) {
		/* A short copy (fault) leaves zeroes, not garbage. */
		if (copied < len)
			memset((char *)page_address(page) + from + copied, 0,
			       len - copied);
		SetPageUptodate(page);
	}
	if (pos + copied > old_size)
		i_size_write(inode, pos + copied);
	set_page_dirty(page);
	unlock_page(page);
	page_cache_release(page);
	/* The write left a gap after the old EOF: zero it (see
	 * pagecache_isize_extended). */
	if (pos > old_size)
		pagecache_isize_extended(inode, old_size, pos);
	return copied;
}
