/*
 * echo - print the arguments separated by spaces, then a newline.
 *   echo [-n] [ARG]...      -n: no trailing newline
 * The whole line goes out in one write(2) when it fits, so lines from
 * concurrent writers do not interleave mid-line.
 */
#include <err.h>
#include <string.h>
#include <unistd.h>

static char out[8192];
static size_t used;

static int flush(void)
{
	size_t done = 0;

	while (done < used) {
		ssize_t n = write(1, out + done, used - done);

		if (n < 0)
			return -1;
		done += (size_t)n;
	}
	used = 0;
	return 0;
}

static int put(const char *s, size_t len)
{
	while (len > 0) {
		size_t n = sizeof(out) - used;

		if (n == 0) {
			if (flush() < 0)
				return -1;
			continue;
		}
		if (n > len)
			n = len;
		memcpy(out + used, s, n);
		used += n;
		s += n;
		len -= n;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1, newline = 1, r = 0;

	if (argc > 1 && strcmp(argv[1], "-n") == 0) {
		newline = 0;
		i = 2;
	}
	for (; i < argc && r == 0; i++) {
		r = put(argv[i], strlen(argv[i]));
		if (r == 0 && i + 1 < argc)
			r = put(" ", 1);
	}
	if (r == 0 && newline)
		r = put("\n", 1);
	if (r == 0)
		r = flush();
	if (r < 0)
		err(1, "write error");
	return 0;
}
