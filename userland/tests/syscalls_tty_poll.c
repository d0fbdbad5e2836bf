/*
 * syscalls_tty_poll: poll, select and epoll on the console, woken by
 * typed input. The wake-up comes from the serial interrupt, the one path
 * where a wake-up can land between a poller's test and its sleep.
 *
 * Run as init (init=/tests/syscalls_tty_poll init_exit=poweroff) by
 * tests/syscalls.list, which types a line each time the program prints
 * "TYPE NOW". Anywhere else (pid not 1, or stdin not a terminal: the
 * host's make check) every check is skipped, since nobody would type.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <termios.h>
#include <unistd.h>
#include "tap.h"

#define CHECKS 9

/* Read one typed line (canonical mode gives it whole). */
static int read_line(char *buf, size_t size)
{
	ssize_t n = read(0, buf, size - 1);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static void test_poll(void)
{
	struct pollfd p = { 0, POLLIN, 0 };
	char line[64];

	is_int(poll(&p, 1, 0), 0, "poll: no input yet");
	p.events = POLLOUT;
	ok(poll(&p, 1, 0) == 1 && p.revents == POLLOUT,
	   "the console is always writable");
	p.events = POLLIN;
	tap_printf("# TYPE NOW\n");
	ok(poll(&p, 1, 20000) == 1 && p.revents == POLLIN,
	   "poll wakes when a line is typed");
	ok(!read_line(line, sizeof(line)) && !strcmp(line, "first\n"),
	   "and the line is there to read");
}

static void test_select(void)
{
	struct timeval tv = { 20, 0 };
	char line[64];
	fd_set rd;

	FD_ZERO(&rd);
	FD_SET(0, &rd);
	tap_printf("# TYPE NOW\n");
	ok(select(1, &rd, NULL, NULL, &tv) == 1 && FD_ISSET(0, &rd),
	   "select wakes on typed input");
	ok(!read_line(line, sizeof(line)) && !strcmp(line, "second\n"),
	   "with the line");
}

static void test_epoll(void)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = 77 };
	int ep = epoll_create1(0);
	char line[64];

	is_int(epoll_ctl(ep, EPOLL_CTL_ADD, 0, &ev), 0, "epoll takes the console");
	tap_printf("# TYPE NOW\n");
	ok(epoll_wait(ep, &ev, 1, 20000) == 1 && ev.data.u32 == 77,
	   "epoll_wait wakes on typed input");
	ok(!read_line(line, sizeof(line)) && !strcmp(line, "third\n"),
	   "with the line");
	close(ep);
}

int main(void)
{
	plan(CHECKS);
	if (getpid() != 1 || !isatty(0)) {
		for (int i = 0; i < CHECKS; i++)
			skip("not init on a terminal: nobody types", "check %d",
			     i + 1);
		return done_testing();
	}
	tcflush(0, TCIFLUSH);
	test_poll();
	test_select();
	test_epoll();
	return done_testing();
}
