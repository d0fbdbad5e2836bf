/* initramfs (fs/initramfs.c): a cpio "newc" archive unpacked into /. */
#ifndef _FS_INITRAMFS_H
#define _FS_INITRAMFS_H

#include <kernel/types.h>

/*
 * Unpack the archive at data (len bytes) into the root file system, as
 * current (root): directories, regular files, symlinks, device nodes and
 * FIFOs, with their mode, owner and mtime. A malformed archive is logged
 * ("initramfs: ...") and unpacking stops there: entries before the fault
 * stay. Returns 0, or -EINVAL for a malformed archive (-ENOMEM, ...).
 */
int populate_rootfs(const void *data, size_t len);

#endif
