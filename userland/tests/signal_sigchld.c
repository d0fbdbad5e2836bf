/*
 * signal_sigchld: SIGCHLD and the signal details a shell relies on.
 *  - a child's exit raises SIGCHLD with si_code CLD_EXITED, its pid and
 *    status (or CLD_KILLED and the signal);
 *  - with SIGCHLD ignored, exited children are reaped by the kernel:
 *    wait() then says ECHILD;
 *  - a handler installed with SA_RESTART lets a blocking read go on; one
 *    without makes it fail with EINTR;
 *  - a blocked signal stays pending until sigsuspend lets it in;
 *  - job control: SIGSTOP stops a child (SIGCHLD with CLD_STOPPED,
 *    wait4(WUNTRACED) reports it once as WIFSTOPPED), a signal sent to a
 *    stopped child waits, SIGCONT resumes it (CLD_CONTINUED,
 *    WIFCONTINUED with WCONTINUED) and the waiting signal then acts.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"

static volatile siginfo_t last;
static volatile int hits;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	last = *si;
	hits++;
}

static void handle(int sig, int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | flags;
	sigaction(sig, &sa, NULL);
}

/* Block sig, start a child doing `what`, and sigsuspend until sig came. */
static pid_t child_then_suspend(int sig, int what)
{
	sigset_t block, old;
	pid_t pid;

	sigemptyset(&block);
	sigaddset(&block, sig);
	sigprocmask(SIG_BLOCK, &block, &old);
	hits = 0;
	pid = fork();
	if (pid == 0) {
		if (what < 0)
			raise(-what);
		_exit(what);
	}
	while (!hits)
		sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

static void test_sigchld(void)
{
	pid_t pid;
	int st;

	handle(SIGCHLD, 0);
	pid = child_then_suspend(SIGCHLD, 5);
	is_int(last.si_code, CLD_EXITED, "SIGCHLD: CLD_EXITED");
	is_int(last.si_pid, pid, "si_pid is the child");
	is_int(last.si_status, 5, "si_status is its exit code");
	waitpid(pid, &st, 0);
	pid = child_then_suspend(SIGCHLD, -SIGTERM);
	is_int(last.si_code, CLD_KILLED, "a killed child: CLD_KILLED");
	is_int(last.si_status, SIGTERM, "si_status is the signal");
	waitpid(pid, &st, 0);
}

static void test_ignored_sigchld_reaps(void)
{
	struct timespec ts = { 0, 50000000 };
	pid_t pid;

	signal(SIGCHLD, SIG_IGN);
	pid = fork();
	if (pid == 0)
		_exit(0);
	nanosleep(&ts, NULL);
	is_errno(waitpid(pid, NULL, WNOHANG), ECHILD,
		 "SIGCHLD ignored: the child was reaped for us");
	signal(SIGCHLD, SIG_DFL);
}

/* Read from a pipe while SIGALRM arrives: bytes read, or -errno. */
static long read_with_alarm(int flags)
{
	int fds[2];
	char c;
	long n;

	pipe(fds);
	handle(SIGALRM, flags);
	if (flags & SA_RESTART) {
		if (fork() == 0) {	/* writes after the alarm came */
			struct timespec ts = { 0, 300000000 };

			nanosleep(&ts, NULL);
			write(fds[1], "x", 1);
			_exit(0);
		}
	}
	ualarm(100000, 0);
	n = read(fds[0], &c, 1);
	if (n < 0)
		n = -errno;
	close(fds[0]);
	close(fds[1]);
	wait(NULL);
	return n;
}

static void test_restart(void)
{
	hits = 0;
	is_int(read_with_alarm(0), -EINTR,
	       "read interrupted by a handler without SA_RESTART: EINTR");
	hits = 0;
	is_int(read_with_alarm(SA_RESTART), 1,
	       "with SA_RESTART the read goes on and gets the byte");
	ok(hits == 1, "and the handler ran once");
}

static void test_pending(void)
{
	sigset_t set, pend, none;

	handle(SIGUSR1, 0);
	hits = 0;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	kill(getpid(), SIGUSR1);
	sigpending(&pend);
	ok(sigismember(&pend, SIGUSR1) && hits == 0,
	   "a blocked signal waits in sigpending()");
	sigemptyset(&none);
	is_errno(sigsuspend(&none), EINTR, "sigsuspend returns EINTR");
	ok(hits == 1, "once let in, the handler ran");
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

/* A child spinning in pause() is stopped, signalled, continued, killed. */
static void test_stop_continue(void)
{
	sigset_t block, old;
	pid_t pid, r;
	int st = 0;

	handle(SIGCHLD, 0);
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &old);
	pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	hits = 0;
	kill(pid, SIGSTOP);
	while (!hits)
		sigsuspend(&old);
	is_int(last.si_code, CLD_STOPPED, "SIGSTOP: SIGCHLD with CLD_STOPPED");
	is_int(last.si_status, SIGSTOP, "si_status is the stop signal");
	r = waitpid(pid, &st, WUNTRACED);
	ok(r == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP,
	   "wait4(WUNTRACED) reports the stop (status %#x)", st);
	is_int(waitpid(pid, &st, WUNTRACED | WNOHANG), 0,
	       "and only once");
	kill(pid, SIGTERM);	/* waits: a stopped child takes no signal */
	is_int(waitpid(pid, &st, WNOHANG), 0,
	       "SIGTERM to a stopped child waits for SIGCONT");
	hits = 0;
	kill(pid, SIGCONT);
	while (!hits || last.si_code == CLD_STOPPED)
		sigsuspend(&old);
	ok(last.si_code == CLD_CONTINUED || last.si_code == CLD_KILLED,
	   "SIGCONT: SIGCHLD with CLD_CONTINUED (or the kill that followed)");
	r = waitpid(pid, &st, 0);
	ok(r == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM,
	   "resumed, the waiting SIGTERM kills it (status %#x)", st);
	sigprocmask(SIG_SETMASK, &old, NULL);

	/* WCONTINUED, with a child that stops itself; no handler now, so
	 * that no SIGCHLD interrupts the waits (EINTR). SIGSTOP, not
	 * SIGTSTP: Linux discards SIGTSTP in an orphaned process group,
	 * which a test run under make or a harness may well be in. */
	signal(SIGCHLD, SIG_DFL);
	pid = fork();
	if (pid == 0) {
		raise(SIGSTOP);
		_exit(7);
	}
	r = waitpid(pid, &st, WUNTRACED);
	ok(r == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP,
	   "a child can stop itself (status %#x)", st);
	kill(pid, SIGCONT);
	r = waitpid(pid, &st, WCONTINUED);
	ok(r == pid && (WIFCONTINUED(st) ||
			(WIFEXITED(st) && WEXITSTATUS(st) == 7)),
	   "wait4(WCONTINUED) reports the continue (status %#x)", st);
	if (WIFCONTINUED(st))
		waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 7,
	   "and it runs on to its exit (status %#x)", st);
}

int main(void)
{
	alarm(30);
	plan(22);
	test_sigchld();
	test_ignored_sigchld_reaps();
	test_restart();
	test_pending();
	test_stop_continue();
	return done_testing();
}
