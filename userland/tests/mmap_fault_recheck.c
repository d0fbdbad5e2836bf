/*
 * mmap_fault_recheck - a page fault that found its page before a truncate
 * and locks it after: the fault must look again under the page lock (is
 * the page still the file's? is its offset still inside i_size?), as
 * filemap_fault does (lab race). The window between finding the page and
 * locking it is held open with pagelab's fault_page_found delay point
 * (/proc/fail/delay), so the race happens on every run.
 *
 * Each case maps a 3-page file of 'r' bytes (MAP_SHARED, read-write) and
 * reads its last page (LAST) in a child, whose fault is held after it
 * found the page:
 *   1. shrunk: meanwhile the parent cuts the file to CUT bytes (the page
 *      leaves the page cache). The read must be SIGBUS, and so must a
 *      store afterwards. (Mapping the page that left the file would show
 *      bytes the file no longer has; a store to it then faults forever,
 *      which the kernel reports as "BUG: page fault on a page truncated
 *      from the file is still mapped".)
 *   2. regrown: the parent cuts the file and writes the last page again
 *      ('n' bytes): the file is as long as before, but its page is a new
 *      one. The read must see 'n' (the fault starts over), neither the
 *      old 'r' nor SIGBUS; a store that follows must reach the file.
 *   3. size first: a second child cuts the file, held just after it wrote
 *      the new i_size (isize_set), before the page cache is cut: when the
 *      fault locks the page it is still in the cache, but past EOF. The
 *      read must be SIGBUS (i_size is checked again under the page lock).
 *   4. the same, cut to LAST, where the page begins: EOF on a page
 *      boundary, the page wholly past it: SIGBUS again;
 *   5. the same, cut to LAST + CUT, inside the page: the page still holds
 *      the file's last bytes, so the read sees 'r', no SIGBUS, and a store
 *      reaches the file (a page count rounded down would refuse it).
 * After each case the parent reads the file with pread and fstat: its
 * bytes and size are the truncate's, never the old page's.
 *
 * Without /proc/fail/delay (the host) the same cases run unforced: the
 * child reads only after the truncate returned. The verdicts on what the
 * child read and what the file holds are the same; the checks that the
 * windows were held are skipped.
 *
 * An armed point holds the next task that passes it: every page of this
 * program is faulted in first (prefault_image), so that the next fault
 * of a file page is the child's read and nothing else.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
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
#define LAST (2 * PAGE)		/* the offset of the page that goes */
#define HOLD_MS 1000		/* the fault's window */
#define SIZE_HOLD_MS 2000	/* case 3: the truncate's, longer */
#define FILE_NAME "recheck.dat"

/* What the children saw, in a MAP_SHARED|MAP_ANONYMOUS page. */
struct shared {
	volatile int ready, go, truncated, read_done, store_checked;
	volatile int taken;		/* case 3: the cutter was held */
	volatile int cutter_done;	/* case 3: its ftruncate returned */
	volatile int cutter_done_at_read;
	volatile int read_signo, store_signo;
	volatile char read;
	volatile long cut_rc;
};

static int have_delay;

extern char __executable_start[], end[];

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Wait (up to 60 s, polling) until *flag is set. */
static int wait_flag(volatile int *flag)
{
	for (int i = 0; i < 60000 / 2; i++) {
		if (*flag)
			return 1;
		sleep_ms(2);
	}
	return 0;
}

/* Wait (up to 30 s) until a task has entered the window armed at point. */
static int delay_wait_taken(const char *point)
{
	for (int i = 0; i < 30000 / 2; i++) {
		if (fail_delay_taken(point) == 1)
			return 1;
		sleep_ms(2);
	}
	return 0;
}

/* A load of p that may fault: the byte, and the signal (0: none). */
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

/* A store of 'Z' (fault.h's probe_store) that may fault: the signal. */
static int store_byte(volatile char *p)
{
	struct fault f;

	return probe_store((void *)p, &f) ? f.signo : 0;
}

/* Every page of the program's image mapped now (a gap between segments
 * just faults, and the probe catches it). */
static void prefault_image(void)
{
	uintptr_t a = (uintptr_t)__executable_start & ~(uintptr_t)(PAGE - 1);
	struct fault f;

	for (; a < (uintptr_t)end; a += PAGE)
		probe_load((void *)a, &f);
}

static int make_file(void)
{
	static char buf[NPAGES * PAGE];
	int fd = open(FILE_NAME, O_CREAT | O_RDWR | O_TRUNC, 0644);

	memset(buf, 'r', sizeof(buf));
	if (fd < 0 || pwrite(fd, buf, sizeof(buf), 0) != (ssize_t)sizeof(buf))
		return -1;
	fsync(fd);
	return fd;
}

static const char *what(int signo, char c)
{
	static char buf[32];

	if (signo)
		return strsignal(signo);
	if (!c)
		return "a zero byte";
	snprintf(buf, sizeof(buf), "the byte '%c'", c);
	return buf;
}

/*
 * Pages in use that nothing accounts for (/proc/pagecheck's "other"),
 * after sync and with the caches dropped: a page the fault kept a
 * reference to after it left the page cache stays there for good.
 * -1 where there is no /proc/pagecheck (the host).
 */
static long pages_unaccounted(void)
{
	sync();
	drop_caches_mode("3\n");
	return proc_value("/proc/pagecheck", "other");
}

/* ---- the child that faults ----------------------------------------------- */

enum race_case { SHRUNK = 1, REGROWN, SIZE_FIRST, SIZE_ALIGNED, SIZE_PARTIAL };

/* The size a case cuts the file to, and whether its last page is still
 * (in part) inside the file. */
static long cut_of(enum race_case c)
{
	return c == SIZE_ALIGNED ? LAST : c == SIZE_PARTIAL ? LAST + CUT : CUT;
}

static int sized(enum race_case c)
{
	return c == SIZE_FIRST || c == SIZE_ALIGNED || c == SIZE_PARTIAL;
}

/* Does the last page stay readable (a page of the file after the race)? */
static int last_page_stays(enum race_case c)
{
	return c == REGROWN || c == SIZE_PARTIAL;
}

/*
 * Map the file, arm the window (pagelab), read LAST: held after the page
 * was found. Unforced (the host), read only once the truncate is done.
 * Then store, once the parent has looked at the file.
 */
static void faulter(struct shared *s, int fd, enum race_case c)
{
	volatile char *p = mmap(NULL, NPAGES * PAGE, PROT_READ | PROT_WRITE,
				MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		_exit(2);
	if (have_delay)
		fail_delay("fault_page_found", HOLD_MS, 1);
	s->ready = 1;
	if (!have_delay &&
	    !wait_flag(sized(c) ? &s->cutter_done : &s->truncated))
		_exit(3);
	s->read = read_byte(p + LAST, &s->read_signo);
	s->cutter_done_at_read = s->cutter_done;
	s->read_done = 1;
	if (!wait_flag(&s->store_checked))
		_exit(4);
	s->store_signo = store_byte(p + LAST + 1);
	if (!s->store_signo && msync((void *)p, NPAGES * PAGE, MS_SYNC))
		_exit(5);
	_exit(0);
}

/* Case 3's second child: cut the file, held just after i_size moved. */
static void cutter(struct shared *s, int fd, long cut)
{
	if (!wait_flag(&s->go))
		_exit(3);
	s->cut_rc = ftruncate(fd, cut);
	s->cutter_done = 1;
	_exit(0);
}

static int reap(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* ---- the cases ------------------------------------------------------------ */

static void run_case(struct shared *s, enum race_case c, const char *tag)
{
	int fd = make_file(), held = 0, inside = 0;
	long cut = cut_of(c);
	pid_t pid, cut_pid = -1;
	char byte = 0;
	struct stat st;

	memset((void *)s, 0, sizeof(*s));
	if (fd < 0) {
		ok(0, "%s: make the file (%s)", tag, strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0)
		faulter(s, fd, c);
	if (sized(c)) {
		cut_pid = fork();
		if (cut_pid == 0)
			cutter(s, fd, cut);
	}
	wait_flag(&s->ready);
	if (have_delay)
		held = delay_wait_taken("fault_page_found");
	if (sized(c)) {
		if (have_delay)
			fail_delay("isize_set", SIZE_HOLD_MS, 1);
		s->go = 1;
		if (have_delay)
			s->taken = delay_wait_taken("isize_set");
		/* The cutter is held with the new i_size written: the fault
		 * must not have gone on yet. */
		inside = s->taken && !s->read_done;
		wait_flag(&s->cutter_done);
		is_long(s->cut_rc, 0, "%s: a second child cuts the file to "
		       "%ld bytes during the fault", tag, cut);
	} else {
		is_long(ftruncate(fd, cut), 0, "%s: the parent cuts the file "
			"to %ld bytes during the fault", tag, cut);
		if (c == REGROWN) {
			static char page[PAGE];

			memset(page, 'n', sizeof(page));
			is_long(pwrite(fd, page, PAGE, LAST), PAGE, "%s: and "
				"writes the last page again, 'n' bytes", tag);
		}
		inside = !s->read_done;
		s->truncated = 1;
	}
	wait_flag(&s->read_done);
	if (have_delay) {
		ok(held, "%s: the child's fault was held after it found the "
		   "page (fault_page_found)", tag);
		if (sized(c))
			ok(inside && !s->cutter_done_at_read, "%s: the fault "
			   "went on while the cutter was held with the new "
			   "i_size, before the page cache was cut", tag);
		else
			ok(inside, "%s: the truncate returned inside that "
			   "window", tag);
		fail_delay("fault_page_found", 0, 1);
		fail_delay("isize_set", 0, 1);
	} else {
		skip("no /proc/fail/delay", "%s: the fault was held", tag);
		skip("no /proc/fail/delay", "%s: inside the window", tag);
	}
	if (c == REGROWN)
		ok(!s->read_signo && s->read == 'n', "%s: the fault found the "
		   "page gone from the file and started over: it reads 'n' "
		   "(got %s)", tag, what(s->read_signo, s->read));
	else if (c == SIZE_PARTIAL)
		ok(!s->read_signo && s->read == 'r', "%s: the page still holds "
		   "the file's last %d bytes: the read reads 'r' (got %s)",
		   tag, CUT, what(s->read_signo, s->read));
	else
		ok(s->read_signo == SIGBUS, "%s: the read of the page now past "
		   "EOF is SIGBUS (got %s)", tag,
		   what(s->read_signo, s->read));
	/* The file, through read(2), before the child stores. */
	fstat(fd, &st);
	if (c == REGROWN) {
		is_long(st.st_size, NPAGES * PAGE, "%s: the file is %ld bytes "
			"again", tag, NPAGES * PAGE);
		ok(pread(fd, &byte, 1, LAST) == 1 && byte == 'n', "%s: pread "
		   "of the last page reads 'n', not the old 'r'", tag);
	} else if (c == SIZE_PARTIAL) {
		is_long(st.st_size, cut, "%s: the file is %ld bytes", tag, cut);
		ok(pread(fd, &byte, 1, LAST) == 1 && byte == 'r', "%s: pread "
		   "of the last page reads 'r'", tag);
	} else {
		is_long(st.st_size, cut, "%s: the file is %ld bytes", tag, cut);
		is_long(pread(fd, &byte, 1, LAST), 0, "%s: pread past EOF "
			"reads nothing", tag);
	}
	s->store_checked = 1;
	ok(reap(pid), "%s: the faulting child stored and exited", tag);
	if (cut_pid > 0)
		ok(reap(cut_pid), "%s: the cutting child exited", tag);
	if (last_page_stays(c)) {
		ssize_t n;

		ok(!s->store_signo, "%s: a store to the last page succeeds "
		   "(got %s)", tag, s->store_signo ?
		   strsignal(s->store_signo) : "no signal");
		byte = 0;
		n = pread(fd, &byte, 1, LAST + 1);
		ok(n == 1 && byte == 'Z', "%s: the store reached the file "
		   "(pread reads %s)", tag, what(0, byte));
	} else {
		ok(s->store_signo == SIGBUS, "%s: a store to the page past EOF "
		   "is SIGBUS (got %s)", tag, s->store_signo ?
		   strsignal(s->store_signo) : "no signal");
	}
	close(fd);
	unlink(FILE_NAME);
}

/*
 * Run every path of the program once with the windows disarmed, so that
 * the armed runs fault on no page of the program itself.
 */
static void warm_up(struct shared *s)
{
	int fd = make_file(), sig;
	volatile char *p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	struct stat st;
	char c;

	prefault_image();
	if (p != MAP_FAILED) {
		read_byte(p, &sig);
		munmap((void *)p, PAGE);
	}
	s->ready = 1;
	wait_flag(&s->ready);
	sleep_ms(1);
	fstat(fd, &st);
	if (pread(fd, &c, 1, 0) < 0)
		diag("warm-up pread: %s", strerror(errno));
	what(0, 'x');
	pages_unaccounted();
	if (have_delay) {
		fail_delay("fault_page_found", 0, 1);
		fail_delay_taken("fault_page_found");
		delay_wait_taken("fault_page_found");
	}
	close(fd);
	unlink(FILE_NAME);
}

int main(void)
{
	long before, after, seq;
	struct shared *s = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (s == MAP_FAILED)
		return 1;
	alarm(120);
	fault_install();
	have_delay = access("/proc/fail/delay", W_OK) == 0;
	if (!have_delay)
		diag("no /proc/fail/delay: the races run unforced");
	memset((void *)s, 0, sizeof(*s));
	warm_up(s);
	before = pages_unaccounted();
	seq = proc_value("/proc/pagecheck", "alloc_seq");
	run_case(s, SHRUNK, "shrunk");
	run_case(s, REGROWN, "regrown");
	run_case(s, SIZE_FIRST, "size first");
	run_case(s, SIZE_ALIGNED, "size first, EOF where the page begins");
	run_case(s, SIZE_PARTIAL, "size first, EOF inside the page");
	after = pages_unaccounted();
	if (before >= 0 && after >= 0) {
		if (!ok(after <= before, "no page is left held by nobody: %ld "
			"unaccounted before the cases, %ld after", before,
			after))
			page_owner_diag("other", seq);	/* where they came from */
	} else
		skip("no /proc/pagecheck", "no page is left held by nobody");
	return done_testing();
}
