/*
 * proc_orphans: an orphan is re-parented and reaped.
 *
 * P forks A; A forks G and exits at once, so G is an orphan. G waits until
 * its parent changes, then exits 0 if the new parent is P, 1 otherwise. P
 * must be where orphans go: pid 1 (pagelab runs this test as init) or, on
 * Linux, a child subreaper (prctl). P reaps A, then G through wait4(-1),
 * then wait4 must say ECHILD: no zombie is left behind.
 *
 * An orphan that is a zombie already when its parent dies must be
 * announced to its new parent (SIGCHLD, Linux's reparent_leader), or
 * freed at once if that parent ignores SIGCHLD: an init that sleeps
 * until SIGCHLD would otherwise keep it for ever. (pagelab once only woke
 * a wait4 in progress: a stress-ng run left such a zombie, and its kernel
 * stack failed the leak check after the run, once in about a hundred.)
 * A forks G, G exits, A waits for G's SIGCHLD (G is a zombie then), tells
 * P G's pid and exits: P's first SIGCHLD must be G's (it is sent before
 * A's own), and with SIGCHLD ignored G must vanish without a wait.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000 };

	nanosleep(&ts, NULL);
}

static void grandchild(pid_t p, pid_t a)
{
	for (int i = 0; i < 5000 && getppid() == a; i++)
		sleep_ms(1);
	_exit(getppid() == p ? 0 : 1);
}

/* A: make G, a zombie (its SIGCHLD came: it has exited, and nobody has
 * reaped it), then tell P its pid (on fd) and exit. */
static void middle_leaves_a_zombie(int fd)
{
	struct timespec five = { 5, 0 };
	sigset_t chld;
	pid_t g;
	int seen;

	signal(SIGCHLD, SIG_DFL);	/* P's SIG_IGN would free G at once */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	g = fork();
	if (g == 0)
		_exit(3);
	seen = sigtimedwait(&chld, NULL, &five) == SIGCHLD;
	if (write(fd, &g, sizeof(g)) != sizeof(g))
		_exit(1);
	_exit(seen ? 0 : 2);
}

/* Fork A; returns G's pid, or -1. */
static pid_t orphan_a_zombie(pid_t *a)
{
	int fds[2];
	pid_t g = -1;

	if (pipe(fds))
		return -1;
	*a = fork();
	if (*a == 0)
		middle_leaves_a_zombie(fds[1]);
	close(fds[1]);
	if (*a < 0 || read(fds[0], &g, sizeof(g)) != sizeof(g))
		g = -1;
	close(fds[0]);
	return g;
}

static void test_zombie_orphan_announced(void)
{
	sigset_t chld;
	siginfo_t info;
	pid_t a, g;
	int status = -1;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	g = orphan_a_zombie(&a);
	memset(&info, 0, sizeof(info));
	if (g > 0 && sigwaitinfo(&chld, &info) != SIGCHLD)
		info.si_pid = -1;
	ok(g > 0 && info.si_pid == g,
	   "a zombie orphaned by its parent's exit is announced to its new "
	   "parent: the first SIGCHLD is from %d (got %d)", g, info.si_pid);
	ok(waitpid(a, &status, 0) == a && WIFEXITED(status) &&
	   WEXITSTATUS(status) == 0, "the middle child saw its child a zombie");
	ok(waitpid(g, &status, 0) == g && WIFEXITED(status) &&
	   WEXITSTATUS(status) == 3, "the zombie orphan is reaped with its "
	   "status (3)");
	sigprocmask(SIG_UNBLOCK, &chld, NULL);
}

static void test_zombie_orphan_autoreaped(void)
{
	pid_t a, g;
	int i;

	signal(SIGCHLD, SIG_IGN);
	g = orphan_a_zombie(&a);
	/* kill(pid, 0) finds a zombie too: ESRCH once it is freed. */
	for (i = 0; i < 200 && g > 0 && kill(g, 0) == 0; i++)
		sleep_ms(10);
	ok(g > 0 && i < 200, "with SIGCHLD ignored, the new parent's zombie "
	   "orphan %d is freed without a wait", g);
	is_errno(wait(NULL), ECHILD, "and no child is left to wait for");
	signal(SIGCHLD, SIG_DFL);
}

int main(void)
{
	pid_t p = getpid(), a, g, w;
	int status = -1;

	alarm(30);
	if (p != 1 && prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
		plan(0);
		diag("not pid 1 and no subreaper support: skipped");
		return done_testing();
	}
	plan(10);
	a = fork();
	if (a == 0) {
		pid_t me = getpid();	/* before the fork: G's parent */

		if (fork() == 0)
			grandchild(p, me);
		_exit(7);
	}
	ok(a > 0, "fork");
	w = waitpid(a, &status, 0);
	ok(w == a && WIFEXITED(status) && WEXITSTATUS(status) == 7,
	   "the middle child exited with 7");
	g = wait(&status);
	ok(g > 0 && g != a, "the orphaned grandchild was reaped by its new parent");
	is_int(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0,
	       "the grandchild saw its new parent's pid as getppid()");
	is_errno(wait(&status), ECHILD, "no child, no zombie left");
	test_zombie_orphan_announced();
	test_zombie_orphan_autoreaped();
	return done_testing();
}
