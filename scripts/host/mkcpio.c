/*
 * mkcpio: write a cpio "newc" archive (the initramfs format Linux unpacks)
 * from a list of entries, without needing the cpio tool on the host.
 *
 *   mkcpio OUT.cpio DEST=SRC ...      regular file SRC stored as DEST
 *   mkcpio OUT.cpio DEST/=            directory DEST (mode 0755)
 *   mkcpio OUT.cpio @DEST=TARGET      symlink DEST -> TARGET
 *
 * Files keep their permission bits; owner is root; mtime is 0 so builds
 * are reproducible. Parent directories must be listed before children.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static unsigned long ino = 1;

static void pad4(FILE *out)
{
	while (ftell(out) % 4)
		fputc(0, out);
}

static void header(FILE *out, const char *name, unsigned mode,
		   unsigned long size)
{
	fprintf(out, "070701%08lX%08X%08X%08X%08X%08X%08lX%08X%08X%08X%08X"
		     "%08lX%08X",
		ino++, mode, 0, 0, 1, 0, size, 0, 0, 0, 0,
		(unsigned long)strlen(name) + 1, 0);
	fwrite(name, 1, strlen(name) + 1, out);
	pad4(out);
}

static int add_file(FILE *out, const char *dest, const char *src)
{
	struct stat st;
	FILE *in = fopen(src, "rb");
	char buf[65536];
	size_t n;

	if (!in || fstat(fileno(in), &st)) {
		perror(src);
		return 1;
	}
	header(out, dest, S_IFREG | (st.st_mode & 07777), st.st_size);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	pad4(out);
	return 0;
}

int main(int argc, char **argv)
{
	FILE *out;
	int err = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: mkcpio OUT.cpio DEST=SRC | DEST/= | "
				"@DEST=TARGET ...\n");
		return 2;
	}
	out = fopen(argv[1], "wb");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	for (int i = 2; i < argc && !err; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq) {
			fprintf(stderr, "mkcpio: %s: no '='\n", argv[i]);
			return 2;
		}
		*eq = '\0';
		if (argv[i][0] == '@') {
			header(out, argv[i] + 1, S_IFLNK | 0777, strlen(eq + 1));
			fwrite(eq + 1, 1, strlen(eq + 1), out);
			pad4(out);
		} else if (eq > argv[i] && eq[-1] == '/') {
			eq[-1] = '\0';
			header(out, argv[i], S_IFDIR | 0755, 0);
		} else {
			err = add_file(out, argv[i], eq + 1);
		}
	}
	header(out, "TRAILER!!!", 0, 0);
	return fclose(out) || err;
}
