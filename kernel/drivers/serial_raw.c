/*
 * kernel/drivers/serial_raw.c: /dev/ttyS1, the second UART (COM2) as a
 * raw output channel. Bytes written here reach the host exactly as the
 * program wrote them: no \r added before \n, no kernel message in
 * between (the kernel's console is COM1). scripts/pagelab-run sends each
 * program's output here, so that it can be compared byte for byte with
 * the same program's output on Linux. Reading gives end of file; there
 * is no termios: it is a pipe to the host, not a terminal.
 *
 * Output is polled like the console's. Without a second UART (QEMU
 * without a second -serial) the transmit register never empties: after a
 * bounded wait the bytes are dropped, and the write still succeeds.
 */
#include <kernel/errno.h>
#include <kernel/serial_raw.h>
#include <kernel/spinlock.h>
#include <asm/io.h>
#include <fs/fs.h>
#include <fs/uio.h>

#define COM2 0x2f8
#define UART_THR 0
#define UART_IER 1
#define UART_FCR 2
#define UART_LCR 3
#define UART_MCR 4
#define UART_LSR 5
#define UART_LSR_THRE 0x20
#define UART_LCR_DLAB 0x80

static bool present;
static DEFINE_SPINLOCK(com2_lock);

static void com2_putc(char c)
{
	int spins = 100000;

	while (!(inb(COM2 + UART_LSR) & UART_LSR_THRE) && --spins)
		;
	outb(COM2 + UART_THR, c);
}

static ssize_t raw_write(struct file *file, struct iov_iter *from,
			 loff_t *pos)
{
	ssize_t done = 0;
	char chunk[256];
	unsigned long flags;

	while (iov_iter_count(from)) {
		size_t n = copy_from_iter(chunk, sizeof(chunk), from);

		if (!n)
			return done ? done : -EFAULT;
		spin_lock_irqsave(&com2_lock, flags);
		for (size_t i = 0; present && i < n; i++)
			com2_putc(chunk[i]);
		spin_unlock_irqrestore(&com2_lock, flags);
		done += n;
	}
	return done;
}

static ssize_t raw_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
	return 0;
}

const struct file_operations serial_raw_fops = {
	.read_iter = raw_read,
	.write_iter = raw_write,
};

void serial_raw_init(void)
{
	/* A UART has a scratch register that keeps what is written. */
	outb(COM2 + 7, 0x5a);
	present = inb(COM2 + 7) == 0x5a;
	if (!present)
		return;
	outb(COM2 + UART_IER, 0);
	outb(COM2 + UART_LCR, UART_LCR_DLAB);
	outb(COM2 + 0, 1);	/* 115200 baud */
	outb(COM2 + 1, 0);
	outb(COM2 + UART_LCR, 0x03);
	outb(COM2 + UART_FCR, 0xc7);
	outb(COM2 + UART_MCR, 0x03);	/* DTR, RTS; no interrupts */
}
