/*
 * proc_cow_isolation - after fork, private memory is private (copy on
 * write) and MAP_SHARED memory is shared.
 *
 * Roadmap:
 *   1. before fork, the parent fills five private regions with 'P': a
 *      global array, a stack array, a small malloc (brk heap), a large
 *      malloc (its own mmap in musl) and an anonymous MAP_PRIVATE mapping;
 *      and one MAP_SHARED|MAP_ANONYMOUS page
 *   2. the child writes 'C' everywhere, then tells the parent (pipe)
 *   3. the parent checks it still sees 'P' in the private regions and 'C'
 *      in the shared page, writes 'Q' everywhere, then tells the child
 *   4. the child checks it still sees 'C' in its private regions and 'Q'
 *      in the shared page, and reports one bit per region in its exit
 *      status
 * The pipes make the order of writes fixed: no sleeps, no timing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

#define PAGE 4096
#define NREGION 5

static char global_buf[3 * PAGE];

struct regions {
	char *p[NREGION];
	size_t len[NREGION];
	char *shared;
};

static const char *const region_name[NREGION] = {
    "global", "stack", "small heap", "large heap", "MAP_PRIVATE",
};

static void fill(struct regions *r, char c)
{
	int i;

	for (i = 0; i < NREGION; i++)
		memset(r->p[i], c, r->len[i]);
}

/* 1 if every byte of the region (first, every page, last) equals c. */
static int all_are(const char *p, size_t len, char c)
{
	size_t i;

	for (i = 0; i < len; i += 512)
		if (p[i] != c)
			return 0;
	return p[len - 1] == c;
}

/* Bit i set: region i does not hold c; bit NREGION: shared is not s. */
static int check(struct regions *r, char c, char s)
{
	int i, bad = 0;

	for (i = 0; i < NREGION; i++)
		if (!all_are(r->p[i], r->len[i], c))
			bad |= 1 << i;
	if (!all_are(r->shared, PAGE, s))
		bad |= 1 << NREGION;
	return bad;
}

static void sync_read(int fd)
{
	char c;

	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
}

static void child(struct regions *r, int to_parent, int from_parent)
{
	int bad;

	fill(r, 'C');
	memset(r->shared, 'C', PAGE);
	write(to_parent, "x", 1);
	sync_read(from_parent);
	bad = check(r, 'C', 'Q');
	_exit(bad);
}

int main(void)
{
	char stack_buf[2 * PAGE];
	int up[2], down[2], status = -1, i, bad;
	struct regions r;
	pid_t pid;

	alarm(30);
	plan(17);
	r.p[0] = global_buf;
	r.len[0] = sizeof(global_buf);
	r.p[1] = stack_buf;
	r.len[1] = sizeof(stack_buf);
	r.len[2] = 100;
	r.p[2] = malloc(r.len[2]);
	r.len[3] = 256 * 1024;
	r.p[3] = malloc(r.len[3]);
	r.len[4] = 4 * PAGE;
	r.p[4] = mmap(NULL, r.len[4], PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	r.shared = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ok(r.p[2] && r.p[3], "malloc of 100 bytes and 256 KiB works");
	ok(r.p[4] != MAP_FAILED, "anonymous MAP_PRIVATE mmap works");
	ok(r.shared != MAP_FAILED, "anonymous MAP_SHARED mmap works");
	if (!r.p[2] || !r.p[3] || r.p[4] == MAP_FAILED ||
	    r.shared == MAP_FAILED || pipe(up) || pipe(down))
		return done_testing();

	fill(&r, 'P');
	memset(r.shared, 'P', PAGE);
	pid = fork();
	if (pid == 0) {
		close(up[0]);
		close(down[1]);
		child(&r, up[1], down[0]);
	}
	/* Only the child holds up[1]: if it dies, our read sees EOF. */
	close(up[1]);
	close(down[0]);
	if (!ok(pid > 0, "fork works"))
		return done_testing();

	sync_read(up[0]);
	bad = check(&r, 'P', 'C');
	for (i = 0; i < NREGION; i++)
		ok(!(bad & (1 << i)),
		   "the parent does not see the child's write to its %s "
		   "memory",
		   region_name[i]);
	ok(!(bad & (1 << NREGION)),
	   "the parent sees the child's write to the MAP_SHARED page");
	fill(&r, 'Q');
	memset(r.shared, 'Q', PAGE);
	write(down[1], "x", 1);

	waitpid(pid, &status, 0);
	if (!ok(WIFEXITED(status), "the child exits normally (status %#x)",
		status))
		return done_testing();
	bad = WEXITSTATUS(status);
	for (i = 0; i < NREGION; i++)
		ok(!(bad & (1 << i)),
		   "the child does not see the parent's write to its %s "
		   "memory",
		   region_name[i]);
	ok(!(bad & (1 << NREGION)),
	   "the child sees the parent's write to the MAP_SHARED page");
	return done_testing();
}
