/*
 * syscalls_signals: rt_sigtimedwait and rt_sigqueueinfo.
 *
 *   sigqueue's value and sender arrive in sigtimedwait's siginfo; the
 *   signal taken is no longer pending and the mask is what it was; a zero
 *   or elapsed timeout is EAGAIN; sigwaitinfo wakes on a signal from
 *   another process; a handled signal outside the set interrupts (EINTR);
 *   rt_sigqueueinfo's EPERM (posing as kill() towards another process),
 *   ESRCH and EINVAL; the EINVAL cases of rt_sigtimedwait; a signal
 *   whose default action is to ignore it (SIGCHLD) is taken when it
 *   arrives during the wait (it used to be thrown away: unblocked for the
 *   wait, it looked ignored).
 *
 * Same verdict on Linux.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"

static volatile int alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* Time in 10 ms units of CLOCK_MONOTONIC, the clock the kernel's
 * timeouts run on (schedule_timeout counts ktime, not interrupts), so a
 * badly calibrated clock moves both alike. Not times(): it counts timer
 * interrupts, and a host too busy to deliver some made a 100 ms wait
 * look like 8 ticks. */
static long ticks(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 100 + ts.tv_nsec / 10000000;
}

static void test_timedwait(const sigset_t *set)
{
	struct timespec zero = { 0, 0 }, t100 = { 0, 100000000 };
	siginfo_t si;
	sigset_t pending, mask;
	long t0;

	is_int(sigqueue(getpid(), SIGUSR1, (union sigval){ .sival_int = 42 }), 0,
	       "sigqueue to myself, SIGUSR1 blocked");
	memset(&si, 0, sizeof(si));
	is_int(sigtimedwait(set, &si, &zero), SIGUSR1,
	       "sigtimedwait takes it at once");
	ok(si.si_signo == SIGUSR1 && si.si_code == SI_QUEUE &&
	   si.si_value.sival_int == 42 && si.si_pid == getpid(),
	   "with sigqueue's siginfo (code %d, value %d)", si.si_code,
	   si.si_value.sival_int);
	sigpending(&pending);
	ok(!sigismember(&pending, SIGUSR1), "and it is no longer pending");
	sigprocmask(SIG_BLOCK, NULL, &mask);
	ok(sigismember(&mask, SIGUSR1), "SIGUSR1 is still blocked");
	is_errno(sigtimedwait(set, &si, &zero), EAGAIN,
		 "nothing pending, zero timeout: EAGAIN");
	t0 = ticks();
	is_errno(sigtimedwait(set, &si, &t100), EAGAIN,
		 "a 100 ms timeout runs out: EAGAIN");
	ok(ticks() - t0 >= 9, "after at least 100 ms (%ld ticks)", ticks() - t0);
}

static void test_wakeups(const sigset_t *set)
{
	struct timespec t5 = { 5, 0 };
	siginfo_t si;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		usleep(100000);
		kill(getppid(), SIGUSR2);
		_exit(0);
	}
	memset(&si, 0, sizeof(si));
	is_int(sigwaitinfo(set, &si), SIGUSR2,
	       "sigwaitinfo wakes on another process's kill");
	ok(si.si_code == SI_USER && si.si_pid == pid,
	   "whose pid is in the siginfo");
	waitpid(pid, NULL, 0);

	alarms = 0;
	setitimer(ITIMER_REAL, &(struct itimerval){ { 0, 0 }, { 0, 50000 } },
		  NULL);
	/* The raw call: musl's sigtimedwait() retries after EINTR. */
	is_errno(syscall(SYS_rt_sigtimedwait, set, &si, &t5, 8), EINTR,
		 "a handled signal outside the set: EINTR");
	is_int(alarms, 1, "its handler ran");
}

static void test_queueinfo_errors(const sigset_t *set)
{
	struct timespec zero = { 0, 0 }, bad = { 0, 1000000000 };
	siginfo_t si;
	pid_t pid;

	memset(&si, 0, sizeof(si));
	si.si_code = SI_QUEUE;
	si.si_value.sival_int = 7;
	pid = fork();
	if (pid == 0) {
		siginfo_t got;

		sigwaitinfo(set, &got);
		_exit(got.si_value.sival_int);
	}
	is_int(syscall(SYS_rt_sigqueueinfo, pid, SIGUSR1, &si), 0,
	       "rt_sigqueueinfo to a child");
	si.si_code = SI_USER;
	is_errno(syscall(SYS_rt_sigqueueinfo, pid, SIGUSR1, &si), EPERM,
		 "posing as kill() (si_code SI_USER) to another process: EPERM");
	{
		int status;

		waitpid(pid, &status, 0);
		is_int(WEXITSTATUS(status), 7, "the child got the value");
	}
	is_int(syscall(SYS_rt_sigqueueinfo, getpid(), SIGUSR1, &si), 0,
	       "but to myself it is allowed");
	sigtimedwait(set, &si, &zero);
	si.si_code = SI_QUEUE;
	is_errno(syscall(SYS_rt_sigqueueinfo, 999999, SIGUSR1, &si), ESRCH,
		 "no such process: ESRCH");
	is_errno(syscall(SYS_rt_sigqueueinfo, getpid(), 99, &si), EINVAL,
		 "signal 99: EINVAL");
	is_errno(syscall(SYS_rt_sigqueueinfo, getpid(), SIGUSR1, (void *)8),
		 EFAULT, "a bad siginfo: EFAULT");
	is_errno(syscall(SYS_rt_sigtimedwait, set, &si, &zero, 4), EINVAL,
		 "rt_sigtimedwait with sigsetsize 4: EINVAL");
	is_errno(sigtimedwait(set, &si, &bad), EINVAL, "tv_nsec 1e9: EINVAL");
}

/* The state letter of /proc/PID/stat, or 0. */
static char proc_state(pid_t pid)
{
	char path[64], buf[256], *p;
	int fd, n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* SIGCHLD (default action: ignore) blocked and waited for; the child
 * exits once the parent sleeps in the wait (/proc says S). */
static void test_sigchld_wait(void)
{
	struct timespec t5 = { 5, 0 };
	sigset_t chld;
	siginfo_t si;
	pid_t pid, parent = getpid();

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 5000 && proc_state(parent) != 'S'; i++)
			usleep(1000);
		_exit(0);
	}
	memset(&si, 0, sizeof(si));
	is_int(sigtimedwait(&chld, &si, &t5), SIGCHLD,
	       "SIGCHLD (ignored by default) arriving during the wait is taken");
	ok(si.si_pid == pid && si.si_code == CLD_EXITED,
	   "with the child's pid and CLD_EXITED");
	waitpid(pid, NULL, 0);
	sigprocmask(SIG_UNBLOCK, &chld, NULL);
}

int main(void)
{
	struct sigaction sa;
	sigset_t set;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART */
	sigaction(SIGALRM, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	plan(23);
	test_timedwait(&set);
	test_wakeups(&set);
	test_queueinfo_errors(&set);
	test_sigchld_wait();
	return done_testing();
}
