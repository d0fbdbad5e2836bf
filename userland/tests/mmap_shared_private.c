/*
 * mmap_shared_private: the semantics of MAP_SHARED and MAP_PRIVATE file
 * mappings, checked against read(), pread() and pwrite() on a file of
 * three pages.
 *
 * A shared mapping and the file are one thing: stores show in read(),
 * pwrite() shows in every mapping, two shared mappings (and a forked
 * child's) see each other's stores, and msync() or a later fsync() puts
 * the stores on the disk. A private mapping reads the file until a page
 * is stored to; from then on that page is the process's own copy, which
 * neither the file nor any other mapping ever sees, and which no longer
 * follows the file. Last, mmap's argument checks: offset, open mode,
 * directories and bad descriptors.
 *
 * The test keeps a model of what the file must hold and compares the
 * whole file with it after msync + drop_caches + reopen.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"
#include "procfs.h"

#define PATH "shpriv.dat"
#define NPAGES 3

static long ps;
static size_t size;
static char *model;

static char *map(int prot, int flags, int fd, off_t off)
{
	return mmap(NULL, size, prot, flags, fd, off);
}

static char *map_shared(int fd)
{
	return map(PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
}

static char *map_private(int fd)
{
	return map(PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
}

static char file_byte(int fd, off_t off)
{
	char c = 0;

	if (pread(fd, &c, 1, off) != 1)
		return -1;
	return c;
}

static int put_byte(int fd, off_t off, char c)
{
	model[off] = c;
	return pwrite(fd, &c, 1, off) == 1;
}

/* Offset of the first byte of the file (read() from 0) that differs
 * from the model (a short file differs at its end), or -1 if all match;
 * is_long() shows the offset as "got N" on failure. */
static long file_differs(int fd)
{
	char *buf = malloc(size);
	long bad = -1;
	ssize_t n;

	if (!buf || lseek(fd, 0, SEEK_SET) != 0)
		return 0;
	n = read(fd, buf, size);
	for (long i = 0; i < (long)size && bad < 0; i++)
		if (i >= n || buf[i] != model[i])
			bad = i;
	free(buf);
	return bad;
}

static int create_file(void)
{
	int fd = open(PATH, O_RDWR | O_CREAT | O_TRUNC, 0644);

	for (size_t i = 0; i < size; i++)
		model[i] = 'A' + (i / ps * 7 + i) % 26;
	if (fd < 0 || write(fd, model, size) != (ssize_t)size)
		return -1;
	return fd;
}

static void test_shared_store_read(int fd, char *sh)
{
	char c = 0;

	sh[100] = model[100] = 's';
	sh[ps + 200] = model[ps + 200] = 't';
	is_int(file_byte(fd, 100), 's',
	       "a store through MAP_SHARED is seen by pread()");
	lseek(fd, ps + 200, SEEK_SET);
	ok(read(fd, &c, 1) == 1 && c == 't',
	   "a store through MAP_SHARED to page 1 is seen by read()");
}

static void test_pwrite_visible(int fd, char *sh, char *pr)
{
	char before = pr[ps + 50];

	is_int(before, model[ps + 50],
	       "a MAP_PRIVATE mapping reads the file's bytes");
	ok(put_byte(fd, 2 * ps + 300, 'W'), "pwrite() one byte into page 2");
	is_int(sh[2 * ps + 300], 'W',
	       "data written with pwrite() shows in an existing MAP_SHARED "
	       "mapping");
	ok(put_byte(fd, ps + 50, 'V'), "pwrite() one byte into page 1");
	is_int(pr[ps + 50], 'V',
	       "data written with pwrite() shows in a page of a MAP_PRIVATE "
	       "mapping that was read but not written");
}

static void test_private_store(int fd, char *sh, char *sh2, char *pr)
{
	char *pr2 = map_private(fd);

	pr[10] = 'p';
	is_int(file_byte(fd, 10), model[10],
	       "a store through MAP_PRIVATE does not reach the file");
	is_int(
	    sh[10], model[10],
	    "a store through MAP_PRIVATE is not seen by a MAP_SHARED mapping");
	is_int(sh2[10], model[10], "nor by a second MAP_SHARED mapping");
	ok(pr2 != MAP_FAILED && pr2[10] == model[10],
	   "nor by a second MAP_PRIVATE mapping of the file");
	ok(put_byte(fd, 10, 'w'), "pwrite() to the privately stored page");
	is_int(pr[10], 'p',
	       "after a private store, pwrite() to that page does not show in "
	       "the private mapping (it was copied)");
	is_int(sh[10], 'w', "that pwrite() shows in the MAP_SHARED mapping");
	ok(pr2 != MAP_FAILED && pr2[10] == 'w',
	   "and in the other MAP_PRIVATE mapping, which never stored to it");
	ok(put_byte(fd, 2 * ps + 20, 'x'), "pwrite() to page 2");
	is_int(
	    pr[2 * ps + 20], 'x',
	    "pwrite() shows in a page of the private mapping never stored to");
	if (pr2 != MAP_FAILED)
		munmap(pr2, size);
}

static void test_two_shared(char *sh, char *sh2)
{
	sh[500] = model[500] = '1';
	is_int(sh2[500], '1',
	       "a store through one MAP_SHARED mapping shows in a second one");
	sh2[ps + 600] = model[ps + 600] = '2';
	is_int(sh[ps + 600], '2', "and the other way round");
}

static void test_fork(int fd, char *sh, char *pr)
{
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		sh[700] = 'c';
		pr[ps + 700] = 'd';
		_exit(0);
	}
	model[700] = 'c';
	ok(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0,
	   "a forked child stores through both mappings and exits 0");
	is_int(sh[700], 'c',
	       "the child's store through MAP_SHARED is seen by the parent");
	is_int(
	    pr[ps + 700], model[ps + 700],
	    "the child's store through MAP_PRIVATE is not seen by the parent");
	is_int(file_byte(fd, ps + 700), model[ps + 700], "nor by the file");
}

static int reopen(int fd, int flags)
{
	close(fd);
	return open(PATH, flags);
}

static int test_msync_reopen(int fd, char *sh, char *sh2)
{
	is_int(msync(sh, size, MS_SYNC), 0, "msync(MS_SYNC) returns 0");
	is_int(msync(sh2, size, MS_ASYNC), 0, "msync(MS_ASYNC) returns 0");
	ok(munmap(sh, size) == 0 && munmap(sh2, size) == 0,
	   "munmap both MAP_SHARED mappings");
	fd = reopen(fd, O_RDWR);
	drop_caches();
	is_long(file_differs(fd), -1,
		"after msync, munmap, close, drop_caches and reopen, read() "
		"returns every shared store and pwrite()");
	return fd;
}

static void test_offset(int fd)
{
	char *m = mmap(NULL, 2 * ps, PROT_READ, MAP_SHARED, fd, ps);

	ok(m != MAP_FAILED && memcmp(m, model + ps, 2 * ps) == 0,
	   "a mapping at file offset one page shows the file's pages 1 and 2");
	if (m != MAP_FAILED)
		munmap(m, 2 * ps);
	is_errno((long)mmap(NULL, ps, PROT_READ, MAP_SHARED, fd, 100), EINVAL,
		 "an offset that is not page aligned is EINVAL");
}

static void test_open_modes(void)
{
	int wfd = open(PATH, O_WRONLY), rfd = open(PATH, O_RDONLY);
	char *m;

	is_errno((long)mmap(NULL, ps, PROT_READ, MAP_SHARED, wfd, 0), EACCES,
		 "mapping an O_WRONLY descriptor is EACCES");
	is_errno(
	    (long)mmap(NULL, ps, PROT_READ | PROT_WRITE, MAP_SHARED, rfd, 0),
	    EACCES,
	    "MAP_SHARED with PROT_WRITE of an O_RDONLY descriptor is EACCES");
	m = mmap(NULL, ps, PROT_READ, MAP_SHARED, rfd, 0);
	ok(m != MAP_FAILED,
	   "MAP_SHARED PROT_READ of an O_RDONLY descriptor works");
	if (m != MAP_FAILED) {
		is_errno(mprotect(m, ps, PROT_READ | PROT_WRITE), EACCES,
			 "mprotect() cannot make it writable: EACCES");
		munmap(m, ps);
	}
	m = mmap(NULL, ps, PROT_READ | PROT_WRITE, MAP_PRIVATE, rfd, 0);
	ok(m != MAP_FAILED,
	   "MAP_PRIVATE with PROT_WRITE of an O_RDONLY descriptor works");
	if (m != MAP_FAILED) {
		m[1] = '!';
		ok(m[1] == '!' && file_byte(rfd, 1) == model[1],
		   "stores to it stay private to the mapping");
		munmap(m, ps);
	}
	close(wfd);
	close(rfd);
}

static void test_bad_fds(void)
{
	int dfd = open(".", O_RDONLY | O_DIRECTORY), bad = dup(0);

	is_errno((long)mmap(NULL, ps, PROT_READ, MAP_PRIVATE, dfd, 0), ENODEV,
		 "mapping a directory is ENODEV");
	close(dfd);
	close(bad);
	is_errno((long)mmap(NULL, ps, PROT_READ, MAP_SHARED, bad, 0), EBADF,
		 "mapping a descriptor that is not open is EBADF");
}

static int test_munmap_dirty(int fd)
{
	char *sh = map_shared(fd);

	if (!ok(sh != MAP_FAILED, "map the file MAP_SHARED again"))
		return fd;
	for (int i = 0; i < NPAGES; i++)
		sh[i * ps + 900] = model[i * ps + 900] = 'm' + i;
	is_int(munmap(sh, size), 0, "munmap a dirty MAP_SHARED mapping");
	fd = reopen(fd, O_RDWR);
	is_int(fsync(fd), 0, "close, reopen and fsync the file");
	drop_caches();
	is_long(file_differs(fd), -1,
		"the stores made before munmap read back after drop_caches");
	return fd;
}

int main(void)
{
	char *sh, *sh2, *pr;
	int fd;

	ps = sysconf(_SC_PAGESIZE);
	size = NPAGES * ps;
	model = malloc(size);
	plan(45);
	fd = create_file();
	if (!ok(fd >= 0, "create " PATH " with three pages written by write()"))
		return done_testing();
	sh = map_shared(fd);
	sh2 = map_shared(fd);
	pr = map_private(fd);
	if (!ok(sh != MAP_FAILED && sh2 != MAP_FAILED && pr != MAP_FAILED,
		"map it twice MAP_SHARED and once MAP_PRIVATE"))
		return done_testing();
	ok(memcmp(sh, model, size) == 0 && memcmp(pr, model, size) == 0,
	   "both kinds of mapping show the file's bytes");
	test_shared_store_read(fd, sh);
	test_pwrite_visible(fd, sh, pr);
	test_private_store(fd, sh, sh2, pr);
	test_two_shared(sh, sh2);
	test_fork(fd, sh, pr);
	munmap(pr, size);
	fd = test_msync_reopen(fd, sh, sh2);
	test_offset(fd);
	test_open_modes();
	test_bad_fds();
	fd = test_munmap_dirty(fd);
	close(fd);
	is_int(unlink(PATH), 0, "remove " PATH);
	return done_testing();
}
