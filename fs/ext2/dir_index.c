/*
 * fs/ext2/dir_index.c: pagelab's in-memory name index of large
 * directories. Not part of Linux's ext2, and not part of any lab: it
 * exists for the benchmarks (make bench: create, stat and unlink of
 * thousands of names in one directory), where a plain ext2 directory
 * costs a walk of every block per name. fs/ext2/dir.c stays the linear
 * directory Linux has, and asks this file first.
 *
 * Without dir_index (htree, ext3's), ext2 finds a name by reading every
 * block of the directory, so lookup, create and unlink cost in proportion
 * to its size. A directory of EXT2_INDEX_MIN_PAGES pages or more gets, on
 * its first lookup, an index that lives only in memory (nothing on the
 * disk changes: e2fsck and other kernels still see a plain linear
 * directory):
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
#include "ext2.h"
#include <fs/dcache.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <mm/slab.h>

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

	for (; (char *)de < end; de = ext2_next_entry(de)) {
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

	for (de = (void *)kaddr; (char *)de < end && !err; de = ext2_next_entry(de))
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
		de = ext2_find_in_page_n(dir, (u32)s - 1, name, res_page);
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

/* ---- what fs/ext2/dir.c asks ------------------------------------------- */

bool ext2_dir_index_find(struct inode *dir, const struct qstr *name,
			 struct page **res_page, struct ext2_dir_entry_2 **de)
{
	struct ext2_dir_index *idx = index_get(dir);

	if (!idx)
		return false;
	*de = index_find(dir, idx, name, res_page);
	return true;
}

long ext2_dir_index_add_start(struct inode *dir, const struct qstr *name,
			      unsigned int reclen, bool *checked)
{
	struct ext2_dir_index *idx = index_get(dir);
	struct ext2_dir_entry_2 *de;
	struct page *page = NULL;

	*checked = false;
	if (!idx)
		return 0;
	de = index_find(dir, idx, name, &page);
	if (IS_ERR(de))
		return PTR_ERR(de);
	if (de) {
		ext2_put_page(page);
		return -EEXIST;
	}
	*checked = true;
	return index_page_with_room(idx, reclen);
}

void ext2_dir_index_changed(struct inode *dir, struct page *page,
			    const char *name, int len, bool added)
{
	index_changed(dir, page, full_name_hash(name, len), added);
}
