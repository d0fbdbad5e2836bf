/*
 * The file-system state a task owns, as process code sees it: the VFS
 * (fs/) implements these; fork, exit and exec only pass them along.
 */
#ifndef _KERNEL_TASK_FS_H
#define _KERNEL_TASK_FS_H

#include <kernel/types.h>

struct files_struct;
struct fs_struct;
struct file;

struct files_struct *dup_fd(struct files_struct *old);
struct files_struct *get_files_struct(struct files_struct *files);
void put_files_struct(struct files_struct *files);
void do_close_on_exec(struct files_struct *files);
int unshare_files(void);
struct fs_struct *copy_fs_struct(struct fs_struct *old);
struct fs_struct *get_fs_struct(struct fs_struct *fs);
void put_fs_struct(struct fs_struct *fs);
struct file *open_exec(const char *path);
ssize_t kernel_read(struct file *file, void *buf, size_t count, loff_t *pos);
void fput(struct file *file);

#endif
