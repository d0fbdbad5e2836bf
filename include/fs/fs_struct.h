/*
 * A process's place in the tree (fs/fs_struct.c): its root, its current
 * directory and its umask. Shared after clone(CLONE_FS), copied by fork.
 * lock protects root and pwd; both are referenced paths.
 */
#ifndef _FS_FS_STRUCT_H
#define _FS_FS_STRUCT_H

#include <fs/fs.h>

struct fs_struct {
	int users;
	spinlock_t lock;
	int umask;
	struct path root, pwd;
};

/* fork: a new fs_struct with the same root, cwd and umask (referenced). */
struct fs_struct *copy_fs_struct(struct fs_struct *old);
/* exit: drop a user; the last one releases root and cwd. */
void put_fs_struct(struct fs_struct *fs);
/* clone(CLONE_FS): one more task uses fs; returns it. */
struct fs_struct *get_fs_struct(struct fs_struct *fs);
struct fs_struct *alloc_fs_struct(const struct path *root);
/* Replace root/cwd (takes a reference on path, drops the old one). */
void set_fs_root(struct fs_struct *fs, const struct path *path);
void set_fs_pwd(struct fs_struct *fs, const struct path *path);
/* Referenced copies of current's root and cwd. */
void get_fs_root(struct fs_struct *fs, struct path *root);
void get_fs_pwd(struct fs_struct *fs, struct path *pwd);
/* The umask of the current task (022 when it has no fs_struct yet). */
int current_umask(void);

#endif
