/*
 * Initcalls: a driver or subsystem says, where it lives, that a function
 * must run at boot, and start_kernel() never needs editing for it:
 *
 *	static int virtio_blk_init(void) { ... }
 *	device_initcall(virtio_blk_init);
 *
 * Device initcalls run after the VFS is up (so add_disk can make /dev
 * nodes) and before self-tests and init. A non-zero return is logged.
 */
#ifndef _KERNEL_INIT_H
#define _KERNEL_INIT_H

#include <kernel/compiler.h>

typedef int (*initcall_t)(void);

struct initcall {
	const char *name;
	initcall_t fn;
};

#define device_initcall(fn)                                              \
	static const struct initcall __initcall_##fn __used              \
		__section(".initcall.device") __aligned(8) = { #fn, fn }

void do_initcalls(void);
/* Make pid 1 (kernel/init.c): initcalls, self-tests, then /bin/init. */
void start_init(void);

#endif
