/*
 * smp_cpus [N [-p]]: the machine has N CPUs (default: those
 * sched_getaffinity allows), and they all run programs.
 *
 * - /proc/cpuinfo has N paragraphs, "processor : 0" to N-1, each with its
 *   own APIC ID;
 * - sysconf(_SC_NPROCESSORS_ONLN) says N (musl counts the bits of
 *   sched_getaffinity's mask);
 * - pinned to each CPU in turn (sched_setaffinity to that one), the
 *   process finds itself there (sched_getcpu, and field 39 of
 *   /proc/self/stat), and getaffinity gives back that one CPU;
 * - with "-p": N busy processes, started together, are each seen on a CPU
 *   (sched_getcpu) and between them on N different CPUs within a few
 *   seconds, which a scheduler that runs everything on one CPU fails.
 * The same verdicts on the host, given its CPU count; a host that started
 * it on fewer CPUs than /proc/cpuinfo lists (taskset) gets a skip.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "tap.h"

#define MAX_CPUS 64

/* What /proc/cpuinfo lists: its "processor" paragraphs and APIC IDs. */
struct cpuinfo {
	int n, in_order, napic, apic[MAX_CPUS];
};

/* 0 if /proc/cpuinfo cannot be read. */
static int read_cpuinfo(struct cpuinfo *c)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	*c = (struct cpuinfo){ .in_order = 1 };
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		int v;

		if (sscanf(line, "processor : %d", &v) == 1 ||
		    sscanf(line, "processor\t: %d", &v) == 1) {
			c->in_order &= v == c->n;
			c->n++;
		}
		if (sscanf(line, "apicid\t\t: %d", &v) == 1 &&
		    c->napic < MAX_CPUS)
			c->apic[c->napic++] = v;
	}
	fclose(f);
	return 1;
}

static void check_cpuinfo(int want)
{
	struct cpuinfo c;
	int distinct = 1;

	if (!ok(read_cpuinfo(&c), "/proc/cpuinfo opens"))
		return;
	is_int(c.n, want, "/proc/cpuinfo lists %d processors", want);
	ok(c.in_order, "numbered 0 to %d in order", c.n - 1);
	for (int i = 0; i < c.napic; i++)
		for (int j = 0; j < i; j++)
			distinct &= c.apic[i] != c.apic[j];
	ok(c.napic == c.n && distinct,
	   "each with an APIC ID of its own (%d of %d)", c.napic, c.n);
}

/* Field 39 of /proc/self/stat: the CPU it last ran on. */
static int stat_processor(void)
{
	char buf[1024], *p;
	FILE *f = fopen("/proc/self/stat", "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	int field = 3;

	if (f)
		fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');	/* the name may hold spaces */
	if (!p)
		return -1;
	for (p += 2; *p && field < 39; p++)
		if (*p == ' ')
			field++;
	return *p ? atoi(p) : -1;
}

static void check_pinning(int want)
{
	int where_ok = 0, stat_ok = 0, mask_ok = 0;
	cpu_set_t set;

	for (int cpu = 0; cpu < want; cpu++) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			continue;
		sched_yield();	/* off a CPU it may no longer use */
		where_ok += sched_getcpu() == cpu;
		stat_ok += stat_processor() == cpu;
		CPU_ZERO(&set);
		sched_getaffinity(0, sizeof(set), &set);
		mask_ok += CPU_COUNT(&set) == 1 && CPU_ISSET(cpu, &set);
	}
	is_int(where_ok, want, "pinned to each of %d CPUs, it runs there",
	       want);
	is_int(stat_ok, want, "... and /proc/self/stat's processor says so");
	is_int(mask_ok, want, "... and getaffinity gives that one CPU back");
	CPU_ZERO(&set);
	CPU_SET(want, &set);	/* no such CPU */
	ok(sched_setaffinity(0, sizeof(set), &set) == -1 && errno == EINVAL,
	   "a mask of no online CPU is EINVAL");
	CPU_ZERO(&set);
	for (int cpu = 0; cpu < want; cpu++)
		CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* A child spins and writes each CPU it finds itself on to the pipe,
 * until killed. */
static void spinner(int fd)
{
	int last = -1;

	for (;;) {
		int c = sched_getcpu();

		if (c != last) {
			unsigned char b = c;

			if (write(fd, &b, 1) != 1)
				_exit(1);
			last = c;
		}
	}
}

static void check_placement(int want)
{
	int p[2], seen[MAX_CPUS] = { 0 }, distinct = 0, bad = 0;
	pid_t pids[MAX_CPUS];
	time_t start = time(NULL);

	if (pipe(p))
		return;
	for (int i = 0; i < want; i++)
		if ((pids[i] = fork()) == 0)
			spinner(p[1]);
	close(p[1]);
	while (distinct < want && time(NULL) - start < 20) {
		unsigned char b;

		if (read(p[0], &b, 1) != 1)
			break;
		if (b >= want || b >= MAX_CPUS)
			bad++;
		else if (!seen[b]++)
			distinct++;
	}
	for (int i = 0; i < want; i++)
		kill(pids[i], SIGKILL);
	while (wait(NULL) > 0)
		;
	is_int(bad, 0, "sched_getcpu names only CPUs that exist");
	is_int(distinct, want, "%d busy processes ran on %d different CPUs",
	       want, want);
}

/* The CPUs we may run on, when not told how many to expect. */
static int affinity_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	return CPU_COUNT(&set);
}

int main(int argc, char **argv)
{
	int want = argc > 1 ? atoi(argv[1]) : affinity_cpus();
	int place = argc > 2 && !strcmp(argv[2], "-p");
	struct cpuinfo cpus;

	if (want < 1 || want > MAX_CPUS) {
		fprintf(stderr, "usage: smp_cpus N [-p]\n");
		return 2;
	}
	/* On a host that started us on fewer CPUs than it has (taskset, a
	 * cpuset), the mask is not the machine: nothing here holds. */
	if (argc == 1 && read_cpuinfo(&cpus) && cpus.n > want) {
		skip("our affinity mask is narrower than the machine",
		     "the machine's CPUs, counted from the affinity mask");
		return done_testing();
	}
	check_cpuinfo(want);
	is_long(sysconf(_SC_NPROCESSORS_ONLN), want,
		"sysconf(_SC_NPROCESSORS_ONLN) is %d", want);
	check_pinning(want);
	if (place)
		check_placement(want);
	return done_testing();
}
