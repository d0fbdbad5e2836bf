/*
 * procfs.h - the /proc files test programs read and write, the same way on
 * pagelab and on the host Linux.
 *
 *   drop_caches()     echo 1 > /proc/sys/vm/drop_caches: clean page-cache
 *                     pages go, so the next read comes from the disk.
 *                     0, or -1 with a diag line (no such file, not root)
 *   vmstat(name)      the value of "name N" in /proc/vmstat, -1 if absent
 *                     (Linux has no "mkwrite", for instance)
 *   mem_total_kb()    MemTotal from /proc/meminfo, -1 if unreadable
 *   status_threads()  Threads: of /proc/self/status, -1 if unreadable
 *   fail_arm(name, n), fail_armed(name)
 *                     fault injection: the nth block_read (...) from now
 *                     fails; -1 where there is no /proc/fail (the host)
 *   fs_type_of_cwd(type, len)
 *                     the type of the file system cwd is on ("ext2",
 *                     "ramfs", "ext4"...), from /proc/mounts
 *   page_owner_diag(class, seq)
 *                     a diag line for each of /proc/page_owner's lines on
 *                     where the pages of class ("other", "mapped")
 *                     allocated since seq (/proc/pagecheck's alloc_seq)
 *                     came from; nothing where there is none (the host)
 *
 * Header-only, like tap.h (which must come first).
 */
#ifndef PAGELAB_PROCFS_H
#define PAGELAB_PROCFS_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Write what ("1", "2" or "3") to drop_caches: 0, or -1 (and a diag). */
static inline int drop_caches_mode(const char *what)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	if (fd < 0) {
		diag("no drop_caches (%s): caches not dropped",
		     strerror(errno));
		return -1;
	}
	if (write(fd, what, strlen(what)) != (ssize_t)strlen(what)) {
		diag("writing drop_caches failed (%s)", strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* The page cache only. */
static inline int drop_caches(void)
{
	return drop_caches_mode("1\n");
}

/*
 * Hold a named race window open in the kernel (/proc/fail/delay): the
 * next `count` tasks to pass `point` sleep `ms` there. Returns -1 where
 * there is no such file (the host Linux): callers then skip the checks
 * that need the window.
 */
static inline int fail_delay(const char *point, int ms, int count)
{
	char buf[80];
	int fd = open("/proc/fail/delay", O_WRONLY), n, r;

	if (fd < 0)
		return -1;
	n = snprintf(buf, sizeof(buf), "%s %d %d\n", point, ms, count);
	r = write(fd, buf, n) == n ? 0 : -1;
	close(fd);
	return r;
}

/* Has a task entered the window that fail_delay() armed? (The point
 * shows "disarmed" once every armed delay was taken.) */
static inline int fail_delay_taken(const char *point)
{
	char buf[4096], *line;
	size_t len = strlen(point);
	int fd = open("/proc/fail/delay", O_RDONLY), n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		if (!strncmp(line, point, len) && line[len] == ' ')
			return strstr(line, "disarmed") != NULL;
	return -1;
}

/*
 * Fault injection (/proc/fail/NAME, NAME block_read, block_write, ...):
 * the nth event of that kind from now fails; 0 disarms. Returns -1 where
 * there is no such file (the host Linux): callers then skip.
 */
static inline int fail_arm(const char *name, long nth)
{
	char path[64], v[32];
	int fd, n, r;

	snprintf(path, sizeof(path), "/proc/fail/%s", name);
	n = snprintf(v, sizeof(v), "%ld\n", nth);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	r = write(fd, v, n) == n ? 0 : -1;
	close(fd);
	return r;
}

/* Is /proc/fail/NAME still armed ("armed 2 left, ...")? */
static inline int fail_armed(const char *name)
{
	char path[64], buf[128] = "";
	int fd;

	snprintf(path, sizeof(path), "/proc/fail/%s", name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = 0;
	close(fd);
	return strncmp(buf, "armed", 5) == 0;
}

/* The number after "NAME " at the start of a line of path; -1 if none. */
static inline long proc_value(const char *path, const char *name)
{
	static char buf[16384];
	size_t len = strlen(name), got = 0;
	int fd = open(path, O_RDONLY);
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

static inline long vmstat(const char *name)
{
	return proc_value("/proc/vmstat", name);
}

static inline void page_owner_diag(const char *class, long seq)
{
	char line[1024];
	FILE *f = fopen("/proc/page_owner", "w");

	if (!f || seq < 0 || fprintf(f, "%s %ld\n", class, seq) < 0) {
		if (f)
			fclose(f);
		return;
	}
	/* A /proc file is printed when it is opened: open it again. */
	if (fclose(f) || !(f = fopen("/proc/page_owner", "r")))
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		diag("%s", line);
	}
	fclose(f);
}

static inline long mem_total_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	long kb = -1;

	if (f) {
		if (fscanf(f, "MemTotal: %ld kB", &kb) != 1)
			kb = -1;
		fclose(f);
	}
	return kb;
}

static inline int status_threads(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	int n = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Threads: %d", &n) == 1)
			break;
	if (f)
		fclose(f);
	return n;
}

/* The longest mount point in /proc/mounts that is a prefix of cwd wins;
 * "unknown" if none. */
static inline void fs_type_of_cwd(char *type, size_t len)
{
	char cwd[PATH_MAX], buf[8192], *line, *save;
	size_t best = 0;
	int fd = open("/proc/mounts", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	snprintf(type, len, "unknown");
	if (fd >= 0)
		close(fd);
	if (n <= 0 || !getcwd(cwd, sizeof(cwd)))
		return;
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char dev[256], mnt[1024], t[64];
		size_t m;

		if (sscanf(line, "%255s %1023s %63s", dev, mnt, t) != 3)
			continue;
		m = strlen(mnt);
		if (strncmp(cwd, mnt, m) != 0 ||
		    (m > 1 && cwd[m] != '/' && cwd[m] != '\0'))
			continue;
		if (m >= best) {
			best = m;
			snprintf(type, len, "%s", t);
		}
	}
}

#endif
