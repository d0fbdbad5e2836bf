/*
 * Completions: one task waits until another (or an interrupt handler)
 * says "done". The waiter sleeps uninterruptibly: I/O must finish.
 */
#ifndef _KERNEL_COMPLETION_H
#define _KERNEL_COMPLETION_H

#include <kernel/wait.h>

struct completion {
	volatile bool done;
	wait_queue_head_t wait;
};

static inline void init_completion(struct completion *c)
{
	c->done = false;
	init_waitqueue_head(&c->wait);
}

/* Safe from interrupt handlers. done is set under the queue's lock: a
 * waiter that sees it (on another CPU) and returns, ending the frame the
 * completion lives in, then waits for the lock, so we are done with it. */
static inline void complete(struct completion *c)
{
	unsigned long flags;

	spin_lock_irqsave(&c->wait.lock, flags);
	c->done = true;
	__wake_up_locked(&c->wait);
	spin_unlock_irqrestore(&c->wait.lock, flags);
}

static inline void wait_for_completion(struct completion *c)
{
	unsigned long flags;

	wait_event(c->wait, c->done);
	spin_lock_irqsave(&c->wait.lock, flags);	/* complete() is out */
	spin_unlock_irqrestore(&c->wait.lock, flags);
}

#endif
