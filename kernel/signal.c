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

void do_group_exit_signal(int sig) __attribute__((noreturn));

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

bool signal_pending(struct task_struct *t)
{
	return t->signal.pending & ~t->signal.blocked;
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
 */
static bool sig_ignored(struct task_struct *t, int sig)
{
	void *h = t->signal.action[sig - 1].handler;

	if (t->signal.unkillable && (sigmask(sig) & UNBLOCKABLE))
		return true;
	if ((t->signal.blocked | t->signal.real_blocked) & sigmask(sig))
		return false;
	if (t->signal.unkillable && h == SIG_DFL)
		return true;
	return h == SIG_IGN || (h == SIG_DFL && sig_default_ignored(sig));
}

#define STOP_SIGNALS \
	(sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) | \
	 sigmask(SIGTTOU))

/* The parent hears of a stop or a continue (SIGCHLD, unless it asked not
 * to with SA_NOCLDSTOP) and its wait4 looks again. */
static void notify_parent_cldstop(struct task_struct *t, int why, int sig)
{
	struct task_struct *parent = t->parent;
	siginfo_t info = { .si_signo = SIGCHLD, .si_code = why };

	if (!parent)
		return;
	info.chld.pid = t->pid;
	info.chld.uid = t->cred.uid;
	info.chld.status = sig;
	if (!(parent->signal.action[SIGCHLD - 1].flags & SA_NOCLDSTOP))
		send_sig_info(SIGCHLD, &info, parent);
	wake_up(&parent->wait_chldexit);
}

/*
 * What sending sig does before it is queued, whatever t's action for it
 * (Linux's prepare_signal): a stop signal cancels a pending SIGCONT;
 * SIGCONT cancels pending stops and resumes a stopped t, even when it
 * ignores SIGCONT; SIGKILL gets a stopped t running so that it can die.
 */
static void prepare_signal(int sig, struct task_struct *t)
{
	if (sigmask(sig) & STOP_SIGNALS) {
		t->signal.pending &= ~sigmask(SIGCONT);
		return;
	}
	if (sig != SIGCONT && sig != SIGKILL)
		return;
	if (sig == SIGCONT)
		t->signal.pending &= ~STOP_SIGNALS;
	if (t->state != TASK_STOPPED)
		return;
	t->stop_report = 0;
	if (sig == SIGCONT) {
		t->cont_report = true;
		notify_parent_cldstop(t, CLD_CONTINUED, SIGCONT);
	}
	t->state = TASK_INTERRUPTIBLE;	/* what wake_up_process wakes */
	wake_up_process(t);
}

int send_sig_info(int sig, const siginfo_t *info, struct task_struct *t)
{
	siginfo_t *slot;

	if (sig < 1 || sig > _NSIG)
		return -EINVAL;
	if (!t->exit_state)
		prepare_signal(sig, t);
	if (t->exit_state || sig_ignored(t, sig))
		return 0;
	if ((t->flags & PF_KTHREAD) && !t->mm)
		return 0;	/* kernel threads take no signals */
	slot = &t->signal.info[sig - 1];
	if (!(t->signal.pending & sigmask(sig))) {
		if (info) {
			*slot = *info;
		} else {
			memset(slot, 0, sizeof(*slot));
			slot->si_signo = sig;
			slot->si_code = SI_KERNEL;
		}
		t->signal.pending |= sigmask(sig);
	}
	if (signal_pending(t) && t->state == TASK_INTERRUPTIBLE)
		wake_up_process(t);
	return 0;
}

void force_sig_fault(int sig, int code, unsigned long addr)
{
	struct task_struct *t = current;
	struct k_sigaction *ka = &t->signal.action[sig - 1];
	siginfo_t info = { .si_signo = sig, .si_code = code };

	info.fault.addr = addr;
	/* Blocked or ignored, the fault would only recur: take it anyway. */
	if ((t->signal.blocked & sigmask(sig)) || ka->handler == SIG_IGN) {
		t->signal.blocked &= ~sigmask(sig);
		ka->handler = SIG_DFL;
	}
	/* Even init dies of a fault it has no handler for (then panics). */
	if (ka->handler == SIG_DFL)
		t->signal.unkillable = false;
	t->signal.pending &= ~sigmask(sig);	/* this instance wins */
	send_sig_info(sig, &info, t);
}

static int dequeue_signal(struct task_struct *t, siginfo_t *info)
{
	sigset_t ready = t->signal.pending & ~t->signal.blocked;
	int sig;

	if (!ready)
		return 0;
	sig = __builtin_ctzl(ready) + 1;
	t->signal.pending &= ~sigmask(sig);
	*info = t->signal.info[sig - 1];
	return sig;
}

/* Take the lowest pending signal of set, blocked or not (sigtimedwait). */
static int dequeue_signal_from(struct task_struct *t, sigset_t set,
			       siginfo_t *info)
{
	sigset_t ready = t->signal.pending & set;
	int sig;

	if (!ready)
		return 0;
	sig = __builtin_ctzl(ready) + 1;
	t->signal.pending &= ~sigmask(sig);
	*info = t->signal.info[sig - 1];
	return sig;
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
static unsigned long sigframe_sp(struct k_sigaction *ka, struct pt_regs *regs,
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
static int setup_rt_frame(int sig, struct k_sigaction *ka, siginfo_t *info,
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
static void handle_restart(struct pt_regs *regs, struct k_sigaction *ka)
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
		s->blocked = s->saved_mask;
		s->restore_saved_mask = false;
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
 * Stop until SIGCONT or SIGKILL (prepare_signal wakes us): the parent is
 * told, and wait4(WUNTRACED) reports (sig << 8) | 0x7f once. A stop that
 * arrives while SIGCONT is pending is no stop. One thread per process,
 * so there is no group stop to coordinate (Linux's do_signal_stop).
 */
static void do_signal_stop(int sig)
{
	struct task_struct *t = current;

	/* The test, the stop and the report as one step for other tasks
	 * (no preemption; SMP will need a signal lock): a SIGCONT sent
	 * before it is seen here, one sent after finds the task stopped
	 * and wakes it (prepare_signal). */
	preempt_disable();
	if (t->signal.pending & sigmask(SIGCONT)) {
		preempt_enable();
		return;
	}
	t->stop_report = sig;
	t->cont_report = false;
	t->state = TASK_STOPPED;
	notify_parent_cldstop(t, CLD_STOPPED, sig);
	preempt_enable_no_resched();
	schedule();	/* off the run queue until prepare_signal */
}

/* The file (and offset in it) that user address addr maps, as Linux's
 * "in libc.so.6[7f..+1c000]": where to look for the faulting code. */
static void print_vma_addr(char *buf, size_t len, unsigned long addr)
{
	struct vm_area_struct *vma = current->mm ? find_vma(current->mm, addr)
						 : NULL;
	const char *name;

	buf[0] = 0;
	if (!vma || vma->vm_start > addr || !vma->vm_file)
		return;
	name = (const char *)vma->vm_file->f_dentry->d_name.name;
	snprintf(buf, len, " in %s+%#lx", name,
		 addr - vma->vm_start + (vma->vm_pgoff << PAGE_SHIFT));
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

static void deliver(int sig, siginfo_t *info, struct pt_regs *regs)
{
	struct task_struct *t = current;
	struct k_sigaction *ka = &t->signal.action[sig - 1];

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
		    (t->signal.unkillable && !(sigmask(sig) & UNBLOCKABLE))) {
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
		do_exit(sig);	/* wait status: the signal, no core */
	}
	handle_restart(regs, ka);
	if (setup_rt_frame(sig, ka, info, regs)) {
		/*
		 * No frame, so the handler cannot run (Linux's
		 * force_sigsegv). SIGSEGV is the news; if SIGSEGV's own
		 * handler is the one that cannot be entered, delivering it
		 * again would fail again, forever: back to the default,
		 * which kills.
		 */
		if (sig == SIGSEGV)
			ka->handler = SIG_DFL;
		force_sig_fault(SIGSEGV, SI_KERNEL, 0);
		return;
	}
	t->signal.blocked |= ka->mask;
	if (!(ka->flags & SA_NODEFER))
		t->signal.blocked |= sigmask(sig);
	t->signal.blocked &= ~UNBLOCKABLE;
	if (ka->flags & SA_RESETHAND)
		ka->handler = SIG_DFL;
}

static void do_signal(struct pt_regs *regs)
{
	siginfo_t info;
	int sig = dequeue_signal(current, &info);

	if (sig) {
		deliver(sig, &info, regs);
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
	struct k_sigaction *ka, new;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (sig < 1 || sig > _NSIG)
		return -EINVAL;
	ka = &current->signal.action[sig - 1];
	if (act && copy_from_user(&new, act, sizeof(new)))
		return -EFAULT;
	if (act && (sig == SIGKILL || sig == SIGSTOP))
		return -EINVAL;
	if (oact && copy_to_user(oact, ka, sizeof(*ka)))
		return -EFAULT;
	if (act) {
		new.mask &= ~UNBLOCKABLE;
		*ka = new;
		/* Setting SIG_IGN discards a pending instance (POSIX). */
		if (sig_ignored(current, sig))
			current->signal.pending &= ~sigmask(sig);
	}
	return 0;
}

SYSCALL_DEFINE4(rt_sigprocmask, int, how, const sigset_t __user *, set,
		sigset_t __user *, oset, size_t, sigsetsize)
{
	sigset_t *blocked = &current->signal.blocked, new, old = *blocked;

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
		*blocked = new & ~UNBLOCKABLE;
	}
	if (oset && copy_to_user(oset, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE2(rt_sigpending, sigset_t __user *, set, size_t, sigsetsize)
{
	sigset_t p = current->signal.pending & current->signal.blocked;

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
	struct task_struct *t = current;
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
	t->signal.blocked = frame.uc.uc_sigmask & ~UNBLOCKABLE;
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
	current->signal.blocked = mask & ~UNBLOCKABLE;
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
static void sleep_until_signal(void)
{
	for (;;) {
		current->state = TASK_INTERRUPTIBLE;
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
	current->signal.blocked = mask & ~UNBLOCKABLE;
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
static int do_sigtimedwait(sigset_t these, siginfo_t *info, long timeout)
{
	struct signal_state *s = &current->signal;
	sigset_t saved = s->blocked;
	int sig = dequeue_signal_from(current, these, info);

	if (sig || !timeout)
		return sig ? sig : -EAGAIN;
	/* So that sending one wakes us; real_blocked keeps it from being
	 * dropped as ignored (SIGCHLD's default) meanwhile. */
	s->real_blocked = saved;
	s->blocked &= ~these;
	for (;;) {
		current->state = TASK_INTERRUPTIBLE;
		if (signal_pending(current) || !timeout)
			break;
		if (timeout == MAX_SCHEDULE_TIMEOUT)
			schedule();
		else
			timeout = schedule_timeout_interruptible(timeout);
	}
	current->state = TASK_RUNNING;
	s->blocked = saved;
	s->real_blocked = 0;
	sig = dequeue_signal_from(current, these, info);
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

static int kill_one(struct task_struct *t, int sig)
{
	siginfo_t info = { .si_signo = sig, .si_code = SI_USER };
	int err = check_kill_permission(t);

	info.kill.pid = current->pid;
	info.kill.uid = current->cred.uid;
	if (err || !sig)
		return err;
	return send_sig_info(sig, &info, t);
}

/*
 * A zombie is found as on Linux, until it is reaped: kill() of it, or of
 * a group whose members are all zombies, succeeds (send_sig_info drops
 * the signal). A shell may signal a job whose processes have exited.
 */
static int do_kill(pid_t pid, int sig)
{
	struct task_struct *t;
	int found = 0, err = 0;

	if (pid > 0) {
		t = find_task_by_pid(pid);
		return t ? kill_one(t, sig) : -ESRCH;
	}
	/* pid 0: my group; -1: everyone but init and me; < -1: group -pid */
	list_for_each_entry(t, &task_list, tasks) {
		if (t->pid <= 0)
			continue;
		if (pid == -1 ? (t->pid == 1 || t == current)
			      : t->pgid != (pid == 0 ? current->pgid : -pid))
			continue;
		found++;
		err = kill_one(t, sig) ?: err;
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

SYSCALL_DEFINE2(tkill, pid_t, tid, int, sig)
{
	struct task_struct *t = find_task_by_pid(tid);

	if (sig < 0 || sig > _NSIG || tid <= 0)
		return -EINVAL;
	return t ? kill_one(t, sig) : -ESRCH;
}

SYSCALL_DEFINE3(tgkill, pid_t, tgid, pid_t, tid, int, sig)
{
	struct task_struct *t = find_task_by_pid(tid);

	if (sig < 0 || sig > _NSIG || tid <= 0 || tgid <= 0)
		return -EINVAL;
	if (!t || tgid != tid)
		return -ESRCH;
	return kill_one(t, sig);
}

#define SI_TKILL (-6)

/*
 * Send sig with the caller's siginfo to process pid (tid when tgid is
 * given). Only the kernel, kill() and tkill() may claim si_code >= 0 or
 * SI_TKILL; a process may still send itself those.
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
	    pid != current->pid)
		return -EPERM;
	t = pid > 0 ? find_task_by_pid(pid) : NULL;
	if (!t || (tgid && tgid != pid))
		return -ESRCH;
	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	err = check_kill_permission(t);
	if (err || !sig)
		return err;
	return send_sig_info(sig, &info, t);
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

