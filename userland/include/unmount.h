/*
 * unmount.h - unmount the disks before the machine goes off, for
 * poweroff and init: every file system but / and /proc (and /dev, where
 * Linux's devtmpfs is), the last mounted first, read from /proc/mounts.
 * A busy one (a shell's working directory) is left: it was synced.
 */
#ifndef PAGELAB_UNMOUNT_H
#define PAGELAB_UNMOUNT_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

static inline void unmount_disks(const char *who)
{
	char line[512], dirs[16][256];
	int n = 0;
	FILE *f = fopen("/proc/mounts", "r");

	while (f && n < 16 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %255s", dirs[n]) == 1 &&
		    strcmp(dirs[n], "/") && strcmp(dirs[n], "/proc") &&
		    strcmp(dirs[n], "/dev"))
			n++;
	if (f)
		fclose(f);
	while (n-- > 0)
		if (umount(dirs[n]) < 0 && errno != EBUSY)
			fprintf(stderr, "%s: umount %s: %s\n", who, dirs[n],
				strerror(errno));
}

#endif /* PAGELAB_UNMOUNT_H */
