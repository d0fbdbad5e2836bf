/*
 * drivers/tty/serial_raw.c: /dev/ttyS1, the second UART (COM2) as a
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
#include <kernel/uart.h>
#include <fs/fs.h>
#include <fs/uio.h>

static bool present;
static DEFINE_SPINLOCK(com2_lock);

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
			uart_putc(COM2, chunk[i]);
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
	outb(COM2 + UART_SCR, 0x5a);
	present = inb(COM2 + UART_SCR) == 0x5a;
	if (present)
		uart_setup(COM2, 0x03);	/* DTR, RTS; no interrupts */
}
