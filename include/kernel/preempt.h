/*
 * preempt_count, Linux's per-CPU count of reasons the running code must
 * not sleep: one per spinlock held (spin_lock calls preempt_disable), and
 * HARDIRQ_OFFSET while an interrupt handler runs (irq_enter). pagelab's
 * kernel is not preemptible yet, so nothing reschedules when the count
 * drops to 0; today it feeds the checks:
 *
 *	might_sleep()	at the top of anything that can sleep (mutex_lock,
 *			lock_page): "BUG: sleeping function called from
 *			invalid context" when a spinlock is held or in an
 *			interrupt, even on the runs where it does not sleep;
 *	schedule()	"BUG: scheduling while atomic" when it would sleep;
 *	return to user	the count must be 0 (kernel/locking/lockdep.c).
 */
#ifndef _KERNEL_PREEMPT_H
#define _KERNEL_PREEMPT_H

#include <kernel/compiler.h>
#include <kernel/percpu.h>

#define HARDIRQ_OFFSET (1 << 16)
#define HARDIRQ_MASK (0xff << 16)

static inline int preempt_count(void)
{
	int c;

	__asm__ volatile("movl %%gs:%c1, %0" : "=r"(c)
			 : "i"(PERCPU_PREEMPT_COUNT));
	return c;
}

static inline void preempt_count_add(int v)
{
	__asm__ volatile("addl %1, %%gs:%c0" : : "i"(PERCPU_PREEMPT_COUNT),
			 "ir"(v) : "memory", "cc");
}

#define preempt_disable() preempt_count_add(1)
#define preempt_enable() preempt_count_add(-1)
#define irq_enter() preempt_count_add(HARDIRQ_OFFSET)
#define irq_exit() preempt_count_add(-HARDIRQ_OFFSET)

#define in_interrupt() (preempt_count() & HARDIRQ_MASK)
#define in_atomic() (preempt_count() != 0)

/* kernel/locking/lockdep.c: the report; it panics. */
__cold __noreturn void __might_sleep_bug(const char *file, int line);

#define might_sleep()                                                   \
	do {                                                            \
		if (unlikely(in_atomic()))                              \
			__might_sleep_bug(__FILE__, __LINE__);          \
	} while (0)

#endif
