/*
 * Kernel preemption, Linux's CONFIG_PREEMPT model.
 *
 * preempt_count is the per-CPU count of reasons the running code must not
 * be switched out: one per spinlock held (spin_lock calls preempt_disable),
 * and HARDIRQ_OFFSET while an interrupt handler runs (irq_enter).
 * need_resched is the per-CPU request to switch (the timer tick sets it
 * when another task waits for the CPU). With preempt=full (the default) a
 * task in the kernel is switched out as soon as both allow it:
 *
 *	on the way back from an interrupt or exception into kernel code that
 *	had interrupts on (preempt_schedule_irq, arch/x86/kernel/traps.c);
 *	at the preempt_enable() that brings the count back to 0 (the end of
 *	a spinlock section), when interrupts are on (preempt_schedule).
 *
 * So kernel data shared between tasks needs a lock even where nothing
 * sleeps: a spinlock (or preempt_disable()) where the section is short and
 * must not sleep, a mutex where it may. With preempt=none a task in the
 * kernel runs until it sleeps, returns to user mode, or calls
 * cond_resched(); that is how pagelab ran before, and a race that shows
 * only with preempt=full is a missing lock.
 *
 * preempt_stress=N[,SEED] makes such races show: at each of those points
 * the task is switched out with a chance of 1 in N even when nobody asked
 * (a pseudo-random choice from SEED), so the window just after every
 * spinlock section is tried again and again. A test setting, for finding
 * races, as Linux's CONFIG_PREEMPT with a very fast tick would be. Every
 * might_sleep() is such a point too, as it is a voluntary one in Linux's
 * CONFIG_PREEMPT_VOLUNTARY: a window between an unlocked look and the
 * lock that confirms it often holds nothing but an allocation, whose
 * might_sleep is then its only point (a fault that allocates its page
 * before it takes page_table_lock).
 *
 * The count also feeds the checks:
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

/* This CPU's request to reschedule (set by the tick, cleared by schedule). */
static inline bool need_resched(void)
{
	int r;

	__asm__ volatile("movl %%gs:%c1, %0" : "=r"(r)
			 : "i"(PERCPU_NEED_RESCHED));
	return r;
}

static inline void set_need_resched(bool on)
{
	__asm__ volatile("movl %1, %%gs:%c0" : : "i"(PERCPU_NEED_RESCHED),
			 "r"((int)on) : "memory");
}

/* kernel/sched/core.c */
extern bool preempt_full;	/* preempt=full (default) or none */
extern unsigned int preempt_stress;	/* preempt_stress=N (0: off) */
/* Who wants every preempt_enable() that reaches 0 to call
 * preempt_schedule, asked or not: one word, so that the common case
 * tests it once. */
#define PREEMPT_HOOK_STRESS 1	/* preempt_stress */
#define PREEMPT_HOOK_EXPLORE 2	/* a schedule explorer run (explore.c) */
extern unsigned int preempt_hooks;
void preempt_schedule(void);	/* switch if allowed and asked */

#define preempt_disable() preempt_count_add(1)
/* Leave the section without switching (the caller is about to). */
#define preempt_enable_no_resched() preempt_count_add(-1)
#define preempt_enable()                                                \
	do {                                                            \
		preempt_count_add(-1);                                  \
		if (unlikely(need_resched() || preempt_hooks) &&       \
		    preempt_count() == 0)                               \
			preempt_schedule();                             \
	} while (0)
#define irq_enter() preempt_count_add(HARDIRQ_OFFSET)
#define irq_exit() preempt_count_add(-HARDIRQ_OFFSET)

#define in_interrupt() (preempt_count() & HARDIRQ_MASK)
#define in_atomic() (preempt_count() != 0)

/* kernel/locking/lockdep.c: the report; it panics. */
__cold __noreturn void __might_sleep_bug(const char *file, int line);

/* kernel/sched/core.c: preempt_stress's chance at a might_sleep(). */
void preempt_stress_point(void);

#define might_sleep()                                                   \
	do {                                                            \
		if (unlikely(in_atomic()))                              \
			__might_sleep_bug(__FILE__, __LINE__);          \
		if (unlikely(preempt_hooks & PREEMPT_HOOK_STRESS))      \
			preempt_stress_point();                         \
	} while (0)

/* A point where a long kernel loop gives the CPU away if it is wanted
 * (needed with preempt=none; harmless with full). */
void cond_resched(void);

#endif
