/*
 * ls - list directory contents.
 *   ls [-l] [-a] [-d] [PATH]...
 *     -l  long format: mode, links, uid, gid, size, mtime, name, and
 *         "-> target" for symbolic links; "total N" (1 KiB blocks) per dir
 *     -a  include names starting with '.'
 *     -d  list directories themselves, not their contents
 * Roadmap: collect the operands; list the non-directories first, then
 * each directory (with a "PATH:" header when there is more than one
 * operand), names sorted bytewise, one per line. Uids and gids are shown
 * as numbers: pagelab has no user database. Directories are read with
 * readdir (getdents64 underneath); entries are examined with lstat by
 * path, the simplest stat call for a kernel to get right.
 */
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include "modestr.h"

struct entry {
	char *name; /* as shown */
	char *path; /* to stat and readlink */
	struct stat st;
};

static int opt_long, opt_all, opt_dir;
static int status;

static void usage(void)
{
	fprintf(stderr, "usage: ls [-l] [-a] [-d] [PATH]...\n");
	exit(2);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name,
		      ((const struct entry *)b)->name);
}

/* "Jan  2 15:04" within six months of now, else "Jan  2  2006". */
static void time_string(time_t t, char *s, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	if (t > now - 182 * 86400L && t < now + 182 * 86400L)
		strftime(s, len, "%b %e %H:%M", &tm);
	else
		strftime(s, len, "%b %e  %Y", &tm);
}

static int width(unsigned long long v)
{
	int w = 1;

	while (v >= 10) {
		v /= 10;
		w++;
	}
	return w;
}

static void size_string(const struct stat *st, char *s, size_t len)
{
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
		snprintf(s, len, "%u, %u", major(st->st_rdev),
			 minor(st->st_rdev));
	else
		snprintf(s, len, "%lld", (long long)st->st_size);
}

static void print_long(struct entry *e, int n)
{
	int wl = 1, wu = 1, wg = 1, ws = 1, i;
	char mode[11], when[32], size[48], target[4096];

	for (i = 0; i < n; i++) {
		int w;

		size_string(&e[i].st, size, sizeof(size));
		w = (int)strlen(size);
		ws = w > ws ? w : ws;
		w = width(e[i].st.st_nlink);
		wl = w > wl ? w : wl;
		w = width(e[i].st.st_uid);
		wu = w > wu ? w : wu;
		w = width(e[i].st.st_gid);
		wg = w > wg ? w : wg;
	}
	for (i = 0; i < n; i++) {
		struct stat *st = &e[i].st;

		mode_string(st->st_mode, mode);
		time_string(st->st_mtime, when, sizeof(when));
		size_string(st, size, sizeof(size));
		printf("%s %*lu %*u %*u %*s %s %s", mode, wl,
		       (unsigned long)st->st_nlink, wu, st->st_uid, wg,
		       st->st_gid, ws, size, when, e[i].name);
		if (S_ISLNK(st->st_mode)) {
			ssize_t len =
			    readlink(e[i].path, target, sizeof(target) - 1);

			if (len < 0) {
				warn("%s", e[i].path);
				status = 1;
			} else {
				target[len] = '\0';
				printf(" -> %s", target);
			}
		}
		putchar('\n');
	}
}

static void print_entries(struct entry *e, int n)
{
	int i;

	qsort(e, (size_t)n, sizeof(*e), by_name);
	if (opt_long) {
		print_long(e, n);
		return;
	}
	for (i = 0; i < n; i++)
		printf("%s\n", e[i].name);
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	char *p = malloc(n + strlen(name) + 2);

	if (!p)
		err(2, "out of memory");
	sprintf(p, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
	return p;
}

static void list_dir(const char *dir, int header)
{
	struct entry *e = NULL;
	unsigned long long blocks = 0;
	int n = 0, cap = 0, i;
	struct dirent *d;
	DIR *dp;

	if (header)
		printf("%s:\n", dir);
	dp = opendir(dir);
	if (!dp) {
		warn("%s", dir);
		status = 2;
		return;
	}
	while ((errno = 0, d = readdir(dp))) {
		if (d->d_name[0] == '.' && !opt_all)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			e = realloc(e, (size_t)cap * sizeof(*e));
			if (!e)
				err(2, "out of memory");
		}
		e[n].name = strdup(d->d_name);
		e[n].path = join(dir, d->d_name);
		if (opt_long && lstat(e[n].path, &e[n].st) < 0) {
			warn("%s", e[n].path);
			status = 1;
			free(e[n].name);
			free(e[n].path);
			continue;
		}
		blocks += (unsigned long long)e[n].st.st_blocks;
		n++;
	}
	if (errno) {
		warn("%s", dir);
		status = 1;
	}
	closedir(dp);
	if (opt_long)
		printf("total %llu\n", blocks / 2);
	print_entries(e, n);
	for (i = 0; i < n; i++) {
		free(e[i].name);
		free(e[i].path);
	}
	free(e);
}

/* Operands: stat them, print the non-directories as one group, then
 * each directory. A symlink operand is followed unless -l or -d, as in
 * coreutils. */
static void list_operands(char **paths, int n)
{
	struct entry *files = calloc((size_t)n, sizeof(*files));
	char **dirs = calloc((size_t)n, sizeof(*dirs));
	int nf = 0, nd = 0, i;

	if (!files || !dirs)
		err(2, "out of memory");
	for (i = 0; i < n; i++) {
		struct stat st;

		if (lstat(paths[i], &st) < 0) {
			warn("%s", paths[i]);
			status = 2;
			continue;
		}
		if (S_ISLNK(st.st_mode) && !opt_long && !opt_dir)
			stat(paths[i], &st);
		if (S_ISDIR(st.st_mode) && !opt_dir) {
			dirs[nd++] = paths[i];
			continue;
		}
		files[nf].name = files[nf].path = paths[i];
		files[nf++].st = st;
	}
	print_entries(files, nf);
	for (i = 0; i < nd; i++) {
		if (nf || i)
			putchar('\n');
		list_dir(dirs[i], n > 1);
	}
	free(files);
	free(dirs);
}

int main(int argc, char **argv)
{
	static char *dot[] = {".", NULL};
	int c;

	if (argc > 1 && strcmp(argv[1], "--help") == 0)
		usage();
	while ((c = getopt(argc, argv, "lad1")) != -1) {
		switch (c) {
		case 'l':
			opt_long = 1;
			break;
		case 'a':
			opt_all = 1;
			break;
		case 'd':
			opt_dir = 1;
			break;
		case '1':
			break;
		default:
			usage();
		}
	}
	if (optind == argc)
		list_operands(dot, 1);
	else
		list_operands(argv + optind, argc - optind);
	if (fflush(stdout) != 0)
		err(2, "write error");
	return status;
}
