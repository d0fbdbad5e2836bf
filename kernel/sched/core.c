/*
 * kernel/sched/core.c: choosing who runs.
 *
 * Round robin: runnable tasks wait on run_queue in FIFO order; the timer
 * tick gives each a slice of one tick before need_resched is set. The idle
 * task (init_task, pid 0) runs only when the queue is empty and halts until
 * the next interrupt. need_resched is acted on when a task returns to user
 * mode (exit_to_user_mode) or sleeps, and with preempt=full also in the
 * kernel, wherever <kernel/preempt.h> allows it: a preempted task goes to
 * the back of the queue whatever its state says, since it may have set
 * TASK_INTERRUPTIBLE and not yet reached its own schedule() call.
 *
 * Locking: rq_lock with interrupts off guards run_queue and task states,
 * since interrupt handlers wake tasks.
 */
#include <kernel/sched.h>
#include <kernel/percpu.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/errno.h>
#include <kernel/param.h>
#include <kernel/string.h>
#include <kernel/uaccess.h>
#include <asm/desc.h>
#include <asm/processor.h>
#include <mm/mm.h>
#include <mm/mm_types.h>
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

/* Called with rq_lock held. */
static void enqueue(struct task_struct *t)
{
	if (list_empty(&t->run_list))
		list_add_tail(&t->run_list, &run_queue);
}

void wake_up_process(struct task_struct *t)
{
	unsigned long flags;

	spin_lock_irqsave(&rq_lock, flags);
	if (t->state != TASK_RUNNING || t == &init_task) {
		if (t->state == TASK_INTERRUPTIBLE ||
		    t->state == TASK_UNINTERRUPTIBLE)
			t->state = TASK_RUNNING;
	}
	if (t->state == TASK_RUNNING && t != &init_task && t != current)
		enqueue(t);
	spin_unlock_irqrestore(&rq_lock, flags);
}

static struct task_struct *pick_next_task(void)
{
	struct task_struct *next;

	if (list_empty(&run_queue))
		return &init_task;
	next = list_first_entry(&run_queue, struct task_struct, run_list);
	list_del_init(&next->run_list);
	return next;
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
	if ((preempt || prev->state == TASK_RUNNING) && prev != &init_task)
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
	this_cpu()->current_task = next;
	__switch_to_asm(&prev->thread_sp, next->thread_sp);
	/* Back on prev's stack, some time later. */
	schedule_tail_locked();
	spin_unlock_irqrestore(&rq_lock, flags);
}

void __sched schedule(void)
{
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
static u64 stress_seed = 1;

static int set_preempt_stress(const char *val)
{
	char *end;

	preempt_stress = simple_strtoul(val, &end, 10);
	if (*end == ',')
		stress_seed = simple_strtoul(end + 1, &end, 10) | 1;
	return *end ? -EINVAL : 0;
}
__setup("preempt_stress", set_preempt_stress);

/* Switch without being asked? (xorshift64: a run repeats by its seed,
 * as far as interrupts arrive at the same points.) */
static bool stress_switch(void)
{
	u64 x = stress_seed;

	if (!preempt_stress)
		return false;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	stress_seed = x;
	return x % preempt_stress == 0;
}

/* From preempt_enable(): the count just reached 0 and a switch is due. */
void __sched preempt_schedule(void)
{
	if (!preempt_full || preempt_count() || irqs_disabled())
		return;
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

void __sched cond_resched(void)
{
	if (need_resched() && !preempt_count())
		__schedule(true);
}

/* After a switch, with rq_lock held: free a task that exited. */
void schedule_tail_locked(void)
{
	struct task_struct *dead = this_cpu()->dead_task;

	this_cpu()->dead_task = NULL;
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
	local_irq_disable();
	preempt_enable_no_resched();	/* do_exit's tasklist lock */
	/* A zombie's task_struct stays for wait4; a self-reaped one goes. */
	if (current->exit_state == EXIT_DEAD)
		this_cpu()->dead_task = current;
	current->state = TASK_UNINTERRUPTIBLE;	/* never woken */
	schedule();
	panic("a dead task was scheduled");
}

void scheduler_tick(void)
{
	struct task_struct *t = current;

	t->utime_ticks++;
	if (!list_empty(&run_queue) || t == &init_task)
		set_need_resched(true);
}

/*
 * Another CPU is up (start_secondary): until the scheduler runs tasks on
 * several CPUs it halts here, with interrupts off, for good.
 */
__noreturn void smp_cpu_ready(void)
{
	for (;;)
		__asm__ volatile("cli; hlt" ::: "memory");
}

/* pid 0: run whatever is runnable, else halt until an interrupt. */
__noreturn void cpu_idle(void)
{
	for (;;) {
		local_irq_disable();
		if (list_empty(&run_queue)) {
			/* sti; hlt is atomic: no wake-up slips in between */
			__asm__ volatile("sti; hlt" ::: "memory");
			continue;
		}
		local_irq_enable();
		schedule();
	}
}
