/*
 * signal_init_unkillable: init (pid 1) gets only the signals it has a
 * handler for (Linux's SIGNAL_UNKILLABLE). A signal whose action is the
 * default is dropped, whoever sends it: init itself or another process
 * (kill(1, SIGTERM) by root used to panic the kernel: "Attempted to kill
 * init!"); SIGKILL and SIGSTOP are dropped too; kill() still returns 0.
 * A handler init installed runs as for anyone; a signal sent while
 * blocked waits, and is dropped at delivery if its action is then the
 * default.
 * Run as pid 1 (init=/tests/signal_init_unkillable init_exit=poweroff);
 * anywhere else every check is skipped (it would kill us, or the host's
 * init would be asked to act).
 */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"

static volatile int usr1;

static void on_usr1(int sig)
{
	(void)sig;
	usr1++;
}

/* A child that sends init each signal of sigs (0-terminated); its exit
 * status is 0 if every kill() returned 0. */
static int child_kills_init(const int *sigs)
{
	pid_t pid = fork();
	int st = -1, bad = 0;

	if (pid == 0) {
		for (; *sigs; sigs++)
			bad |= kill(1, *sigs) != 0;
		_exit(bad);
	}
	waitpid(pid, &st, 0);
	return st;
}

int main(void)
{
	static const int deadly[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT,
				      SIGKILL, SIGSTOP, 0 };
	static const int one_usr1[] = { SIGUSR1, 0 };
	sigset_t set, none, pending;

	if (getpid() != 1) {
		plan(0);
		diag("not pid 1: skipped");
		return done_testing();
	}
	plan(9);
	is_int(raise(SIGTERM), 0, "init raises SIGTERM (default action)");
	is_int(raise(SIGINT), 0, "and SIGINT");
	is_int(kill(1, SIGKILL), 0, "kill(1, SIGKILL) by init itself");
	is_int(kill(1, SIGSTOP), 0, "kill(1, SIGSTOP) by init itself");
	ok(1, "init is still running");
	is_int(child_kills_init(deadly), 0,
	       "another process sends init SIGTERM, SIGINT, SIGHUP, SIGQUIT, "
	       "SIGKILL, SIGSTOP: each kill() returns 0, init lives");

	signal(SIGUSR1, on_usr1);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	child_kills_init(one_usr1);
	sigemptyset(&none);
	while (!usr1)
		sigsuspend(&none);
	ok(usr1 == 1, "a signal init has a handler for is delivered");

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	raise(SIGTERM);
	sigpending(&pending);
	ok(sigismember(&pending, SIGTERM), "a blocked SIGTERM stays pending");
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	sigpending(&pending);
	ok(!sigismember(&pending, SIGTERM),
	   "unblocked with the default action, it is dropped; init lives");
	return done_testing();
}
