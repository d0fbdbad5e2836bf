/*
 * rm - remove files and directories.
 *   rm [-r] [-f] PATH...
 *     -r, -R  remove directories and everything in them
 *     -f      no error for missing files, no error without operands
 * A directory's names are all read before any is removed, so the
 * removal cannot disturb the readdir position (a kernel whose directory
 * offsets shift on unlink would otherwise skip entries). Symbolic links
 * are removed, never followed.
 */
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int opt_r, opt_f;

static int rm_path(const char *path);

/* Names in dir (not . and ..), NULL-terminated; NULL on error. */
static char **read_names(const char *dir)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *d;
	DIR *dp = opendir(dir);

	if (!dp)
		return NULL;
	while ((d = readdir(dp))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (n + 1 >= cap) {
			cap = cap ? cap * 2 : 32;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				err(1, "out of memory");
		}
		names[n++] = strdup(d->d_name);
	}
	closedir(dp);
	if (!names)
		names = calloc(1, sizeof(*names));
	names[n] = NULL;
	return names;
}

static int rm_tree(const char *dir)
{
	char **names = read_names(dir);
	int status = 0;
	size_t i;

	if (!names) {
		warn("%s", dir);
		return 1;
	}
	for (i = 0; names[i]; i++) {
		char *p = malloc(strlen(dir) + strlen(names[i]) + 2);

		if (!p)
			err(1, "out of memory");
		sprintf(p, "%s/%s", dir, names[i]);
		status |= rm_path(p);
		free(p);
		free(names[i]);
	}
	free(names);
	if (rmdir(dir) < 0) {
		warn("%s", dir);
		return 1;
	}
	return status;
}

static int rm_path(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0) {
		if (opt_f && errno == ENOENT)
			return 0;
		warn("%s", path);
		return 1;
	}
	if (S_ISDIR(st.st_mode)) {
		if (opt_r)
			return rm_tree(path);
		warnx("%s: Is a directory", path);
		return 1;
	}
	if (unlink(path) < 0) {
		warn("%s", path);
		return 1;
	}
	return 0;
}

/* "." and ".." as the last component: refuse, as coreutils does. */
static int is_dot(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strcmp(base, ".") || !strcmp(base, "..");
}

int main(int argc, char **argv)
{
	int i, status = 0;
	const char *o;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		for (o = argv[i] + 1; *o; o++) {
			if (*o == 'r' || *o == 'R')
				opt_r = 1;
			else if (*o == 'f')
				opt_f = 1;
			else
				goto usage;
		}
	}
	if (i == argc && !opt_f)
		goto usage;
	for (; i < argc; i++) {
		if (is_dot(argv[i])) {
			warnx("%s: refusing to remove '.' or '..'", argv[i]);
			status = 1;
			continue;
		}
		status |= rm_path(argv[i]);
	}
	return status;
usage:
	fprintf(stderr, "usage: rm [-r] [-f] PATH...\n");
	return 1;
}
