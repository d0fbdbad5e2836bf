/*
 * kernel/sched/wait.c: wait queues (see <kernel/wait.h> for the pattern).
 * prepare_to_wait() queues the task and sets its state *before* the caller
 * tests its condition, so a wake_up() between the test and schedule() just
 * makes schedule() return at once: no lost wake-ups.
 *
 * Entries with a wake function (poll, epoll) stay queued across many
 * sleeps: add_wait_queue/remove_wait_queue, and wait_woken() to sleep.
 */
#include <kernel/wait.h>
#include <kernel/sched.h>
#include <kernel/time.h>

void init_waitqueue_head(wait_queue_head_t *wq)
{
	spin_lock_init(&wq->lock);
	INIT_LIST_HEAD(&wq->head);
}

void prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *w,
		     long state)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	if (!w->task) {	/* first call for this entry */
		w->task = current;
		INIT_LIST_HEAD(&w->entry);
	}
	if (list_empty(&w->entry))
		list_add_tail(&w->entry, &wq->head);
	current->state = state;
	spin_unlock_irqrestore(&wq->lock, flags);
}

void finish_wait(wait_queue_head_t *wq, struct wait_queue_entry *w)
{
	unsigned long flags;

	current->state = TASK_RUNNING;
	spin_lock_irqsave(&wq->lock, flags);
	if (w->task && !list_empty(&w->entry))
		list_del_init(&w->entry);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void add_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *w)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	list_add_tail(&w->entry, &wq->head);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void remove_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *w)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	list_del_init(&w->entry);
	spin_unlock_irqrestore(&wq->lock, flags);
}

/* A wake function may unlink its own entry: walk with a lookahead. */
void __wake_up_locked(wait_queue_head_t *wq)
{
	struct wait_queue_entry *w, *next;

	list_for_each_entry_safe(w, next, &wq->head, entry) {
		if (w->func)
			w->func(w);
		else
			wake_up_process(w->task);
	}
}

void wake_up(wait_queue_head_t *wq)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	__wake_up_locked(wq);
	spin_unlock_irqrestore(&wq->lock, flags);
}

int woken_wake_function(struct wait_queue_entry *w)
{
	__atomic_or_fetch(&w->flags, WQ_FLAG_WOKEN, __ATOMIC_SEQ_CST);
	wake_up_process(w->task);
	return 1;
}

void init_wait_woken(struct wait_queue_entry *w)
{
	w->task = current;
	w->func = woken_wake_function;
	w->flags = 0;
	INIT_LIST_HEAD(&w->entry);
}

/*
 * The state is set before WQ_FLAG_WOKEN is tested, and nothing sets it
 * again before the switch (schedule_timeout leaves it as it is): a waker
 * on any CPU, or in an interrupt, sets the flag and then wakes us, so
 * either we see the flag, or its wake-up finds us about to sleep and
 * makes us runnable, and schedule() returns at once.
 */
long __sched wait_woken(struct wait_queue_entry *w, long timeout)
{
	set_current_state(TASK_INTERRUPTIBLE);
	if (!(READ_ONCE(w->flags) & WQ_FLAG_WOKEN) &&
	    !signal_pending(current)) {
		if (timeout == MAX_SCHEDULE_TIMEOUT)
			schedule();
		else if (timeout > 0)
			timeout = schedule_timeout(timeout);
	}
	current->state = TASK_RUNNING;
	__atomic_and_fetch(&w->flags, ~WQ_FLAG_WOKEN, __ATOMIC_SEQ_CST);
	return timeout;
}

bool signal_pending_current(void)
{
	return signal_pending(current);
}
