/*
 * poweroff - flush file systems and turn the machine off.
 *   poweroff [-f]        (-f is accepted: there is no init to ask anyway)
 * sync() first: the power-off request does not write dirty pages back;
 * then unmount the disks (what a distribution's shutdown scripts do), so
 * that an image kept across boots (make run's build/disk.img) is marked
 * clean.
 * Needs CAP_SYS_BOOT; otherwise it says why and exits 1.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "linux_reboot.h"

/* Unmount every file system but / and /proc, the last mounted first. */
static void unmount_disks(void)
{
	char line[512], dirs[16][256];
	int n = 0;
	FILE *f = fopen("/proc/mounts", "r");

	while (f && n < 16 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %255s", dirs[n]) == 1 &&
		    strcmp(dirs[n], "/") && strcmp(dirs[n], "/proc"))
			n++;
	if (f)
		fclose(f);
	/* Busy (a shell's working directory): synced already, leave it. */
	while (n-- > 0)
		if (umount(dirs[n]) < 0 && errno != EBUSY)
			fprintf(stderr, "poweroff: umount %s: %s\n", dirs[n],
				strerror(errno));
}

int main(int argc, char **argv)
{
	if (argc > 2 || (argc == 2 && strcmp(argv[1], "-f") != 0)) {
		fprintf(stderr, "usage: poweroff [-f]\n");
		return 1;
	}
	sync();
	unmount_disks();
	linux_reboot(LINUX_REBOOT_CMD_POWER_OFF);
	fprintf(stderr, "poweroff: %s\n", strerror(errno));
	return 1;
}
