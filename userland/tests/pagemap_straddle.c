/*
 * pagemap_straddle: the page straddling EOF with 1 KiB blocks, seen with
 * PAGELAB_IOC_PAGEMAP and drawn by /bin/pagemap. A 1124-byte file has
 * blocks 0 and 1 on disk and blocks 2 and 3 of its page as holes; mapped
 * and stored to, the page is mapped once and dirty; after ftruncate to
 * 8192 the straddling page is write-protected again (page_mkwrite will
 * run at the next store) and still has its two holes, until a store
 * gives them blocks. pagelab only: the ioctl is pagelab's (skipped on
 * Linux).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pagelab/pagemap.h>
#include "tap.h"

#define NAME "straddle.dat"

static struct pagemap_page pages[2];

static int snapshot(int fd, struct pagemap_request *req)
{
	memset(req, 0, sizeof(*req));
	req->count = 2;
	req->pages = (unsigned long long)(unsigned long)pages;
	return ioctl(fd, PAGELAB_IOC_PAGEMAP, req);
}

static int holes(const struct pagemap_page *p)
{
	int n = 0;

	for (unsigned int i = 0; i < p->nr_buffers; i++)
		n += !(p->buf_flags[i] & PMB_MAPPED);
	return n;
}

static void draw(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		execl("/bin/pagemap", "pagemap", NAME, (char *)NULL);
		_exit(127);
	}
	waitpid(pid, NULL, 0);
}

int main(void)
{
	struct pagemap_request req;
	char buf[1124];
	int fd = open(NAME, O_RDWR | O_CREAT | O_TRUNC, 0644);
	char *p;

	memset(buf, 'x', sizeof(buf));
	ok(fd >= 0 && write(fd, buf, sizeof(buf)) == sizeof(buf) &&
	   fsync(fd) == 0, "write %zu bytes and fsync", sizeof(buf));
	if (snapshot(fd, &req) < 0) {
		skip("no PAGELAB_IOC_PAGEMAP (not pagelab)", "the pictures");
		unlink(NAME);
		return done_testing();
	}
	is_int(req.i_size, 1124, "the ioctl reports i_size");
	ok(pages[0].flags & PM_CACHED, "page 0 is cached");
	is_int(pages[0].nr_buffers, 4096 / req.blocksize,
	       "page 0 has a buffer per block");
	is_int(holes(&pages[0]), req.blocksize == 1024 ? 2 : 0,
	       "the blocks past EOF are holes");
	ok(!(pages[1].flags & PM_CACHED), "page 1 is not cached");
	draw();
	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ok(p != MAP_FAILED, "map it shared");
	p[0] = 'y';
	snapshot(fd, &req);
	is_int(pages[0].mapcount, 1, "after a store page 0 is mapped once");
	ok(pages[0].flags & PM_DIRTY, "and dirty");
	draw();
	is_int(ftruncate(fd, 8192), 0, "ftruncate to 8192");
	snapshot(fd, &req);
	is_int(holes(&pages[0]), req.blocksize == 1024 ? 2 : 0,
	       "the grown part still has no blocks: the next store's "
	       "page_mkwrite gives them");
	draw();
	p[2048] = 'z';
	snapshot(fd, &req);
	is_int(holes(&pages[0]), 0, "after a store there, every block of "
	       "page 0 is on disk");
	draw();
	munmap(p, 8192);
	close(fd);
	is_int(unlink(NAME), 0, "remove %s", NAME);
	return done_testing();
}
