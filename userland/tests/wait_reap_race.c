/*
 * wait_reap_race - a parent reaps each child the moment it is a zombie.
 *
 *   wait_reap_race [-n CHILDREN]
 *
 * Each child exits at once; the parent polls waitpid(WNOHANG) without
 * pause, so on several CPUs it takes the zombie while the child is still
 * on its way out of the kernel (between its exit and its last switch).
 * The kernel must then free the child once, after that switch: pagelab
 * once let the child free itself as well, and the parent spun on the freed
 * task for ever with interrupts off (kernel/sched/core.c, schedule_dead).
 * The verdict: every child reaped once, with its own status.
 *
 * Roadmap: one fork-and-reap per child; main counts them (TAP).
 */
#include "tap.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* Fork a child that exits with code, reap it by polling; 0 when reaped
 * with that status. */
static int fork_and_reap(int code)
{
	pid_t pid = fork(), got;
	int status = 0;
	long polls = 0;

	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(code);
	while ((got = waitpid(pid, &status, WNOHANG)) == 0)
		polls++;	/* no pause: reap at the first chance */
	if (got != pid || !WIFEXITED(status) || WEXITSTATUS(status) != code)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	int n = 1000, bad = 0, opt;

	while ((opt = getopt(argc, argv, "n:")) != -1)
		if (opt == 'n')
			n = atoi(optarg);
	for (int i = 0; i < n && !bad; i++)
		bad = fork_and_reap(i & 0x7f) != 0;
	ok(!bad, "%d children forked, each reaped by a parent that polls, "
	   "with its own exit status", n);
	/* After them all, nothing is left to wait for. */
	ok(waitpid(-1, NULL, WNOHANG) == -1, "no child is left");
	return done_testing();
}
