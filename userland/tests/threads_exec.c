/*
 * threads_exec: execve in a thread that is not the leader. The other
 * threads (the leader among them, asleep in read()) are killed first, and
 * the program starts as the only thread of the same process: its pid is
 * the old process id (passed in argv to compare), gettid() is that pid
 * too, /proc/self/status says "Threads: 1", and its parent reaps it once
 * with the new program's exit status.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"
#include "procfs.h"

static char self_path[4096];
static int pipefd[2];

/* The new program: exit 0 when everything is as it should be. */
static int after_exec(const char *old_pid)
{
	int bad = 0;

	if (getpid() != atoi(old_pid))
		bad |= 1;
	if (syscall(SYS_gettid) != getpid())
		bad |= 2;
	if (status_threads() != 1)
		bad |= 4;
	return bad ? 10 + bad : 0;
}

static void *sleeper(void *arg)
{
	char c;

	(void)arg;
	read(pipefd[0], &c, 1);
	return NULL;
}

static void *exec_thread(void *arg)
{
	char pid[16];
	char *argv[] = { self_path, "--after-exec", pid, NULL };

	(void)arg;
	snprintf(pid, sizeof(pid), "%d", getpid());
	execv(self_path, argv);
	_exit(99);	/* exec failed */
}

int main(int argc, char **argv)
{
	pid_t pid;
	int st = -1;
	ssize_t n;

	if (argc == 3 && !strcmp(argv[1], "--after-exec"))
		return after_exec(argv[2]);
	alarm(30);
	plan(3);
	n = readlink("/proc/self/exe", self_path, sizeof(self_path) - 1);
	if (n <= 0)
		snprintf(self_path, sizeof(self_path), "%s", argv[0]);
	pipe(pipefd);
	if ((pid = fork()) == 0) {
		pthread_t th[3];
		char c;

		pthread_create(&th[0], NULL, sleeper, NULL);
		pthread_create(&th[1], NULL, sleeper, NULL);
		pthread_create(&th[2], NULL, exec_thread, NULL);
		read(pipefd[0], &c, 1);	/* the leader sleeps too */
		_exit(98);
	}
	ok(waitpid(pid, &st, 0) == pid, "the process was reaped");
	is_int(WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st), 0,
	       "exec in a thread: one thread left, with the process's pid "
	       "(exit 0; 11-17 say which check failed)");
	is_errno(waitpid(pid, &st, WNOHANG), ECHILD, "and reported once");
	return done_testing();
}
