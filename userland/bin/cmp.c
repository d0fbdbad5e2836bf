/*
 * cmp - compare two files byte by byte.
 *   cmp [-s] FILE1 FILE2        "-" is standard input
 *     -s  print nothing; only the exit status
 * Exit 0: identical; 1: different ("a b differ: byte N, line M", or
 * "cmp: EOF on a after byte N, in line M" when one is a prefix of the
 * other, as GNU cmp says it); 2: trouble (a file cannot be read).
 */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct in {
	const char *name;
	int fd;
	unsigned char buf[65536];
	ssize_t len, pos;
};

static struct in a, b;

/* Next byte, -1 at EOF; exits 2 on a read error. */
static int next(struct in *f)
{
	if (f->pos == f->len) {
		f->len = read(f->fd, f->buf, sizeof(f->buf));
		if (f->len < 0)
			err(2, "%s", f->name);
		f->pos = 0;
		if (f->len == 0)
			return -1;
	}
	return f->buf[f->pos++];
}

static void open_in(struct in *f, const char *name)
{
	f->name = name;
	f->fd = strcmp(name, "-") ? open(name, O_RDONLY) : 0;
	if (f->fd < 0)
		err(2, "%s", name);
}

int main(int argc, char **argv)
{
	unsigned long long byte = 1, line = 1;
	int silent = 0, i = 1;

	if (argc > 1 && strcmp(argv[1], "-s") == 0) {
		silent = 1;
		i = 2;
	}
	if (argc - i != 2) {
		fprintf(stderr, "usage: cmp [-s] FILE1 FILE2\n");
		return 2;
	}
	open_in(&a, argv[i]);
	open_in(&b, argv[i + 1]);
	for (;; byte++) {
		int ca = next(&a), cb = next(&b);

		if (ca == cb && ca < 0)
			return 0;
		if (ca < 0 || cb < 0) {
			if (!silent)
				fprintf(stderr,
					"cmp: EOF on %s after byte %llu,"
					" in line %llu\n",
					ca < 0 ? a.name : b.name, byte - 1,
					line);
			return 1;
		}
		if (ca != cb) {
			if (!silent)
				printf("%s %s differ: byte %llu, line %llu\n",
				       a.name, b.name, byte, line);
			return 1;
		}
		if (ca == '\n')
			line++;
	}
}
