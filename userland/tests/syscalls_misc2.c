/*
 * syscalls_misc2: the system calls stress-ng makes that pagelab once
 * answered with ENOSYS, each with its successes and its errors:
 *
 *   getcpu           CPU and node, NULL pointers, EFAULT; sched_getcpu
 *   mlock family     mlock, mlock2, munlock, mlockall, munlockall: the
 *                    range rounded to pages, pages made resident (seen
 *                    with mincore), MLOCK_ONFAULT and MCL_ONFAULT leaving
 *                    them alone, ENOMEM for holes, PROT_NONE and pages
 *                    past the end of a file, EINVAL for bad flags;
 *                    RLIMIT_MEMLOCK for a non-root child (EPERM at 0,
 *                    ENOMEM past it, pages locked twice counted once,
 *                    locks not inherited by fork); VmLck when /proc is
 *                    there
 *   capget, capset   the version handshake, root's sets against
 *                    /proc/self/status (or all 41 capabilities when it is
 *                    not there), none for others, what capset accepts
 *   vhangup          EPERM for non-root, 0 for root without a terminal
 *   syncfs           on a file, a directory and a pipe; EBADF
 *   close_range      closing, CLOSE_RANGE_CLOEXEC, CLOSE_RANGE_UNSHARE,
 *                    EINVAL
 *   fallocate        every argument check in Linux's order; the file
 *                    system's answer is 0 or EOPNOTSUPP (ext2 has no
 *                    fallocate; ext4 and tmpfs do), printed as a diag
 *
 * What changes the process for good (a capset that drops, a setuid)
 * happens in a child, which reports through a shared page. The same
 * verdicts on Linux, as root or not (root-only checks are skipped).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"

#define PG 4096L
#define CAP_V1 0x19980330
#define CAP_V3 0x20080522
#define CLOSE_RANGE_UNSHARE (1U << 1)
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 1
#endif
#ifndef MCL_ONFAULT
#define MCL_ONFAULT 4
#endif
#define FL_KEEP_SIZE 0x01
#define FL_PUNCH_HOLE 0x02
#define FL_COLLAPSE_RANGE 0x08
#define FL_ZERO_RANGE 0x10
#define FL_INSERT_RANGE 0x20
#define FL_UNSHARE_RANGE 0x40
#define FL_UNKNOWN 0x200	/* 0x80 is WRITE_ZEROES since Linux 6.17 */

struct cap_header {
	uint32_t version;
	int pid;
};

struct cap_data {
	uint32_t effective, permitted, inheritable;
};

/* What a child did, for the parent to report: return value and errno. */
static struct {
	long ret[32];
	int err[32];
} *rep;

static void rec(int i, long ret)
{
	rep->ret[i] = ret;
	rep->err[i] = ret == -1 ? errno : 0;
}

static void child_ok(int i, const char *desc)
{
	char why[64];

	snprintf(why, sizeof(why), "got %ld/%s", rep->ret[i],
		 tap_errname(rep->err[i]));
	tap_ok(rep->ret[i] == 0, why, "%s", desc);
}

static void child_errno(int i, int want, const char *desc)
{
	errno = rep->err[i];
	is_errno(rep->ret[i], want, "%s", desc);
}

/* Run fn in a child; its status (0 when it ran to the end). */
static int in_child(void (*fn)(void))
{
	int status;
	pid_t pid;

	memset(rep, 0x55, sizeof(*rep));
	pid = fork();
	if (pid == 0) {
		fn();
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

static long sys_getcpu(void *cpu, void *node)
{
	return syscall(SYS_getcpu, cpu, node, NULL);
}

static long sys_capget(struct cap_header *h, struct cap_data *d)
{
	return syscall(SYS_capget, h, d);
}

static long sys_capset(struct cap_header *h, struct cap_data *d)
{
	return syscall(SYS_capset, h, d);
}

static long sys_mlock2(void *a, size_t len, int flags)
{
	return syscall(SYS_mlock2, a, len, flags);
}

static long sys_close_range(unsigned int first, unsigned int last,
			unsigned int flags)
{
	return syscall(SYS_close_range, first, last, flags);
}

/* ---- getcpu -------------------------------------------------------------- */

static void test_getcpu(void)
{
	unsigned int cpu = ~0U, node = ~0U;
	cpu_set_t set;

	CPU_ZERO(&set);
	sched_getaffinity(0, sizeof(set), &set);
	is_int(sys_getcpu(&cpu, &node), 0, "getcpu: cpu and node");
	ok(cpu < CPU_SETSIZE && CPU_ISSET(cpu, &set),
	   "getcpu: a CPU the process may run on (%u)", cpu);
	ok(node < 1024, "getcpu: a node number (%u)", node);
	is_int(sys_getcpu(NULL, NULL), 0, "getcpu: both pointers NULL");
	cpu = ~0U;
	is_int(sys_getcpu(&cpu, NULL), 0, "getcpu: node NULL");
	ok(cpu != ~0U, "getcpu: cpu written without node");
	is_errno(sys_getcpu((void *)1, NULL), EFAULT,
		 "getcpu: bad cpu pointer: EFAULT");
	is_errno(sys_getcpu(NULL, (void *)1), EFAULT,
		 "getcpu: bad node pointer: EFAULT");
	cpu = sched_getcpu();
	ok(cpu < CPU_SETSIZE && CPU_ISSET(cpu, &set),
	   "sched_getcpu: a CPU the process may run on (%d)", (int)cpu);
}

/* ---- mlock --------------------------------------------------------------- */

/* The residency of n pages at p as a string of 0 and 1. */
static const char *resident(void *p, int n)
{
	static char s[64];
	unsigned char v[64];

	if (mincore(p, n * PG, v))
		return "mincore failed";
	for (int i = 0; i < n; i++)
		s[i] = '0' + (v[i] & 1);
	s[n] = 0;
	return s;
}

/* VmLck of /proc/self/status in kB, or -1 without /proc. */
static long vmlck_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmLck:", 6))
			v = atol(line + 6);
	fclose(f);
	return v;
}

static void check_vmlck(long want_kb, const char *desc)
{
	long kb = vmlck_kb();

	if (kb < 0)
		skip("no /proc/self/status", "%s", desc);
	else
		is_long(kb, want_kb, "%s", desc);
}

static void test_mlock_ranges(void)
{
	char *p = mmap(NULL, 8 * PG, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *q = mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *none = mmap(NULL, 2 * PG, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	is_str(resident(p, 8), "00000000", "mlock: fresh memory not resident");
	is_int(mlock(p + 100, 3 * PG), 0,
	       "mlock: unaligned start, 3 pages' length");
	is_str(resident(p, 8), "11110000",
	       "mlock: start rounded down, length up: 4 pages resident");
	check_vmlck(16, "mlock: VmLck counts the 4 pages");
	is_int(mlock(p, 2 * PG), 0, "mlock: pages locked again");
	check_vmlck(16, "mlock: pages locked twice count once");
	is_int(sys_mlock2(p + 4 * PG, PG, MLOCK_ONFAULT), 0,
	       "mlock2 MLOCK_ONFAULT");
	is_str(resident(p, 8), "11110000",
	       "mlock2 MLOCK_ONFAULT leaves the page out");
	is_int(sys_mlock2(p + 5 * PG, PG, 0), 0, "mlock2 without flags");
	is_str(resident(p, 8), "11110100", "mlock2 without flags faults in");
	is_errno(sys_mlock2(p, PG, 2), EINVAL, "mlock2 unknown flag: EINVAL");
	is_int(munlock(p, 8 * PG), 0, "munlock the whole mapping");
	check_vmlck(0, "munlock: VmLck back to 0");
	is_int(munlock(p, 8 * PG), 0, "munlock what is not locked");
	is_int(mlock(p + 7 * PG, 0), 0, "mlock: length 0");

	munmap(q + PG, PG);
	is_errno(mlock(q, 3 * PG), ENOMEM, "mlock: a hole: ENOMEM");
	is_errno(munlock(q, 3 * PG), ENOMEM, "munlock: a hole: ENOMEM");
	is_errno(mlock(q + PG, 1), ENOMEM, "mlock: unmapped: ENOMEM");
	is_int(mlock(q + PG, 0), 0, "mlock: length 0 where nothing is mapped");
	is_errno(mlock(none, PG), ENOMEM, "mlock: PROT_NONE: ENOMEM");
	is_errno(mlock((void *)0x7ffffffff000UL, 2 * PG), ENOMEM,
		 "mlock: past the end of user space: ENOMEM");
	if (geteuid() == 0)
		is_errno(mlock((void *)0x7ffffffff000UL, -2 * PG), EINVAL,
			 "mlock: a range that wraps: EINVAL");
	else
		skip("not root", "mlock: a range that wraps: EINVAL");
	munlock(q, PG);
	munlock(none, 2 * PG);
	munmap(p, 8 * PG);
	munmap(q, 3 * PG);
	munmap(none, 2 * PG);
}

/* A shared mapping of a 1-byte file, two pages: the second is past EOF. */
static void test_mlock_file(void)
{
	int fd = open("syscalls_misc2.map", O_RDWR | O_CREAT | O_TRUNC, 0600);
	char *m;

	if (fd < 0 || write(fd, "x", 1) != 1) {
		ok(0, "create syscalls_misc2.map");
		return;
	}
	m = mmap(NULL, 2 * PG, PROT_READ, MAP_SHARED, fd, 0);
	ok(m != MAP_FAILED, "map a 1-byte file, two pages");
	is_int(mlock(m, PG), 0, "mlock: the file's page");
	is_str(resident(m, 1), "1", "mlock: the file's page is resident");
	is_errno(mlock(m, 2 * PG), ENOMEM,
		 "mlock: a page past the end of the file: ENOMEM");
	munlock(m, 2 * PG);
	munmap(m, 2 * PG);
	close(fd);
	unlink("syscalls_misc2.map");
}

static char *before;	/* mapped before mlockall, never touched */

static void mlockall_child(void)
{
	rec(0, mlockall(0));
	rec(1, mlockall(MCL_ONFAULT));
	rec(2, mlockall(8));
	rec(3, mlockall(MCL_CURRENT | MCL_ONFAULT));
	rec(4, !strcmp(resident(before, 2), "00") ? 0 : -2);
	rec(5, mlockall(MCL_CURRENT));
	rec(6, !strcmp(resident(before, 2), "11") ? 0 : -2);
	rec(7, munlockall());
	rec(8, munlock(before, 2 * PG));
}

static void test_mlockall(void)
{
	before = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	is_int(in_child(mlockall_child), 0, "mlockall: the child ran");
	child_errno(0, EINVAL, "mlockall(0): EINVAL");
	child_errno(1, EINVAL, "mlockall(MCL_ONFAULT) alone: EINVAL");
	child_errno(2, EINVAL, "mlockall unknown flag: EINVAL");
	child_ok(3, "mlockall(MCL_CURRENT | MCL_ONFAULT)");
	child_ok(4, "MCL_ONFAULT: untouched pages stay out");
	child_ok(5, "mlockall(MCL_CURRENT)");
	child_ok(6, "MCL_CURRENT: every page resident");
	child_ok(7, "munlockall");
	child_ok(8, "munlock after munlockall");
	munmap(before, 2 * PG);
}

/* Not root (or root no more), with RLIMIT_MEMLOCK set to limit. */
static int become_user(rlim_t limit)
{
	struct rlimit rl = { limit, limit };

	if (setrlimit(RLIMIT_MEMLOCK, &rl))
		return -1;
	if (geteuid() == 0 && setuid(65534))
		return -1;
	return 0;
}

static char *locked_before_fork;	/* locked by the parent */
static char *user_pages;

static void memlock_zero_child(void)
{
	if (become_user(0))
		_exit(1);
	rec(0, mlock(user_pages, PG));
	rec(1, sys_mlock2(user_pages, PG, MLOCK_ONFAULT));
	rec(2, mlockall(MCL_CURRENT));
	rec(3, mlockall(MCL_FUTURE));
	rec(4, munlock(user_pages, PG));
	rec(5, munlockall());
}

static void memlock_one_page_child(void)
{
	if (become_user(PG))
		_exit(1);
	rec(0, mlock(user_pages, PG));
	rec(1, mlock(user_pages, PG));
	rec(2, mlock(user_pages + PG, PG));
	rec(3, munlock(user_pages, PG));
	rec(4, mlock(user_pages + PG, PG));
	rec(5, mlockall(MCL_CURRENT));
	rec(6, mlock(user_pages, 2 * PG));
	rec(7, munlockall());
}

static void test_memlock_limit(void)
{
	user_pages = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	locked_before_fork = mmap(NULL, PG, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	is_int(mlock(locked_before_fork, PG), 0, "mlock a page, then fork");

	is_int(in_child(memlock_zero_child), 0,
	       "RLIMIT_MEMLOCK 0, not root: the child ran");
	child_errno(0, EPERM, "limit 0: mlock: EPERM");
	child_errno(1, EPERM, "limit 0: mlock2: EPERM");
	child_errno(2, EPERM, "limit 0: mlockall(MCL_CURRENT): EPERM");
	child_errno(3, EPERM, "limit 0: mlockall(MCL_FUTURE): EPERM");
	child_ok(4, "limit 0: munlock needs no permission");
	child_ok(5, "limit 0: munlockall needs no permission");

	is_int(in_child(memlock_one_page_child), 0,
	       "RLIMIT_MEMLOCK one page, not root: the child ran");
	child_ok(0, "one page: mlock one page (the parent's lock is not "
		    "inherited)");
	child_ok(1, "one page: the same page again");
	child_errno(2, ENOMEM, "one page: a second page: ENOMEM");
	child_ok(3, "one page: munlock");
	child_ok(4, "one page: now the second page");
	child_errno(5, ENOMEM, "one page: mlockall(MCL_CURRENT): ENOMEM");
	child_errno(6, ENOMEM, "one page: two pages at once: ENOMEM");
	child_ok(7, "one page: munlockall");
	munlock(locked_before_fork, PG);
	munmap(locked_before_fork, PG);
	munmap(user_pages, 2 * PG);
}

/* ---- capget, capset ------------------------------------------------------ */

/* CapEff or CapPrm of /proc/self/status; false without /proc. */
static bool status_caps(const char *field, uint64_t *caps)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	bool found = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, strlen(field))) {
			*caps = strtoull(line + strlen(field), NULL, 16);
			found = true;
		}
	fclose(f);
	return found;
}

static uint64_t caps64(const struct cap_data *d, int which)
{
	const uint32_t *w0 = &d[0].effective, *w1 = &d[1].effective;

	return w0[which] | (uint64_t)w1[which] << 32;
}

static void test_capget(void)
{
	struct cap_header h = { 0, 0 };
	struct cap_data d[2];
	uint64_t eff, prm, want;

	is_int(sys_capget(&h, NULL), 0, "capget: version 0, no data: 0");
	is_int(h.version, CAP_V3, "capget: the preferred version written back");
	h.version = 0x12345678;
	is_errno(sys_capget(&h, d), EINVAL, "capget: unknown version: EINVAL");
	is_int(h.version, CAP_V3, "capget: and the version written back");
	is_errno(sys_capget(NULL, d), EFAULT, "capget: bad header: EFAULT");
	h = (struct cap_header){ CAP_V3, -1 };
	is_errno(sys_capget(&h, d), EINVAL, "capget: pid -1: EINVAL");
	h = (struct cap_header){ CAP_V3, 0 };
	is_errno(sys_capget(&h, (void *)1), EFAULT, "capget: bad data: EFAULT");

	memset(d, 0xaa, sizeof(d));
	is_int(sys_capget(&h, d), 0, "capget: version 3, pid 0");
	eff = caps64(d, 0);
	prm = caps64(d, 1);
	is_long(caps64(d, 2), 0, "capget: inheritable set empty");
	ok(eff == prm, "capget: effective is permitted");
	if (geteuid() != 0) {
		is_long(eff, 0, "capget: none for a user");
	} else if (status_caps("CapEff:", &want)) {
		is_long(eff, want, "capget: root's are /proc's CapEff");
	} else {
		is_long(eff, (1ULL << 41) - 1,
			"capget: root holds all 41 capabilities");
	}
	h.pid = getpid();
	memset(d, 0, sizeof(d));
	sys_capget(&h, d);
	is_long(caps64(d, 0), eff, "capget: own pid is pid 0");

	h = (struct cap_header){ CAP_V1, 0 };
	memset(d, 0xaa, sizeof(d));
	is_int(sys_capget(&h, d), 0, "capget: version 1");
	is_int(d[0].effective, (uint32_t)eff, "capget: version 1, low word");
	is_int(d[1].effective, 0xaaaaaaaa,
	       "capget: version 1 writes one word only");
}

static pid_t reaped_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

static void capset_user_child(void)
{
	struct cap_header h = { CAP_V3, 0 };
	struct cap_data d[2];

	if (geteuid() == 0 && setuid(65534))
		_exit(1);
	memset(d, 0xff, sizeof(d));
	rec(0, sys_capget(&h, d));
	rec(1, caps64(d, 0) == 0 && caps64(d, 1) == 0 && caps64(d, 2) == 0
		       ? 0 : -2);
	rec(2, sys_capset(&h, d));
	d[0].effective = d[0].permitted = 1;	/* CAP_CHOWN */
	rec(3, sys_capset(&h, d));
	d[0].effective = d[0].permitted = 0;
	d[0].inheritable = 1;
	rec(4, sys_capset(&h, d));
	rec(5, syscall(SYS_vhangup));
}

/* Root's capset, in a child: on Linux what it drops is gone for good. */
static void capset_root_child(void)
{
	struct cap_header h = { CAP_V3, 0 };
	struct cap_data d[2];

	/* First, while CAP_SYS_TTY_CONFIG is still effective on Linux. */
	rec(6, setsid());
	rec(7, syscall(SYS_vhangup));	/* no terminal: nothing to hang */
	sys_capget(&h, d);
	rec(0, sys_capset(&h, d));
	d[0].effective = d[1].effective = 0;
	rec(1, sys_capset(&h, d));	/* effective smaller than permitted */
	d[0].inheritable = d[0].permitted;
	d[1].inheritable = d[1].permitted;
	rec(2, sys_capset(&h, d));	/* inheritable: root may */
	d[0].effective = d[0].permitted;
	d[0].permitted = 0;
	rec(3, sys_capset(&h, d));	/* effective beyond permitted */
	sys_capget(&h, d);
	d[0].permitted = d[0].effective = 0;
	rec(4, sys_capset(&h, d));	/* drop a word of permitted */
	/* Raising it back is EPERM on Linux; pagelab stores no sets, so
	 * it would accept it: not checked. */
}

static void test_capset(void)
{
	struct cap_header h = { 0x12345678, 0 };
	struct cap_data d[2];

	h.version = CAP_V3;
	sys_capget(&h, d);
	h.version = 0x12345678;
	is_errno(sys_capset(&h, d), EINVAL, "capset: unknown version: EINVAL");
	is_int(h.version, CAP_V3, "capset: the preferred version written back");
	h.pid = reaped_pid();
	h.version = 0x12345678;
	is_errno(sys_capget(&h, d), EINVAL,
		 "capget: unknown version is checked before the pid");
	h.version = CAP_V3;
	is_errno(sys_capget(&h, d), ESRCH, "capget: a pid that is gone: ESRCH");
	h.pid = getppid() > 1 ? getppid() : 1;
	if (h.pid == getpid())
		h.pid = reaped_pid();
	is_errno(sys_capset(&h, d), EPERM, "capset: another process: EPERM");
	is_errno(sys_capset(&h, NULL), EPERM,
		 "capset: another process, before reading data: EPERM");
	h.pid = 0;
	is_errno(sys_capset(&h, NULL), EFAULT, "capset: bad data: EFAULT");

	is_int(in_child(capset_user_child), 0, "not root: the child ran");
	child_ok(0, "not root: capget");
	child_ok(1, "not root: no capabilities at all");
	child_ok(2, "not root: capset of the empty sets");
	child_errno(3, EPERM, "not root: capset raising one: EPERM");
	child_errno(4, EPERM, "not root: an inheritable one: EPERM");
	child_errno(5, EPERM, "vhangup not root: EPERM");

	if (geteuid() != 0) {
		skip("not root", "root's capset and vhangup");
		return;
	}
	is_int(in_child(capset_root_child), 0, "root: the child ran");
	child_ok(0, "root: capset of what capget gave");
	child_ok(1, "root: capset with a smaller effective set");
	child_ok(2, "root: capset of an inheritable set");
	child_errno(3, EPERM, "root: effective beyond permitted: EPERM");
	child_ok(4, "root: capset dropping a permitted word");
	ok(rep->ret[6] > 0, "setsid: no controlling terminal");
	child_ok(7, "vhangup as root without a terminal: 0");
}

/* ---- syncfs, close_range ------------------------------------------------- */

static void test_syncfs(void)
{
	int fd = open("syscalls_misc2.sync", O_RDWR | O_CREAT | O_TRUNC, 0600);
	int dir = open(".", O_RDONLY | O_DIRECTORY);
	int path = open(".", O_PATH);
	int p[2];
	char buf[8192];

	memset(buf, 's', sizeof(buf));
	ok(fd >= 0 && write(fd, buf, sizeof(buf)) == sizeof(buf),
	   "write 8 KiB to a new file");
	is_int(syscall(SYS_syncfs, fd), 0, "syncfs on the file");
	is_int(syscall(SYS_syncfs, dir), 0, "syncfs on its directory");
	if (pipe(p) == 0) {
		is_int(syscall(SYS_syncfs, p[0]), 0, "syncfs on a pipe");
		close(p[0]);
		close(p[1]);
	} else {
		ok(0, "pipe");
	}
	is_errno(syscall(SYS_syncfs, -1), EBADF, "syncfs(-1): EBADF");
	is_errno(syscall(SYS_syncfs, path), EBADF, "syncfs on O_PATH: EBADF");
	close(path);
	close(dir);
	is_errno(syscall(SYS_syncfs, dir), EBADF, "syncfs closed fd: EBADF");
	close(fd);
	unlink("syscalls_misc2.sync");
}

static bool fd_open(int fd)
{
	return fcntl(fd, F_GETFD) != -1;
}

static void test_close_range(void)
{
	int fd = open("/", O_RDONLY);
	int i;

	for (i = 100; i < 106; i++)
		dup2(fd, i);
	is_int(sys_close_range(100, 102, 0), 0, "close_range 100..102");
	ok(!fd_open(100) && !fd_open(101) && !fd_open(102),
	   "close_range: 100..102 closed");
	ok(fd_open(103) && fd_open(104) && fd_open(105),
	   "close_range: 103..105 still open");
	is_int(sys_close_range(104, ~0U, CLOSE_RANGE_CLOEXEC), 0,
	       "close_range 104..~0 CLOSE_RANGE_CLOEXEC");
	ok(fcntl(104, F_GETFD) == FD_CLOEXEC &&
		   fcntl(105, F_GETFD) == FD_CLOEXEC,
	   "CLOSE_RANGE_CLOEXEC: 104 and 105 close-on-exec, still open");
	is_int(fcntl(103, F_GETFD), 0, "CLOSE_RANGE_CLOEXEC: 103 untouched");
	is_int(sys_close_range(103, 103, CLOSE_RANGE_UNSHARE), 0,
	       "close_range CLOSE_RANGE_UNSHARE");
	ok(!fd_open(103), "CLOSE_RANGE_UNSHARE closes too");
	is_int(sys_close_range(200, 300, 0), 0, "close_range of fds not open");
	is_int(sys_close_range(104, ~0U, 0), 0, "close_range 104..~0");
	ok(!fd_open(104) && !fd_open(105) && fd_open(fd),
	   "close_range: all from 104 on closed, lower ones open");
	is_errno(sys_close_range(5, 4, 0), EINVAL, "close_range first > last: "
		 "EINVAL");
	is_errno(sys_close_range(104, 105, 1), EINVAL,
		 "close_range flag 1: EINVAL");
	is_errno(sys_close_range(104, 105, 8), EINVAL,
		 "close_range flag 8: EINVAL");
	close(fd);
}

/* ---- fallocate ----------------------------------------------------------- */

static long falloc(int fd, int mode, long off, long len)
{
	return syscall(SYS_fallocate, fd, mode, off, len);
}

/*
 * A mode combination Linux 6.1 refuses with EINVAL; since 6.11 it checks
 * the modes in a switch, and answers EOPNOTSUPP. Either is Linux's.
 */
static void is_bad_combination(long r, const char *desc)
{
	int e = errno;

	tap_ok(r == -1 && (e == EINVAL || e == EOPNOTSUPP), tap_errname(e),
	       "%s: EINVAL (6.1) or EOPNOTSUPP (6.11)", desc);
}

static void test_fallocate(void)
{
	int fd = open("syscalls_misc2.fa", O_RDWR | O_CREAT | O_TRUNC, 0600);
	int ro = open("syscalls_misc2.fa", O_RDONLY);
	int null = open("/dev/null", O_WRONLY);
	int dir = open(".", O_RDONLY | O_DIRECTORY);
	int p[2] = { -1, -1 };
	struct stat st;
	long r;

	ok(fd >= 0 && ro >= 0 && pipe(p) == 0, "a file, read-only too, a pipe");
	is_errno(falloc(-1, 0, 0, PG), EBADF, "fallocate(-1): EBADF");
	is_errno(falloc(fd, 0, 0, 0), EINVAL, "fallocate len 0: EINVAL");
	is_errno(falloc(fd, 0, 0, -1), EINVAL, "fallocate len < 0: EINVAL");
	is_errno(falloc(fd, 0, -1, PG), EINVAL,
		 "fallocate offset < 0: EINVAL");
	is_errno(falloc(ro, 0, 0, 0), EINVAL,
		 "fallocate len 0 read-only: EINVAL first");
	is_errno(falloc(fd, FL_UNKNOWN, 0, PG), EOPNOTSUPP,
		 "fallocate unknown mode: EOPNOTSUPP");
	is_errno(falloc(fd, FL_PUNCH_HOLE, 0, PG), EOPNOTSUPP,
		 "fallocate PUNCH_HOLE without KEEP_SIZE: EOPNOTSUPP");
	is_errno(falloc(fd, FL_PUNCH_HOLE | FL_ZERO_RANGE | FL_KEEP_SIZE, 0,
			PG),
		 EOPNOTSUPP, "fallocate PUNCH_HOLE with ZERO_RANGE: "
		 "EOPNOTSUPP");
	is_bad_combination(falloc(fd, FL_COLLAPSE_RANGE | FL_KEEP_SIZE, 0, PG),
			   "fallocate COLLAPSE_RANGE with KEEP_SIZE");
	is_bad_combination(falloc(fd, FL_INSERT_RANGE | FL_KEEP_SIZE, 0, PG),
			   "fallocate INSERT_RANGE with KEEP_SIZE");
	is_bad_combination(falloc(fd, FL_UNSHARE_RANGE | FL_ZERO_RANGE, 0, PG),
			   "fallocate UNSHARE_RANGE with ZERO_RANGE");
	is_errno(falloc(ro, 0, 0, PG), EBADF,
		 "fallocate file not open for writing: EBADF");
	is_errno(falloc(ro, FL_UNKNOWN, 0, PG), EOPNOTSUPP,
		 "fallocate unknown mode before the open mode");
	is_errno(falloc(dir, 0, 0, PG), EBADF,
		 "fallocate directory (read-only): EBADF");
	is_errno(falloc(p[1], 0, 0, PG), ESPIPE, "fallocate pipe: ESPIPE");
	is_errno(falloc(p[0], 0, 0, PG), EBADF,
		 "fallocate pipe's read end: EBADF");
	if (null >= 0)
		is_errno(falloc(null, 0, 0, PG), ENODEV,
			 "fallocate /dev/null: ENODEV");
	else
		skip("no /dev/null", "fallocate /dev/null: ENODEV");
	is_errno(falloc(fd, 0, LONG_MAX - 10, 100), EFBIG,
		 "fallocate past the largest file: EFBIG");
	is_errno(falloc(fd, 0, 1L << 62, 1L << 62), EFBIG,
		 "fallocate offset + len past 2^63: EFBIG");

	r = falloc(fd, 0, 0, 3 * PG);
	ok(r == 0 || errno == EOPNOTSUPP,
	   "fallocate 3 pages: 0, or EOPNOTSUPP from the file system");
	diag("fallocate: %s", r == 0 ? "0"
			      : errno == EOPNOTSUPP ? "EOPNOTSUPP"
						    : tap_errname(errno));
	fstat(fd, &st);
	is_long(st.st_size, r == 0 ? 3 * PG : 0,
		"fallocate: the size follows (or stays 0)");
	r = falloc(fd, FL_KEEP_SIZE, 0, 5 * PG);
	ok(r == 0 || errno == EOPNOTSUPP, "fallocate KEEP_SIZE: 0 or "
	   "EOPNOTSUPP");
	fstat(fd, &st);
	ok(st.st_size == 0 || st.st_size == 3 * PG,
	   "fallocate KEEP_SIZE: the size does not change");
	close(p[0]);
	close(p[1]);
	close(dir);
	if (null >= 0)
		close(null);
	close(ro);
	close(fd);
	unlink("syscalls_misc2.fa");
}

int main(void)
{
	rep = mmap(NULL, sizeof(*rep), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (rep == MAP_FAILED) {
		ok(0, "mmap a shared page for the children");
		return done_testing();
	}
	test_getcpu();
	test_mlock_ranges();
	test_mlock_file();
	test_mlockall();
	test_memlock_limit();
	test_capget();
	test_capset();
	test_syncfs();
	test_close_range();
	test_fallocate();
	return done_testing();
}
