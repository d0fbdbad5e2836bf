/*
 * env - print the environment, or run a command in a changed one.
 *   env [-i] [-u NAME]... [NAME=VALUE]... [COMMAND [ARG]...]
 *     -i  start from an empty environment   -u  remove NAME
 * COMMAND is looked up in PATH (execvp). Exit 127 if it is not found,
 * 126 if it cannot be run, as shells do.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	int i = 1;
	char **e;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-i") == 0 || strcmp(argv[i], "-") == 0) {
			clearenv();
		} else if (strcmp(argv[i], "-u") == 0 && i + 1 < argc) {
			unsetenv(argv[++i]);
		} else if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else {
			fprintf(stderr, "usage: env [-i] [-u NAME]... "
					"[NAME=VALUE]... [COMMAND [ARG]...]\n");
			return 125;
		}
	}
	for (; i < argc && strchr(argv[i], '='); i++)
		if (putenv(argv[i]) < 0)
			err(125, "putenv");
	if (i == argc) {
		for (e = environ; e && *e; e++)
			printf("%s\n", *e);
		return fflush(stdout) ? 125 : 0;
	}
	execvp(argv[i], argv + i);
	warn("%s", argv[i]);
	return errno == ENOENT ? 127 : 126;
}
