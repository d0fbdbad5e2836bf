/*
 * syscalls_files: sendfile(2), copy_file_range(2) and flock(2), on files
 * in the current directory (an ext2 disk under scripts/pagelab-run).
 *
 *   sendfile         file to file (moving the input's position, or an
 *                    offset's instead), file to pipe, its end, its errors
 *   copy_file_range  whole files and ranges, trimmed at the end of the
 *                    input, the position rules, its errors (EISDIR,
 *                    EINVAL for pipes and overlaps, EBADF, EFAULT)
 *   flock            shared and exclusive locks between open files, not
 *                    between fds of one file (dup, fork); conversions are
 *                    not atomic; the last close unlocks; a blocked lock
 *                    waits for an unlock in another process or fails with
 *                    EINTR on a signal; the EINVAL/EBADF cases
 *
 * Same verdict on Linux.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"

#define SIZE 10000

static char pattern[SIZE];

static void on_signal(int sig)
{
	(void)sig;
}

static int make_file(const char *name, size_t len)
{
	int fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0600);

	write(fd, pattern, len);
	return fd;
}

/* Does name hold pattern[off, off + len), and nothing more? */
static int holds(const char *name, size_t off, size_t len)
{
	static char buf[SIZE + 1];
	int fd = open(name, O_RDONLY);
	ssize_t n = read(fd, buf, sizeof(buf));

	close(fd);
	return n == (ssize_t)len && !memcmp(buf, pattern + off, len);
}

static off_t where(int fd)
{
	return lseek(fd, 0, SEEK_CUR);
}

static void test_sendfile(void)
{
	int in = make_file("sf.in", SIZE), out, p[2], wr, app;
	off_t off;
	char buf[200];
	ssize_t n;

	lseek(in, 0, SEEK_SET);
	out = open("sf.out", O_RDWR | O_CREAT | O_TRUNC, 0600);
	is_long(sendfile(out, in, NULL, SIZE), SIZE, "sendfile file to file");
	ok(holds("sf.out", 0, SIZE), "copies every byte");
	ok(where(in) == SIZE && where(out) == SIZE,
	   "and moves both files' positions");
	is_long(sendfile(out, in, NULL, 100), 0, "at the end of the input: 0");

	off = 5000;
	lseek(in, 10, SEEK_SET);
	ftruncate(out, 0);
	lseek(out, 0, SEEK_SET);
	is_long(sendfile(out, in, &off, 3000), 3000, "sendfile from an offset");
	ok(off == 8000 && where(in) == 10,
	   "moves the offset, not the input's position");
	ok(holds("sf.out", 5000, 3000), "copies from there");

	pipe(p);
	off = 100;
	n = sendfile(p[1], in, &off, 150);
	is_long(n, 150, "sendfile into a pipe");
	ok(n == 150 && read(p[0], buf, sizeof(buf)) == 150 &&
	   !memcmp(buf, pattern + 100, 150), "the pipe has the bytes");

	wr = open("sf.in", O_WRONLY);
	is_errno(sendfile(out, wr, NULL, 10), EBADF, "input not readable: EBADF");
	close(wr);
	wr = open("sf.out", O_RDONLY);
	is_errno(sendfile(wr, in, &off, 10), EBADF, "a read-only output: EBADF");
	close(wr);
	app = open("sf.out", O_WRONLY | O_APPEND);
	is_errno(sendfile(app, in, &off, 10), EINVAL, "an O_APPEND output: EINVAL");
	close(app);
	is_errno(sendfile(out, p[0], NULL, 10), EINVAL, "a pipe as input: EINVAL");
	is_errno(sendfile(out, p[0], &off, 10), ESPIPE,
		 "a pipe as input with an offset: ESPIPE");
	is_errno(sendfile(out, 999, NULL, 10), EBADF, "a closed input fd: EBADF");
	is_errno(sendfile(out, in, (off_t *)8, 10), EFAULT,
		 "a bad offset pointer: EFAULT");
	close(p[0]);
	close(p[1]);
	close(in);
	close(out);
	unlink("sf.in");
	unlink("sf.out");
}

/* copy_file_range until done or stuck: the total. */
static long copy_all(int in, off_t *off_in, int out, off_t *off_out, size_t len)
{
	long total = 0, n;

	while (len && (n = copy_file_range(in, off_in, out, off_out, len, 0)) > 0) {
		total += n;
		len -= n;
	}
	return total;
}

static void test_copy_file_range(void)
{
	int in = make_file("cfr.in", SIZE), out, ro, app, p[2];
	off_t oi, oo;

	lseek(in, 0, SEEK_SET);
	out = open("cfr.out", O_RDWR | O_CREAT | O_TRUNC, 0600);
	is_long(copy_all(in, NULL, out, NULL, SIZE), SIZE,
		"copy_file_range of a whole file");
	ok(holds("cfr.out", 0, SIZE), "copies every byte");
	ok(where(in) == SIZE && where(out) == SIZE, "and moves both positions");

	ftruncate(out, 0);
	lseek(in, 0, SEEK_SET);
	lseek(out, 0, SEEK_SET);
	oi = 100;
	oo = 0;
	is_long(copy_file_range(in, &oi, out, &oo, 50, 0), 50,
		"copy_file_range with offsets");
	ok(oi == 150 && oo == 50 && where(in) == 0 && where(out) == 0,
	   "moves the offsets, not the positions");
	ok(holds("cfr.out", 100, 50), "copies that range");
	oi = SIZE - 10;
	is_long(copy_all(in, &oi, out, &oo, 100), 10,
		"a range past the input's end is cut there");
	is_long(copy_file_range(in, &oi, out, &oo, 100, 0), 0,
		"at the end: 0");

	is_errno(copy_file_range(in, NULL, out, NULL, 10, 1), EINVAL,
		 "flags: EINVAL");
	oi = 0;
	oo = 5;
	is_errno(copy_file_range(in, &oi, in, &oo, 100, 0), EINVAL,
		 "overlapping ranges of one file: EINVAL");
	mkdir("cfr.dir", 0700);
	{
		int dir = open("cfr.dir", O_RDONLY | O_DIRECTORY);

		is_errno(copy_file_range(dir, NULL, out, NULL, 10, 0), EISDIR,
			 "a directory: EISDIR");
		close(dir);
	}
	rmdir("cfr.dir");
	pipe(p);
	is_errno(copy_file_range(in, NULL, p[1], NULL, 10, 0), EINVAL,
		 "a pipe: EINVAL");
	close(p[0]);
	close(p[1]);
	ro = open("cfr.out", O_RDONLY);
	is_errno(copy_file_range(in, NULL, ro, NULL, 10, 0), EBADF,
		 "an output open read-only: EBADF");
	close(ro);
	app = open("cfr.out", O_WRONLY | O_APPEND);
	is_errno(copy_file_range(in, NULL, app, NULL, 10, 0), EBADF,
		 "an O_APPEND output: EBADF");
	close(app);
	is_errno(copy_file_range(in, (off_t *)8, out, NULL, 10, 0), EFAULT,
		 "a bad offset pointer: EFAULT");
	is_errno(copy_file_range(999, NULL, out, NULL, 10, 0), EBADF,
		 "a closed fd: EBADF");
	close(in);
	close(out);
	unlink("cfr.in");
	unlink("cfr.out");
}

static void test_flock_basic(void)
{
	int a = make_file("lock.f", 10), b = open("lock.f", O_RDWR);
	int c = open("lock.f", O_RDONLY), d, path;

	is_int(flock(a, LOCK_EX), 0, "LOCK_EX");
	is_errno(flock(b, LOCK_EX | LOCK_NB), EWOULDBLOCK,
		 "another open file cannot have LOCK_EX: EWOULDBLOCK");
	is_errno(flock(b, LOCK_SH | LOCK_NB), EWOULDBLOCK, "nor LOCK_SH");
	d = dup(a);
	is_int(flock(d, LOCK_EX | LOCK_NB), 0, "a dup of the locked fd has it");
	is_int(flock(a, LOCK_UN), 0, "LOCK_UN");
	is_int(flock(b, LOCK_SH | LOCK_NB), 0, "now LOCK_SH by another file");
	is_int(flock(c, LOCK_SH | LOCK_NB), 0, "and a second shared lock");
	is_errno(flock(a, LOCK_EX | LOCK_NB), EWOULDBLOCK,
		 "but no LOCK_EX while they hold");
	is_errno(flock(b, LOCK_EX | LOCK_NB), EWOULDBLOCK,
		 "converting a shared lock that others share fails");
	is_int(flock(c, LOCK_EX | LOCK_NB), 0,
	       "and drops it on the way (not atomic), so the other converts");
	close(c);
	is_int(flock(a, LOCK_SH | LOCK_NB), 0,
	       "the last close of a file unlocks it");
	flock(a, LOCK_UN);
	close(d);

	is_errno(flock(a, 0), EINVAL, "no operation: EINVAL");
	is_errno(flock(a, LOCK_SH | LOCK_EX), EINVAL, "two operations: EINVAL");
	is_errno(flock(999, LOCK_SH), EBADF, "a closed fd: EBADF");
	is_errno(flock(-1, 0), EINVAL, "a bad operation is found before a bad fd");
	is_int(flock(a, 32 | LOCK_SH), 0, "LOCK_MAND is accepted and ignored");
	path = open("lock.f", O_PATH);
	is_errno(flock(path, LOCK_SH), EBADF, "an O_PATH fd: EBADF");
	close(path);
	close(a);
	close(b);
}

static void test_flock_processes(void)
{
	int a = open("lock.f", O_RDWR), status = -1, p[2];
	char c;
	pid_t pid;

	flock(a, LOCK_EX);
	pid = fork();
	if (pid == 0) {
		int mine = open("lock.f", O_RDWR);

		_exit(flock(a, LOCK_EX | LOCK_NB) != 0 ? 1 :
		      flock(mine, LOCK_SH | LOCK_NB) != -1 ? 2 :
		      errno != EWOULDBLOCK ? 3 : 0);
	}
	waitpid(pid, &status, 0);
	is_int(WEXITSTATUS(status), 0,
	       "a child shares the inherited file's lock, not its own file's");

	pipe(p);
	pid = fork();
	if (pid == 0) {
		int mine = open("lock.f", O_RDWR);

		write(p[1], "w", 1);
		_exit(flock(mine, LOCK_EX) == 0 ? 0 : 1);
	}
	read(p[0], &c, 1);
	usleep(100000);
	is_int(waitpid(pid, &status, WNOHANG), 0, "a blocked flock waits");
	flock(a, LOCK_UN);
	waitpid(pid, &status, 0);
	is_int(WEXITSTATUS(status), 0, "and gets the lock when it is released");
	close(p[0]);
	close(p[1]);

	flock(a, LOCK_EX);
	pid = fork();
	if (pid == 0) {
		struct sigaction sa;
		int mine = open("lock.f", O_RDWR);

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;	/* no SA_RESTART */
		sigaction(SIGALRM, &sa, NULL);
		setitimer(ITIMER_REAL,
			  &(struct itimerval){ { 0, 0 }, { 0, 50000 } }, NULL);
		_exit(flock(mine, LOCK_EX) == -1 && errno == EINTR ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	is_int(WEXITSTATUS(status), 0, "a handled signal ends the wait: EINTR");
	close(a);
	unlink("lock.f");
}

int main(void)
{
	for (int i = 0; i < SIZE; i++)
		pattern[i] = 'a' + (i * 7 + i / 251) % 26;
	plan(53);
	test_sendfile();
	test_copy_file_range();
	test_flock_basic();
	test_flock_processes();
	return done_testing();
}
