/*
 * kernel/sched/wait.c: wait queues (see <kernel/wait.h> for the pattern).
 * prepare_to_wait() queues the task and sets its state *before* the caller
 * tests its condition, so a wake_up() between the test and schedule() just
 * makes schedule() return at once: no lost wake-ups.
 */
#include <kernel/wait.h>
#include <kernel/sched.h>

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

void wake_up(wait_queue_head_t *wq)
{
	struct wait_queue_entry *w;
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	list_for_each_entry(w, &wq->head, entry)
		wake_up_process(w->task);
	spin_unlock_irqrestore(&wq->lock, flags);
}

bool signal_pending_current(void)
{
	return signal_pending(current);
}
