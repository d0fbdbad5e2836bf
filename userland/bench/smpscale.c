/*
 * smpscale: N independent processes on N CPUs, their combined throughput
 * in wall-clock time: anonymous page faults (pages/s) and cached reads
 * (MB/s). make bench runs it with 1 worker on 1 CPU and N workers on N
 * CPUs, without -icount (scripts/bench, "smp" lines of bench.list), to
 * show whether the kernel's fault and read paths scale across CPUs.
 *
 * Roadmap:
 *   main            fork the workers, run each phase, print the figures
 *   run_phase       release the workers together, collect their times
 *   worker          pin itself to a CPU, then each phase: set up (untimed),
 *                   say ready, wait for the start, do the work, report
 *   cpu_work        the control: user-space arithmetic, the host's ceiling
 *   fault_work      rounds of fault_round: map private anonymous memory,
 *                   store one byte per page, unmap
 *   read_work       read()s of a file whose pages are already cached
 *   pin_to          the Nth CPU this process is allowed on
 *
 * Phases in order: cpu (the control), faults, reads; a figure each.
 *
 * Why separate processes and separate data: each worker has its own mm,
 * its own mapping and its own file, so nothing is shared but the kernel
 * itself; any lack of speed-up is the kernel's (global locks, one run
 * queue) or the host's, never the program's.
 *
 * Why a pipe as the starting gun: the workers set up (mmap, write and
 * cache their file), say so on the "ready" pipe, and block reading the
 * phase's "go" pipe; the parent closes its write end once all are ready,
 * and every reader gets end-of-file at once. Each worker takes
 * CLOCK_MONOTONIC (one clock for the whole machine) just after its start
 * and just after its last operation; the phase's time is the first start
 * to the last end, so a worker that starts late or is starved counts.
 *
 * Why pinned: without it a scheduler may stack two workers on one CPU for
 * a while; pinned, the figure measures the fault and read paths, not the
 * balancing. Worker i goes to the i-th allowed CPU (mod their count).
 *
 * Usage: smpscale WORKERS [FAULT_MIB [ROUNDS [READ_MIB [PASSES [MLOOPS]]]]]
 *   (defaults: 1 worker; per worker, 8 rounds of 32 MiB faulted, a
 *   16 MiB file read 32 times, and 200 million loops of arithmetic)
 * Files smpscale.I.dat in the current directory, removed at the end.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "bench.h"

#define MAX_WORKERS 64

enum { PHASE_CPU, PHASE_FAULT, PHASE_READ, NPHASES };

struct params {
	int workers;
	long fault_mib, read_mib;
	int fault_rounds, read_passes;
	long cpu_loops;
};


/* What a worker sends the parent after each phase (< PIPE_BUF: atomic). */
struct report {
	int worker, cpu;
	double t0, t1;
};

/* The pipes, made before the fork so that every worker has them. */
static int ready_pipe[2], report_pipe[2], go_pipe[NPHASES][2];

/* The i-th CPU in this process's affinity mask (mod their count). */
static int pin_to(int i)
{
	cpu_set_t allowed, one;
	int n = 0, cpu;

	must(sched_getaffinity(0, sizeof(allowed), &allowed) == 0,
	     "smpscale: sched_getaffinity");
	i %= CPU_COUNT(&allowed);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &allowed) && n++ == i)
			break;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	must(sched_setaffinity(0, sizeof(one), &one) == 0,
	     "smpscale: sched_setaffinity");
	return cpu;
}

/* Block until the parent closes the phase's go pipe. */
static void ready_and_wait(int phase)
{
	char c = 'r';

	must(write(ready_pipe[1], &c, 1) == 1, "smpscale: ready");
	must(read(go_pipe[phase][0], &c, 1) == 0, "smpscale: go");
}

static void send_report(int worker, double t0, double t1)
{
	struct report r = { worker, sched_getcpu(), t0, t1 };

	must(write(report_pipe[1], &r, sizeof(r)) == sizeof(r),
	     "smpscale: report");
}

/*
 * The control: arithmetic in user space, no system call, no memory to
 * speak of. Its speed-up is what the host gives QEMU's CPU threads at
 * the time (other loads on a shared host take their share), the ceiling
 * for the kernel's figures of the same boot.
 */
static void cpu_work(int worker, const struct params *p)
{
	volatile unsigned long sink;
	unsigned long x = worker + 1;
	double t0;

	ready_and_wait(PHASE_CPU);
	t0 = bench_now();
	for (long i = 0; i < p->cpu_loops; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
	(void)sink;
	send_report(worker, t0, bench_now());
}

/*
 * One round: map, store a byte in each page (a demand-zero fault each:
 * allocate, zero, map), check a sample, unmap (free them all). Not huge
 * pages, as anonfault says why.
 */
static void fault_round(size_t size, long pg)
{
	volatile unsigned char *m = mmap(NULL, size, PROT_READ | PROT_WRITE,
					 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long pages = size / pg;

	must(m != MAP_FAILED, "smpscale: mmap");
	madvise((void *)m, size, MADV_NOHUGEPAGE);
	for (long i = 0; i < pages; i++)
		m[i * pg] = 1;
	for (long i = 0; i < pages; i += 97)
		must(m[i * pg] == 1 && m[i * pg + 1] == 0,
		     "smpscale: page contents");
	must(munmap((void *)m, size) == 0, "smpscale: munmap");
}

/*
 * The rounds are timed whole, unmapping included, as will-it-scale's
 * page_fault1 does: a fault's page has to come back to the allocator for
 * the next round, and timing one mapping only would need more memory
 * than the machine has for a run long enough to time on a wall clock.
 * One untimed round first: the first touch of guest memory costs QEMU
 * (host page faults, its own TLB) several times what the guest's fault
 * does, and only once per boot.
 */
static void fault_work(int worker, const struct params *p)
{
	size_t size = (size_t)p->fault_mib << 20;
	long pg = sysconf(_SC_PAGESIZE);
	double t0;

	fault_round(size, pg);
	ready_and_wait(PHASE_FAULT);
	t0 = bench_now();
	for (int r = 0; r < p->fault_rounds; r++)
		fault_round(size, pg);
	send_report(worker, t0, bench_now());
}

/* Read the whole file once from offset 0 in 64 KiB pread()s. */
static void read_file_once(int fd, long long size, unsigned char *buf)
{
	long long done = 0;
	ssize_t n;

	while ((n = pread(fd, buf, BENCH_CHUNK, done)) > 0)
		done += n;
	must(done == size, "smpscale: short read");
}

/*
 * The worker's own file, written and fsync'd (write_file) and read once
 * before the start, so every timed read() finds its pages cached.
 */
static void read_work(int worker, const struct params *p)
{
	long long size = (long long)p->read_mib << 20;
	unsigned char *buf = malloc(BENCH_CHUNK);
	char path[32];
	double t0;
	int fd;

	must(buf != NULL, "smpscale: malloc");
	snprintf(path, sizeof(path), "smpscale.%d.dat", worker);
	fd = write_file(path, size, 'a' + worker % 26);
	read_file_once(fd, size, buf);
	ready_and_wait(PHASE_READ);
	t0 = bench_now();
	for (int i = 0; i < p->read_passes; i++)
		read_file_once(fd, size, buf);
	send_report(worker, t0, bench_now());
	must(buf[0] == 'a' + worker % 26, "smpscale: file contents");
	close(fd);
	unlink(path);
	free(buf);
}

/*
 * A worker that fails (must() exits 1) takes the parent down with it:
 * otherwise the parent would wait for its "ready" or its report forever,
 * the other workers holding the pipe open.
 */
static int worker_done;

static void worker_exit(void)
{
	if (!worker_done)
		kill(getppid(), SIGTERM);
}

static void worker(int i, const struct params *p)
{
	int cpu;

	atexit(worker_exit);
	cpu = pin_to(i);

	printf("smpscale: worker %d pinned to CPU %d\n", i, cpu);
	fflush(stdout);
	cpu_work(i, p);
	fault_work(i, p);
	read_work(i, p);
	worker_done = 1;
	exit(0);
}

/*
 * Wait for every worker to be ready, start them all, and collect their
 * reports: the seconds from the first start to the last end.
 */
static double run_phase(int phase, const struct params *p, const char *what)
{
	struct report r;
	double first = 0, last = 0;
	char c;

	for (int i = 0; i < p->workers; i++)
		must(read(ready_pipe[0], &c, 1) == 1, "smpscale: a worker died");
	close(go_pipe[phase][1]);
	for (int i = 0; i < p->workers; i++) {
		must(read(report_pipe[0], &r, sizeof(r)) == sizeof(r),
		     "smpscale: a worker died");
		printf("smpscale: %s: worker %d on CPU %d: %.3f s\n", what,
		       r.worker, r.cpu, r.t1 - r.t0);
		if (i == 0 || r.t0 < first)
			first = r.t0;
		if (i == 0 || r.t1 > last)
			last = r.t1;
	}
	return last - first;
}

/* Reap the workers; 0 only when every one exited 0. */
static int reap(int n)
{
	int status, bad = 0;

	for (int i = 0; i < n; i++) {
		must(wait(&status) > 0, "smpscale: wait");
		bad |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	}
	return bad;
}

static void parse(int argc, char **argv, struct params *p)
{
	p->workers = argc > 1 ? atoi(argv[1]) : 1;
	p->fault_mib = argc > 2 ? atol(argv[2]) : 32;
	p->fault_rounds = argc > 3 ? atoi(argv[3]) : 8;
	p->read_mib = argc > 4 ? atol(argv[4]) : 16;
	p->read_passes = argc > 5 ? atoi(argv[5]) : 32;
	p->cpu_loops = (argc > 6 ? atol(argv[6]) : 200) * 1000000L;
	must(p->workers > 0 && p->workers <= MAX_WORKERS &&
	     p->fault_mib > 0 && p->fault_rounds > 0 && p->read_mib > 0 &&
	     p->read_passes > 0 && p->cpu_loops > 0, "smpscale: usage: "
	     "smpscale WORKERS [FAULT_MIB [ROUNDS [READ_MIB [PASSES "
	     "[MLOOPS]]]]]");
}

int main(int argc, char **argv)
{
	struct params p;
	double t, pages, bytes;
	char name[96];

	parse(argc, argv, &p);
	must(pipe(ready_pipe) == 0 && pipe(report_pipe) == 0, "smpscale: pipe");
	for (int i = 0; i < NPHASES; i++)
		must(pipe(go_pipe[i]) == 0, "smpscale: pipe");
	printf("smpscale: %d worker(s), %ld CPU(s) online\n", p.workers,
	       sysconf(_SC_NPROCESSORS_ONLN));
	fflush(stdout);
	for (int i = 0; i < p.workers; i++) {
		pid_t pid = fork();

		must(pid >= 0, "smpscale: fork");
		if (pid == 0) {
			for (int j = 0; j < NPHASES; j++)
				close(go_pipe[j][1]);
			worker(i, &p);
		}
	}
	/* Our copies of the ends the workers write, so a death shows as EOF. */
	close(ready_pipe[1]);
	close(report_pipe[1]);

	t = run_phase(PHASE_CPU, &p, "cpu");
	figure("control: user-space arithmetic, no system calls",
	       p.workers * (double)p.cpu_loops / t, "loops/s");

	t = run_phase(PHASE_FAULT, &p, "faults");
	pages = (double)p.workers * p.fault_rounds *
		((p.fault_mib << 20) / sysconf(_SC_PAGESIZE));
	snprintf(name, sizeof(name), "anonymous page faults (map, touch, unmap "
		 "%ld MiB per process)", p.fault_mib);
	figure(name, pages / t, "pages/s");

	t = run_phase(PHASE_READ, &p, "reads");
	bytes = (double)p.workers * p.read_passes * ((double)p.read_mib * (1 << 20));
	snprintf(name, sizeof(name), "cached read, a %ld MiB file per "
		 "process, 64 KiB read()s", p.read_mib);
	figure(name, bytes / t / 1e6, "MB/s");
	return reap(p.workers);
}
