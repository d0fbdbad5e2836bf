/*
 * mem_overcommit: memory the machine cannot back is refused when it is
 * asked for, as Linux's overcommit accounting does, instead of being
 * granted and failing page by page later.
 *   mode 0 (the default heuristic): one request larger than RAM plus swap
 *     fails with ENOMEM (mmap, a shared anonymous mapping, brk); with
 *     MAP_NORESERVE it is granted (nothing is committed).
 *   mode 2 (never overcommit; pagelab only, as it changes a system-wide
 *     setting): a request past CommitLimit fails, MAP_NORESERVE included,
 *     and so does a fork whose copy would go past it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"

/* A /proc/meminfo field in bytes, or -1. */
static long long meminfo(const char *name)
{
	char buf[4096], *p;
	int fd = open("/proc/meminfo", O_RDONLY), n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	p = strstr(buf, name);
	return p ? strtoll(p + strlen(name) + 1, NULL, 10) * 1024 : -1;
}

static int read_mode(void)
{
	char c = '?';
	int fd = open("/proc/sys/vm/overcommit_memory", O_RDONLY);

	if (fd >= 0 && read(fd, &c, 1) != 1)
		c = '?';
	if (fd >= 0)
		close(fd);
	return c - '0';
}

static int set_mode(int mode)
{
	char c = '0' + mode;
	int fd = open("/proc/sys/vm/overcommit_memory", O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, &c, 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

static void *map(size_t len, int flags)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE,
		    flags | MAP_ANONYMOUS, -1, 0);
}

static void heuristic(void)
{
	size_t big = meminfo("MemTotal:") + meminfo("SwapTotal:") + (1LL << 30);
	uintptr_t cur = syscall(SYS_brk, 0);
	void *p;

	p = map(big, MAP_PRIVATE);
	ok(p == MAP_FAILED && errno == ENOMEM, "mmap of RAM + swap + 1 GiB, "
	   "private: ENOMEM (%s)", p == MAP_FAILED ? strerror(errno) : "granted");
	if (p != MAP_FAILED)
		munmap(p, big);
	p = map(big, MAP_SHARED);
	ok(p == MAP_FAILED && errno == ENOMEM, "the same, shared anonymous: "
	   "ENOMEM (%s)", p == MAP_FAILED ? strerror(errno) : "granted");
	if (p != MAP_FAILED)
		munmap(p, big);
	p = map(big, MAP_PRIVATE | MAP_NORESERVE);
	ok(p != MAP_FAILED, "with MAP_NORESERVE it is granted");
	if (p != MAP_FAILED)
		munmap(p, big);
	is_int(syscall(SYS_brk, cur + big), cur, "brk by RAM + swap + 1 GiB "
	       "leaves the break where it was");
	p = map(meminfo("MemTotal:") / 4, MAP_PRIVATE);
	ok(p != MAP_FAILED, "a quarter of RAM is granted");
	if (p != MAP_FAILED)
		munmap(p, meminfo("MemTotal:") / 4);
}

static void never(void)
{
	long long room = meminfo("CommitLimit:") - meminfo("Committed_AS:");
	int status = -1;
	size_t len;
	pid_t pid;
	void *p;

	is_int(set_mode(2), 0, "overcommit_memory = 2");
	diag("CommitLimit %lld, Committed_AS %lld", meminfo("CommitLimit:"),
	     meminfo("Committed_AS:"));
	p = map(room + (1 << 20), MAP_PRIVATE);
	ok(p == MAP_FAILED && errno == ENOMEM, "1 MiB past CommitLimit: ENOMEM");
	p = map(room + (1 << 20), MAP_PRIVATE | MAP_NORESERVE);
	ok(p == MAP_FAILED && errno == ENOMEM, "MAP_NORESERVE too: ENOMEM");
	len = room * 6 / 10 & ~4095LL;
	p = map(len, MAP_PRIVATE);
	ok(p != MAP_FAILED, "six tenths of the room left is granted");
	pid = fork();	/* the child's copy commits as much again */
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, &status, 0);
	ok(pid < 0 && errno == ENOMEM, "fork, which would commit it twice: "
	   "ENOMEM (%s)", pid < 0 ? strerror(errno) : "forked");
	if (p != MAP_FAILED)
		munmap(p, len);
	pid = fork();
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, &status, 0);
	ok(pid > 0 && status == 0, "after munmap fork works again");
	is_int(set_mode(0), 0, "overcommit_memory = 0 again");
}

int main(void)
{
	int mode = read_mode();

	if (mode != 0) {
		skip("overcommit_memory is not 0 here", "the heuristic");
		return done_testing();
	}
	heuristic();
	if (access("/proc/pagecheck", F_OK) == 0)
		never();
	else
		skip("not pagelab: mode 2 is a system-wide setting",
		     "overcommit_memory = 2");
	return done_testing();
}
