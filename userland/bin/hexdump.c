/*
 * hexdump - canonical hex+ASCII dump, byte for byte what util-linux's
 * "hexdump -C" prints.
 *   hexdump [-C] [-v] [-s OFFSET] [-n LENGTH] [FILE]...
 *     -C  canonical format (the only format; accepted for habit)
 *     -v  print every line (default: a run of identical lines is "*")
 *     -s  skip OFFSET bytes of input first   -n  dump at most LENGTH
 *     OFFSET and LENGTH are decimal, 0x hex or 0 octal
 * FILEs are dumped as one stream, standard input when none is given.
 * Line: 8-digit hex offset, two spaces, 16 bytes as "xx " with an extra
 * space after the eighth, then "|ascii|" (non-printables as '.'); the
 * last line is the total offset. Empty input prints nothing.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned char line[16], prev[16];
static int have_prev, starred, opt_v;
static unsigned long long offset;

static void print_line(size_t n)
{
	size_t i;
	int col = 0;

	printf("%08llx  ", offset);
	for (i = 0; i < 16; i++) {
		if (i < n)
			col += printf("%02x ", line[i]);
		else
			col += printf("   ");
		if (i == 7)
			col += printf(" ");
	}
	printf(" |");
	for (i = 0; i < n; i++)
		putchar(line[i] >= 0x20 && line[i] < 0x7f ? line[i] : '.');
	printf("|\n");
}

/* A full line: print it, or squeeze it into "*" if it repeats. */
static void full_line(void)
{
	if (!opt_v && have_prev && memcmp(line, prev, 16) == 0) {
		if (!starred)
			printf("*\n");
		starred = 1;
	} else {
		print_line(16);
		starred = 0;
	}
	memcpy(prev, line, 16);
	have_prev = 1;
	offset += 16;
}

static unsigned long long parse_num(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		errx(1, "invalid %s: '%s'", what, s);
	return v;
}

int main(int argc, char **argv)
{
	unsigned long long skip = 0, length = ~0ULL, done = 0, consumed = 0;
	size_t fill = 0;
	int c, i, status = 0, nfiles;
	char buf[4096];

	while ((c = getopt(argc, argv, "Cvs:n:")) != -1) {
		switch (c) {
		case 'C':
			break;
		case 'v':
			opt_v = 1;
			break;
		case 's':
			skip = parse_num(optarg, "offset");
			break;
		case 'n':
			length = parse_num(optarg, "length");
			break;
		default:
			fprintf(stderr, "usage: hexdump [-C] [-v] [-s OFFSET] "
					"[-n LENGTH] [FILE]...\n");
			return 1;
		}
	}
	offset = skip;
	nfiles = argc - optind;
	for (i = 0; i < (nfiles ? nfiles : 1) && done < length; i++) {
		const char *path = nfiles ? argv[optind + i] : "-";
		int fd = strcmp(path, "-") ? open(path, O_RDONLY) : 0;
		ssize_t n;

		if (fd < 0) {
			warn("%s", path);
			status = 1;
			continue;
		}
		while (done < length && (n = read(fd, buf, sizeof(buf))) > 0) {
			ssize_t k = 0;

			consumed += (unsigned long long)n;

			/* Skipping by reading works for pipes and ttys too. */
			if (skip) {
				k = (unsigned long long)n < skip
					? n
					: (ssize_t)skip;
				skip -= (unsigned long long)k;
			}
			for (; k < n && done < length; k++, done++) {
				line[fill++] = (unsigned char)buf[k];
				if (fill == 16) {
					full_line();
					fill = 0;
				}
			}
		}
		if (n < 0) {
			warn("%s", path);
			status = 1;
		}
		if (fd != 0)
			close(fd);
	}
	if (fill) {
		print_line(fill);
		offset += fill;
	}
	/* Skipped past the end: util-linux shows where the input ended. */
	if (done == 0)
		offset = consumed;
	if (offset > 0)
		printf("%08llx\n", offset);
	if (fflush(stdout) != 0)
		err(1, "write error");
	return status;
}
