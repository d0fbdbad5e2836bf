/*
 * rawtty - put terminals in raw mode (cfmakeraw), so bytes pass unchanged.
 *   rawtty TTY...
 * Linux-only: scripts/pagelab-run --linux sends the programs' output
 * through /dev/ttyS1, and Linux's serial tty starts in cooked mode (ONLCR
 * turns every \n into \r\n); raw, the bytes reach the host as written.
 * A port keeps its settings after the last close, so one call before the
 * programs run is enough. pagelab's /dev/ttyS1 is raw already
 * (drivers/tty/serial_raw.c) and has no termios: the ioctl fails there.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

/* 0, or -1 with errno. O_NOCTTY: never become our controlling tty. */
static int make_raw(const char *path)
{
	struct termios t;
	int fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK), ret = -1, err;

	if (fd < 0)
		return -1;
	if (tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		ret = tcsetattr(fd, TCSANOW, &t);
	}
	err = errno;
	close(fd);
	errno = err;
	return ret;
}

int main(int argc, char **argv)
{
	int i, status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: rawtty TTY...\n");
		return 1;
	}
	for (i = 1; i < argc; i++)
		if (make_raw(argv[i]) < 0) {
			fprintf(stderr, "rawtty: %s: %s\n", argv[i],
				strerror(errno));
			status = 1;
		}
	return status;
}
