/*
 * exec_text: a program comes in through the page cache.
 *
 * The test copies itself to exec_text.copy in the working directory and
 * runs the copy as a child ("child" argument), twice at once. Each child
 * checks that its text is a mapping of that file (/proc/self/maps), that
 * the .bss sharing a page with .data's last file bytes reads zero and
 * that its data can be changed, then waits on stdin.
 * With both children alive, the parent checks that the file refuses
 * writers (ETXTBSY) and, on pagelab, that the page holding the entry
 * point is one page-cache page mapped by both (PAGELAB_IOC_PAGEMAP:
 * mapcount 2). A copy-into-anonymous-memory exec has no such page.
 * After both exit, the file must be byte for byte what was copied: the
 * children's stores went to private copies.
 *
 * Where the caches can be dropped (pagelab, or root on Linux) and the
 * counters are the kernel's own (pagelab): a first run after the drop
 * reads the program from disk, a second run reads nothing.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <pagelab/pagemap.h>
#include "tap.h"
#include "procfs.h"

#define COPY "exec_text.copy"
#define MAX_SIZE (4 << 20)

extern char _edata[];	/* the linker's: where .data's file bytes end */
static int counter = 41;

enum { BAD_TEXT = 1, BAD_BSS = 2, BAD_DATA = 4 };

/* The child's checks of itself, as bits of its exit status; its stdout
 * is not the parent's TAP stream. */
static int child(void)
{
	char line[512], c;
	int text = 0, bad = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, " r-xp ") && strstr(line, "/" COPY "\n"))
			text++;
	if (!text)
		bad |= BAD_TEXT;
	/* The rest of .data's last page is .bss that nothing has written
	 * yet (the C library's own variables come later in the link). In
	 * the file, those bytes are whatever follows .data. */
	for (volatile char *p = _edata; (uintptr_t)p & 4095; p++)
		if (*p)
			bad |= BAD_BSS;
	counter++;
	if (counter != 42)
		bad |= BAD_DATA;
	if (write(3, "r", 1) != 1)	/* ready: the parent may look now */
		return 127;
	while (read(0, &c, 1) > 0)	/* until the parent closes */
		;
	return bad;
}

static char *slurp(const char *path, size_t *len)
{
	char *buf = malloc(MAX_SIZE);
	int fd = open(path, O_RDONLY);
	ssize_t n;

	*len = 0;
	while (buf && fd >= 0 && (n = read(fd, buf + *len, MAX_SIZE - *len)) > 0)
		*len += n;
	if (fd >= 0)
		close(fd);
	return buf;
}

static int make_copy(const char *img, size_t len)
{
	int fd = open(COPY, O_WRONLY | O_CREAT | O_TRUNC, 0755);

	if (fd < 0 || write(fd, img, len) != (ssize_t)len || fsync(fd) ||
	    close(fd))
		return -1;
	return 0;
}

struct kid {
	pid_t pid;
	int in;	/* its stdin: close to let it finish */
	int ready;	/* fd 3: one byte when it has checked itself */
};

static int spawn(struct kid *k)
{
	int in[2], ready[2];

	if (pipe2(in, O_CLOEXEC) || pipe2(ready, O_CLOEXEC))
		return -1;
	k->pid = fork();
	if (k->pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(in[0], 0);
		dup2(null, 1);
		dup2(ready[1], 3);
		execl("./" COPY, COPY, "child", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(ready[1]);
	k->in = in[1];
	k->ready = ready[0];
	return k->pid < 0 ? -1 : 0;
}

/* Start k and wait until it has checked itself: 0, or -1. */
static int start(struct kid *k)
{
	char c;

	return spawn(k) || read(k->ready, &c, 1) != 1 ? -1 : 0;
}

/* Let k finish: its exit status (BAD_* bits), or -1. */
static int reap(struct kid *k)
{
	int status;

	close(k->in);
	close(k->ready);
	if (waitpid(k->pid, &status, 0) != k->pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* The page index in img of the entry point, or -1. */
static long entry_page(const char *img)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(img + eh->e_phoff);

	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && eh->e_entry >= ph[i].p_vaddr &&
		    eh->e_entry < ph[i].p_vaddr + ph[i].p_filesz)
			return (eh->e_entry - ph[i].p_vaddr + ph[i].p_offset) >>
			       12;
	return -1;
}

/* PAGELAB_IOC_PAGEMAP of page idx of COPY; -1 where there is none. */
static int pagemap_of(long idx, struct pagemap_page *pg)
{
	struct pagemap_request req = {
		.first = idx, .count = 1, .pages = (unsigned long)pg };
	int fd = open(COPY, O_RDONLY), err;

	err = fd < 0 ? -1 : ioctl(fd, PAGELAB_IOC_PAGEMAP, &req);
	if (fd >= 0)
		close(fd);
	return err < 0 || req.count != 1 ? -1 : 0;
}

/* Run the copy once; the pages read from disk meanwhile, or -1. */
static long run_once_pgpgin(void)
{
	long before = vmstat("pgpgin");
	struct kid k;

	if (start(&k) || reap(&k))
		return -1;
	return vmstat("pgpgin") - before;
}

static void check_disk_reads(void)
{
	const char *why = "pagelab's counters on ext2 only";
	long first, second;
	char fs[64];

	fs_type_of_cwd(fs, sizeof(fs));
	if (strcmp(fs, "ext2") || vmstat("mkwrite") < 0 || drop_caches()) {
		skip(why, "a first run reads the program from disk");
		skip(why, "a second run reads nothing");
		return;
	}
	first = run_once_pgpgin();
	second = run_once_pgpgin();
	ok(first > 0, "the first run after drop_caches reads the program "
		      "from disk (%ld pages)", first);
	is_int(second, 0, "a second run reads nothing from disk");
}

int main(int argc, char **argv)
{
	struct kid kids[2];
	size_t len, after_len;
	char *img = slurp(argv[0], &len), *after;
	struct pagemap_page pg;
	long idx = img ? entry_page(img) : -1;
	int fd;

	if (argc > 1 && !strcmp(argv[1], "child"))
		return child();
	ok(len > 0 && idx >= 0 && !make_copy(img, len),
	   "copied the program (%zu bytes; entry in page %ld)", len, idx);
	fflush(stdout);
	for (int i = 0; i < 2; i++)
		if (start(&kids[i])) {
			ok(0, "child %d started", i);
			return done_testing();
		}
	fd = open(COPY, O_WRONLY);
	is_errno(fd, ETXTBSY, "opening the running program for writing");
	is_errno(truncate(COPY, 0), ETXTBSY, "truncating the running program");
	if (pagemap_of(idx, &pg) == 0) {
		ok(pg.flags & PM_CACHED, "the entry point's page is in the "
					 "page cache");
		is_int(pg.mapcount, 2, "both runs map that one page");
	} else {
		skip("no PAGELAB_IOC_PAGEMAP (not pagelab)", "page cache page");
		skip("no PAGELAB_IOC_PAGEMAP (not pagelab)", "mapcount");
	}
	for (int i = 0; i < 2; i++) {
		int bad = reap(&kids[i]);

		ok(bad >= 0 && !(bad & BAD_TEXT),
		   "child %d: its text is a mapping of " COPY " (%d)", i, bad);
		ok(bad >= 0 && !(bad & BAD_BSS), "child %d: its .bss reads "
		   "zero, not the file's bytes past .data", i);
		ok(bad >= 0 && !(bad & BAD_DATA), "child %d: a store to .data "
		   "is seen", i);
	}
	after = slurp(COPY, &after_len);
	ok(after && after_len == len && !memcmp(img, after, len),
	   "the file is unchanged by the children's stores");
	check_disk_reads();
	unlink(COPY);
	return done_testing();
}
