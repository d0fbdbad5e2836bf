/*
 * truncate_fault_race - a page fault racing with a truncate that shrinks
 * the file under it, with the race window held open by pagelab's delay
 * points (/proc/fail/delay), so that it happens on every run.
 *
 * A child maps a 3-page file (MAP_SHARED, read-only) and reads its last
 * page while the parent cuts the file to 100 bytes. Whatever the order,
 * once ftruncate has returned that page is past EOF: a read of it must be
 * SIGBUS, never the old bytes still sitting in a page the file no longer
 * has.
 *
 *   truncate_fault_race         both races below
 *   truncate_fault_race lock    only 1 (truncate_pagecache's own order)
 *   truncate_fault_race late    only 2 (where i_size is written)
 *
 * Roadmap:
 *   1. the fault holds the page lock across the truncate: the child's
 *      fault is held at fault_page_locked (it found the page inside the
 *      old i_size and locked it, its PTE not yet set) while the parent
 *      truncates; the parent's truncate_inode_pages waits for the lock,
 *      the child's PTE is set, the page dropped. Only the unmap *after*
 *      truncate_inode_pages (truncate_pagecache's second one) can remove
 *      that PTE: the child's next read must be SIGBUS.
 *   2. the fault begins after the page cache was cut: the parent is held
 *      at truncate_pages_dropped (pages gone, second unmap not yet run),
 *      then the child reads the page, its fault held at fault_page_locked
 *      should it get that far. With i_size already the new size (written
 *      before truncate_pagecache) the fault is SIGBUS at once; written
 *      only after, the fault finds the old size, reads the page back in
 *      and maps it after the last unmap: the child keeps it.
 * Without /proc/fail/delay (the host) the same runs happen unforced (in
 * 2 the child reads only after the truncate): the verdicts after the
 * truncate still hold; the checks that the window was held are skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fault.h"
#include "tap.h"
#include "procfs.h"

#define PAGE 4096L
#define NPAGES 3
#define CUT 100
#define HOLD_MS 2000
#define LAST (2 * PAGE)	/* the offset of the page that goes */

/* What the child saw, in a MAP_SHARED|MAP_ANONYMOUS page. */
struct shared {
	volatile int ready, armed, held, truncated, done;
	volatile int first_signo, second_signo;
	volatile char first, second;
};

static int have_delay;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Wait (up to 30 s, polling) until a task has entered the window armed
 * at point (it is held there for HOLD_MS from then); give up at once
 * when *stop (if given) says the task is past the point (a truncate that
 * failed before it, as a stub does). */
static int delay_wait_taken(const char *point, volatile int *stop)
{
	for (int i = 0; i < 30000 / 2; i++) {
		if (fail_delay_taken(point) == 1)
			return 1;
		if (stop && *stop)
			return 0;
		sleep_ms(2);
	}
	return 0;
}

/* Wait (up to 60 s, polling) until *flag is set. */
static int wait_flag(volatile int *flag)
{
	for (int i = 0; i < 60000 / 5; i++) {
		if (*flag)
			return 1;
		sleep_ms(5);
	}
	return 0;
}

/* A read of p that may fault: the byte, and the signal (0: none). */
static char read_byte(volatile char *p, volatile int *signo)
{
	struct fault f;
	int byte;

	/* One access (probe_load_byte): a second read could race a cut. */
	if (probe_load_byte((void *)p, &f, &byte)) {
		*signo = f.signo;
		return 0;
	}
	*signo = 0;
	return byte;
}

static int make_file(void)
{
	static char buf[NPAGES * PAGE];
	int fd = open("race", O_CREAT | O_RDWR | O_TRUNC, 0644);

	memset(buf, 'r', sizeof(buf));
	if (fd < 0 || pwrite(fd, buf, sizeof(buf), 0) != (ssize_t)sizeof(buf))
		return -1;
	fsync(fd);
	return fd;
}

/* ---- 1. the fault holds the page lock across the truncate ---------------- */

static void child_holds_lock(struct shared *s, int fd)
{
	volatile char *p = mmap(NULL, NPAGES * PAGE, PROT_READ, MAP_SHARED,
				fd, 0);

	if (p == MAP_FAILED)
		_exit(2);
	/* Held at fault_page_locked with the page locked, PTE not set. */
	if (have_delay)
		fail_delay("fault_page_locked", HOLD_MS, 1);
	s->ready = 1;
	s->first = read_byte(p + LAST, &s->first_signo);
	if (!wait_flag(&s->truncated))
		_exit(3);
	s->second = read_byte(p + LAST, &s->second_signo);
	s->done = 1;
	_exit(0);
}

static void fault_holds_lock(struct shared *s)
{
	int fd = make_file(), held = 0, status;
	pid_t pid;

	memset((void *)s, 0, sizeof(*s));
	pid = fork();
	if (pid == 0)
		child_holds_lock(s, fd);
	wait_flag(&s->ready);
	if (have_delay)
		held = delay_wait_taken("fault_page_locked", NULL);
	is_long(ftruncate(fd, CUT), 0, "1: the parent cuts the file to %d "
				       "bytes during the child's fault", CUT);
	s->truncated = 1;
	waitpid(pid, &status, 0);
	if (have_delay) {
		ok(held, "1: the child's fault was held at fault_page_locked, "
			 "page locked, while the truncate ran");
		fail_delay("fault_page_locked", 0, 1);
	} else {
		skip("no /proc/fail/delay", "1: the child's fault was held");
	}
	ok(s->done, "1: the child ran to the end (status 0x%x)", status);
	diag("1: the child's read during the truncate: %s", s->first_signo ?
	     strsignal(s->first_signo) : "the old byte");
	ok(s->second_signo == SIGBUS,
	   "1: after the truncate the page past EOF is SIGBUS for the child%s",
	   s->second_signo == SIGBUS ? "" : s->second_signo ? " (another "
	   "signal)" : " (it read the old byte: its PTE survived the "
	   "truncate; truncate_pagecache must unmap again after "
	   "truncate_inode_pages)");
	close(fd);
	unlink("race");
}

/* ---- 2. the fault begins after the page cache was cut -------------------- */

static void child_faults_late(struct shared *s, int fd)
{
	volatile char *p = mmap(NULL, NPAGES * PAGE, PROT_READ, MAP_SHARED,
				fd, 0);

	if (p == MAP_FAILED)
		_exit(2);
	s->ready = 1;
	/* The parent is held between the page cache cut and the last
	 * unmap: fault now, held in turn should the fault get that far. */
	if (have_delay) {
		if (!wait_flag(&s->armed))
			_exit(3);
		s->held = delay_wait_taken("truncate_pages_dropped", &s->done);
		fail_delay("fault_page_locked", HOLD_MS, 1);
	} else if (!wait_flag(&s->done)) {	/* unforced: after it */
		_exit(4);
	}
	s->first = read_byte(p + LAST, &s->first_signo);
	if (have_delay)
		fail_delay("fault_page_locked", 0, 1);
	if (!wait_flag(&s->done))	/* the parent's truncate returned */
		_exit(4);
	s->second = read_byte(p + LAST, &s->second_signo);
	_exit(0);
}

static void fault_after_cut(struct shared *s)
{
	int fd = make_file(), status, r;
	pid_t pid;

	memset((void *)s, 0, sizeof(*s));
	pid = fork();
	if (pid == 0)
		child_faults_late(s, fd);
	wait_flag(&s->ready);
	if (have_delay)
		fail_delay("truncate_pages_dropped", HOLD_MS, 1);
	s->armed = 1;
	r = ftruncate(fd, CUT);
	s->done = 1;
	waitpid(pid, &status, 0);
	is_long(r, 0, "2: the parent cuts the file to %d bytes", CUT);
	if (have_delay) {
		ok(s->held, "2: the parent was held at "
				      "truncate_pages_dropped while the child "
				      "faulted");
		fail_delay("truncate_pages_dropped", 0, 1);
	} else {
		skip("no /proc/fail/delay", "2: the parent was held");
	}
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "2: the child ran to the end (status 0x%x)", status);
	ok(s->first_signo == SIGBUS,
	   "2: a fault that began after the page cache was cut is SIGBUS%s",
	   s->first_signo == SIGBUS ? "" : s->first_signo ? " (another "
	   "signal)" : " (it read the old byte: the fault found the old "
	   "i_size; i_size must be written before truncate_pagecache)");
	ok(s->second_signo == SIGBUS,
	   "2: and after the truncate returned, still SIGBUS%s",
	   s->second_signo == SIGBUS ? "" : s->second_signo ? " (another "
	   "signal)" : " (it read the old byte: a page past EOF is still "
	   "mapped)");
	close(fd);
	unlink("race");
}

/*
 * An armed point holds the next task that passes it, whoever it is: a
 * fault on a page of this program's text or data not touched yet would
 * be held instead of the child's. Run every path once first (fork copies
 * the PTEs of what is touched).
 */
static void warm_up(struct shared *s)
{
	int fd = make_file(), sig;
	volatile char *p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);

	if (p != MAP_FAILED) {
		read_byte(p, &sig);
		munmap((void *)p, PAGE);
	}
	s->done = 1;
	wait_flag(&s->done);
	sleep_ms(1);
	if (have_delay) {
		fail_delay("fault_page_locked", 0, 1);
		fail_delay_taken("fault_page_locked");
		delay_wait_taken("fault_page_locked", NULL);
	}
	close(fd);
	unlink("race");
}

int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : "";
	struct shared *s = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	alarm(120);
	fault_install();
	have_delay = access("/proc/fail/delay", W_OK) == 0;
	if (!have_delay)
		diag("no /proc/fail/delay: the races run unforced");
	warm_up(s);
	if (strcmp(only, "late"))
		fault_holds_lock(s);
	if (strcmp(only, "lock"))
		fault_after_cut(s);
	return done_testing();
}
