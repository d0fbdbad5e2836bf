/*
 * fs/ext2/dir.c: directories (Linux's fs/ext2/dir.c).
 *
 * A directory is a file whose blocks ("chunks") are filled exactly by
 * variable-length records: inode number, rec_len (to the next record),
 * name_len, file type (with the filetype feature; revision 0 and images
 * without it store 0) and the name. inode 0 marks an unused record. A
 * record may be longer than its name needs; adding a name reuses such
 * slack or an unused record, or appends a new block; deleting merges the
 * record into the one before it in the block.
 *
 * The blocks live in the directory's page cache, like file data: read
 * with ->readpage, changed between __block_prepare_write and
 * ext2_commit_chunk with the page locked, written back by writepage.
 * Every page is checked each time it is fetched (ext2_get_page): a
 * rec_len that is too small, unaligned, or crosses a block gives -EIO and
 * a log line, so no walk below can loop or run off the page.
 *
 * Not Linux's: a large directory also has an index in memory, pagelab's
 * own (fs/ext2/dir_index.c, for the benchmarks, not part of any lab).
 * ext2_find_entry, ext2_add_link and ext2_delete_entry ask it first and
 * keep it up to date; the disk format does not change.
 *
 * Callers hold the directory's i_mutex (the VFS takes it for lookup,
 * readdir and every change), which keeps the records still meanwhile.
 */
#include "ext2.h"
#include <kernel/lockdep.h>
#include <fs/dcache.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <mm/filemap.h>
#include <mm/slab.h>
#include <mm/writeback.h>

static bool ext2_check_page(struct inode *dir, struct page *page)
{
	struct super_block *sb = dir->i_sb;
	unsigned int chunk = sb->s_blocksize, offs = 0, rec_len = 0;
	unsigned int limit = ext2_last_byte(dir, page->index);
	char *kaddr = page_address(page);
	struct ext2_dir_entry_2 *p = NULL;
	const char *why;

	for (; offs < limit; offs += rec_len) {
		p = (struct ext2_dir_entry_2 *)(kaddr + offs);
		rec_len = p->rec_len;
		if (rec_len < EXT2_DIR_REC_LEN(1))
			goto bad_entry_small;
		if (rec_len & 3)
			goto bad_entry_unaligned;
		if (rec_len < EXT2_DIR_REC_LEN(p->name_len))
			goto bad_entry_name;
		if (((offs + rec_len - 1) ^ offs) & ~(chunk - 1))
			goto bad_entry_span;
		if (p->inode > EXT2_SB(sb)->s_inodes_count)
			goto bad_entry_inode;
	}
	return true;
bad_entry_small:
	why = "rec_len is smaller than minimal";
	goto bad;
bad_entry_unaligned:
	why = "unaligned directory entry";
	goto bad;
bad_entry_name:
	why = "rec_len is too small for name_len";
	goto bad;
bad_entry_span:
	why = "directory entry across blocks";
	goto bad;
bad_entry_inode:
	why = "inode out of bounds";
bad:
	ext2_error(sb, __func__, "bad entry in directory #%lu: %s - offset=%lu,"
		   " inode=%u, rec_len=%u, name_len=%u", dir->i_ino, why,
		   ((unsigned long)page->index << PAGE_SHIFT) + offs, p->inode,
		   rec_len, p->name_len);
	return false;
}

void ext2_put_page(struct page *page)
{
	page_cache_release(page);
}

/*
 * Page n of the directory, read, checked, referenced (not locked); or
 * ERR_PTR(-EIO/-ENOMEM).
 */
struct page *ext2_get_page(struct inode *dir, unsigned long n)
{
	struct page *page = read_mapping_page(dir->i_mapping, n, NULL);

	if (!IS_ERR(page) && !ext2_check_page(dir, page)) {
		page_cache_release(page);
		return ERR_PTR(-EIO);
	}
	return page;
}

static bool ext2_match(int len, const char *name, struct ext2_dir_entry_2 *de)
{
	return de->inode && len == de->name_len &&
	       !memcmp(name, de->name, len);
}

static const unsigned char ext2_type_by_mode[S_IFMT >> 12] = {
	[S_IFREG >> 12] = EXT2_FT_REG_FILE,  [S_IFDIR >> 12] = EXT2_FT_DIR,
	[S_IFCHR >> 12] = EXT2_FT_CHRDEV,    [S_IFBLK >> 12] = EXT2_FT_BLKDEV,
	[S_IFIFO >> 12] = EXT2_FT_FIFO,      [S_IFSOCK >> 12] = EXT2_FT_SOCK,
	[S_IFLNK >> 12] = EXT2_FT_SYMLINK,
};

static const unsigned char ext2_filetype_table[EXT2_FT_MAX] = {
	DT_UNKNOWN, DT_REG, DT_DIR, DT_CHR, DT_BLK, DT_FIFO, DT_SOCK, DT_LNK,
};

static void ext2_set_de_type(struct ext2_dir_entry_2 *de, struct inode *inode)
{
	de->file_type = ext2_has_incompat(inode->i_sb,
					  EXT2_FEATURE_INCOMPAT_FILETYPE)
				? ext2_type_by_mode[(inode->i_mode & S_IFMT) >> 12]
				: 0;
}

/* Finish a change made after __block_prepare_write; unlocks the page. */
static int ext2_commit_chunk(struct page *page, loff_t pos, unsigned int len)
{
	struct address_space *mapping = page->mapping;
	struct inode *dir = mapping->host;

	block_write_end(NULL, mapping, pos, len, len, page, NULL);
	if (pos + len > dir->i_size) {
		i_size_write(dir, pos + len);
		mark_inode_dirty(dir);
	}
	unlock_page(page);
	return 0;
}

/* Lock page and map/allocate the blocks under [pos, pos + len). */
static int ext2_prepare_chunk(struct page *page, loff_t pos, unsigned int len)
{
	unsigned int from = pos & ~PAGE_MASK;

	lock_page(page);
	wait_on_page_writeback(page);
	return __block_prepare_write(page->mapping->host, page, from,
				     from + len, ext2_get_block);
}

static void dir_changed(struct inode *dir)
{
	dir->i_mtime = dir->i_ctime = current_time(dir);
	/* The hash index (dir_index) no longer matches: ext3/4 would fall
	 * back to a linear search, e2fsck rebuilds it. */
	EXT2_I(dir)->i_flags &= ~EXT2_INDEX_FL;
	mark_inode_dirty(dir);
}

/* ---- readdir ------------------------------------------------------------------ */

/*
 * ctx->pos may point anywhere (lseek, or a directory changed between two
 * getdents): start at the first record at or after it in its block.
 */
static unsigned int ext2_validate_entry(char *base, unsigned int offset,
					unsigned int chunk)
{
	struct ext2_dir_entry_2 *de = (void *)(base + (offset & ~(chunk - 1)));

	while ((char *)de < base + offset)
		de = ext2_next_entry(de);	/* rec_len >= 12: checked */
	return (char *)de - base;
}

static int ext2_readdir(struct file *file, struct dir_context *ctx)
{
	struct inode *inode = file->f_inode;
	unsigned int chunk = inode->i_sb->s_blocksize;
	bool types = ext2_has_incompat(inode->i_sb,
				       EXT2_FEATURE_INCOMPAT_FILETYPE);

	if (ctx->pos < 0 || ctx->pos > inode->i_size - EXT2_DIR_REC_LEN(1))
		return 0;
	for (unsigned long n = ctx->pos >> PAGE_SHIFT; n < dir_pages(inode);
	     n++) {
		struct page *page = ext2_get_page(inode, n);
		unsigned int offset = ctx->pos & ~PAGE_MASK;
		struct ext2_dir_entry_2 *de, *limit;
		char *kaddr;

		if (IS_ERR(page)) {
			ctx->pos = (loff_t)(n + 1) << PAGE_SHIFT;
			return PTR_ERR(page);
		}
		kaddr = page_address(page);
		offset = ext2_validate_entry(kaddr, offset, chunk);
		limit = (void *)(kaddr + ext2_last_byte(inode, n) -
				 EXT2_DIR_REC_LEN(1));
		for (de = (void *)(kaddr + offset); de <= limit;
		     de = ext2_next_entry(de)) {
			loff_t here = ((loff_t)n << PAGE_SHIFT) +
				      ((char *)de - kaddr);

			if (de->inode) {
				unsigned char t = types && de->file_type <
							   EXT2_FT_MAX
						  ? ext2_filetype_table
							  [de->file_type]
						  : DT_UNKNOWN;

				ctx->pos = here;
				if (!ctx->actor(ctx, de->name, de->name_len,
						here + de->rec_len, de->inode,
						t)) {
					ext2_put_page(page);
					return 0;
				}
			}
			ctx->pos = here + de->rec_len;
		}
		ext2_put_page(page);
	}
	return 0;
}

const struct file_operations ext2_dir_operations = {
	.llseek = generic_file_llseek,
	.read_iter = generic_read_dir,
	.iterate = ext2_readdir,
	.fsync = ext2_fsync,
	.unlocked_ioctl = ext2_ioctl,
};

/* ---- finding, adding and removing names -------------------------------------- */

/*
 * The record named name in dir, inside *res_page (referenced: release it
 * with ext2_put_page, or hand it to ext2_delete_entry/ext2_set_link).
 * NULL when there is no such name, ERR_PTR(-EIO) for a damaged page.
 */
static struct ext2_dir_entry_2 *ext2_find_in_page(struct inode *dir,
						  struct page *page,
						  const struct qstr *name)
{
	char *kaddr = page_address(page);
	struct ext2_dir_entry_2 *de = (void *)kaddr;
	struct ext2_dir_entry_2 *end = (void *)(kaddr +
		ext2_last_byte(dir, page->index) - EXT2_DIR_REC_LEN(1));

	for (; de <= end; de = ext2_next_entry(de))
		if (ext2_match(name->len, name->name, de))
			return de;
	return NULL;
}

/* ext2_find_in_page on page n of dir: the record with *res_page set to
 * its page (kept), NULL (page released) or an ERR_PTR. */
struct ext2_dir_entry_2 *ext2_find_in_page_n(struct inode *dir,
					     unsigned long n,
					     const struct qstr *name,
					     struct page **res_page)
{
	struct page *page = ext2_get_page(dir, n);
	struct ext2_dir_entry_2 *de;

	if (IS_ERR(page))
		return (void *)page;
	de = ext2_find_in_page(dir, page, name);
	if (de)
		*res_page = page;
	else
		ext2_put_page(page);
	return de;
}

struct ext2_dir_entry_2 *ext2_find_entry(struct inode *dir,
					 const struct qstr *name,
					 struct page **res_page)
{
	unsigned long npages = dir_pages(dir);
	struct ext2_dir_entry_2 *de;

	*res_page = NULL;
	if (ext2_dir_index_find(dir, name, res_page, &de))	/* dir_index.c */
		return de;
	for (unsigned long n = 0; n < npages; n++) {
		de = ext2_find_in_page_n(dir, n, name, res_page);
		if (de)
			return de;
	}
	return NULL;
}

/* The inode number name stands for in dir; 0 (and *err) if none. */
unsigned long ext2_inode_by_name(struct inode *dir, const struct qstr *name,
				 int *err)
{
	struct page *page;
	struct ext2_dir_entry_2 *de = ext2_find_entry(dir, name, &page);
	unsigned long ino;

	*err = IS_ERR(de) ? PTR_ERR(de) : 0;
	if (IS_ERR_OR_NULL(de))
		return 0;
	ino = de->inode;
	ext2_put_page(page);
	return ino;
}

/* The ".." record (the second one of the first block). */
struct ext2_dir_entry_2 *ext2_dotdot(struct inode *dir, struct page **p)
{
	struct page *page = ext2_get_page(dir, 0);
	struct ext2_dir_entry_2 *de;

	*p = NULL;
	if (IS_ERR(page))
		return NULL;
	de = ext2_next_entry((struct ext2_dir_entry_2 *)page_address(page));
	if (!dir->i_size || (char *)de - (char *)page_address(page) >=
				    (long)ext2_last_byte(dir, 0) ||
	    de->name_len != 2 || memcmp(de->name, "..", 2)) {
		ext2_error(dir->i_sb, __func__, "directory #%lu has no \"..\"",
			   dir->i_ino);
		ext2_put_page(page);
		return NULL;
	}
	*p = page;
	return de;
}

/* Point the record de (in page, referenced: released here) at inode. */
int ext2_set_link(struct inode *dir, struct ext2_dir_entry_2 *de,
		  struct page *page, struct inode *inode)
{
	loff_t pos = ((loff_t)page->index << PAGE_SHIFT) +
		     ((char *)de - (char *)page_address(page));
	int err = ext2_prepare_chunk(page, pos, de->rec_len);

	if (err) {
		unlock_page(page);
		ext2_put_page(page);
		return err;
	}
	de->inode = inode->i_ino;
	ext2_set_de_type(de, inode);
	ext2_commit_chunk(page, pos, de->rec_len);
	ext2_put_page(page);
	dir_changed(dir);
	return 0;
}

/*
 * Add dentry's name for inode to its parent. The name must not exist
 * (-EEXIST if it does after all). Looks through every block for room,
 * and past the last one appends a fresh block. 0 or -errno.
 */
int ext2_add_link(struct dentry *dentry, struct inode *inode)
{
	struct inode *dir = dentry->d_parent->d_inode;
	const char *name = dentry->d_name.name;
	int namelen = dentry->d_name.len, err;
	unsigned int chunk = dir->i_sb->s_blocksize;
	unsigned int reclen = EXT2_DIR_REC_LEN(namelen), name_len, rec_len;
	unsigned long npages = dir_pages(dir);
	struct ext2_dir_entry_2 *de = NULL;
	struct page *page = NULL;
	char *kaddr, *dir_end;
	loff_t pos;
	/* 0, or where dir_index.c knows there is room (-EEXIST: taken);
	 * checked: it knows the name is new, so no record need be compared
	 * with it (in a directory of same-length names, a memcmp each). */
	bool checked;
	long start;

	lockdep_assert_held(&dir->i_mutex);
	start = ext2_dir_index_add_start(dir, &dentry->d_name, reclen, &checked);
	if (start < 0)
		return start;
	for (unsigned long n = start; n <= npages; n++) {
		page = ext2_get_page(dir, n);	/* n == npages: past EOF,
						 * reads as zeroes */
		if (IS_ERR(page))
			return PTR_ERR(page);
		kaddr = page_address(page);
		dir_end = kaddr + ext2_last_byte(dir, n);
		for (de = (void *)kaddr; (char *)de <= kaddr + PAGE_SIZE - reclen;
		     de = ext2_next_entry(de)) {
			if ((char *)de == dir_end) {	/* a new block */
				name_len = 0;
				rec_len = chunk;
				goto got_it;
			}
			if (!checked && ext2_match(namelen, name, de)) {
				ext2_put_page(page);
				return -EEXIST;
			}
			name_len = EXT2_DIR_REC_LEN(de->name_len);
			rec_len = de->rec_len;
			if (!de->inode && rec_len >= reclen)
				goto got_it;
			if (rec_len >= name_len + reclen)
				goto got_it;
		}
		ext2_put_page(page);
	}
	ext2_error(dir->i_sb, __func__, "no room in directory #%lu",
		   dir->i_ino);
	return -EIO;
got_it:
	pos = ((loff_t)page->index << PAGE_SHIFT) + ((char *)de - kaddr);
	err = ext2_prepare_chunk(page, pos, rec_len);
	if (err) {
		unlock_page(page);
		ext2_put_page(page);
		ext2_dir_index_free(dir);
		return err;
	}
	if (!name_len) {	/* the new block: one empty record */
		de->inode = 0;
		de->rec_len = chunk;
	} else if (de->inode) {	/* split off the slack after the name */
		struct ext2_dir_entry_2 *de1 = (void *)((char *)de + name_len);

		de1->rec_len = rec_len - name_len;
		de->rec_len = name_len;
		de = de1;
	}
	de->name_len = namelen;
	memcpy(de->name, name, namelen);
	de->inode = inode->i_ino;
	ext2_set_de_type(de, inode);
	ext2_commit_chunk(page, pos, rec_len);
	ext2_dir_index_changed(dir, page, name, namelen, true);
	ext2_put_page(page);
	dir_changed(dir);
	return 0;
}

/*
 * Remove the record de (in page, referenced: released here): it joins
 * the record before it in its block, or, first in its block, becomes an
 * unused record (inode 0).
 */
int ext2_delete_entry(struct ext2_dir_entry_2 *dir_de, struct page *page)
{
	struct inode *dir = page->mapping->host;
	char *kaddr = page_address(page);
	unsigned int from = ((char *)dir_de - kaddr) &
			    ~(dir->i_sb->s_blocksize - 1);
	unsigned int to = ((char *)dir_de - kaddr) + dir_de->rec_len;
	struct ext2_dir_entry_2 *pde = NULL, *de = (void *)(kaddr + from);
	loff_t pos;
	int err;

	lockdep_assert_held(&dir->i_mutex);
	while (de < dir_de) {
		pde = de;
		de = ext2_next_entry(de);
	}
	if (pde)
		from = (char *)pde - kaddr;
	pos = ((loff_t)page->index << PAGE_SHIFT) + from;
	err = ext2_prepare_chunk(page, pos, to - from);
	if (err) {
		unlock_page(page);
		ext2_put_page(page);
		ext2_dir_index_free(dir);
		return err;
	}
	if (pde)
		pde->rec_len = to - from;
	dir_de->inode = 0;
	ext2_commit_chunk(page, pos, to - from);
	/* The record's name is still in the page: only its inode went. */
	ext2_dir_index_changed(dir, page, dir_de->name, dir_de->name_len,
			       false);
	ext2_put_page(page);
	dir_changed(dir);
	return 0;
}

/* The first block of a new directory: "." and "..". */
int ext2_make_empty(struct inode *inode, struct inode *parent)
{
	unsigned int chunk = inode->i_sb->s_blocksize;
	struct ext2_dir_entry_2 *de;
	struct page *page;
	int err;

	page = find_or_create_page(inode->i_mapping, 0, GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	err = __block_prepare_write(inode, page, 0, chunk, ext2_get_block);
	if (err) {
		unlock_page(page);
		page_cache_release(page);
		return err;
	}
	memset(page_address(page), 0, chunk);
	de = page_address(page);
	de->name_len = 1;
	de->rec_len = EXT2_DIR_REC_LEN(1);
	memcpy(de->name, ".\0\0", 4);
	de->inode = inode->i_ino;
	ext2_set_de_type(de, inode);
	de = ext2_next_entry(de);
	de->name_len = 2;
	de->rec_len = chunk - EXT2_DIR_REC_LEN(1);
	memcpy(de->name, "..\0", 4);
	de->inode = parent->i_ino;
	ext2_set_de_type(de, inode);
	ext2_commit_chunk(page, 0, chunk);
	page_cache_release(page);
	return 0;
}

/* 1 if the directory holds nothing but "." and "..", 0 if it holds
 * more, -EIO if it cannot be read. */
int ext2_empty_dir(struct inode *inode)
{
	for (unsigned long n = 0; n < dir_pages(inode); n++) {
		struct page *page = ext2_get_page(inode, n);
		struct ext2_dir_entry_2 *de, *end;
		char *kaddr;

		if (IS_ERR(page))
			return PTR_ERR(page);
		kaddr = page_address(page);
		end = (void *)(kaddr + ext2_last_byte(inode, n) -
			       EXT2_DIR_REC_LEN(1));
		for (de = (void *)kaddr; de <= end; de = ext2_next_entry(de)) {
			if (!de->inode)
				continue;
			if (de->name[0] != '.' || de->name_len > 2 ||
			    (de->name_len == 1 && de->inode != inode->i_ino) ||
			    (de->name_len == 2 && de->name[1] != '.')) {
				ext2_put_page(page);
				return 0;
			}
		}
		ext2_put_page(page);
	}
	return 1;
}
