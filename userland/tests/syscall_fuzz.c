/*
 * syscall_fuzz - a random system-call exerciser: many calls with valid and
 * invalid arguments must never crash the caller, hang, or crash the kernel.
 *
 *   syscall_fuzz [SEED [CALLS [BATCH]]]     (default 1 2000 500)
 *
 * Deterministic by SEED: the same SEED and CALLS make the same calls in
 * the same order (what they return may differ from kernel to kernel).
 *
 * Roadmap:
 *   main          make a scratch directory in the working directory and
 *                 chdir there; one child per batch of BATCH calls; a TAP
 *                 line per batch; remove the scratch directory at the end
 *   run_batch     fork the child, wait, judge how it ended
 *   child_main    close every inherited fd (nothing random can then reach
 *                 the console or a file outside the scratch directory),
 *                 ignore SIGPIPE and SIGXFSZ, alarm(5), then fuzz_one()
 *                 BATCH times
 *   fuzz_one      pick a system call from the safe list and arguments:
 *                 rand_fd, rand_path, rand_ptr/rand_wbuf, rand_len...
 *   do_call       record the call in a shared page (the parent names the
 *                 last call when a child dies) and make it with syscall()
 *   rm_tree       the cleanup
 *
 * Confinement. Path arguments come from a fixed set of relative names
 * without ".." (symlink targets too), so nothing outside the scratch
 * directory is touched. Memory calls that change mappings (munmap,
 * mprotect, madvise, msync, mmap MAP_FIXED) get either an address in the
 * child's own arena or an address no user mapping can have (kernel,
 * non-canonical); mmap without MAP_FIXED never replaces anything.
 * Buffers the kernel may write to are the child's data buffer (lengths
 * kept inside it, or running into the PROT_NONE guard page after it),
 * the arena, or bad pointers. The exerciser itself never stores through a
 * pointer it did not make, so any SIGSEGV or SIGBUS that kills a child is
 * a kernel bug (a copy to user memory that should have failed with
 * EFAULT, or a mapping the kernel broke) and a failed batch.
 *
 * Blocking. A child is killed by SIGALRM after 5 s and the parent reports
 * a hang, so no call may block legitimately: pipes and eventfds are made
 * O_NONBLOCK and F_SETFL keeps O_NONBLOCK set, poll/select/epoll_wait get
 * zero timeouts, nanosleep at most 100 us, and there are no FIFOs, locks
 * or terminals among the child's fds.
 *
 * Never: reboot, kill of other processes, mount, chdir, lowering a limit
 * (prlimit64 sets a limit only to its current value), fork.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

#define PAGE 4096UL
#define BUF_PAGES 16
#define BUF_SIZE (BUF_PAGES * PAGE)
#define ARENA_PAGES 64
#define ARENA_SIZE (ARENA_PAGES * PAGE)
#define MAX_FD 24

/* The last call a child started, in a page shared with the parent. */
struct record {
	long index; /* call number within the batch */
	long nr;
	long args[6];
	long calls, succeeded; /* counts for the batch */
};

static struct record *rec;
static char *buf; /* BUF_SIZE bytes, a PROT_NONE guard page after */
static char *arena; /* ARENA_SIZE bytes the memory calls may play with */
/* A user address below the program (static, linked at 0x400000) that
 * nothing maps: mmap gets no user address hints, brk grows upwards from
 * the program's end, and new mappings go to the top. main checks it. */
static char *const hole = (char *)0x100000;
static uint64_t rng;

static uint64_t next(void)
{
	/* splitmix64 */
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static long rnd(long n)
{
	return (long)(next() % (uint64_t)n);
}

#define PICK(arr) ((arr)[rnd(sizeof(arr) / sizeof((arr)[0]))])

/* Addresses no call may succeed on, for reads or writes; never NULL. */
static void *bad_ptr_nonnull(void)
{
	switch (rnd(7)) {
	case 0: return (void *)1;
	case 1: return (void *)0xffff800000000000UL;
	case 2: return (void *)0xffffffff80000000UL;
	case 3: return (void *)0x0000800000000000UL; /* non-canonical */
	case 4:
	case 5: return hole + rnd(PAGE);
	default: return buf + BUF_SIZE + rnd(PAGE); /* the guard page */
	}
}

static void *bad_ptr(void)
{
	return rnd(8) ? bad_ptr_nonnull() : NULL;
}

/* A hint mmap must ignore (a user address could land a mapping on hole). */
static void *bad_hint(void)
{
	return (void *)(rnd(2) ? 0xffff800000000000UL : 0x0000800000000000UL);
}

static long rand_len(void)
{
	static const long odd[] = { 0, 1, -1, INT_MAX, LONG_MAX,
				    1L << 32, 1L << 40, 4095, 4096, 4097 };
	return rnd(3) ? rnd(8193) : PICK(odd);
}

/* A buffer the kernel may write *len bytes to: ours, the arena, or bad. */
static void *rand_wbuf(long *len)
{
	long off;

	switch (rnd(6)) {
	case 0:
		*len = rand_len();
		return bad_ptr();
	case 1:
		off = rnd(ARENA_SIZE);
		*len = rnd(ARENA_SIZE - off + 1);
		return arena + off;
	case 2: /* ends in the guard page */
		off = BUF_SIZE - rnd(64);
		*len = BUF_SIZE - off + 1 + rnd(PAGE);
		return buf + off;
	default:
		off = rnd(4) ? 0 : rnd(BUF_SIZE);
		*len = rnd(BUF_SIZE - off + 1);
		if (rnd(4) == 0 && *len > 512)
			*len = rnd(512);
		return buf + off;
	}
}

/* A buffer the kernel only reads: anything rand_wbuf gives, or our code. */
static const void *rand_rbuf(long *len)
{
	if (rnd(10) == 0) {
		*len = rnd(256);
		return (const void *)&next;
	}
	return rand_wbuf(len);
}

static int rand_fd(void)
{
	static const int odd[] = { -1, -100, INT_MAX, 1023, 1024, 65536 };
	return rnd(10) ? (int)rnd(MAX_FD) : PICK(odd);
}

static long rand_off(void)
{
	static const long odd[] = { 0, 1, -1, 4095, 4096, 1L << 20, 1L << 31,
				    1L << 32, 1L << 40, LONG_MAX, LONG_MIN };
	return rnd(2) ? rnd(1 << 16) : PICK(odd);
}

/* A path inside the scratch directory (or a bad pointer), its string
 * ending before end; one of them runs into the guard page unterminated. */
static const char *const names[] = {
	"f0", "f1", "f2", "d0", "d0/f1", "d0/d1", "d0/d1/f2", "d0/l1", "l0",
	"l2", "", ".", "f0/x", "none/x", "d0/", "d0/d1/",
};

static const char *path_before(char *end)
{
	char *p;
	long n;

	switch (rnd(20)) {
	case 0:
		return bad_ptr();
	case 1: /* no NUL before the guard page */
		memset(buf + BUF_SIZE - 64, 'a', 64);
		return buf + BUF_SIZE - 64;
	case 2: /* too long: a name of 300, or a path of 5000 */
		n = rnd(2) ? 300 : 5000;
		p = end - n - 1;
		for (long i = 0; i < n; i++)
			p[i] = n > 300 && i % 8 == 7 ? '/' : 'a';
		p[n] = 0;
		return p;
	default:
		return strcpy(end - 64, PICK(names));
	}
}

static const char *rand_path(void)
{
	return path_before(buf + BUF_SIZE - 64);
}

/* A second path for two-path calls, away from rand_path's. */
static const char *rand_path2(void)
{
	return path_before(buf + BUF_SIZE - 6000);
}

/* Record, then make the call. */
static long do_call(long nr, long a, long b, long c, long d, long e, long f)
{
	long r;

	rec->nr = nr;
	rec->args[0] = a;
	rec->args[1] = b;
	rec->args[2] = c;
	rec->args[3] = d;
	rec->args[4] = e;
	rec->args[5] = f;
	r = syscall(nr, a, b, c, d, e, f);
	rec->calls++;
	if (r >= 0)
		rec->succeeded++;
	return r;
}

#define CALL(nr, ...) call_n(nr, __VA_ARGS__, 0, 0, 0, 0, 0, 0)
#define call_n(nr, a, b, c, d, e, f, ...) \
	do_call(nr, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), \
		(long)(f))
#define CALL0(nr) do_call(nr, 0, 0, 0, 0, 0, 0)

/* An arena address (for calls that change mappings) or a bad one. */
static void *map_addr(long *len)
{
	long off;

	if (rnd(6) == 0) {
		static const unsigned long bad[] = { 0xffff800000000000UL,
			0xffffffff80000000UL, 0x0000800000000000UL,
			0xfffffffffffff000UL };
		*len = rnd(2) ? (long)PAGE : rand_len();
		return (void *)PICK(bad);
	}
	off = rnd(ARENA_PAGES) * PAGE + (rnd(8) ? 0 : rnd(PAGE));
	*len = rnd(ARENA_SIZE - off + 1);
	if (rnd(2))
		*len &= ~(PAGE - 1);
	return arena + off;
}

static int rand_prot(void)
{
	return rnd(8) ? (int)rnd(8) : (int)next();
}

static void fuzz_mmap(void)
{
	static const int kinds[] = { MAP_PRIVATE, MAP_SHARED, MAP_PRIVATE,
				     MAP_SHARED, 0, MAP_SHARED | MAP_PRIVATE };
	int flags = PICK(kinds), fd = -1;
	long len, off = 0;
	void *addr = NULL;

	if (rnd(2))
		flags |= MAP_ANONYMOUS;
	else
		fd = rand_fd(), off = rnd(4) ? rnd(16) * (long)PAGE : rand_off();
	if (rnd(2)) {
		addr = map_addr(&len);
		flags |= MAP_FIXED;
	} else {
		len = rnd(4) ? rnd(32) * (long)PAGE + rnd(2) : rand_len();
		if (rnd(4) == 0)
			addr = bad_hint();
		if (len <= 64 * (long)PAGE && rnd(4) == 0)
			flags |= MAP_POPULATE;
		if (rnd(4) == 0)
			flags |= MAP_NORESERVE;
	}
	CALL(SYS_mmap, addr, len, rand_prot(), flags, fd, off);
}

static void fuzz_mem(void)
{
	static const int adv[] = { MADV_NORMAL, MADV_RANDOM, MADV_SEQUENTIAL,
				   MADV_WILLNEED, MADV_DONTNEED, 999, -1 };
	static const int ms[] = { MS_ASYNC, MS_SYNC, MS_INVALIDATE,
				  MS_ASYNC | MS_SYNC, 0, 0x100 };
	long len;
	void *a;

	switch (rnd(6)) {
	case 0:
		fuzz_mmap();
		break;
	case 1:
		a = map_addr(&len);
		CALL(SYS_munmap, a, len);
		break;
	case 2:
		a = map_addr(&len);
		CALL(SYS_mprotect, a, len, rand_prot());
		break;
	case 3:
		a = map_addr(&len);
		CALL(SYS_madvise, a, len, PICK(adv));
		break;
	case 4:
		a = map_addr(&len);
		CALL(SYS_msync, a, len, PICK(ms));
		break;
	default: {
		long cur = syscall(SYS_brk, 0);
		static const long d[] = { 0, 1, PAGE, -PAGE, 16 * PAGE,
					  1L << 30, -(1L << 30) };
		CALL(SYS_brk, rnd(8) ? cur + PICK(d) : (long)bad_ptr());
	}
	}
}

static int open_flags(void)
{
	static const int acc[] = { O_RDONLY, O_WRONLY, O_RDWR, O_RDWR, 3 };
	static const int extra[] = { O_CREAT, O_TRUNC, O_APPEND, O_EXCL,
				     O_DIRECTORY, O_NOFOLLOW, O_CLOEXEC,
				     O_NONBLOCK, O_CREAT };
	int f = PICK(acc);

	for (int n = (int)rnd(4); n > 0; n--)
		f |= PICK(extra);
	return f;
}

static int rand_mode(void)
{
	static const int m[] = { 0644, 0600, 0777, 0755, 0, 07777, -1 };
	return PICK(m);
}

static void fuzz_files(void)
{
	static const int whence[] = { SEEK_SET, SEEK_CUR, SEEK_END, 3, 4, 99 };
	long len;
	void *p;

	switch (rnd(16)) {
	case 0:
		CALL(SYS_open, rand_path(), open_flags(), rand_mode());
		break;
	case 1:
		CALL(SYS_openat, rnd(3) ? AT_FDCWD : rand_fd(), rand_path(),
		     open_flags(), rand_mode());
		break;
	case 2:
		CALL(SYS_close, rand_fd());
		break;
	case 3:
		p = rand_wbuf(&len);
		CALL(SYS_read, rand_fd(), p, len);
		break;
	case 4: {
		const void *q = rand_rbuf(&len);
		CALL(SYS_write, rand_fd(), q, len);
		break;
	}
	case 5:
		p = rand_wbuf(&len);
		CALL(SYS_pread64, rand_fd(), p, len, rand_off());
		break;
	case 6: {
		const void *q = rand_rbuf(&len);
		CALL(SYS_pwrite64, rand_fd(), q, len, rand_off());
		break;
	}
	case 7:
		CALL(SYS_lseek, rand_fd(), rand_off(), PICK(whence));
		break;
	case 8:
		p = rnd(4) ? buf : bad_ptr();
		CALL(SYS_stat, rand_path(), p);
		break;
	case 9:
		p = rnd(4) ? buf : bad_ptr();
		CALL(SYS_fstat, rand_fd(), p);
		break;
	case 10:
		p = rnd(4) ? buf : bad_ptr();
		CALL(SYS_lstat, rand_path(), p);
		break;
	case 11:
		p = rand_wbuf(&len);
		CALL(SYS_getdents64, rand_fd(), p, len);
		break;
	case 12:
		CALL(SYS_ftruncate, rand_fd(), rnd(2) ? rnd(1 << 17) : rand_off());
		break;
	case 13:
		CALL(SYS_truncate, rand_path(),
		     rnd(2) ? rnd(1 << 17) : rand_off());
		break;
	case 14:
		CALL(rnd(2) ? SYS_fsync : SYS_fdatasync, rand_fd());
		break;
	default:
		CALL(SYS_dup, rand_fd());
		break;
	}
}

static void fuzz_names(void)
{
	static const char *const targets[] = { "f0", "d0", "l0", "l2", ".",
					       "none", "d0/f1", "" };
	const char *a;
	long len;
	void *p;

	switch (rnd(8)) {
	case 0:
		CALL(SYS_mkdir, rand_path(), rand_mode());
		break;
	case 1:
		CALL(SYS_rmdir, rand_path());
		break;
	case 2:
		CALL(SYS_unlink, rand_path());
		break;
	case 3:
		a = rand_path2();
		CALL(SYS_rename, a, rand_path());
		break;
	case 4:
		a = rand_path2();
		CALL(SYS_link, a, rand_path());
		break;
	case 5: /* targets are relative, without "..": links stay inside */
		a = rnd(8) ? strcpy(buf + BUF_SIZE - 12000, PICK(targets))
			   : bad_ptr();
		CALL(SYS_symlink, a, rand_path());
		break;
	case 6:
		a = rand_path2();
		p = rand_wbuf(&len);
		CALL(SYS_readlink, a, p, len);
		break;
	default:
		CALL(SYS_dup2, rand_fd(), rand_fd());
		break;
	}
}

static void fuzz_fds(void)
{
	static const int cmds[] = { F_GETFD, F_SETFD, F_GETFL, F_SETFL,
				    F_DUPFD, F_DUPFD_CLOEXEC, -1, 1000 };
	static const unsigned long ioc[] = { FIONREAD, TCGETS, TIOCGWINSZ,
					     FIOCLEX, FIONCLEX, 0 };
	static const int epops[] = { EPOLL_CTL_ADD, EPOLL_CTL_DEL,
				     EPOLL_CTL_MOD, 0, 99 };
	long len;
	int cmd;
	void *p;

	switch (rnd(10)) {
	case 0:
		p = rnd(8) ? (void *)buf : bad_ptr();
		CALL(SYS_pipe2, p, O_NONBLOCK | (rnd(2) ? O_CLOEXEC : 0));
		break;
	case 1:
		cmd = PICK(cmds);
		/* O_NONBLOCK stays: a pipe read must never block */
		CALL(SYS_fcntl, rand_fd(), cmd,
		     cmd == F_SETFL ? (long)(rnd(1 << 20) | O_NONBLOCK)
				    : rnd(2) ? rnd(64) : (long)next());
		break;
	case 2:
		p = rnd(4) ? (void *)buf : bad_ptr();
		CALL(SYS_ioctl, rand_fd(), PICK(ioc), p);
		break;
	case 3: { /* fds of a pollfd array are random */
		long n = rnd(4) ? rnd(16) : rand_len();
		p = n <= 16 ? (void *)buf : bad_ptr();
		CALL(SYS_poll, p, n, 0);
		break;
	}
	case 4: { /* three fd_sets in buf, a zero timeout after them */
		struct timeval *tv = (void *)(buf + 3 * 128);
		tv->tv_sec = tv->tv_usec = 0;
		CALL(SYS_select, rnd(8) ? rnd(1025) : rand_len(),
		     rnd(4) ? (void *)buf : bad_ptr(),
		     rnd(2) ? (void *)(buf + 128) : NULL,
		     rnd(2) ? (void *)(buf + 256) : NULL,
		     rnd(16) ? (void *)tv : bad_ptr_nonnull()); /* NULL blocks */
		break;
	}
	case 5:
		CALL(SYS_epoll_create1, rnd(4) ? 0 : rnd(2) ? EPOLL_CLOEXEC : -1);
		break;
	case 6:
		p = rnd(6) ? (void *)buf : bad_ptr();
		CALL(SYS_epoll_ctl, rand_fd(), PICK(epops), rand_fd(), p);
		break;
	case 7:
		p = rand_wbuf(&len);
		CALL(SYS_epoll_wait, rand_fd(), p,
		     rnd(4) ? len / 12 : rand_len(), 0);
		break;
	case 8:
		CALL(SYS_eventfd2, rnd(2) ? 0 : next(),
		     EFD_NONBLOCK | (rnd(4) ? 0 : rnd(2) ? 1 : 0x80000));
		break;
	default:
		p = rand_wbuf(&len);
		CALL(SYS_getdents64, rand_fd(), p, len);
		break;
	}
}

static void fuzz_misc(void)
{
	static const int sigs[] = { SIGUSR1, SIGUSR2, SIGWINCH, SIGPIPE,
				    SIGXFSZ, SIGKILL, SIGSTOP, 0, 65, -1 };
	static const int clocks[] = { CLOCK_REALTIME, CLOCK_MONOTONIC,
				      CLOCK_PROCESS_CPUTIME_ID, 99, -1 };
	struct timespec *ts = (void *)buf;
	long len;
	void *p;

	switch (rnd(11)) {
	case 0:
		CALL0(SYS_getpid);
		break;
	case 1:
		CALL0(SYS_getppid);
		break;
	case 2:
		CALL(SYS_uname, rnd(4) ? (void *)buf : bad_ptr());
		break;
	case 3:
		CALL(SYS_getrlimit, rnd(4) ? rnd(16) : rand_len(),
		     rnd(4) ? (void *)buf : bad_ptr());
		break;
	case 4: { /* set a limit only to what it is already */
		int res = (int)(rnd(4) ? rnd(16) : rand_len());
		void *nw = NULL;
		if (rnd(2)) {
			nw = buf + 64;
			if (syscall(SYS_prlimit64, 0, res, NULL, nw) < 0 || rnd(8) == 0)
				nw = bad_ptr();
		}
		CALL(SYS_prlimit64, 0, res, nw, rnd(2) ? (void *)buf : NULL);
		break;
	}
	case 5:
		CALL(SYS_clock_gettime, PICK(clocks),
		     rnd(4) ? (void *)buf : bad_ptr());
		break;
	case 6:
		ts->tv_sec = rnd(16) ? 0 : -1;
		ts->tv_nsec = rnd(16) ? rnd(100000) : rnd(2) ? -1 : 1000000000;
		CALL(SYS_nanosleep, rnd(8) ? (void *)ts : bad_ptr_nonnull(),
		     rnd(2) ? NULL : bad_ptr());
		break;
	case 7:
		CALL(SYS_kill, rnd(2) ? 0 : getpid(), 0);
		break;
	case 8: { /* only SIG_IGN is ever installed: no handler can be hit */
		struct ksigaction {
			void *handler;
			unsigned long flags;
			void *restorer;
			unsigned long mask;
		} *act = (void *)(buf + 128);
		act->handler = SIG_IGN;
		act->flags = 0;
		act->restorer = NULL;
		act->mask = next();
		p = rnd(3) ? (void *)act : rnd(2) ? NULL : bad_ptr();
		CALL(SYS_rt_sigaction, PICK(sigs), p,
		     rnd(2) ? (void *)buf : rnd(2) ? NULL : bad_ptr(),
		     rnd(8) ? 8 : rnd(64));
		break;
	}
	case 9:
		p = rand_wbuf(&len);
		CALL(SYS_clock_gettime, CLOCK_MONOTONIC, len >= 16 ? p : bad_ptr());
		break;
	default:
		CALL(SYS_getdents64, rand_fd(), bad_ptr(), rand_len());
		break;
	}
}

static void fuzz_one(void)
{
	switch (rnd(10)) {
	case 0: case 1: case 2:
		fuzz_files();
		break;
	case 3: case 4:
		fuzz_names();
		break;
	case 5: case 6:
		fuzz_fds();
		break;
	case 7: case 8:
		fuzz_mem();
		break;
	default:
		fuzz_misc();
		break;
	}
}

/* The child: a clean fd table, no fatal signals it could cause itself. */
static void child_main(uint64_t seed, long batch, long calls)
{
	for (int fd = 0; fd < 1024; fd++)
		close(fd);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	alarm(5);
	rng = seed * 0x100000001b3ULL + (uint64_t)batch;
	for (long i = 0; i < calls; i++) {
		rec->index = i;
		fuzz_one();
	}
	_exit(0);
}

static const char *sysname(long nr)
{
	static const struct { long nr; const char *name; } t[] = {
		{ SYS_read, "read" }, { SYS_write, "write" },
		{ SYS_open, "open" }, { SYS_close, "close" },
		{ SYS_stat, "stat" }, { SYS_fstat, "fstat" },
		{ SYS_lstat, "lstat" }, { SYS_poll, "poll" },
		{ SYS_lseek, "lseek" }, { SYS_mmap, "mmap" },
		{ SYS_mprotect, "mprotect" }, { SYS_munmap, "munmap" },
		{ SYS_brk, "brk" }, { SYS_rt_sigaction, "rt_sigaction" },
		{ SYS_ioctl, "ioctl" }, { SYS_pread64, "pread64" },
		{ SYS_pwrite64, "pwrite64" }, { SYS_select, "select" },
		{ SYS_msync, "msync" }, { SYS_madvise, "madvise" },
		{ SYS_dup, "dup" }, { SYS_dup2, "dup2" },
		{ SYS_nanosleep, "nanosleep" }, { SYS_getpid, "getpid" },
		{ SYS_kill, "kill" }, { SYS_uname, "uname" },
		{ SYS_fcntl, "fcntl" }, { SYS_fsync, "fsync" },
		{ SYS_fdatasync, "fdatasync" }, { SYS_truncate, "truncate" },
		{ SYS_ftruncate, "ftruncate" }, { SYS_rename, "rename" },
		{ SYS_mkdir, "mkdir" }, { SYS_rmdir, "rmdir" },
		{ SYS_link, "link" }, { SYS_unlink, "unlink" },
		{ SYS_symlink, "symlink" }, { SYS_readlink, "readlink" },
		{ SYS_getrlimit, "getrlimit" }, { SYS_getppid, "getppid" },
		{ SYS_getdents64, "getdents64" },
		{ SYS_clock_gettime, "clock_gettime" },
		{ SYS_epoll_wait, "epoll_wait" }, { SYS_epoll_ctl, "epoll_ctl" },
		{ SYS_openat, "openat" }, { SYS_eventfd2, "eventfd2" },
		{ SYS_epoll_create1, "epoll_create1" }, { SYS_pipe2, "pipe2" },
		{ SYS_prlimit64, "prlimit64" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].nr == nr)
			return t[i].name;
	return "?";
}

/* One batch in a child; 1 if it ended cleanly. */
static int run_batch(uint64_t seed, long batch, long calls, long *total,
		     long *succeeded)
{
	int status;
	pid_t pid;

	memset(rec, 0, sizeof(*rec));
	rec->index = -1;
	pid = fork();
	if (pid < 0)
		return ok(0, "batch %ld: fork: %s", batch, strerror(errno));
	if (pid == 0)
		child_main(seed, batch, calls);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return ok(0, "batch %ld: waitpid: %s", batch,
				  strerror(errno));
	*total += rec->calls;
	*succeeded += rec->succeeded;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return ok(1, "batch %ld: %ld calls, no crash", batch, rec->calls);
	diag("seed %llu batch %ld: last call #%ld %s(%#lx, %#lx, %#lx, %#lx, "
	     "%#lx, %#lx)", (unsigned long long)seed, batch, rec->index,
	     sysname(rec->nr), rec->args[0], rec->args[1], rec->args[2],
	     rec->args[3], rec->args[4], rec->args[5]);
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		return ok(0, "batch %ld: hang (seed %llu, %ld calls done)",
			  batch, (unsigned long long)seed, rec->calls);
	if (WIFSIGNALED(status))
		return ok(0, "batch %ld: child killed by signal %d (seed %llu)",
			  batch, WTERMSIG(status), (unsigned long long)seed);
	return ok(0, "batch %ld: child exited %d (seed %llu)", batch,
		  WEXITSTATUS(status), (unsigned long long)seed);
}

/* rm -r of a scratch directory entry, relative to dirfd. */
static void rm_tree(int at, const char *name)
{
	struct dirent *de;
	DIR *d;
	int fd;

	if (unlinkat(at, name, 0) == 0 || errno == ENOENT)
		return;
	fchmodat(at, name, 0700, 0);
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (fd >= 0 && (d = fdopendir(fd)) != NULL) {
		while ((de = readdir(d)) != NULL)
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				rm_tree(dirfd(d), de->d_name);
		closedir(d);
	} else if (fd >= 0) {
		close(fd);
	}
	unlinkat(at, name, AT_REMOVEDIR);
}

/* write(2) of the hole to a pipe: EFAULT if it is not mapped. */
static long write_hole(void)
{
	int p[2], e;
	long r;

	if (pipe(p) < 0)
		return -2;
	r = write(p[1], hole, 1);
	e = errno;
	close(p[0]);
	close(p[1]);
	errno = e;
	return r;
}

int main(int argc, char **argv)
{
	uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
	long calls = argc > 2 ? strtol(argv[2], NULL, 0) : 2000;
	long per = argc > 3 ? strtol(argv[3], NULL, 0) : 500;
	long total = 0, succeeded = 0, batches;
	char dir[64];

	if (calls < 0 || per <= 0) {
		diag("usage: syscall_fuzz [SEED [CALLS [BATCH]]]");
		return 2;
	}
	batches = (calls + per - 1) / per;
	diag("seed %llu, %ld calls in %ld batches of %ld",
	     (unsigned long long)seed, calls, batches, per);
	plan((int)batches + 2);
	rec = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	buf = mmap(NULL, BUF_SIZE + PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	arena = mmap(NULL, ARENA_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (rec == MAP_FAILED || buf == MAP_FAILED || arena == MAP_FAILED ||
	    mprotect(buf + BUF_SIZE, PAGE, PROT_NONE) < 0) {
		diag("setup: %s", strerror(errno));
		return 1;
	}
	if (!is_errno(write_hole(), EFAULT, "nothing is mapped at %p", hole))
		return done_testing();
	snprintf(dir, sizeof(dir), "syscall_fuzz.%d", (int)getpid());
	rm_tree(AT_FDCWD, dir);
	if (!ok(mkdir(dir, 0755) == 0 && chdir(dir) == 0,
		"scratch directory %s", dir))
		return done_testing();
	for (long b = 0; b < batches; b++)
		run_batch(seed, b, b == batches - 1 ? calls - b * per : per,
			  &total, &succeeded);
	diag("%ld calls, %ld succeeded, %ld failed", total, succeeded,
	     total - succeeded);
	if (chdir("..") == 0)
		rm_tree(AT_FDCWD, dir);
	return done_testing();
}
