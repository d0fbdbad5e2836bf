/*
 * kernel/fork.c: making tasks.
 *
 * copy_process() makes the child: a kernel stack whose top holds a copy of
 * the parent's user registers (with rax = 0, the child's return value), an
 * address space shared copy-on-write (dup_mm), the parent's open files and
 * fs state, signal handlers (pending signals are not inherited). Below the
 * registers sits a frame for __switch_to_asm, so the child's first
 * schedule() "returns" into ret_from_fork and from there to user mode.
 * Kernel threads are made the same way with a function to call instead.
 */
#include <kernel/sched.h>
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/syscalls.h>
#include <kernel/time.h>
#include <kernel/vmstat.h>
#include <asm/desc.h>
#include <asm/processor.h>
#include <kernel/task_fs.h>
#include <kernel/uaccess.h>
#include <mm/gfp.h>
#include <mm/kstack.h>
#include <mm/mmap.h>
#include <mm/slab.h>

LIST_HEAD(task_list);
static pid_t last_pid;

void ret_from_fork(void);

#define CLONE_VM 0x00000100
#define CLONE_VFORK 0x00004000
#define CLONE_SETTLS 0x00080000
#define CLONE_CHILD_SETTID 0x01000000
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_PARENT_SETTID 0x00100000
#define CLONE_THREAD 0x00010000
#define CSIGNAL 0xff

pid_t last_pid_allocated(void)
{
	return last_pid;
}

struct task_struct *find_task_by_pid(pid_t pid)
{
	struct task_struct *t;

	list_for_each_entry(t, &task_list, tasks)
		if (t->pid == pid)
			return t;
	return NULL;
}

static pid_t alloc_pid(void)
{
	do {
		if (++last_pid >= 32768)
			last_pid = 2;	/* 1 stays init's */
	} while (find_task_by_pid(last_pid));
	return last_pid;
}

/* The frame __switch_to_asm pops: r15 r14 r13 r12 rbx rbp, then ret. */
struct fork_frame {
	unsigned long r15, r14, r13, r12, rbx, rbp, ret_addr;
};

static void copy_thread(struct task_struct *p, const struct pt_regs *regs,
			void (*fn)(void *), void *arg)
{
	struct pt_regs *child = task_pt_regs(p);
	struct fork_frame *f = (struct fork_frame *)child - 1;

	if (regs) {
		*child = *regs;
		child->rax = 0;	/* fork() returns 0 in the child */
	} else {
		memset(child, 0, sizeof(*child));
	}
	memset(f, 0, sizeof(*f));
	f->rbx = (unsigned long)fn;
	f->r12 = (unsigned long)arg;
	f->ret_addr = (unsigned long)ret_from_fork;
	p->thread_sp = (unsigned long)f;
}

static struct task_struct *alloc_task(void)
{
	struct task_struct *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	p->stack = alloc_kernel_stack();	/* with a guard below */
	if (!p->stack) {
		kfree(p);
		return NULL;
	}
	return p;
}

void release_task_stack(struct task_struct *t)
{
	free_kernel_stack(t->stack);
	kfree(t);
}

/* Parent's state the child starts from; no resources taken yet. */
static void init_child(struct task_struct *p, struct task_struct *parent)
{
	p->state = TASK_RUNNING;
	p->start_time = jiffies;
	p->pgid = parent->pgid;
	p->sid = parent->sid;
	memcpy(p->comm, parent->comm, sizeof(p->comm));
	p->cred = parent->cred;
	memcpy(p->rlim, parent->rlim, sizeof(p->rlim));
	p->nice = parent->nice;
	p->undumpable = parent->undumpable;	/* Linux keeps it in the mm */
	if (parent == current)
		fpu_save_current();	/* the live registers, not the last switch's */
	p->fpu = parent->fpu;
	p->fs_base = parent->fs_base;
	p->signal.blocked = parent->signal.blocked;
	memcpy(p->signal.action, parent->signal.action,
	       sizeof(p->signal.action));
	p->signal.sas_ss_sp = parent->signal.sas_ss_sp;	/* sigaltstack */
	p->signal.sas_ss_size = parent->signal.sas_ss_size;
	p->signal.sas_ss_flags = parent->signal.sas_ss_flags;
	p->parent = parent;
	INIT_LIST_HEAD(&p->children);
	INIT_LIST_HEAD(&p->run_list);
	INIT_LIST_HEAD(&p->itimer_list);	/* timers are not inherited */
	init_waitqueue_head(&p->wait_chldexit);
}

/*
 * Make a child of current. regs: the parent's user registers (NULL for a
 * kernel thread, which runs fn(arg) instead). Returns the child, not yet
 * runnable, or an ERR_PTR.
 */
struct task_struct *copy_process(unsigned long flags, const struct pt_regs *regs,
				 void (*fn)(void *), void *arg)
{
	struct task_struct *p = alloc_task();

	if (!p)
		return ERR_PTR(-ENOMEM);
	init_child(p, current);
	if (current->mm) {
		p->mm = dup_mm(current->mm);
		if (!p->mm)
			goto nomem;
		mm_clear_locked(p->mm);	/* mlock is not inherited */
	}
	p->files = current->files ? dup_fd(current->files) : NULL;
	p->fs = current->fs ? copy_fs_struct(current->fs) : NULL;
	if ((current->files && !p->files) || (current->fs && !p->fs))
		goto nomem;
	copy_thread(p, regs, fn, arg);
	/* The pid and the links in one step: two forks preempted in
	 * alloc_pid would pick the same number. */
	lock_tasklist();
	p->pid = alloc_pid();
	list_add_tail(&p->tasks, &task_list);
	list_add_tail(&p->sibling, &current->children);
	unlock_tasklist();
	count_vm_event(NR_FORKS);
	return p;
nomem:
	if (p->files)
		put_files_struct(p->files);
	if (p->fs)
		put_fs_struct(p->fs);
	if (p->mm)
		mmput(p->mm);
	release_task_stack(p);
	return ERR_PTR(-ENOMEM);
}

pid_t kernel_thread(void (*fn)(void *), void *arg, const char *name)
{
	struct task_struct *p = copy_process(0, NULL, fn, arg);

	if (IS_ERR(p))
		return PTR_ERR(p);
	strlcpy(p->comm, name, sizeof(p->comm));
	/* Kernel threads belong to pid 0, not to whoever started them: pid 1
	 * starts the flusher, and init's wait() must never wait for it. */
	p->flags |= PF_KTHREAD;
	lock_tasklist();
	list_del(&p->sibling);
	p->parent = &init_task;
	list_add_tail(&p->sibling, &init_task.children);
	unlock_tasklist();
	wake_up_process(p);
	return p->pid;
}

/* fork, vfork and clone (process form only: no threads). */
static long do_fork(unsigned long flags, unsigned long newsp,
		    int __user *parent_tid)
{
	struct pt_regs *regs = task_pt_regs(current);
	struct task_struct *p;
	pid_t pid;

	if (flags & (CLONE_THREAD | CLONE_VM) && !(flags & CLONE_VFORK))
		return -EINVAL;	/* threads are not supported */
	p = copy_process(flags, regs, NULL, NULL);
	if (IS_ERR(p))
		return PTR_ERR(p);
	pid = p->pid;
	if (newsp)
		task_pt_regs(p)->rsp = newsp;
	if ((flags & CLONE_PARENT_SETTID) && parent_tid)
		put_user(pid, parent_tid);
	if (flags & CLONE_VFORK) {
		/* Our copy-on-write fork is cheap, so vfork is a fork whose
		 * parent waits until the child execs or exits. */
		p->vfork_parent = current;
		current->state = TASK_UNINTERRUPTIBLE;
		wake_up_process(p);
		schedule();
	} else {
		wake_up_process(p);
	}
	return pid;
}

SYSCALL_DEFINE0(fork)
{
	return do_fork(0, 0, NULL);
}

SYSCALL_DEFINE0(vfork)
{
	return do_fork(CLONE_VFORK, 0, NULL);
}

SYSCALL_DEFINE5(clone, unsigned long, flags, unsigned long, newsp,
		int __user *, parent_tid, int __user *, child_tid,
		unsigned long, tls)
{
	return do_fork(flags & ~CSIGNAL, newsp, parent_tid);
}

/* Let a vfork parent run again (the child exec'd or is exiting). */
void mm_release_vfork(struct task_struct *t)
{
	if (t->vfork_parent) {
		wake_up_process(t->vfork_parent);
		t->vfork_parent = NULL;
	}
}
