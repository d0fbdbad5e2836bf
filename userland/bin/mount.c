/*
 * mount - attach a file system, or list what is attached.
 *   mount                               print /proc/mounts
 *   mount -t TYPE [-o OPTS] DEV DIR     mount(2) DEV on DIR
 *   mount -o remount[,OPTS] DIR
 * OPTS is a comma-separated list. The generic ones become mount flags
 * (ro rw nosuid suid nodev dev noexec exec sync async remount noatime
 * atime nodiratime relatime); anything else (e.g. truncate=new for
 * pagelab's ext2) is passed to the file system as the data string.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

static const struct {
	const char *name;
	unsigned long set, clear;
} flags[] = {
    {"ro", MS_RDONLY, 0},	  {"rw", 0, MS_RDONLY},
    {"nosuid", MS_NOSUID, 0},	  {"suid", 0, MS_NOSUID},
    {"nodev", MS_NODEV, 0},	  {"dev", 0, MS_NODEV},
    {"noexec", MS_NOEXEC, 0},	  {"exec", 0, MS_NOEXEC},
    {"sync", MS_SYNCHRONOUS, 0},  {"async", 0, MS_SYNCHRONOUS},
    {"remount", MS_REMOUNT, 0},	  {"noatime", MS_NOATIME, 0},
    {"atime", 0, MS_NOATIME},	  {"nodiratime", MS_NODIRATIME, 0},
    {"relatime", MS_RELATIME, 0}, {"defaults", 0, 0},
};

/* Split opts into mount flags and the file system's data string. */
static void parse_opts(char *opts, unsigned long *mflags, char *data,
		       size_t len)
{
	char *o;
	size_t i;

	data[0] = '\0';
	for (o = strtok(opts, ","); o; o = strtok(NULL, ",")) {
		for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
			if (strcmp(o, flags[i].name) == 0)
				break;
		if (i < sizeof(flags) / sizeof(flags[0])) {
			*mflags = (*mflags | flags[i].set) & ~flags[i].clear;
			continue;
		}
		if (data[0] && strlen(data) + 1 < len)
			strcat(data, ",");
		if (strlen(data) + strlen(o) < len)
			strcat(data, o);
	}
}

static int list_mounts(void)
{
	char buf[4096];
	ssize_t n;
	int fd = open("/proc/mounts", O_RDONLY);

	if (fd < 0)
		err(1, "/proc/mounts");
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (write(1, buf, (size_t)n) != n)
			err(1, "write error");
	if (n < 0)
		err(1, "/proc/mounts");
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: mount [-t TYPE] [-o OPTS] DEV DIR | "
			"mount -o remount[,OPTS] DIR | mount\n");
	exit(1);
}

int main(int argc, char **argv)
{
	char *type = NULL, *opts = NULL, data[1024];
	const char *dev, *dir;
	unsigned long mflags = 0;
	int c;

	if (argc == 1)
		return list_mounts();
	while ((c = getopt(argc, argv, "t:o:")) != -1) {
		if (c == 't')
			type = optarg;
		else if (c == 'o')
			opts = optarg;
		else
			usage();
	}
	data[0] = '\0';
	if (opts)
		parse_opts(opts, &mflags, data, sizeof(data));
	if ((mflags & MS_REMOUNT) && argc - optind == 1) {
		dev = dir = argv[optind];
	} else if (argc - optind == 2 && type) {
		dev = argv[optind];
		dir = argv[optind + 1];
	} else {
		usage();
	}
	if (mount(dev, dir, type, mflags, data[0] ? data : NULL) < 0) {
		warnx("%s on %s: %s", dev, dir, strerror(errno));
		return 1;
	}
	return 0;
}
