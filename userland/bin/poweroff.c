/*
 * poweroff - flush file systems and turn the machine off.
 *   poweroff [-f]        (-f is accepted: there is no init to ask anyway)
 * sync() first: the power-off request does not write dirty pages back.
 * Needs CAP_SYS_BOOT; otherwise it says why and exits 1.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "linux_reboot.h"

int main(int argc, char **argv)
{
	if (argc > 2 || (argc == 2 && strcmp(argv[1], "-f") != 0)) {
		fprintf(stderr, "usage: poweroff [-f]\n");
		return 1;
	}
	sync();
	linux_reboot(LINUX_REBOOT_CMD_POWER_OFF);
	fprintf(stderr, "poweroff: %s\n", strerror(errno));
	return 1;
}
