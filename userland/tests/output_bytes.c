/*
 * output_bytes: writes bytes that a terminal or a console would change,
 * to check that scripts/pagelab-run hands a program's output over as the
 * program wrote it (the same bytes as on Linux): lines ending in \n only,
 * a \r\n, a tab, every byte value 0..255, a kernel message triggered in
 * the middle (drop_caches logs a line, which must not land inside the
 * output), and a last line without a newline.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static void put(const char *s, size_t n)
{
	if (write(1, s, n) != (ssize_t)n)
		_exit(1);
}

int main(void)
{
	char all[256];
	int fd;

	put("line one\n", 9);
	put("crlf\r\n", 6);
	put("tab\there\n", 9);
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd >= 0) {	/* the kernel logs this on its console */
		if (write(fd, "1\n", 2) != 2)
			put("drop_caches failed\n", 19);
		close(fd);
	}
	for (int i = 0; i < 256; i++)
		all[i] = (char)i;
	put(all, sizeof(all));
	put("\nno newline at the end", 22);
	return 0;
}
