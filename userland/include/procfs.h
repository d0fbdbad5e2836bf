/*
 * procfs.h - the /proc files test programs read and write, the same way on
 * pagelab and on the host Linux.
 *
 *   drop_caches()     echo 1 > /proc/sys/vm/drop_caches: clean page-cache
 *                     pages go, so the next read comes from the disk.
 *                     0, or -1 with a diag line (no such file, not root)
 *   vmstat(name)      the value of "name N" in /proc/vmstat, -1 if absent
 *                     (Linux has no "mkwrite", for instance)
 *
 * Header-only, like tap.h (which must come first).
 */
#ifndef PAGELAB_PROCFS_H
#define PAGELAB_PROCFS_H

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline int drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	if (fd < 0) {
		diag("no drop_caches (%s): caches not dropped",
		     strerror(errno));
		return -1;
	}
	if (write(fd, "1\n", 2) != 2) {
		diag("writing drop_caches failed (%s)", strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static inline long vmstat(const char *name)
{
	static char buf[16384];
	size_t len = strlen(name), got = 0;
	int fd = open("/proc/vmstat", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	while (got < sizeof(buf) - 1 &&
	       (n = read(fd, buf + got, sizeof(buf) - 1 - got)) > 0)
		got += n;
	close(fd);
	buf[got] = 0;
	for (char *p = buf; p; p = strchr(p, '\n')) {
		p += *p == '\n';
		if (strncmp(p, name, len) == 0 && p[len] == ' ')
			return strtol(p + len + 1, NULL, 10);
	}
	return -1;
}

#endif
