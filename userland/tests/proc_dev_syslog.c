/*
 * proc_dev_syslog: the files and calls a student reaches for at the shell
 * and that pagelab once lacked.
 *
 *   /proc/cpuinfo   Linux's x86 format: "processor\t: 0" first, vendor_id,
 *                   model name, cpu MHz > 0, flags with fpu, bogomips,
 *                   address sizes, a blank line after the CPU's block
 *   /proc/version   "NAME version RELEASE (...) (gcc ...) #..."
 *   /dev/urandom, /dev/random
 *                   char devices 1:9 and 1:8; reads give different bytes
 *                   each time, writes are taken, poll says readable
 *   syslog(2)       SIZE_BUFFER, READ_ALL (lines "<level>[stamp] text",
 *                   the boot's "version" line among them), SIZE_UNREAD,
 *                   READ consuming what it returns, READ sleeping until a
 *                   new line (drop_caches logs one), the errnos for bad
 *                   arguments, and who may do what (dmesg_restrict)
 *
 * Same verdict on Linux: where syslog(2) is refused (no CAP_SYSLOG in a
 * container) those checks are skipped, and CLEAR is only tried on
 * pagelab, not to empty the host's log.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include "tap.h"
#include "procfs.h"

/* syslog(2)'s actions (Linux's names; no libc header has them). */
enum {
	SYSLOG_ACTION_CLOSE, SYSLOG_ACTION_OPEN, SYSLOG_ACTION_READ,
	SYSLOG_ACTION_READ_ALL, SYSLOG_ACTION_READ_CLEAR, SYSLOG_ACTION_CLEAR,
	SYSLOG_ACTION_SIZE_UNREAD = 9, SYSLOG_ACTION_SIZE_BUFFER = 10,
};

static char text[1 << 20];

/* The whole of path into text; its length, or -1. */
static long slurp(const char *path)
{
	int fd = open(path, O_RDONLY);
	long got = 0, n;

	if (fd < 0)
		return -1;
	while (got < (long)sizeof(text) - 1 &&
	       (n = read(fd, text + got, sizeof(text) - 1 - got)) > 0)
		got += n;
	close(fd);
	text[got] = 0;
	return got;
}

/* The value after "name\t...: " on a line of text, or NULL. */
static const char *field(const char *name)
{
	size_t len = strlen(name);

	for (const char *p = text; p; p = strchr(p, '\n')) {
		p += *p == '\n';
		if (strncmp(p, name, len) == 0 && (p[len] == '\t' ||
						    p[len] == ':')) {
			const char *v = strchr(p, ':');

			return v ? v + 1 + (v[1] == ' ') : NULL;
		}
	}
	return NULL;
}

static void check_cpuinfo(void)
{
	const char *v;
	char *end;
	unsigned phys, virt;

	ok(slurp("/proc/cpuinfo") > 0, "/proc/cpuinfo reads");
	ok(strncmp(text, "processor\t: 0\n", 14) == 0,
	   "it starts with \"processor\\t: 0\"");
	v = field("vendor_id");
	ok(v && *v != '\n', "vendor_id is there");
	ok(field("model name") != NULL, "model name is there");
	v = field("cpu MHz");
	ok(v && strtod(v, &end) > 0 && end != v, "cpu MHz is a positive number");
	v = field("flags");
	ok(v && (strncmp(v, "fpu ", 4) == 0 || strstr(v, " fpu ")),
	   "flags lists fpu");
	v = field("bogomips");
	ok(v && strtod(v, NULL) > 0, "bogomips is positive");
	v = field("address sizes");
	ok(v && sscanf(v, "%u bits physical, %u bits virtual", &phys,
		       &virt) == 2 && phys >= 32 && virt >= 48,
	   "address sizes: N bits physical, M bits virtual");
	ok(strstr(text, "\n\n") != NULL &&
	   strcmp(text + strlen(text) - 2, "\n\n") == 0,
	   "each CPU's block ends with a blank line");
}

static void check_version(void)
{
	char name[64], word[64];

	ok(slurp("/proc/version") > 0, "/proc/version reads");
	ok(sscanf(text, "%63s %63s", name, word) == 2 &&
	   strcmp(word, "version") == 0,
	   "it starts \"NAME version\" (\"%.30s\")", text);
	ok(strstr(text, "gcc") != NULL, "and names the compiler");
	ok(strchr(text, '\n') == text + strlen(text) - 1,
	   "in one line");
}

static int distinct(const unsigned char *b, int n)
{
	int seen[256] = { 0 }, d = 0;

	for (int i = 0; i < n; i++)
		d += !seen[b[i]]++;
	return d;
}

static void check_random(const char *path, unsigned minor)
{
	unsigned char a[256], b[256];
	struct pollfd pfd;
	struct stat st;
	int fd = open(path, O_RDWR);

	ok(stat(path, &st) == 0 && S_ISCHR(st.st_mode) &&
	   major(st.st_rdev) == 1 && minor(st.st_rdev) == minor,
	   "%s is char device 1:%u", path, minor);
	ok(fd >= 0, "%s opens for reading and writing", path);
	if (fd < 0)
		return;
	ok(read(fd, a, sizeof(a)) == sizeof(a) &&
	   read(fd, b, sizeof(b)) == sizeof(b),
	   "two reads of %zu bytes", sizeof(a));
	ok(memcmp(a, b, sizeof(a)) != 0, "give different bytes");
	ok(distinct(a, sizeof(a)) >= 64, "%d different values among 256",
	   distinct(a, sizeof(a)));
	is_int(write(fd, "pagelab", 7), 7, "a write is taken");
	pfd.fd = fd;
	pfd.events = POLLIN;
	ok(poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLIN),
	   "poll says readable");
	close(fd);
}

/* Every line of buf (n bytes) is "<digit>[stamp] ...". */
static int lines_have_level_and_stamp(const char *buf, long n)
{
	for (long i = 0; i < n;) {
		const char *nl = memchr(buf + i, '\n', n - i);

		if (buf[i] != '<' || buf[i + 1] < '0' || buf[i + 1] > '7' ||
		    buf[i + 2] != '>' || buf[i + 3] != '[')
			return 0;
		if (!nl)
			break;
		i = nl - buf + 1;
	}
	return 1;
}

/* In a child: READ blocks until the parent's drop_caches logs a line. */
static void check_read_blocks(void)
{
	int pipefd[2], status;
	char got[4096];
	long n;
	pid_t pid;

	klogctl(SYSLOG_ACTION_READ, text,
		klogctl(SYSLOG_ACTION_SIZE_UNREAD, NULL, 0) + 1);
	if (pipe(pipefd) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		close(pipefd[0]);
		alarm(10);
		n = klogctl(SYSLOG_ACTION_READ, got, sizeof(got));
		if (write(pipefd[1], got, n > 0 ? n : 0) < 0)
			_exit(2);
		_exit(n > 0 ? 0 : 1);
	}
	close(pipefd[1]);
	usleep(300 * 1000);
	drop_caches();
	n = read(pipefd[0], got, sizeof(got) - 1);
	got[n > 0 ? n : 0] = 0;
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
	   strstr(got, "drop_caches"),
	   "READ sleeps until a line is logged, then returns it");
	close(pipefd[0]);
}

/* As uid 65534: what dmesg_restrict allows (Linux's rule). */
static void check_unprivileged(void)
{
	long restrict_;
	int status;
	pid_t pid;

	if (slurp("/proc/sys/kernel/dmesg_restrict") < 0) {
		skip("no /proc/sys/kernel/dmesg_restrict", "a user's syslog");
		return;
	}
	restrict_ = atol(text);
	pid = fork();
	if (pid == 0) {
		char buf[64];
		int bad = 0;

		if (setuid(65534) < 0)
			_exit(9);
		if (restrict_) {
			bad |= klogctl(SYSLOG_ACTION_READ_ALL, buf, 64) != -1 ||
			       errno != EPERM;
			bad |= klogctl(SYSLOG_ACTION_SIZE_BUFFER, 0, 0) != -1 ||
			       errno != EPERM;
		} else {
			bad |= klogctl(SYSLOG_ACTION_READ_ALL, buf, 64) < 0;
			bad |= klogctl(SYSLOG_ACTION_SIZE_BUFFER, 0, 0) <= 0;
		}
		bad |= (klogctl(SYSLOG_ACTION_SIZE_UNREAD, 0, 0) != -1 ||
			errno != EPERM) << 1;
		bad |= (klogctl(SYSLOG_ACTION_CLEAR, 0, 0) != -1 ||
			errno != EPERM) << 1;
		bad |= (klogctl(42, 0, 0) != -1 || errno != EPERM) << 1;
		_exit(bad);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && (WEXITSTATUS(status) & 1) == 0,
	   "dmesg_restrict=%ld: a user %s read the log and its size",
	   restrict_, restrict_ ? "may not" : "may");
	ok(WIFEXITED(status) && (WEXITSTATUS(status) & 2) == 0,
	   "a user gets EPERM for the other actions");
}

static void check_syslog(void)
{
	static char all[1 << 20];
	struct utsname u;
	long size, n, unread, m;
	int pagelab;

	uname(&u);
	pagelab = strcmp(u.sysname, "pagelab") == 0;
	size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	if (size < 0 && errno == EPERM) {
		skip("syslog(2) refused here (no CAP_SYSLOG)", "syslog");
		return;
	}
	ok(size > 0, "SIZE_BUFFER is positive (%ld)", size);
	if (size <= 0 || size > (long)sizeof(all))
		size = sizeof(all);
	n = klogctl(SYSLOG_ACTION_READ_ALL, all, size);
	ok(n > 0 && n <= size, "READ_ALL returns the log (%ld bytes)", n);
	if (n <= 0)
		return;
	ok(lines_have_level_and_stamp(all, n),
	   "each line is \"<level>[stamp] text\"");
	all[n] = 0;
	/* A machine up for hours has long since overwritten its boot lines
	 * (the host, under make -C userland check): pagelab's is fresh. */
	if (pagelab || strstr(all, " version "))
		ok(strstr(all, " version ") != NULL,
		   "the boot's \"... version ...\" line is there");
	else
		skip("the boot lines have left the ring buffer",
		     "the boot's \"... version ...\" line is there");
	m = klogctl(SYSLOG_ACTION_READ_ALL, text, 300);
	ok(m > 0 && m <= 300 && text[0] == '<' && text[m - 1] == '\n',
	   "READ_ALL into 300 bytes gives the newest whole lines (%ld)", m);
	is_errno(klogctl(42, text, 10), EINVAL, "an unknown action: EINVAL");
	is_errno(klogctl(SYSLOG_ACTION_READ_ALL, NULL, 10), EINVAL,
		 "READ_ALL with a NULL buffer: EINVAL");
	is_errno(klogctl(SYSLOG_ACTION_READ_ALL, text, -1), EINVAL,
		 "READ_ALL with a negative length: EINVAL");
	is_errno(klogctl(SYSLOG_ACTION_READ_ALL,
			 (char *)0xffff800000000000UL, 10), EFAULT,
		 "READ_ALL into kernel memory: EFAULT");
	is_errno(klogctl(SYSLOG_ACTION_READ_ALL, (char *)8, 100), EFAULT,
		 "READ_ALL into an unmapped page: EFAULT");
	is_int(klogctl(SYSLOG_ACTION_READ_ALL, text, 0), 0,
	       "READ_ALL of 0 bytes: 0");
	is_int(klogctl(SYSLOG_ACTION_OPEN, NULL, 0), 0, "OPEN: 0");
	is_int(klogctl(SYSLOG_ACTION_CLOSE, NULL, 0), 0, "CLOSE: 0");
	unread = klogctl(SYSLOG_ACTION_SIZE_UNREAD, NULL, 0);
	ok(unread >= 0, "SIZE_UNREAD answers (%ld)", unread);
	if (pagelab) {
		ok(unread > 16, "the boot log is unread");
		is_int(klogctl(SYSLOG_ACTION_READ, text, 16), 16,
		       "READ of 16 bytes");
		is_int(klogctl(SYSLOG_ACTION_SIZE_UNREAD, NULL, 0),
		       unread - 16, "consumes them");
		ok(strncmp(text, all, 16) == 0,
		   "READ starts at the oldest line");
	} else {
		skip("not pagelab: others read this log", "READ consumes");
	}
	check_read_blocks();
	if (pagelab) {
		is_int(klogctl(SYSLOG_ACTION_CLEAR, NULL, 0), 0, "CLEAR: 0");
		is_int(klogctl(SYSLOG_ACTION_READ_ALL, text, 4096), 0,
		       "after CLEAR, READ_ALL has nothing");
		is_int(klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0), size,
		       "the buffer keeps its size");
	} else {
		skip("not pagelab: the host's log stays", "CLEAR");
	}
	check_unprivileged();
}

int main(void)
{
	check_cpuinfo();
	check_version();
	check_random("/dev/urandom", 9);
	check_random("/dev/random", 8);
	check_syslog();
	return done_testing();
}
