/*
 * lock_stat: /proc/lock_stat says where CPUs waited for spinlocks
 * (kernel/locking/lock_stat.c).
 *
 * - Two processes, pinned to CPUs 0 and 1, each call sched_yield and
 *   pread one cached byte of one file in a loop (the run queue's lock and
 *   the file's page-cache lock, taken by both CPUs at once) until the
 *   table shows a wait, for at most 60 s: the first line names a function
 *   (name+0xOFF/0xSIZE) and its caller, with at least one wait.
 * - Writing "0" empties it: that line's count goes down (to none, unless
 *   the idle machine waited there again meanwhile); writing anything
 *   else is EINVAL.
 * Needs two CPUs. Not pagelab (Linux has the file only with
 * CONFIG_LOCK_STAT, in another format): skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "tap.h"

#define PROC "/proc/lock_stat"

/* The first entry line: waits into *waits, the rest of the line into
 * where (function, caller, lock). 0 when the table is empty. */
static int first_entry(unsigned long long *waits, char *where, size_t size)
{
	FILE *f = fopen(PROC, "r");
	char line[512];
	int found = 0, n = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long long tot, max;
		int off;

		if (n++ < 2)
			continue;	/* the two header lines */
		if (sscanf(line, "%llu %llu %llu %n", waits, &tot, &max,
			   &off) == 3) {
			snprintf(where, size, "%s", line + off);
			where[strcspn(where, "\n")] = 0;
			found = 1;
		}
	}
	fclose(f);
	return found;
}

static int write_proc(const char *s)
{
	int fd = open(PROC, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n < 0 ? -errno : 0;
}

static void pin(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		perror("lock_stat: sched_setaffinity");
		_exit(2);
	}
}

/* Until killed: yield, and read the file's first byte. */
static void hammer(int cpu, int fd)
{
	char c;

	pin(cpu);
	for (;;) {
		sched_yield();
		if (pread(fd, &c, 1, 0) != 1)
			_exit(3);
	}
}

int main(void)
{
	unsigned long long waits = 0, after = 0;
	char where[400] = "", where2[400] = "";
	pid_t kids[2];
	int fd, seen = 0;
	time_t end;

	if (access(PROC, F_OK)) {
		skip("not pagelab: no " PROC, "waits listed");
		return done_testing();
	}
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		skip("one CPU: nobody to wait for", "waits listed");
		return done_testing();
	}
	fd = open("lock_stat.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, "x", 1) != 1) {
		perror("lock_stat: lock_stat.dat");
		return 2;
	}
	is_int(write_proc("0"), 0, "writing 0 empties " PROC);
	for (int i = 0; i < 2; i++)
		if ((kids[i] = fork()) == 0)
			hammer(i, fd);
	end = time(NULL) + 60;
	while (!(seen = first_entry(&waits, where, sizeof(where))) &&
	       time(NULL) < end)
		usleep(100000);
	for (int i = 0; i < 2; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
	}
	close(fd);
	unlink("lock_stat.dat");
	ok(seen && waits >= 1, "two CPUs taking the same locks: a wait is "
	   "listed (%llu)", waits);
	diag("first line: %s", where);
	ok(strstr(where, "+0x") && strchr(where, '/') &&
	   strstr(strstr(where, "+0x") + 3, "+0x"),
	   "it names the function that waited and its caller, as name+off");
	is_int(write_proc("0"), 0, "writing 0 again");
	if (first_entry(&after, where2, sizeof(where2)) &&
	    !strcmp(where, where2))
		ok(after < waits, "the count went down (%llu -> %llu)", waits,
		   after);
	else
		ok(1, "that line is gone");
	is_int(write_proc("yes"), -EINVAL, "writing anything else: EINVAL");
	return done_testing();
}
