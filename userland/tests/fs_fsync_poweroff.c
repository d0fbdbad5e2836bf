/*
 * fs_fsync_poweroff: data that fsync (and fdatasync) returned for must be
 * on the disk even if the machine stops right after, before any umount or
 * sync. Writes durable.dat (fsync) and datasync.dat (fdatasync) in the
 * working directory, fsyncs the directory too (a new name is only durable
 * once its directory is: POSIX, and Linux's ext2 likewise), then powers
 * off at once with reboot(2). The host then
 * reads both files out of the image with debugfs and compares them with
 * `fs_fsync_poweroff --expect` (tests/storage.list).
 * On anything but pagelab it only says so and exits 0: it must never power
 * off the machine running the host test suite.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/utsname.h>
#include <unistd.h>

#define SIZE (200 * 1024)

static void fill(char *buf)
{
	for (int i = 0; i < SIZE; i++)
		buf[i] = "fsync made this durable\n"[i % 24];
}

static int write_file(const char *name, const char *buf, int datasync)
{
	int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, buf, SIZE) != SIZE ||
	    (datasync ? fdatasync(fd) : fsync(fd))) {
		perror(name);
		return 1;
	}
	return 0;	/* not closed: nothing else may help the data along */
}

int main(int argc, char **argv)
{
	static char buf[SIZE];
	struct utsname u;

	fill(buf);
	if (argc > 1 && !strcmp(argv[1], "--expect")) {
		fwrite(buf, 1, SIZE, stdout);
		return 0;
	}
	if (uname(&u) || strcmp(u.sysname, "pagelab")) {
		printf("fs_fsync_poweroff: not pagelab (%s): nothing done\n",
		       u.sysname);
		return 0;
	}
	int dir;

	if (write_file("durable.dat", buf, 0) ||
	    write_file("datasync.dat", buf, 1))
		return 1;
	dir = open(".", O_RDONLY | O_DIRECTORY);
	if (dir < 0 || fsync(dir)) {
		perror("fsync .");
		return 1;
	}
	printf("fs_fsync_poweroff: synced; powering off without umount\n");
	fflush(stdout);
	reboot(RB_POWER_OFF);
	return 1;
}
