/*
 * syscalls_poll_epoll_eventfd: eventfd counters, poll/ppoll/select and
 * epoll on pipes and eventfds, as Linux defines them.
 *
 *   eventfd   counter and semaphore reads, EFD_NONBLOCK/EFD_CLOEXEC, the
 *             EINVAL cases, a full counter, a blocked read woken by a
 *             write from another process
 *   poll      POLLIN/POLLOUT/POLLHUP/POLLERR/POLLNVAL on pipes, regular
 *             files always ready, timeouts, a wake-up from another
 *             process, EINTR from a signal, ppoll's signal mask, select
 *   epoll     level-triggered reports, EPOLLONESHOT and re-arming with
 *             EPOLL_CTL_MOD, HUP/ERR always reported, every epoll_ctl and
 *             epoll_wait errno (regular files: EPERM), an item lives as
 *             long as its file (not its fd), blocking waits and timeouts,
 *             epoll_pwait and signals, an epoll inside an epoll (ELOOP)
 *
 * Times are checked only from below (never early), so a slow machine
 * does not fail it. The same binary passes on Linux.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"

static volatile int signals;

static void on_signal(int sig)
{
	(void)sig;
	signals++;
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

/* A child that sleeps ms, writes 8 bytes (an eventfd count, or pipe
 * data) to fd, and exits. */
static pid_t write_later(int fd, int ms, uint64_t value)
{
	pid_t pid = fork();

	if (pid == 0) {
		usleep(ms * 1000);
		_exit(write(fd, &value, sizeof(value)) == sizeof(value) ? 0 : 1);
	}
	return pid;
}

static int reap(pid_t pid)
{
	int status = -1;

	waitpid(pid, &status, 0);
	return status;
}

/* SIGALRM after ms, with a handler that does not restart calls. */
static void alarm_in(int ms)
{
	struct itimerval it = { { 0, 0 }, { ms / 1000, (ms % 1000) * 1000 } };

	setitimer(ITIMER_REAL, &it, NULL);
}

static uint64_t efd_read(int fd)
{
	uint64_t v = 0;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return (uint64_t)-1;
	return v;
}

static int efd_write(int fd, uint64_t v)
{
	return write(fd, &v, sizeof(v)) == sizeof(v) ? 0 : -1;
}

static void test_eventfd(void)
{
	uint64_t v = 0;
	int fd, sem;
	pid_t pid;
	long t0;

	fd = eventfd(5, 0);
	ok(fd >= 0, "eventfd(5, 0) makes an fd");
	is_long(efd_read(fd), 5, "a read returns the initial count");
	efd_write(fd, 3);
	efd_write(fd, 4);
	is_long(efd_read(fd), 7, "writes add up; a read takes the sum");
	is_errno(read(fd, &v, 4), EINVAL, "a read of 4 bytes: EINVAL");
	v = UINT64_MAX;
	is_errno(write(fd, &v, 8), EINVAL, "writing 0xffffffffffffffff: EINVAL");
	fcntl(fd, F_SETFL, O_NONBLOCK);
	is_errno(read(fd, &v, 8), EAGAIN, "a read of 0 with O_NONBLOCK: EAGAIN");
	is_int(efd_write(fd, UINT64_MAX - 1), 0, "the counter holds 2^64-2");
	is_errno(write(fd, &(uint64_t){ 1 }, 8), EAGAIN,
		 "one more would overflow: EAGAIN");
	close(fd);

	sem = eventfd(2, EFD_SEMAPHORE | EFD_NONBLOCK | EFD_CLOEXEC);
	ok(sem >= 0, "eventfd2 with EFD_SEMAPHORE|EFD_NONBLOCK|EFD_CLOEXEC");
	is_long(efd_read(sem), 1, "semaphore: a read takes 1");
	is_long(efd_read(sem), 1, "semaphore: and 1 again");
	is_errno(read(sem, &v, 8), EAGAIN, "semaphore at 0, EFD_NONBLOCK: EAGAIN");
	is_int(fcntl(sem, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC,
	       "EFD_CLOEXEC sets close-on-exec");
	close(sem);
	is_errno(eventfd(0, 0x1000), EINVAL, "an unknown flag: EINVAL");

	fd = eventfd(0, 0);
	t0 = ticks();
	pid = write_later(fd, 100, 42);
	is_long(efd_read(fd), 42, "a blocked read gets another process's write");
	ok(ticks() - t0 >= 9, "after the writer's 100 ms (%ld ticks)", ticks() - t0);
	is_int(reap(pid), 0, "the writer exited cleanly");
	close(fd);
}

static void test_poll_pipe(void)
{
	struct pollfd p[3];
	int fds[2], file, efd;
	char c;

	pipe(fds);
	p[0] = (struct pollfd){ fds[0], POLLIN, 0 };
	is_int(poll(p, 1, 0), 0, "poll: an empty pipe is not readable");
	write(fds[1], "x", 1);
	is_int(poll(p, 1, 0), 1, "poll: a byte makes it readable");
	is_int(p[0].revents, POLLIN, "revents POLLIN");
	p[1] = (struct pollfd){ fds[1], POLLOUT, 0 };
	is_int(poll(&p[1], 1, 0), 1, "poll: the write end is writable");
	is_int(p[1].revents, POLLOUT, "revents POLLOUT");
	close(fds[1]);
	poll(p, 1, 0);
	is_int(p[0].revents, POLLIN | POLLHUP,
	       "no writer left, a byte still queued: POLLIN|POLLHUP");
	read(fds[0], &c, 1);
	p[0].events = 0;
	poll(p, 1, 0);
	is_int(p[0].revents, POLLHUP, "POLLHUP even when not asked for");
	close(fds[0]);

	pipe(fds);
	close(fds[0]);
	p[0] = (struct pollfd){ fds[1], POLLOUT, 0 };
	poll(p, 1, 0);
	is_int(p[0].revents, POLLOUT | POLLERR,
	       "no reader left: the write end reports POLLERR");
	close(fds[1]);

	p[0] = (struct pollfd){ -1, POLLIN, 7 };
	p[1] = (struct pollfd){ 999, POLLIN, 0 };
	is_int(poll(p, 2, 0), 1, "a closed fd counts, a negative one does not");
	is_int(p[0].revents, 0, "negative fd: revents 0");
	is_int(p[1].revents, POLLNVAL, "closed fd: POLLNVAL");

	file = open("syscalls_poll.tmp", O_RDWR | O_CREAT | O_TRUNC, 0600);
	p[0] = (struct pollfd){ file, POLLIN | POLLOUT, 0 };
	is_int(poll(p, 1, 0), 1, "a regular file is always ready");
	is_int(p[0].revents, POLLIN | POLLOUT, "for reading and writing");
	close(file);
	unlink("syscalls_poll.tmp");

	efd = eventfd(0, 0);
	p[0] = (struct pollfd){ efd, POLLIN | POLLOUT, 0 };
	poll(p, 1, 0);
	is_int(p[0].revents, POLLOUT, "eventfd at 0: writable only");
	efd_write(efd, 1);
	poll(p, 1, 0);
	is_int(p[0].revents, POLLIN | POLLOUT, "eventfd at 1: readable too");
	close(efd);
}

static void test_poll_wait(void)
{
	struct rlimit rl;
	struct pollfd p;
	int fds[2];
	long t0;
	pid_t pid;

	pipe(fds);
	p = (struct pollfd){ fds[0], POLLIN, 0 };
	t0 = ticks();
	is_int(poll(&p, 1, 100), 0, "poll times out on an empty pipe");
	ok(ticks() - t0 >= 9, "after at least 100 ms (%ld ticks)", ticks() - t0);
	t0 = ticks();
	pid = write_later(fds[1], 100, 0);
	is_int(poll(&p, 1, -1), 1, "poll without timeout wakes on a write");
	ok(ticks() - t0 >= 9 && p.revents == POLLIN,
	   "POLLIN, after the writer's 100 ms (%ld ticks)", ticks() - t0);
	reap(pid);
	read(fds[0], &t0, 8);

	signals = 0;
	alarm_in(50);
	is_errno(poll(&p, 1, 5000), EINTR, "a handled signal interrupts poll: EINTR");
	is_int(signals, 1, "the handler ran");

	getrlimit(RLIMIT_NOFILE, &rl);
	is_errno(poll(&p, rl.rlim_cur + 1, 0), EINVAL,
		 "more fds than RLIMIT_NOFILE: EINVAL");
	close(fds[0]);
	close(fds[1]);
}

static void test_ppoll_select(void)
{
	struct timespec ts = { 0, 50000000 };
	struct timeval tv = { 0, 50000 };
	sigset_t block, empty;
	struct pollfd p;
	fd_set rd;
	int fds[2];
	long t0;

	pipe(fds);
	p = (struct pollfd){ fds[0], POLLIN, 0 };
	t0 = ticks();
	is_int(ppoll(&p, 1, &ts, NULL), 0, "ppoll: a 50 ms timespec times out");
	ok(ticks() - t0 >= 4, "after at least 50 ms (%ld ticks)", ticks() - t0);

	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, NULL);
	signals = 0;
	kill(getpid(), SIGUSR1);
	is_int(signals, 0, "SIGUSR1 is blocked and pending");
	sigemptyset(&empty);
	is_errno(ppoll(&p, 1, NULL, &empty), EINTR,
		 "ppoll's mask unblocks it: EINTR");
	is_int(signals, 1, "the handler ran during ppoll");
	sigprocmask(SIG_SETMASK, NULL, &empty);
	ok(sigismember(&empty, SIGUSR1), "the old mask is back after ppoll");

	/* A pending signal whose action is to be ignored: ppoll goes on
	 * (restarted), and the caller's mask must survive the restart. */
	sigemptyset(&empty);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, NULL);
	if (fork() == 0)
		_exit(0);
	wait(NULL);
	t0 = ticks();
	is_int(ppoll(&p, 1, &ts, &empty), 0,
	       "an ignored SIGCHLD let in by ppoll's mask does not end it");
	ok(ticks() - t0 >= 4, "it ran its 50 ms (%ld ticks)", ticks() - t0);
	sigprocmask(SIG_SETMASK, NULL, &empty);
	ok(sigismember(&empty, SIGUSR1) && sigismember(&empty, SIGCHLD),
	   "and the caller's mask is back afterwards");
	sigprocmask(SIG_UNBLOCK, &block, NULL);

	FD_ZERO(&rd);
	FD_SET(fds[0], &rd);
	t0 = ticks();
	is_int(select(fds[0] + 1, &rd, NULL, NULL, &tv), 0,
	       "select times out on an empty pipe");
	ok(ticks() - t0 >= 4, "after at least 50 ms (%ld ticks)", ticks() - t0);
	write(fds[1], "y", 1);
	FD_SET(fds[0], &rd);
	tv = (struct timeval){ 0, 0 };
	is_int(select(fds[0] + 1, &rd, NULL, NULL, &tv), 1,
	       "select: the pipe is readable");
	ok(FD_ISSET(fds[0], &rd), "and its bit is set");
	FD_ZERO(&rd);
	close(40);	/* below the table size, 64 on Linux and here */
	FD_SET(40, &rd);
	is_errno(select(41, &rd, NULL, NULL, &tv), EBADF,
		 "select on a closed fd: EBADF");
	close(fds[0]);
	close(fds[1]);
}

static int ep_add(int ep, int fd, uint32_t events, uint64_t data)
{
	struct epoll_event ev = { .events = events, .data.u64 = data };

	return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}

static void test_epoll_basic(void)
{
	struct epoll_event ev[4];
	int ep, fds[2];
	char c;

	is_errno(epoll_create1(0x4000), EINVAL, "epoll_create1(bad flag): EINVAL");
	is_errno(syscall(SYS_epoll_create, 0), EINVAL, "epoll_create(0): EINVAL");
	ep = epoll_create1(EPOLL_CLOEXEC);
	ok(ep >= 0, "epoll_create1(EPOLL_CLOEXEC)");
	is_int(fcntl(ep, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC, "close-on-exec set");
	pipe(fds);
	is_int(ep_add(ep, fds[0], EPOLLIN, 0x1234567890ULL), 0,
	       "EPOLL_CTL_ADD the read end of a pipe");
	is_int(epoll_wait(ep, ev, 4, 0), 0, "nothing ready yet");
	write(fds[1], "z", 1);
	is_int(epoll_wait(ep, ev, 4, 0), 1, "a byte: one event");
	ok(ev[0].events == EPOLLIN && ev[0].data.u64 == 0x1234567890ULL,
	   "EPOLLIN with the data given (events %#x)", ev[0].events);
	is_int(epoll_wait(ep, ev, 4, 0), 1,
	       "level-triggered: reported again while unread");
	read(fds[0], &c, 1);
	is_int(epoll_wait(ep, ev, 4, 0), 0, "read: no longer reported");

	is_int(ep_add(ep, fds[1], EPOLLOUT, 2), 0, "add the write end for EPOLLOUT");
	is_int(epoll_wait(ep, ev, 4, 0), 1, "the write end is writable");
	ok(ev[0].events == EPOLLOUT && ev[0].data.u64 == 2, "EPOLLOUT, data 2");
	is_int(epoll_ctl(ep, EPOLL_CTL_DEL, fds[1], NULL), 0, "EPOLL_CTL_DEL it");
	is_int(epoll_wait(ep, ev, 4, 0), 0, "deleted: not reported");
	close(fds[1]);
	is_int(epoll_wait(ep, ev, 4, 0), 1, "the last writer closed");
	is_int(ev[0].events, EPOLLHUP, "EPOLLHUP, though not asked for");
	close(fds[0]);

	pipe(fds);
	ep_add(ep, fds[1], EPOLLOUT, 3);
	close(fds[0]);
	epoll_wait(ep, ev, 4, 0);
	is_int(ev[0].events, EPOLLOUT | EPOLLERR, "no reader: EPOLLOUT|EPOLLERR");
	close(fds[1]);
	is_int(epoll_wait(ep, ev, 4, 0), 0, "closed files leave the set");
	close(ep);
}

static void test_epoll_errors(void)
{
	struct epoll_event e = { EPOLLIN, { 0 } }, out;
	int ep = epoll_create1(0), efd = eventfd(0, 0), fds[2], file;

	pipe(fds);
	ep_add(ep, efd, EPOLLIN, 0);
	is_errno(ep_add(ep, efd, EPOLLIN, 0), EEXIST, "ADD twice: EEXIST");
	is_errno(epoll_ctl(ep, EPOLL_CTL_MOD, fds[0], &e), ENOENT,
		 "MOD of an fd not in the set: ENOENT");
	is_errno(epoll_ctl(ep, EPOLL_CTL_DEL, fds[0], NULL), ENOENT,
		 "DEL of an fd not in the set: ENOENT");
	file = open("syscalls_epoll.tmp", O_RDWR | O_CREAT | O_TRUNC, 0600);
	is_errno(ep_add(ep, file, EPOLLIN, 0), EPERM, "a regular file: EPERM");
	close(file);
	unlink("syscalls_epoll.tmp");
	is_errno(ep_add(ep, ep, EPOLLIN, 0), EINVAL, "an epoll in itself: EINVAL");
	is_errno(ep_add(fds[0], efd, EPOLLIN, 0), EINVAL,
		 "epfd not an epoll: EINVAL");
	is_errno(ep_add(ep, 999, EPOLLIN, 0), EBADF, "a closed fd: EBADF");
	is_errno(ep_add(999, efd, EPOLLIN, 0), EBADF, "a closed epfd: EBADF");
	is_errno(epoll_ctl(ep, 99, fds[0], &e), EINVAL, "an unknown op: EINVAL");
	is_errno(epoll_ctl(ep, EPOLL_CTL_ADD, fds[0], (void *)8), EFAULT,
		 "a bad event pointer: EFAULT");
	is_errno(epoll_wait(ep, &out, 0, 0), EINVAL, "maxevents 0: EINVAL");
	is_errno(epoll_wait(fds[0], &out, 1, 0), EINVAL,
		 "epoll_wait on a pipe: EINVAL");
	efd_write(efd, 1);
	is_errno(epoll_wait(ep, (void *)8, 1, 0), EFAULT,
		 "a bad events pointer: EFAULT");
	close(fds[0]);
	close(fds[1]);
	close(efd);
	close(ep);
}

static void test_epoll_oneshot_and_files(void)
{
	struct epoll_event ev[2], e = { EPOLLIN | EPOLLONESHOT, { .u64 = 9 } };
	int ep = epoll_create1(0), efd = eventfd(1, 0), dupfd;

	ep_add(ep, efd, EPOLLIN | EPOLLONESHOT, 9);
	is_int(epoll_wait(ep, ev, 2, 0), 1, "EPOLLONESHOT: reported once");
	is_int(epoll_wait(ep, ev, 2, 0), 0, "then disarmed, though still readable");
	is_int(epoll_ctl(ep, EPOLL_CTL_MOD, efd, &e), 0, "EPOLL_CTL_MOD re-arms it");
	is_int(epoll_wait(ep, ev, 2, 0), 1, "reported again after MOD");
	ok(ev[0].data.u64 == 9, "with its data");

	e.events = EPOLLIN;
	epoll_ctl(ep, EPOLL_CTL_MOD, efd, &e);
	dupfd = dup(efd);
	close(efd);
	is_int(epoll_wait(ep, ev, 2, 0), 1,
	       "closing one fd of a dup'ed file keeps the item");
	close(dupfd);
	is_int(epoll_wait(ep, ev, 2, 0), 0, "closing the last fd removes it");
	close(ep);
}

static void test_epoll_wait(void)
{
	struct epoll_event ev;
	int ep = epoll_create1(0), efd = eventfd(0, 0);
	sigset_t block, empty;
	long t0;
	pid_t pid;

	ep_add(ep, efd, EPOLLIN, 5);
	t0 = ticks();
	is_int(epoll_wait(ep, &ev, 1, 100), 0, "epoll_wait times out");
	ok(ticks() - t0 >= 9, "after at least 100 ms (%ld ticks)", ticks() - t0);
	t0 = ticks();
	pid = write_later(efd, 100, 3);
	is_int(epoll_wait(ep, &ev, 1, -1), 1, "a blocked epoll_wait wakes");
	ok(ticks() - t0 >= 9 && ev.data.u64 == 5,
	   "on the other process's write (%ld ticks)", ticks() - t0);
	reap(pid);
	efd_read(efd);

	signals = 0;
	alarm_in(50);
	is_errno(epoll_wait(ep, &ev, 1, 5000), EINTR,
		 "a handled signal interrupts epoll_wait: EINTR");
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, NULL);
	kill(getpid(), SIGUSR1);
	sigemptyset(&empty);
	is_errno(epoll_pwait(ep, &ev, 1, -1, &empty), EINTR,
		 "epoll_pwait's mask lets a pending signal in: EINTR");
	is_int(signals, 2, "both handlers ran");
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	close(efd);
	close(ep);
}

static void test_epoll_nested(void)
{
	struct epoll_event ev;
	int outer = epoll_create1(0), inner = epoll_create1(0);
	int efd = eventfd(0, 0);
	struct pollfd p = { inner, POLLIN, 0 };

	ep_add(inner, efd, EPOLLIN, 1);
	is_int(ep_add(outer, inner, EPOLLIN, 2), 0, "an epoll inside an epoll");
	is_errno(ep_add(inner, outer, EPOLLIN, 0), ELOOP, "a cycle: ELOOP");
	is_int(poll(&p, 1, 0), 0, "poll on an idle epoll: not ready");
	efd_write(efd, 1);
	is_int(poll(&p, 1, 0), 1, "an event inside makes the epoll readable");
	is_int(epoll_wait(outer, &ev, 1, 0), 1, "and the outer epoll reports it");
	ok(ev.events == EPOLLIN && ev.data.u64 == 2, "as the inner one's data");
	close(outer);
	close(inner);
	close(efd);
}

int main(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: calls fail with EINTR */
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	plan(105);
	test_eventfd();
	test_poll_pipe();
	test_poll_wait();
	test_ppoll_select();
	test_epoll_basic();
	test_epoll_errors();
	test_epoll_oneshot_and_files();
	test_epoll_wait();
	test_epoll_nested();
	return done_testing();
}
