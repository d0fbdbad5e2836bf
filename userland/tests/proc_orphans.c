/*
 * proc_orphans: an orphan is re-parented and reaped.
 *
 * P forks A; A forks G and exits at once, so G is an orphan. G waits until
 * its parent changes, then exits 0 if the new parent is P, 1 otherwise. P
 * must be where orphans go: pid 1 (pagelab runs this test as init) or, on
 * Linux, a child subreaper (prctl). P reaps A, then G through wait4(-1),
 * then wait4 must say ECHILD: no zombie is left behind.
 */
#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"

static void grandchild(pid_t p, pid_t a)
{
	for (int i = 0; i < 5000 && getppid() == a; i++) {
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
	}
	_exit(getppid() == p ? 0 : 1);
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
	plan(5);
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
	return done_testing();
}
