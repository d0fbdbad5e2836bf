/*
 * hang_in_kernel - a fixture, not a test: it hangs on purpose, in the
 * kernel, in an uninterruptible sleep, so that the harness's handling of
 * a hang can be tested (tests/fixtures/hang.list, run by
 * tests/harness.list): the hung-task report, the task dump (sysrq t) the
 * harness asks for when it gives up, the kernel lines pagelab-run held
 * back, all in the FAIL line, the log and the grade files.
 *
 * How it hangs, with pagelab's delay points (/proc/fail/delay): a child
 * maps a file and reads it; its page fault locks the page and is held at
 * fault_page_locked for a minute (an interruptible sleep: state S, wait
 * channel __fail_delay). The parent then truncates the file; the truncate
 * must lock that page to drop it, and waits for the child's lock in
 * lock_page: state D, wait channel the truncate's own function, for as
 * long as the child is held. Nothing ends it before the harness's timeout.
 *
 * Without /proc/fail/delay (the host Linux, where userland's check target
 * runs every program here) there is no way to hang: it says so and exits
 * 0 at once.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "procfs.h"

#define PAGE 4096L
#define HOLD_MS 60000	/* the most /proc/fail/delay takes */

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static void child_faults(int fd)
{
	volatile char *p = mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		_exit(2);
	(void)p[0];	/* held at fault_page_locked, the page locked */
	_exit(0);
}

int main(void)
{
	static char buf[2 * PAGE];
	int fd, i;
	pid_t pid;

	if (access("/proc/fail/delay", W_OK)) {
		printf("1..0 # SKIP no /proc/fail/delay: nothing to hang on\n");
		return 0;
	}
	fd = open("hang", O_CREAT | O_RDWR | O_TRUNC, 0644);
	memset(buf, 'h', sizeof(buf));
	if (fd < 0 || write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf) ||
	    fail_delay("fault_page_locked", HOLD_MS, 1)) {
		printf("Bail out! cannot set up the file or the delay\n");
		return 1;
	}
	pid = fork();
	if (pid == 0)
		child_faults(fd);
	for (i = 0; i < 5000 && fail_delay_taken("fault_page_locked") != 1; i++)
		sleep_ms(2);
	printf("# child %d holds the page lock; truncating: this hangs\n", pid);
	fflush(stdout);
	ftruncate(fd, 0);	/* lock_page waits for the child: state D */
	printf("# the truncate returned: no hang\n");
	waitpid(pid, NULL, 0);
	return 1;
}
