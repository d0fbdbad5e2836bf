/*
 * kernel/sched/core.c: choosing who runs.
 *
 * Round robin: runnable tasks wait on run_queue in FIFO order, one queue
 * for all CPUs; a CPU takes the first task allowed on it (cpus_allowed,
 * sched_setaffinity). Each CPU's tick gives its task a slice of one tick
 * before need_resched is set. Each CPU has an idle task (pid 0: init_task
 * on the boot CPU, fork_idle's on the others) that runs only when nothing
 * queued may run there and halts until an interrupt; a CPU that queues a
 * task wakes a halted one with a reschedule IPI. need_resched is acted on
 * when a task returns to user mode (exit_to_user_mode) or sleeps, and
 * with preempt=full also in the kernel, wherever <kernel/preempt.h>
 * allows it: a preempted task goes to the back of the queue whatever its
 * state says, since it may have set TASK_INTERRUPTIBLE and not yet
 * reached its own schedule() call.
 *
 * Locking: rq_lock with interrupts off guards run_queue, task states and
 * on_cpu, since interrupt handlers wake tasks. It is held across the
 * switch itself and released by the task switched to (schedule_tail*):
 * until then the task switched from is still on its stack, and no other
 * CPU may pick it from the queue, which needs the lock. on_cpu says the
 * same to those who do not take the lock: a reaper frees a task's stack
 * only once on_cpu is 0 (wait_task_inactive).
 */
#include <kernel/sched.h>
#include <kernel/percpu.h>
#include <kernel/smp.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/errno.h>
#include <kernel/explore.h>
#include <kernel/param.h>
#include <kernel/string.h>
#include <kernel/uaccess.h>
#include <asm/apic.h>
#include <asm/desc.h>
#include <asm/processor.h>
#include <fs/blkdev.h>
#include <mm/mm.h>
#include <mm/mm_types.h>
#include <mm/kstack.h>
#include <mm/mmap.h>

extern char boot_stack[];
void __switch_to_asm(unsigned long *prev_sp, unsigned long next_sp);
void schedule_tail_locked(void);
void schedule_tail(void);

static struct sighand_struct init_sighand = {
	.count = 1, .siglock = SPIN_LOCK_UNLOCKED,
};
static struct signal_struct init_signals = {
	.count = 1, .live = 1, .nr_threads = 1,
	.thread_head = LIST_HEAD_INIT(init_task.thread_node),
};

struct task_struct init_task = {
	.state = TASK_RUNNING,
	.on_cpu = 1,
	.cpus_allowed = ~0UL,
	.pid = 0,
	.comm = "swapper",
	.group_leader = &init_task,
	.thread_node = LIST_HEAD_INIT(init_signals.thread_head),
	.sighand = &init_sighand,
	.sig = &init_signals,
	.stack = boot_stack,
	.children = LIST_HEAD_INIT(init_task.children),
	.sibling = LIST_HEAD_INIT(init_task.sibling),
	.tasks = LIST_HEAD_INIT(init_task.tasks),
	.run_list = LIST_HEAD_INIT(init_task.run_list),
};

struct percpu cpu_data[NR_CPUS] = {
	[0] = { .self = &cpu_data[0], .current_task = &init_task,
		.idle = &init_task },
};

static LIST_HEAD(run_queue);
static DEFINE_SPINLOCK(rq_lock);
DEFINE_SPINLOCK(tasklist_lock);
static struct fpu_state fpu_init_state;

/* Enable SSE for user programs and record a clean FPU state for new ones. */
static void fpu_init(void)
{
	unsigned long cr0;

	__asm__ volatile("mov %%cr0, %0" : "=r"(cr0));
	cr0 &= ~(1UL << 2);	/* EM: no emulation */
	cr0 |= 1UL << 1;	/* MP */
	__asm__ volatile("mov %0, %%cr0" : : "r"(cr0));
	write_cr4(read_cr4() | X86_CR4_OSFXSR | (1UL << 10)); /* OSXMMEXCPT */
	__asm__ volatile("fninit; fxsave %0" : "=m"(fpu_init_state));
	init_task.fpu = fpu_init_state;
}

void fpu_init_task(struct task_struct *t)
{
	t->fpu = fpu_init_state;
}

/*
 * current's FPU registers live in the CPU while it runs; current->fpu
 * holds them only from its last switch out. Both helpers run with
 * preemption off, since a switch in the middle would save the registers
 * over what we copy (Linux's fpregs_lock).
 */
void fpu_load_current(const struct fpu_state *src)
{
	preempt_disable();
	current->fpu = *src;
	__asm__ volatile("fxrstor %0" : : "m"(current->fpu));
	preempt_enable();
}

/* The registers as they are now, for fork to copy. */
void fpu_save_current(void)
{
	preempt_disable();
	__asm__ volatile("fxsave %0" : "=m"(current->fpu));
	preempt_enable();
}

void fpu_reset_current(void)
{
	fpu_load_current(&fpu_init_state);
}

void percpu_init(struct percpu *p)
{
	wrmsr(MSR_GS_BASE, (unsigned long)p);
	wrmsr(MSR_KERNEL_GS_BASE, 0);
}

void sched_init(void)
{
	for (int i = 0; i < RLIM_NLIMITS; i++)
		init_task.rlim[i] = (struct rlimit){ RLIM_INFINITY,
						     RLIM_INFINITY };
	init_task.rlim[RLIMIT_STACK].rlim_cur = STACK_MAX_SIZE;
	init_task.rlim[RLIMIT_NOFILE] = (struct rlimit){ 1024, 4096 };
	/* Linux's MLOCK_LIMIT: what a user may mlock (root is not held). */
	init_task.rlim[RLIMIT_MEMLOCK] = (struct rlimit){ 8UL << 20,
						       8UL << 20 };
	/* Only root may lower its nice value, as on Linux. */
	init_task.rlim[RLIMIT_NICE] = (struct rlimit){ 0, 0 };
	init_waitqueue_head(&init_task.wait_chldexit);
	init_waitqueue_head(&init_signals.exec_wait);
	fpu_init();
	boot_cpu.kernel_sp = (unsigned long)boot_stack + THREAD_SIZE;
}

/* Wake one halted CPU to take the task just queued (rq_lock held). The
 * idling flag is set before the CPU looks at the queue, and read here
 * after the task is on it: one of the two sees the other. The kicker
 * clears it, so the next task queued wakes another CPU. */
static void kick_idle_cpu(unsigned long allowed)
{
	int cpu, me = smp_processor_id();

	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for_each_online_cpu(cpu)
		if (cpu != me && (allowed & (1UL << cpu)) &&
		    cpu_data[cpu].idling &&
		    __atomic_exchange_n(&cpu_data[cpu].idling, false,
					__ATOMIC_SEQ_CST)) {
			smp_send_reschedule(cpu);
			return;
		}
}

/* Called with rq_lock held. */
static void enqueue(struct task_struct *t)
{
	if (list_empty(&t->run_list)) {
		list_add_tail(&t->run_list, &run_queue);
		kick_idle_cpu(t->cpus_allowed);
	}
}

void wake_up_process(struct task_struct *t)
{
	unsigned long flags;

	spin_lock_irqsave(&rq_lock, flags);
	if (t->state == TASK_INTERRUPTIBLE || t->state == TASK_UNINTERRUPTIBLE)
		t->state = TASK_RUNNING;
	/* One on a CPU (maybe between setting its state and schedule())
	 * is not queued: its own schedule() sees it running and keeps it. */
	if (t->state == TASK_RUNNING && !is_idle_task(t) && !t->on_cpu)
		enqueue(t);
	spin_unlock_irqrestore(&rq_lock, flags);
}

/* Wait until t is off every CPU (Linux's wait_task_inactive): a zombie
 * may still be on its way through its last schedule() on another CPU
 * when its parent reaps it. */
void wait_task_inactive(struct task_struct *t)
{
	while (__atomic_load_n(&t->on_cpu, __ATOMIC_ACQUIRE))
		cpu_relax();
}

static void __schedule(bool preempt);

/* The first queued task allowed here (rq_lock held), or NULL. While the
 * explorer runs, its tasks come first: another task in between would
 * make the run depend on when it was woken (kernel/sched/explore.c). */
static struct task_struct *first_runnable_here(void)
{
	unsigned long me = 1UL << smp_processor_id();
	struct task_struct *t;

	if (unlikely(explore_active))
		list_for_each_entry(t, &run_queue, run_list)
			if ((t->cpus_allowed & me) && explore_task(t))
				return t;
	list_for_each_entry(t, &run_queue, run_list)
		if (t->cpus_allowed & me)
			return t;
	return NULL;
}

/*
 * The explorer's switch, at a point its schedule names: the first other
 * explored task on the queue runs next, current goes to the back.
 * Returns false, switching nothing, when no other explored task is
 * runnable (the other one sleeps, or has exited).
 */
bool __sched explore_yield(void)
{
	struct task_struct *t, *next = NULL;
	unsigned long flags;

	spin_lock_irqsave(&rq_lock, flags);
	list_for_each_entry(t, &run_queue, run_list)
		if (t != current && explore_task(t)) {
			next = t;
			break;
		}
	if (next)
		list_move(&next->run_list, &run_queue);
	spin_unlock_irqrestore(&rq_lock, flags);
	if (next)
		__schedule(true);
	return next != NULL;
}

static struct task_struct *pick_next_task(void)
{
	struct task_struct *next = first_runnable_here();

	if (!next)
		return this_cpu()->idle;
	list_del_init(&next->run_list);
	return next;
}

void set_cpus_allowed(struct task_struct *t, unsigned long mask)
{
	unsigned long flags;
	int cpu;

	spin_lock_irqsave(&rq_lock, flags);
	t->cpus_allowed = mask;
	cpu = t->cpu;
	if (t->on_cpu && !(mask & (1UL << cpu))) {
		/* Switched out at its next preemption point, then queued
		 * for a CPU it may use. */
		if (cpu == smp_processor_id())
			set_need_resched(true);
		else
			smp_send_reschedule(cpu);
	} else if (!list_empty(&t->run_list)) {
		kick_idle_cpu(mask);
	}
	spin_unlock_irqrestore(&rq_lock, flags);
}

static void switch_fpu_and_stack(struct task_struct *prev,
				 struct task_struct *next)
{
	struct percpu *cpu = this_cpu();

	__asm__ volatile("fxsave %0" : "=m"(prev->fpu));
	__asm__ volatile("fxrstor %0" : : "m"(next->fpu));
	cpu->kernel_sp = (unsigned long)next->stack + THREAD_SIZE;
	cpu->tss->rsp0 = cpu->kernel_sp;
	wrmsr(MSR_FS_BASE, next->fs_base);
}


/*
 * Give up the CPU. A task that is still TASK_RUNNING goes to the back of
 * the queue; one that set itself to sleep stays off it until woken.
 */
static __cold __noreturn void schedule_bug(void)
{
	printk(KERN_EMERG "BUG: scheduling while atomic: %s/%d/0x%08x (%s)\n",
	       current->comm, current->pid, preempt_count(),
	       in_interrupt() ? "in an interrupt handler"
			      : "a spinlock is held");
	panic("scheduling while atomic");
}

static void __sched __schedule(bool preempt)
{
	struct task_struct *prev = current, *next;
	unsigned long flags;

	if (unlikely(preempt_count()))
		schedule_bug();
	spin_lock_irqsave(&rq_lock, flags);
	set_need_resched(false);
	if ((preempt || prev->state == TASK_RUNNING) && !is_idle_task(prev))
		enqueue(prev);
	next = pick_next_task();
	if (next == prev) {
		spin_unlock_irqrestore(&rq_lock, flags);
		return;
	}
	/* Linux's rule: a switch is voluntary when the task goes to sleep. */
	if (!preempt && prev->state != TASK_RUNNING)
		prev->nvcsw++;
	else
		prev->nivcsw++;
	switch_mm(prev, next);
	switch_fpu_and_stack(prev, next);
	next->on_cpu = 1;
	next->cpu = smp_processor_id();
	this_cpu()->current_task = next;
	this_cpu()->prev_task = prev;	/* its on_cpu ends in schedule_tail */
	__switch_to_asm(&prev->thread_sp, next->thread_sp);
	/* Back on prev's stack, some time later. */
	schedule_tail_locked();
	spin_unlock_irqrestore(&rq_lock, flags);
}

void __sched schedule(void)
{
	/* A task going to sleep may wait for a bio it still holds back
	 * (Linux's sched_submit_work): send them first. */
	if (unlikely(current->plug) && current->state != TASK_RUNNING)
		blk_flush_plug();
	__schedule(false);
}

bool preempt_full = true;

static int set_preempt(const char *val)
{
	if (strcmp(val, "full") && strcmp(val, "none"))
		return -EINVAL;
	preempt_full = !strcmp(val, "full");
	return 0;
}
__setup("preempt", set_preempt);

unsigned int preempt_stress;
unsigned int preempt_hooks;
static u64 stress_seed = 1;

static int set_preempt_stress(const char *val)
{
	char *end;

	preempt_stress = simple_strtoul(val, &end, 10);
	if (preempt_stress)
		preempt_hooks |= PREEMPT_HOOK_STRESS;
	if (*end == ',')
		stress_seed = simple_strtoul(end + 1, &end, 10) | 1;
	return *end ? -EINVAL : 0;
}
__setup("preempt_stress", set_preempt_stress);

/* Switch without being asked? (xorshift64, one generator per CPU, each
 * started from the seed and its CPU number: on one CPU a run repeats by
 * its seed, as far as interrupts arrive at the same points; on several,
 * the CPUs' interleaving differs from run to run anyway.) */
static bool stress_switch(void)
{
	struct percpu *cpu = this_cpu();
	u64 x;

	if (!preempt_stress)
		return false;
	x = cpu->stress_seed;
	if (!x)
		x = stress_seed ^ (0x9e3779b97f4a7c15ULL * cpu->cpu);
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	cpu->stress_seed = x;
	return x % preempt_stress == 0;
}

/* From preempt_enable(): the count just reached 0 and a switch is due
 * (or the explorer wants to see the point). */
void __sched preempt_schedule(void)
{
	if (!preempt_full || preempt_count() || irqs_disabled())
		return;
	explore_point(EP_SPIN_UNLOCK, _RET_IP_);
	if (!need_resched() && !stress_switch())
		return;
	do
		__schedule(true);
	while (need_resched());
}

/*
 * From an interrupt or exception about to return into kernel code that
 * had interrupts on: interrupts are off here and stay off across the
 * switch (the next task turns them back on as it leaves its own switch).
 */
void __sched preempt_schedule_irq(void)
{
	if (!preempt_full || preempt_count())
		return;
	if (stress_switch())
		__schedule(true);
	while (need_resched())
		__schedule(true);
}

/* From might_sleep() under preempt_stress: the caller may sleep here,
 * so it may as well be switched out; not with interrupts off (early
 * boot allocates so), where it could not be. */
void __sched preempt_stress_point(void)
{
	if (preempt_full && !irqs_disabled() && stress_switch())
		__schedule(true);
}

void __sched cond_resched(void)
{
	if (need_resched() && !preempt_count())
		__schedule(true);
}

/* After a switch, on the new task's stack, with rq_lock held: the task
 * switched from is off this CPU now; free it if it exited. */
void schedule_tail_locked(void)
{
	struct percpu *cpu = this_cpu();
	struct task_struct *dead = cpu->dead_task;

	__atomic_store_n(&cpu->prev_task->on_cpu, 0, __ATOMIC_RELEASE);
	cpu->dead_task = NULL;
	if (dead)
		release_task_stack(dead);
}

/* First code a new task runs (from ret_from_fork). A thread made with
 * CLONE_CHILD_SETTID stores its tid in its own address space first. */
void schedule_tail(void)
{
	schedule_tail_locked();
	spin_unlock(&rq_lock);
	local_irq_enable();
	if (current->set_child_tid)
		put_user(current->pid, (int __user *)current->set_child_tid);
}

/* The exiting task's last act: it never runs again. */
__noreturn void schedule_dead(void)
{
	/* A zombie's task_struct stays for wait4; a self-reaped one goes.
	 * Decided under do_exit's tasklist lock: once it is dropped, the
	 * parent's wait4 may take the zombie, mark it EXIT_DEAD for itself
	 * and wait in release_task to free it; read after the unlock, that
	 * mark made the zombie free itself too, and the parent spun with
	 * interrupts off on freed memory (a TLB shoot-down then waited for
	 * that CPU for ever; debug_pagealloc and the NMI backtrace named
	 * wait_task_inactive, 4 CPUs, a thousand forks). */
	bool self_reaped = current->exit_state == EXIT_DEAD;

	local_irq_disable();
	spin_unlock_no_resched(&tasklist_lock);	/* do_exit's */
	if (self_reaped)
		this_cpu()->dead_task = current;
	current->state = TASK_UNINTERRUPTIBLE;	/* never woken */
	schedule();
	panic("a dead task was scheduled");
}

void scheduler_tick(void)
{
	struct task_struct *t = current;

	t->utime_ticks++;
	if (is_idle_task(t))
		this_cpu()->idle_ticks++;
	else
		this_cpu()->busy_ticks++;
	/* An explored task switches only where its schedule says. */
	if (unlikely(explore_active) && explore_tick(t))
		return;
	if (!list_empty(&run_queue) || is_idle_task(t))
		set_need_resched(true);
}

/* Is a task queued that may run here? (Interrupts are off.) */
static bool runnable_here(void)
{
	bool any;

	if (list_empty(&run_queue))
		return false;
	spin_lock(&rq_lock);
	any = first_runnable_here() != NULL;
	spin_unlock(&rq_lock);
	return any;
}

/* pid 0: run whatever is runnable, else halt until an interrupt. */
__noreturn void cpu_idle(void)
{
	struct percpu *cpu = this_cpu();

	for (;;) {
		kstack_purge();	/* stacks of tasks that exited */
		local_irq_disable();
		cpu->idling = true;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);	/* kick_idle_cpu */
		if (!need_resched() && !runnable_here()) {
			/* sti; hlt is atomic: no wake-up slips in between */
			__asm__ volatile("sti; hlt" ::: "memory");
			cpu->idling = false;
			continue;
		}
		cpu->idling = false;
		local_irq_enable();
		schedule();
	}
}

/* Another CPU is up (start_secondary): its tick, then its idle loop. */
__noreturn void smp_cpu_ready(void)
{
	lapic_timer_start();
	cpu_idle();
}
