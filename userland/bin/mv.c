/*
 * mv - move (rename) files.
 *   mv SRC DST            rename SRC to DST (DST may be a directory)
 *   mv SRC... DIR         move each SRC into DIR
 * rename(2) does the work. Across file systems (EXDEV) a regular file is
 * copied and then unlinked; other kinds are refused there.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char buf[65536];

/* Copy then unlink: the EXDEV fallback for regular files. */
static int copy_unlink(const char *src, const char *dst)
{
	struct stat st;
	int in, out, r = 0;
	ssize_t n;

	if (lstat(src, &st) < 0 || !S_ISREG(st.st_mode)) {
		errno = EXDEV;
		warn("%s", src);
		return 1;
	}
	in = open(src, O_RDONLY);
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, st.st_mode & 07777);
	if (in < 0 || out < 0) {
		warn("%s", in < 0 ? src : dst);
		r = 1;
		goto out;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			warn("%s", dst);
			r = 1;
			goto out;
		}
	if (n < 0) {
		warn("%s", src);
		r = 1;
	}
out:
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) < 0 && !r) {
		warn("%s", dst);
		r = 1;
	}
	if (!r && unlink(src) < 0) {
		warn("%s", src);
		r = 1;
	}
	return r;
}

static int move(const char *src, const char *dst)
{
	if (rename(src, dst) == 0)
		return 0;
	if (errno == EXDEV)
		return copy_unlink(src, dst);
	warn("%s", src);
	return 1;
}

int main(int argc, char **argv)
{
	const char *dst = argv[argc - 1];
	char path[4096];
	struct stat st;
	int i, status = 0, isdir;

	if (argc < 3 || argv[1][0] == '-') {
		fprintf(stderr, "usage: mv SRC DST | mv SRC... DIR\n");
		return 1;
	}
	isdir = stat(dst, &st) == 0 && S_ISDIR(st.st_mode);
	if (argc > 3 && !isdir) {
		errno = ENOTDIR;
		err(1, "%s", dst);
	}
	for (i = 1; i < argc - 1; i++) {
		const char *base = strrchr(argv[i], '/');

		if (isdir)
			snprintf(path, sizeof(path), "%s/%s", dst,
				 base ? base + 1 : argv[i]);
		else
			snprintf(path, sizeof(path), "%s", dst);
		status |= move(argv[i], path);
	}
	return status;
}
