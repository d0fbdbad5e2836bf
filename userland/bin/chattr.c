/*
 * chattr - change file attributes on an ext2 file system, as e2fsprogs'.
 *   chattr [+-=][ai]... FILE...
 *     a  append-only: written only at the end, never truncated, renamed,
 *        unlinked or linked (EPERM)
 *     i  immutable: no change at all
 * Only these two letters; root may set or clear them. Through the
 * FS_IOC_GETFLAGS / FS_IOC_SETFLAGS ioctls (fs/ext2/ioctl.c).
 */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define FS_IOC_GETFLAGS 0x80086601
#define FS_IOC_SETFLAGS 0x40086602
#define FS_IMMUTABLE_FL 0x00000010
#define FS_APPEND_FL 0x00000020

/* The flag bits of a mode word's letters, or -1 for an unknown letter. */
static int letters(const char *s)
{
	int flags = 0;

	for (; *s; s++) {
		if (*s == 'a')
			flags |= FS_APPEND_FL;
		else if (*s == 'i')
			flags |= FS_IMMUTABLE_FL;
		else
			return -1;
	}
	return flags;
}

int main(int argc, char **argv)
{
	int status = 0, bits;
	char op;

	if (argc < 3 || !strchr("+-=", argv[1][0]) ||
	    (bits = letters(argv[1] + 1)) < 0) {
		fprintf(stderr, "usage: chattr [+-=][ai]... FILE...\n");
		return 1;
	}
	op = argv[1][0];
	for (int i = 2; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY), flags = 0;

		if (fd < 0 || ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0) {
			warn("%s", argv[i]);
			status = 1;
			if (fd >= 0)
				close(fd);
			continue;
		}
		flags = op == '+' ? flags | bits :
			op == '-' ? flags & ~bits :
				    (flags & ~(FS_APPEND_FL | FS_IMMUTABLE_FL)) | bits;
		if (ioctl(fd, FS_IOC_SETFLAGS, &flags) < 0) {
			warn("%s", argv[i]);
			status = 1;
		}
		close(fd);
	}
	return status;
}
