/*
 * Signals (kernel/signal.c): Linux numbering and semantics, one pending
 * instance per signal (no real-time queueing).
 *
 * A signal is pending for one thread (tkill, tgkill, a fault: struct
 * signal_state's pending) or for its whole thread group (kill, SIGCHLD:
 * the shared set in struct signal_struct, <kernel/sched.h>), which any
 * thread that does not block it takes. Handlers live in a sighand_struct
 * that clone(CLONE_SIGHAND) shares; its siglock guards the handlers, every
 * pending set and blocked mask of the tasks using it, and their thread
 * group's signal_struct (as Linux's sighand->siglock does).
 */
#ifndef _KERNEL_SIGNAL_H
#define _KERNEL_SIGNAL_H

#include <kernel/types.h>
#include <kernel/spinlock.h>

#define _NSIG 64
#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGBUS 7
#define SIGFPE 8
#define SIGKILL 9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGSTKFLT 16
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19
#define SIGTSTP 20
#define SIGTTIN 21
#define SIGTTOU 22
#define SIGURG 23
#define SIGXCPU 24
#define SIGXFSZ 25
#define SIGVTALRM 26
#define SIGPROF 27
#define SIGWINCH 28
#define SIGIO 29
#define SIGPWR 30
#define SIGSYS 31

typedef u64 sigset_t;	/* bit (sig - 1) */

#define sigmask(sig) (1UL << ((sig) - 1))

#define SA_NOCLDSTOP 0x00000001
#define SA_NOCLDWAIT 0x00000002
#define SA_SIGINFO 0x00000004
#define SA_ONSTACK 0x08000000
#define SA_RESTART 0x10000000
#define SA_NODEFER 0x40000000
#define SA_RESETHAND 0x80000000
#define SA_RESTORER 0x04000000

#define SIG_DFL ((void *)0)
#define SIG_IGN ((void *)1)

#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

/* si_code values */
#define SI_USER 0
#define SI_KERNEL 0x80
#define SEGV_MAPERR 1
#define SEGV_ACCERR 2
#define BUS_ADRALN 1
#define BUS_ADRERR 2
#define FPE_INTDIV 1
#define ILL_ILLOPN 2
#define CLD_EXITED 1
#define CLD_KILLED 2
#define CLD_STOPPED 5
#define CLD_CONTINUED 6
#define CLD_DUMPED 3

/* The kernel's copy of a user's struct sigaction (Linux's layout). */
struct k_sigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	sigset_t mask;
};

/* siginfo_t as user space sees it: 128 bytes. */
typedef struct {
	int si_signo, si_errno, si_code, _pad0;
	union {
		struct {	/* kill */
			int pid;
			unsigned int uid;
		} kill;
		struct {	/* SIGSEGV, SIGBUS, SIGILL, SIGFPE */
			unsigned long addr;
		} fault;
		struct {	/* SIGCHLD */
			int pid;
			unsigned int uid;
			int status;
		} chld;
		char _pad[112];
	};
} siginfo_t;

/* The handlers, shared by clone(CLONE_SIGHAND) (every thread of a
 * process, and a CLONE_VM|CLONE_SIGHAND child). */
struct sighand_struct {
	int count;	/* tasks using it (atomic) */
	spinlock_t siglock;	/* taken with interrupts off: the tick and
				 * the tty send signals */
	struct k_sigaction action[_NSIG];
};

/* One thread's signal state; siglock guards blocked and pending. */
struct signal_state {
	sigset_t blocked, pending;	/* pending: for this thread only */
	siginfo_t info[_NSIG];	/* the pending instance of each signal */
	sigset_t saved_mask;	/* rt_sigsuspend restores it */
	/* The mask before rt_sigtimedwait unblocked its set: a signal blocked
	 * here is never "ignored" at sending (Linux's real_blocked). */
	sigset_t real_blocked;
	bool restore_saved_mask;
	/* A group stop (SIGSTOP...) asks this thread to stop too. */
	bool stop_pending;
	/* sigaltstack: where handlers with SA_ONSTACK run (size 0: none). */
	unsigned long sas_ss_sp;
	size_t sas_ss_size;
	unsigned int sas_ss_flags;	/* SS_AUTODISARM */
};

/* sigaltstack's stack_t, and the uc_stack of a signal frame. */
typedef struct {
	unsigned long ss_sp;
	int ss_flags;
	size_t ss_size;
} stack_t;
#define SS_ONSTACK 1
#define SS_DISABLE 2
#define SS_AUTODISARM (1U << 31)
#define MINSIGSTKSZ 2048

struct task_struct;

/* Queue sig for thread t alone (tkill); info may be NULL (SI_KERNEL from
 * the kernel). Wakes t if it sleeps interruptibly. Returns 0 or -EINVAL. */
int send_sig_info(int sig, const siginfo_t *info, struct task_struct *t);
/* Queue sig for t's whole process (kill, SIGCHLD): one thread that does
 * not block it is woken to take it; a fatal one kills every thread. */
int group_send_sig_info(int sig, const siginfo_t *info, struct task_struct *t);
/* The siglock of t's handlers, with interrupts off; NULL (nothing
 * locked) once t has been released. */
struct sighand_struct *lock_task_sighand(struct task_struct *t,
					 unsigned long *flags);
void unlock_task_sighand(struct task_struct *t, unsigned long flags);
/* A fault in user mode: deliver sig even if blocked or ignored (it would
 * fault again), as Linux's force_sig_fault. */
void force_sig_fault(int sig, int code, unsigned long addr);
bool signal_pending(struct task_struct *t);
/* SIGKILL pending for t, or its group exiting: a wait should end. */
bool fatal_signal_pending(struct task_struct *t);
/* ppoll, pselect6, epoll_pwait: use the user's mask (NULL: keep ours)
 * for this call; 0, -EINVAL or -EFAULT. Then restore it unless the call
 * was interrupted (the handler runs under it; do_signal restores). */
int set_user_sigmask(const sigset_t *umask, size_t sigsetsize);
void restore_saved_sigmask_unless(bool interrupted);

#endif
