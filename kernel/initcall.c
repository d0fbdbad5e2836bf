/* kernel/initcall.c: run the device_initcall()s (see <kernel/init.h>). */
#include <kernel/init.h>
#include <kernel/printk.h>

extern const struct initcall __initcall_start[], __initcall_end[];

void do_initcalls(void)
{
	for (const struct initcall *c = __initcall_start; c < __initcall_end;
	     c++) {
		int err = c->fn();

		if (err)
			pr_warn("init: %s failed (error %d)\n", c->name, err);
	}
}
