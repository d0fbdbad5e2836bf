/*
 * ln - make links.
 *   ln [-s] [-f] TARGET LINK      hard link (or -s: symbolic link)
 *   ln [-s] [-f] TARGET... DIR    links named after each TARGET, in DIR
 *     -f  remove an existing LINK first
 * A symbolic link stores TARGET as written: it is resolved relative to
 * the link's directory when used, not to the current directory now.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int opt_s, opt_f;

static int make_link(const char *target, const char *name)
{
	if (opt_f && unlink(name) < 0 && errno != ENOENT) {
		warn("%s", name);
		return 1;
	}
	if ((opt_s ? symlink(target, name) : link(target, name)) < 0) {
		warn("%s", name);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char path[4096];
	struct stat st;
	int c, i, n, status = 0, isdir;
	const char *dst;

	while ((c = getopt(argc, argv, "sf")) != -1) {
		if (c == 's') {
			opt_s = 1;
		} else if (c == 'f') {
			opt_f = 1;
		} else {
			fprintf(stderr, "usage: ln [-s] [-f] TARGET LINK | "
					"ln [-s] [-f] TARGET... DIR\n");
			return 1;
		}
	}
	n = argc - optind;
	if (n < 2) {
		fprintf(stderr, "usage: ln [-s] [-f] TARGET LINK | "
				"ln [-s] [-f] TARGET... DIR\n");
		return 1;
	}
	dst = argv[argc - 1];
	isdir = stat(dst, &st) == 0 && S_ISDIR(st.st_mode);
	if (n > 2 && !isdir) {
		errno = ENOTDIR;
		err(1, "%s", dst);
	}
	for (i = optind; i < argc - 1; i++) {
		const char *base = strrchr(argv[i], '/');

		if (isdir)
			snprintf(path, sizeof(path), "%s/%s", dst,
				 base ? base + 1 : argv[i]);
		else
			snprintf(path, sizeof(path), "%s", dst);
		status |= make_link(argv[i], path);
	}
	return status;
}
