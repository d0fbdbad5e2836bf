/*
 * cat - copy files (or standard input) to standard output.
 *   cat [FILE]...           "-" or no FILE: standard input
 * Errors name the file (cat: PATH: reason); cat goes on with the next
 * file and exits 1 at the end.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static char buf[65536];

/* Copy fd to stdout. Returns 0, or -1 with errno (name says which side). */
static int copy(int fd, const char **side)
{
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf)), done = 0;

		if (n == 0)
			return 0;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			*side = "read";
			return -1;
		}
		while (done < n) {
			ssize_t w = write(1, buf + done, (size_t)(n - done));

			if (w < 0) {
				if (errno == EINTR)
					continue;
				*side = "write";
				return -1;
			}
			done += w;
		}
	}
}

static int cat_one(const char *path)
{
	const char *side = NULL;
	int fd = 0, r;

	if (strcmp(path, "-") != 0) {
		fd = open(path, O_RDONLY);
		if (fd < 0) {
			warn("%s", path);
			return 1;
		}
	}
	r = copy(fd, &side);
	if (r < 0) {
		if (strcmp(side, "write") == 0)
			warn("write error");
		else
			warn("%s", path);
	}
	if (fd != 0)
		close(fd);
	return r < 0;
}

int main(int argc, char **argv)
{
	int i, status = 0;

	if (argc > 1 && strcmp(argv[1], "--help") == 0) {
		warnx("usage: cat [FILE]...");
		return 0;
	}
	if (argc < 2)
		return cat_one("-");
	for (i = 1; i < argc; i++)
		status |= cat_one(argv[i]);
	return status;
}
