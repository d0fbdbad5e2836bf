/*
 * time_realtime [HOST_SECONDS]: the wall clock is real. CLOCK_REALTIME
 * and gettimeofday agree, a new file's mtime is now, and, given the
 * host's time (date +%s) as the argument, the guest's is within ten
 * minutes of it (pagelab reads the CMOS RTC at boot; QEMU's RTC holds the
 * host's time).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"

int main(int argc, char **argv)
{
	struct timespec ts;
	struct timeval tv;
	struct stat st;
	long host = argc > 1 ? atol(argv[1]) : 0;
	int fd;

	clock_gettime(CLOCK_REALTIME, &ts);
	gettimeofday(&tv, NULL);
	diag("CLOCK_REALTIME %ld", (long)ts.tv_sec);
	ok(ts.tv_sec > 1700000000L, "the year is at least 2023 (%ld)",
	   (long)ts.tv_sec);
	ok(labs((long)tv.tv_sec - (long)ts.tv_sec) <= 1,
	   "gettimeofday agrees (%ld)", (long)tv.tv_sec);
	if (host)
		ok(labs(ts.tv_sec - host) < 600, "within ten minutes of the "
		   "host's clock (%ld vs %ld)", (long)ts.tv_sec, host);
	else
		skip("no host time given", "close to the host's clock");
	fd = open("time_realtime.dat", O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0 || fstat(fd, &st) < 0)
		st.st_mtime = 0;
	ok(labs((long)st.st_mtime - (long)ts.tv_sec) <= 2,
	   "a new file's mtime is now (%ld)", (long)st.st_mtime);
	close(fd);
	unlink("time_realtime.dat");
	return done_testing();
}
