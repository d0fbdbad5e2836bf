/*
 * drivers/tty/serial.c: the 16550 UART at COM1, the primary console.
 * Output is polled (wait for the transmit holding register to empty), which
 * works with interrupts off and in a panic. Input arrives in a later layer.
 */
#include <kernel/console.h>
#include <kernel/uart.h>

static void serial_putc(char c)
{
	uart_putc(COM1, c);
}

void serial_write(const char *s, size_t len)
{
	for (; len; len--, s++) {
		if (*s == '\n')
			serial_putc('\r');
		serial_putc(*s);
	}
}

static struct console serial_console = {
	.name = "ttyS0",
	.write = serial_write,
};

void serial_init(void)
{
	uart_setup(COM1, 0x0b);	/* DTR, RTS, OUT2 (IRQ line) */
	register_console(&serial_console);
}
