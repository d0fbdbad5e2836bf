/*
 * cow_reclaim - copy-on-write while reclaim takes the page away.
 *
 * A private writable mapping of a file maps the file's page-cache page
 * read-only; the first store copies it (wp_page_copy). Allocating the
 * copy may sleep in reclaim, and reclaim unmaps page-cache pages from
 * every process and frees them. pagelab's /proc/fail/alloc_reclaim makes
 * the next allocation reclaim all it can first, so that the copy's
 * allocation always does: a wp_page_copy that holds no reference to the
 * old page copies a freed page (page poisoning fills it with 0xaa), one
 * that does not look at the PTE again maps the copy over a PTE that is
 * gone.
 *
 * The file comes on its own disk (/dev/vda, made by mke2fs -d from
 * tests/data/cow-reclaim: cow.dat, 8192 bytes of 'A'), mounted read-only
 * here: the paging lab's tree can read ext2 but not yet write it.
 * pagelab only (no /proc/fail on Linux: skipped).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "procfs.h"

#define PAGE 4096

int main(void)
{
	volatile char *p;
	int fd, same = 0;

	if (access("/proc/fail/alloc_reclaim", W_OK) < 0) {
		skip("no /proc/fail/alloc_reclaim", "copy-on-write under reclaim");
		return done_testing();
	}
	mkdir("/tmp/cowr", 0755);
	if (mount("/dev/vda", "/tmp/cowr", "ext2", MS_RDONLY, NULL) < 0 ||
	    (fd = open("/tmp/cowr/cow.dat", O_RDONLY)) < 0) {
		ok(0, "mount /dev/vda and open cow.dat: %s", strerror(errno));
		return done_testing();
	}
	p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (!ok(p != MAP_FAILED, "a private writable mapping of cow.dat"))
		return done_testing();
	ok(p[0] == 'A' && p[PAGE] == 'A', "both pages read 'A' (mapped "
	   "read-only from the page cache)");
	fail_arm("alloc_reclaim", 1);
	p[10] = 'B';	/* the copy's allocation reclaims first */
	ok(!fail_armed("alloc_reclaim"), "the store's allocation reclaimed");
	fail_arm("alloc_reclaim", 0);
	for (int i = 0; i < PAGE; i++)
		same += p[i] == (i == 10 ? 'B' : 'A');
	is_int(same, PAGE, "the copy holds the file's bytes and the store");
	ok(p[PAGE] == 'A', "the other page still reads 'A'");
	munmap((void *)p, 2 * PAGE);
	close(fd);
	umount("/tmp/cowr");
	return done_testing();
}
