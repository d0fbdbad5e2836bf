/*
 * fd_limits: file descriptors up to RLIMIT_NOFILE, as on Linux: the
 * default soft limit is 1024, so fd 1023 can be had and 1024 cannot;
 * raising the soft limit to the hard one makes room for more, and the
 * table grows to hold them; a fork copies a grown table.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"

int main(void)
{
	struct rlimit r, old = { 0, 0 };
	int fd, status = -1, n = 0;
	pid_t pid;

	is_int(getrlimit(RLIMIT_NOFILE, &old), 0, "getrlimit(RLIMIT_NOFILE)");
	diag("soft %ld, hard %ld", (long)old.rlim_cur, (long)old.rlim_max);
	/* A test harness may have raised it: start from Linux's default. */
	r.rlim_cur = 1024;
	r.rlim_max = old.rlim_max;
	is_int(setrlimit(RLIMIT_NOFILE, &r), 0, "soft limit 1024");
	is_int(dup2(1, 1023), 1023, "dup2(1, 1023) works under the limit");
	is_errno(dup2(1, 1024), EBADF, "dup2(1, 1024) is past it");
	is_errno(fcntl(1, F_DUPFD, 1024), EINVAL, "F_DUPFD from 1024: EINVAL");
	is_int(fcntl(1, F_DUPFD, 1000), 1000, "F_DUPFD from 1000 gives 1000");
	/* Fill every free fd: the count must be exactly what is left. */
	while ((fd = dup(0)) >= 0)
		n++;
	is_errno(fd, EMFILE, "dup past the limit: EMFILE");
	ok(n > 900 && n < 1024, "%d more fds fit below 1024", n);
	pid = fork();
	if (pid == 0)
		_exit(fcntl(1023, F_GETFD) == 0 && fcntl(1000, F_GETFD) == 0 ?
		      0 : 1);
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "a child has fds 1000 and 1023 too (status %#x)", status);
	for (fd = 3; fd < 1024; fd++)
		close(fd);
	if (old.rlim_max >= 4096) {
		r.rlim_cur = 4096;
		is_int(setrlimit(RLIMIT_NOFILE, &r), 0, "soft limit 4096");
		is_int(dup2(1, 4095), 4095, "dup2(1, 4095) after raising it");
		close(4095);
	} else {
		skip("hard limit below 4096", "dup2(1, 4095) after raising");
		skip("hard limit below 4096", "soft limit 4096");
	}
	r.rlim_cur = r.rlim_max = 1024UL * 1024 * 1024;
	is_errno(setrlimit(RLIMIT_NOFILE, &r), EPERM,
		 "a hard limit past what a table can hold: EPERM");
	return done_testing();
}
