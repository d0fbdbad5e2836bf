/*
 * threads_clone: the raw clone() system call, one flag at a time, as
 * Linux defines it: what each sharing flag shares (CLONE_VM, CLONE_FILES,
 * CLONE_FS, CLONE_SIGHAND, CLONE_THREAD) and what it does not without
 * it; the tid words (CLONE_PARENT_SETTID, CLONE_CHILD_SETTID,
 * CLONE_CHILD_CLEARTID, which a futex waiter hears), CLONE_SETTLS, and
 * the combinations Linux refuses with EINVAL.
 *
 * The children run on stacks of their own and make system calls with
 * inline assembly only: a child that shares no TLS must not touch errno
 * or anything else of the C library's per-thread state.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"

#define ARCH_GET_FS 0x1003
#define FUTEX_WAIT 0
#define STACK_SIZE (64 * 1024)

/* A system call of up to three arguments, and 8 as the fourth (the
 * sigset size rt_sigaction wants; the others ignore it). */
static long rsys(long n, long a, long b, long c)
{
	register long r10 __asm__("r10") = 8;
	long ret;

	__asm__ volatile("syscall" : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
}

/*
 * clone with a fresh stack: the child runs fn(arg) and exits with its
 * value (SYS_exit, this thread only); the parent gets the child's tid or
 * -errno. No C library call in between, so it works for every flag.
 */
static long raw_clone(unsigned long flags, int *ptid, int *ctid,
		      unsigned long tls, long (*fn)(void *), void *arg)
{
	static char stacks[8][STACK_SIZE] __attribute__((aligned(16)));
	static int next;
	char *top = stacks[next++ % 8] + STACK_SIZE;
	register long r10 __asm__("r10") = (long)ctid;
	register long r8 __asm__("r8") = (long)tls;
	register long r12 __asm__("r12") = (long)fn;
	register long r13 __asm__("r13") = (long)arg;
	long ret;

	__asm__ volatile("syscall\n\t"
			 "testq %%rax, %%rax\n\t"
			 "jnz 1f\n\t"
			 "movq %%r13, %%rdi\n\t"
			 "call *%%r12\n\t"
			 "movq %%rax, %%rdi\n\t"
			 "movl $60, %%eax\n\t"	/* SYS_exit */
			 "syscall\n\t"
			 "hlt\n"
			 "1:"
			 : "=a"(ret)
			 : "a"(SYS_clone), "D"(flags), "S"(top), "d"(ptid),
			   "r"(r10), "r"(r8), "r"(r12), "r"(r13)
			 : "rcx", "r11", "memory");
	return ret;
}

/* ---- what the children do (raw system calls only) ---------------------- */

static volatile long seen;	/* written by a CLONE_VM child */

static long store_42(void *arg)
{
	(void)arg;
	seen = 42;
	return 0;
}

static long open_a_file(void *arg)
{
	return rsys(SYS_open, (long)arg, O_RDONLY, 0);	/* the fd */
}

static long set_umask(void *arg)
{
	(void)arg;
	rsys(SYS_umask, 0077, 0, 0);
	return 0;
}

static void on_usr1(int sig)
{
	(void)sig;
}

static long set_handler(void *arg)
{
	struct {
		void *handler;
		unsigned long flags;
		void *restorer;
		unsigned long mask;
	} sa = { arg, 0x04000000 /* SA_RESTORER */, (void *)1, 0 };

	return rsys(SYS_rt_sigaction, SIGUSR2, (long)&sa, 0) ? 1 : 0;
	/* (sa_restorer is never used: SIGUSR2 is never sent) */
}

static volatile long ids[4];	/* getpid, gettid, getppid, *ctid */
static volatile int *ctid_word;

static long report_ids(void *arg)
{
	(void)arg;
	ids[0] = rsys(SYS_getpid, 0, 0, 0);
	ids[1] = rsys(SYS_gettid, 0, 0, 0);
	ids[2] = rsys(SYS_getppid, 0, 0, 0);
	ids[3] = ctid_word ? *ctid_word : -1;
	return 0;
}

static long report_fs_base(void *arg)
{
	unsigned long base = 0;

	(void)arg;
	rsys(SYS_arch_prctl, ARCH_GET_FS, (long)&base, 0);
	seen = (long)base;
	return 0;
}

/* ---- the parent's side ---------------------------------------------------- */

/* A CLONE_THREAD child cannot be waited for: wait on its tid word. */
static int wait_tid_clear(volatile int *word)
{
	for (int i = 0; i < 1000 && *word; i++) {
		int v = *word;
		struct timespec ts = { 0, 10 * 1000000 };

		if (v)
			syscall(SYS_futex, word, FUTEX_WAIT, v, &ts, NULL, 0);
	}
	return *word;
}

static int child_status(pid_t pid)
{
	int st = -1;

	if (pid < 0 || waitpid(pid, &st, __WALL) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void vm_flag(void)
{
	seen = 0;
	child_status(raw_clone(SIGCHLD, NULL, NULL, 0, store_42, NULL));
	is_long(seen, 0, "without CLONE_VM the child's store stays in its copy");
	child_status(raw_clone(CLONE_VM | SIGCHLD, NULL, NULL, 0, store_42,
			       NULL));
	is_long(seen, 42, "with CLONE_VM the parent sees the child's store");
}

static void files_flag(void)
{
	int before = dup(0), fd;

	close(before);
	fd = child_status(raw_clone(CLONE_VM | SIGCHLD, NULL, NULL, 0,
				    open_a_file, "/"));
	is_int(fcntl(fd, F_GETFD), -1,
	       "without CLONE_FILES the child's new fd is not ours");
	fd = child_status(raw_clone(CLONE_VM | CLONE_FILES | SIGCHLD, NULL,
				    NULL, 0, open_a_file, "/"));
	ok(fd >= 0 && fcntl(fd, F_GETFD) >= 0,
	   "with CLONE_FILES the child's open gives us fd %d", fd);
	if (fd >= 0)
		close(fd);
}

static void fs_flag(void)
{
	mode_t old = umask(022);

	child_status(raw_clone(CLONE_VM | SIGCHLD, NULL, NULL, 0, set_umask,
			       NULL));
	is_int(umask(022), 022, "without CLONE_FS the child's umask is its own");
	child_status(raw_clone(CLONE_VM | CLONE_FS | SIGCHLD, NULL, NULL, 0,
			       set_umask, NULL));
	is_int(umask(old), 0077, "with CLONE_FS the child's umask is ours");
}

static void sighand_flag(void)
{
	struct sigaction sa;

	signal(SIGUSR2, SIG_DFL);
	child_status(raw_clone(CLONE_VM | SIGCHLD, NULL, NULL, 0, set_handler,
			       (void *)on_usr1));
	sigaction(SIGUSR2, NULL, &sa);
	ok(sa.sa_handler == SIG_DFL,
	   "without CLONE_SIGHAND the child's handler is its own");
	child_status(raw_clone(CLONE_VM | CLONE_SIGHAND | SIGCHLD, NULL, NULL,
			       0, set_handler, (void *)on_usr1));
	sigaction(SIGUSR2, NULL, &sa);
	ok(sa.sa_handler == on_usr1,
	   "with CLONE_SIGHAND the child's sigaction is ours");
	signal(SIGUSR2, SIG_DFL);
}

static void thread_flag(void)
{
	static volatile int ctid = -1;
	int ptid = 0;
	long tid;

	ctid_word = &ctid;
	tid = raw_clone(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
				CLONE_THREAD | CLONE_SYSVSEM |
				CLONE_PARENT_SETTID | CLONE_CHILD_SETTID |
				CLONE_CHILD_CLEARTID,
			&ptid, (int *)&ctid, 0, report_ids, NULL);
	ok(tid > 0, "clone(CLONE_THREAD...) made a thread");
	is_int(wait_tid_clear(&ctid), 0,
	       "CLONE_CHILD_CLEARTID: 0 stored and the futex waiter woken at exit");
	is_long(ptid, tid, "CLONE_PARENT_SETTID stored the tid in the parent");
	is_long(ids[3], tid,
		"CLONE_CHILD_SETTID stored the tid before the thread ran");
	is_long(ids[0], getpid(), "a thread's getpid() is the process's");
	is_long(ids[1], tid, "a thread's gettid() is its own");
	ok(ids[1] != getpid(), "and differs from the leader's");
	is_long(ids[2], getppid(), "a thread's parent is the process's");
	is_errno(waitpid(tid, NULL, WNOHANG), ECHILD,
		 "a thread is nobody's child to wait for");
	ctid_word = NULL;
}

static void settls_flag(void)
{
	static volatile int ctid = -1;
	unsigned long tls = 0x12345000;

	seen = 0;
	raw_clone(CLONE_VM | CLONE_SIGHAND | CLONE_THREAD | CLONE_SETTLS |
			  CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID,
		  NULL, (int *)&ctid, tls, report_fs_base, NULL);
	wait_tid_clear(&ctid);
	is_long(seen, (long)tls, "CLONE_SETTLS set the new thread's fs base");
}

static void invalid_flags(void)
{
	is_errno(syscall(SYS_clone, CLONE_THREAD | CLONE_VM | SIGCHLD, 0, 0, 0,
			 0),
		 EINVAL, "CLONE_THREAD without CLONE_SIGHAND: EINVAL");
	is_errno(syscall(SYS_clone, CLONE_SIGHAND | SIGCHLD, 0, 0, 0, 0),
		 EINVAL, "CLONE_SIGHAND without CLONE_VM: EINVAL");
	is_errno(syscall(SYS_clone, CLONE_SIGHAND | CLONE_THREAD | SIGCHLD, 0,
			 0, 0, 0),
		 EINVAL, "CLONE_THREAD|CLONE_SIGHAND without CLONE_VM: EINVAL");
	is_errno(syscall(SYS_clone, CLONE_NEWNS | CLONE_FS | SIGCHLD, 0, 0, 0,
			 0),
		 EINVAL, "CLONE_NEWNS with CLONE_FS: EINVAL");
}

int main(void)
{
	alarm(30);
	plan(22);
	vm_flag();
	files_flag();
	fs_flag();
	sighand_flag();
	thread_flag();
	settls_flag();
	invalid_flags();
	return done_testing();
}
