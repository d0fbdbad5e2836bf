/*
 * stat - show a file's inode, as coreutils stat does.
 *   stat [-L] [-c FORMAT] FILE...
 *     -L  follow symbolic links (default: describe the link itself)
 *     -c  print FORMAT instead of the default report, then a newline
 * FORMAT directives (with optional printf flags and width, e.g. %-10s):
 *   %n name  %N quoted name (-> target)  %s size  %b blocks  %B 512
 *   %o io block  %f raw mode (hex)  %a octal perms  %A rwx perms
 *   %F file type  %h links  %i inode  %u/%U uid/user  %g/%G gid/group
 *   %d device  %Hd/%Ld major/minor device  %Hr/%Lr major/minor of rdev
 *   %t/%T major/minor of rdev in hex  %x/%y/%z access/modify/change time
 *   %X/%Y/%Z the same in seconds  %w/%W birth (unknown: "-"/0)  %% '%'
 * The default report is itself written in this language (below), so
 * both paths share one formatter. There is no birth time: the stat(2)
 * family does not carry one (coreutils gets it from statx).
 */
#include <err.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include "modestr.h"

#define DEFAULT_HEAD                                                           \
	"  File: %N\n"                                                         \
	"  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n"                     \
	"Device: %Hd,%Ld\tInode: %-11i Links: "
#define DEFAULT_TAIL                                                           \
	"Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n"            \
	"Access: %x\n"                                                         \
	"Modify: %y\n"                                                         \
	"Change: %z\n"                                                         \
	" Birth: %w"

static const char default_format[] = DEFAULT_HEAD "%h\n" DEFAULT_TAIL;
static const char default_device_format[] =
    DEFAULT_HEAD "%-5h Device type: %Hr,%Lr\n" DEFAULT_TAIL;

static const char *file_type(const struct stat *st)
{
	switch (st->st_mode & S_IFMT) {
	case S_IFREG:
		return st->st_size ? "regular file" : "regular empty file";
	case S_IFDIR:
		return "directory";
	case S_IFLNK:
		return "symbolic link";
	case S_IFCHR:
		return "character special file";
	case S_IFBLK:
		return "block special file";
	case S_IFIFO:
		return "fifo";
	case S_IFSOCK:
		return "socket";
	}
	return "weird file";
}

/* "2024-01-02 15:04:05.123456789 +0000" */
static void time_string(const struct timespec *ts, char *s, size_t len)
{
	struct tm tm;
	char date[64], zone[16];

	localtime_r(&ts->tv_sec, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm);
	strftime(zone, sizeof(zone), "%z", &tm);
	snprintf(s, len, "%s.%09ld %s", date, ts->tv_nsec, zone);
}

static const char *user_name(uid_t uid)
{
	struct passwd *pw = getpwuid(uid);

	return pw ? pw->pw_name : "UNKNOWN";
}

static const char *group_name(gid_t gid)
{
	struct group *gr = getgrgid(gid);

	return gr ? gr->gr_name : "UNKNOWN";
}

/*
 * Expand one directive (conv, with prefix 'H'/'L' or 0) into a string
 * (*s) or a number (*num, returns 1). Returns 0 for a string, -1 if the
 * directive is unknown.
 */
static int directive(char prefix, char conv, const char *name,
		     const struct stat *st, char *s, size_t len,
		     unsigned long long *num)
{
	char target[4096];
	ssize_t n;

	if (prefix == 'H' || prefix == 'L') {
		dev_t d = conv == 'd' ? st->st_dev : st->st_rdev;

		if (conv != 'd' && conv != 'r')
			return -1;
		*num = prefix == 'H' ? major(d) : minor(d);
		return 1;
	}
	switch (conv) {
	case 'n':
		snprintf(s, len, "%s", name);
		return 0;
	case 'N':
		n = S_ISLNK(st->st_mode)
			? readlink(name, target, sizeof(target) - 1)
			: -1;
		if (n >= 0) {
			target[n] = '\0';
			snprintf(s, len, "%s -> %s", name, target);
		} else {
			snprintf(s, len, "%s", name);
		}
		return 0;
	case 'F':
		snprintf(s, len, "%s", file_type(st));
		return 0;
	case 'A':
		mode_string(st->st_mode, s);
		return 0;
	case 'U':
		snprintf(s, len, "%s", user_name(st->st_uid));
		return 0;
	case 'G':
		snprintf(s, len, "%s", group_name(st->st_gid));
		return 0;
	case 'x':
		time_string(&st->st_atim, s, len);
		return 0;
	case 'y':
		time_string(&st->st_mtim, s, len);
		return 0;
	case 'z':
		time_string(&st->st_ctim, s, len);
		return 0;
	case 'w':
		snprintf(s, len, "-");
		return 0;
	case 't':
		snprintf(s, len, "%x", major(st->st_rdev));
		return 0;
	case 'T':
		snprintf(s, len, "%x", minor(st->st_rdev));
		return 0;
	case 'f':
		snprintf(s, len, "%x", st->st_mode);
		return 0;
	case 'a':
		snprintf(s, len, "%o", st->st_mode & 07777);
		return 0;
	}
	switch (conv) {
	case 's':
		*num = (unsigned long long)st->st_size;
		break;
	case 'b':
		*num = (unsigned long long)st->st_blocks;
		break;
	case 'B':
		*num = 512;
		break;
	case 'o':
		*num = (unsigned long long)st->st_blksize;
		break;
	case 'h':
		*num = st->st_nlink;
		break;
	case 'i':
		*num = st->st_ino;
		break;
	case 'u':
		*num = st->st_uid;
		break;
	case 'g':
		*num = st->st_gid;
		break;
	case 'd':
		*num = st->st_dev;
		break;
	case 'X':
		*num = (unsigned long long)st->st_atime;
		break;
	case 'Y':
		*num = (unsigned long long)st->st_mtime;
		break;
	case 'Z':
		*num = (unsigned long long)st->st_ctime;
		break;
	case 'W':
		*num = 0;
		break;
	default:
		return -1;
	}
	return 1;
}

/* Print one directive using the printf spec in spec[0..speclen). %a with
 * a 0 flag ("%04a") pads the octal string with zeros, as coreutils does. */
static void emit(const char *spec, size_t speclen, char prefix, char conv,
		 const char *name, const struct stat *st)
{
	char fmt[32], s[8192];
	unsigned long long num;
	int r;

	r = directive(prefix, conv, name, st, s, sizeof(s), &num);
	if (r < 0) {
		printf("%.*s%c%c", (int)speclen, spec, prefix ? prefix : conv,
		       prefix ? conv : '\0');
		return;
	}
	if (conv == 'a') {
		r = 1;
		num = st->st_mode & 07777;
		snprintf(fmt, sizeof(fmt), "%.*sllo", (int)speclen, spec);
		printf(fmt, num);
		return;
	}
	snprintf(fmt, sizeof(fmt), "%.*s%s", (int)speclen, spec,
		 r ? "llu" : "s");
	if (r)
		printf(fmt, num);
	else
		printf(fmt, s);
}

static void format(const char *f, const char *name, const struct stat *st)
{
	while (*f) {
		const char *spec = f;
		char prefix = 0;

		if (*f != '%') {
			putchar(*f++);
			continue;
		}
		f++;
		if (*f == '%') {
			putchar('%');
			f++;
			continue;
		}
		f += strspn(f, "-#0 +");
		f += strspn(f, "0123456789");
		if (*f == '.') {
			f++;
			f += strspn(f, "0123456789");
		}
		if ((*f == 'H' || *f == 'L') && f[1])
			prefix = *f++;
		if (!*f)
			break;
		emit(spec, (size_t)(f - spec - (prefix != 0)), prefix, *f, name,
		     st);
		f++;
	}
	putchar('\n');
}

int main(int argc, char **argv)
{
	const char *fmt = NULL;
	int c, follow = 0, status = 0, i;

	while ((c = getopt(argc, argv, "Lc:")) != -1) {
		if (c == 'L') {
			follow = 1;
		} else if (c == 'c') {
			fmt = optarg;
		} else {
			fprintf(stderr,
				"usage: stat [-L] [-c FORMAT] FILE...\n");
			return 1;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "usage: stat [-L] [-c FORMAT] FILE...\n");
		return 1;
	}
	for (i = optind; i < argc; i++) {
		struct stat st;

		if ((follow ? stat(argv[i], &st) : lstat(argv[i], &st)) < 0) {
			warn("%s", argv[i]);
			status = 1;
			continue;
		}
		if (fmt)
			format(fmt, argv[i], &st);
		else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
			format(default_device_format, argv[i], &st);
		else
			format(default_format, argv[i], &st);
	}
	if (fflush(stdout) != 0)
		err(1, "write error");
	return status;
}
