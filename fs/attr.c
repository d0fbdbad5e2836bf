/*
 * fs/attr.c: changing inode attributes (size, mode, owner, times).
 *
 * notify_change is the one door: truncate, chmod, chown and utimes all
 * build a struct iattr and call it with i_mutex held. It fills in ctime
 * and the set-id clearing, then hands over to the file system's
 * ->setattr, or does the generic inode_change_ok + inode_setattr.
 *
 * The checks come first and change nothing (inode_change_ok: who may;
 * inode_newsize_ok: how big). That is the lesson of the new truncate
 * sequence (Nick Piggin's 2009 patches; doc/reading.md): a file system
 * must be able to refuse before i_size moves. inode_setattr still serves both sequences: a size change goes to
 * simple_setsize for a file system with new_truncate set, and to the old
 * vmtruncate (mm/truncate.c) and ->truncate otherwise.
 */
#include <kernel/lockdep.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <fs/dcache.h>
#include <fs/namei.h>
#include <mm/filemap.h>
#include <kernel/errno.h>
#include <kernel/resource.h>
#include <kernel/sched.h>
#include <kernel/signal.h>

static bool is_owner_or_cap(const struct inode *inode)
{
	return current->cred.fsuid == inode->i_uid || capable_fsowner();
}

int inode_change_ok(const struct inode *inode, struct iattr *attr)
{
	unsigned int ia_valid = attr->ia_valid;

	if (ia_valid & ATTR_FORCE)
		return 0;
	/* Only root gives files away (CAP_CHOWN). */
	if ((ia_valid & ATTR_UID) && attr->ia_uid != inode->i_uid &&
	    !capable_fsowner())
		return -EPERM;
	/* The owner may pick a group it belongs to. */
	if ((ia_valid & ATTR_GID) &&
	    (current->cred.fsuid != inode->i_uid ||
	     (!in_group_p(attr->ia_gid) && attr->ia_gid != inode->i_gid)) &&
	    !capable_fsowner())
		return -EPERM;
	if (ia_valid & ATTR_MODE) {
		if (!is_owner_or_cap(inode))
			return -EPERM;
		/* setgid on a file of a group we are not in is dropped. */
		if (!in_group_p((ia_valid & ATTR_GID) ? attr->ia_gid
						      : inode->i_gid) &&
		    !capable_fsowner())
			attr->ia_mode &= ~S_ISGID;
	}
	/* Explicit times need ownership; "now" was checked by the caller. */
	if ((ia_valid & ATTR_TIMES_SET) && !is_owner_or_cap(inode))
		return -EPERM;
	return 0;
}

/*
 * LAB truncate-old: inode_newsize_ok starts from this.
 * int inode_newsize_ok(const struct inode *inode, loff_t offset)
 * {
 *	return 0;
 * }
 */
/* LAB truncate-old: BEGIN */
int inode_newsize_ok(const struct inode *inode, loff_t offset)
{
	int err = 0;

	if (offset < 0) {
		err = -EINVAL;
	} else if (inode->i_size < offset) {
		unsigned long limit = current->rlim[RLIMIT_FSIZE].rlim_cur;

		if (limit != RLIM_INFINITY && (unsigned long)offset > limit) {
			send_sig_info(SIGXFSZ, NULL, current);
			err = -EFBIG;
		} else if (offset > inode->i_sb->s_maxbytes) {
			err = -EFBIG;
		}
	}
	/* Shrinking: Linux refuses for active swap files (ETXTBSY). */
	return err;
}
/* LAB truncate-old: END */

unsigned int setattr_should_drop_sgid(const struct inode *inode)
{
	umode_t mode = inode->i_mode;

	if (!(mode & S_ISGID))
		return 0;
	if (mode & S_IXGRP)
		return ATTR_KILL_SGID;
	return in_group_p(inode->i_gid) || capable_fsowner() ? 0
							    : ATTR_KILL_SGID;
}

unsigned int should_remove_suid(const struct inode *inode)
{
	unsigned int kill = 0;

	if (!S_ISREG(inode->i_mode) || capable_fsowner())
		return 0;
	if (inode->i_mode & S_ISUID)
		kill |= ATTR_KILL_SUID;
	return kill | setattr_should_drop_sgid(inode);
}

int inode_setattr(struct inode *inode, const struct iattr *attr)
{
	unsigned int ia_valid = attr->ia_valid;

	/* A file system that speaks the new sequence and still sends
	 * ATTR_SIZE here has nothing to do but the generic setsize; an old
	 * one gets vmtruncate, and its ->truncate. */
	if ((ia_valid & ATTR_SIZE) && attr->ia_size != i_size_read(inode)) {
		int err = inode->i_op && inode->i_op->new_truncate
				  ? simple_setsize(inode, attr->ia_size)
				  : vmtruncate(inode, attr->ia_size);

		if (err)
			return err;
	}
	if (ia_valid & ATTR_UID)
		inode->i_uid = attr->ia_uid;
	if (ia_valid & ATTR_GID)
		inode->i_gid = attr->ia_gid;
	if (ia_valid & ATTR_ATIME)
		inode->i_atime = attr->ia_atime;
	if (ia_valid & ATTR_MTIME)
		inode->i_mtime = attr->ia_mtime;
	if (ia_valid & ATTR_CTIME)
		inode->i_ctime = attr->ia_ctime;
	if (ia_valid & ATTR_MODE)
		inode->i_mode = attr->ia_mode;
	mark_inode_dirty(inode);
	return 0;
}

/*
 * What ->setattr did to a size it was asked to change: done (0, i_size is
 * the new size) or refused (an error, i_size untouched), the contract of
 * the new truncate sequence. One more outcome is allowed: an error after
 * the commit (ext2 failing to free blocks once i_size is written), with
 * i_size at the new size. Anything else is a half-done change.
 */
static __cold __noreturn void setattr_size_bug(struct inode *inode,
						const struct iattr *attr,
						loff_t old, int err)
{
	loff_t now = inode->i_size;
	const char *bad = err ? "failed with i_size neither the old size nor "
				"the new"
			      : "returned 0 but i_size is not the size asked for";

	printk(KERN_EMERG "BUG: ->setattr %ps %s: inode %lu, size %ld -> "
	       "%ld asked, returned %d, i_size now %ld\n",
	       inode->i_op->setattr, bad, inode->i_ino, old, attr->ia_size,
	       err, now);
	panic("->setattr %ps %s", inode->i_op->setattr, bad);
}

static inline int check_setattr_size(struct inode *inode,
				     const struct iattr *attr, loff_t old,
				     int err)
{
	loff_t now = inode->i_size;

	if ((attr->ia_valid & ATTR_SIZE) &&
	    unlikely(err ? now != old && now != attr->ia_size
			 : now != attr->ia_size))
		setattr_size_bug(inode, attr, old, err);
	return err;
}

int notify_change(struct dentry *dentry, struct iattr *attr)
{
	struct inode *inode = dentry->d_inode;
	struct timespec64 now = current_time(inode);
	unsigned int ia_valid = attr->ia_valid;

	attr->ia_ctime = now;
	if (!(ia_valid & ATTR_ATIME_SET))
		attr->ia_atime = now;
	if (!(ia_valid & ATTR_MTIME_SET))
		attr->ia_mtime = now;
	/* The caller decided which set-id bits go (setattr_should_drop_sgid,
	 * should_remove_suid); they become a mode change here. */
	if (ia_valid & (ATTR_KILL_SUID | ATTR_KILL_SGID)) {
		umode_t mode = inode->i_mode, kill = 0;

		if ((ia_valid & ATTR_KILL_SUID) && (mode & S_ISUID))
			kill |= S_ISUID;
		if ((ia_valid & ATTR_KILL_SGID) && (mode & S_ISGID))
			kill |= S_ISGID;
		if (kill) {
			attr->ia_valid |= ATTR_MODE;
			attr->ia_mode = (ia_valid & ATTR_MODE ? attr->ia_mode
							      : mode) & ~kill;
		}
		attr->ia_valid &= ~(ATTR_KILL_SUID | ATTR_KILL_SGID);
	}
	if (!attr->ia_valid)
		return 0;
	if ((ia_valid & (ATTR_MODE | ATTR_UID | ATTR_GID | ATTR_TIMES_SET)) &&
	    (IS_IMMUTABLE(inode) || IS_APPEND(inode)))
		return -EPERM;
	lockdep_assert_held(&inode->i_mutex);
	if (inode->i_op && inode->i_op->setattr)
		return check_setattr_size(inode, attr, inode->i_size,
					  inode->i_op->setattr(dentry, attr));
	return simple_setattr(dentry, attr);
}
