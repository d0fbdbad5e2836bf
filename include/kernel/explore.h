/*
 * A schedule explorer for the race labs (kernel/sched/explore.c), after
 * Landslide (Ben Blum, CMU 15-410): instead of hoping a race happens, run
 * the racers again and again, each time switching between them at other
 * chosen places, until every interleaving with up to K switches was tried.
 *
 * A test program opts in by writing a schedule to /proc/explore; it and
 * the children it forks from then on are the run's "explored" tasks. In
 * their page faults on files and in their truncates (explore_enter ..
 * explore_exit), the kernel numbers "points", the places a switch may
 * happen: a sleeping lock about to be taken or just released, a page
 * lock the same, a spinlock section's end (the preempt_enable that
 * reaches 0), and the fail_delay windows (passed, not held). The
 * schedule lists point numbers; at each, the running explored task
 * yields to the other runnable one. Nothing else switches them: the tick
 * does not preempt an explored task, an explored task runs before any
 * other, and its disk requests complete before it goes on (block/bio.c).
 * So a schedule names one interleaving, and runs it again exactly (the
 * point count and a hash of where each point was say so).
 *
 *	echo 17,43 > /proc/explore	# a run, switching at points 17 and 43
 *	echo none > /proc/explore	# a run without switches
 *	echo trace 17,43 > /proc/explore	# the same, each point logged
 *	cat /proc/explore		# the run: points, hash, switches
 *	echo end > /proc/explore	# the run is over
 *
 * In a run, the fault path also checks what ->fault decided against
 * i_size, which cannot change between two points of the faulting task
 * (explore_check_fault, mm/memory.c).
 */
#ifndef _KERNEL_EXPLORE_H
#define _KERNEL_EXPLORE_H

#include <kernel/compiler.h>
#include <kernel/types.h>

enum explore_kind {
	EP_SPIN_UNLOCK,		/* preempt_enable back to 0 */
	EP_LOCK,		/* mutex_lock, down_read, down_write: before */
	EP_UNLOCK,		/* mutex_unlock, up_read, up_write: after */
	EP_LOCK_PAGE,		/* lock_page: before */
	EP_UNLOCK_PAGE,		/* unlock_page: after */
	EP_DELAY,		/* + enum fail_delay_point: a named window */
};

extern bool explore_active;	/* a run is in progress */
extern unsigned long i_size_changes;	/* every i_size_write (fs/inode.c) */

struct task_struct;

void __explore_point(int kind, unsigned long ip);
void explore_fork(struct task_struct *p, struct task_struct *parent);
bool explore_current(void);	/* current is one of the run's tasks */
void explore_panic_note(void);	/* which schedule was running */
bool explore_yield(void);	/* kernel/sched/core.c */
bool explore_tick(struct task_struct *t);	/* no preemption for t? */

/* Is t one of the run's tasks? (explore_active is checked first.) */
#define explore_task(t) ((t)->explore_run == explore_seq)
extern unsigned long explore_seq;

/* A point: maybe switch here. May sleep (preemption must be on). */
static inline void explore_point(int kind, unsigned long ip)
{
	if (unlikely(explore_active))
		__explore_point(kind, ip);
}

/* Points are numbered only between these (a fault on a file mapping, a
 * truncate), so that whatever else the tasks do cannot shift them. With
 * no run, nothing but the test of explore_active. */
void __explore_enter(void);
void __explore_exit(void);

static inline void explore_enter(void)
{
	if (unlikely(explore_active))
		__explore_enter();
}

static inline void explore_exit(void)
{
	if (unlikely(explore_active))
		__explore_exit();
}
/*
 * No points in between: the explorer's own code, and printk, so that a
 * line of debugging output does not move the numbering of the points
 * after it, and a report is not cut in two by a switch. (Needs
 * <kernel/sched.h>.)
 */
#define explore_quiet_begin() (current->explore_off++)
#define explore_quiet_end() (current->explore_off--)

/* lock_page got its page: what ->fault decides from here on it decided
 * knowing i_size as it is now. */
void explore_page_locked(void);

/*
 * Pages a task of the run removed from the page cache (a truncate) must
 * all be free once the run's tasks have ended: one that is not was kept
 * by a reference nobody dropped (a fault that retried and forgot its
 * page). /proc/explore says how many ("kept N"), and the console which.
 */
struct page;
void __explore_page_removed(struct page *page);
void __explore_page_freed(struct page *page);

/* delete_from_page_cache, before the cache's reference goes. */
static inline void explore_page_removed(struct page *page)
{
	if (unlikely(explore_active))
		__explore_page_removed(page);
}

/* __free_pages, at the last reference. */
static inline void explore_page_freed(struct page *page)
{
	if (unlikely(explore_active))
		__explore_page_freed(page);
}

#endif
