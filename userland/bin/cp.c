/*
 * cp - copy files.
 *   cp SRC DST            copy SRC to DST (DST may be a directory)
 *   cp SRC... DIR         copy each SRC into DIR
 * Regular contents are copied with read/write (through the page cache,
 * no mmap); the new file gets SRC's permission bits. Directories are not
 * copied (no -r). Copying a file onto itself is refused, since opening
 * the destination with O_TRUNC would destroy the source first.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char buf[65536];

/* The path "dir/basename(src)". */
static void into_dir(char *out, size_t len, const char *dir, const char *src)
{
	const char *base = strrchr(src, '/');

	snprintf(out, len, "%s/%s", dir, base ? base + 1 : src);
}

static int copy_data(int in, int out, const char *src, const char *dst)
{
	ssize_t n;

	while ((n = read(in, buf, sizeof(buf))) != 0) {
		ssize_t done = 0;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			warn("%s", src);
			return 1;
		}
		while (done < n) {
			ssize_t w = write(out, buf + done, (size_t)(n - done));

			if (w < 0) {
				if (errno == EINTR)
					continue;
				warn("%s", dst);
				return 1;
			}
			done += w;
		}
	}
	return 0;
}

static int copy_file(const char *src, const char *dst)
{
	struct stat s, d;
	int in, out, r;

	in = open(src, O_RDONLY);
	if (in < 0 || fstat(in, &s) < 0) {
		warn("%s", src);
		if (in >= 0)
			close(in);
		return 1;
	}
	if (S_ISDIR(s.st_mode)) {
		warnx("%s: Is a directory (not copied)", src);
		close(in);
		return 1;
	}
	if (stat(dst, &d) == 0 && d.st_dev == s.st_dev &&
	    d.st_ino == s.st_ino) {
		warnx("%s and %s are the same file", src, dst);
		close(in);
		return 1;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, s.st_mode & 07777);
	if (out < 0) {
		warn("%s", dst);
		close(in);
		return 1;
	}
	r = copy_data(in, out, src, dst);
	close(in);
	if (close(out) < 0) {
		warn("%s", dst);
		r = 1;
	}
	return r;
}

int main(int argc, char **argv)
{
	const char *dst = argv[argc - 1];
	char path[4096];
	struct stat st;
	int i, status = 0, isdir;

	if (argc < 3 || argv[1][0] == '-') {
		fprintf(stderr, "usage: cp SRC DST | cp SRC... DIR\n");
		return 1;
	}
	isdir = stat(dst, &st) == 0 && S_ISDIR(st.st_mode);
	if (argc > 3 && !isdir) {
		errno = ENOTDIR;
		err(1, "%s", dst);
	}
	for (i = 1; i < argc - 1; i++) {
		if (isdir)
			into_dir(path, sizeof(path), dst, argv[i]);
		else
			snprintf(path, sizeof(path), "%s", dst);
		status |= copy_file(argv[i], path);
	}
	return status;
}
