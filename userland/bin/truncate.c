/*
 * truncate - shrink or extend files to a size, as coreutils truncate.
 *   truncate [-c] -s SIZE FILE...
 *     -c    do not create missing files
 *     SIZE  [+-<>/%]NUMBER[K|M|G|T|KiB|MiB|...|KB|MB|...]
 *           K, KiB = 1024; KB = 1000 (and so on up)
 *           +N grow by N   -N shrink by N (not below 0)
 *           <N at most N   >N at least N
 *           /N round down to a multiple of N   %N round up to one
 * Each file is opened (created unless -c) and cut with ftruncate(2),
 * the way coreutils does it; the kernel's do_sys_ftruncate path is the
 * one exercised.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct size_spec {
	char op; /* 0 (absolute) or one of + - < > / % */
	long long n;
};

static void usage(void)
{
	fprintf(stderr,
		"usage: truncate [-c] -s [+-<>/%%]SIZE[KMGT] FILE...\n");
	exit(1);
}

/* Parse "K", "KiB", "KB", ... into a multiplier; 0 if invalid. */
static long long suffix_mult(const char *s)
{
	static const char units[] = "KMGTPE";
	const char *u;
	long long base = 1024, m = 1;
	int i;

	if (!*s)
		return 1;
	u = strchr(units, s[0] & ~0x20);
	if (!u || !s[0])
		return 0;
	if (s[1] == '\0' || (s[1] == 'i' && s[2] == 'B' && !s[3]))
		base = 1024;
	else if (s[1] == 'B' && !s[2])
		base = 1000;
	else
		return 0;
	for (i = 0; i <= u - units; i++)
		m *= base;
	return m;
}

static int parse_size(const char *s, struct size_spec *sz)
{
	long long mult;
	char *end;

	sz->op = strchr("+-<>/%", *s) && *s ? *s++ : 0;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	sz->n = strtoll(s, &end, 10);
	if (errno)
		return -1;
	mult = suffix_mult(end);
	if (!mult || sz->n > (long long)(~0ULL >> 1) / mult)
		return -1;
	sz->n *= mult;
	return 0;
}

static long long new_size(const struct size_spec *sz, long long cur)
{
	switch (sz->op) {
	case '+':
		return cur + sz->n;
	case '-':
		return cur > sz->n ? cur - sz->n : 0;
	case '<':
		return cur > sz->n ? sz->n : cur;
	case '>':
		return cur < sz->n ? sz->n : cur;
	case '/':
		return cur / sz->n * sz->n;
	case '%':
		return (cur + sz->n - 1) / sz->n * sz->n;
	}
	return sz->n;
}

static int truncate_one(const char *path, const struct size_spec *sz,
			int create)
{
	int fd =
	    open(path, O_WRONLY | O_NONBLOCK | (create ? O_CREAT : 0), 0666);
	struct stat st;
	long long size;

	if (fd < 0) {
		if (!create && errno == ENOENT)
			return 0;
		warn("%s", path);
		return 1;
	}
	st.st_size = 0;
	if (sz->op && fstat(fd, &st) < 0) {
		warn("%s", path);
		close(fd);
		return 1;
	}
	size = new_size(sz, st.st_size);
	if (ftruncate(fd, size) < 0) {
		warn("%s", path);
		close(fd);
		return 1;
	}
	if (close(fd) < 0) {
		warn("%s", path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct size_spec sz;
	const char *size = NULL;
	int c, create = 1, status = 0, i;

	while ((c = getopt(argc, argv, "cs:")) != -1) {
		if (c == 'c')
			create = 0;
		else if (c == 's')
			size = optarg;
		else
			usage();
	}
	if (!size || optind == argc)
		usage();
	if (parse_size(size, &sz) < 0)
		errx(1, "invalid size: '%s'", size);
	if ((sz.op == '/' || sz.op == '%') && sz.n == 0)
		errx(1, "division by zero");
	for (i = optind; i < argc; i++)
		status |= truncate_one(argv[i], &sz, create);
	return status;
}
