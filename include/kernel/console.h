/*
 * Consoles: where printk's text goes. The serial port is the primary console
 * (graders read it); the VGA text screen mirrors it.
 */
#ifndef _KERNEL_CONSOLE_H
#define _KERNEL_CONSOLE_H

#include <kernel/types.h>

struct console {
	const char *name;
	void (*write)(const char *s, size_t len);
	struct console *next;
};

void register_console(struct console *con);

void serial_init(void);
void vga_init(void);

/* Write raw bytes to COM1, polled; safe in any context, even in a panic. */
void serial_write(const char *s, size_t len);

#endif
