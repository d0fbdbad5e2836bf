/* Turning the machine off (kernel/power.c). */
#ifndef _KERNEL_POWER_H
#define _KERNEL_POWER_H

#include <kernel/compiler.h>

/* Power off; under QEMU with isa-debug-exit the host sees (status<<1)|1. */
__noreturn void kernel_power_off(int status);
/* Reset the machine (under QEMU -no-reboot: QEMU exits 0). */
__noreturn void kernel_restart(void);
/* Stop the CPU, interrupts off; the machine stays on. */
__noreturn void kernel_halt(void);

#endif
