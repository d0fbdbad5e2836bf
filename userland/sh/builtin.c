/*
 * builtin.c - commands the shell runs itself, because they change the
 * shell's own state (cd, exit, export, unset, wait) or are needed
 * before any program can run (pwd, :).
 *
 * Each takes argc/argv like main() and returns an exit status. Their
 * output goes through write(2) (sh_print), so redirections done with
 * dup2 in redir.c apply to it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sh.h"

extern char **environ;

static int bi_true(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static int bi_cd(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : getenv("HOME");
	char old[4096], cwd[4096];
	int dash = 0;

	if (!dir || !*dir)
		dir = "/";
	if (strcmp(dir, "-") == 0) {
		dir = getenv("OLDPWD");
		dash = 1;
		if (!dir) {
			sh_error("cd: OLDPWD not set");
			return 1;
		}
	}
	if (!getcwd(old, sizeof(old)))
		old[0] = '\0';
	if (chdir(dir) < 0) {
		sh_error("cd: %s: %s", dir, strerror(errno));
		return 1;
	}
	if (old[0])
		setenv("OLDPWD", old, 1);
	if (getcwd(cwd, sizeof(cwd))) {
		setenv("PWD", cwd, 1);
		if (dash)
			sh_print(1, "%s\n", cwd);
	}
	return 0;
}

static int bi_pwd(int argc, char **argv)
{
	char cwd[4096];

	(void)argc;
	(void)argv;
	if (!getcwd(cwd, sizeof(cwd))) {
		sh_error("pwd: %s", strerror(errno));
		return 1;
	}
	sh_print(1, "%s\n", cwd);
	return 0;
}

static int bi_exit(int argc, char **argv)
{
	char *end;
	long n;

	if (argc < 2)
		exit(last_status);
	n = strtol(argv[1], &end, 10);
	if (!*argv[1] || *end) {
		sh_error("exit: %s: numeric argument required", argv[1]);
		exit(2);
	}
	exit((int)(n & 255));
}

static int valid_name(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || isdigit((unsigned char)s[0]))
		return 0;
	for (i = 0; i < len; i++)
		if (s[i] != '_' && !isalnum((unsigned char)s[i]))
			return 0;
	return 1;
}

/* export NAME='value', with ' inside written as '\'' */
static void print_export(const char *var)
{
	const char *eq = strchr(var, '=');
	struct strbuf sb = {0};
	const char *p;

	if (!eq)
		return;
	sb_adds(&sb, "export ", 7);
	sb_adds(&sb, var, (size_t)(eq - var));
	sb_adds(&sb, "='", 2);
	for (p = eq + 1; *p; p++) {
		if (*p == '\'')
			sb_adds(&sb, "'\\''", 4);
		else
			sb_addc(&sb, *p);
	}
	sb_adds(&sb, "'\n", 2);
	write(1, sb.s, sb.len);
	free(sb.s);
}

/* Every variable is in the environment already: export only assigns. */
static int bi_export(int argc, char **argv)
{
	int i, status = 0;
	char **e;

	if (argc < 2) {
		for (e = environ; *e; e++)
			print_export(*e);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		size_t len = eq ? (size_t)(eq - argv[i]) : strlen(argv[i]);

		if (!valid_name(argv[i], len)) {
			sh_error("export: %s: bad variable name", argv[i]);
			status = 1;
		} else if (eq) {
			*eq = '\0';
			setenv(argv[i], eq + 1, 1);
			*eq = '=';
		}
	}
	return status;
}

static int bi_unset(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		unsetenv(argv[i]);
	return 0;
}

/* wait [PID]: for one background job (its status), or for all of them
 * (status 0, as POSIX says). */
static int bi_wait(int argc, char **argv)
{
	int st;

	if (argc > 1)
		return wait_child((pid_t)atoi(argv[1]));
	while (waitpid(-1, &st, 0) > 0 || errno == EINTR)
		;
	return 0;
}

static const struct {
	const char *name;
	builtin_fn fn;
} builtins[] = {
    {":", bi_true},	   {"cd", bi_cd},   {"exit", bi_exit},
    {"export", bi_export}, {"pwd", bi_pwd}, {"unset", bi_unset},
    {"wait", bi_wait},
};

builtin_fn find_builtin(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (strcmp(builtins[i].name, name) == 0)
			return builtins[i].fn;
	return NULL;
}
