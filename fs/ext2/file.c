/*
 * fs/ext2/file.c: regular files (Linux's fs/ext2/file.c). Reading and
 * writing are the page cache's generic loops (mm/filemap.c) over
 * ext2_aops; what is ext2's own is fsync and the choice of truncate
 * sequence, made per mount (-o truncate=old|new) by giving a file one of
 * the two inode_operations tables below.
 */
#include "ext2.h"
#include <mm/fault_around.h>
#include <mm/filemap.h>
#include <mm/writeback.h>
#include <mm/mmap.h>

/*
 * fsync/fdatasync: the file's dirty pages, then the metadata that belongs
 * to it alone (its indirect blocks), then the inode, all written and
 * waited for. Like Linux's ext2, bitmaps and group counts are not part of
 * it: sync(2) and umount write those.
 */
int ext2_fsync(struct file *file, int datasync)
{
	struct inode *inode = file->f_inode;
	struct address_space *mapping = inode->i_mapping;
	int err = filemap_write_and_wait(mapping);
	int err2 = sync_mapping_buffers(mapping);

	if (!err)
		err = err2;
	err2 = ext2_write_inode(inode, 1);
	return err ? err : err2;
}

/* Stores through a shared mapping need blocks: see block_page_mkwrite. */
static int ext2_page_mkwrite(struct vm_fault *vmf)
{
	return block_page_mkwrite(vmf->vma, vmf, ext2_get_block);
}

static const struct vm_operations_struct ext2_file_vm_ops = {
	.fault = filemap_fault,
	.map_pages = filemap_map_pages,
	.page_mkwrite = ext2_page_mkwrite,
};

static int ext2_file_mmap(struct file *file, struct vm_area_struct *vma)
{
	vma->vm_ops = &ext2_file_vm_ops;
	return 0;
}

const struct file_operations ext2_file_operations = {
	.llseek = generic_file_llseek,
	.read_iter = generic_file_read,
	.write_iter = generic_file_write_iter,
	.fsync = ext2_fsync,
	.mmap = ext2_file_mmap,
	.unlocked_ioctl = ext2_ioctl,
};

/* -o truncate=new: notify_change -> ext2_setattr -> ext2_setsize. */
const struct inode_operations ext2_file_inode_operations = {
	.setattr = ext2_setattr,
	.new_truncate = 1,
};

/* -o truncate=old: ext2_setattr -> vmtruncate -> ->truncate. */
const struct inode_operations ext2_file_inode_operations_old = {
	.setattr = ext2_setattr,
	.truncate = ext2_truncate,
};
