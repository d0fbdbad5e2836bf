/*
 * kernel/sched/show.c: every task, for a person looking at a hang (Linux's
 * sched_show_task and show_state_filter). For each task one line, then its
 * kernel stack, symbolised:
 *
 *	task:hang_in_kernel  state:D pid:7     ppid:6     wchan:truncate_inode_pages
 *	Call Trace:
 *	 schedule+0x9b/0x110
 *	 lock_page+0x4d/0x70
 *	 truncate_inode_pages+0x6e/0x190
 *	 ...
 *
 * The state is the letter /proc/PID/stat shows (R running or runnable, S
 * sleeping, D uninterruptible, T stopped, Z zombie). The wait channel says
 * where a sleeper waits: the first function on its stack that is not a
 * sleep primitive (those marked __sched: schedule(), its timed forms,
 * wait_woken, mutex_lock, lock_page, wait_on_buffer...), so a reader of an
 * empty pipe shows pipe_read, not schedule; "-" for a task that is not
 * asleep. A switched-out task's stack starts at the frame __switch_to_asm
 * left (see kernel/sched/switch.S); the running task's is walked from here
 * (from an interrupt, that is the interrupt's stack). A zombie has no
 * stack worth showing.
 *
 * Callers: sysrq t (kernel/sysrq.c) and the hung-task watchdog
 * (kernel/hung_task.c). Both run with nothing else able to move a task:
 * one CPU, interrupts off while the list is walked.
 */
#include <kernel/lockdep.h>
#include <kernel/kallsyms.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <asm/processor.h>

extern char __sched_text_start[], __sched_text_end[];	/* kernel.ld.S */

char task_state_to_char(const struct task_struct *t)
{
	if (t->exit_state == EXIT_ZOMBIE)
		return 'Z';
	if (t->exit_state)
		return 'X';
	if (t->state == TASK_RUNNING)
		return 'R';
	if (t->state == TASK_STOPPED)
		return 'T';
	return t->state == TASK_UNINTERRUPTIBLE ? 'D' : 'S';
}

static bool in_sched_functions(unsigned long addr)
{
	return addr >= (unsigned long)__sched_text_start &&
	       addr < (unsigned long)__sched_text_end;
}

/* The frame __switch_to_asm left: r15 r14 r13 r12 rbx rbp, return. t is
 * switched out (not current). */
static void saved_frame(const struct task_struct *t, unsigned long *rip,
			unsigned long *rbp)
{
	const unsigned long *frame = (const unsigned long *)t->thread_sp;

	*rip = frame[6];
	*rbp = frame[5];
}

void show_task_stack(struct task_struct *t)
{
	unsigned long rip, rbp;

	if (t == current) {
		dump_stack();
		return;
	}
	/* Running on another CPU: its saved frame is stale, and its
	 * stack changes under us. */
	if (READ_ONCE(t->on_cpu)) {
		printk(KERN_INFO " (running on CPU %d)\n", t->cpu);
		return;
	}
	saved_frame(t, &rip, &rbp);
	show_trace(rip, rbp);
}

/* walk_stack's callback: stop at the first frame outside the sleep
 * primitives. A return address may lie just past its caller's end: the
 * call instruction (addr - 1) is what counts. */
static bool find_wchan(unsigned long addr, bool ret, void *data)
{
	if (in_sched_functions(addr - ret))
		return true;
	*(unsigned long *)data = addr - ret;
	return false;
}

unsigned long get_wchan(struct task_struct *t)
{
	unsigned long rip, rbp, wchan = 0;

	if (t == current || t->state == TASK_RUNNING || t->exit_state ||
	    READ_ONCE(t->on_cpu))
		return 0;
	saved_frame(t, &rip, &rbp);
	walk_stack(rip, rbp, find_wchan, &wchan);
	return wchan;
}

void sched_show_task(struct task_struct *t)
{
	char wchan[KSYM_NAME_LEN + 24] = "-", tgid[24] = "";
	unsigned long w = get_wchan(t);

	if (w)
		sprint_symbol_name(wchan, sizeof(wchan), w);
	if (t->tgid != t->pid)	/* a thread: whose */
		snprintf(tgid, sizeof(tgid), " tgid:%d", t->tgid);
	printk(KERN_INFO "task:%-15s state:%c pid:%-5d ppid:%-5d wchan:%s%s\n",
	       t->comm, task_state_to_char(t), t->pid,
	       t->parent ? t->parent->tgid : 0, wchan, tgid);
	if (!t->exit_state)
		show_task_stack(t);
	lockdep_print_held_locks(t);
}

/*
 * Every task, between "task dump: N tasks" and "task dump: end" (a reader
 * such as the test harness knows it has all of it). Shown whatever
 * loglevel= says: it was asked for (Linux's sysrq does the same).
 */
/* The tasklist lock within ns nanoseconds (interrupts are off), or not. */
static bool tasklist_trylock_for(u64 ns)
{
	u64 start = ktime_get_ns();

	while (!spin_trylock(&tasklist_lock))
		if (ktime_get_ns() - start > ns)
			return false;
	return true;
}

void show_state(void)
{
	struct task_struct *t;
	int n = 1;
	unsigned long flags = local_irq_save();
	bool locked = tasklist_trylock_for(NSEC_PER_SEC);

	console_verbose_begin();
	if (!locked)	/* a deadlock may be what we are asked to show */
		printk(KERN_INFO "task dump: the tasklist lock is held "
		       "elsewhere for a second; the list may change as we "
		       "walk it\n");
	list_for_each_entry(t, &task_list, tasks)
		n++;
	printk(KERN_INFO "task dump: %d tasks\n", n);
	sched_show_task(&init_task);
	list_for_each_entry(t, &task_list, tasks)
		sched_show_task(t);
	printk(KERN_INFO "task dump: end\n");
	console_verbose_end();
	if (locked)
		spin_unlock(&tasklist_lock);
	local_irq_restore(flags);
}
