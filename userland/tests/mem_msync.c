/*
 * mem_msync: msync's argument checks on anonymous memory, which has
 * nothing to write back (file mappings have their own tests).
 */
#include <errno.h>
#include <sys/mman.h>
#include "tap.h"

int main(void)
{
	char *p = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	plan(6);
	ok(p != MAP_FAILED, "mmap three pages");
	p[0] = 1;
	is_int(msync(p, 3 * 4096, MS_SYNC), 0, "MS_SYNC on anonymous memory");
	is_int(msync(p, 100, MS_ASYNC), 0, "MS_ASYNC, length rounded up");
	is_errno(msync(p, 4096, MS_SYNC | MS_ASYNC), EINVAL,
		 "MS_SYNC with MS_ASYNC: EINVAL");
	is_errno(msync(p + 1, 4096, MS_SYNC), EINVAL, "unaligned: EINVAL");
	munmap(p + 4096, 4096);
	is_errno(msync(p, 3 * 4096, MS_SYNC), ENOMEM,
		 "a hole in the range: ENOMEM");
	return done_testing();
}
