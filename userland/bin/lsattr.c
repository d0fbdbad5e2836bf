/*
 * lsattr - show the append-only and immutable attributes of files, in
 * e2fsprogs' style for those two letters: "----ia--- FILE" becomes
 * "ia FILE" here ('-' for a flag not set).
 *   lsattr FILE...
 */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define FS_IOC_GETFLAGS 0x80086601
#define FS_IMMUTABLE_FL 0x00000010
#define FS_APPEND_FL 0x00000020

int main(int argc, char **argv)
{
	int status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: lsattr FILE...\n");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY), flags = 0;

		if (fd < 0 || ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0) {
			warn("%s", argv[i]);
			status = 1;
		} else {
			printf("%c%c %s\n", flags & FS_IMMUTABLE_FL ? 'i' : '-',
			       flags & FS_APPEND_FL ? 'a' : '-', argv[i]);
		}
		if (fd >= 0)
			close(fd);
	}
	return status;
}
