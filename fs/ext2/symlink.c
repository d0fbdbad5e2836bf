/*
 * fs/ext2/symlink.c: the two kinds of symbolic link (Linux's
 * fs/ext2/symlink.c). A fast symlink keeps its target in the inode's
 * i_data (under 60 bytes, no block: i_blocks is 0); a slow one keeps it
 * in its first data block, read through the page cache. Either way the
 * target is copied once into inode->i_link (kmalloc'ed, freed when the
 * inode is evicted) and served from there: a symlink never changes.
 */
#include "ext2.h"
#include <kernel/errno.h>
#include <kernel/string.h>
#include <mm/filemap.h>
#include <mm/slab.h>

/* The target of a slow symlink, from page 0 of its page cache. */
static int read_slow_target(struct inode *inode, char *buf, size_t len)
{
	struct address_space *mapping = inode->i_mapping;
	struct page *page = find_or_create_page(mapping, 0, GFP_KERNEL);
	int err = 0;

	if (!page)
		return -ENOMEM;
	if (!PageUptodate(page)) {
		err = mapping->a_ops->readpage(NULL, page);	/* unlocks */
		if (!err) {
			wait_on_page_locked(page);
			err = PageUptodate(page) ? 0 : -EIO;
		}
	} else {
		unlock_page(page);
	}
	if (!err)
		memcpy(buf, page_address(page), len);
	page_cache_release(page);
	return err;
}

static const char *ext2_get_link(struct dentry *dentry, struct inode *inode)
{
	size_t len = inode->i_size;
	char *buf;
	int err = 0;

	if (inode->i_link)
		return inode->i_link;
	if (len >= PAGE_SIZE)	/* iget checked; be sure anyway */
		return ERR_PTR(-EIO);
	buf = kmalloc(len + 1, GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	if (ext2_inode_is_fast_symlink(inode))
		memcpy(buf, EXT2_I(inode)->i_data, len);
	else
		err = read_slow_target(inode, buf, len);
	if (err) {
		kfree(buf);
		return ERR_PTR(err);
	}
	buf[len] = '\0';
	if (inode->i_link)	/* someone else got there while we read */
		kfree(buf);
	else
		inode->i_link = buf;
	return inode->i_link;
}

/* Write a slow symlink's target (len bytes, no NUL) into its block. */
int ext2_page_symlink(struct inode *inode, const char *target,
		      unsigned int len)
{
	struct address_space *mapping = inode->i_mapping;
	struct page *page;
	int err;

	err = mapping->a_ops->write_begin(NULL, mapping, 0, len, 0, &page,
					  NULL);
	if (err)
		return err;
	memcpy(page_address(page), target, len);
	mapping->a_ops->write_end(NULL, mapping, 0, len, len, page, NULL);
	return 0;
}

const struct inode_operations ext2_fast_symlink_inode_operations = {
	.get_link = ext2_get_link,
	.setattr = ext2_setattr,
};

const struct inode_operations ext2_symlink_inode_operations = {
	.get_link = ext2_get_link,
	.setattr = ext2_setattr,
};
