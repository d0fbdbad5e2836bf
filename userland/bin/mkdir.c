/*
 * mkdir - make directories.
 *   mkdir [-p] DIR...
 *     -p  make missing parents too; an existing directory is no error
 * Mode 0777, reduced by the umask, as mkdir(2) does.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* mkdir that accepts an existing directory (for -p). */
static int mkdir_exists_ok(const char *path)
{
	struct stat st;

	if (mkdir(path, 0777) == 0)
		return 0;
	if (errno != EEXIST)
		return -1;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	errno = EEXIST;
	return -1;
}

/* Make every prefix of path ending at a '/', then path itself. */
static int mkdir_parents(const char *path)
{
	char buf[4096];
	char *p;

	if (strlen(path) >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(buf, path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/' || p[-1] == '/')
			continue;
		*p = '\0';
		if (mkdir_exists_ok(buf) < 0) {
			warn("%s", buf);
			return -1;
		}
		*p = '/';
	}
	if (mkdir_exists_ok(buf) < 0) {
		warn("%s", path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1, parents = 0, status = 0;

	if (argc > 1 && strcmp(argv[1], "-p") == 0) {
		parents = 1;
		i = 2;
	}
	if (i >= argc || argv[i][0] == '-') {
		fprintf(stderr, "usage: mkdir [-p] DIR...\n");
		return 1;
	}
	for (; i < argc; i++) {
		if (parents) {
			if (mkdir_parents(argv[i]) < 0)
				status = 1;
		} else if (mkdir(argv[i], 0777) < 0) {
			warn("%s", argv[i]);
			status = 1;
		}
	}
	return status;
}
