/* Turning the machine off (kernel/power.c). */
#ifndef _KERNEL_POWER_H
#define _KERNEL_POWER_H

#include <kernel/compiler.h>

/* Power off; under QEMU with isa-debug-exit the host sees (status<<1)|1. */
__noreturn void kernel_power_off(int status);

#endif
