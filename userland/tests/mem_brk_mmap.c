/*
 * mem_brk_mmap - the heap (brk), anonymous mmap, munmap, mprotect and
 * stack growth.
 *
 * Roadmap:
 *   1. brk: grow by 256 pages, touch them all, shrink; shrunk pages fault;
 *      a brk below the start fails by returning the current break
 *   2. anonymous mmap of 1, 16, 1024 pages: zero-filled, writable,
 *      readable; after munmap an access gets SIGSEGV (SEGV_MAPERR)
 *   3. mprotect(PROT_READ): a store gets SIGSEGV (SEGV_ACCERR); back to
 *      PROT_READ|PROT_WRITE the store works and the data survived
 *   4. mmap with bad arguments fails with EINVAL; at address 0 with EPERM
 *      (for anyone but root)
 *   5. a ~1 MiB deep recursion grows the stack
 * musl's brk()/sbrk() refuse to move the break (they would fight
 * malloc), so brk is called with syscall(): the raw Linux brk returns the
 * new break on success and the old one on failure. Nothing between the
 * grow and the shrink calls malloc, which also moves the break.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fault.h"
#include "tap.h"
#include "procfs.h"

#define PAGE 4096UL

static char *sys_brk(void *addr)
{
	return (char *)syscall(SYS_brk, addr);
}

/* Write a page-specific pattern to every page, then read it all back. */
static int touch_pages(char *p, size_t npages)
{
	size_t i;

	for (i = 0; i < npages; i++) {
		p[i * PAGE] = (char)(i + 1);
		p[i * PAGE + PAGE - 1] = (char)(i + 7);
	}
	for (i = 0; i < npages; i++)
		if (p[i * PAGE] != (char)(i + 1) ||
		    p[i * PAGE + PAGE - 1] != (char)(i + 7))
			return 0;
	return 1;
}

static int all_zero(const char *p, size_t npages)
{
	size_t i;

	for (i = 0; i < npages; i++)
		if (p[i * PAGE] || p[i * PAGE + PAGE / 2] ||
		    p[i * PAGE + PAGE - 1])
			return 0;
	return 1;
}

static void test_brk(void)
{
	char *start = sys_brk(NULL), *top, *cur;
	struct fault f;
	long anon;

	/* The break need not be page aligned; work from the next page. */
	char *base = (char *)(((uintptr_t)start + PAGE - 1) & ~(PAGE - 1));

	ok(start != NULL && start != (char *)-1, "brk(0) returns the break");
	top = sys_brk(base + 256 * PAGE);
	is_ptr(top, base + 256 * PAGE, "brk grows the heap by 256 pages");
	if (top != base + 256 * PAGE)
		return;
	anon = vmstat("pgfault_anon");	/* no malloc: a static buffer */
	ok(all_zero(base, 256), "new heap pages read as zero");
	if (anon < 0)
		skip("no pgfault_anon in /proc/vmstat (Linux, or no /proc)",
		     "each first touch is an anonymous fault");
	else
		ok(vmstat("pgfault_anon") - anon >= 256, "each first touch "
		   "was counted as an anonymous fault (pgfault_anon +%ld)",
		   vmstat("pgfault_anon") - anon);
	ok(touch_pages(base, 256), "all 256 new heap pages hold their data");
	cur = sys_brk(base + PAGE);
	is_ptr(cur, base + PAGE, "brk shrinks the heap to one page");
	ok(probe_load(base + 2 * PAGE, &f) && f.signo == SIGSEGV,
	   "a page freed by shrinking brk faults with SIGSEGV");
	is_int(base[PAGE - 1], 7,
	       "the page kept below the break kept its data");
	cur = sys_brk(start - 64 * PAGE);
	is_ptr(cur, base + PAGE,
	       "brk below the start fails, returning the current break");
	is_ptr(sys_brk(start), start, "brk back to the start works");
}

static void test_mmap_sizes(void)
{
	static const size_t sizes[] = {1, 16, 1024};
	struct fault f;
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i];
		char *p = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (!ok(p != MAP_FAILED, "mmap of %zu anonymous pages works",
			n))
			continue;
		ok(((uintptr_t)p & (PAGE - 1)) == 0,
		   "the %zu-page mapping is page aligned", n);
		ok(all_zero(p, n), "the %zu new pages read as zero", n);
		ok(touch_pages(p, n), "the %zu pages hold what was written", n);
		is_int(munmap(p, n * PAGE), 0, "munmap of the %zu pages works",
		       n);
		ok(probe_load(p + (n - 1) * PAGE, &f),
		   "reading the last of the %zu pages after munmap faults", n);
		ok(f.signo == SIGSEGV && f.code == SEGV_MAPERR,
		   "with SIGSEGV/SEGV_MAPERR (got %d/%d)", f.signo, f.code);
	}
}

static void test_mprotect(void)
{
	char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct fault f;
	int faulted;

	if (!ok(p != MAP_FAILED, "mmap of 2 pages for mprotect works"))
		return;
	p[PAGE + 10] = 'a';
	is_int(mprotect(p + PAGE, PAGE, PROT_READ), 0,
	       "mprotect of the second page to PROT_READ works");
	ok(probe_store(p + PAGE + 10, &f), "a store to it then faults");
	ok(f.signo == SIGSEGV && f.code == SEGV_ACCERR,
	   "with SIGSEGV/SEGV_ACCERR (got %d/%d)", f.signo, f.code);
	is_ptr(f.addr, p + PAGE + 10, "si_addr is the byte stored to");
	ok(!probe_store(p + 10, &f), "the first page is still writable");
	is_int(mprotect(p + PAGE, PAGE, PROT_READ | PROT_WRITE), 0,
	       "mprotect back to PROT_READ|PROT_WRITE works");
	ok(p[PAGE + 10] == 'a' && !probe_store(p + PAGE + 10, &f) &&
	       p[PAGE + 10] == 0x5a,
	   "the data survived and the store now works");
	/* PROT_NONE on a page that is present: not even a load. */
	is_int(mprotect(p + PAGE, PAGE, PROT_NONE), 0,
	       "mprotect of the (present) second page to PROT_NONE works");
	faulted = probe_load(p + PAGE + 10, &f);
	ok(faulted && f.signo == SIGSEGV && f.code == SEGV_ACCERR,
	   "a load from it faults with SIGSEGV/SEGV_ACCERR (got %d/%d)",
	   faulted ? f.signo : 0, faulted ? f.code : 0);
	is_int(mprotect(p + PAGE, PAGE, PROT_READ), 0,
	       "mprotect back to PROT_READ works");
	ok(!probe_load(p + PAGE + 10, &f) && p[PAGE + 10] == 0x5a,
	   "and the data is still there");
	munmap(p, 2 * PAGE);
}

static void test_mmap_einval(void)
{
	long r;

	r = syscall(SYS_mmap, NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	is_errno(r, EINVAL, "mmap of length 0 fails with EINVAL");
	r = syscall(SYS_mmap, (void *)0x10000123, PAGE, PROT_READ,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	is_errno(r, EINVAL,
		 "mmap MAP_FIXED at an unaligned address fails "
		 "with EINVAL");
	r = syscall(SYS_mmap, NULL, PAGE, PROT_READ, MAP_ANONYMOUS, -1, 0);
	is_errno(r, EINVAL,
		 "mmap without MAP_PRIVATE or MAP_SHARED fails "
		 "with EINVAL");
}

/* Page 0 is never mapped for a user other than root (vm.mmap_min_addr):
 * a NULL pointer must fault. Asked of a child turned nobody. */
static void test_mmap_min_addr(void)
{
	pid_t pid = fork();
	int status = -1;

	if (pid == 0) {
		if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
			_exit(2);
		long r = syscall(SYS_mmap, NULL, PAGE, PROT_READ,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

		_exit(r == -1 && errno == EPERM ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "mmap MAP_FIXED at address 0 by a user fails with EPERM "
	   "(status %#x)", status);
}

/* 1 KiB of stack per level; the volatile array and the use of the result
 * after the call keep the compiler from flattening the recursion. */
static int recurse(int depth)
{
	volatile char frame[1024];

	frame[0] = (char)depth;
	frame[sizeof(frame) - 1] = (char)depth;
	if (depth == 0)
		return frame[0];
	return recurse(depth - 1) + frame[sizeof(frame) - 1] - (char)depth + 1;
}

int main(void)
{
	alarm(30);
	plan(48);
	fault_install();
	test_brk();
	test_mmap_sizes();
	test_mprotect();
	test_mmap_einval();
	test_mmap_min_addr();
	is_int(recurse(1100), 1100,
	       "a 1100 KiB deep recursion grows the stack");
	return done_testing();
}
