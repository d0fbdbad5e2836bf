/*
 * fs/ramfs/file.c: ramfs regular files. The data is the page cache and
 * nothing else: readpage only ever sees holes, write_end dirties the page
 * so that no reclaim would drop it, and truncation is simple_setsize
 * (the new sequence: ramfs says so with new_truncate).
 */
#include <fs/ramfs.h>
#include <mm/filemap.h>

const struct address_space_operations ramfs_aops = {
	.readpage = simple_readpage,
	.write_begin = simple_write_begin,
	.write_end = simple_write_end,
};

const struct file_operations ramfs_file_operations = {
	.llseek = generic_file_llseek,
	.read_iter = generic_file_read,
	.write_iter = generic_file_write_iter,
	.fsync = noop_fsync,
	.mmap = generic_file_mmap,
};

const struct inode_operations ramfs_file_inode_operations = {
	.setattr = simple_setattr,
	.getattr = simple_getattr,
	.new_truncate = 1,
};
