/*
 * exec.c - run a parsed command tree.
 *
 *   run_list      each and_or in turn; "cmd &" runs in a child not waited for
 *   run_andor     && and || on the status of the previous pipeline
 *   run_pipeline  one command runs directly; N commands get N-1 pipes and
 *                 N children, and the status is the last one's
 *   run_simple    expand the words; NAME=value words before the command
 *                 name are assignments (to the environment: every
 *                 variable is exported); then a builtin runs in the shell,
 *                 anything else in a child
 *   exec_external PATH search and execve, in the child
 * Status: a child's exit code, or 128+signal with the signal's name on
 * stderr ("Segmentation fault"), as other shells do; 127 for a command
 * not found, 126 for one that cannot be run.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sh.h"

extern char **environ;

/* Signals an interactive shell ignores go back to default in children
 * (ignores inherited by a non-interactive shell are passed on). */
void child_reset_signals(void)
{
	if (!interactive)
		return;
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
}

static int status_of(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st)) {
		int sig = WTERMSIG(st);

		/* A closed pipe is not worth a message; Ctrl-C gets just a
		 * new line, so the prompt does not follow the echoed ^C. */
		if (sig == SIGINT)
			sh_print(2, "\n");
		else if (sig != SIGPIPE)
			sh_print(2, "%s\n", strsignal(sig));
		return 128 + sig;
	}
	return 1;
}

int wait_child(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			sh_error("wait: %s", strerror(errno));
			return 127;
		}
	}
	return status_of(st);
}

/* Try to execve path; on ENOEXEC (no #! and not ELF) run it as a shell
 * script in this process, as POSIX shells do. Returns errno. */
static int try_exec(const char *path, char **argv)
{
	execve(path, argv, environ);
	if (errno == ENOEXEC)
		sh_run_file(path, argv);
	return errno;
}

void exec_external(char **argv)
{
	const char *name = argv[0], *path = getenv("PATH");
	char buf[4096];
	int eacces = 0, e;

	if (strchr(name, '/')) {
		e = try_exec(name, argv);
		sh_error("%s: %s", name, strerror(e));
		_exit(e == ENOENT || e == ENOTDIR ? 127 : 126);
	}
	if (!path)
		path = "/bin";
	for (;;) {
		size_t n = strcspn(path, ":");

		/* An empty PATH entry means the current directory. */
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)n, n ? path : ".",
			 "/", name);
		e = try_exec(buf, argv);
		if (e == EACCES)
			eacces = 1;
		if (!path[n])
			break;
		path += n + 1;
	}
	if (eacces) {
		sh_error("%s: Permission denied", name);
		_exit(126);
	}
	sh_error("%s: not found", name);
	_exit(127);
}

/* Split a command's words into assignments and argv, expanded. */
static int expand_command(struct command *c, struct fields *assign,
			  struct fields *args)
{
	int i;

	for (i = 0; i < c->nwords; i++) {
		if (args->n == 0 && is_assignment(c->words[i])) {
			char *eq = strchr(c->words[i], '=');
			char *v = expand_one(eq + 1);

			if (!v)
				return -1;
			fields_add(assign,
				   sh_strndup(c->words[i],
					      (size_t)(eq - c->words[i])));
			fields_add(assign, v);
		} else if (expand_word(c->words[i], 0, args) < 0) {
			return -1;
		}
	}
	return 0;
}

static void assign_all(struct fields *assign)
{
	int i;

	for (i = 0; i + 1 < assign->n; i += 2)
		setenv(assign->v[i], assign->v[i + 1], 1);
}

/*
 * Run one simple command. in_child: we are already a pipeline's or a
 * background job's child, so nothing needs saving and an external
 * command is exec'd directly.
 */
static int run_simple(struct command *c, int in_child)
{
	struct fields assign = {0}, args = {0};
	struct saved_fd save[MAX_SAVED];
	int nsave = 0, status;
	builtin_fn fn;
	pid_t pid;

	if (expand_command(c, &assign, &args) < 0)
		return 2;
	fn = args.n ? find_builtin(args.v[0]) : NULL;
	if (args.n == 0 || fn) {
		/* Assignments alone, or before a builtin, stay in the shell. */
		assign_all(&assign);
		if (apply_redirs(c->redirs, in_child ? NULL : save, &nsave) < 0)
			status = 1;
		else
			status = fn ? fn(args.n, args.v) : 0;
		restore_redirs(save, nsave);
		return status;
	}
	if (in_child) {
		assign_all(&assign);
		if (apply_redirs(c->redirs, NULL, NULL) < 0)
			_exit(1);
		exec_external(args.v);
	}
	pid = fork();
	if (pid < 0) {
		sh_error("fork: %s", strerror(errno));
		return 2;
	}
	if (pid == 0) {
		child_reset_signals();
		assign_all(&assign);
		if (apply_redirs(c->redirs, NULL, NULL) < 0)
			_exit(1);
		exec_external(args.v);
	}
	return wait_child(pid);
}

static int run_pipeline(struct pipeline *p)
{
	pid_t pids[64];
	int i, prev = -1, status = 0, n = p->ncmds;

	if (n > 64) {
		sh_error("pipeline too long");
		return 2;
	}
	if (n == 1) {
		status = run_simple(&p->cmds[0], 0);
		return p->bang ? !status : status;
	}
	for (i = 0; i < n; i++) {
		int fds[2] = {-1, -1};

		if (i + 1 < n && pipe(fds) < 0) {
			sh_error("pipe: %s", strerror(errno));
			n = i;
			break;
		}
		pids[i] = fork();
		if (pids[i] == 0) {
			child_reset_signals();
			if (prev >= 0) {
				dup2(prev, 0);
				close(prev);
			}
			if (fds[1] >= 0) {
				dup2(fds[1], 1);
				close(fds[1]);
				close(fds[0]);
			}
			_exit(run_simple(&p->cmds[i], 1));
		}
		if (pids[i] < 0)
			sh_error("fork: %s", strerror(errno));
		/* The parent keeps no pipe ends: readers see EOF when the
		 * last writer exits, writers SIGPIPE when readers are gone. */
		if (prev >= 0)
			close(prev);
		if (fds[1] >= 0)
			close(fds[1]);
		prev = fds[0];
	}
	if (prev >= 0)
		close(prev);
	for (i = 0; i < n; i++)
		status = pids[i] > 0 ? wait_child(pids[i]) : 2;
	return p->bang ? !status : status;
}

static int run_andor(struct andor *a)
{
	int i, status = run_pipeline(&a->pipes[0]);

	for (i = 1; i < a->npipes; i++) {
		if ((a->ops[i - 1] == T_AND) == (status == 0)) {
			last_status = status;
			status = run_pipeline(&a->pipes[i]);
		}
	}
	return status;
}

int run_list(struct list *l)
{
	int i;

	for (i = 0; i < l->n; i++) {
		struct andor *a = &l->items[i];
		pid_t pid;

		if (!a->background) {
			last_status = run_andor(a);
			continue;
		}
		pid = fork();
		if (pid == 0) {
			child_reset_signals();
			_exit(run_andor(a));
		}
		if (pid < 0) {
			sh_error("fork: %s", strerror(errno));
			last_status = 2;
			continue;
		}
		last_bg_pid = pid;
		if (interactive)
			sh_print(2, "[%d]\n", (int)pid);
		last_status = 0;
	}
	return last_status;
}
