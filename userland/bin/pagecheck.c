/*
 * pagecheck: the page audit of /proc/pagecheck, and a leak check built on
 * it (as xv6's usertests count free pages before and after a run).
 *
 *   pagecheck                 print the audit
 *   pagecheck save FILE       keep it in FILE
 *   pagecheck compare FILE    compare now with FILE: "=== PAGES ok ..." or
 *                             "=== PAGES LEAK: ..." naming the counter,
 *                             each followed by /proc/page_owner's lines
 *                             on where that class's new pages were
 *                             allocated; exit status 1 on a leak
 *
 * Drop the caches before each snapshot (sync; echo 3 >
 * /proc/sys/vm/drop_caches) so that only pages somebody still holds are
 * counted. Compared: "other" (in use by nobody the audit knows: a page
 * truncated from the cache but never freed, a lost page table), "mapped"
 * (pages only page tables hold), "pagecache", and the invariant
 * user_ptes == page_maps, which must hold at every snapshot. A leak report
 * says how much of "other" is page tables and kernel stacks, and lists
 * the processes still alive: a program's child that outlived it holds
 * both, and is not a kernel leak.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NKEYS 11

static const char *const keys[NKEYS] = {
	"user_ptes", "page_maps", "free", "pagecache", "slab", "mapped",
	"other", "pgtables", "kstacks", "alloc_seq", NULL,
};

struct audit {
	long v[NKEYS];
};

static int parse(const char *text, struct audit *a)
{
	char name[32];
	long val;
	int n = 0;

	for (int i = 0; i < NKEYS; i++)
		a->v[i] = -1;
	while (sscanf(text, "%31s %ld", name, &val) == 2) {
		for (int i = 0; keys[i]; i++)
			if (!strcmp(name, keys[i])) {
				a->v[i] = val;
				n++;
			}
		text = strchr(text, '\n');
		if (!text)
			break;
		text++;
	}
	return n == NKEYS - 1 ? 0 : -1;
}

static int slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return 0;
}

static long get(const struct audit *a, const char *key)
{
	for (int i = 0; keys[i]; i++)
		if (!strcmp(keys[i], key))
			return a->v[i];
	return -1;
}

/* Where the pages of CLASS allocated since the first snapshot came from
 * (/proc/page_owner, mm/page_owner.c): its lines, as they are. */
static void explain(const char *class, long since)
{
	char req[64], text[16384];
	int fd = open("/proc/page_owner", O_WRONLY);

	if (fd < 0)
		return;
	snprintf(req, sizeof(req), "%s %ld\n", class, since);
	if (write(fd, req, strlen(req)) < 0) {
		close(fd);
		return;
	}
	close(fd);
	if (!slurp("/proc/page_owner", text, sizeof(text)))
		fputs(text, stdout);
}

/* "PID (NAME) STATE PPID ..." as "PID (NAME) STATE, parent PPID". */
static void print_process(const char *stat, int self)
{
	const char *end = strrchr(stat, ')');
	char state = '?';
	int ppid = -1;

	if (!end || sscanf(end + 1, " %c %d", &state, &ppid) != 2)
		return;
	printf("pagecheck: alive: %.*s %c, parent %d%s\n", (int)(end + 1 - stat),
	       stat, state, ppid, self ? " (this audit)" : "");
}

/* The processes alive now, one line each (/proc/PID/stat: pid, name,
 * state, parent), this one marked: with a leak, the first suspect is a
 * process that is still running or not yet reaped. */
static void list_processes(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	char path[300], stat[512];

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (slurp(path, stat, sizeof(stat)))
			continue;
		print_process(stat, atoi(e->d_name) == getpid());
	}
	closedir(d);
}

/* "other" grew: how much of it is page tables and kernel stacks. */
static void other_parts(const struct audit *before, const struct audit *now)
{
	printf("pagecheck: of other: page tables %ld -> %ld, kernel stacks "
	       "%ld -> %ld, the rest %ld -> %ld\n", get(before, "pgtables"),
	       get(now, "pgtables"), get(before, "kstacks"),
	       get(now, "kstacks"), get(before, "other") -
	       get(before, "pgtables") - get(before, "kstacks"),
	       get(now, "other") - get(now, "pgtables") - get(now, "kstacks"));
}

static int compare(const struct audit *before, const struct audit *now)
{
	static const char *const kept[] = { "other", "mapped", "pagecache" };
	static const char *const why[] = {
		"pages in use that nothing accounts for: a page dropped from "
		"the page cache but never freed, or a lost kernel page",
		"pages only page tables hold, though the programs have exited",
		"page-cache pages still held after the caches were dropped",
	};
	int leak = 0;

	if (get(now, "user_ptes") != get(now, "page_maps")) {
		printf("=== PAGES LEAK: page_maps: %ld map counts but %ld "
		       "present PTEs (a PTE cleared without dropping its "
		       "page's map count and reference?)\n",
		       get(now, "page_maps"), get(now, "user_ptes"));
		leak = 1;
	}
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		long b = get(before, kept[i]), n = get(now, kept[i]);

		if (n > b) {
			printf("=== PAGES LEAK: %s: %ld before, %ld after "
			       "(+%ld %s)\n", kept[i], b, n, n - b, why[i]);
			if (!strcmp(kept[i], "other"))
				other_parts(before, now);
			fflush(stdout);
			explain(kept[i], get(before, "alloc_seq"));
			leak = 1;
		}
	}
	if (leak)
		list_processes();
	else
		printf("=== PAGES ok (other %ld, mapped %ld, pagecache %ld, "
		       "free %ld -> %ld, user_ptes = page_maps = %ld)\n",
		       get(now, "other"), get(now, "mapped"),
		       get(now, "pagecache"), get(before, "free"),
		       get(now, "free"), get(now, "user_ptes"));
	return leak;
}

int main(int argc, char **argv)
{
	char now_text[1024], old_text[1024];
	struct audit now, before;
	FILE *f;

	if (slurp("/proc/pagecheck", now_text, sizeof(now_text)) ||
	    parse(now_text, &now)) {
		fprintf(stderr, "pagecheck: cannot read /proc/pagecheck\n");
		return 2;
	}
	if (argc == 1) {
		fputs(now_text, stdout);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "save")) {
		/* The file's own page-cache page (ramfs) must exist before
		 * the snapshot, or the compare would count it as a leak. */
		f = fopen(argv[2], "w");
		if (!f || fputs(now_text, f) < 0 || fflush(f) ||
		    slurp("/proc/pagecheck", now_text, sizeof(now_text)) ||
		    parse(now_text, &now) || fseek(f, 0, SEEK_SET) ||
		    ftruncate(fileno(f), 0) || fputs(now_text, f) < 0 ||
		    fclose(f)) {
			perror(argv[2]);
			return 2;
		}
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "compare")) {
		if (slurp(argv[2], old_text, sizeof(old_text)) ||
		    parse(old_text, &before)) {
			fprintf(stderr, "pagecheck: %s: no saved audit\n",
				argv[2]);
			return 2;
		}
		return compare(&before, &now);
	}
	fprintf(stderr, "usage: pagecheck [save FILE | compare FILE]\n");
	return 2;
}
