/*
 * poweroff - flush file systems and turn the machine off.
 *   poweroff [-f]        (-f is accepted: it never asks init anyway)
 * pagelab's own, in place of busybox's (which asks init with SIGUSR2:
 * `kill -USR2 1` does the same): it works whatever runs as pid 1, a test
 * program (init=...) included, and at once, where init gives every
 * process up to a second to go.
 * sync() first: the power-off request does not write dirty pages back;
 * then unmount the disks (what a distribution's shutdown scripts do), so
 * that an image kept across boots (make run's build/disk.img) is marked
 * clean.
 * Needs CAP_SYS_BOOT; otherwise it says why and exits 1.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "linux_reboot.h"
#include "unmount.h"

int main(int argc, char **argv)
{
	if (argc > 2 || (argc == 2 && strcmp(argv[1], "-f") != 0)) {
		fprintf(stderr, "usage: poweroff [-f]\n");
		return 1;
	}
	sync();
	unmount_disks("poweroff");
	linux_reboot(LINUX_REBOOT_CMD_POWER_OFF);
	fprintf(stderr, "poweroff: %s\n", strerror(errno));
	return 1;
}
