/*
 * drivers/char/random.c: the kernel's random bytes (Linux's
 * drivers/char/random.c, much reduced). One 64-bit xorshift state, stirred
 * with the TSC at every request and with whatever is written to
 * /dev/random or /dev/urandom, feeds getrandom(2) (kernel/sys.c) and both
 * devices. It is not a cryptographic generator and does not pretend to be
 * one: /dev/random never blocks, as on Linux since 5.6 once its pool is
 * ready, and both devices are always readable for poll (no ->poll).
 */
#include <kernel/random.h>
#include <fs/fs.h>
#include <fs/uio.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/spinlock.h>
#include <kernel/string.h>
#include <kernel/uaccess.h>
#include <asm/processor.h>

static u64 state = 0x853c49e6748fea9bUL;
static DEFINE_SPINLOCK(random_lock);

/* The next 8 bytes. Called with random_lock held. */
static u64 random_next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

/* Fill len bytes of buf, stirring in the TSC first. */
static void random_fill(u8 *buf, size_t len)
{
	unsigned long flags;

	spin_lock_irqsave(&random_lock, flags);
	state ^= rdtsc();
	while (len) {
		u64 r = random_next();
		size_t n = min(len, sizeof(r));

		memcpy(buf, &r, n);
		buf += n;
		len -= n;
	}
	spin_unlock_irqrestore(&random_lock, flags);
}

void get_random_bytes(void *buf, size_t len)
{
	random_fill(buf, len);
}

long get_random_bytes_user(void __user *buf, size_t len)
{
	u8 chunk[64];
	size_t done = 0;

	while (done < len) {
		size_t n = min(len - done, sizeof(chunk));

		random_fill(chunk, n);
		if (copy_to_user((char __user *)buf + done, chunk, n))
			return done ? (long)done : -EFAULT;
		done += n;
	}
	return done;
}

/* Written bytes are mixed into the state, as Linux credits none. */
static void random_mix(const u8 *buf, size_t len)
{
	unsigned long flags;

	spin_lock_irqsave(&random_lock, flags);
	for (size_t i = 0; i < len; i++) {
		state ^= (u64)buf[i] << (8 * (i % 8));
		if (i % 8 == 7)
			random_next();
	}
	random_next();
	if (!state)	/* xorshift's one fixed point */
		state = 0x853c49e6748fea9bUL;
	spin_unlock_irqrestore(&random_lock, flags);
}

/*
 * A read fills the whole request, a page at a time; a long one stops
 * early for a signal (returning what it has) and lets others run.
 */
static ssize_t random_read_iter(struct file *file, struct iov_iter *to,
				loff_t *pos)
{
	u8 chunk[256];
	size_t done = 0;

	while (iov_iter_count(to)) {
		size_t n = min(iov_iter_count(to), sizeof(chunk)), copied;

		if (done && done % PAGE_SIZE == 0) {
			if (signal_pending(current))
				break;
			cond_resched();
		}
		random_fill(chunk, n);
		copied = copy_to_iter(chunk, n, to);
		done += copied;
		if (copied < n)
			return done ? (ssize_t)done : -EFAULT;
	}
	return done;
}

static ssize_t random_write_iter(struct file *file, struct iov_iter *from,
				 loff_t *pos)
{
	u8 chunk[256];
	size_t done = 0;

	while (iov_iter_count(from)) {
		size_t n = min(iov_iter_count(from), sizeof(chunk));
		size_t got = copy_from_iter(chunk, n, from);

		random_mix(chunk, got);
		done += got;
		if (got < n)
			return done ? (ssize_t)done : -EFAULT;
	}
	return done;
}

/* Seeking means nothing here and succeeds, moving nothing (Linux's
 * noop_llseek). */
static loff_t random_lseek(struct file *file, loff_t offset, int whence)
{
	return file->f_pos;
}

const struct file_operations random_fops = {
	.llseek = random_lseek,
	.read_iter = random_read_iter,
	.write_iter = random_write_iter,
};

const struct file_operations urandom_fops = {
	.llseek = random_lseek,
	.read_iter = random_read_iter,
	.write_iter = random_write_iter,
};
