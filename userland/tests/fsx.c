/*
 * fsx: a random file exerciser with a model of the file, in the manner of
 * the classic fsx (Avadis Tevanian's NeXT original, kept alive in
 * xfstests as ltp/fsx.c), written anew for pagelab.
 *
 *   fsx [-S SEED] [-N OPS] [-p PROCS] [-l MAXLEN] [-o MAXOP] [-e] [-d N]
 *       [-w CS] [-q] [NAME]
 *
 * Each process (-p, default 1) owns one file, NAME.K (default fsx.dat.K),
 * and a copy of what the file must hold, the model. It does OPS (default
 * 10000) operations picked at random, each against the file and the
 * model:
 *   read       pread a random range and compare it with the model
 *   write      pwrite random bytes at a random offset (maybe past EOF:
 *              the gap must read as zeroes)
 *   mapread    mmap MAP_SHARED a range and compare; bytes of the last page
 *              past EOF must read zero too
 *   mapwrite   extend the file with ftruncate if the range goes past EOF,
 *              then store through a MAP_SHARED mapping, msync half the
 *              time (MS_SYNC or MS_ASYNC)
 *   truncate   ftruncate to a random size, up or down
 *   fsync      fsync or fdatasync, or msync of a mapping of the whole file
 *   reopen     close and open the file again
 * every MAXLEN/16 operations the whole file is read back and compared.
 * -e pollutes the page that straddles EOF before every size change: junk
 * is stored through a mapping past EOF, which must never become file data
 * (the 2009 page_mkwrite fix; Linux 6.1 still lets it through, so -e
 * fails there). -d N drops the page cache every N operations (root only;
 * a note otherwise), so data is read back from the disk. -w CS sets
 * vm.dirty_writeback_centisecs and vm.dirty_expire_centisecs to CS (root
 * only): the flusher then writes the file back every CS/100 s, racing
 * with the operations (by default it waits 30 s before it writes a page).
 *
 * Deterministic by seed: the seed (-S, default 1, printed first)
 * fixes every process's operations (process K uses SEED + K). On a
 * mismatch or an unexpected error the process prints what differs, then
 * its last operations, and exits 1; replay with the same seed. -q prints
 * only the verdicts. Output is TAP: one verdict per process.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "tap.h"
#include "procfs.h"

#define HISTORY 48	/* operations remembered for a failure report */

enum op { OP_READ, OP_WRITE, OP_MAPREAD, OP_MAPWRITE, OP_TRUNCATE,
	  OP_FSYNC, OP_REOPEN, NR_OPS };
static const char *const op_names[NR_OPS] = {
	"read", "write", "mapread", "mapwrite", "truncate", "fsync", "reopen",
};
/* Out of 100: reads and writes of both kinds most, the rest sometimes. */
static const int op_weight[NR_OPS] = { 20, 20, 15, 20, 15, 6, 4 };

static struct {
	unsigned long seed, ops, maxlen, maxop, drop_every, flush_cs;
	int procs, pollute, quiet;
	const char *name;
} opt = { 1, 10000, 256 * 1024, 64 * 1024, 0, 0, 1, 0, 0, "fsx.dat" };

/* One process's state. */
static char path[256];
static int fd = -1;
static unsigned char *good, *buf;	/* the model; a scratch buffer */
static unsigned long size;		/* the model's size */
static int junk_past_eof;	/* -e: junk stored past EOF, still there */
static unsigned long pagesize;
static uint64_t rng;
static unsigned long opnum;
static struct {
	int op;
	unsigned long off, len, size_before, size_after;
	long detail;	/* msync flags, fsync kind, ... */
} history[HISTORY];

static uint64_t rnd(void)	/* xorshift64* */
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1DULL;
}

static unsigned long rnd_below(unsigned long n)
{
	return n ? rnd() % n : 0;
}

static void remember(int op, unsigned long off, unsigned long len,
		     unsigned long before, long detail)
{
	int i = opnum % HISTORY;

	history[i].op = op;
	history[i].off = off;
	history[i].len = len;
	history[i].size_before = before;
	history[i].size_after = size;
	history[i].detail = detail;
}

static void print_history(void)
{
	unsigned long first = opnum >= HISTORY ? opnum - HISTORY + 1 : 0;

	diag("%s: the last %lu operations (seed %lu):", path,
	     opnum - first + 1, opt.seed);
	for (unsigned long n = first; n <= opnum; n++) {
		int i = n % HISTORY;

		diag("  %6lu %-8s off %#7lx len %#6lx size %#lx -> %#lx%s%.0ld",
		     n, op_names[history[i].op], history[i].off,
		     history[i].len, history[i].size_before,
		     history[i].size_after, history[i].detail ? " flags " : "",
		     history[i].detail);
	}
}

static __attribute__((noreturn, format(printf, 1, 2))) void
fail(const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	diag("%s: operation %lu (%s): %s", path, opnum,
	     op_names[history[opnum % HISTORY].op], why);
	print_history();
	ok(0, "%s: %lu operations match the model", path, opt.ops);
	exit(1);
}

/* How many leading bytes of a and b agree, 32 bytes a step while they
 * do: musl's memcmp goes a byte at a time, and under TCG the checks were
 * a large part of a run. */
static unsigned long same_prefix(const unsigned char *a,
				 const unsigned char *b, unsigned long len)
{
	unsigned long i = 0;
	uint64_t x[4], y[4];

	for (; i + 32 <= len; i += 32) {
		memcpy(x, a + i, 32);
		memcpy(y, b + i, 32);
		if ((x[0] ^ y[0]) | (x[1] ^ y[1]) | (x[2] ^ y[2]) |
		    (x[3] ^ y[3]))
			break;
	}
	while (i < len && a[i] == b[i])
		i++;
	return i;
}

/* Compare got (the file's bytes at off) with the model; fail on a
 * difference, showing the first 16 bytes from it on both sides. */
static void check(const unsigned char *got, unsigned long off,
		  unsigned long len, const char *how)
{
	char want_s[64], got_s[64];
	unsigned long i, n;

	i = same_prefix(got, good + off, len);
	if (i == len)
		return;
	n = len - i < 16 ? len - i : 16;
	for (unsigned long k = 0; k < n; k++) {
		sprintf(want_s + 3 * k, "%02x ", good[off + i + k]);
		sprintf(got_s + 3 * k, "%02x ", got[i + k]);
	}
	diag("%s: at %#lx (file size %#lx) want %s", how, off + i, size,
	     want_s);
	diag("%*s got  %s", (int)strlen(how) + 20, "", got_s);
	fail("%s: %#lx bytes differ from offset %#lx", how, len - i, off + i);
}

static void open_file(int flags)
{
	fd = open(path, O_RDWR | flags, 0644);
	if (fd < 0)
		fail("open %s: %s", path, strerror(errno));
}

static void set_size(unsigned long new)
{
	if (new < size)
		memset(good + new, 0, size - new);
	size = new;
}

/*
 * Fill buf[0..len) with bytes that are never zero (a lost write or a block
 * read as a hole never passes for them) and differ from word to word and
 * from write to write: a random start and a random odd step, one 64-bit
 * word each (a Weyl sequence). Drawing every byte from the generator made
 * filling most of a run's instructions under TCG.
 */
static void fill(unsigned long len)
{
	const uint64_t ones = 0x0101010101010101ULL;
	uint64_t w = rnd(), step = rnd() | 1, v;
	unsigned long i;

	for (i = 0; i + 8 <= len; i += 8, w += step) {
		v = w | ones;
		memcpy(buf + i, &v, 8);
	}
	v = w | ones;
	memcpy(buf + i, &v, len - i);
}

/*
 * -e: store junk past EOF in the page that straddles it. Whatever the
 * next size change does, that junk must not become file data: a grown
 * file reads zeroes there, a shrunk one is zeroed past its new end.
 */
static void pollute_eof(void)
{
	unsigned long pg = size & ~(pagesize - 1), in = size - pg;
	unsigned char *p;

	if (!opt.pollute || !in)
		return;
	p = mmap(NULL, pagesize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, pg);
	if (p == MAP_FAILED)
		fail("pollute: mmap at %#lx: %s", pg, strerror(errno));
	memset(p + in, 0xee, pagesize - in);
	munmap(p, pagesize);
	junk_past_eof = 1;
}

/*
 * The size went from old to size. Shrinking zeroes the partial page at the
 * new EOF, so junk stored past EOF is gone. Growing zeroes what becomes
 * file data, up to the new EOF, and no further: junk beyond it, in the
 * same page, stays (past EOF, so never file data), and mapread must not
 * insist on zeroes there. (Linux 6.x's truncate_setsize also zeroes past
 * the new EOF on an extending truncate; a write leaves it, as here.)
 */
static void size_changed(unsigned long old)
{
	if (size < old || (old & ~(pagesize - 1)) != (size & ~(pagesize - 1)) ||
	    !(size & (pagesize - 1)))
		junk_past_eof = 0;
}

static void do_read(void)
{
	unsigned long off = rnd_below(size), len = 1 + rnd_below(opt.maxop);
	ssize_t n;

	if (off + len > size)
		len = size - off;
	remember(OP_READ, off, len, size, 0);
	n = pread(fd, buf, len, off);
	if (n != (ssize_t)len)
		fail("pread %#lx at %#lx: %zd (%s)", len, off, n,
		     n < 0 ? strerror(errno) : "short");
	check(buf, off, len, "pread");
}

static void do_write(void)
{
	unsigned long off = rnd_below(opt.maxlen), len = 1 + rnd_below(opt.maxop);
	unsigned long before = size;
	ssize_t n;

	if (off + len > opt.maxlen)
		len = opt.maxlen - off;
	remember(OP_WRITE, off, len, size, 0);
	if (off + len > size)
		pollute_eof();
	fill(len);
	n = pwrite(fd, buf, len, off);
	if (n != (ssize_t)len)
		fail("pwrite %#lx at %#lx: %zd (%s)", len, off, n,
		     n < 0 ? strerror(errno) : "short");
	memcpy(good + off, buf, len);
	if (off + len > size) {
		size = off + len;
		size_changed(before);
	}
	remember(OP_WRITE, off, len, before, 0);
}

static void do_mapread(void)
{
	unsigned long off = rnd_below(size), len = 1 + rnd_below(opt.maxop);
	unsigned long pg, maplen;
	unsigned char *p;

	if (!size)
		return do_read();
	if (off + len > size)
		len = size - off;
	remember(OP_MAPREAD, off, len, size, 0);
	pg = off & ~(pagesize - 1);
	maplen = (off + len - pg + pagesize - 1) & ~(pagesize - 1);
	p = mmap(NULL, maplen, PROT_READ, MAP_SHARED, fd, pg);
	if (p == MAP_FAILED)
		fail("mmap %#lx at %#lx: %s", maplen, pg, strerror(errno));
	check(p + (off - pg), off, len, "mapread");
	/* The rest of the page that holds EOF reads zero. */
	if (off + len == size && !junk_past_eof)
		for (unsigned long i = size - pg; i < maplen; i++)
			if (p[i])
				fail("mapread: byte %#lx past EOF (%#lx) is "
				     "%#x, not 0", pg + i, size, p[i]);
	munmap(p, maplen);
}

static void do_mapwrite(void)
{
	unsigned long off = rnd_below(opt.maxlen), len = 1 + rnd_below(opt.maxop);
	unsigned long before = size, pg, maplen;
	unsigned char *p;
	long flags = 0;

	if (off + len > opt.maxlen)
		len = opt.maxlen - off;
	remember(OP_MAPWRITE, off, len, size, 0);
	if (off + len > size) {	/* no SIGBUS: grow the file first */
		pollute_eof();
		if (ftruncate(fd, off + len))
			fail("ftruncate %#lx: %s", off + len, strerror(errno));
		size = off + len;
		size_changed(before);
	}
	pg = off & ~(pagesize - 1);
	maplen = (off + len - pg + pagesize - 1) & ~(pagesize - 1);
	p = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, pg);
	if (p == MAP_FAILED)
		fail("mmap %#lx at %#lx: %s", maplen, pg, strerror(errno));
	fill(len);
	memcpy(p + (off - pg), buf, len);
	memcpy(good + off, buf, len);
	if (rnd() & 1) {
		flags = rnd() & 1 ? MS_SYNC : MS_ASYNC;
		if (msync(p, maplen, flags))
			fail("msync: %s", strerror(errno));
	}
	munmap(p, maplen);
	remember(OP_MAPWRITE, off, len, before, flags);
}

static void do_truncate(void)
{
	unsigned long new = rnd_below(opt.maxlen + 1), before = size;

	remember(OP_TRUNCATE, new, 0, size, 0);
	pollute_eof();
	if (ftruncate(fd, new))
		fail("ftruncate %#lx: %s", new, strerror(errno));
	set_size(new);
	size_changed(before);
	remember(OP_TRUNCATE, new, 0, before, 0);
}

static void do_fsync(void)
{
	int how = rnd_below(3);
	unsigned char *p;

	remember(OP_FSYNC, 0, size, size, how);
	if (how == 0 && fsync(fd))
		fail("fsync: %s", strerror(errno));
	if (how == 1 && fdatasync(fd))
		fail("fdatasync: %s", strerror(errno));
	if (how == 2 && size) {
		p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED)
			fail("mmap %#lx: %s", size, strerror(errno));
		if (msync(p, size, MS_SYNC))
			fail("msync: %s", strerror(errno));
		munmap(p, size);
	}
}

static void do_reopen(void)
{
	remember(OP_REOPEN, 0, 0, size, 0);
	if (close(fd))
		fail("close: %s", strerror(errno));
	open_file(0);
}

/* Read the whole file back, and check its size. */
static void check_all(void)
{
	struct stat st;
	ssize_t n;

	if (fstat(fd, &st))
		fail("fstat: %s", strerror(errno));
	if ((unsigned long)st.st_size != size)
		fail("st_size is %#lx, the model says %#lx",
		     (unsigned long)st.st_size, size);
	n = pread(fd, buf, opt.maxlen, 0);
	if (n != (ssize_t)size)
		fail("pread of the whole file: %zd, want %#lx", n, size);
	check(buf, 0, size, "whole file");
}

static void (*const ops[NR_OPS])(void) = {
	do_read, do_write, do_mapread, do_mapwrite, do_truncate, do_fsync,
	do_reopen,
};

static int pick_op(void)
{
	int r = rnd_below(100), op = 0;

	while (r >= op_weight[op])
		r -= op_weight[op++];
	return op;
}

/* One process's run on its own file; exits with its verdict. */
static int run(int k)
{
	unsigned long counts[NR_OPS] = { 0 }, every = opt.maxlen / 16;

	snprintf(path, sizeof(path), "%s.%d", opt.name, k);
	tap_run = k;	/* this process's verdict is number k + 1 */
	rng = (opt.seed + k) * 0x9E3779B97F4A7C15ULL | 1;
	good = calloc(1, opt.maxlen);
	buf = malloc(opt.maxlen);
	if (!good || !buf)
		fail("no memory for a model of %lu bytes", opt.maxlen);
	unlink(path);
	open_file(O_CREAT | O_EXCL);
	for (opnum = 0; opnum < opt.ops; opnum++) {
		int op = pick_op();

		counts[op]++;
		ops[op]();
		if (opt.drop_every && opnum % opt.drop_every ==
					      opt.drop_every - 1) {
			if (fsync(fd))
				fail("fsync: %s", strerror(errno));
			drop_caches_mode("3\n");
		}
		if (opnum % every == every - 1)
			check_all();
		if (!opt.quiet && opnum && opnum % 100000 == 0)
			diag("%s: %lu operations, size %#lx", path, opnum,
			     size);
	}
	opnum--;
	check_all();
	if (fsync(fd))
		fail("final fsync: %s", strerror(errno));
	close(fd);
	unlink(path);
	ok(1, "%s: %lu operations match the model (read %lu write %lu "
	      "mapread %lu mapwrite %lu truncate %lu fsync %lu reopen %lu)",
	   path, opt.ops, counts[0], counts[1], counts[2], counts[3],
	   counts[4], counts[5], counts[6]);
	return 0;
}

/* -w: the flusher every cs centisecs, for pages dirty that long. */
static void set_flusher(unsigned long cs)
{
	static const char *const files[] = {
		"/proc/sys/vm/dirty_expire_centisecs",
		"/proc/sys/vm/dirty_writeback_centisecs",
	};
	char val[32];
	int len = snprintf(val, sizeof(val), "%lu\n", cs);

	for (int i = 0; i < 2; i++) {
		int f = open(files[i], O_WRONLY);

		if (f < 0 || write(f, val, len) != len)
			diag("cannot set %s (%s): the flusher keeps its pace",
			     files[i], strerror(errno));
		if (f >= 0)
			close(f);
	}
}

static void usage(void)
{
	tap_printf("usage: fsx [-S SEED] [-N OPS] [-p PROCS] [-l MAXLEN] "
		   "[-o MAXOP] [-e] [-d N] [-w CS] [-q] [NAME]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int c, failed = 0;

	while ((c = getopt(argc, argv, "S:N:p:l:o:ed:w:q")) != -1) {
		switch (c) {
		case 'S': opt.seed = strtoul(optarg, NULL, 0); break;
		case 'N': opt.ops = strtoul(optarg, NULL, 0); break;
		case 'p': opt.procs = atoi(optarg); break;
		case 'l': opt.maxlen = strtoul(optarg, NULL, 0); break;
		case 'o': opt.maxop = strtoul(optarg, NULL, 0); break;
		case 'e': opt.pollute = 1; break;
		case 'd': opt.drop_every = strtoul(optarg, NULL, 0); break;
		case 'w': opt.flush_cs = strtoul(optarg, NULL, 0); break;
		case 'q': opt.quiet = 1; break;
		default: usage();
		}
	}
	if (optind < argc)
		opt.name = argv[optind];
	if (opt.procs < 1 || opt.procs > 64 || !opt.ops || opt.maxlen < 16 ||
	    !opt.maxop || opt.maxop > opt.maxlen)
		usage();
	pagesize = sysconf(_SC_PAGESIZE);
	plan(opt.procs);
	diag("fsx -S %lu -N %lu -p %d -l %lu -o %lu%s -d %lu -w %lu", opt.seed,
	     opt.ops, opt.procs, opt.maxlen, opt.maxop,
	     opt.pollute ? " -e" : "", opt.drop_every, opt.flush_cs);
	if (opt.flush_cs)
		set_flusher(opt.flush_cs);
	if (opt.procs == 1)
		failed = run(0);
	for (int k = 0; k < opt.procs && opt.procs > 1; k++) {
		pid_t pid = fork();

		if (pid < 0) {
			diag("fork: %s", strerror(errno));
			return 1;
		}
		if (pid == 0)
			exit(run(k));
	}
	for (int k = 0; k < opt.procs && opt.procs > 1; k++) {
		int status;

		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			failed++;
	}
	tap_printf("# %d tests, %d passed, %d failed\n", opt.procs,
		   opt.procs - failed, failed);
	return failed != 0;
}
