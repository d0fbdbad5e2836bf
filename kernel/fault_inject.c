/*
 * kernel/fault_inject.c: the countdowns behind the files in /proc/fail (see
 * <kernel/fault_inject.h>). One failure per arming: the point is to see a
 * single error travel up, not to break everything after it.
 */
#include <kernel/fault_inject.h>
#include <kernel/fail_delay.h>
#include <kernel/errno.h>
#include <kernel/init.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <kernel/string.h>
#include <fs/proc_fs.h>

struct fault_attr fail_block_read = { "block_read" };
struct fault_attr fail_block_write = { "block_write" };
struct fault_attr fail_block_alloc = { "block_alloc" };
struct fault_attr fail_block_free = { "block_free" };
struct fault_attr fail_bio_alloc = { "bio_alloc" };
struct fault_attr fail_radix_preload = { "radix_preload" };
struct fault_attr fail_alloc_reclaim = { "alloc_reclaim" };

static struct fault_attr *const all_attrs[] = {
	&fail_block_read, &fail_block_write, &fail_block_alloc,
	&fail_block_free, &fail_bio_alloc, &fail_radix_preload,
	&fail_alloc_reclaim,
};
static DEFINE_SPINLOCK(fault_lock);

bool should_fail(struct fault_attr *attr)
{
	unsigned long flags;
	bool fail = false;

	if (!READ_ONCE(attr->countdown))
		return false;
	spin_lock_irqsave(&fault_lock, flags);
	if (attr->countdown && --attr->countdown == 0) {
		attr->injected++;
		fail = true;
	}
	spin_unlock_irqrestore(&fault_lock, flags);
	if (fail) {
		pr_warn("fault_inject: %s: injecting a failure\n", attr->name);
		dump_stack();	/* who was asking: the point of the exercise */
	}
	return fail;
}

static int fault_show(struct seq_file *m, void *data)
{
	struct fault_attr *a = data;

	if (a->countdown)
		seq_printf(m, "armed: failure in %ld, %lu injected\n",
			   a->countdown, a->injected);
	else
		seq_printf(m, "disarmed, %lu injected\n", a->injected);
	return 0;
}

static int fault_write(const char *buf, size_t len, void *data)
{
	struct fault_attr *a = data;
	char *end;
	long n = simple_strtol(buf, &end, 10);
	unsigned long flags;

	if (end == buf || n < 0 || (*end && *end != '\n'))
		return -EINVAL;
	spin_lock_irqsave(&fault_lock, flags);
	a->countdown = n;
	spin_unlock_irqrestore(&fault_lock, flags);
	return 0;
}

static int fault_inject_init(void)
{
	char name[32];

	proc_mkdir("fail");
	for (size_t i = 0; i < ARRAY_SIZE(all_attrs); i++) {
		snprintf(name, sizeof(name), "fail/%s", all_attrs[i]->name);
		proc_create_rw_data(name, 0644, fault_show, fault_write,
				    all_attrs[i]);
	}
	fail_delay_proc_init();
	return 0;
}
device_initcall(fault_inject_init);
