/*
 * uname - print system information from uname(2).
 *   uname [-asnrvm]     -s kernel name (default)  -n node name
 *                       -r release  -v version  -m machine  -a all five
 * Fields print in the fixed order s n r v m, separated by spaces.
 */
#include <err.h>
#include <stdio.h>
#include <sys/utsname.h>
#include <unistd.h>

enum { F_S = 1, F_N = 2, F_R = 4, F_V = 8, F_M = 16 };

int main(int argc, char **argv)
{
	struct utsname u;
	const char *field[5];
	int c, want = 0, i, first = 1;

	while ((c = getopt(argc, argv, "asnrvm")) != -1) {
		switch (c) {
		case 'a':
			want |= F_S | F_N | F_R | F_V | F_M;
			break;
		case 's':
			want |= F_S;
			break;
		case 'n':
			want |= F_N;
			break;
		case 'r':
			want |= F_R;
			break;
		case 'v':
			want |= F_V;
			break;
		case 'm':
			want |= F_M;
			break;
		default:
			fprintf(stderr, "usage: uname [-asnrvm]\n");
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "usage: uname [-asnrvm]\n");
		return 1;
	}
	if (!want)
		want = F_S;
	if (uname(&u) < 0)
		err(1, "uname");
	field[0] = u.sysname;
	field[1] = u.nodename;
	field[2] = u.release;
	field[3] = u.version;
	field[4] = u.machine;
	for (i = 0; i < 5; i++) {
		if (!(want & (1 << i)))
			continue;
		printf("%s%s", first ? "" : " ", field[i]);
		first = 0;
	}
	printf("\n");
	return fflush(stdout) ? 1 : 0;
}
