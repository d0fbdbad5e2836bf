/*
 * statnames: stat(2) of existing names in one directory, in ops/s.
 *
 * NAMES empty files (./statnames.d/f00000 ...) are created and synced,
 * then PASSES passes stat every name in order; only the passes are timed
 * (the first pass finds every dentry and inode cached already: creating
 * them put them there). Why: path walk + dcache lookup + getattr, the
 * cost under every open and exec.
 *
 * Usage: statnames [NAMES [PASSES]]  (default 2000 names, 5 passes)
 */
#include <sys/stat.h>

#include "bench.h"

int main(int argc, char **argv)
{
	int names = argc > 1 ? atoi(argv[1]) : 2000;
	int passes = argc > 2 ? atoi(argv[2]) : 5;
	char name[64];
	struct stat st;
	double t;

	must(names > 0 && passes > 0, "statnames: usage: statnames [NAMES [PASSES]]");
	must(mkdir("statnames.d", 0755) == 0, "statnames: mkdir");
	for (int i = 0; i < names; i++) {
		int fd;

		snprintf(name, sizeof(name), "statnames.d/f%05d", i);
		fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
		must(fd >= 0, name);
		close(fd);
	}
	sync();
	t = bench_now();
	for (int p = 0; p < passes; p++)
		for (int i = 0; i < names; i++) {
			snprintf(name, sizeof(name), "statnames.d/f%05d", i);
			must(stat(name, &st) == 0 && st.st_size == 0, name);
		}
	t = bench_now() - t;
	figure("stat of 2000 existing names", (double)passes * names / t,
	       "ops/s");
	for (int i = 0; i < names; i++) {
		snprintf(name, sizeof(name), "statnames.d/f%05d", i);
		must(unlink(name) == 0, name);
	}
	must(rmdir("statnames.d") == 0, "statnames: rmdir");
	return 0;
}
