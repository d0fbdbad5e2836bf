/*
 * signal_altstack: sigaltstack(2) and SA_ONSTACK, as on Linux.
 *
 * The argument checks (EINVAL, ENOMEM, EFAULT); a handler with
 * SA_ONSTACK runs on the alternate stack and sees SS_ONSTACK there (and
 * EPERM when it tries to change it), one without runs on the normal
 * stack; a stack overflow's SIGSEGV is caught on the alternate stack;
 * SS_AUTODISARM turns the stack off inside the handler and back on after;
 * fork inherits the stack, exec drops it.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "tap.h"

#define ALT_SIZE (64 * 1024)

static char *alt;
static volatile uintptr_t handler_sp;
static volatile int handler_flags, handler_eperm, try_to_set = 1;
static sigjmp_buf out_of_overflow;

static int on_alt(uintptr_t sp)
{
	return sp > (uintptr_t)alt && sp <= (uintptr_t)alt + ALT_SIZE;
}

static void probe(int sig)
{
	stack_t now, again = { .ss_sp = alt, .ss_size = ALT_SIZE };
	char here;

	(void)sig;
	handler_sp = (uintptr_t)&here;
	sigaltstack(NULL, &now);
	handler_flags = now.ss_flags;
	if (try_to_set)
		handler_eperm = sigaltstack(&again, NULL) < 0 && errno == EPERM;
}

static void on_segv(int sig)
{
	char here;

	(void)sig;
	handler_sp = (uintptr_t)&here;
	siglongjmp(out_of_overflow, 1);
}

/* Deeper until the stack runs out (depth bounds it only for the
 * compiler, which rejects a recursion with no way out). */
static int __attribute__((noinline)) recurse(volatile char *prev, long depth)
{
	volatile char big[4096];

	big[0] = prev ? prev[0] + 1 : 0;
	if (depth == 0)
		return big[0];
	return recurse(big, depth - 1) + big[100];
}

static void handle(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa = { .sa_handler = fn, .sa_flags = flags };

	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

/* The system call itself: musl's wrapper checks ENOMEM and SS_ONSTACK
 * in user space, and reads the stack_t before the kernel can say
 * EFAULT. */
static long sys_sigaltstack(const stack_t *st, stack_t *old)
{
	return syscall(SYS_sigaltstack, st, old);
}

static void check_arguments(void)
{
	stack_t st, old;

	ok(sigaltstack(NULL, &old) == 0 && old.ss_flags == SS_DISABLE &&
		   old.ss_size == 0,
	   "no alternate stack at first: SS_DISABLE");
	st = (stack_t){ .ss_sp = alt, .ss_size = ALT_SIZE, .ss_flags = 4 };
	is_errno(sys_sigaltstack(&st, NULL), EINVAL, "unknown flags: EINVAL");
	st = (stack_t){ .ss_sp = alt, .ss_size = MINSIGSTKSZ - 1 };
	is_errno(sys_sigaltstack(&st, NULL), ENOMEM,
		 "smaller than MINSIGSTKSZ: ENOMEM");
	is_errno(sys_sigaltstack((stack_t *)8, NULL), EFAULT,
		 "a bad stack_t pointer: EFAULT");
	is_errno(sys_sigaltstack(NULL, (stack_t *)8), EFAULT,
		 "a bad pointer for the old one: EFAULT");
	st = (stack_t){ .ss_sp = alt, .ss_size = ALT_SIZE };
	ok(sigaltstack(&st, &old) == 0 && old.ss_flags == SS_DISABLE,
	   "installed; the old one reported");
	ok(sigaltstack(NULL, &old) == 0 && old.ss_sp == alt &&
		   old.ss_size == ALT_SIZE && old.ss_flags == 0,
	   "reported back: its base, size and flags 0");
}

static void check_handlers(void)
{
	handle(SIGUSR1, probe, SA_ONSTACK);
	raise(SIGUSR1);
	ok(on_alt(handler_sp), "an SA_ONSTACK handler runs on it");
	is_int(handler_flags, SS_ONSTACK, "and sees SS_ONSTACK");
	ok(handler_eperm, "changing it from on it: EPERM");
	handle(SIGUSR2, probe, 0);
	raise(SIGUSR2);
	ok(!on_alt(handler_sp), "a handler without SA_ONSTACK does not");
	is_int(handler_flags, 0, "and sees flags 0");
}

static void check_overflow(void)
{
	struct rlimit small = { 256 * 1024, 256 * 1024 };
	pid_t pid = fork();
	int status = 0;

	if (pid == 0) {
		setrlimit(RLIMIT_STACK, &small);
		handle(SIGSEGV, on_segv, SA_ONSTACK);
		if (sigsetjmp(out_of_overflow, 1) == 0)
			recurse(NULL, 1L << 40);
		_exit(on_alt(handler_sp) ? 0 : 1);
	}
	ok(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		   WEXITSTATUS(status) == 0,
	   "a stack overflow's SIGSEGV is handled on the alternate stack "
	   "(status %#x)", status);
}

static void check_autodisarm(void)
{
	stack_t st = { .ss_sp = alt, .ss_size = ALT_SIZE,
		       .ss_flags = SS_AUTODISARM }, now;

	ok(sigaltstack(&st, NULL) == 0, "SS_AUTODISARM accepted");
	handle(SIGUSR1, probe, SA_ONSTACK);
	try_to_set = 0;
	raise(SIGUSR1);
	ok(on_alt(handler_sp) && handler_flags == SS_DISABLE,
	   "SS_AUTODISARM: the handler runs on it and sees it off (flags %#x)",
	   handler_flags);
	sigaltstack(NULL, &now);
	ok(now.ss_sp == alt && now.ss_size == ALT_SIZE &&
		   (unsigned)now.ss_flags == SS_AUTODISARM,
	   "after the handler it is back as it was (%p %zu %#x)", now.ss_sp,
	   now.ss_size, now.ss_flags);
}

static void check_fork_exec(const char *self)
{
	stack_t now;
	pid_t pid = fork();
	int status = 0;

	if (pid == 0)
		_exit(sigaltstack(NULL, &now) == 0 && now.ss_sp == alt ? 0 : 1);
	ok(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		   WEXITSTATUS(status) == 0,
	   "a forked child has the same alternate stack");
	pid = fork();
	if (pid == 0) {
		execl(self, self, "after-exec", (char *)NULL);
		_exit(127);
	}
	ok(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		   WEXITSTATUS(status) == 0,
	   "exec drops it");
}

int main(int argc, char **argv)
{
	stack_t now;

	if (argc > 1)	/* after exec: none (Linux keeps SS_AUTODISARM) */
		return sigaltstack(NULL, &now) || now.ss_sp || now.ss_size ||
		       (now.ss_flags & ~SS_AUTODISARM) != SS_DISABLE;
	alt = malloc(ALT_SIZE);
	plan(18);
	check_arguments();
	check_handlers();
	check_overflow();
	check_autodisarm();
	check_fork_exec(argv[0]);
	return done_testing();
}
