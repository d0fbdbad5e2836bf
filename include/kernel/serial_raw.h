/* /dev/ttyS1: COM2 as a raw output channel (drivers/tty/serial_raw.c). */
#ifndef _KERNEL_SERIAL_RAW_H
#define _KERNEL_SERIAL_RAW_H

struct file_operations;

#define SERIAL_RAW_MINOR 65	/* ttyS1, as on Linux: (4, 65) */

extern const struct file_operations serial_raw_fops;
/* Probe and set up COM2 (nothing there: writes are dropped). */
void serial_raw_init(void);

#endif
