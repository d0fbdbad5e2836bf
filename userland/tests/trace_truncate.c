/*
 * trace_truncate: one traced ftruncate, for pictures (make docs,
 * scripts/trace-diagram). Writes 180 KiB, switches the truncate trace on
 * (/proc/trace/truncate), cuts the file to 1000 bytes, switches it off.
 * The mount option (-o truncate=old|new) decides which sequence the
 * trace shows. On Linux there is no such trace: the truncate still runs.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"

static int trace(const char *on)
{
	int fd = open("/proc/trace/truncate", O_WRONLY), r;

	if (fd < 0)
		return -1;
	r = write(fd, on, 2) == 2 ? 0 : -1;
	close(fd);
	return r;
}

int main(void)
{
	static char buf[180 * 1024];
	int fd = open("traced.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);

	memset(buf, 'x', sizeof(buf));
	ok(fd >= 0 && write(fd, buf, sizeof(buf)) == sizeof(buf),
	   "write 180 KiB");
	if (trace("1\n") < 0)
		diag("no /proc/trace/truncate: not traced");
	is_int(ftruncate(fd, 1000), 0, "ftruncate to 1000");
	trace("0\n");
	close(fd);
	is_int(unlink("traced.dat"), 0, "remove it");
	return done_testing();
}
