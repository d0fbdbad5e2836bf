/*
 * kernel/panic.c: stop the machine with a readable report.
 *
 * The last line, "---[ end Kernel panic - not syncing: ... ]---", is what
 * the test harness waits for; after it the CPU halts with interrupts off.
 */
#include <kernel/panic.h>
#include <kernel/explore.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <asm/processor.h>

bool in_panic;	/* a panic is being told (printk busts its console lock) */
/* Set by die(): the oops already printed the trace that matters. */
bool oops_in_progress;

__noreturn void panic(const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	local_irq_disable();
	/* A fault while panicking, or a second CPU's panic: halt quietly. */
	if (__atomic_exchange_n(&in_panic, true, __ATOMIC_SEQ_CST))
		for (;;)
			halt();
	smp_send_stop();	/* one report, and nothing changes under it */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	console_loglevel = 15;	/* whatever loglevel=, show everything now */
	printk(KERN_EMERG "Kernel panic - not syncing: %s\n", msg);
	explore_panic_note();
	if (!oops_in_progress)
		dump_stack();
	printk(KERN_EMERG "---[ end Kernel panic - not syncing: %s ]---\n", msg);
	for (;;)
		halt();
}

void warn_slowpath(const char *file, int line, const char *cond)
{
	printk(KERN_WARNING "WARNING: WARN_ON(%s) at %s:%d\n", cond, file, line);
	dump_stack();
}
