/*
 * modload - load Linux kernel modules from files (finit_module(2)).
 *   modload FILE.ko...
 * Linux-only: scripts/pagelab-run --linux boots Debian's kernel, which
 * builds virtio_pci, virtio_blk and ext4 as modules; it puts them in the
 * initramfs and loads them with this, dependencies first (the order is the
 * caller's: there is no modules.dep here). pagelab has no modules, so the
 * call fails there with ENOSYS, and pagelab never runs this.
 * A module that is loaded already (EEXIST) is not an error. Every file is
 * tried; the exit status is 1 if any failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* 0, or -1 with errno. musl has no wrapper for finit_module. */
static int load(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret, err;

	if (fd < 0)
		return -1;
	ret = (int)syscall(SYS_finit_module, fd, "", 0);
	err = errno;
	close(fd);
	errno = err;
	return ret < 0 && err != EEXIST ? -1 : 0;
}

int main(int argc, char **argv)
{
	int i, status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: modload FILE.ko...\n");
		return 1;
	}
	for (i = 1; i < argc; i++)
		if (load(argv[i]) < 0) {
			fprintf(stderr, "modload: %s: %s\n", argv[i],
				strerror(errno));
			status = 1;
		}
	return status;
}
