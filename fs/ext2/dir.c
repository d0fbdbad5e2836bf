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
 * A directory of EXT2_INDEX_MIN_PAGES pages or more also gets an index in
 * memory (name hash -> page, and the room left in each page), so that
 * lookup, create and unlink read one page instead of all of them; see
 * "the name index" below. The disk format does not change.
 *
 * Callers hold the directory's i_mutex (the VFS takes it for lookup,
 * readdir and every change), which keeps the records still meanwhile.
 */
#include "ext2.h"
#include <fs/dcache.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <mm/filemap.h>
#include <mm/slab.h>
#include <mm/writeback.h>

#define next_entry(de) \
	((struct ext2_dir_entry_2 *)((char *)(de) + (de)->rec_len))

static unsigned long dir_pages(struct inode *inode)
{
	return (inode->i_size + PAGE_SIZE - 1) >> PAGE_SHIFT;
}

/* Bytes of page n that belong to the directory. */
static unsigned int ext2_last_byte(struct inode *inode, unsigned long n)
{
	loff_t last = inode->i_size - ((loff_t)n << PAGE_SHIFT);

	return last < 0 ? 0 : last > (loff_t)PAGE_SIZE ? PAGE_SIZE : last;
}

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
static struct page *ext2_get_page(struct inode *dir, unsigned long n)
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

/* ---- the name index of a large directory --------------------------------------- */

/*
 * Without dir_index, ext2 finds a name by reading every block of the
 * directory, so lookup, create and unlink cost in proportion to its size.
 * A directory of EXT2_INDEX_MIN_PAGES pages or more gets, on its first
 * lookup, an index that lives only in memory (nothing on the disk changes:
 * e2fsck and other kernels still see a plain linear directory):
 *   - a hash table from each name's hash to the page holding the name
 *     (open addressing, linear probing, a removed name leaves a tombstone):
 *     a lookup reads the one page, a missing name usually none;
 *   - room[n], the longest record a new name could take in page n: create
 *     goes straight to the first page with room (a free-slot hint that is
 *     exact), instead of scanning from the first page.
 * ext2_add_link and ext2_delete_entry keep it exact (they are the only
 * changes of names: ext2_set_link keeps the name), under the directory's
 * i_mutex. Anything unexpected (no memory, a failed change, a size it does
 * not know) drops it; the linear walk is always right, and the next lookup
 * builds the index again. A directory with a damaged page is never indexed
 * (INDEX_BROKEN), so its errors come from the same walk as before.
 */
#define EXT2_INDEX_MIN_PAGES 4
#define INDEX_MIN_BITS 8
#define SLOT_EMPTY 0ULL
#define SLOT_GONE (~0ULL)
#define INDEX_BROKEN ((struct ext2_dir_index *)1)

struct ext2_dir_index {
	u64 *slots;	/* hash << 32 | (page + 1); SLOT_EMPTY, SLOT_GONE */
	unsigned int bits;	/* 1 << bits slots */
	unsigned long used, filled;	/* live names; live + tombstones */
	u16 *room;	/* per page: the longest record a name can take */
	unsigned long npages, room_cap;
};

static struct ext2_dir_entry_2 *find_in_page_n(struct inode *dir,
					       unsigned long n,
					       const struct qstr *name,
					       struct page **res_page);

static void index_destroy(struct ext2_dir_index *idx)
{
	if (!idx || idx == INDEX_BROKEN)
		return;
	kfree(idx->slots);
	kfree(idx->room);
	kfree(idx);
}

void ext2_dir_index_free(struct inode *dir)
{
	index_destroy(EXT2_I(dir)->i_dir_index);
	EXT2_I(dir)->i_dir_index = NULL;
}

static unsigned long slot_of(u32 hash, unsigned int bits)
{
	return (u32)(hash * 0x9e3779b9u) >> (32 - bits);
}

/* The longest record a new name can take in page n (held). */
static unsigned int ext2_page_room(struct inode *dir, struct page *page)
{
	char *kaddr = page_address(page);
	struct ext2_dir_entry_2 *de = (void *)kaddr;
	char *end = kaddr + ext2_last_byte(dir, page->index);
	unsigned int room = 0, here;

	for (; (char *)de < end; de = next_entry(de)) {
		here = de->inode ? de->rec_len - EXT2_DIR_REC_LEN(de->name_len)
				 : de->rec_len;
		room = max(room, here);
	}
	return room;
}

/* Put (hash, n) into a table known to have a free slot. */
static void index_put(struct ext2_dir_index *idx, u32 hash, unsigned long n)
{
	unsigned long mask = (1UL << idx->bits) - 1;
	unsigned long i = slot_of(hash, idx->bits);

	while (idx->slots[i] != SLOT_EMPTY && idx->slots[i] != SLOT_GONE)
		i = (i + 1) & mask;
	if (idx->slots[i] == SLOT_EMPTY)
		idx->filled++;
	idx->slots[i] = (u64)hash << 32 | (n + 1);
	idx->used++;
}

/* Keep the table at most 3/4 full (tombstones count): rehash into one
 * sized for twice the live names. 0 or -ENOMEM. */
static int index_make_room(struct ext2_dir_index *idx)
{
	u64 *old = idx->slots;
	unsigned long nold = old ? 1UL << idx->bits : 0;
	unsigned int bits = INDEX_MIN_BITS;

	if (old && (idx->filled + 1) * 4 <= nold * 3)
		return 0;
	while ((1UL << bits) < (idx->used + 1) * 2)
		bits++;
	idx->slots = kzalloc(sizeof(u64) << bits, GFP_KERNEL);
	if (!idx->slots) {
		idx->slots = old;
		return -ENOMEM;
	}
	idx->bits = bits;
	idx->used = idx->filled = 0;
	for (unsigned long i = 0; i < nold; i++)
		if (old[i] != SLOT_EMPTY && old[i] != SLOT_GONE)
			index_put(idx, old[i] >> 32, (u32)old[i] - 1);
	kfree(old);
	return 0;
}

static int index_insert(struct ext2_dir_index *idx, u32 hash, unsigned long n)
{
	int err = index_make_room(idx);

	if (!err)
		index_put(idx, hash, n);
	return err;
}

/* Remove (hash, n); false if the index did not have it. */
static bool index_remove(struct ext2_dir_index *idx, u32 hash, unsigned long n)
{
	unsigned long mask = (1UL << idx->bits) - 1;
	u64 want = (u64)hash << 32 | (n + 1);

	for (unsigned long i = slot_of(hash, idx->bits);
	     idx->slots[i] != SLOT_EMPTY; i = (i + 1) & mask)
		if (idx->slots[i] == want) {
			idx->slots[i] = SLOT_GONE;
			idx->used--;
			return true;
		}
	return false;
}

/* Record page n's room, growing room[] to cover it. 0 or -ENOMEM. */
static int index_set_room(struct ext2_dir_index *idx, unsigned long n,
			  unsigned int room)
{
	if (n >= idx->room_cap) {
		unsigned long cap = max(2 * idx->room_cap, n + 16);
		u16 *room_new = kzalloc(cap * sizeof(u16), GFP_KERNEL);

		if (!room_new)
			return -ENOMEM;
		if (idx->room)
			memcpy(room_new, idx->room,
			       idx->room_cap * sizeof(u16));
		kfree(idx->room);
		idx->room = room_new;
		idx->room_cap = cap;
	}
	idx->room[n] = room;
	if (n >= idx->npages)
		idx->npages = n + 1;
	return 0;
}

/* Index page n (held): its names and its room. 0 or -ENOMEM. */
static int index_add_page(struct inode *dir, struct ext2_dir_index *idx,
			  struct page *page)
{
	char *kaddr = page_address(page);
	char *end = kaddr + ext2_last_byte(dir, page->index);
	struct ext2_dir_entry_2 *de;
	int err = 0;

	for (de = (void *)kaddr; (char *)de < end && !err; de = next_entry(de))
		if (de->inode)
			err = index_insert(idx, full_name_hash(de->name,
							       de->name_len),
					   page->index);
	return err ? err : index_set_room(idx, page->index,
					  ext2_page_room(dir, page));
}

/* Read every page into a new index: NULL when out of memory, INDEX_BROKEN
 * for a damaged or unreadable directory. */
static struct ext2_dir_index *index_build(struct inode *dir)
{
	struct ext2_dir_index *idx = kzalloc(sizeof(*idx), GFP_KERNEL);
	unsigned long npages = dir_pages(dir);
	int err = idx ? index_make_room(idx) : -ENOMEM;

	for (unsigned long n = 0; n < npages && !err; n++) {
		struct page *page = ext2_get_page(dir, n);

		if (IS_ERR(page)) {
			err = -EIO;
			break;
		}
		err = index_add_page(dir, idx, page);
		ext2_put_page(page);
	}
	if (!err)
		return idx;
	index_destroy(idx);
	return err == -EIO ? INDEX_BROKEN : NULL;
}

/* dir's index, built if dir is large enough; NULL if it has none. The
 * index must cover exactly the directory's pages, or it is dropped. */
static struct ext2_dir_index *index_get(struct inode *dir)
{
	struct ext2_inode_info *ei = EXT2_I(dir);

	if (ei->i_dir_index == INDEX_BROKEN)
		return NULL;
	if (ei->i_dir_index && ei->i_dir_index->npages != dir_pages(dir))
		ext2_dir_index_free(dir);
	if (!ei->i_dir_index && dir_pages(dir) >= EXT2_INDEX_MIN_PAGES)
		ei->i_dir_index = index_build(dir);
	return ei->i_dir_index == INDEX_BROKEN ? NULL : ei->i_dir_index;
}

/* ext2_find_entry through the index: only the pages holding a name with
 * the same hash are read. */
static struct ext2_dir_entry_2 *index_find(struct inode *dir,
					   struct ext2_dir_index *idx,
					   const struct qstr *name,
					   struct page **res_page)
{
	u32 hash = full_name_hash(name->name, name->len);
	unsigned long mask = (1UL << idx->bits) - 1;

	for (unsigned long i = slot_of(hash, idx->bits);
	     idx->slots[i] != SLOT_EMPTY; i = (i + 1) & mask) {
		u64 s = idx->slots[i];
		struct ext2_dir_entry_2 *de;

		if (s == SLOT_GONE || (u32)(s >> 32) != hash)
			continue;
		de = find_in_page_n(dir, (u32)s - 1, name, res_page);
		if (de)
			return de;
	}
	return NULL;
}

/* The first page that can take a record of reclen bytes; or the last
 * page, whose walk reaches the end of the directory and appends. */
static unsigned long index_page_with_room(struct ext2_dir_index *idx,
					  unsigned int reclen)
{
	for (unsigned long n = 0; n < idx->npages; n++)
		if (idx->room[n] >= reclen)
			return n;
	return idx->npages ? idx->npages - 1 : 0;
}

/* A name with this hash was added to (or removed from) page (held):
 * update the index, or drop it if it cannot follow. */
static void index_changed(struct inode *dir, struct page *page, u32 hash,
			  bool added)
{
	struct ext2_dir_index *idx = EXT2_I(dir)->i_dir_index;
	int err;

	if (!idx || idx == INDEX_BROKEN)
		return;
	if (added)
		err = index_insert(idx, hash, page->index);
	else
		err = index_remove(idx, hash, page->index) ? 0 : -ENOENT;
	if (!err)
		err = index_set_room(idx, page->index,
				     ext2_page_room(dir, page));
	if (err || idx->npages != dir_pages(dir))
		ext2_dir_index_free(dir);
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
		de = next_entry(de);	/* rec_len >= 12: checked */
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
		     de = next_entry(de)) {
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

	for (; de <= end; de = next_entry(de))
		if (ext2_match(name->len, name->name, de))
			return de;
	return NULL;
}

/* ext2_find_in_page on page n of dir: the record with *res_page set to
 * its page (kept), NULL (page released) or an ERR_PTR. */
static struct ext2_dir_entry_2 *find_in_page_n(struct inode *dir,
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
	struct ext2_dir_index *idx = index_get(dir);

	*res_page = NULL;
	if (idx)
		return index_find(dir, idx, name, res_page);
	for (unsigned long n = 0; n < npages; n++) {
		struct ext2_dir_entry_2 *de = find_in_page_n(dir, n, name,
							      res_page);

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
	de = next_entry((struct ext2_dir_entry_2 *)page_address(page));
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
	unsigned long npages = dir_pages(dir), start = 0;
	struct ext2_dir_index *idx = index_get(dir);
	struct ext2_dir_entry_2 *de = NULL;
	struct page *page = NULL;
	char *kaddr, *dir_end;
	loff_t pos;

	if (idx) {	/* the name must be new; then go where there is room */
		de = index_find(dir, idx, &dentry->d_name, &page);
		if (IS_ERR(de))
			return PTR_ERR(de);
		if (de) {
			ext2_put_page(page);
			return -EEXIST;
		}
		start = index_page_with_room(idx, reclen);
	}
	for (unsigned long n = start; n <= npages; n++) {
		page = ext2_get_page(dir, n);	/* n == npages: past EOF,
						 * reads as zeroes */
		if (IS_ERR(page))
			return PTR_ERR(page);
		kaddr = page_address(page);
		dir_end = kaddr + ext2_last_byte(dir, n);
		for (de = (void *)kaddr; (char *)de <= kaddr + PAGE_SIZE - reclen;
		     de = next_entry(de)) {
			if ((char *)de == dir_end) {	/* a new block */
				name_len = 0;
				rec_len = chunk;
				goto got_it;
			}
			if (ext2_match(namelen, name, de)) {
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
	index_changed(dir, page, full_name_hash(name, namelen), true);
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
	u32 hash = full_name_hash(dir_de->name, dir_de->name_len);
	loff_t pos;
	int err;

	while (de < dir_de) {
		pde = de;
		de = next_entry(de);
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
	index_changed(dir, page, hash, false);
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
	de = next_entry(de);
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
		for (de = (void *)kaddr; de <= end; de = next_entry(de)) {
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
