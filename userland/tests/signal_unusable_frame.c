/*
 * signal_unusable_frame: a handler the kernel cannot enter, because the
 * signal frame cannot be built (no SA_RESTORER to return through, or a
 * user stack that cannot be written), must end in SIGSEGV, as on Linux:
 * the process is killed, and never spins re-delivering the signal.
 * Each case runs in a child with an alarm as a guard: a child that hangs
 * dies of SIGALRM instead, and the check says so.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"

/* The kernel's struct sigaction for rt_sigaction (x86-64). */
struct kernel_sigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

static void handler(int sig)
{
	(void)sig;
}

/* Install handler for sig with the raw system call: no SA_RESTORER. */
static int no_restorer(int sig)
{
	struct kernel_sigaction ka = { .handler = handler };

	return syscall(SYS_rt_sigaction, sig, &ka, NULL, 8);
}

static volatile int *volatile nowhere = (int *)8;

static void fault(void)
{
	*nowhere = 1;
}

static void segv_handler_without_restorer(void)
{
	no_restorer(SIGSEGV);
	fault();
}

static void usr1_handler_without_restorer(void)
{
	no_restorer(SIGUSR1);
	raise(SIGUSR1);
}

/* A proper handler, but the stack pointer aims at unmapped memory when
 * the fault comes: the frame cannot be written. */
static void segv_handler_with_a_bad_stack(void)
{
	struct sigaction sa = { .sa_handler = handler };

	sigaction(SIGSEGV, &sa, NULL);
	__asm__ volatile("mov $0x1000, %%rsp\n\tmovl $1, 8" ::: "memory");
}

static void check(void (*fn)(void), const char *what)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		alarm(10);	/* a livelock ends here, visibly */
		fn();
		_exit(0);
	}
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		diag("%s: still running after 10 s: the kernel kept "
		     "re-delivering the signal", what);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
	   "%s: killed by SIGSEGV (status %#x)", what, status);
}

int main(void)
{
	check(segv_handler_without_restorer,
	      "a SIGSEGV handler without SA_RESTORER");
	check(usr1_handler_without_restorer,
	      "a SIGUSR1 handler without SA_RESTORER");
	check(segv_handler_with_a_bad_stack,
	      "a SIGSEGV handler and an unwritable stack");
	return done_testing();
}
