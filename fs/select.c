/*
 * fs/select.c: poll(2), ppoll(2), select(2) and pselect6(2).
 *
 * Each asks the files' ->poll (<fs/poll.h>) what holds, and if nothing
 * the caller wants does, sleeps until one of those files changes. On the
 * first pass the poll_table's queue function (__pollwait) hangs an entry
 * on every wait queue a ->poll names, holding a reference to its file;
 * the entries stay until the call ends, so a driver's ordinary wake_up()
 * reaches us (pollwake) and we ask every file again. Later passes, and a
 * pass that already found something, pass no queue function.
 *
 * Roadmap:
 *   poll_initwait, __pollwait, pollwake, poll_freewait   the entries
 *   do_poll, do_sys_poll      poll's loop over a struct pollfd array
 *   max_select_fd, do_select, core_sys_select   select's, over bitmaps
 *   poll_select_finish        write back the time left (select, ppoll)
 *   the system calls          timeouts to ticks, signal masks
 *
 * A call interrupted by a signal returns -ERESTARTNOHAND: EINTR when a
 * handler runs, else a restart (select and ppoll then see the time left;
 * poll starts its milliseconds afresh, where Linux remembers the end).
 */
#include <fs/file.h>
#include <fs/poll.h>
#include <kernel/errno.h>
#include <kernel/jiffies.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/string.h>
#include <kernel/uaccess.h>
#include <mm/slab.h>

struct poll_table_entry {
	struct file *filp;
	wait_queue_head_t *wait_address;
	struct wait_queue_entry wait;
	struct poll_wqueues *pwq;
	struct poll_table_entry *next;
};

struct poll_wqueues {
	poll_table pt;
	struct poll_table_entry *entries;
	struct wait_queue_entry woken;	/* what wait_woken() sleeps on */
	int error;	/* -ENOMEM: an entry could not be made */
};

static int pollwake(struct wait_queue_entry *w)
{
	struct poll_table_entry *entry =
		container_of(w, struct poll_table_entry, wait);

	return woken_wake_function(&entry->pwq->woken);
}

static void __pollwait(struct file *filp, wait_queue_head_t *wq,
		       poll_table *pt)
{
	struct poll_wqueues *pwq = container_of(pt, struct poll_wqueues, pt);
	struct poll_table_entry *entry = kzalloc(sizeof(*entry), GFP_KERNEL);

	if (!entry) {
		pwq->error = -ENOMEM;
		return;
	}
	entry->filp = get_file(filp);
	entry->wait_address = wq;
	entry->pwq = pwq;
	entry->wait.task = current;
	entry->wait.func = pollwake;
	entry->next = pwq->entries;
	pwq->entries = entry;
	add_wait_queue(wq, &entry->wait);
}

static void poll_initwait(struct poll_wqueues *pwq)
{
	pwq->pt.qproc = __pollwait;
	pwq->entries = NULL;
	pwq->error = 0;
	init_wait_woken(&pwq->woken);
}

static void poll_freewait(struct poll_wqueues *pwq)
{
	struct poll_table_entry *entry, *next;

	for (entry = pwq->entries; entry; entry = next) {
		next = entry->next;
		remove_wait_queue(entry->wait_address, &entry->wait);
		fput(entry->filp);
		kfree(entry);
	}
}

/* ---- poll ---------------------------------------------------------------- */

struct pollfd {
	int fd;
	short events, revents;
};

/* One pollfd: a negative fd is skipped, a closed one is EPOLLNVAL;
 * EPOLLERR and EPOLLHUP are reported whether asked for or not. */
static __poll_t do_pollfd(struct pollfd *pfd, poll_table *pt)
{
	struct file *file;
	__poll_t mask = 0;

	if (pfd->fd >= 0) {
		file = fget(pfd->fd);
		mask = EPOLLNVAL;
		if (file) {
			mask = (unsigned short)pfd->events | EPOLLERR |
			       EPOLLHUP;
			mask &= vfs_poll(file, pt);
			fput(file);
		}
	}
	pfd->revents = mask;
	return mask;
}

static int do_poll(struct pollfd *fds, unsigned int nfds,
		   struct poll_wqueues *wait, long timeout)
{
	poll_table *pt = &wait->pt;
	int count;

	for (;;) {
		count = 0;
		for (unsigned int i = 0; i < nfds; i++) {
			if (do_pollfd(&fds[i], pt)) {
				count++;
				pt = NULL;	/* no need to wait any more */
			}
		}
		pt = NULL;
		if (!count) {
			count = wait->error;
			if (signal_pending(current))
				count = -ERESTARTNOHAND;
		}
		if (count || !timeout)
			return count;
		timeout = wait_woken(&wait->woken, timeout);
	}
}

static int do_sys_poll(struct pollfd __user *ufds, unsigned int nfds,
		       long timeout)
{
	struct poll_wqueues table;
	struct pollfd *fds;
	int ret;

	if (nfds > current->rlim[RLIMIT_NOFILE].rlim_cur)
		return -EINVAL;
	fds = kmalloc(nfds * sizeof(*fds) + 1, GFP_KERNEL);
	if (!fds)
		return -ENOMEM;
	ret = -EFAULT;
	if (copy_from_user(fds, ufds, nfds * sizeof(*fds)))
		goto out;
	poll_initwait(&table);
	ret = do_poll(fds, nfds, &table, timeout);
	poll_freewait(&table);
	for (unsigned int i = 0; i < nfds && ret >= 0; i++)
		if (put_user(fds[i].revents, &ufds[i].revents))
			ret = -EFAULT;
out:
	kfree(fds);
	return ret;
}

SYSCALL_DEFINE3(poll, struct pollfd __user *, ufds, unsigned int, nfds,
		int, timeout_msecs)
{
	return do_sys_poll(ufds, nfds, msecs_to_jiffies_timeout(timeout_msecs));
}

/* Read a timeout: *ticks, or MAX_SCHEDULE_TIMEOUT for NULL. */
static int get_timespec_timeout(const struct __kernel_timespec __user *uts,
				long *ticks)
{
	struct __kernel_timespec ts;

	*ticks = MAX_SCHEDULE_TIMEOUT;
	if (!uts)
		return 0;
	if (copy_from_user(&ts, uts, sizeof(ts)))
		return -EFAULT;
	if (!timespec_valid(&ts))
		return -EINVAL;
	*ticks = timespec_to_jiffies(&ts);
	return 0;
}

/*
 * Tell the caller how much of its timeout is left, as Linux does for
 * select, pselect6 and ppoll (what a restarted call then waits). A
 * failure to write is not reported: the call's result matters more.
 */
static void poll_select_finish(void __user *utime, bool timeval, u64 deadline)
{
	long left = time_after_jiffies(deadline, jiffies) ?
			    deadline - jiffies : 0;
	struct __kernel_timespec ts;
	struct __kernel_old_timeval tv;

	jiffies_to_timespec(left, &ts);
	if (!timeval) {
		copy_to_user(utime, &ts, sizeof(ts));
		return;
	}
	tv.tv_sec = ts.tv_sec;
	tv.tv_usec = ts.tv_nsec / 1000;
	copy_to_user(utime, &tv, sizeof(tv));
}

SYSCALL_DEFINE5(ppoll, struct pollfd __user *, ufds, unsigned int, nfds,
		struct __kernel_timespec __user *, tsp,
		const sigset_t __user *, sigmask, size_t, sigsetsize)
{
	long timeout;
	u64 deadline;
	int ret = get_timespec_timeout(tsp, &timeout);

	if (ret)
		return ret;
	ret = set_user_sigmask(sigmask, sigsetsize);
	if (ret)
		return ret;
	deadline = jiffies + timeout;
	ret = do_sys_poll(ufds, nfds, timeout);
	restore_saved_sigmask_unless(ret == -ERESTARTNOHAND);
	if (tsp && timeout != MAX_SCHEDULE_TIMEOUT)
		poll_select_finish(tsp, false, deadline);
	return ret;
}

/* ---- select -------------------------------------------------------------- */

#define POLLIN_SET (EPOLLRDNORM | EPOLLRDBAND | EPOLLIN | EPOLLHUP | EPOLLERR)
#define POLLOUT_SET (EPOLLWRBAND | EPOLLWRNORM | EPOLLOUT | EPOLLERR)
#define POLLEX_SET EPOLLPRI
#define BITS_PER_LONG 64

/* in, out, ex: what the caller asks; res_*: what we answer. */
struct fd_set_bits {
	unsigned long *in, *out, *ex, *res_in, *res_out, *res_ex;
};

static bool fd_is_set(const unsigned long *set, int fd)
{
	return set[fd / BITS_PER_LONG] & (1UL << (fd % BITS_PER_LONG));
}

/* Every fd named in a set must be open: n trimmed to the highest, or
 * -EBADF. */
static int max_select_fd(int n, const struct fd_set_bits *fds)
{
	int max = 0;

	for (int fd = 0; fd < n; fd++) {
		struct file *file;

		if (!fd_is_set(fds->in, fd) && !fd_is_set(fds->out, fd) &&
		    !fd_is_set(fds->ex, fd))
			continue;
		file = fget(fd);
		if (!file)
			return -EBADF;
		fput(file);
		max = fd + 1;
	}
	return max;
}

/* Ask one fd; count and record the answers the caller wanted. */
static int select_one(int fd, const struct fd_set_bits *fds, poll_table *pt)
{
	unsigned long bit = 1UL << (fd % BITS_PER_LONG);
	int w = fd / BITS_PER_LONG, found = 0;
	struct file *file = fget(fd);
	__poll_t mask;

	if (!file)
		return 0;
	mask = vfs_poll(file, pt);
	fput(file);
	if ((fds->in[w] & bit) && (mask & POLLIN_SET)) {
		fds->res_in[w] |= bit;
		found++;
	}
	if ((fds->out[w] & bit) && (mask & POLLOUT_SET)) {
		fds->res_out[w] |= bit;
		found++;
	}
	if ((fds->ex[w] & bit) && (mask & POLLEX_SET)) {
		fds->res_ex[w] |= bit;
		found++;
	}
	return found;
}

static int do_select(int n, struct fd_set_bits *fds, long timeout)
{
	struct poll_wqueues table;
	poll_table *pt = &table.pt;
	int ret = max_select_fd(n, fds);

	if (ret < 0)
		return ret;
	n = ret;
	poll_initwait(&table);
	for (;;) {
		ret = 0;
		for (int fd = 0; fd < n; fd++) {
			if (!fd_is_set(fds->in, fd) &&
			    !fd_is_set(fds->out, fd) && !fd_is_set(fds->ex, fd))
				continue;
			ret += select_one(fd, fds, pt);
			if (ret)
				pt = NULL;
		}
		pt = NULL;
		if (!ret && signal_pending(current))
			ret = -ERESTARTNOHAND;
		if (!ret && table.error)
			ret = table.error;
		if (ret || !timeout)
			break;
		timeout = wait_woken(&table.woken, timeout);
	}
	poll_freewait(&table);
	return ret;
}

/* Copy a user fd_set of n bits in (NULL: empty). */
static int get_fd_set(unsigned long *set, const void __user *uset,
		      size_t bytes)
{
	if (!uset) {
		memset(set, 0, bytes);
		return 0;
	}
	return copy_from_user(set, uset, bytes) ? -EFAULT : 0;
}

static int set_fd_set(void __user *uset, const unsigned long *set,
		      size_t bytes)
{
	if (uset && copy_to_user(uset, set, bytes))
		return -EFAULT;
	return 0;
}

static int core_sys_select(int n, void __user *inp, void __user *outp,
			   void __user *exp, long timeout)
{
	struct fd_set_bits fds;
	unsigned long *bits;
	size_t bytes;
	int ret;

	if (n < 0)
		return -EINVAL;
	if ((unsigned int)n > current->files->max_fds)
		n = current->files->max_fds;
	bytes = DIV_ROUND_UP(n, BITS_PER_LONG) * sizeof(long);
	bits = kzalloc(6 * bytes + 1, GFP_KERNEL);
	if (!bits)
		return -ENOMEM;
	fds.in = bits;
	fds.out = (void *)((char *)bits + bytes);
	fds.ex = (void *)((char *)bits + 2 * bytes);
	fds.res_in = (void *)((char *)bits + 3 * bytes);
	fds.res_out = (void *)((char *)bits + 4 * bytes);
	fds.res_ex = (void *)((char *)bits + 5 * bytes);
	ret = get_fd_set(fds.in, inp, bytes) ?: get_fd_set(fds.out, outp, bytes)
					     ?: get_fd_set(fds.ex, exp, bytes);
	if (!ret)
		ret = do_select(n, &fds, timeout);
	if (ret >= 0 && (set_fd_set(inp, fds.res_in, bytes) ||
			 set_fd_set(outp, fds.res_out, bytes) ||
			 set_fd_set(exp, fds.res_ex, bytes)))
		ret = -EFAULT;
	kfree(bits);
	return ret;
}

SYSCALL_DEFINE5(select, int, n, void __user *, inp, void __user *, outp,
		void __user *, exp, struct __kernel_old_timeval __user *, tvp)
{
	struct __kernel_old_timeval tv;
	struct __kernel_timespec ts;
	long timeout = MAX_SCHEDULE_TIMEOUT;
	u64 deadline;
	int ret;

	if (tvp) {
		if (copy_from_user(&tv, tvp, sizeof(tv)))
			return -EFAULT;
		ts.tv_sec = tv.tv_sec;
		ts.tv_nsec = tv.tv_usec * 1000;
		if (tv.tv_usec < 0 || tv.tv_usec >= 1000000 ||
		    !timespec_valid(&ts))
			return -EINVAL;
		timeout = timespec_to_jiffies(&ts);
	}
	deadline = jiffies + timeout;
	ret = core_sys_select(n, inp, outp, exp, timeout);
	if (tvp && timeout != MAX_SCHEDULE_TIMEOUT)
		poll_select_finish(tvp, true, deadline);
	return ret;
}

/* pselect6's sixth argument: the mask and its size, by reference. */
struct sigset_argpack {
	const sigset_t __user *p;
	size_t size;
};

SYSCALL_DEFINE6(pselect6, int, n, void __user *, inp, void __user *, outp,
		void __user *, exp, struct __kernel_timespec __user *, tsp,
		const struct sigset_argpack __user *, sig)
{
	struct sigset_argpack pack = { NULL, 0 };
	long timeout;
	u64 deadline;
	int ret = get_timespec_timeout(tsp, &timeout);

	if (ret)
		return ret;
	if (sig && copy_from_user(&pack, sig, sizeof(pack)))
		return -EFAULT;
	ret = set_user_sigmask(pack.p, pack.size);
	if (ret)
		return ret;
	deadline = jiffies + timeout;
	ret = core_sys_select(n, inp, outp, exp, timeout);
	restore_saved_sigmask_unless(ret == -ERESTARTNOHAND);
	if (tsp && timeout != MAX_SCHEDULE_TIMEOUT)
		poll_select_finish(tsp, false, deadline);
	return ret;
}
