/*
 * kernel/exit.c: ending tasks and collecting them.
 *
 * do_exit() ends one thread: it releases what the thread holds (address
 * space, files, fs: the last user frees each), and leaves its thread
 * group. A thread other than the leader is freed at once (Linux's
 * self-reaping threads). The leader becomes a zombie, a task_struct that
 * holds the process's exit status until the parent's wait4() reads it and
 * frees the rest; the parent hears of it (SIGCHLD, wait4) only when the
 * last thread of the group is gone, whichever thread that is. If the
 * parent said it does not care (SIGCHLD ignored or SA_NOCLDWAIT), the
 * leader is freed then too, as Linux does.
 *
 * exit_group and a fatal signal end every thread (do_group_exit: the
 * others get SIGKILL); exec in a thread does too, keeping itself
 * (de_thread). When the group dies its children go to init; those that
 * asked for it (prctl PR_SET_PDEATHSIG) get a signal. wait4 adds the
 * reaped child's CPU time to the parent's children's (getrusage, times)
 * and reports the child's usage.
 *
 * Locking: the thread list, live, nr_threads and the group exit state are
 * the signal_struct's, under the group's siglock (<kernel/sched.h>).
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

/*
 * Before a task lets go of mm (exit, exec; Linux's mm_release): a thread
 * that asked for it (CLONE_CHILD_CLEARTID, set_tid_address) has 0 stored
 * at its address and one futex waiter woken, which is how pthread_join
 * learns that the thread is gone. Only if another task still uses mm:
 * otherwise no one can be waiting. A vfork parent may run again.
 */
static void mm_release(struct task_struct *t, struct mm_struct *mm)
{
	u32 __user *tidptr = (u32 __user *)t->clear_child_tid;

	if (tidptr && mm && mm_users(mm) > 1 && !put_user(0, tidptr))
		futex_wake_one(tidptr);
	t->clear_child_tid = 0;
	mm_release_vfork(t);
}

void exec_mm_release(struct task_struct *t)
{
	mm_release(t, t->mm);
}

static void exit_mm(struct task_struct *t)
{
	struct mm_struct *mm = t->mm;

	if (!mm)
		return;
	lock_tasklist();	/* get_task_mm pins it first, or sees NULL */
	t->mm = NULL;
	unlock_tasklist();
	switch_to_mm(NULL);	/* off the tables we are about to free */
	mmput(mm);
}

/* A child's parent-death signal, as from the exiting parent. */
static void send_pdeath_signal(struct task_struct *c, struct task_struct *t)
{
	siginfo_t info = { .si_signo = c->pdeath_signal, .si_code = SI_USER };

	info.kill.pid = t->tgid;
	info.kill.uid = t->cred.uid;
	group_send_sig_info(c->pdeath_signal, &info, c);
}

static void process_dead(struct task_struct *leader);

/*
 * Children of a dying process (t: its leader) become init's, zombies
 * included. A zombie whose process is over was announced to t, which
 * will never reap it: init hears of it now, as if it had just died
 * (SIGCHLD, or freed at once if init ignores SIGCHLD). A wake-up alone
 * reaches only a wait4 in progress; an init asleep until SIGCHLD kept
 * the zombie, and its kernel stack, until something else woke it
 * (Linux: reparent_leader). Tasklist lock held.
 */
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
		if (c->exit_state == EXIT_ZOMBIE && thread_group_empty(c))
			process_dead(c);
	}
	if (!list_empty(&init->children))
		wake_up(&init->wait_chldexit);
}

static bool parent_ignores_children(struct task_struct *parent)
{
	struct k_sigaction *ka = &parent->sighand->action[SIGCHLD - 1];

	return ka->handler == SIG_IGN || (ka->flags & SA_NOCLDWAIT);
}

/* The status wait4 reports for process t (its leader): the group's
 * exit_group or fatal signal, else how the leader itself ended. */
static int group_exit_status(struct task_struct *t)
{
	return (t->sig->flags & SIGNAL_GROUP_EXIT) ? t->sig->group_exit_code
						    : t->exit_code;
}

/* t's usage goes to its process's account of threads gone. siglock
 * held. */
static void account_dead_thread(struct signal_struct *s, struct task_struct *t)
{
	struct group_usage u;

	task_usage(t, &u);
	usage_add(&s->dead, &u);
}

/* t leaves its group's thread list. siglock held. */
static void __unhash_thread(struct task_struct *t)
{
	list_del(&t->thread_node);
	t->sig->nr_threads--;
	account_dead_thread(t->sig, t);
}

/*
 * Unlink t, reaped or self-reaping and off its thread list already, from
 * everything else that finds it, and drop what it still held; only its
 * task_struct and stack are left, for the caller (release_task) or the
 * switch away (schedule_dead) to free.
 */
static void __unhash_task(struct task_struct *t)
{
	list_del(&t->tasks);
	list_del(&t->sibling);
	put_sighand(t->sighand);
	t->sighand = NULL;
	put_signal_struct(t->sig);
	t->sig = NULL;
}

static void unhash_task(struct task_struct *t)
{
	unsigned long flags;

	lock_task_sighand(t, &flags);
	__unhash_thread(t);
	unlock_task_sighand(t, flags);
	__unhash_task(t);
}

void release_task(struct task_struct *t)
{
	unhash_task(t);
	wait_task_inactive(t);	/* a zombie may be in its last switch */
	release_task_stack(t);
}

static void notify_parent(struct task_struct *t)
{
	siginfo_t info = { .si_signo = SIGCHLD };
	int status = group_exit_status(t);

	info.chld.pid = t->tgid;
	info.chld.uid = t->cred.uid;
	if ((status & 0x7f) == 0) {
		info.si_code = CLD_EXITED;
		info.chld.status = (status >> 8) & 0xff;
	} else {
		info.si_code = CLD_KILLED;
		info.chld.status = status & 0x7f;
	}
	group_send_sig_info(SIGCHLD, &info, t->parent);
	wake_up(&t->parent->wait_chldexit);
}

/*
 * Process leader (a zombie, its last thread gone) is over: its parent
 * hears of it, or, if the parent does not care, it is freed now (by
 * schedule_dead if it is current).
 */
static void process_dead(struct task_struct *leader)
{
	struct task_struct *parent = leader->parent;

	/* Nobody waits for a kernel thread: it reaps itself. */
	if (!parent_ignores_children(parent) && !(leader->flags & PF_KTHREAD)) {
		notify_parent(leader);
		return;
	}
	leader->exit_state = EXIT_DEAD;
	if (leader == current)
		unhash_task(leader);
	else
		release_task(leader);
	wake_up(&parent->wait_chldexit);
}

/*
 * t leaves its group: a thread is unhashed (it frees itself), the leader
 * stays as a zombie. Returns the leader whose process just ended (the
 * last thread is gone), or NULL. The test and the unlinking are one
 * critical section, so that of two threads exiting together exactly one
 * sees the group end.
 */
static struct task_struct *exit_notify(struct task_struct *t)
{
	struct task_struct *leader = t->group_leader, *done = NULL;
	struct signal_struct *s = t->sig;
	unsigned long flags;

	lock_task_sighand(t, &flags);
	if (thread_group_leader(t)) {
		t->exit_state = EXIT_ZOMBIE;
		if (thread_group_empty(t))
			done = t;
	} else {
		t->exit_state = EXIT_DEAD;
		__unhash_thread(t);
		if (leader->exit_state == EXIT_ZOMBIE &&
		    thread_group_empty(leader))
			done = leader;
	}
	unlock_task_sighand(t, flags);
	wake_up(&s->exec_wait);	/* de_thread counts the threads left */
	if (!thread_group_leader(t))
		__unhash_task(t);
	return done;
}

/* The thread begins to exit: it takes no more signals, and those the
 * process has pending go to another thread. True if it was the last. */
static bool exit_signals(struct task_struct *t)
{
	unsigned long flags;
	bool group_dead;

	lock_task_sighand(t, &flags);
	t->flags |= PF_EXITING;
	group_dead = !--t->sig->live;
	retarget_shared_pending(t, ~0UL);
	unlock_task_sighand(t, flags);
	return group_dead;
}

/* The pointers go before the references: a /proc reader (under the
 * tasklist lock) sees a table that is still there, or none. */
static void exit_files_and_fs(struct task_struct *t)
{
	struct files_struct *files = t->files;
	struct fs_struct *fs = t->fs;

	lock_tasklist();
	t->files = NULL;
	t->fs = NULL;
	unlock_tasklist();
	if (files)
		put_files_struct(files);
	if (fs)
		put_fs_struct(fs);
}

/* code: a wait status word ((status << 8) for exit, the signal if killed). */
__noreturn void do_exit(long code)
{
	struct task_struct *t = current, *done;
	bool group_dead;

	if (t->pid == 1)
		init_exited(code);
	if (t->pid == 0)
		panic("the idle task tried to exit");
	group_dead = exit_signals(t);
	mm_release(t, t->mm);
	itimer_cancel(t);
	sample_maxrss(t);
	exit_mm(t);
	exit_files_and_fs(t);
	/* From here to the last switch, the tasklist lock (no preemption):
	 * once a parent (or the last thread) can see this task dead it may
	 * free its stack, which must not happen while the task still runs
	 * on it, or waits on the run queue to. schedule_dead() drops it with
	 * interrupts off. */
	lock_tasklist();
	if (group_dead) {
		reparent_children(t->group_leader);
		tty_session_leader_exit(t->group_leader);
	}
	t->exit_code = code;
	done = exit_notify(t);
	if (done)
		process_dead(done);
	schedule_dead();
}

/*
 * Every thread of current's process ends with code (exit_group, a fatal
 * signal). The first to get here decides the code; the others get
 * SIGKILL and find it. A thread killed by another's exec just goes.
 */
__noreturn void do_group_exit(int code)
{
	struct task_struct *t = current;
	struct signal_struct *s = t->sig;
	unsigned long flags;

	lock_task_sighand(t, &flags);
	if (s->flags & SIGNAL_GROUP_EXIT) {
		code = s->group_exit_code;
	} else if (s->group_exec_task && s->group_exec_task != t) {
		/* de_thread is waiting for this thread to go */
	} else if (!thread_group_empty(t)) {
		s->flags |= SIGNAL_GROUP_EXIT;
		s->group_exit_code = code;
		zap_other_threads(t);
	}
	unlock_task_sighand(t, flags);
	do_exit(code);
}

SYSCALL_DEFINE1(exit, int, status)
{
	do_exit((status & 0xff) << 8);
}

SYSCALL_DEFINE1(exit_group, int, status)
{
	do_group_exit((status & 0xff) << 8);
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

/* The parent process's children's usage grows by c's (its whole group)
 * and its children's. */
static void account_reaped(struct task_struct *parent, struct task_struct *c)
{
	struct group_usage u;

	thread_group_usage(c, &u);
	usage_add(&parent->cusage, &u);
	usage_add(&parent->cusage, &c->cusage);
}

/* Collect zombie c (a process whose threads are all gone): copy out the
 * status and usage, free the task. */
static long reap(struct task_struct *c, int __user *status,
		 struct rusage __user *ru)
{
	pid_t pid = c->pid;
	struct rusage r;

	getrusage(c, RUSAGE_BOTH, &r);
	if ((status && put_user(group_exit_status(c), status)) ||
	    (ru && copy_to_user(ru, &r, sizeof(r)))) {
		c->exit_state = EXIT_ZOMBIE;	/* for a later wait4 */
		return -EFAULT;
	}
	account_reaped(current->group_leader, c);
	lock_tasklist();
	release_task(c);
	unlock_tasklist();
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

/* The job-control news of c that wait4's options ask for, taken (0xffff
 * for a continue, (sig << 8) | 0x7f for a stop), or 0. */
static int take_job_change(struct task_struct *c, int options)
{
	struct signal_struct *s = c->sig;
	unsigned long flags;
	int st = 0;

	lock_task_sighand(c, &flags);
	if ((options & WUNTRACED) && s->stop_report &&
	    (s->flags & SIGNAL_STOP_STOPPED)) {
		st = (s->stop_report << 8) | 0x7f;
		s->stop_report = 0;
	} else if ((options & WCONTINUED) && s->cont_report) {
		s->cont_report = false;
		st = 0xffff;
	}
	unlock_task_sighand(c, flags);
	return st;
}

/*
 * One pass over the children of current's process (any of its threads
 * may wait for them): a pid, 0 (some match, none dead), -ECHILD. A
 * zombie leader whose other threads still run is not dead yet.
 */
static long wait_scan(pid_t pid, int options, int __user *status,
		      struct rusage __user *ru)
{
	struct task_struct *c, *found = NULL;
	bool any = false;
	int st = 0;

	/* The walk under the tasklist lock: a child exiting meanwhile may
	 * unlink itself from the list (its parent ignores SIGCHLD), and a
	 * walk preempted on it would go on through freed memory. */
	lock_tasklist();
	list_for_each_entry(c, &current->group_leader->children, sibling) {
		if (!wait_matches(c, pid))
			continue;
		any = true;
		if (c->exit_state == EXIT_ZOMBIE && thread_group_empty(c)) {
			/* Ours to reap: another thread's wait4 passes it by. */
			c->exit_state = EXIT_DEAD;
			found = c;
			break;
		}
		if (c->exit_state)
			continue;
		st = take_job_change(c, options);
		if (st) {
			found = c;
			break;
		}
	}
	unlock_tasklist();
	if (!found)
		return any ? 0 : -ECHILD;
	return st ? report_job_change(found, st, status, ru)
		  : reap(found, status, ru);
}

SYSCALL_DEFINE4(wait4, pid_t, pid, int __user *, status, int, options,
		struct rusage __user *, ru)
{
	long ret;

	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WALL | __WCLONE))
		return -EINVAL;
	if (wait_event_interruptible(current->group_leader->wait_chldexit,
				     (ret = wait_scan(pid, options, status,
						      ru)) != 0 ||
					     (options & WNOHANG)))
		return -ERESTARTSYS;
	return ret;
}
