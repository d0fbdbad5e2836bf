/*
 * kernel/locking/lockdep.c: the held-lock assertions of <kernel/lockdep.h>.
 * A failed one prints which lock, where it was required, who runs and who
 * holds it, then panics so that the backtrace shows the caller that came
 * without the lock. (Linux's lockdep also learns the order locks are
 * taken in and reports inversions; pagelab's does not, yet.)
 *
 * It also keeps each task's held-lock stack (the mutexes it holds, and
 * where each was taken: lock_acquired/lock_released, from mutex.c), shown
 * in the task dump and checked on the way back to user space, and it has
 * the report of might_sleep (<kernel/preempt.h>).
 */
#include <kernel/lockdep.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/preempt.h>

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

/* ---- the held-lock stack -------------------------------------------------- */

void lock_acquired(struct mutex *m, unsigned long ip)
{
	struct task_struct *t = current;
	static bool warned;

	if (t->lockdep_depth < MAX_LOCK_DEPTH)
		t->held_locks[t->lockdep_depth] = (struct held_lock){ m, ip };
	else if (!warned) {
		warned = true;
		pr_warn("lockdep: %s/%d holds more than %d mutexes; only the "
			"first %d are listed\n", t->comm, t->pid,
			MAX_LOCK_DEPTH, MAX_LOCK_DEPTH);
	}
	t->lockdep_depth++;
}

/* Locks are often released out of order (rename): find m, close the gap. */
void lock_released(struct mutex *m)
{
	struct task_struct *t = current;
	int n = min(t->lockdep_depth, MAX_LOCK_DEPTH);

	for (int i = n - 1; i >= 0; i--)
		if (t->held_locks[i].instance == m) {
			memmove(&t->held_locks[i], &t->held_locks[i + 1],
				(n - i - 1) * sizeof(t->held_locks[0]));
			t->lockdep_depth--;
			return;
		}
	if (t->lockdep_depth > 0)	/* one past the listed ones */
		t->lockdep_depth--;
}

void lockdep_print_held_locks(struct task_struct *t)
{
	int n = min(t->lockdep_depth, MAX_LOCK_DEPTH);

	if (!t->lockdep_depth)
		return;
	printk(KERN_INFO "%d lock%s held by %s/%d:\n", t->lockdep_depth,
	       t->lockdep_depth == 1 ? "" : "s", t->comm, t->pid);
	for (int i = 0; i < n; i++)
		printk(KERN_INFO " #%d: %s, taken at %pS\n", i,
		       t->held_locks[i].instance->name,
		       (void *)t->held_locks[i].acquire_ip);
}

void lockdep_sys_exit_bug(void)
{
	struct task_struct *t = current;

	console_loglevel = 15;
	if (preempt_count())
		printk(KERN_EMERG "BUG: %s/%d returning to user space with "
		       "preempt_count 0x%x (a spinlock held, or an interrupt "
		       "not left)\n", t->comm, t->pid, preempt_count());
	else
		printk(KERN_EMERG "BUG: %s/%d returning to user space with "
		       "a lock held\n", t->comm, t->pid);
	lockdep_print_held_locks(t);
	panic("lock held when returning to user space");
}

void __might_sleep_bug(const char *file, int line)
{
	struct task_struct *t = current;

	printk(KERN_EMERG "BUG: sleeping function called from invalid context "
	       "at %s:%d\n", file, line);
	printk(KERN_EMERG "in_atomic(): 1, in_interrupt(): %d, preempt_count: "
	       "0x%x, pid: %d, name: %s (%s)\n", in_interrupt() ? 1 : 0,
	       preempt_count(), t->pid, t->comm,
	       in_interrupt() ? "an interrupt handler may not sleep"
			      : "a spinlock is held: release it first");
	lockdep_print_held_locks(t);
	panic("sleeping function called from invalid context at %s:%d",
	      file, line);
}
