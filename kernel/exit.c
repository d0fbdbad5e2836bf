/*
 * kernel/exit.c: ending tasks and collecting them.
 *
 * do_exit() releases what the task owns (address space, files, fs), hands
 * its children to init, and becomes a zombie: a task_struct that only holds
 * the exit status until the parent's wait4() reads it and frees the rest.
 * If the parent said it does not care (SIGCHLD ignored or SA_NOCLDWAIT),
 * the task is freed at once, as Linux does.
 */
#include <kernel/sched.h>
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/power.h>
#include <kernel/printk.h>
#include <kernel/syscalls.h>
#include <kernel/task_fs.h>
#include <kernel/uaccess.h>
#include <mm/mmap.h>

#define WNOHANG 1
#define WUNTRACED 2
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

/* Children of an exiting task become init's (zombies included). */
static void reparent_children(struct task_struct *t)
{
	struct task_struct *init = find_task_by_pid(1), *c, *tmp;

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
	exit_mm(t);
	if (t->files)
		put_files_struct(t->files);
	if (t->fs)
		put_fs_struct(t->fs);
	t->files = NULL;
	t->fs = NULL;
	reparent_children(t);
	t->exit_code = code;
	if (parent_ignores_children(t->parent)) {
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

struct rusage_stub {
	char bytes[144];	/* struct rusage: all zero for now */
};

/* Collect zombie c: copy out the status, free the task. */
static long reap(struct task_struct *c, int __user *status,
		 struct rusage_stub __user *ru)
{
	pid_t pid = c->pid;

	if (status && put_user(c->exit_code, status))
		return -EFAULT;
	if (ru && clear_user(ru, sizeof(*ru)))
		return -EFAULT;
	unhash_task(c);
	release_task_stack(c);
	return pid;
}

/* One pass over the children: a pid, 0 (some match, none dead), -ECHILD. */
static long wait_scan(pid_t pid, int __user *status,
		      struct rusage_stub __user *ru)
{
	struct task_struct *c;
	bool any = false;

	list_for_each_entry(c, &current->children, sibling) {
		if (!wait_matches(c, pid))
			continue;
		any = true;
		if (c->exit_state == EXIT_ZOMBIE)
			return reap(c, status, ru);
	}
	return any ? 0 : -ECHILD;
}

SYSCALL_DEFINE4(wait4, pid_t, pid, int __user *, status, int, options,
		struct rusage_stub __user *, ru)
{
	long ret;

	if (options & ~(WNOHANG | WUNTRACED | __WALL | __WCLONE))
		return -EINVAL;
	if (wait_event_interruptible(current->wait_chldexit,
				     (ret = wait_scan(pid, status, ru)) != 0 ||
					     (options & WNOHANG)))
		return -ERESTARTSYS;
	return ret;
}
