/*
 * kill - send a signal to processes.
 *   kill [-SIGNAL | -s SIGNAL] PID...    SIGNAL: a name (TERM, SIGTERM)
 *                                        or a number; default TERM
 *   kill -l                              list the signal names
 * A PID of -1 or -N (process group) must follow "--" or a signal option
 * so it is not read as a signal.
 */
#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Rows of names, by hand: the formatter would make a ragged grid. */
/* clang-format off */
static const char *const names[] = {
	[SIGHUP] = "HUP", [SIGINT] = "INT", [SIGQUIT] = "QUIT",
	[SIGILL] = "ILL", [SIGTRAP] = "TRAP", [SIGABRT] = "ABRT",
	[SIGBUS] = "BUS", [SIGFPE] = "FPE", [SIGKILL] = "KILL",
	[SIGUSR1] = "USR1", [SIGSEGV] = "SEGV", [SIGUSR2] = "USR2",
	[SIGPIPE] = "PIPE", [SIGALRM] = "ALRM", [SIGTERM] = "TERM",
	[SIGSTKFLT] = "STKFLT", [SIGCHLD] = "CHLD", [SIGCONT] = "CONT",
	[SIGSTOP] = "STOP", [SIGTSTP] = "TSTP", [SIGTTIN] = "TTIN",
	[SIGTTOU] = "TTOU", [SIGURG] = "URG", [SIGXCPU] = "XCPU",
	[SIGXFSZ] = "XFSZ", [SIGVTALRM] = "VTALRM", [SIGPROF] = "PROF",
	[SIGWINCH] = "WINCH", [SIGIO] = "IO", [SIGPWR] = "PWR",
	[SIGSYS] = "SYS",
};
/* clang-format on */
#define NSIGNAMES ((int)(sizeof(names) / sizeof(names[0])))

/* Signal number for "TERM", "SIGTERM", "15"; -1 if unknown. */
static int parse_signal(const char *s)
{
	char *end;
	long n;
	int i;

	if (*s >= '0' && *s <= '9') {
		n = strtol(s, &end, 10);
		return *end || n >= 65 ? -1 : (int)n;
	}
	if (strncasecmp(s, "SIG", 3) == 0)
		s += 3;
	for (i = 1; i < NSIGNAMES; i++)
		if (names[i] && strcasecmp(s, names[i]) == 0)
			return i;
	return -1;
}

static int usage(void)
{
	fprintf(stderr, "usage: kill [-SIGNAL | -s SIGNAL] PID... | kill -l\n");
	return 1;
}

int main(int argc, char **argv)
{
	int sig = SIGTERM, i = 1, status = 0;

	if (argc < 2)
		return usage();
	if (strcmp(argv[1], "-l") == 0) {
		for (i = 1; i < NSIGNAMES; i++)
			if (names[i])
				printf("%2d) SIG%s\n", i, names[i]);
		return 0;
	}
	if (strcmp(argv[1], "-s") == 0) {
		if (argc < 3)
			return usage();
		sig = parse_signal(argv[2]);
		i = 3;
	} else if (strcmp(argv[1], "--") == 0) {
		i = 2;
	} else if (argv[1][0] == '-') {
		sig = parse_signal(argv[1] + 1);
		i = 2;
	}
	if (sig < 0)
		errx(1, "%s: invalid signal", argv[i - 1]);
	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	if (i == argc)
		return usage();
	for (; i < argc; i++) {
		char *end;
		long pid = strtol(argv[i], &end, 10);

		if (*end || end == argv[i]) {
			warnx("%s: not a process id", argv[i]);
			status = 1;
		} else if (kill((pid_t)pid, sig) < 0) {
			warn("%s", argv[i]);
			status = 1;
		}
	}
	return status;
}
