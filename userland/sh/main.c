/*
 * main.c - the pagelab shell: options, input, and the read-run loop.
 *
 *   sh [-i]                       commands from standard input; prompts
 *                                 ("# " for root, "$ " otherwise) when it
 *                                 is a terminal or with -i
 *   sh [-i] -c STRING [NAME [ARG]...]   run STRING; $0=NAME, $1...=ARGs
 *   sh FILE [ARG]...              run a script; $0=FILE, $1...=ARGs
 *
 * The loop reads one line, lexes and parses it; if the command is not
 * finished (open quote, trailing |, && or ||, backslash-newline) it reads
 * the next line too (prompting "> "), then runs the command and frees
 * its memory. A syntax error sets $? to 2 and ends a non-interactive
 * shell, as in other shells. Standard input is read one byte at a time
 * when it is not a terminal, so that commands the script starts can
 * read the rest of it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sh.h"

int last_status;
int interactive;
pid_t sh_pid;
pid_t last_bg_pid;
const char *sh_name = "sh";
int posc;
char **posv;

struct input {
	int fd;
	const char *str; /* -c STRING, else NULL */
	size_t pos;
	int bytewise;
	char buf[4096];
	size_t blen, bpos;
};

/* Set by Ctrl-C in an interactive shell: drop the line being typed. */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* A character, -1 at end of input, -2 when Ctrl-C cut the line short. */
static int input_getc(struct input *in)
{
	ssize_t n;

	if (in->str)
		return in->str[in->pos] ? (unsigned char)in->str[in->pos++]
					: -1;
	if (in->bpos == in->blen) {
		do {
			n = read(in->fd, in->buf,
				 in->bytewise ? 1 : sizeof(in->buf));
			if (n < 0 && errno == EINTR && interrupted) {
				interrupted = 0;
				return -2;
			}
		} while (n < 0 && errno == EINTR);
		if (n <= 0)
			return -1;
		in->blen = (size_t)n;
		in->bpos = 0;
	}
	return (unsigned char)in->buf[in->bpos++];
}

/* Append one line (with its '\n') to sb; 0 at end of input, -1 when
 * Ctrl-C interrupted it. */
static int input_line(struct input *in, struct strbuf *sb)
{
	int c, got = 0;

	while ((c = input_getc(in)) >= 0 || c == -2) {
		if (c == -2)
			return -1;
		got = 1;
		sb_addc(sb, (char)c);
		if (c == '\n')
			break;
	}
	return got;
}

/* Collect finished background jobs so they do not stay zombies. */
static void reap_jobs(void)
{
	int st;

	while (waitpid(-1, &st, WNOHANG) > 0)
		;
}

static int sh_loop(struct input *in)
{
	struct strbuf text = {0};

	for (;;) {
		struct token *toks;
		struct list l;
		int ntok, r, got;

		if (interactive) {
			if (!text.len)
				reap_jobs();
			interrupted = 0;	/* a Ctrl-C meant for a child */
			sh_print(2, "%s",
				 text.len	  ? "> "
				 : geteuid() == 0 ? "# "
						  : "$ ");
		}
		got = input_line(in, &text);
		if (got < 0) {	/* Ctrl-C: forget the line, prompt anew */
			sh_print(2, "\n");
			text.len = 0;
			last_status = 130;
			continue;
		}
		if (!got && !text.len)
			break;
		r = lex(text.s, &toks, &ntok);
		if (r == 0)
			r = parse(toks, ntok, &l);
		if (r == SH_MORE && got) {
			arena_reset();
			continue;
		}
		if (r == SH_MORE) {
			sh_error("syntax error: unexpected end of file");
			r = -1;
		}
		if (r < 0) {
			last_status = 2;
			if (!interactive)
				exit(2);
		} else {
			run_list(&l);
		}
		text.len = 0;
		arena_reset();
		if (!got)
			break;
	}
	free(text.s);
	return last_status;
}

static void set_params(const char *name, char **args)
{
	int i, n = 0;

	while (args && args[n])
		n++;
	/* Copies: the caller's strings may live in the arena. */
	posv = malloc(sizeof(*posv) * (size_t)(n + 1));
	for (i = 0; i < n; i++)
		posv[i] = strdup(args[i]);
	posv[n] = NULL;
	posc = n;
	sh_name = strdup(name);
}

/* Run a script file (sh FILE, or a file execve refused with ENOEXEC)
 * and exit with its status. argv[0] is the file. */
int sh_run_file(const char *path, char **argv)
{
	struct input *in = calloc(1, sizeof(*in));
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		sh_error("%s: %s", path, strerror(errno));
		exit(errno == ENOENT ? 127 : 126);
	}
	/* Out of the way of 0-9, which scripts redirect, and not inherited. */
	in->fd = fcntl(fd, F_DUPFD, 10);
	if (in->fd < 0)
		in->fd = fd;
	else
		close(fd);
	fcntl(in->fd, F_SETFD, FD_CLOEXEC);
	set_params(path, argv + 1);
	interactive = 0;
	last_status = 0;
	exit(sh_loop(in));
}

static void usage(void)
{
	sh_error("usage: sh [-i] [-c STRING [NAME [ARG]...] | FILE [ARG]...]");
	exit(2);
}

int main(int argc, char **argv)
{
	static struct input in;
	const char *cmd = NULL;
	char cwd[4096];
	int i = 1, force_i = 0;

	(void)argc;
	sh_pid = getpid();
	if (getcwd(cwd, sizeof(cwd)))
		setenv("PWD", cwd, 1);
	for (; argv[i] && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-i") == 0) {
			force_i = 1;
		} else if (strcmp(argv[i], "-c") == 0) {
			if (!argv[++i])
				usage();
			cmd = argv[i++];
			break;
		} else if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else {
			usage();
		}
	}
	if (!cmd && argv[i])
		sh_run_file(argv[i], argv + i);
	if (cmd) {
		set_params(argv[i] ? argv[i] : argv[0],
			   argv[i] ? argv + i + 1 : NULL);
		in.str = cmd;
	} else {
		set_params(argv[0], NULL);
		in.fd = 0;
		in.bytewise = !isatty(0);
	}
	interactive = force_i || (!cmd && isatty(0));
	if (interactive) {
		/* Ctrl-C abandons the line being typed (a handler, not
		 * SIG_IGN, so read() is interrupted); children get the
		 * default action back through execve. */
		struct sigaction sa = { .sa_handler = on_sigint };

		sigaction(SIGINT, &sa, NULL);
		signal(SIGQUIT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
	}
	return sh_loop(&in);
}
