/*
 * fs/pagecache_test.c: self-test "pagecache".
 *
 * A file of several pages is written in odd-sized pieces at odd offsets
 * (pieces that straddle page boundaries, a hole in the middle), checked
 * byte for byte through reads of other odd sizes, then cut with
 * truncate_inode_pages-based truncation. The page cache must index
 * exactly the pages the data needs (nrpages), truncation must drop and
 * free the pages past the cut, and unlinking must give every page and
 * every kmalloc object back: the free page count returns to its value
 * before the test. And add_to_page_cache fails cleanly: with its index
 * taken (-EEXIST) and with memory short for the tree's nodes (-ENOMEM,
 * fail_radix_preload), the page is left as it came.
 */
#include "vfs_test.h"
#include <fs/stat.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <mm/filemap.h>
#include <mm/slab.h>
#include <kernel/fault_inject.h>

#define PC_FILE "/tmp/pagecache_test"
#define PC_PAGES 9
#define PC_SIZE (PC_PAGES * PAGE_SIZE - 123)

/* The byte that belongs at offset off (0 in the hole). */
static unsigned char pattern(loff_t off)
{
	if (off >= 3 * (loff_t)PAGE_SIZE && off < 5 * (loff_t)PAGE_SIZE)
		return 0;
	return (unsigned char)(off * 7 + (off >> 12) + 1);
}

/* Write [start, end) in pieces of `step` bytes through fd. */
static int write_range(int fd, char *buf, loff_t start, loff_t end,
		       size_t step)
{
	for (loff_t off = start; off < end; off += step) {
		size_t n = min((loff_t)step, end - off);
		struct file *f = fget(fd);
		loff_t pos = off;
		long r;

		for (size_t i = 0; i < n; i++)
			buf[i] = pattern(off + i);
		r = kernel_write(f, buf, n, &pos);
		fput(f);
		if (r != (long)n)
			return selftest_fail("write %lu at %ld: %ld", n, off, r);
	}
	return 0;
}

/* Read everything back in pieces of `step` bytes, compare. */
static int check_contents(int fd, char *buf, loff_t size, size_t step)
{
	for (loff_t off = 0; off < size; off += step) {
		long want = min((loff_t)step, size - off);
		long r = kfd_pread(fd, buf, step, off);

		if (r != want)
			return selftest_fail("read %lu at %ld: got %ld, want %ld",
					     step, off, r, want);
		for (long i = 0; i < r; i++)
			if ((unsigned char)buf[i] != pattern(off + i))
				return selftest_fail("byte %ld: got 0x%x, "
						     "want 0x%x", off + i,
						     (unsigned char)buf[i],
						     pattern(off + i));
	}
	EXPECT_EQ(kfd_pread(fd, buf, step, size), 0);	/* EOF */
	return 0;
}

/* add_to_page_cache must refuse page at index with want, and leave it as
 * it came: unlocked, in no mapping, the caller's reference its only one
 * (so that the caller's put frees it), the cache without it. */
static int add_refused(struct page *page, struct address_space *mapping,
		       pgoff_t index, int want, const char *why)
{
	unsigned long nr = mapping->nrpages;
	int got = add_to_page_cache(page, mapping, index, GFP_KERNEL);
	struct page *there;

	if (got != want)
		return selftest_fail("add_to_page_cache, %s: got %d, want %d",
				     why, got, want);
	if (PageLocked(page) || page->mapping || page_count(page) != 1)
		return selftest_fail("add_to_page_cache, %s: the page is left "
				     "%slocked, mapping %p, count %d; want "
				     "unlocked, NULL, 1", why,
				     PageLocked(page) ? "" : "un",
				     (void *)page->mapping, page_count(page));
	there = find_get_page(mapping, index);
	if (there)
		page_cache_release(there);
	if (there == page || mapping->nrpages != nr)
		return selftest_fail("add_to_page_cache, %s: the cache holds "
				     "the page (nrpages %lu, was %lu)", why,
				     mapping->nrpages, nr);
	return 0;
}

static int add_errors(struct address_space *mapping)
{
	struct page *first = page_cache_alloc(mapping);
	struct page *second = page_cache_alloc(mapping);
	int err;

	if (!first || !second)
		return selftest_fail("no memory for two pages");
	err = add_to_page_cache(first, mapping, 40, GFP_KERNEL);
	if (err)
		return selftest_fail("add_to_page_cache at 40: %d", err);
	unlock_page(first);
	err = add_refused(second, mapping, 40, -EEXIST, "an index taken");
	fail_radix_preload.countdown = 1;
	if (!err)
		err = add_refused(second, mapping, 1UL << 30, -ENOMEM,
				  "no memory for the tree's nodes");
	fail_radix_preload.countdown = 0;
	lock_page(first);
	delete_from_page_cache(first);
	unlock_page(first);
	page_cache_release(first);
	page_cache_release(second);
	return err;
}

static int pagecache_cases(int fd, char *buf)
{
	struct file *f = fget(fd);
	struct address_space *mapping = f->f_inode->i_mapping;
	unsigned long free_mid;
	int err;

	fput(f);
	/* Pages 0-2 in 1000-byte pieces, 5-8 in 3001-byte pieces: 3 and 4
	 * stay a hole that only the final size covers. */
	err = write_range(fd, buf, 0, 3 * PAGE_SIZE, 1000);
	if (!err)
		err = write_range(fd, buf, 5 * PAGE_SIZE, PC_SIZE, 3001);
	if (err)
		return err;
	EXPECT_EQ(mapping->nrpages, 7);
	EXPECT_EQ(find_get_page(mapping, 3) == NULL, 1);
	err = check_contents(fd, buf, PC_SIZE, 777);
	if (!err)
		err = check_contents(fd, buf, PC_SIZE, 4096);
	if (err)
		return err;
	/* Reading the hole put zero pages there (ramfs readpage). */
	EXPECT_EQ(mapping->nrpages, PC_PAGES);

	/* Cut in the middle of page 2: pages 3.. go, and are freed. */
	free_mid = nr_free_pages();
	EXPECT_EQ(do_sys_ftruncate(fd, 2 * PAGE_SIZE + 100), 0);
	EXPECT_EQ(mapping->nrpages, 3);
	EXPECT_EQ(nr_free_pages() - free_mid >= PC_PAGES - 3, 1);
	err = check_contents(fd, buf, 2 * PAGE_SIZE + 100, 1500);
	if (err)
		return err;
	/* Growing again: the old tail of page 2 must read as zeroes. */
	EXPECT_EQ(do_sys_ftruncate(fd, 3 * PAGE_SIZE), 0);
	EXPECT_EQ(kfd_pread(fd, buf, PAGE_SIZE, 2 * PAGE_SIZE), PAGE_SIZE);
	for (size_t i = 100; i < PAGE_SIZE; i++)
		if (buf[i])
			return selftest_fail("byte %lu of page 2 is 0x%x after "
					     "shrink and grow", i, buf[i]);
	EXPECT_EQ(do_sys_ftruncate(fd, 0), 0);
	EXPECT_EQ(mapping->nrpages, 0);
	return add_errors(mapping);
}

static int test_pagecache(void)
{
	struct selftest_mem mem;
	char *buf;
	int fd, err;

	vfs_init();
	buf = kmalloc(2 * PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return selftest_fail("no memory");
	selftest_mem_snapshot(&mem);
	fd = ksys_open(PC_FILE, O_CREAT | O_EXCL | O_RDWR, 0644);
	if (fd < 0) {
		kfree(buf);
		return selftest_fail("create " PC_FILE ": %d", fd);
	}
	err = pagecache_cases(fd, buf);
	/* Rewrite it, then unlink while open: the last close frees it. */
	if (!err)
		err = write_range(fd, buf, 0, PC_SIZE, 4096);
	do_unlinkat(AT_FDCWD, PC_FILE);
	close_fd(fd);
	if (!err)
		err = selftest_mem_check(&mem);
	kfree(buf);
	return err;
}
DEFINE_SELFTEST(pagecache, test_pagecache);
