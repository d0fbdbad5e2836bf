/*
 * fs/locks.c: flock(2), BSD whole-file advisory locks.
 *
 * A lock belongs to an open file (struct file): dup'ed fds and forked
 * children share it, and the file's last close drops it
 * (locks_remove_file, from __fput). An inode carries any number of shared
 * locks or one exclusive lock. A request that conflicts waits, or fails
 * with EWOULDBLOCK under LOCK_NB; a handled signal ends the wait (EINTR,
 * or a restart with SA_RESTART). Changing a lock's type is not atomic, as
 * on Linux and BSD: the old lock goes first, and a waiter may take the
 * file in between.
 *
 * All locks sit on one list under file_lock_lock (few files are locked at
 * a time); waiters sleep on one queue and test again when any lock goes.
 * POSIX record locks (fcntl F_SETLK) are not implemented.
 */
#include <fs/file.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <mm/slab.h>

#define LOCK_SH 1
#define LOCK_EX 2
#define LOCK_NB 4
#define LOCK_UN 8
#define LOCK_MAND 32

struct file_lock {
	struct list_head link;	/* file_locks */
	struct file *file;	/* the owner */
	struct inode *inode;
	int type;	/* LOCK_SH or LOCK_EX */
};

static LIST_HEAD(file_locks);
static DEFINE_SPINLOCK(file_lock_lock);
static DECLARE_WAIT_QUEUE_HEAD(flock_wait);

/* file_lock_lock held. */
static struct file_lock *find_own_lock(struct file *file)
{
	struct file_lock *fl;

	list_for_each_entry(fl, &file_locks, link)
		if (fl->file == file)
			return fl;
	return NULL;
}

/* file_lock_lock held: would another file's lock block a lock of type? */
static bool flock_conflict(struct file *file, int type)
{
	struct file_lock *fl;

	list_for_each_entry(fl, &file_locks, link)
		if (fl->inode == file->f_inode && fl->file != file &&
		    (type == LOCK_EX || fl->type == LOCK_EX))
			return true;
	return false;
}

static bool flock_blocked(struct file *file, int type)
{
	unsigned long flags;
	bool blocked;

	spin_lock_irqsave(&file_lock_lock, flags);
	blocked = flock_conflict(file, type);
	spin_unlock_irqrestore(&file_lock_lock, flags);
	return blocked;
}

/* Drop file's lock, if it has one, and let waiters look again. */
static void flock_remove(struct file *file)
{
	struct file_lock *fl;
	unsigned long flags;

	spin_lock_irqsave(&file_lock_lock, flags);
	fl = find_own_lock(file);
	if (fl)
		list_del(&fl->link);
	spin_unlock_irqrestore(&file_lock_lock, flags);
	if (fl) {
		kfree(fl);
		wake_up(&flock_wait);
	}
}

/* Give file a lock of type once nobody else's conflicts. */
static int flock_lock_file(struct file *file, int type, bool wait)
{
	struct file_lock *new = kzalloc(sizeof(*new), GFP_KERNEL);
	unsigned long flags;
	struct file_lock *old;
	int err;

	if (!new)
		return -ENOMEM;
	spin_lock_irqsave(&file_lock_lock, flags);
	old = find_own_lock(file);
	spin_unlock_irqrestore(&file_lock_lock, flags);
	if (old && old->type == type) {
		kfree(new);
		return 0;
	}
	if (old)
		flock_remove(file);	/* not atomic: see the top */
	for (;;) {
		spin_lock_irqsave(&file_lock_lock, flags);
		if (!flock_conflict(file, type))
			break;
		spin_unlock_irqrestore(&file_lock_lock, flags);
		err = wait ? wait_event_interruptible(flock_wait,
						     !flock_blocked(file, type))
			   : -EWOULDBLOCK;
		if (err) {
			kfree(new);
			return err;
		}
	}
	new->file = file;
	new->inode = file->f_inode;
	new->type = type;
	list_add_tail(&new->link, &file_locks);
	spin_unlock_irqrestore(&file_lock_lock, flags);
	return 0;
}

void locks_remove_file(struct file *file)
{
	if (!list_empty(&file_locks))
		flock_remove(file);
}

SYSCALL_DEFINE2(flock, unsigned int, fd, unsigned int, cmd)
{
	int type = cmd & ~LOCK_NB, err = 0;
	struct file *file;

	if (cmd & LOCK_MAND)
		return 0;	/* long broken, now ignored, as on Linux */
	if (type != LOCK_SH && type != LOCK_EX && type != LOCK_UN)
		return -EINVAL;
	file = fget(fd);
	if (!file)
		return -EBADF;
	if (type == LOCK_UN)
		flock_remove(file);
	else if (!(file->f_mode & (FMODE_READ | FMODE_WRITE)))
		err = -EBADF;	/* O_PATH */
	else
		err = flock_lock_file(file, type, !(cmd & LOCK_NB));
	fput(file);
	return err;
}
