/*
 * kernel/selftest/runner.c: run the self-tests named by selftest=a,b,c in
 * that order and report each. An unknown name is a failure that lists what
 * exists, so a typo on the command line cannot pass silently.
 */
#include <kernel/radix_tree.h>
#include <kernel/selftest.h>
#include <kernel/param.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <mm/slab.h>

extern const struct selftest __selftest_start[], __selftest_end[];

static char selftest_list[256];
static char fail_reason[160];

static int set_selftests(const char *val)
{
	strlcpy(selftest_list, val, sizeof(selftest_list));
	return 0;
}
__setup("selftest", set_selftests);

int selftest_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fail_reason, sizeof(fail_reason), fmt, ap);
	va_end(ap);
	return -1;
}

void selftest_mem_snapshot(struct selftest_mem *m)
{
	struct kmalloc_stats st;

	/* The radix tree's preload pool keeps a varying set of spare nodes,
	 * pinning slab pages: compare with the pool empty. */
	radix_tree_drain_preloads();
	kmalloc_get_stats(&st);
	m->objects = st.objects;
	m->free_pages = nr_free_pages();
}

int selftest_mem_check(const struct selftest_mem *before)
{
	struct selftest_mem now;

	selftest_mem_snapshot(&now);
	if (now.objects != before->objects)
		return selftest_fail("leak: %lu kmalloc objects before, %lu "
				     "after", before->objects, now.objects);
	if (now.free_pages != before->free_pages)
		return selftest_fail("leak: %lu free pages before, %lu after",
				     before->free_pages, now.free_pages);
	return 0;
}

static const struct selftest *find_selftest(const char *name, size_t len)
{
	for (const struct selftest *t = __selftest_start; t < __selftest_end;
	     t++)
		if (strlen(t->name) == len && !strncmp(t->name, name, len))
			return t;
	return NULL;
}

static void list_selftests(void)
{
	pr_err("selftest: available:");
	for (const struct selftest *t = __selftest_start; t < __selftest_end;
	     t++)
		pr_cont(" %s", t->name);
	pr_cont("\n");
}

static bool run_one(const char *name, size_t len)
{
	const struct selftest *t = find_selftest(name, len);

	if (!t) {
		pr_err("selftest: %.*s: FAILED (no such test)\n", (int)len,
		       name);
		list_selftests();
		return false;
	}
	fail_reason[0] = '\0';
	pr_info("selftest: %s: running\n", t->name);
	if (t->run() == 0) {
		pr_info("selftest: %s: ok\n", t->name);
		return true;
	}
	pr_err("selftest: %s: FAILED (%s)\n", t->name,
	       fail_reason[0] ? fail_reason : "no reason given");
	return false;
}

int run_selftests(void)
{
	const char *s = selftest_list;
	int passed = 0, failed = 0;

	if (!*s)
		return 0;
	while (*s) {
		size_t len = strchr(s, ',') ? (size_t)(strchr(s, ',') - s)
					     : strlen(s);

		if (len)
			run_one(s, len) ? passed++ : failed++;
		s += len + (s[len] == ',');
	}
	pr_info("selftest: %d passed, %d failed\n", passed, failed);
	return failed;
}
