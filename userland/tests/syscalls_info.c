/*
 * syscalls_info: what a process asks about itself and the machine.
 *
 *   sysinfo          real numbers: uptime against CLOCK_BOOTTIME, RAM
 *                    against /proc/meminfo (when /proc is mounted),
 *                    procs, mem_unit
 *   times, getrusage CPU time grows with work done (measured with
 *                    CLOCK_PROCESS_CPUTIME_ID), children's after wait,
 *                    voluntary switches, maxrss, wait4's rusage
 *   time, clock_getres
 *   sched_getaffinity/sched_setaffinity
 *   prctl            PR_SET_NAME/PR_GET_NAME, PR_SET_PDEATHSIG (delivered
 *                    when the parent exits, not inherited),
 *                    PR_GET/SET_DUMPABLE, EINVAL for the rest
 *   getpriority/setpriority, statx against stat
 *
 * Nothing depends on speed: CPU-time checks spin until the CPU-time clock
 * says enough was used. Same verdict on Linux, where setpriority only
 * touches this process and its own children.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"

static double clock_sec(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Use sec of CPU time. */
static void spin_cpu(double sec)
{
	double start = clock_sec(CLOCK_PROCESS_CPUTIME_ID);

	while (clock_sec(CLOCK_PROCESS_CPUTIME_ID) - start < sec)
		;
}

static long meminfo_kb(const char *field)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, strlen(field)))
			sscanf(line + strlen(field), "%ld", &v);
	fclose(f);
	return v;
}

static void test_sysinfo(void)
{
	struct sysinfo si;
	long total_kb;
	double boot;

	memset(&si, 0xff, sizeof(si));
	is_int(sysinfo(&si), 0, "sysinfo");
	boot = clock_sec(CLOCK_BOOTTIME);
	ok((long)si.uptime >= (long)boot - 1 && (long)si.uptime <= (long)boot + 2,
	   "uptime %ld s matches CLOCK_BOOTTIME (%.1f s)", si.uptime, boot);
	ok(si.mem_unit >= 1 && si.totalram > 0 && si.freeram > 0 &&
	   si.freeram <= si.totalram, "RAM total %lu, free %lu (unit %u)",
	   si.totalram, si.freeram, si.mem_unit);
	ok(si.procs >= 1, "procs %u", si.procs);
	total_kb = meminfo_kb("MemTotal:");
	if (total_kb < 0)
		skip("no /proc/meminfo", "totalram is MemTotal");
	else
		is_long((long)(si.totalram * si.mem_unit / 1024), total_kb,
			"totalram is /proc/meminfo's MemTotal");
	is_errno(sysinfo((void *)8), EFAULT, "a bad buffer: EFAULT");
}

static void test_times_rusage(void)
{
	struct rusage ru, ru0, ruc;
	struct tms t0, t1;
	clock_t c0, c1;
	int status;
	pid_t pid;
	char *mem;

	getrusage(RUSAGE_SELF, &ru0);
	c0 = times(&t0);
	spin_cpu(0.2);
	usleep(20000);
	usleep(20000);
	usleep(20000);
	c1 = times(&t1);
	getrusage(RUSAGE_SELF, &ru);
	ok(c1 - c0 >= 20, "times() counts clock ticks (%ld passed)",
	   (long)(c1 - c0));
	ok((t1.tms_utime + t1.tms_stime) - (t0.tms_utime + t0.tms_stime) >=
		   15, "times(): 0.2 s of CPU time shows (%ld ticks)",
	   (long)((t1.tms_utime + t1.tms_stime) -
		  (t0.tms_utime + t0.tms_stime)));
	ok((ru.ru_utime.tv_sec - ru0.ru_utime.tv_sec +
	    ru.ru_stime.tv_sec - ru0.ru_stime.tv_sec) * 1000000L +
		   (ru.ru_utime.tv_usec - ru0.ru_utime.tv_usec +
		    ru.ru_stime.tv_usec - ru0.ru_stime.tv_usec) >= 150000,
	   "getrusage: and in ru_utime + ru_stime");
	ok(ru.ru_nvcsw - ru0.ru_nvcsw >= 3,
	   "three sleeps are three voluntary switches at least (%ld)",
	   ru.ru_nvcsw - ru0.ru_nvcsw);
	mem = mmap(NULL, 4 << 20, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(mem, 1, 4 << 20);
	getrusage(RUSAGE_THREAD, &ru);
	/* Linux syncs its RSS counters every 64 faults: allow 512 KiB. */
	ok(ru.ru_maxrss >= 3584, "maxrss counts 4 MiB touched (%ld KiB)",
	   ru.ru_maxrss);
	munmap(mem, 4 << 20);

	pid = fork();
	if (pid == 0) {
		mem = mmap(NULL, 2 << 20, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		memset(mem, 1, 2 << 20);
		spin_cpu(0.2);
		_exit(0);
	}
	memset(&ruc, 0, sizeof(ruc));
	wait4(pid, &status, 0, &ruc);
	ok(ruc.ru_utime.tv_sec * 1000000L + ruc.ru_utime.tv_usec +
		   ruc.ru_stime.tv_sec * 1000000L + ruc.ru_stime.tv_usec >=
		   150000, "wait4 reports the child's CPU time");
	getrusage(RUSAGE_CHILDREN, &ru);
	ok(ru.ru_utime.tv_sec * 1000000L + ru.ru_utime.tv_usec +
		   ru.ru_stime.tv_sec * 1000000L + ru.ru_stime.tv_usec >=
		   150000, "RUSAGE_CHILDREN has it after the wait");
	ok(ru.ru_maxrss >= 1536, "and the child's maxrss (%ld KiB)",
	   ru.ru_maxrss);
	times(&t1);
	ok(t1.tms_cutime + t1.tms_cstime >= 15, "so has times()'s tms_cutime");
	is_errno(getrusage(5, &ru), EINVAL, "getrusage(5): EINVAL");
	is_errno(getrusage(RUSAGE_SELF, (void *)8), EFAULT,
		 "a bad buffer: EFAULT");
}

static void test_clocks(void)
{
	struct timespec res;
	struct timeval tv;
	long t, t2 = 0;

	/* Linux's time() gives the seconds of the last tick
	 * (ktime_get_real_seconds), which can be one behind gettimeofday's
	 * just after a second begins: seen on the host under load. */
	gettimeofday(&tv, NULL);
	t = syscall(SYS_time, &t2);
	ok(t >= tv.tv_sec - 1 && t <= tv.tv_sec + 1 && t2 == t,
	   "time() agrees with gettimeofday and stores what it returns");
	is_errno(syscall(SYS_time, (void *)8), EFAULT, "time(bad): EFAULT");
	is_int(clock_getres(CLOCK_MONOTONIC, &res), 0, "clock_getres");
	ok(res.tv_sec == 0 && res.tv_nsec > 0 && res.tv_nsec <= 10000000,
	   "CLOCK_MONOTONIC resolution %ld ns", res.tv_nsec);
	clock_getres(CLOCK_REALTIME, &res);
	ok(res.tv_sec == 0 && res.tv_nsec > 0 && res.tv_nsec <= 10000000,
	   "CLOCK_REALTIME resolution %ld ns", res.tv_nsec);
	is_int(clock_getres(CLOCK_MONOTONIC, NULL), 0, "a NULL res is fine");
	is_errno(clock_getres(99, &res), EINVAL, "clock 99: EINVAL");
}

static void test_affinity(void)
{
	cpu_set_t mask, one;
	long n;

	n = syscall(SYS_sched_getaffinity, 0, sizeof(mask), &mask);
	ok(n > 0 && n % 8 == 0, "sched_getaffinity returns the mask size (%ld)",
	   n);
	ok(CPU_COUNT(&mask) >= 1, "with at least one CPU");
	is_errno(syscall(SYS_sched_getaffinity, 0, 4, &mask), EINVAL,
		 "a buffer not a whole long: EINVAL");
	is_errno(sched_getaffinity(999999, sizeof(mask), &mask), ESRCH,
		 "no such process: ESRCH");
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (CPU_ISSET(0, &mask))
		is_int(sched_setaffinity(0, sizeof(one), &one), 0,
		       "sched_setaffinity to CPU 0");
	else
		skip("CPU 0 not allowed here", "sched_setaffinity to CPU 0");
	CPU_ZERO(&one);
	is_errno(sched_setaffinity(0, sizeof(one), &one), EINVAL,
		 "an empty mask: EINVAL");
	CPU_SET(1000, &one);
	is_errno(sched_setaffinity(0, sizeof(one), &one), EINVAL,
		 "a mask of a CPU that does not exist: EINVAL");
	sched_setaffinity(0, sizeof(mask), &mask);
}

static void on_usr1(int sig)
{
	(void)sig;
}

/* A grandchild asks for SIGUSR1 when its parent dies: it writes 'D' to
 * fd when it gets it. */
static void test_pdeathsig(void)
{
	int p[2], sig = -1, status;
	struct pollfd pfd;
	char c = 0;
	pid_t pid;

	pipe(p);
	pid = fork();
	if (pid == 0) {
		if (fork() == 0) {
			sigset_t block, old;

			/* Blocked until sigsuspend: it may come at once. */
			sigemptyset(&block);
			sigaddset(&block, SIGUSR1);
			sigprocmask(SIG_BLOCK, &block, &old);
			signal(SIGUSR1, on_usr1);
			prctl(PR_SET_PDEATHSIG, SIGUSR1);
			write(p[1], "R", 1);
			sigsuspend(&old);
			write(p[1], "D", 1);
			_exit(0);
		}
		read(p[0], &c, 1);	/* the grandchild is ready */
		_exit(0);
	}
	waitpid(pid, &status, 0);
	pfd = (struct pollfd){ p[0], POLLIN, 0 };
	c = 0;
	if (poll(&pfd, 1, 10000) == 1)
		read(p[0], &c, 1);
	is_int(c, 'D', "PR_SET_PDEATHSIG: the signal came when the parent exited");
	close(p[0]);
	close(p[1]);

	prctl(PR_SET_PDEATHSIG, SIGUSR2);
	prctl(PR_GET_PDEATHSIG, &sig);
	is_int(sig, SIGUSR2, "PR_GET_PDEATHSIG reads it back");
	pid = fork();
	if (pid == 0) {
		prctl(PR_GET_PDEATHSIG, &sig);
		_exit(sig);
	}
	waitpid(pid, &status, 0);
	is_int(WEXITSTATUS(status), 0, "a child does not inherit it");
	prctl(PR_SET_PDEATHSIG, 0);
	is_errno(prctl(PR_SET_PDEATHSIG, 99), EINVAL, "signal 99: EINVAL");
}

static void test_prctl(void)
{
	char name[32];

	is_int(prctl(PR_SET_NAME, "syscalls-info-name-too-long"), 0,
	       "PR_SET_NAME");
	memset(name, 'x', sizeof(name));
	is_int(prctl(PR_GET_NAME, name), 0, "PR_GET_NAME");
	is_str(name, "syscalls-info-n", "the name is cut at 15 bytes");
	is_int(prctl(PR_GET_DUMPABLE), 1, "PR_GET_DUMPABLE: 1 to start with");
	is_int(prctl(PR_SET_DUMPABLE, 0), 0, "PR_SET_DUMPABLE 0");
	is_int(prctl(PR_GET_DUMPABLE), 0, "reads back 0");
	is_errno(prctl(PR_SET_DUMPABLE, 2), EINVAL, "PR_SET_DUMPABLE 2: EINVAL");
	prctl(PR_SET_DUMPABLE, 1);
	is_errno(prctl(12345, 0, 0, 0, 0), EINVAL, "an unknown option: EINVAL");
	test_pdeathsig();
}

static void test_priority(void)
{
	int status;
	pid_t pid;

	errno = 0;
	is_int(getpriority(PRIO_PROCESS, 0), 0, "nice 0 to start with");
	is_int(setpriority(PRIO_PROCESS, 0, 5), 0, "setpriority to 5");
	is_int(getpriority(PRIO_PROCESS, getpid()), 5, "getpriority reads 5");
	is_long(syscall(SYS_getpriority, PRIO_PROCESS, 0), 15,
		"the raw call returns 20 - nice");
	setpriority(PRIO_PROCESS, 0, 100);
	is_int(getpriority(PRIO_PROCESS, 0), 19, "nice is clamped to 19");
	setpriority(PRIO_PROCESS, 0, 5);
	pid = fork();
	if (pid == 0) {
		struct rlimit rl = { 0, 0 };
		int inherited = getpriority(PRIO_PROCESS, 0) == 5;
		int r;

		/* In a group of its own: PRIO_PGRP cannot reach the harness. */
		setpgid(0, 0);
		r = setpriority(PRIO_PGRP, 0, 7) == 0 &&
		    getpriority(PRIO_PGRP, 0) == 7;
		setrlimit(RLIMIT_NICE, &rl);
		if (geteuid() == 0)
			setuid(65534);
		errno = 0;
		_exit(!inherited ? 1 : !r ? 2 :
		      setpriority(PRIO_PROCESS, 0, 0) != -1 ? 3 :
		      errno != EACCES ? 4 :
		      setpriority(PRIO_PROCESS, 0, 10) != 0 ? 5 : 0);
	}
	waitpid(pid, &status, 0);
	is_int(WEXITSTATUS(status), 0,
	       "a child inherits nice 5, PRIO_PGRP sets its group, and "
	       "unprivileged it may raise nice but not lower it (EACCES)");
	is_int(setpriority(PRIO_PROCESS, 0, 0), 0, "root may lower it back");
	is_errno(setpriority(PRIO_PROCESS, 999999, 0), ESRCH,
		 "no such process: ESRCH");
	is_errno(getpriority(9, 0), EINVAL, "which 9: EINVAL");
}

struct statx_buf {	/* <linux/stat.h>'s struct statx */
	uint32_t mask, blksize;
	uint64_t attributes;
	uint32_t nlink, uid, gid;
	uint16_t mode, spare0;
	uint64_t ino, size, blocks, attributes_mask;
	struct {
		int64_t sec;
		uint32_t nsec;
		int32_t reserved;
	} atime, btime, ctime, mtime;
	uint32_t rdev_major, rdev_minor, dev_major, dev_minor;
	uint64_t spare[14];
};

#define STATX_BASIC_STATS 0x7ffU

static long statx_(int dfd, const char *path, int flags, unsigned mask,
		   struct statx_buf *buf)
{
	return syscall(SYS_statx, dfd, path, flags, mask, buf);
}

static void test_statx(void)
{
	struct statx_buf sx;
	struct stat st;
	char data[1234];
	int fd;

	fd = open("syscalls_statx.tmp", O_RDWR | O_CREAT | O_TRUNC, 0640);
	memset(data, 'q', sizeof(data));
	write(fd, data, sizeof(data));
	fstat(fd, &st);
	memset(&sx, 0xff, sizeof(sx));
	is_int(statx_(AT_FDCWD, "syscalls_statx.tmp", 0, STATX_BASIC_STATS, &sx),
	       0, "statx of a file");
	is_int(sx.mask & STATX_BASIC_STATS, STATX_BASIC_STATS,
	       "stx_mask has the basic stats");
	ok(sx.ino == st.st_ino && sx.size == 1234 && sx.mode == st.st_mode &&
	   sx.nlink == st.st_nlink && sx.uid == st.st_uid &&
	   sx.gid == st.st_gid && sx.blocks == (uint64_t)st.st_blocks &&
	   sx.blksize == st.st_blksize,
	   "ino, size, mode, nlink, owner, blocks, blksize as stat gives them");
	ok(sx.mtime.sec == st.st_mtim.tv_sec &&
	   sx.mtime.nsec == st.st_mtim.tv_nsec &&
	   sx.ctime.sec == st.st_ctim.tv_sec && sx.atime.sec == st.st_atim.tv_sec,
	   "and the times");
	ok(sx.dev_major == major(st.st_dev) && sx.dev_minor == minor(st.st_dev),
	   "and the device (%u:%u)", sx.dev_major, sx.dev_minor);
	memset(&sx, 0, sizeof(sx));
	is_int(statx_(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &sx), 0,
	       "statx with AT_EMPTY_PATH on an fd");
	ok(sx.ino == st.st_ino && sx.size == 1234, "is the same file");
	symlink("syscalls_statx.tmp", "syscalls_statx.lnk");
	statx_(AT_FDCWD, "syscalls_statx.lnk", AT_SYMLINK_NOFOLLOW,
	       STATX_BASIC_STATS, &sx);
	ok(S_ISLNK(sx.mode), "AT_SYMLINK_NOFOLLOW: the link itself");
	statx_(AT_FDCWD, "syscalls_statx.lnk", 0, STATX_BASIC_STATS, &sx);
	ok(S_ISREG(sx.mode) && sx.ino == st.st_ino, "without it, its target");
	is_errno(statx_(AT_FDCWD, "syscalls_statx.none", 0, STATX_BASIC_STATS,
			&sx), ENOENT, "a missing file: ENOENT");
	is_errno(statx_(AT_FDCWD, "syscalls_statx.tmp", 0, 0x80000000U, &sx),
		 EINVAL, "STATX__RESERVED in the mask: EINVAL");
	is_errno(statx_(AT_FDCWD, "syscalls_statx.tmp", 0x6000, 0, &sx), EINVAL,
		 "both sync flags: EINVAL");
	is_errno(statx_(AT_FDCWD, "syscalls_statx.tmp", 0x1, 0, &sx), EINVAL,
		 "an unknown flag: EINVAL");
	is_errno(statx_(AT_FDCWD, "syscalls_statx.tmp", 0, STATX_BASIC_STATS,
			(void *)8), EFAULT, "a bad buffer: EFAULT");
	close(fd);
	unlink("syscalls_statx.lnk");
	unlink("syscalls_statx.tmp");
}

int main(void)
{
	plan(66);
	test_sysinfo();
	test_times_rusage();
	test_clocks();
	test_affinity();
	test_prctl();
	test_priority();
	test_statx();
	return done_testing();
}
