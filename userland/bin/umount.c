/*
 * umount - detach file systems (umount2(2)).
 *   umount [-f] [-l] DIR...     -f force, -l lazy (detach now, clean up
 *                               when no longer busy)
 */
#include <err.h>
#include <stdio.h>
#include <sys/mount.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int c, flags = 0, status = 0, i;

	while ((c = getopt(argc, argv, "fl")) != -1) {
		if (c == 'f') {
			flags |= MNT_FORCE;
		} else if (c == 'l') {
			flags |= MNT_DETACH;
		} else {
			fprintf(stderr, "usage: umount [-f] [-l] DIR...\n");
			return 1;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "usage: umount [-f] [-l] DIR...\n");
		return 1;
	}
	for (i = optind; i < argc; i++) {
		if (umount2(argv[i], flags) < 0) {
			warn("%s", argv[i]);
			status = 1;
		}
	}
	return status;
}
