/*
 * kernel/fork.c: making tasks.
 *
 * copy_process() makes the child: a kernel stack whose top holds a copy of
 * the parent's user registers (with rax = 0, the child's return value),
 * then what a task uses, each shared or copied as clone()'s flags say:
 *
 *	CLONE_VM	the address space (else a copy-on-write one, dup_mm)
 *	CLONE_FILES	the file descriptor table (else a copy, dup_fd)
 *	CLONE_FS	root, cwd and umask (else a copy)
 *	CLONE_SIGHAND	the signal handlers (else a copy)
 *	CLONE_THREAD	the process: the child is a thread of current's
 *			group (same tgid, signal_struct), not a child of it
 *
 * Pending signals are never inherited. Below the registers sits a frame
 * for __switch_to_asm, so the child's first schedule() "returns" into
 * ret_from_fork and from there to user mode. Kernel threads are made the
 * same way with a function to call instead.
 *
 * Roadmap: clone_flags_valid (Linux's rules), init_child, copy_mm,
 * copy_sighand, copy_signal, link_task, copy_process, then kernel_thread
 * and the fork, vfork, clone and clone3 calls.
 */
#include <kernel/sched.h>
#include <kernel/explore.h>
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

#define CSIGNAL 0x000000ff
#define CLONE_VM 0x00000100
#define CLONE_FS 0x00000200
#define CLONE_FILES 0x00000400
#define CLONE_SIGHAND 0x00000800
#define CLONE_VFORK 0x00004000
#define CLONE_PARENT 0x00008000
#define CLONE_THREAD 0x00010000
#define CLONE_NEWNS 0x00020000
#define CLONE_SETTLS 0x00080000
#define CLONE_PARENT_SETTID 0x00100000
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_CHILD_SETTID 0x01000000

/* What clone() was asked (Linux's kernel_clone_args, the part we use). */
struct kernel_clone_args {
	unsigned long flags;
	int __user *parent_tid, *child_tid;
	unsigned long stack, tls;
};

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

/* Under the tasklist lock: two forks preempted between the increment and
 * the look-up would get one pid. */
static pid_t alloc_pid(void)
{
	pid_t pid;

	lock_tasklist();
	do {
		if (++last_pid >= 32768)
			last_pid = 2;	/* 1 stays init's */
	} while (find_task_by_pid(last_pid));
	pid = last_pid;
	unlock_tasklist();
	return pid;
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

/* The combinations Linux refuses (copy_process): a thread shares its
 * handlers, and shared handlers need a shared address space. */
static int clone_flags_valid(unsigned long flags)
{
	if ((flags & (CLONE_NEWNS | CLONE_FS)) == (CLONE_NEWNS | CLONE_FS))
		return -EINVAL;
	if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
		return -EINVAL;
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return -EINVAL;
	/* init's siblings would have no one to wait for them. */
	if ((flags & CLONE_PARENT) && (current->sig->flags & SIGNAL_UNKILLABLE))
		return -EINVAL;
	return 0;
}

/* Parent's state the child starts from; no resources taken yet. */
static void init_child(struct task_struct *p, struct task_struct *parent,
		       const struct kernel_clone_args *args)
{
	unsigned long flags = args->flags;

	p->state = TASK_RUNNING;
	p->pid = alloc_pid();
	explore_fork(p, parent);
	p->tgid = (flags & CLONE_THREAD) ? parent->tgid : p->pid;
	p->group_leader = (flags & CLONE_THREAD) ? parent->group_leader : p;
	p->start_time = jiffies;
	p->pgid = parent->pgid;
	p->sid = parent->sid;
	memcpy(p->comm, parent->comm, sizeof(p->comm));
	p->cred = parent->cred;
	memcpy(p->rlim, parent->rlim, sizeof(p->rlim));
	p->nice = parent->nice;
	p->cpus_allowed = parent->cpus_allowed;
	p->undumpable = parent->undumpable;	/* Linux keeps it in the mm */
	if (parent == current)
		fpu_save_current();	/* the live registers, not the last switch's */
	p->fpu = parent->fpu;
	p->fs_base = (flags & CLONE_SETTLS) ? args->tls : parent->fs_base;
	if (flags & CLONE_CHILD_SETTID)
		p->set_child_tid = (unsigned long)args->child_tid;
	if (flags & CLONE_CHILD_CLEARTID)
		p->clear_child_tid = (unsigned long)args->child_tid;
	p->signal.blocked = parent->signal.blocked;
	/* The alternate signal stack, unless the child shares our memory
	 * and runs beside us: two threads on one stack would clash. */
	if ((flags & (CLONE_VM | CLONE_VFORK)) != CLONE_VM) {
		p->signal.sas_ss_sp = parent->signal.sas_ss_sp;
		p->signal.sas_ss_size = parent->signal.sas_ss_size;
	}
	p->signal.sas_ss_flags = parent->signal.sas_ss_flags;
	/* A process's parent is a process (its leader); a thread's, and a
	 * CLONE_PARENT child's, is the creator's own. */
	p->parent = (flags & (CLONE_THREAD | CLONE_PARENT)) ?
			    parent->group_leader->parent : parent->group_leader;
	INIT_LIST_HEAD(&p->children);
	INIT_LIST_HEAD(&p->sibling);
	INIT_LIST_HEAD(&p->thread_node);
	INIT_LIST_HEAD(&p->run_list);
	INIT_LIST_HEAD(&p->itimer_list);	/* timers are not inherited */
	init_waitqueue_head(&p->wait_chldexit);
}

static int copy_mm(unsigned long flags, struct task_struct *p)
{
	struct mm_struct *mm = current->mm;

	if (!mm)
		return 0;
	if (flags & CLONE_VM) {
		mmget(mm);
		p->mm = mm;
		return 0;
	}
	p->mm = dup_mm(mm);
	if (!p->mm)
		return -ENOMEM;
	mm_clear_locked(p->mm);	/* mlock is not inherited */
	return 0;
}

static int copy_files_and_fs(unsigned long flags, struct task_struct *p)
{
	if (current->files)
		p->files = (flags & CLONE_FILES) ?
				   get_files_struct(current->files) :
				   dup_fd(current->files);
	if (current->fs)
		p->fs = (flags & CLONE_FS) ? get_fs_struct(current->fs) :
					     copy_fs_struct(current->fs);
	if ((current->files && !p->files) || (current->fs && !p->fs))
		return -ENOMEM;
	return 0;
}

static int copy_sighand(unsigned long flags, struct task_struct *p)
{
	struct sighand_struct *sh = current->sighand;
	unsigned long irqflags;

	if (flags & CLONE_SIGHAND) {
		__atomic_add_fetch(&sh->count, 1, __ATOMIC_SEQ_CST);
		p->sighand = sh;
		return 0;
	}
	p->sighand = kzalloc(sizeof(*p->sighand), GFP_KERNEL);
	if (!p->sighand)
		return -ENOMEM;
	p->sighand->count = 1;
	spin_lock_init(&p->sighand->siglock);
	lock_task_sighand(current, &irqflags);
	memcpy(p->sighand->action, sh->action, sizeof(sh->action));
	unlock_task_sighand(current, irqflags);
	return 0;
}

void put_sighand(struct sighand_struct *sh)
{
	if (!__atomic_sub_fetch(&sh->count, 1, __ATOMIC_SEQ_CST))
		kfree(sh);
}

/* A new process: p its only thread. A thread joins current's group in
 * link_task instead, under the siglock. */
static int copy_signal(unsigned long flags, struct task_struct *p)
{
	struct signal_struct *s;

	if (flags & CLONE_THREAD) {
		__atomic_add_fetch(&current->sig->count, 1, __ATOMIC_SEQ_CST);
		p->sig = current->sig;
		return 0;
	}
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	s->count = 1;
	s->live = 1;
	s->nr_threads = 1;
	INIT_LIST_HEAD(&s->thread_head);
	list_add_tail(&p->thread_node, &s->thread_head);
	init_waitqueue_head(&s->exec_wait);
	p->sig = s;
	return 0;
}

void put_signal_struct(struct signal_struct *s)
{
	if (!__atomic_sub_fetch(&s->count, 1, __ATOMIC_SEQ_CST))
		kfree(s);
}

/*
 * Make p visible: on the task list, and on its parent's children or its
 * group's threads. A thread cannot join a group that is exiting or
 * exec'ing (its killer would miss it): -EINTR then, and the clone is
 * restarted after the signal, which ends the caller anyway.
 */
static int link_task(unsigned long flags, struct task_struct *p)
{
	unsigned long irqflags;
	struct signal_struct *s = current->sig;

	if (flags & CLONE_THREAD) {
		lock_task_sighand(current, &irqflags);
		if ((s->flags & SIGNAL_GROUP_EXIT) || s->group_exec_task ||
		    fatal_signal_pending(current)) {
			unlock_task_sighand(current, irqflags);
			return -ERESTARTNOINTR;
		}
		list_add_tail(&p->thread_node, &s->thread_head);
		s->nr_threads++;
		s->live++;
		unlock_task_sighand(current, irqflags);
	}
	lock_tasklist();
	if (!(flags & CLONE_THREAD))
		list_add_tail(&p->sibling, &p->parent->children);
	list_add_tail(&p->tasks, &task_list);
	unlock_tasklist();
	return 0;
}

/* Undo copy_process's steps that were taken, in reverse. */
static void free_unlinked_task(struct task_struct *p)
{
	if (p->sig)
		put_signal_struct(p->sig);
	if (p->sighand)
		put_sighand(p->sighand);
	if (p->files)
		put_files_struct(p->files);
	if (p->fs)
		put_fs_struct(p->fs);
	if (p->mm)
		mmput(p->mm);
	release_task_stack(p);
}

/*
 * Make a child of current. regs: the parent's user registers (NULL for a
 * kernel thread, which runs fn(arg) instead). Returns the child, not yet
 * runnable, or an ERR_PTR.
 */
static struct task_struct *copy_process(const struct kernel_clone_args *args,
					const struct pt_regs *regs,
					void (*fn)(void *), void *arg)
{
	unsigned long flags = args->flags;
	struct task_struct *p;
	int err = clone_flags_valid(flags);

	if (err)
		return ERR_PTR(err);
	p = alloc_task();
	if (!p)
		return ERR_PTR(-ENOMEM);
	init_child(p, current, args);
	if ((err = copy_mm(flags, p)) || (err = copy_files_and_fs(flags, p)) ||
	    (err = copy_sighand(flags, p)) || (err = copy_signal(flags, p)))
		goto fail;
	copy_thread(p, regs, fn, arg);
	if (regs && args->stack)
		task_pt_regs(p)->rsp = args->stack;
	if ((err = link_task(flags, p)))
		goto fail;
	count_vm_event(NR_FORKS);
	return p;
fail:
	if (!(flags & CLONE_THREAD))
		list_del(&p->thread_node);	/* copy_signal's list */
	free_unlinked_task(p);
	return ERR_PTR(err);
}

pid_t kernel_thread(void (*fn)(void *), void *arg, const char *name)
{
	struct kernel_clone_args args = { 0 };
	struct task_struct *p = copy_process(&args, NULL, fn, arg);

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

/* fork, vfork and clone (Linux's kernel_clone). */
static long do_fork(const struct kernel_clone_args *args)
{
	struct pt_regs *regs = task_pt_regs(current);
	struct task_struct *p;
	pid_t pid;

	p = copy_process(args, regs, NULL, NULL);
	if (IS_ERR(p))
		return PTR_ERR(p);
	pid = p->pid;
	/* Before the child runs: a thread may read it at once. */
	if ((args->flags & CLONE_PARENT_SETTID) && args->parent_tid)
		put_user(pid, args->parent_tid);
	if (args->flags & CLONE_VFORK) {
		/* Without CLONE_VM our copy-on-write fork is cheap, so vfork
		 * is a fork whose parent waits until the child execs or
		 * exits. */
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
	struct kernel_clone_args args = { 0 };

	return do_fork(&args);
}

SYSCALL_DEFINE0(vfork)
{
	struct kernel_clone_args args = { .flags = CLONE_VFORK };

	return do_fork(&args);
}

/* The low byte (CSIGNAL) names the signal the parent gets when the child
 * exits; pagelab always sends SIGCHLD for a process, nothing for a
 * thread. */
SYSCALL_DEFINE5(clone, unsigned long, flags, unsigned long, newsp,
		int __user *, parent_tid, int __user *, child_tid,
		unsigned long, tls)
{
	struct kernel_clone_args args = {
		.flags = flags & ~CSIGNAL, .parent_tid = parent_tid,
		.child_tid = child_tid, .stack = newsp, .tls = tls,
	};

	return do_fork(&args);
}

/* clone3 takes its arguments in a struct; musl and glibc (2.34 on) try it
 * first and use clone when it says ENOSYS, as on kernels before 5.3. */
SYSCALL_DEFINE2(clone3, void __user *, uargs, size_t, size)
{
	return -ENOSYS;
}

/* Let a vfork parent run again (the child exec'd or is exiting). */
void mm_release_vfork(struct task_struct *t)
{
	if (t->vfork_parent) {
		wake_up_process(t->vfork_parent);
		t->vfork_parent = NULL;
	}
}

/*
 * Another CPU's pid 0 (Linux's fork_idle): a copy of init_task on a stack
 * of its own, on no list, never woken. The CPU runs it from its first
 * instruction in C and whenever nothing else is runnable.
 */
struct task_struct *fork_idle(int cpu)
{
	struct task_struct *p = alloc_task();
	void *stack;

	if (!p)
		return NULL;
	stack = p->stack;
	*p = init_task;
	p->stack = stack;
	p->group_leader = p;
	snprintf(p->comm, sizeof(p->comm), "swapper/%d", cpu);
	INIT_LIST_HEAD(&p->children);
	INIT_LIST_HEAD(&p->sibling);
	INIT_LIST_HEAD(&p->thread_node);
	INIT_LIST_HEAD(&p->tasks);
	INIT_LIST_HEAD(&p->run_list);
	INIT_LIST_HEAD(&p->itimer_list);
	init_waitqueue_head(&p->wait_chldexit);
	p->lockdep_depth = 0;
	p->utime_ticks = p->stime_ticks = 0;
	return p;
}
