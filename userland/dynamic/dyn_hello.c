/*
 * dyn_hello: a dynamically linked program (built twice: gcc against the
 * host's glibc, musl-gcc without -static). Everything it prints is the
 * same wherever it runs, so its output in pagelab is compared byte for
 * byte with its output on the host (tests/fixtures/check-dynamic): what
 * the loader was handed (AT_BASE, AT_ENTRY, AT_PHDR), where its pieces
 * are mapped from (/proc/self/maps), and the C library at work (stdio,
 * malloc, qsort, printf of doubles, libm, atexit).
 */
#include <elf.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

/* The file behind the mapping holding addr ("" if anonymous); NULL if
 * nothing maps it. */
static const char *mapping_of(uintptr_t addr, char *perms)
{
	static char path[512];
	char line[1024];
	FILE *f = fopen("/proc/self/maps", "r");
	const char *found = NULL;

	while (f && !found && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		int name = 0;

		if (sscanf(line, "%lx-%lx %4s %*s %*s %*s %n", &lo, &hi, perms,
			   &name) < 3 || addr < lo || addr >= hi)
			continue;
		snprintf(path, sizeof(path), "%s", name ? line + name : "");
		path[strcspn(path, "\n")] = 0;
		found = path;
	}
	if (f)
		fclose(f);
	return found;
}

static const char *base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static void where(const char *what, uintptr_t addr, const char *self)
{
	char perms[8] = "";
	const char *path = mapping_of(addr, perms);

	if (!path)
		printf("%s: not mapped\n", what);
	else if (!strcmp(base(path), self))
		printf("%s: %s, in this program's file\n", what, perms);
	else
		printf("%s: %s, in %s\n", what, perms,
		       *path ? base(path) : "anonymous memory");
}

static int by_value(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void bye(void)
{
	printf("atexit handler ran\n");
}

int main(int argc, char **argv)
{
	const char *self = base(argv[0]);
	int v[] = { 5, 3, 9, 1, 7 };
	volatile double x = 2.0;
	char *heap = malloc(200000);

	atexit(bye);
	printf("argc %d\n", argc);
	where("main", (uintptr_t)main, self);
	where("AT_ENTRY", getauxval(AT_ENTRY), self);
	where("AT_PHDR", getauxval(AT_PHDR), self);
	where("AT_BASE (the loader)", getauxval(AT_BASE), self);
	where("printf", (uintptr_t)printf, self);
	printf("AT_PHNUM %lu, AT_PAGESZ %lu\n", getauxval(AT_PHNUM),
	       getauxval(AT_PAGESZ));
	qsort(v, 5, sizeof(v[0]), by_value);
	printf("sorted %d %d %d %d %d\n", v[0], v[1], v[2], v[3], v[4]);
	printf("pow(2, 0.5) = %.6f, cbrt(27) = %.3f\n", pow(x, 0.5),
	       cbrt(27.0 * x / 2));
	memset(heap, 'h', 200000);
	printf("malloc'ed 200000 bytes: %s\n",
	       heap && heap[199999] == 'h' ? "usable" : "NOT usable");
	free(heap);
	return 0;
}
