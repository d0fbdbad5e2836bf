/*
 * df - file system space usage, in 1 KiB blocks, as coreutils df.
 *   df [PATH]...     no PATH: every mounted file system with blocks
 *                    (from /proc/mounts); PATH: the file system holding it
 * Used = total - free; Available = what a non-root user may still use
 * (f_bavail); Use% = used / (used + available), rounded up.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>

struct mnt {
	char dev[256], dir[256];
};

static int nmounts;
static struct mnt mounts[128];

static void read_mounts(void)
{
	FILE *f = fopen("/proc/mounts", "r");
	char line[1024];

	if (!f)
		return;
	while (nmounts < 128 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s %255s", mounts[nmounts].dev,
			   mounts[nmounts].dir) == 2)
			nmounts++;
	fclose(f);
}

/* The mount whose directory is the longest prefix of the absolute path;
 * NULL if unknown. (Good enough: no symlinks are resolved.) */
static struct mnt *mount_of(const char *path)
{
	struct mnt *best = NULL;
	size_t bestlen = 0;
	int i;

	for (i = 0; i < nmounts; i++) {
		size_t n = strlen(mounts[i].dir);

		if (strncmp(path, mounts[i].dir, n) != 0)
			continue;
		if (n > 1 && path[n] != '/' && path[n] != '\0')
			continue;
		if (!best || n >= bestlen) {
			best = &mounts[i];
			bestlen = n;
		}
	}
	return best;
}

static void show(const char *dev, const char *dir, const struct statfs *s)
{
	unsigned long long k = (unsigned long long)s->f_bsize / 512;
	unsigned long long total = s->f_blocks * k / 2;
	unsigned long long used = (s->f_blocks - s->f_bfree) * k / 2;
	unsigned long long avail = s->f_bavail * k / 2;
	unsigned long long denom = used + avail;
	char pct[8] = "-";

	if (denom)
		snprintf(pct, sizeof(pct), "%llu%%",
			 (used * 100 + denom - 1) / denom);
	printf("%-14s %10llu %9llu %9llu %4s %s\n", dev, total, used, avail,
	       pct, dir);
}

int main(int argc, char **argv)
{
	struct statfs s;
	int i, status = 0;

	read_mounts();
	printf("%-14s %10s %9s %9s %4s %s\n", "Filesystem", "1K-blocks", "Used",
	       "Available", "Use%", "Mounted on");
	if (argc == 1) {
		for (i = 0; i < nmounts; i++)
			if (statfs(mounts[i].dir, &s) == 0 && s.f_blocks)
				show(mounts[i].dev, mounts[i].dir, &s);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		char abs[4096];
		struct mnt *m;

		if (statfs(argv[i], &s) < 0) {
			warn("%s", argv[i]);
			status = 1;
			continue;
		}
		if (!realpath(argv[i], abs))
			snprintf(abs, sizeof(abs), "%s", argv[i]);
		m = mount_of(abs);
		show(m ? m->dev : "-", m ? m->dir : "-", &s);
	}
	return status;
}
