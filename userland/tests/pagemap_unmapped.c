/*
 * pagemap_unmapped: a block on disk that no buffer maps yet is not a
 * hole. The buffer-heads lab's experiment: a file written and synced,
 * its pages dropped, then a small write into a page that is not cached.
 * write_begin maps only the buffers under the write, so the page's other
 * buffers are unmapped; pagemap must ask the file system (->bmap) and
 * report those blocks on disk (PMB_ON_DISK, drawn "[973 -]"), and call
 * only the real holes holes. FIBMAP gives the reference: it asks the
 * same question, block by block.
 *
 * File (1 KiB blocks, two pages): blocks 0 and 3 written, 1 and 2 holes;
 * blocks 4-7 written. Then 100 bytes into block 0 and into block 6.
 *
 * FIBMAP (root only, EINVAL for a negative block) is checked everywhere
 * it is answered; the pagemap checks are pagelab's (skipped on Linux,
 * as is the layout where the file system is not a 1 KiB-block one).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <pagelab/pagemap.h>
#include "tap.h"
#include "procfs.h"

#define FIBMAP _IO(0x00, 1)	/* <linux/fs.h>, which musl lacks */
#define NAME "unmapped.dat"
#define BS 1024

static struct pagemap_page pages[2];

static void draw(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		execl("/bin/pagemap", "pagemap", NAME, (char *)NULL);
		_exit(127);
	}
	waitpid(pid, NULL, 0);
}

/* FIBMAP of file block b: the disk block, or -errno. */
static long fibmap(int fd, int b)
{
	int v = b;

	return ioctl(fd, FIBMAP, &v) < 0 ? -errno : v;
}

static void check_fibmap_rules(int fd)
{
	int v = -1, status;
	pid_t pid;

	is_errno(ioctl(fd, FIBMAP, &v), EINVAL,
		 "FIBMAP of a negative block: EINVAL");
	pid = fork();
	if (pid == 0) {
		v = 0;
		if (setuid(65534) < 0)
			_exit(2);
		_exit(ioctl(fd, FIBMAP, &v) < 0 && errno == EPERM ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "FIBMAP as a user: EPERM (CAP_SYS_RAWIO)");
}

int main(void)
{
	static char buf[4 * BS];
	struct pagemap_request req;
	long disk[8];
	struct stat st;
	int fd = open(NAME, O_RDWR | O_CREAT | O_TRUNC, 0644), layout;

	memset(buf, 'u', sizeof(buf));
	ok(fd >= 0 && pwrite(fd, buf, BS, 0) == BS &&
	   pwrite(fd, buf, BS, 3 * BS) == BS &&
	   pwrite(fd, buf, 4 * BS, 4 * BS) == 4 * BS && fsync(fd) == 0,
	   "write blocks 0, 3 and 4-7, leave 1 and 2 holes, fsync");
	if (fd < 0)
		return done_testing();
	fstat(fd, &st);
	layout = st.st_blksize == BS;
	/* disk[i]: where 1 KiB block i is, in the file system's blocks */
	for (int b = 0; b < 8; b++)
		disk[b] = fibmap(fd, b * BS / st.st_blksize);
	if (disk[0] == -EINVAL || disk[0] == -ENOTTY) {
		skip("no FIBMAP on this file system", "FIBMAP");
	} else {
		ok(disk[0] > 0 && disk[3] > 0 && disk[4] > 0 && disk[7] > 0,
		   "FIBMAP: blocks 0, 3, 4 and 7 are on disk (%ld %ld %ld %ld)",
		   disk[0], disk[3], disk[4], disk[7]);
		if (layout)
			ok(disk[1] == 0 && disk[2] == 0,
			   "FIBMAP: blocks 1 and 2 are holes (0)");
		else
			skip("blocks are not 1 KiB here", "FIBMAP holes");
		check_fibmap_rules(fd);
	}
	drop_caches();
	ok(pwrite(fd, buf, 100, 10) == 100 &&
	   pwrite(fd, buf, 100, 6 * BS + 10) == 100,
	   "100 bytes into block 0 and into block 6, pages not cached");
	memset(&req, 0, sizeof(req));
	req.count = 2;
	req.pages = (unsigned long long)(unsigned long)pages;
	if (ioctl(fd, PAGELAB_IOC_PAGEMAP, &req) < 0 || !layout) {
		skip("not pagelab on 1 KiB blocks", "the unmapped blocks");
		close(fd);
		unlink(NAME);
		return done_testing();
	}
	ok((pages[0].flags & PM_BUFFERS) && pages[0].nr_buffers == 4 &&
	   (pages[1].flags & PM_BUFFERS) && pages[1].nr_buffers == 4,
	   "both pages have 4 buffers");
	ok((pages[0].buf_flags[0] & PMB_MAPPED) &&
	   pages[0].block[0] == (unsigned long long)disk[0] &&
	   (pages[1].buf_flags[2] & PMB_MAPPED) &&
	   pages[1].block[2] == (unsigned long long)disk[6],
	   "the written blocks' buffers are mapped, to FIBMAP's blocks");
	ok(!(pages[0].buf_flags[3] & PMB_MAPPED) &&
	   (pages[0].buf_flags[3] & PMB_ON_DISK) &&
	   pages[0].block[3] == (unsigned long long)disk[3],
	   "block 3: no buffer maps it, on disk at %ld all the same",
	   disk[3]);
	ok(((pages[1].buf_flags[0] & pages[1].buf_flags[1] &
	     pages[1].buf_flags[3]) & PMB_ON_DISK) &&
	   pages[1].block[0] == (unsigned long long)disk[4] &&
	   pages[1].block[1] == (unsigned long long)disk[5] &&
	   pages[1].block[3] == (unsigned long long)disk[7],
	   "blocks 4, 5 and 7: on disk where FIBMAP says");
	ok(!(pages[0].buf_flags[1] & (PMB_MAPPED | PMB_ON_DISK)) &&
	   !(pages[0].buf_flags[2] & (PMB_MAPPED | PMB_ON_DISK)),
	   "blocks 1 and 2, the real holes, are holes");
	draw();
	close(fd);
	is_int(unlink(NAME), 0, "remove %s", NAME);
	return done_testing();
}
