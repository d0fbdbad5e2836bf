/*
 * proc_pgrp_zombie: a process group whose leader has exited but not been
 * reaped is still a process group (Linux: a zombie keeps its pgid and
 * session until wait4 frees it).
 *
 * This is what a shell's pipeline `ls | cat` meets when `ls`, the group
 * leader, is done before `cat` is forked: `cat` (and the shell for it)
 * calls setpgid(cat, ls), and the shell then makes the group the
 * terminal's foreground group. Both used to fail with EPERM, and busybox's
 * ash printed "can't set tty process group" and lost the `cat`.
 *
 * Every step is ordered by pipes and SIGCHLD (blocked but in sigsuspend:
 * the leader is a zombie once its SIGCHLD came), so nothing depends on
 * timing:
 *   - setpgid(pid, L) by the parent, and setpgid(0, L) by the child
 *     itself, join the group of the zombie L;
 *   - tcsetpgrp(tty, L) makes it the foreground group (needs a
 *     controlling terminal: as pid 1, pagelab's init=... boots, the
 *     console is taken with TIOCSCTTY; elsewhere /dev/tty if we are in its
 *     foreground group; otherwise those checks are skipped);
 *   - a group whose only member is a zombie still answers kill(-pgrp)
 *     and kill(pid) with success; once reaped, ESRCH and EPERM.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"

/* A child that calls setpgid(0, pgid) if pgid >= 0, writes the result
 * (0 or errno) to report, then waits until hold is closed. */
static pid_t child(pid_t pgid, int hold[2], int report)
{
	pid_t pid = fork();
	char c;

	if (pid != 0)
		return pid;
	close(hold[1]);
	if (pgid >= 0) {
		int r = setpgid(0, pgid) ? errno : 0;

		write(report, &r, sizeof(r));
	}
	while (read(hold[0], &c, 1) < 0 && errno == EINTR)
		;
	_exit(0);
}

static volatile pid_t exited;

static void on_sigchld(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (si->si_code == CLD_EXITED)
		exited = si->si_pid;
}

/* Wait for SIGCHLD from pid (blocked but here): then it is a zombie. */
static int became_zombie(pid_t pid)
{
	sigset_t none;

	sigemptyset(&none);
	while (exited != pid)
		sigsuspend(&none);
	return 1;
}

/* A leader of its own group that exits at once, left unreaped. */
static pid_t zombie_leader(void)
{
	int hold[2];
	pid_t pid;

	if (pipe(hold))
		return -1;
	pid = child(0, hold, -1);
	setpgid(pid, pid);	/* as a shell does: whoever runs first */
	close(hold[0]);
	close(hold[1]);
	return became_zombie(pid) ? pid : -1;
}

/* A call that must succeed: say which errno it failed with, if any. */
#define is_success(ret, ...) \
	is_str((ret) == 0 ? "0" : tap_errname(errno), "0", __VA_ARGS__)

/* The controlling terminal, if we may set its foreground group. */
static int controlling_tty(void)
{
	int fd;

	if (getpid() == 1 && ioctl(0, TIOCSCTTY, 0) == 0)
		return 0;
	fd = open("/dev/tty", O_RDWR);
	if (fd >= 0 && tcgetpgrp(fd) == getpgrp())
		return fd;
	if (fd >= 0)
		close(fd);
	return -1;
}

static void test_tty(pid_t leader)
{
	int fd = controlling_tty(), set, err;
	pid_t got;

	if (fd < 0) {
		skip("no controlling terminal to use", "tcsetpgrp to the group");
		skip("no controlling terminal to use", "tcgetpgrp says so");
		return;
	}
	/* Back from the background: ignore SIGTTOU (Linux sends it). */
	signal(SIGTTOU, SIG_IGN);
	set = tcsetpgrp(fd, leader);
	err = errno;
	got = tcgetpgrp(fd);
	tcsetpgrp(fd, getpgrp());
	errno = err;
	is_success(set, "tcsetpgrp to a group whose leader is a zombie");
	is_int(got, leader, "tcgetpgrp says it is the foreground group");
}

int main(void)
{
	int hold[2], rep[2], r = -1, st;
	pid_t leader, m, n, z;
	struct sigaction sa = { .sa_sigaction = on_sigchld,
				.sa_flags = SA_SIGINFO };
	sigset_t chld;

	alarm(30);
	plan(12);
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	if (pipe(hold) || pipe(rep))
		return 1;

	leader = zombie_leader();
	if (!ok(leader > 0, "the group leader exited and is a zombie"))
		return done_testing();
	is_int(getpgid(leader), leader, "the zombie keeps its process group");

	m = child(-1, hold, -1);
	is_success(setpgid(m, leader),
		 "setpgid(child, zombie leader's group) joins it");
	is_int(getpgid(m), leader, "the child is in the group");
	n = child(leader, hold, rep[1]);
	read(rep[0], &r, sizeof(r));
	is_str(tap_errname(r), "0", "setpgid(0, that group) by the child itself");

	test_tty(leader);

	z = zombie_leader();
	is_success(kill(-z, 0), "kill(-pgrp, 0): a group of one zombie exists");
	is_success(kill(z, 0), "kill(zombie, 0) finds it");
	waitpid(z, &st, 0);
	is_errno(kill(-z, 0), ESRCH, "once reaped, the group is gone");
	is_errno(setpgid(m, z), EPERM, "and cannot be joined");

	waitpid(leader, &st, 0);
	is_success(kill(-leader, 0),
		 "the group outlives its reaped leader while members remain");
	close(hold[1]);
	waitpid(m, &st, 0);
	waitpid(n, &st, 0);
	return done_testing();
}
