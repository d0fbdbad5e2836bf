/*
 * kernel/signal.c: sending, blocking and delivering signals.
 *
 * Sending marks the signal pending (one instance each; its siginfo kept)
 * and wakes the target if it sleeps interruptibly. Delivery happens on the
 * way back to user mode (exit_to_user_mode): the lowest pending unblocked
 * signal is taken; its action is the default (terminate, ignore, or for
 * SIGSTOP, SIGTSTP, SIGTTIN and SIGTTOU stop until SIGCONT: job control)
 * or a handler, for which we build Linux's x86-64 rt_sigframe on the user
 * stack:
 *
 *	 higher addresses
 *	  [ 128-byte red zone of the interrupted code, untouched ]
 *	  [ FXSAVE area, 512 bytes, 64-byte aligned ]   <- uc.mcontext.fpstate
 *	  [ siginfo_t info ]
 *	  [ ucontext_t uc: flags, link, stack, mcontext (registers), mask ]
 *	  [ return address = sa_restorer (musl: calls rt_sigreturn) ]  <- rsp
 *
 * rt_sigreturn reads the registers, mask and FPU state back from there.
 *
 * rt_sigtimedwait takes a signal of a set without delivering it (the set
 * is unblocked while it sleeps, so that sending one wakes it);
 * rt_sigqueueinfo sends one with the caller's siginfo (sigqueue's value).
 */
#include <kernel/lockdep.h>
#include <kernel/signal.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/syscalls.h>
#include <kernel/jiffies.h>
#include <kernel/uaccess.h>
#include <asm/desc.h>
#include <asm/traps.h>
#include <fs/dcache.h>
#include <fs/fs.h>
#include <mm/mmap.h>
#include <mm/mmap_lock.h>

#define UNBLOCKABLE (sigmask(SIGKILL) | sigmask(SIGSTOP))
#define VECTOR_SYSCALL 256

struct sigcontext {
	u64 r8, r9, r10, r11, r12, r13, r14, r15;
	u64 rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip, eflags;
	u16 cs, gs, fs, ss;
	u64 err, trapno, oldmask, cr2;
	u64 fpstate;
	u64 reserved1[8];
};

struct ucontext {
	unsigned long uc_flags;
	unsigned long uc_link;
	stack_t uc_stack;
	struct sigcontext uc_mcontext;
	sigset_t uc_sigmask;
};

struct rt_sigframe {
	unsigned long pretcode;
	struct ucontext uc;
	siginfo_t info;
};

#define for_each_thread(p, t) \
	list_for_each_entry(t, &(p)->sig->thread_head, thread_node)

/* Racy reads of the shared set are fine here: whoever acts on the answer
 * looks again under siglock (dequeue_signal). */
bool signal_pending(struct task_struct *t)
{
	sigset_t pending = t->signal.pending | t->sig->shared_pending;

	return (pending & ~t->signal.blocked) || t->signal.stop_pending;
}

/* SIGKILL is on its way to t, or its group is exiting: a sleep should
 * give up (fail_delay, the OOM killer). */
bool fatal_signal_pending(struct task_struct *t)
{
	return (t->signal.pending & sigmask(SIGKILL)) ||
	       (t->sig->flags & SIGNAL_GROUP_EXIT);
}

struct sighand_struct *lock_task_sighand(struct task_struct *t,
					 unsigned long *flags)
{
	struct sighand_struct *sh;

	for (;;) {
		*flags = local_irq_save();
		sh = t->sighand;
		if (!sh) {
			local_irq_restore(*flags);
			return NULL;
		}
		spin_lock(&sh->siglock);
		if (sh == t->sighand)	/* exec may have given t its own */
			return sh;
		spin_unlock(&sh->siglock);
		local_irq_restore(*flags);
	}
}

void unlock_task_sighand(struct task_struct *t, unsigned long flags)
{
	spin_unlock_irqrestore(&t->sighand->siglock, flags);
}

static bool sig_default_ignored(int sig)
{
	return sig == SIGCHLD || sig == SIGURG || sig == SIGWINCH ||
	       sig == SIGCONT;
}

/*
 * Would the target throw sig away on arrival? Then don't queue it. init
 * takes only the signals it has a handler for (Linux's sig_task_ignored):
 * kill(1, SIGTERM) by root must not end the machine with a panic.
 * siglock held.
 */
static bool sig_ignored(struct task_struct *t, int sig)
{
	void *h = t->sighand->action[sig - 1].handler;
	bool unkillable = t->sig->flags & SIGNAL_UNKILLABLE;

	if (unkillable && (sigmask(sig) & UNBLOCKABLE))
		return true;
	if ((t->signal.blocked | t->signal.real_blocked) & sigmask(sig))
		return false;
	if (unkillable && h == SIG_DFL)
		return true;
	return h == SIG_IGN || (h == SIG_DFL && sig_default_ignored(sig));
}

#define STOP_SIGNALS \
	(sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) | \
	 sigmask(SIGTTOU))

/* The parent hears of a stop or a continue (SIGCHLD, unless it asked not
 * to with SA_NOCLDSTOP) and its wait4 looks again. t: the group leader.
 * No siglock held: the parent's may be the same (CLONE_SIGHAND). */
static void notify_parent_cldstop(struct task_struct *t, int why, int sig)
{
	struct task_struct *parent = t->parent;
	siginfo_t info = { .si_signo = SIGCHLD, .si_code = why };

	if (!parent)
		return;
	info.chld.pid = t->tgid;
	info.chld.uid = t->cred.uid;
	info.chld.status = sig;
	if (!(parent->sighand->action[SIGCHLD - 1].flags & SA_NOCLDSTOP))
		group_send_sig_info(SIGCHLD, &info, parent);
	wake_up(&parent->wait_chldexit);
}

/* A stopped thread gets running, to see SIGCONT or SIGKILL. */
static void wake_stopped(struct task_struct *t)
{
	if (t->state != TASK_STOPPED)
		return;
	t->state = TASK_INTERRUPTIBLE;	/* what wake_up_process wakes */
	wake_up_process(t);
}

/* Make t look at its signals: an interruptible sleep ends (and, for a
 * fatal one, a stop). */
static void signal_wake_up(struct task_struct *t, bool fatal)
{
	if (fatal)
		wake_stopped(t);
	/* The pending bit before the state: t sets its state before it
	 * tests for signals (set_current_state), so one of us sees the
	 * other's store. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (t->state == TASK_INTERRUPTIBLE)
		wake_up_process(t);
}

/* Take sig out of every pending set of p's group. siglock held. */
static void flush_group_signals(struct task_struct *p, sigset_t mask)
{
	struct task_struct *t;

	p->sig->shared_pending &= ~mask;
	for_each_thread(p, t)
		t->signal.pending &= ~mask;
}

/*
 * What sending sig does before it is queued, whatever p's action for it
 * (Linux's prepare_signal), to the whole group: a stop signal cancels a
 * pending SIGCONT; SIGCONT cancels pending stops and resumes a stopped
 * group, even when it ignores SIGCONT; SIGKILL gets a stopped group
 * running so that it can die. siglock held; true when the parent must
 * hear that the group continued (after the unlock).
 */
static bool prepare_signal(int sig, struct task_struct *p)
{
	struct signal_struct *s = p->sig;
	struct task_struct *t;

	if (sigmask(sig) & STOP_SIGNALS) {
		flush_group_signals(p, sigmask(SIGCONT));
		return false;
	}
	if (sig != SIGCONT && sig != SIGKILL)
		return false;
	if (sig == SIGCONT) {
		flush_group_signals(p, STOP_SIGNALS);
		for_each_thread(p, t)
			t->signal.stop_pending = false;
	}
	if (!(s->flags & SIGNAL_STOP_STOPPED))
		return false;
	s->flags &= ~SIGNAL_STOP_STOPPED;
	s->stop_report = 0;
	for_each_thread(p, t)
		wake_stopped(t);
	if (sig != SIGCONT)
		return false;
	s->cont_report = true;
	return true;
}

static bool wants_signal(int sig, struct task_struct *t)
{
	return !(t->signal.blocked & sigmask(sig)) &&
	       !(t->flags & PF_EXITING);
}

/* Every other thread of p's group gets SIGKILL. siglock held. */
void zap_other_threads(struct task_struct *p)
{
	struct task_struct *t;

	for_each_thread(p, t) {
		if (t == p || (t->flags & PF_EXITING))
			continue;
		t->signal.pending |= sigmask(SIGKILL);
		t->signal.stop_pending = false;
		signal_wake_up(t, true);
	}
}

/*
 * sig was queued for p (for p's whole group when group): find a thread
 * that will take it and wake it (Linux's complete_signal). SIGKILL ends
 * the group here and now: every thread gets it, whatever it was doing.
 * siglock held.
 */
static void complete_signal(int sig, struct task_struct *p, bool group)
{
	struct signal_struct *s = p->sig;
	struct task_struct *t = p;

	if (!wants_signal(sig, p)) {
		if (!group)
			return;
		t = NULL;
		for_each_thread(p, t)
			if (wants_signal(sig, t))
				break;
		if (&t->thread_node == &s->thread_head)
			return;	/* every thread blocks it: it waits */
	}
	if (sig == SIGKILL && !(s->flags & SIGNAL_GROUP_EXIT) &&
	    !s->group_exec_task) {
		s->flags |= SIGNAL_GROUP_EXIT;
		s->group_exit_code = SIGKILL;
		t->signal.pending |= sigmask(SIGKILL);
		zap_other_threads(t);
	}
	signal_wake_up(t, sig == SIGKILL);
}

/* A dead target takes nothing: a released or exiting thread, or for the
 * group, one with no live thread. siglock held. */
static bool target_gone(struct task_struct *t, bool group)
{
	return group ? !t->sig->live : (t->flags & PF_EXITING);
}

static int send_signal(int sig, const siginfo_t *info, struct task_struct *t,
		       bool group)
{
	bool continued = false;
	unsigned long flags;
	sigset_t *pending;
	siginfo_t *slot;

	if (sig < 1 || sig > _NSIG)
		return -EINVAL;
	if ((t->flags & PF_KTHREAD) && !t->mm)
		return 0;	/* kernel threads take no signals */
	if (!lock_task_sighand(t, &flags))
		return 0;
	if (target_gone(t, group))
		goto out;
	continued = prepare_signal(sig, t);
	if (sig_ignored(t, sig))
		goto out;
	pending = group ? &t->sig->shared_pending : &t->signal.pending;
	slot = group ? &t->sig->shared_info[sig - 1]
		     : &t->signal.info[sig - 1];
	if (!(*pending & sigmask(sig))) {
		if (info) {
			*slot = *info;
		} else {
			memset(slot, 0, sizeof(*slot));
			slot->si_signo = sig;
			slot->si_code = SI_KERNEL;
		}
		*pending |= sigmask(sig);
	}
	complete_signal(sig, t, group);
out:
	unlock_task_sighand(t, flags);
	if (continued)
		notify_parent_cldstop(t->group_leader, CLD_CONTINUED, SIGCONT);
	return 0;
}

int send_sig_info(int sig, const siginfo_t *info, struct task_struct *t)
{
	return send_signal(sig, info, t, false);
}

int group_send_sig_info(int sig, const siginfo_t *info, struct task_struct *t)
{
	return send_signal(sig, info, t, true);
}

void force_sig_fault(int sig, int code, unsigned long addr)
{
	struct task_struct *t = current;
	struct k_sigaction *ka = &t->sighand->action[sig - 1];
	siginfo_t info = { .si_signo = sig, .si_code = code };
	unsigned long flags;

	info.fault.addr = addr;
	lock_task_sighand(t, &flags);
	/* Blocked or ignored, the fault would only recur: take it anyway. */
	if ((t->signal.blocked & sigmask(sig)) || ka->handler == SIG_IGN) {
		t->signal.blocked &= ~sigmask(sig);
		ka->handler = SIG_DFL;
	}
	/* Even init dies of a fault it has no handler for (then panics). */
	if (ka->handler == SIG_DFL)
		t->sig->flags &= ~SIGNAL_UNKILLABLE;
	t->signal.pending &= ~sigmask(sig);	/* this instance wins */
	unlock_task_sighand(t, flags);
	send_sig_info(sig, &info, t);
}

/* The lowest signal of *pending in allowed, taken with its siginfo. */
static int take_signal(sigset_t *pending, siginfo_t *slots, sigset_t allowed,
		       siginfo_t *info)
{
	sigset_t ready = *pending & allowed;
	int sig;

	if (!ready)
		return 0;
	sig = __builtin_ctzl(ready) + 1;
	*pending &= ~sigmask(sig);
	*info = slots[sig - 1];
	return sig;
}

/* The lowest pending signal of allowed, this thread's own before the
 * process's (Linux's dequeue_signal). siglock held. */
static int dequeue_signal(struct task_struct *t, sigset_t allowed,
			  siginfo_t *info)
{
	return take_signal(&t->signal.pending, t->signal.info, allowed,
			   info) ?:
	       take_signal(&t->sig->shared_pending, t->sig->shared_info,
			   allowed, info);
}

/*
 * Process signals that p no longer takes (which: it blocks them now, or
 * it is exiting) go to another thread that does (Linux's
 * retarget_shared_pending), so that one thread does not hold them back
 * from the others. siglock held.
 */
void retarget_shared_pending(struct task_struct *p, sigset_t which)
{
	sigset_t mask = p->sig->shared_pending & which;
	struct task_struct *t;

	if (!mask)
		return;
	for_each_thread(p, t)
		if (t != p && !(t->flags & PF_EXITING) &&
		    (mask & ~t->signal.blocked))
			signal_wake_up(t, false);
}

/* Linux's set_current_blocked: SIGKILL and SIGSTOP stay unblocked. */
static void set_current_blocked(sigset_t mask)
{
	struct task_struct *t = current;
	unsigned long flags;
	sigset_t newly;

	mask &= ~UNBLOCKABLE;
	lock_task_sighand(t, &flags);
	newly = mask & ~t->signal.blocked;
	t->signal.blocked = mask;
	retarget_shared_pending(t, newly);
	unlock_task_sighand(t, flags);
}
static void save_sigcontext(struct sigcontext *sc, const struct pt_regs *r)
{
	memset(sc, 0, sizeof(*sc));
	sc->r8 = r->r8, sc->r9 = r->r9, sc->r10 = r->r10, sc->r11 = r->r11;
	sc->r12 = r->r12, sc->r13 = r->r13, sc->r14 = r->r14;
	sc->r15 = r->r15, sc->rdi = r->rdi, sc->rsi = r->rsi;
	sc->rbp = r->rbp, sc->rbx = r->rbx, sc->rdx = r->rdx;
	sc->rax = r->rax, sc->rcx = r->rcx, sc->rsp = r->rsp;
	sc->rip = r->rip, sc->eflags = r->rflags, sc->cs = r->cs;
	sc->ss = r->ss;
	sc->trapno = r->vector < 32 ? r->vector : 0;
	sc->err = r->vector < 32 ? r->error_code : 0;
}

/* ---- the alternate signal stack (sigaltstack) ------------------------- */

static bool on_sig_stack(unsigned long sp)
{
	struct signal_state *s = &current->signal;

	return sp > s->sas_ss_sp && sp - s->sas_ss_sp <= s->sas_ss_size;
}

/* What sigaltstack reports, for user stack pointer sp. */
static void save_altstack(stack_t *st, unsigned long sp)
{
	struct signal_state *s = &current->signal;

	st->ss_sp = s->sas_ss_sp;
	st->ss_size = s->sas_ss_size;
	st->ss_flags = s->sas_ss_flags |
		       (on_sig_stack(sp) ? SS_ONSTACK
					 : s->sas_ss_size ? 0 : SS_DISABLE);
}

/* Install *st (sp: the user's stack pointer now); 0 or -errno. */
static int do_sigaltstack(const stack_t *st, unsigned long sp)
{
	struct signal_state *s = &current->signal;
	unsigned int mode = st->ss_flags & ~SS_AUTODISARM;

	if (on_sig_stack(sp))
		return -EPERM;	/* not while running on it */
	if (mode != 0 && mode != SS_DISABLE && mode != SS_ONSTACK)
		return -EINVAL;
	if (mode == SS_DISABLE) {
		s->sas_ss_sp = s->sas_ss_size = s->sas_ss_flags = 0;
		return 0;
	}
	if (st->ss_size < MINSIGSTKSZ)
		return -ENOMEM;
	s->sas_ss_sp = st->ss_sp;
	s->sas_ss_size = st->ss_size;
	s->sas_ss_flags = st->ss_flags & SS_AUTODISARM;
	return 0;
}

SYSCALL_DEFINE2(sigaltstack, const stack_t __user *, uss, stack_t __user *,
		uoss)
{
	unsigned long sp = task_pt_regs(current)->rsp;
	stack_t new, old;
	int err = 0;

	save_altstack(&old, sp);
	if (uss) {
		if (copy_from_user(&new, uss, sizeof(new)))
			return -EFAULT;
		err = do_sigaltstack(&new, sp);
	}
	if (!err && uoss && copy_to_user(uoss, &old, sizeof(old)))
		return -EFAULT;
	return err;
}

/*
 * Where the frame goes: below the interrupted code's red zone, or at the
 * top of the alternate stack for an SA_ONSTACK handler not already on it.
 * The frame records the alternate stack as it was (uc_stack); with
 * SS_AUTODISARM the stack is off until rt_sigreturn puts it back.
 */
static unsigned long sigframe_sp(const struct k_sigaction *ka, struct pt_regs *regs,
				 stack_t *uc_stack)
{
	struct signal_state *s = &current->signal;
	unsigned long sp = regs->rsp - 128;

	save_altstack(uc_stack, regs->rsp);
	if ((ka->flags & SA_ONSTACK) && s->sas_ss_size &&
	    !on_sig_stack(regs->rsp)) {
		sp = s->sas_ss_sp + s->sas_ss_size;
		if (s->sas_ss_flags & SS_AUTODISARM)
			s->sas_ss_sp = s->sas_ss_size = s->sas_ss_flags = 0;
	}
	return sp;
}

/* Build the frame and point the registers at the handler. */
static int setup_rt_frame(int sig, const struct k_sigaction *ka, siginfo_t *info,
			  struct pt_regs *regs)
{
	struct task_struct *t = current;
	unsigned long sp, fp, frame_addr;
	struct rt_sigframe frame;

	if (!(ka->flags & SA_RESTORER))
		return -EFAULT;	/* no way back from the handler */
	memset(&frame, 0, sizeof(frame));
	sp = sigframe_sp(ka, regs, &frame.uc.uc_stack);
	fp = (sp - sizeof(t->fpu)) & ~63UL;
	frame_addr = ((fp - sizeof(frame)) & ~15UL) - 8;
	frame.pretcode = (unsigned long)ka->restorer;
	save_sigcontext(&frame.uc.uc_mcontext, regs);
	frame.uc.uc_mcontext.fpstate = fp;
	frame.uc.uc_mcontext.oldmask = t->signal.blocked;
	frame.uc.uc_mcontext.cr2 = info->fault.addr;
	frame.uc.uc_sigmask = t->signal.restore_saved_mask ?
				      t->signal.saved_mask : t->signal.blocked;
	frame.info = *info;
	__asm__ volatile("fxsave %0" : "=m"(t->fpu));
	if (copy_to_user((void __user *)fp, &t->fpu, sizeof(t->fpu)) ||
	    copy_to_user((void __user *)frame_addr, &frame, sizeof(frame)))
		return -EFAULT;
	t->signal.restore_saved_mask = false;
	regs->rdi = sig;
	regs->rsi = frame_addr + offsetof(struct rt_sigframe, info);
	regs->rdx = frame_addr + offsetof(struct rt_sigframe, uc);
	regs->rax = 0;
	regs->rsp = frame_addr;
	regs->rip = (unsigned long)ka->handler;
	regs->rflags &= ~(1UL << 10 | 1UL << 8);	/* DF, TF */
	return 0;
}

/* A syscall interrupted by a signal: restart it, or fail it with EINTR. */
static void handle_restart(struct pt_regs *regs, const struct k_sigaction *ka)
{
	long ret = regs->rax;

	if (regs->vector != VECTOR_SYSCALL)
		return;
	if (ret == -ERESTARTNOINTR ||
	    ((ret == -ERESTARTSYS || ret == -ERESTARTNOHAND) && !ka) ||
	    (ret == -ERESTARTSYS && (ka->flags & SA_RESTART))) {
		regs->rax = regs->error_code;	/* the syscall number */
		regs->rip -= 2;	/* back onto the syscall instruction */
	} else if (ret == -ERESTARTSYS || ret == -ERESTARTNOHAND) {
		regs->rax = -EINTR;
	}
	regs->vector = 0;	/* decided: don't look at it again */
}

/* Undo a call's temporary mask (rt_sigsuspend, ppoll...) once no handler
 * will run under it. */
static void restore_saved_sigmask(void)
{
	struct signal_state *s = &current->signal;

	if (s->restore_saved_mask) {
		s->restore_saved_mask = false;
		set_current_blocked(s->saved_mask);
	}
}

static bool sig_kernel_coredump(int sig)
{
	return sig == SIGQUIT || sig == SIGILL || sig == SIGTRAP ||
	       sig == SIGABRT || sig == SIGFPE || sig == SIGSEGV ||
	       sig == SIGBUS || sig == SIGSYS || sig == SIGXCPU ||
	       sig == SIGXFSZ;
}

/*
 * Job control (Linux's do_signal_stop, simplified): the thread that takes
 * a stop signal (sig) stops the group: the others are asked to stop too
 * (stop_pending makes signal_pending true for them), the parent is told,
 * and wait4(WUNTRACED) reports (sig << 8) | 0x7f once. A thread asked to
 * stop comes here with sig 0. Each stays in TASK_STOPPED until SIGCONT
 * or SIGKILL (prepare_signal) clears SIGNAL_STOP_STOPPED. A stop that
 * arrives while SIGCONT is pending is no stop.
 */
static void do_signal_stop(int sig)
{
	struct task_struct *t = current, *other;
	struct signal_struct *s = t->sig;
	bool notify = false;
	unsigned long flags;

	lock_task_sighand(t, &flags);
	if (sig && !((s->shared_pending | t->signal.pending) &
		     sigmask(SIGCONT)) && !(s->flags & SIGNAL_GROUP_EXIT) &&
	    !(s->flags & SIGNAL_STOP_STOPPED)) {
		s->flags |= SIGNAL_STOP_STOPPED;
		s->stop_report = sig;
		s->cont_report = false;
		notify = true;
		for_each_thread(t, other) {
			if (other == t || (other->flags & PF_EXITING))
				continue;
			other->signal.stop_pending = true;
			signal_wake_up(other, false);
		}
	}
	t->signal.stop_pending = false;
	while ((s->flags & SIGNAL_STOP_STOPPED) && !fatal_signal_pending(t)) {
		t->state = TASK_STOPPED;
		unlock_task_sighand(t, flags);
		if (notify)
			notify_parent_cldstop(t->group_leader, CLD_STOPPED,
					      sig);
		notify = false;
		schedule();	/* off the run queue until prepare_signal */
		lock_task_sighand(t, &flags);
	}
	t->state = TASK_RUNNING;
	unlock_task_sighand(t, flags);
}

/* The file (and offset in it) that user address addr maps, as Linux's
 * "in libc.so.6[7f..+1c000]": where to look for the faulting code. Only
 * if mmap_lock is free at once, as Linux's print_vma_addr: a log line is
 * not worth a wait (or a deadlock, if we came here holding it). */
static void print_vma_addr(char *buf, size_t len, unsigned long addr)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	const char *name;

	buf[0] = 0;
	if (!mm || !mmap_read_trylock(mm))
		return;
	vma = find_vma(mm, addr);
	if (vma && vma->vm_start <= addr && vma->vm_file) {
		name = (const char *)vma->vm_file->f_dentry->d_name.name;
		snprintf(buf, len, " in %s+%#lx", name,
			 addr - vma->vm_start + (vma->vm_pgoff << PAGE_SHIFT));
	}
	mmap_read_unlock(mm);
}

/* A fatal SIGSEGV, SIGBUS, SIGILL...: the log line a student reads. */
static void show_signal_msg(int sig, siginfo_t *info, struct pt_regs *regs)
{
	struct task_struct *t = current;
	char where[80], addr[120] = "", in[80];

	print_vma_addr(where, sizeof(where), regs->rip);
	if (info && info->si_code > 0 && (sig == SIGSEGV || sig == SIGBUS ||
				       sig == SIGILL || sig == SIGFPE)) {
		print_vma_addr(in, sizeof(in), info->fault.addr);
		snprintf(addr, sizeof(addr), ", address %lx%s, si_code %d",
			 (unsigned long)info->fault.addr, in, info->si_code);
		/* From a page fault: what the CPU said (Linux's "error"). */
		if (regs->vector == X86_TRAP_PF)
			snprintf(addr + strlen(addr), sizeof(addr) - strlen(addr),
				 ", page fault error 0x%lx", regs->error_code);
	}
	pr_info("%s[%d]: killed by signal %d at ip %lx%s%s\n", t->comm,
		t->pid, sig, regs->rip, where, addr);
}

/*
 * Take the next signal this thread may have, with a copy of its action:
 * another thread may change the handler meanwhile. SA_RESETHAND takes
 * effect here, as in Linux's get_signal. 0: nothing to take.
 */
static int get_signal(struct k_sigaction *ka, siginfo_t *info)
{
	struct task_struct *t = current;
	struct k_sigaction *action;
	unsigned long flags;
	int sig;

	lock_task_sighand(t, &flags);
	sig = dequeue_signal(t, ~t->signal.blocked, info);
	if (sig) {
		action = &t->sighand->action[sig - 1];
		*ka = *action;
		if (ka->handler != SIG_IGN && ka->handler != SIG_DFL &&
		    (ka->flags & SA_RESETHAND))
			action->handler = SIG_DFL;
	}
	unlock_task_sighand(t, flags);
	return sig;
}

/* A handler's frame could not be written: SIGSEGV (Linux's force_sigsegv).
 * If SIGSEGV's own handler is the one that cannot be entered, delivering
 * it again would fail again, forever: back to the default, which kills. */
static void force_sigsegv(int sig)
{
	unsigned long flags;

	if (sig == SIGSEGV) {
		lock_task_sighand(current, &flags);
		current->sighand->action[SIGSEGV - 1].handler = SIG_DFL;
		unlock_task_sighand(current, flags);
	}
	force_sig_fault(SIGSEGV, SI_KERNEL, 0);
}

static void deliver(int sig, const struct k_sigaction *ka, siginfo_t *info,
		    struct pt_regs *regs)
{
	struct task_struct *t = current;
	sigset_t mask;

	/* No handler: a restarted call must not start under the mask it
	 * set for itself, which it would then save as the caller's. */
	if (ka->handler == SIG_IGN) {
		handle_restart(regs, NULL);
		restore_saved_sigmask();
		return;
	}
	if (ka->handler == SIG_DFL) {
		/* init: queued while blocked, the handler gone since. */
		if (sig_default_ignored(sig) ||
		    ((t->sig->flags & SIGNAL_UNKILLABLE) &&
		     !(sigmask(sig) & UNBLOCKABLE))) {
			handle_restart(regs, NULL);
			restore_saved_sigmask();
			return;
		}
		if (sigmask(sig) & STOP_SIGNALS) {
			handle_restart(regs, NULL);
			restore_saved_sigmask();
			do_signal_stop(sig);
			return;
		}
		if (sig_kernel_coredump(sig) && sig != SIGQUIT)
			show_signal_msg(sig, info, regs);
		do_group_exit(sig);	/* wait status: the signal, no core */
	}
	handle_restart(regs, ka);
	if (setup_rt_frame(sig, ka, info, regs)) {
		force_sigsegv(sig);
		return;
	}
	mask = t->signal.blocked | ka->mask;
	if (!(ka->flags & SA_NODEFER))
		mask |= sigmask(sig);
	set_current_blocked(mask);
}

static void do_signal(struct pt_regs *regs)
{
	struct k_sigaction ka = { 0 };
	siginfo_t info;
	int sig = get_signal(&ka, &info);

	if (sig) {
		deliver(sig, &ka, &info, regs);
		return;
	}
	if (current->signal.stop_pending) {
		do_signal_stop(0);	/* another thread stopped the group */
		return;
	}
	handle_restart(regs, NULL);	/* nothing to deliver: restart */
	restore_saved_sigmask();
}

/* Last stop before user mode: reschedule and deliver signals. */
void exit_to_user_mode(struct pt_regs *regs)
{
	for (;;) {
		local_irq_disable();
		if (need_resched()) {
			local_irq_enable();
			schedule();
			continue;
		}
		if (signal_pending(current)) {
			local_irq_enable();
			do_signal(regs);
			continue;
		}
		if (regs->vector == VECTOR_SYSCALL &&
		    IS_ERR_VALUE(regs->rax) && (long)regs->rax <= -ERESTARTSYS &&
		    (long)regs->rax >= -ERESTARTNOHAND) {
			handle_restart(regs, NULL);	/* no signal came */
			continue;
		}
		lockdep_sys_exit();
		return;	/* with interrupts off, into iretq */
	}
}

SYSCALL_DEFINE4(rt_sigaction, int, sig, const struct k_sigaction __user *, act,
		struct k_sigaction __user *, oact, size_t, sigsetsize)
{
	struct k_sigaction *ka, new, old;
	unsigned long flags;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (sig < 1 || sig > _NSIG)
		return -EINVAL;
	if (act && copy_from_user(&new, act, sizeof(new)))
		return -EFAULT;
	if (act && (sig == SIGKILL || sig == SIGSTOP))
		return -EINVAL;
	lock_task_sighand(current, &flags);
	ka = &current->sighand->action[sig - 1];
	old = *ka;
	if (act) {
		new.mask &= ~UNBLOCKABLE;
		*ka = new;
		/* Setting SIG_IGN discards a pending instance (POSIX), in
		 * every thread. */
		if (sig_ignored(current, sig))
			flush_group_signals(current, sigmask(sig));
	}
	unlock_task_sighand(current, flags);
	if (oact && copy_to_user(oact, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE4(rt_sigprocmask, int, how, const sigset_t __user *, set,
		sigset_t __user *, oset, size_t, sigsetsize)
{
	sigset_t new, old = current->signal.blocked;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (set) {
		if (copy_from_user(&new, set, sizeof(new)))
			return -EFAULT;
		if (how == SIG_BLOCK)
			new |= old;
		else if (how == SIG_UNBLOCK)
			new = old & ~new;
		else if (how != SIG_SETMASK)
			return -EINVAL;
		set_current_blocked(new);
	}
	if (oset && copy_to_user(oset, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

/* Blocked signals pending for this thread or for its process. */
SYSCALL_DEFINE2(rt_sigpending, sigset_t __user *, set, size_t, sigsetsize)
{
	struct task_struct *t = current;
	sigset_t p = (t->signal.pending | t->sig->shared_pending) &
		     t->signal.blocked;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	return copy_to_user(set, &p, sizeof(p)) ? -EFAULT : 0;
}

static void restore_sigcontext(struct pt_regs *r, const struct sigcontext *sc)
{
	r->r8 = sc->r8, r->r9 = sc->r9, r->r10 = sc->r10, r->r11 = sc->r11;
	r->r12 = sc->r12, r->r13 = sc->r13, r->r14 = sc->r14;
	r->r15 = sc->r15, r->rdi = sc->rdi, r->rsi = sc->rsi;
	r->rbp = sc->rbp, r->rbx = sc->rbx, r->rdx = sc->rdx;
	r->rax = sc->rax, r->rcx = sc->rcx, r->rsp = sc->rsp;
	r->rip = sc->rip;
	/* User may change only the arithmetic flags, DF, TF and AC. */
	r->rflags = (r->rflags & ~0x40dd5UL) | (sc->eflags & 0x40dd5UL);
	r->cs = __USER_CS;
	r->ss = __USER_DS;
	r->vector = 0;	/* not a syscall any more: no restart */
}

SYSCALL_DEFINE0(rt_sigreturn)
{
	struct pt_regs *regs = task_pt_regs(current);
	unsigned long frame_addr = regs->rsp - 8;	/* ret popped pretcode */
	struct rt_sigframe frame;
	struct fpu_state fpu;

	if (copy_from_user(&frame, (void __user *)frame_addr, sizeof(frame)) ||
	    copy_from_user(&fpu, (void __user *)frame.uc.uc_mcontext.fpstate,
			   sizeof(fpu))) {
		force_sig_fault(SIGSEGV, SI_KERNEL, 0);
		return 0;
	}
	/* Clear reserved MXCSR bits: fxrstor faults on them. */
	*(u32 *)&fpu.fxsave[24] &= 0xffff;
	fpu_load_current(&fpu);
	set_current_blocked(frame.uc.uc_sigmask);
	/* The alternate stack as the frame says (SS_AUTODISARM turned it off
	 * for the handler), unless the frame is on the one the handler set
	 * up meanwhile: that one stays, as on Linux. */
	do_sigaltstack(&frame.uc.uc_stack, frame_addr);
	restore_sigcontext(regs, &frame.uc.uc_mcontext);
	return regs->rax;
}

/*
 * ppoll, pselect6, epoll_pwait: block *umask (if given) for the call.
 * restore_saved_sigmask_unless() puts the old mask back, except when the
 * call was interrupted: then the signal is delivered first, under the
 * call's mask, and do_signal restores it (as rt_sigsuspend does).
 */
int set_user_sigmask(const sigset_t __user *umask, size_t sigsetsize)
{
	sigset_t mask;

	if (!umask)
		return 0;
	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&mask, umask, sizeof(mask)))
		return -EFAULT;
	current->signal.saved_mask = current->signal.blocked;
	current->signal.restore_saved_mask = true;
	set_current_blocked(mask);
	return 0;
}

void restore_saved_sigmask_unless(bool interrupted)
{
	if (!interrupted)
		restore_saved_sigmask();
}

/*
 * Sleep until a signal is pending. The state is set before the test: a
 * signal sent between the two (by the tick's SIGALRM, or by a task that
 * preempted us) then finds the task about to sleep and wakes it; tested
 * first, the wake-up was lost and the task slept through its signal.
 */
static void __sched sleep_until_signal(void)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (signal_pending(current))
			break;
		schedule();
	}
	current->state = TASK_RUNNING;
}

SYSCALL_DEFINE2(rt_sigsuspend, const sigset_t __user *, set, size_t, size)
{
	sigset_t mask;

	if (size != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&mask, set, sizeof(mask)))
		return -EFAULT;
	current->signal.saved_mask = current->signal.blocked;
	current->signal.restore_saved_mask = true;
	set_current_blocked(mask);
	sleep_until_signal();
	return -ERESTARTNOHAND;
}

SYSCALL_DEFINE0(pause)
{
	sleep_until_signal();
	return -ERESTARTNOHAND;
}

/*
 * Wait up to timeout ticks for a signal of these; another signal that
 * arrives (a handler will run) ends the wait too: the signal, -EINTR, or
 * -EAGAIN when the time ran out.
 */
/* Take the lowest pending signal of set, blocked or not. */
static int dequeue_signal_from(sigset_t set, siginfo_t *info)
{
	unsigned long flags;
	int sig;

	lock_task_sighand(current, &flags);
	sig = dequeue_signal(current, set, info);
	unlock_task_sighand(current, flags);
	return sig;
}

static int do_sigtimedwait(sigset_t these, siginfo_t *info, long timeout)
{
	struct signal_state *s = &current->signal;
	sigset_t saved = s->blocked;
	unsigned long flags;
	int sig = dequeue_signal_from(these, info);

	if (sig || !timeout)
		return sig ? sig : -EAGAIN;
	/* So that sending one wakes us; real_blocked keeps it from being
	 * dropped as ignored (SIGCHLD's default) meanwhile. */
	lock_task_sighand(current, &flags);
	s->real_blocked = saved;
	s->blocked &= ~these;
	unlock_task_sighand(current, flags);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (signal_pending(current) || !timeout)
			break;
		if (timeout == MAX_SCHEDULE_TIMEOUT)
			schedule();
		else
			timeout = schedule_timeout_interruptible(timeout);
	}
	current->state = TASK_RUNNING;
	lock_task_sighand(current, &flags);
	s->blocked = saved;
	s->real_blocked = 0;
	sig = dequeue_signal(current, these, info);
	unlock_task_sighand(current, flags);
	if (sig)
		return sig;
	return timeout ? -EINTR : -EAGAIN;
}

SYSCALL_DEFINE4(rt_sigtimedwait, const sigset_t __user *, uthese,
		siginfo_t __user *, uinfo,
		const struct __kernel_timespec __user *, uts,
		size_t, sigsetsize)
{
	long timeout = MAX_SCHEDULE_TIMEOUT;
	struct __kernel_timespec ts;
	siginfo_t info;
	sigset_t these;
	int sig;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&these, uthese, sizeof(these)))
		return -EFAULT;
	if (uts) {
		if (copy_from_user(&ts, uts, sizeof(ts)))
			return -EFAULT;
		if (!timespec_valid(&ts))
			return -EINVAL;
		timeout = timespec_to_jiffies(&ts);
	}
	sig = do_sigtimedwait(these & ~UNBLOCKABLE, &info, timeout);
	if (sig > 0 && uinfo && copy_to_user(uinfo, &info, sizeof(info)))
		return -EFAULT;
	return sig;
}

static int check_kill_permission(struct task_struct *t)
{
	const struct cred *c = &current->cred;

	if (c->euid == 0 || c->euid == t->cred.uid || c->uid == t->cred.uid)
		return 0;
	return -EPERM;
}

#define SI_TKILL (-6)

/* kill (group: to t's process) and tkill (to thread t alone). */
static int kill_one(struct task_struct *t, int sig, bool group)
{
	siginfo_t info = { .si_signo = sig,
			   .si_code = group ? SI_USER : SI_TKILL };
	int err = check_kill_permission(t);

	info.kill.pid = current->tgid;
	info.kill.uid = current->cred.uid;
	if (err || !sig)
		return err;
	return send_signal(sig, &info, t, group);
}

/*
 * A zombie is found as on Linux, until it is reaped: kill() of it, or of
 * a group whose members are all zombies, succeeds (send_signal drops the
 * signal). A shell may signal a job whose processes have exited. A pid
 * names a process (any of its thread ids does too, as on Linux); a
 * process group is walked by its processes, once each (their leaders).
 */
static int do_kill(pid_t pid, int sig)
{
	struct task_struct *t;
	int found = 0, err = 0;

	if (pid > 0) {
		t = find_task_by_pid(pid);
		return t ? kill_one(t, sig, true) : -ESRCH;
	}
	/* pid 0: my group; -1: everyone but init and me; < -1: group -pid */
	list_for_each_entry(t, &task_list, tasks) {
		if (t->pid <= 0 || !thread_group_leader(t))
			continue;
		if (pid == -1 ? (t->pid == 1 || t->sig == current->sig)
			      : t->pgid != (pid == 0 ? current->pgid : -pid))
			continue;
		found++;
		err = kill_one(t, sig, true) ?: err;
	}
	return found ? err : -ESRCH;
}

SYSCALL_DEFINE2(kill, pid_t, pid, int, sig)
{
	int err;

	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	lock_tasklist();	/* kill_one does not sleep */
	err = do_kill(pid, sig);
	unlock_tasklist();
	return err;
}

/* Signal thread tid (of process tgid, unless tgid is 0). */
static int kill_thread(pid_t tgid, pid_t tid, int sig)
{
	struct task_struct *t;
	int err = -ESRCH;

	lock_tasklist();	/* t stays while kill_one, which does not
				 * sleep, signals it */
	t = find_task_by_pid(tid);
	if (t && (!tgid || t->tgid == tgid))
		err = kill_one(t, sig, false);
	unlock_tasklist();
	return err;
}

SYSCALL_DEFINE2(tkill, pid_t, tid, int, sig)
{
	if (sig < 0 || sig > _NSIG || tid <= 0)
		return -EINVAL;
	return kill_thread(0, tid, sig);
}

SYSCALL_DEFINE3(tgkill, pid_t, tgid, pid_t, tid, int, sig)
{
	if (sig < 0 || sig > _NSIG || tid <= 0 || tgid <= 0)
		return -EINVAL;
	return kill_thread(tgid, tid, sig);
}


/*
 * Send sig with the caller's siginfo to process pid (to thread pid of
 * process tgid when tgid is given). Only the kernel, kill() and tkill()
 * may claim si_code >= 0 or SI_TKILL; a process may still send itself
 * those.
 */
static long do_rt_sigqueueinfo(pid_t tgid, pid_t pid, int sig,
			       siginfo_t __user *uinfo)
{
	struct task_struct *t;
	siginfo_t info;
	int err;

	if (copy_from_user(&info, uinfo, sizeof(info)))
		return -EFAULT;
	info.si_signo = sig;
	if ((info.si_code >= 0 || info.si_code == SI_TKILL) &&
	    pid != (tgid ? current->pid : current->tgid))
		return -EPERM;
	lock_tasklist();	/* t stays while it is signalled */
	t = pid > 0 ? find_task_by_pid(pid) : NULL;
	if (!t || (tgid && tgid != t->tgid))
		err = -ESRCH;
	else if (sig < 0 || sig > _NSIG)
		err = -EINVAL;
	else if (!(err = check_kill_permission(t)) && sig)
		err = send_signal(sig, &info, t, !tgid);
	unlock_tasklist();
	return err;
}

SYSCALL_DEFINE3(rt_sigqueueinfo, pid_t, pid, int, sig,
		siginfo_t __user *, uinfo)
{
	return do_rt_sigqueueinfo(0, pid, sig, uinfo);
}

SYSCALL_DEFINE4(rt_tgsigqueueinfo, pid_t, tgid, pid_t, pid, int, sig,
		siginfo_t __user *, uinfo)
{
	if (tgid <= 0 || pid <= 0)
		return -EINVAL;
	return do_rt_sigqueueinfo(tgid, pid, sig, uinfo);
}

