/*
 * kernel/exit.c: ending tasks and collecting them.
 *
 * do_exit() releases what the task owns (address space, files, fs), hands
 * its children to init, and becomes a zombie: a task_struct that only holds
 * the exit status until the parent's wait4() reads it and frees the rest.
 * If the parent said it does not care (SIGCHLD ignored or SA_NOCLDWAIT),
 * the task is freed at once, as Linux does. Children that asked for it
 * (prctl PR_SET_PDEATHSIG) get a signal when their parent exits; wait4
 * adds the reaped child's CPU time to the parent's children's
 * (getrusage, times) and reports the child's usage.
 */
#include <kernel/sched.h>
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/power.h>
#include <kernel/printk.h>
#include <kernel/syscalls.h>
#include <kernel/tty.h>
#include <kernel/task_fs.h>
#include <kernel/uaccess.h>
#include <mm/mmap.h>

#define WNOHANG 1
#define WUNTRACED 2
#define WCONTINUED 8
#define __WALL 0x40000000
#define __WCLONE 0x80000000



static void exit_mm(struct task_struct *t)
{
	struct mm_struct *mm = t->mm;

	if (!mm)
		return;
	t->mm = NULL;
	switch_to_mm(NULL);	/* off the tables we are about to free */
	mmput(mm);
}

/* A child's parent-death signal, as from the exiting parent. */
static void send_pdeath_signal(struct task_struct *c, struct task_struct *t)
{
	siginfo_t info = { .si_signo = c->pdeath_signal, .si_code = SI_USER };

	info.kill.pid = t->pid;
	info.kill.uid = t->cred.uid;
	send_sig_info(c->pdeath_signal, &info, c);
}

/* Children of an exiting task become init's (zombies included). */
static void reparent_children(struct task_struct *t)
{
	struct task_struct *init = find_task_by_pid(1), *c, *tmp;

	list_for_each_entry(c, &t->children, sibling)
		if (c->pdeath_signal)
			send_pdeath_signal(c, t);
	if (!init || init == t)
		return;
	list_for_each_entry_safe(c, tmp, &t->children, sibling) {
		list_del(&c->sibling);
		c->parent = init;
		list_add_tail(&c->sibling, &init->children);
	}
	if (!list_empty(&init->children))
		wake_up(&init->wait_chldexit);
}

static bool parent_ignores_children(struct task_struct *parent)
{
	struct k_sigaction *ka = &parent->signal.action[SIGCHLD - 1];

	return ka->handler == SIG_IGN || (ka->flags & SA_NOCLDWAIT);
}

/* Unlink a reaped (or self-reaping) task; its stack goes after the switch. */
static void unhash_task(struct task_struct *t)
{
	list_del(&t->tasks);
	list_del(&t->sibling);
}

static void notify_parent(struct task_struct *t)
{
	siginfo_t info = { .si_signo = SIGCHLD };

	info.chld.pid = t->pid;
	info.chld.uid = t->cred.uid;
	if ((t->exit_code & 0x7f) == 0) {
		info.si_code = CLD_EXITED;
		info.chld.status = (t->exit_code >> 8) & 0xff;
	} else {
		info.si_code = CLD_KILLED;
		info.chld.status = t->exit_code & 0x7f;
	}
	send_sig_info(SIGCHLD, &info, t->parent);
	wake_up(&t->parent->wait_chldexit);
}

/* code: a wait status word ((status << 8) for exit, the signal if killed). */
__noreturn void do_exit(long code)
{
	struct task_struct *t = current;

	if (t->pid == 1)
		init_exited(code);
	if (t->pid == 0)
		panic("the idle task tried to exit");
	mm_release_vfork(t);
	itimer_cancel(t);
	sample_maxrss(t);
	exit_mm(t);
	if (t->files)
		put_files_struct(t->files);
	if (t->fs)
		put_fs_struct(t->fs);
	t->files = NULL;
	t->fs = NULL;
	/* From here to the last switch, the tasklist lock (no preemption):
	 * once the parent can see the zombie it may reap it and free this
	 * stack, which must not happen while the task still runs on it (or
	 * waits on the run queue to). schedule_dead() drops it with
	 * interrupts off. */
	lock_tasklist();
	reparent_children(t);
	tty_session_leader_exit(t);
	t->exit_code = code;
	/* Nobody waits for a kernel thread: it reaps itself. */
	if (parent_ignores_children(t->parent) || t->flags & PF_KTHREAD) {
		t->exit_state = EXIT_DEAD;
		unhash_task(t);
		wake_up(&t->parent->wait_chldexit);
	} else {
		t->exit_state = EXIT_ZOMBIE;
		notify_parent(t);
	}
	schedule_dead();
}

SYSCALL_DEFINE1(exit, int, status)
{
	do_exit((status & 0xff) << 8);
}

SYSCALL_DEFINE1(exit_group, int, status)
{
	do_exit((status & 0xff) << 8);
}

static bool wait_matches(struct task_struct *c, pid_t pid)
{
	if (pid > 0)
		return c->pid == pid;
	if (pid == 0)
		return c->pgid == current->pgid;
	if (pid < -1)
		return c->pgid == -pid;
	return true;
}

/* The parent's children's usage grows by c's and its children's. */
static void account_reaped(struct task_struct *parent, struct task_struct *c)
{
	parent->cutime_ticks += c->utime_ticks + c->cutime_ticks;
	parent->cstime_ticks += c->stime_ticks + c->cstime_ticks;
	parent->cnvcsw += c->nvcsw + c->cnvcsw;
	parent->cnivcsw += c->nivcsw + c->cnivcsw;
	parent->cmin_flt += c->min_flt + c->cmin_flt;
	parent->cmaj_flt += c->maj_flt + c->cmaj_flt;
	parent->cmaxrss_kb = max(parent->cmaxrss_kb,
				 max(c->maxrss_kb, c->cmaxrss_kb));
}

/* Collect zombie c: copy out the status and usage, free the task. */
static long reap(struct task_struct *c, int __user *status,
		 struct rusage __user *ru)
{
	pid_t pid = c->pid;
	struct rusage r;

	if (status && put_user(c->exit_code, status))
		return -EFAULT;
	getrusage(c, RUSAGE_BOTH, &r);
	if (ru && copy_to_user(ru, &r, sizeof(r)))
		return -EFAULT;
	account_reaped(current, c);
	lock_tasklist();
	unhash_task(c);
	unlock_tasklist();
	release_task_stack(c);
	return pid;
}

/* A stopped or continued child, reported once, not reaped (Linux's
 * wait_task_stopped and wait_task_continued): 0x7f | sig << 8, 0xffff. */
static long report_job_change(struct task_struct *c, int st,
			      int __user *status, struct rusage __user *ru)
{
	struct rusage r;
	pid_t pid = c->pid;

	/* Before anything that may sleep: a child that exits meanwhile
	 * and reaps itself (its parent ignores SIGCHLD) is gone after. */
	getrusage(c, RUSAGE_BOTH, &r);
	if (status && put_user(st, status))
		return -EFAULT;
	if (ru && copy_to_user(ru, &r, sizeof(r)))
		return -EFAULT;
	return pid;
}

/*
 * The first child that wait4 would report, and what: EXIT_ZOMBIE, or the
 * job-control status word. Under the tasklist lock: a child exiting
 * meanwhile may unlink itself from our list (its parent ignores SIGCHLD),
 * and a walk preempted on it would go on through freed memory.
 */
static struct task_struct *wait_pick(pid_t pid, int options, int *st,
				     bool *any)
{
	struct task_struct *c, *found = NULL;

	lock_tasklist();
	list_for_each_entry(c, &current->children, sibling) {
		if (!wait_matches(c, pid))
			continue;
		*any = true;
		if (c->exit_state == EXIT_ZOMBIE) {
			*st = EXIT_ZOMBIE;
		} else if ((options & WUNTRACED) && c->stop_report &&
			   c->state == TASK_STOPPED) {
			*st = (c->stop_report << 8) | 0x7f;
			c->stop_report = 0;
		} else if ((options & WCONTINUED) && c->cont_report) {
			*st = 0xffff;
			c->cont_report = false;
		} else {
			continue;
		}
		found = c;
		break;
	}
	unlock_tasklist();
	return found;
}

/* One pass over the children: a pid, 0 (some match, none dead), -ECHILD. */
static long wait_scan(pid_t pid, int options, int __user *status,
		      struct rusage __user *ru)
{
	bool any = false;
	int st;
	struct task_struct *c = wait_pick(pid, options, &st, &any);

	if (!c)
		return any ? 0 : -ECHILD;
	if (st == EXIT_ZOMBIE)	/* only we reap it: it stays */
		return reap(c, status, ru);
	return report_job_change(c, st, status, ru);
}

SYSCALL_DEFINE4(wait4, pid_t, pid, int __user *, status, int, options,
		struct rusage __user *, ru)
{
	long ret;

	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WALL | __WCLONE))
		return -EINVAL;
	if (wait_event_interruptible(current->wait_chldexit,
				     (ret = wait_scan(pid, options, status,
						      ru)) != 0 ||
					     (options & WNOHANG)))
		return -ERESTARTSYS;
	return ret;
}
