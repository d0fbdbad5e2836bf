/*
 * proc_pid: /proc/PID and /proc/self, as ps and top read them.
 *
 *   /proc/self       a symlink to the reader's pid; /proc lists it and
 *                    every pid, ours and a child's
 *   stat             pid, (comm), state, ppid, pgrp, session, 52 fields,
 *                    vsize non-zero, starttime not before the
 *                    parent's; a child's state is S while it sleeps in
 *                    read(2), and Z once it exited unreaped
 *   status           Name, State, Pid, PPid, Uid against the same process
 *   cmdline          byte for byte the argv exec gave (ours: re-exec'd
 *                    with known arguments, empty strings included)
 *   maps             every line in Linux's format; an anonymous PROT_READ
 *                    mapping of ours is there with its exact range and
 *                    rights, the stack is marked [stack]
 *   a reaped child's directory is gone (ENOENT)
 *   fd/N             a link to each open descriptor's file, pipe:[...]
 *   truncate of a /proc file succeeds and changes nothing; chmod of a
 *   /proc/PID file is refused (EPERM)
 *
 * Run with no arguments: it re-execs itself with the arguments
 * "exec'd", "two words" and "" so that its cmdline is known.
 * Same verdicts on Linux (6.1 was compared).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

static char text[65536];

/* The whole file into text (NUL-terminated); its length or -1. */
static ssize_t slurp(const char *path)
{
	int fd = open(path, O_RDONLY);
	ssize_t n, len = 0;

	if (fd < 0)
		return -1;
	while ((n = read(fd, text + len, sizeof(text) - 1 - len)) > 0)
		len += n;
	close(fd);
	text[len] = 0;
	return n < 0 ? -1 : len;
}

struct stat_line {
	int pid, ppid, pgrp, session, nfields;
	char comm[64], state;
	unsigned long long starttime, vsize, rss;
};

/* Parse /proc/PID/stat as ps does: the comm runs to the last ')'. */
static int read_stat(int pid, struct stat_line *s)
{
	char path[64], *close_paren, *p, *save = NULL;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (slurp(path) < 0)
		return -1;
	close_paren = strrchr(text, ')');
	p = strchr(text, '(');
	if (!close_paren || !p || close_paren - p - 1 >= (int)sizeof(s->comm))
		return -1;
	s->pid = atoi(text);
	memcpy(s->comm, p + 1, close_paren - p - 1);
	s->nfields = 2;
	for (p = strtok_r(close_paren + 1, " \n", &save); p;
	     p = strtok_r(NULL, " \n", &save)) {
		s->nfields++;
		switch (s->nfields) {
		case 3: s->state = p[0]; break;
		case 4: s->ppid = atoi(p); break;
		case 5: s->pgrp = atoi(p); break;
		case 6: s->session = atoi(p); break;
		case 22: s->starttime = strtoull(p, NULL, 10); break;
		case 23: s->vsize = strtoull(p, NULL, 10); break;
		case 24: s->rss = strtoull(p, NULL, 10); break;
		}
	}
	return 0;
}

/* The value after "Name:" in the last slurp'd status file, or "". */
static const char *status_field(const char *name)
{
	static char value[128];
	size_t len = strlen(name);

	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');

		if (!strncmp(line, name, len) && line[len] == ':') {
			const char *v = line + len + 1;
			size_t n;

			v += strspn(v, "\t ");
			n = nl ? (size_t)(nl - v) : strlen(v);
			if (n >= sizeof(value))
				n = sizeof(value) - 1;
			memcpy(value, v, n);
			value[n] = 0;
			return value;
		}
		line = nl ? nl + 1 : NULL;
	}
	return "";
}

static void check_self_link(void)
{
	char buf[32], want[32];
	ssize_t n = readlink("/proc/self", buf, sizeof(buf) - 1);

	snprintf(want, sizeof(want), "%d", getpid());
	buf[n > 0 ? n : 0] = 0;
	is_str(buf, want, "/proc/self links to our pid");
}

static void check_own_stat(const struct stat_line *parent)
{
	struct stat_line s;

	if (read_stat(getpid(), &s) < 0) {
		ok(0, "/proc/%d/stat parses", getpid());
		return;
	}
	ok(s.pid == getpid() && s.ppid == getppid() && s.pgrp == getpgrp() &&
		   s.session == getsid(0),
	   "stat: pid %d ppid %d pgrp %d session %d are ours", s.pid, s.ppid,
	   s.pgrp, s.session);
	is_str(s.comm, "proc_pid", "stat: comm in parentheses");
	is_int(s.state, 'R', "stat: we are running (R) while we read it");
	is_int(s.nfields, 52, "stat: 52 fields, as Linux 6.1");
	/* Not rss: Linux's counters lag by up to 64 faults, 0 is possible. */
	ok(s.vsize > 0, "stat: vsize %llu bytes (rss %llu pages)", s.vsize,
	   s.rss);
	ok(parent->nfields && s.starttime >= parent->starttime,
	   "stat: started (%llu) no earlier than our parent (%llu)",
	   s.starttime, parent->starttime);
}

static void check_own_status(void)
{
	char want[64];

	if (slurp("/proc/self/status") < 0) {
		ok(0, "/proc/self/status opens");
		return;
	}
	is_str(status_field("Name"), "proc_pid", "status: Name");
	is_str(status_field("State"), "R (running)", "status: State");
	snprintf(want, sizeof(want), "%d", getpid());
	is_str(status_field("Pid"), want, "status: Pid");
	snprintf(want, sizeof(want), "%d", getppid());
	is_str(status_field("PPid"), want, "status: PPid");
	snprintf(want, sizeof(want), "%u\t%u\t%u\t%u", getuid(), geteuid(),
		 geteuid(), geteuid());
	is_str(status_field("Uid"), want, "status: Uid (real, effective, "
	       "saved, fs)");
}

static void check_cmdline(const char *self)
{
	static const char tail[] = "exec'd\0two words\0";
	size_t len = strlen(self) + 1 + sizeof(tail);	/* "" ends it */
	ssize_t n = slurp("/proc/self/cmdline");

	ok(n == (ssize_t)len && !strcmp(text, self) &&
		   !memcmp(text + strlen(self) + 1, tail, sizeof(tail)),
	   "cmdline: argv[0..3] byte for byte, empty argument included "
	   "(%zd bytes, want %zu)", n, len);
}

/* Every line in Linux's format; ours among them. */
static void check_maps(void)
{
	static const char re[] = "^[0-9a-f]{8,16}-[0-9a-f]{8,16} [r-][w-][x-][ps]"
				  " [0-9a-f]{8} [0-9a-f]{2}:[0-9a-f]{2} [0-9]+ "
				  "( +[^ ].*)?$";
	size_t pagesz = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, 3 * pagesz, PROT_READ,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char want[128], *line, *save = NULL;
	int stack_var, bad = 0, lines = 0, found = 0, stack = 0;
	unsigned long sp = (unsigned long)&stack_var;
	regex_t r;

	snprintf(want, sizeof(want), "%08lx-%08lx r--p 00000000 00:00 0 ",
		 (unsigned long)map, (unsigned long)map + 3 * pagesz);
	if (map == MAP_FAILED || regcomp(&r, re, REG_EXTENDED | REG_NOSUB) ||
	    slurp("/proc/self/maps") < 0) {
		ok(0, "maps: mmap, regcomp and open work");
		return;
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long lo, hi;

		lines++;
		if (regexec(&r, line, 0, NULL, 0)) {
			if (!bad++)
				diag("not in Linux's format: \"%s\"", line);
		}
		if (!strcmp(line, want))
			found = 1;
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo <= sp &&
		    sp < hi && strstr(line, " [stack]"))
			stack = 1;
	}
	regfree(&r);
	munmap(map, 3 * pagesz);
	ok(lines > 2 && !bad, "maps: %d lines, all in Linux's format", lines);
	ok(found, "maps: our 3-page PROT_READ mapping: \"%s\"", want);
	ok(stack, "maps: the VMA holding a local variable is [stack]");
}

static int listed(const char *dir, const char *name)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	while (d && (e = readdir(d)))
		if (!strcmp(e->d_name, name))
			found = 1;
	if (d)
		closedir(d);
	return found;
}

/* A child that sleeps in read(2), then exits: S, then Z, then gone. */
static void check_child(void)
{
	char path[64], name[16];
	struct stat_line s;
	int fds[2], st;
	pid_t pid;

	if (pipe(fds) < 0 || (pid = fork()) < 0) {
		ok(0, "pipe and fork");
		return;
	}
	if (pid == 0) {
		char c;

		close(fds[1]);
		read(fds[0], &c, 1);
		_exit(3);
	}
	close(fds[0]);
	snprintf(name, sizeof(name), "%d", pid);
	/* It sleeps once it reaches read: wait for S, not for time. */
	for (int i = 0; i < 100000; i++)
		if (read_stat(pid, &s) < 0 || s.state == 'S')
			break;
		else
			sched_yield();
	ok(s.pid == pid && s.ppid == getpid() && s.state == 'S',
	   "a child blocked in read: pid %d ppid %d state %c", s.pid, s.ppid,
	   s.state ? s.state : '?');
	ok(listed("/proc", name) && listed("/proc", "self"),
	   "/proc lists the child's pid and self");
	close(fds[1]);	/* it reads EOF and exits */
	for (int i = 0; i < 100000; i++)
		if (read_stat(pid, &s) < 0 || s.state == 'Z')
			break;
		else
			sched_yield();
	ok(read_stat(pid, &s) == 0 && s.state == 'Z',
	   "an exited, unreaped child is a zombie (Z): got %c",
	   s.state ? s.state : '?');
	waitpid(pid, &st, 0);
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	is_errno(open(path, O_RDONLY), ENOENT, "a reaped child's %s", path);
	ok(!listed("/proc", name), "/proc no longer lists the reaped child");
}

/* /proc/self/fd: a link per open descriptor, to the file's path; a
 * pipe's reads "pipe:[INODE]". */
static void check_fd_dir(void)
{
	int fd = open("/proc/version", O_RDONLY), p[2], seen = 0;
	char path[64], target[256];
	struct dirent *e;
	DIR *dir;
	ssize_t n;

	if (fd < 0 || pipe(p)) {
		ok(0, "open and pipe for the fd checks");
		return;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = 0;
	is_str(target, "/proc/version", "/proc/self/fd/N links to the file");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", p[0]);
	n = readlink(path, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = 0;
	ok(!strncmp(target, "pipe:[", 6), "a pipe's link reads pipe:[...] (%s)",
	   target);
	dir = opendir("/proc/self/fd");
	while (dir && (e = readdir(dir)))
		seen += atoi(e->d_name) == fd || atoi(e->d_name) == p[1];
	if (dir)
		closedir(dir);
	is_int(seen, 2, "the directory lists the descriptors");
	close(fd);
	close(p[0]);
	close(p[1]);
}

/*
 * A /proc file has no size to change: truncate succeeds and changes
 * nothing, as on Linux (trinity found pagelab oopsing here). A /proc/PID
 * file's mode cannot change (EPERM). As root, where permission allows.
 */
static void check_truncate(void)
{
	const char *files[] = { "/proc/self/stat", "/proc/version" };
	struct stat st;

	if (geteuid() != 0) {
		skip("not root", "truncate of /proc files");
		skip("not root", "chmod of a /proc/PID file");
		return;
	}
	for (int i = 0; i < 2; i++)
		ok(truncate(files[i], 100) == 0 && stat(files[i], &st) == 0 &&
			   st.st_size == 0,
		   "truncate(%s, 100) succeeds and the size stays 0", files[i]);
	is_errno(chmod("/proc/self/stat", 0600), EPERM,
		 "chmod of a /proc/PID file");
}

int main(int argc, char **argv)
{
	static struct stat_line parent;

	if (argc == 1) {
		char *args[] = { argv[0], "exec'd", "two words", "", NULL };

		/* Not /proc/self/exe: the comm would be "exe". */
		execvp(argv[0], args);
		perror("proc_pid: exec");
		return 1;
	}
	read_stat(getppid(), &parent);
	check_self_link();
	check_own_stat(&parent);
	check_own_status();
	check_cmdline(argv[0]);
	check_maps();
	check_child();
	check_fd_dir();
	check_truncate();
	return done_testing();
}
