/*
 * meminfo_dirty: /proc/meminfo's page-cache figures move as Linux's do.
 * Run in a directory on a disk file system (scripts/pagelab-run
 * --blocksize 1024 runs it in /mnt, on ext2).
 *
 *   - the fields busybox free and Linux's tools read are there, in
 *     Linux's order: MemTotal MemFree MemAvailable Buffers Cached ...
 *     Dirty Writeback;
 *   - writing 2 MiB to a file raises Dirty by about that much; sync
 *     brings it back (to 0 on pagelab, where nothing else writes; on
 *     Linux, other files may be dirty: only >= 0 there), and Writeback is
 *     0 once the write has ended;
 *   - Buffers (the disk's metadata) is not 0 once the disk is in use, and
 *     is sysinfo's bufferram; the clean cached file makes MemAvailable
 *     larger than MemFree (pagelab: the rest of memory is idle).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include "tap.h"
#include "procfs.h"

#define NAME "meminfo_dirty.dat"
#define SIZE (2 << 20)

static long kb(const char *field)
{
	return proc_value("/proc/meminfo", field);
}

/* The fields' order in the file, as Linux has them. */
static int in_order(const char *const *names, int n)
{
	static char buf[8192];
	int fd = open("/proc/meminfo", O_RDONLY);
	ssize_t len = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	const char *at = buf;

	if (fd >= 0)
		close(fd);
	if (len <= 0)
		return 0;
	buf[len] = 0;
	for (int i = 0; i < n; i++) {
		char want[32];
		const char *p;

		snprintf(want, sizeof(want), "\n%s", names[i]);
		p = i ? strstr(at, want) : (strncmp(buf, names[0],
						     strlen(names[0])) ?
							    NULL : buf);
		if (!p)
			return 0;
		at = p + 1;
	}
	return 1;
}

int main(void)
{
	static const char *const order[] = {
		"MemTotal:", "MemFree:", "MemAvailable:", "Buffers:",
		"Cached:", "Dirty:", "Writeback:",
	};
	static char buf[SIZE];
	struct utsname u;
	struct sysinfo si;
	long before, after, synced;
	int pagelab, fd;

	uname(&u);
	pagelab = strcmp(u.sysname, "pagelab") == 0;
	ok(in_order(order, 7), "MemTotal MemFree MemAvailable Buffers Cached "
	   "... Dirty Writeback, in Linux's order");
	fd = open(NAME, O_RDWR | O_CREAT | O_TRUNC, 0644);
	ok(fd >= 0, "create %s", NAME);
	if (fd < 0)
		return done_testing();
	fsync(fd);
	before = kb("Dirty:");
	ok(before >= 0, "Dirty: %ld kB", before);
	memset(buf, 'd', sizeof(buf));
	is_int(write(fd, buf, sizeof(buf)), SIZE, "write 2 MiB");
	after = kb("Dirty:");
	if (pagelab)
		ok(after >= before + SIZE / 1024 * 3 / 4,
		   "Dirty rose by about 2 MiB (%ld -> %ld kB)", before, after);
	else
		ok(after >= 0, "Dirty: %ld kB (Linux: may be written already)",
		   after);
	sync();	/* the directory's page is dirty too */
	synced = kb("Dirty:");
	if (pagelab)
		is_int(synced, 0, "after sync Dirty is 0 kB");
	else
		ok(synced >= 0, "after sync Dirty is %ld kB", synced);
	if (pagelab)
		is_int(kb("Writeback:"), 0, "and Writeback is 0 kB");
	else
		ok(kb("Writeback:") >= 0, "Writeback: %ld kB",
		   kb("Writeback:"));
	ok(kb("Buffers:") > 0, "Buffers: %ld kB of the disk's metadata",
	   kb("Buffers:"));
	ok(kb("Cached:") >= SIZE / 1024, "Cached: %ld kB holds the file",
	   kb("Cached:"));
	if (pagelab) {
		long b = kb("Buffers:");

		ok(sysinfo(&si) == 0 &&
		   (long)(si.bufferram * si.mem_unit / 1024) == b,
		   "sysinfo's bufferram is Buffers (%ld kB)", b);
		ok(kb("MemAvailable:") > kb("MemFree:"),
		   "MemAvailable %ld kB > MemFree %ld kB: the clean cache "
		   "counts", kb("MemAvailable:"), kb("MemFree:"));
	} else {
		skip("not pagelab: the host's memory is busy",
		     "bufferram and MemAvailable");
	}
	close(fd);
	is_int(unlink(NAME), 0, "remove %s", NAME);
	return done_testing();
}
