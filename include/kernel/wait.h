/*
 * Wait queues: sleep until a condition holds. The waker changes the state
 * the condition reads, then calls wake_up(); the sleeper re-checks the
 * condition after every wake-up, so spurious wake-ups are harmless.
 *
 *	err = wait_event_interruptible(pipe->wait, pipe_has_data(pipe));
 *	if (err)
 *		return err;	// -ERESTARTSYS: a signal arrived
 *
 * An entry may carry a wake function instead of a task (poll and epoll
 * hang such entries on every file they watch): wake_up() calls it, and
 * it decides whom to wake. wait_woken() is the sleep that goes with
 * woken_wake_function: a wake-up that comes between testing the condition
 * and going to sleep is remembered in the entry (WQ_FLAG_WOKEN), so it is
 * not lost even when it comes from an interrupt, and a timeout can be given.
 */
#ifndef _KERNEL_WAIT_H
#define _KERNEL_WAIT_H

#include <kernel/list.h>
#include <kernel/spinlock.h>

struct task_struct;

typedef struct wait_queue_head {
	spinlock_t lock;
	struct list_head head;
} wait_queue_head_t;

struct wait_queue_entry;
/* Called by wake_up() with the queue's lock held (maybe in an interrupt):
 * must not sleep. */
typedef int (*wait_queue_func_t)(struct wait_queue_entry *w);

#define WQ_FLAG_WOKEN 0x02

struct wait_queue_entry {
	struct task_struct *task;
	struct list_head entry;
	wait_queue_func_t func;	/* NULL: wake task */
	unsigned int flags;	/* WQ_FLAG_WOKEN */
};

#define __WAIT_QUEUE_HEAD_INITIALIZER(name) \
	{ SPIN_LOCK_UNLOCKED, LIST_HEAD_INIT((name).head) }
#define DECLARE_WAIT_QUEUE_HEAD(name) \
	wait_queue_head_t name = __WAIT_QUEUE_HEAD_INITIALIZER(name)

void init_waitqueue_head(wait_queue_head_t *wq);
/* Wake every sleeper on wq. Safe from interrupt handlers. */
void wake_up(wait_queue_head_t *wq);
void __wake_up_locked(wait_queue_head_t *wq);	/* wq->lock held */

/* Building blocks of wait_event*: queue current and set its state. */
void prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *w,
		     long state);
void finish_wait(wait_queue_head_t *wq, struct wait_queue_entry *w);
/* Hang w (task and func set by the caller) on wq until removed. */
void add_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *w);
void remove_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *w);
/* An entry for current that wait_woken() sleeps on. */
void init_wait_woken(struct wait_queue_entry *w);
int woken_wake_function(struct wait_queue_entry *w);
#define MAX_SCHEDULE_TIMEOUT (~0UL >> 1)
/*
 * Sleep interruptibly until w is woken, a signal is pending or timeout
 * ticks pass (MAX_SCHEDULE_TIMEOUT: no limit); returns the ticks left, 0
 * when the time ran out. A wake-up since the last call returns at once.
 */
long wait_woken(struct wait_queue_entry *w, long timeout);
bool signal_pending_current(void);
void schedule(void);

#define TASK_RUNNING 0
#define TASK_INTERRUPTIBLE 1
#define TASK_UNINTERRUPTIBLE 2
#define TASK_STOPPED 4	/* job control: until SIGCONT or SIGKILL */

#define wait_event(wq, cond)                                              \
	do {                                                              \
		struct wait_queue_entry __w = { 0 };                              \
		for (;;) {                                                \
			prepare_to_wait(&(wq), &__w, TASK_UNINTERRUPTIBLE); \
			if (cond)                                         \
				break;                                    \
			schedule();                                       \
		}                                                         \
		finish_wait(&(wq), &__w);                                 \
	} while (0)

/* 0 when cond became true, -ERESTARTSYS when a signal is pending. */
#define wait_event_interruptible(wq, cond)                                \
	({                                                                \
		struct wait_queue_entry __w = { 0 };                              \
		int __ret = 0;                                            \
		for (;;) {                                                \
			prepare_to_wait(&(wq), &__w, TASK_INTERRUPTIBLE); \
			if (cond)                                         \
				break;                                    \
			if (signal_pending_current()) {                   \
				__ret = -ERESTARTSYS;                     \
				break;                                    \
			}                                                 \
			schedule();                                       \
		}                                                         \
		finish_wait(&(wq), &__w);                                 \
		__ret;                                                    \
	})

#endif
