/*
 * tap.h - Test Anything Protocol output for pagelab's test programs.
 *
 * Roadmap:
 *   plan(n)              print "1..n" (optional; done_testing() prints the
 *                        plan at the end when none was given)
 *   ok(cond, fmt, ...)   "ok N - desc" or "not ok N - desc (false: cond)"
 *   is_int/is_long/is_ptr/is_str(got, want, fmt, ...)
 *                        compare, and on failure say "got X, want Y"
 *   is_errno(ret, err, fmt, ...)
 *                        a system call must have returned -1 with errno err
 *   skip(reason, fmt, ...) "ok N - desc # SKIP reason"
 *   diag(fmt, ...)       "# ..." comment line
 *   done_testing()       summary line; returns the exit status (0 only if
 *                        every test ran and passed)
 *
 * Every line goes out with one write(2) on fd 1, never through stdio
 * buffers: when a test crashes the kernel or is killed, every verdict it
 * printed before that is already on the console. Nothing here calls
 * malloc, so tests that play with brk are not disturbed.
 *
 * Header-only: each test program is a single .c file.
 */
#ifndef PAGELAB_TAP_H
#define PAGELAB_TAP_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int tap_planned = -1;
static int tap_run;
static int tap_failed;

/* Write all of buf, retrying short writes; errors are ignored (nowhere to
 * report them). */
static inline void tap_write(const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(1, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		buf += n;
		len -= (size_t)n;
	}
}

static inline __attribute__((format(printf, 1, 2))) void
tap_printf(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	tap_write(buf, (size_t)n);
}

static inline void plan(int n)
{
	tap_planned = n;
	tap_printf("1..%d\n", n);
}

/* Print one verdict. why is shown only on failure. Returns pass. */
static inline int tap_result(int pass, const char *why, const char *fmt,
			     va_list ap)
{
	char desc[512];
	int saved = errno;

	vsnprintf(desc, sizeof(desc), fmt, ap);
	tap_run++;
	if (pass) {
		tap_printf("ok %d - %s\n", tap_run, desc);
	} else {
		tap_failed++;
		tap_printf("not ok %d - %s (%s)\n", tap_run, desc, why);
	}
	errno = saved;
	return pass;
}

static inline __attribute__((format(printf, 3, 4))) int
tap_ok(int pass, const char *expr, const char *fmt, ...)
{
	char why[256];
	va_list ap;
	int r;

	snprintf(why, sizeof(why), "false: %s", expr);
	va_start(ap, fmt);
	r = tap_result(pass, why, fmt, ap);
	va_end(ap);
	return r;
}
#define ok(cond, ...) tap_ok(!!(cond), #cond, __VA_ARGS__)

static inline __attribute__((format(printf, 3, 4))) int
is_long(long got, long want, const char *fmt, ...)
{
	char why[128];
	va_list ap;
	int r;

	snprintf(why, sizeof(why), "got %ld, want %ld", got, want);
	va_start(ap, fmt);
	r = tap_result(got == want, why, fmt, ap);
	va_end(ap);
	return r;
}
#define is_int(got, want, ...) is_long((long)(got), (long)(want), __VA_ARGS__)

static inline __attribute__((format(printf, 3, 4))) int
is_ptr(const void *got, const void *want, const char *fmt, ...)
{
	char why[128];
	va_list ap;
	int r;

	snprintf(why, sizeof(why), "got %p, want %p", got, want);
	va_start(ap, fmt);
	r = tap_result(got == want, why, fmt, ap);
	va_end(ap);
	return r;
}

static inline __attribute__((format(printf, 3, 4))) int
is_str(const char *got, const char *want, const char *fmt, ...)
{
	char why[256];
	va_list ap;
	int r;

	snprintf(why, sizeof(why), "got \"%.100s\", want \"%.100s\"",
		 got ? got : "(null)", want);
	va_start(ap, fmt);
	r = tap_result(got && strcmp(got, want) == 0, why, fmt, ap);
	va_end(ap);
	return r;
}

/* Symbolic names make failures readable without errno.h at hand. */
static inline const char *tap_errname(int e)
{
	static const struct {
		int e;
		const char *name;
	} names[] = {
	    {0, "0"},
	    {EPERM, "EPERM"},
	    {ENOENT, "ENOENT"},
	    {ESRCH, "ESRCH"},
	    {EINTR, "EINTR"},
	    {EIO, "EIO"},
	    {E2BIG, "E2BIG"},
	    {ENOEXEC, "ENOEXEC"},
	    {EBADF, "EBADF"},
	    {ECHILD, "ECHILD"},
	    {EAGAIN, "EAGAIN"},
	    {ENOMEM, "ENOMEM"},
	    {EACCES, "EACCES"},
	    {EFAULT, "EFAULT"},
	    {EBUSY, "EBUSY"},
	    {EEXIST, "EEXIST"},
	    {ENOTDIR, "ENOTDIR"},
	    {EISDIR, "EISDIR"},
	    {EINVAL, "EINVAL"},
	    {EMFILE, "EMFILE"},
	    {ENOTTY, "ENOTTY"},
	    {EFBIG, "EFBIG"},
	    {ENOSPC, "ENOSPC"},
	    {ESPIPE, "ESPIPE"},
	    {EROFS, "EROFS"},
	    {EPIPE, "EPIPE"},
	    {ERANGE, "ERANGE"},
	    {ENAMETOOLONG, "ENAMETOOLONG"},
	    {ENOSYS, "ENOSYS"},
	    {ENOTEMPTY, "ENOTEMPTY"},
	    {ELOOP, "ELOOP"},
	    {EOVERFLOW, "EOVERFLOW"},
	};
	static char other[16];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == e)
			return names[i].name;
	snprintf(other, sizeof(other), "errno %d", e);
	return other;
}

/* ret is what a libc call or syscall() returned; errno is read here, so
 * call is_errno() directly on the call: is_errno(close(-1), EBADF, ...). */
static inline __attribute__((format(printf, 3, 4))) int
is_errno(long ret, int want, const char *fmt, ...)
{
	char why[160];
	int got = errno;
	va_list ap;
	int r;

	if (ret == -1)
		snprintf(why, sizeof(why), "got -1/%s, want -1/%s",
			 tap_errname(got), tap_errname(want));
	else
		snprintf(why, sizeof(why), "got %ld (success), want -1/%s", ret,
			 tap_errname(want));
	va_start(ap, fmt);
	r = tap_result(ret == -1 && got == want, why, fmt, ap);
	va_end(ap);
	return r;
}

static inline __attribute__((format(printf, 2, 3))) void
skip(const char *reason, const char *fmt, ...)
{
	char desc[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(desc, sizeof(desc), fmt, ap);
	va_end(ap);
	tap_run++;
	tap_printf("ok %d - %s # SKIP %s\n", tap_run, desc, reason);
}

static inline __attribute__((format(printf, 1, 2))) void diag(const char *fmt,
							      ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	tap_printf("# %s\n", buf);
}

/* Returns the exit status for main(): 0 only if all planned tests ran and
 * none failed. */
/*
 * How long a time-bound stress program runs when its command line does
 * not say: dflt seconds, or PAGELAB_STRESS_SECONDS when set. The host's
 * check (userland/Makefile) sets 1: there only the verdict matters, and
 * the guest's longer default is what catches a race.
 */
static inline int stress_seconds(int dflt)
{
	const char *s = getenv("PAGELAB_STRESS_SECONDS");

	return s && atoi(s) > 0 ? atoi(s) : dflt;
}

static inline int done_testing(void)
{
	if (tap_planned < 0)
		tap_printf("1..%d\n", tap_run);
	else if (tap_run != tap_planned)
		tap_printf("# planned %d tests but ran %d\n", tap_planned,
			   tap_run);
	tap_printf("# %d tests, %d passed, %d failed\n", tap_run,
		   tap_run - tap_failed, tap_failed);
	if (tap_failed)
		return 1;
	if (tap_planned >= 0 && tap_run != tap_planned)
		return 1;
	return 0;
}

#endif /* PAGELAB_TAP_H */
