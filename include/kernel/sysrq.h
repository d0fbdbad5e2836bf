/*
 * Magic SysRq (kernel/sysrq.c): emergency keys that act at once, from an
 * interrupt if need be, whatever the programs are doing. One key so far:
 * t, show every task (kernel/sched/show.c). Typed on the console as a
 * BREAK followed by the key (QEMU: Ctrl-A B, then t), or written to
 * /proc/sysrq-trigger.
 */
#ifndef _KERNEL_SYSRQ_H
#define _KERNEL_SYSRQ_H

#include <kernel/types.h>

/* Act on key (an unknown one prints the keys there are). */
void handle_sysrq(int key);
/* For the console's receive interrupt: true when byte c, read with line
 * status lsr, belongs to SysRq (the BREAK, or the key after it) and is
 * not input. */
bool sysrq_uart_rx(unsigned char lsr, unsigned char c);

#endif
