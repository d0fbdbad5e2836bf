/*
 * kernel/locking/lockdep.c: the held-lock assertions of <kernel/lockdep.h>.
 * A failed one prints which lock, where it was required, who runs and who
 * holds it, then panics so that the backtrace shows the caller that came
 * without the lock. (Linux's lockdep also learns the order locks are
 * taken in and reports inversions; pagelab's does not, yet.)
 */
#include <kernel/lockdep.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/string.h>

const char *lockdep_task_name(struct task_struct *t, char *buf, size_t size)
{
	if (!t)
		return "nobody";
	snprintf(buf, size, "%s/%d", t->comm, t->pid);
	return buf;
}

void lockdep_mutex_not_held(struct mutex *m, const char *name,
			    const char *file, int line)
{
	char held[40], by[40];

	printk(KERN_EMERG "BUG: %s must be held at %s:%d, by %s; it is held "
	       "by %s\n", name, file, line,
	       lockdep_task_name(current, by, sizeof(by)),
	       m->locked ? lockdep_task_name(m->owner, held, sizeof(held))
			 : "nobody");
	panic("lock %s not held at %s:%d", name, file, line);
}

void lockdep_spin_not_held(const char *name, const char *file, int line)
{
	printk(KERN_EMERG "BUG: spinlock %s must be held at %s:%d, and it is "
	       "not\n", name, file, line);
	panic("lock %s not held at %s:%d", name, file, line);
}
