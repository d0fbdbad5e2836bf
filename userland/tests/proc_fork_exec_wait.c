/*
 * proc_fork_exec_wait - the process life cycle: fork, execve, exit, wait4.
 *
 * Roadmap:
 *   1. exit statuses 0, 1, 42, 255 come back through wait4, both from a
 *      forked child's _exit() and from a re-executed copy of this program
 *   2. deaths by SIGKILL, SIGSEGV, SIGTERM come back as WIFSIGNALED with
 *      the right WTERMSIG
 *   3. execve of a missing file fails with ENOENT (and we keep running)
 *   4. getppid() in the child is the parent's pid
 *   5. vfork + _exit, vfork + execve
 *   6. wait4 with no children left fails with ECHILD
 *   7. 200 children alive at once (each a kernel stack: pagelab's stack
 *      slots once held 64, since its bit operations read one word only)
 * The program re-executes itself as "--exit N" to be its own exec target,
 * so it needs no other file in the image.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

static char self[4096];

/* Find the path we were started from: argv[0] if it has a slash, else the
 * PATH entry a shell would have found, else /proc/self/exe. */
static void find_self(const char *argv0)
{
	const char *path = getenv("PATH");

	if (strchr(argv0, '/')) {
		snprintf(self, sizeof(self), "%s", argv0);
		return;
	}
	while (path && *path) {
		size_t n = strcspn(path, ":");

		snprintf(self, sizeof(self), "%.*s/%s", (int)n, path, argv0);
		if (access(self, X_OK) == 0)
			return;
		path += n + (path[n] == ':');
	}
	snprintf(self, sizeof(self), "/proc/self/exe");
}

/* Wait for pid; returns the raw status, or -1 with errno. */
static int reap(pid_t pid)
{
	int status;
	pid_t r;

	do
		r = wait4(pid, &status, 0, NULL);
	while (r < 0 && errno == EINTR);
	if (r != pid)
		return -1;
	return status;
}

static void exec_self_exit(int code)
{
	char arg[16];
	char *argv[] = {self, "--exit", arg, NULL};
	char *envp[] = {NULL};

	snprintf(arg, sizeof(arg), "%d", code);
	execve(self, argv, envp);
	_exit(99);
}

static void test_exit_codes(void)
{
	static const int codes[] = {0, 1, 42, 255};
	size_t i;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		int status;
		pid_t pid = fork();

		if (pid == 0)
			_exit(codes[i]);
		status = reap(pid);
		ok(status != -1 && WIFEXITED(status) &&
		       WEXITSTATUS(status) == codes[i],
		   "a child's _exit(%d) is seen by wait4 (status %#x)",
		   codes[i], status);

		pid = fork();
		if (pid == 0)
			exec_self_exit(codes[i]);
		status = reap(pid);
		ok(status != -1 && WIFEXITED(status) &&
		       WEXITSTATUS(status) == codes[i],
		   "an exec'd program's exit(%d) is seen by wait4 (status %#x)",
		   codes[i], status);
	}
}

/* Wait to be killed. nanosleep, not pause(): pause is not in pagelab's
 * first syscall set, and an ENOSYS would turn this into a busy loop. */
static void child_sleeps(void)
{
	for (;;)
		sleep(1000);
}

static void child_segfaults(void)
{
	/* No core file, even when the host allows them. */
	struct rlimit rl = {0, 0};

	setrlimit(RLIMIT_CORE, &rl);
	*(volatile int *)0 = 1;
	_exit(0);
}

static void test_signal_deaths(void)
{
	int status;
	pid_t pid;

	/* Never kill(-1, ...): that would signal every process we may. */
	pid = fork();
	if (pid == 0)
		child_sleeps();
	if (!ok(pid > 0, "fork works"))
		return;
	kill(pid, SIGKILL);
	status = reap(pid);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	   "a child killed by SIGKILL reports WTERMSIG SIGKILL (status %#x)",
	   status);
	ok(!WIFEXITED(status), "a killed child does not report WIFEXITED");

	pid = fork();
	if (pid == 0)
		child_segfaults();
	status = reap(pid);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
	   "a child storing to NULL dies of SIGSEGV (status %#x)", status);

	pid = fork();
	if (pid == 0)
		child_sleeps();
	if (pid < 0)
		return;
	kill(pid, SIGTERM);
	status = reap(pid);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
	   "a child sent SIGTERM dies of SIGTERM (status %#x)", status);
}

static void test_exec_missing(void)
{
	char *argv[] = {"/nonexistent/program", NULL};
	char *envp[] = {NULL};

	is_errno(execve(argv[0], argv, envp), ENOENT,
		 "execve of a missing file fails with ENOENT");
}

static void test_getppid(void)
{
	pid_t parent = getpid(), seen = 0;
	int fds[2], status;
	pid_t pid;

	if (!ok(pipe(fds) == 0, "pipe for getppid works"))
		return;
	pid = fork();
	if (pid == 0) {
		pid_t pp = getppid();

		write(fds[1], &pp, sizeof(pp));
		_exit(0);
	}
	close(fds[1]);
	ok(read(fds[0], &seen, sizeof(seen)) == sizeof(seen),
	   "the child sends its getppid()");
	close(fds[0]);
	is_int(seen, parent, "getppid() in the child is the parent's pid");
	status = reap(pid);
	is_int(status, 0, "that child exits 0");
	ok(pid != getpid() && pid > 0, "fork returned a new pid to the parent");
}

static void test_vfork(void)
{
	int status;
	pid_t pid;

	pid = vfork();
	if (pid == 0)
		_exit(7);
	status = reap(pid);
	ok(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 7,
	   "vfork + _exit(7) gives status 7 (status %#x)", status);

	pid = vfork();
	if (pid == 0)
		exec_self_exit(3);
	status = reap(pid);
	ok(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 3,
	   "vfork + execve of a program exiting 3 gives 3 (status %#x)",
	   status);
}

#define MANY 200

/* MANY children, each blocked reading a pipe until all exist. */
static void test_many_alive(void)
{
	int fds[2], made = 0, clean = 0, status;
	pid_t pid;

	if (!ok(pipe(fds) == 0, "pipe for the crowd works"))
		return;
	for (; made < MANY; made++) {
		char c;

		pid = fork();
		if (pid < 0)
			break;
		if (pid == 0) {
			close(fds[1]);
			_exit(read(fds[0], &c, 1) == 0 ? 0 : 1);
		}
	}
	ok(made == MANY, "%d children alive at once (fork failed at %d: %s)",
	   MANY, made, made == MANY ? "-" : strerror(errno));
	close(fds[0]);
	close(fds[1]);		/* end of file: every child exits */
	while ((pid = wait4(-1, &status, 0, NULL)) > 0)
		clean += WIFEXITED(status) && WEXITSTATUS(status) == 0;
	ok(clean == made, "all %d exited 0 (%d did)", made, clean);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--exit") == 0)
		return atoi(argv[2]);
	alarm(30);
	find_self(argv[0]);
	plan(25);
	test_exit_codes();
	test_signal_deaths();
	test_exec_missing();
	test_getppid();
	test_vfork();
	test_many_alive();
	is_errno(wait4(-1, NULL, 0, NULL), ECHILD,
		 "wait4 with no children left fails with ECHILD");
	return done_testing();
}
