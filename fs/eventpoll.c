/*
 * fs/eventpoll.c: epoll(7).
 *
 * An epoll file (struct eventpoll) keeps an interest list of epitems, one
 * per (file, fd) added with EPOLL_CTL_ADD, and a ready list. Adding an
 * item calls its file's ->poll with a table whose queue function
 * (ep_ptable_queue_proc) hangs an entry on each wait queue the file names;
 * the entries stay while the item does. A wake_up() on such a queue runs
 * ep_poll_callback: the item goes on the ready list, and epoll_wait's
 * sleepers (ep->wq) and pollers of the epoll file itself (ep->poll_wait)
 * are woken. epoll_wait (ep_poll, ep_send_events) takes items off the
 * ready list, asks each file's ->poll again (the event may be gone),
 * reports what holds and, level-triggered, puts the item back so that the
 * next epoll_wait asks again. EPOLLONESHOT disables an item after one
 * report until EPOLL_CTL_MOD; EPOLLET items are not put back.
 *
 * An item lives while its file is open, not its fd: the file's last fput
 * calls eventpoll_release_file (from __fput), which takes it out of every
 * epoll; the epoll file's own last close (ep_eventpoll_release) drops all
 * of its items. A file's items are chained from file->f_ep (epi->fnext).
 *
 * Locks: epmutex (global) serialises every change of an interest list and
 * of the f_ep chains (epoll_ctl, ep_eventpoll_release,
 * eventpoll_release_file) and the loop check; ep->mtx keeps an epoll's
 * items alive while epoll_wait works on them; ep->lock (interrupts off:
 * callbacks may come from interrupts) guards the ready list. Order:
 * epmutex, then ep->mtx (outer epoll before inner), then ep->lock.
 *
 * Roadmap: ep_find, ep_insert, ep_modify, ep_remove; ep_poll_callback;
 * ep_send_events, ep_poll; ep_eventpoll_poll and ep_loop_check (an epoll
 * inside an epoll); ep_eventpoll_release, eventpoll_release_file; the
 * system calls.
 */
#include <fs/anon_inodes.h>
#include <fs/file.h>
#include <fs/poll.h>
#include <kernel/errno.h>
#include <kernel/jiffies.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/uaccess.h>
#include <mm/slab.h>

#define EPOLL_CTL_ADD 1
#define EPOLL_CTL_DEL 2
#define EPOLL_CTL_MOD 3
#define EPOLL_CLOEXEC O_CLOEXEC

#define EPOLLEXCLUSIVE (1U << 28)
#define EPOLLWAKEUP (1U << 29)
#define EPOLLONESHOT (1U << 30)
#define EPOLLET (1U << 31)
/* Bits that describe the item, not events: a disarmed ONESHOT item has
 * only these. */
#define EP_PRIVATE_BITS (EPOLLWAKEUP | EPOLLONESHOT | EPOLLET | EPOLLEXCLUSIVE)
#define EPOLLEXCLUSIVE_OK_BITS (EPOLLIN | EPOLLOUT | EPOLLERR | EPOLLHUP | \
				EPOLLWAKEUP | EPOLLET | EPOLLEXCLUSIVE)
#define EP_MAX_NESTS 4

/* The x86-64 layout is packed: 12 bytes. */
struct epoll_event {
	u32 events;
	u64 data;
} __packed;

#define EP_MAX_EVENTS (INT_MAX / sizeof(struct epoll_event))

struct eventpoll {
	struct mutex mtx;
	spinlock_t lock;	/* rdllist */
	wait_queue_head_t wq;	/* epoll_wait sleepers */
	wait_queue_head_t poll_wait;	/* pollers of this epoll file */
	struct list_head rdllist;	/* items that may be ready */
	struct list_head items;	/* the interest list */
	struct file *file;
};

struct epitem {
	struct list_head itemlink;	/* ep->items */
	struct list_head rdllink;	/* ep->rdllist, or empty */
	struct file *file;
	int fd;
	struct eventpoll *ep;
	struct list_head pwqlist;	/* our entries on the file's queues */
	int nwait;	/* how many; -1: one could not be made */
	struct epitem *fnext;	/* the next item of file->f_ep */
	struct epoll_event event;
};

/* One entry of an item on one of its file's wait queues. */
struct eppoll_entry {
	struct list_head llink;	/* epi->pwqlist */
	struct epitem *base;
	wait_queue_head_t *whead;
	struct wait_queue_entry wait;
};

/* The poll table ep_insert passes to the file's ->poll. */
struct ep_pqueue {
	poll_table pt;
	struct epitem *epi;
};

static DEFINE_MUTEX(epmutex);
static const struct file_operations eventpoll_fops;

static bool is_file_epoll(struct file *file)
{
	return file->f_op == &eventpoll_fops;
}

static struct epitem *ep_find(struct eventpoll *ep, struct file *file, int fd)
{
	struct epitem *epi;

	list_for_each_entry(epi, &ep->items, itemlink)
		if (epi->file == file && epi->fd == fd)
			return epi;
	return NULL;
}

static __poll_t ep_item_poll(struct epitem *epi, poll_table *pt)
{
	return vfs_poll(epi->file, pt) & epi->event.events;
}

/* Queue epi as ready (unless disarmed or queued already), wake waiters. */
static void ep_set_ready(struct eventpoll *ep, struct epitem *epi)
{
	unsigned long flags;

	spin_lock_irqsave(&ep->lock, flags);
	if ((epi->event.events & ~EP_PRIVATE_BITS) && list_empty(&epi->rdllink))
		list_add_tail(&epi->rdllink, &ep->rdllist);
	spin_unlock_irqrestore(&ep->lock, flags);
	wake_up(&ep->wq);
	wake_up(&ep->poll_wait);
}

/* Called by wake_up() on a watched file's queue, maybe in an interrupt. */
static int ep_poll_callback(struct wait_queue_entry *wait)
{
	struct eppoll_entry *pwq =
		container_of(wait, struct eppoll_entry, wait);

	ep_set_ready(pwq->base->ep, pwq->base);
	return 1;
}

static void ep_ptable_queue_proc(struct file *file, wait_queue_head_t *whead,
				 poll_table *pt)
{
	struct epitem *epi = container_of(pt, struct ep_pqueue, pt)->epi;
	struct eppoll_entry *pwq;

	if (epi->nwait < 0)
		return;
	pwq = kzalloc(sizeof(*pwq), GFP_KERNEL);
	if (!pwq) {
		epi->nwait = -1;
		return;
	}
	pwq->base = epi;
	pwq->whead = whead;
	pwq->wait.func = ep_poll_callback;
	list_add_tail(&pwq->llink, &epi->pwqlist);
	epi->nwait++;
	add_wait_queue(whead, &pwq->wait);
}

/* epmutex and ep->mtx held: unhook epi everywhere and free it. */
static void ep_remove(struct eventpoll *ep, struct epitem *epi)
{
	struct eppoll_entry *pwq, *tmp;
	struct epitem **pp;
	unsigned long flags;

	list_for_each_entry_safe(pwq, tmp, &epi->pwqlist, llink) {
		remove_wait_queue(pwq->whead, &pwq->wait);
		kfree(pwq);
	}
	for (pp = &epi->file->f_ep; *pp != epi; pp = &(*pp)->fnext)
		;
	*pp = epi->fnext;
	list_del(&epi->itemlink);
	spin_lock_irqsave(&ep->lock, flags);
	if (!list_empty(&epi->rdllink))
		list_del_init(&epi->rdllink);
	spin_unlock_irqrestore(&ep->lock, flags);
	kfree(epi);
}

static int ep_insert(struct eventpoll *ep, const struct epoll_event *event,
		     struct file *tfile, int fd)
{
	struct epitem *epi = kzalloc(sizeof(*epi), GFP_KERNEL);
	struct ep_pqueue epq = { { ep_ptable_queue_proc }, epi };
	__poll_t revents;

	if (!epi)
		return -ENOMEM;
	INIT_LIST_HEAD(&epi->rdllink);
	INIT_LIST_HEAD(&epi->pwqlist);
	epi->ep = ep;
	epi->file = tfile;
	epi->fd = fd;
	epi->event = *event;
	list_add_tail(&epi->itemlink, &ep->items);
	epi->fnext = tfile->f_ep;
	tfile->f_ep = epi;
	revents = ep_item_poll(epi, &epq.pt);
	if (epi->nwait < 0) {
		ep_remove(ep, epi);
		return -ENOMEM;
	}
	if (revents)
		ep_set_ready(ep, epi);
	return 0;
}

/* New events and data; re-arms a ONESHOT item. */
static int ep_modify(struct eventpoll *ep, struct epitem *epi,
		     const struct epoll_event *event)
{
	unsigned long flags;

	spin_lock_irqsave(&ep->lock, flags);
	epi->event = *event;
	spin_unlock_irqrestore(&ep->lock, flags);
	if (ep_item_poll(epi, NULL))
		ep_set_ready(ep, epi);
	return 0;
}

/* Take the first item off list (under ep->lock), or NULL. */
static struct epitem *ep_pop(struct eventpoll *ep, struct list_head *list)
{
	struct epitem *epi = NULL;
	unsigned long flags;

	spin_lock_irqsave(&ep->lock, flags);
	if (!list_empty(list)) {
		epi = list_first_entry(list, struct epitem, rdllink);
		list_del_init(&epi->rdllink);
	}
	spin_unlock_irqrestore(&ep->lock, flags);
	return epi;
}

/* Put back what was not used: txlist first in line, requeue last. */
static void ep_putback(struct eventpoll *ep, struct list_head *txlist,
		       struct list_head *requeue)
{
	unsigned long flags;

	spin_lock_irqsave(&ep->lock, flags);
	list_splice_init(txlist, &ep->rdllist);
	list_splice_tail_init(requeue, &ep->rdllist);
	spin_unlock_irqrestore(&ep->lock, flags);
}

/* Requeue epi (level-triggered) unless the callback already did. */
static void ep_requeue(struct eventpoll *ep, struct epitem *epi,
		       struct list_head *requeue)
{
	unsigned long flags;

	spin_lock_irqsave(&ep->lock, flags);
	if (list_empty(&epi->rdllink))
		list_add_tail(&epi->rdllink, requeue);
	spin_unlock_irqrestore(&ep->lock, flags);
}

/*
 * Report up to maxevents ready items: the number, or -EFAULT if not even
 * the first could be copied. The items in work sit on txlist, so a
 * callback meanwhile does not queue them twice.
 */
static int ep_send_events(struct eventpoll *ep,
			  struct epoll_event __user *events, int maxevents)
{
	LIST_HEAD(txlist);
	LIST_HEAD(requeue);
	struct epitem *epi;
	unsigned long flags;
	int res = 0;

	mutex_lock(&ep->mtx);
	spin_lock_irqsave(&ep->lock, flags);
	list_splice_init(&ep->rdllist, &txlist);
	spin_unlock_irqrestore(&ep->lock, flags);
	while (res < maxevents && (epi = ep_pop(ep, &txlist))) {
		struct epoll_event ev = { ep_item_poll(epi, NULL),
					  epi->event.data };

		if (!ev.events)
			continue;	/* not ready after all: drop it */
		if (copy_to_user(&events[res], &ev, sizeof(ev))) {
			ep_requeue(ep, epi, &txlist);
			if (!res)
				res = -EFAULT;
			break;
		}
		res++;
		if (epi->event.events & EPOLLONESHOT)
			epi->event.events &= EP_PRIVATE_BITS;
		else if (!(epi->event.events & EPOLLET))
			ep_requeue(ep, epi, &requeue);
	}
	ep_putback(ep, &txlist, &requeue);
	mutex_unlock(&ep->mtx);
	return res;
}

static bool ep_events_available(struct eventpoll *ep)
{
	return !list_empty(&ep->rdllist);
}

/* epoll_wait's loop; timeout in ticks (MAX_SCHEDULE_TIMEOUT: none). */
static int ep_poll(struct eventpoll *ep, struct epoll_event __user *events,
		   int maxevents, long timeout)
{
	struct wait_queue_entry wait;
	int res;

	init_wait_woken(&wait);
	for (;;) {
		if (ep_events_available(ep)) {
			res = ep_send_events(ep, events, maxevents);
			if (res)
				return res;
		}
		if (!timeout)
			return 0;
		if (signal_pending(current))
			return -EINTR;
		add_wait_queue(&ep->wq, &wait);
		if (!ep_events_available(ep))
			timeout = wait_woken(&wait, timeout);
		remove_wait_queue(&ep->wq, &wait);
	}
}

/* An epoll file is readable when one of its items is really ready. */
static __poll_t ep_eventpoll_poll(struct file *file, poll_table *pt)
{
	struct eventpoll *ep = file->private_data;
	LIST_HEAD(txlist);
	LIST_HEAD(keep);
	struct epitem *epi;
	unsigned long flags;
	__poll_t mask = 0;

	poll_wait(file, &ep->poll_wait, pt);
	mutex_lock(&ep->mtx);
	spin_lock_irqsave(&ep->lock, flags);
	list_splice_init(&ep->rdllist, &txlist);
	spin_unlock_irqrestore(&ep->lock, flags);
	while (!mask && (epi = ep_pop(ep, &txlist))) {
		if (ep_item_poll(epi, NULL)) {
			mask = EPOLLIN | EPOLLRDNORM;
			ep_requeue(ep, epi, &keep);
		}
	}
	ep_putback(ep, &keep, &txlist);
	mutex_unlock(&ep->mtx);
	return mask;
}

/* How many epolls above ep watch it, at most (follows f_ep chains). */
static int ep_upwards_depth(struct eventpoll *ep)
{
	struct epitem *epi;
	int depth = 0;

	for (epi = ep->file->f_ep; epi; epi = epi->fnext)
		depth = max(depth, 1 + ep_upwards_depth(epi->ep));
	return depth;
}

/* Does ep, at depth, reach into, or nest too deep? epmutex held. */
static bool ep_loop_check_proc(struct eventpoll *ep, struct eventpoll *into,
			       int depth)
{
	struct epitem *epi;

	if (depth > EP_MAX_NESTS)
		return true;
	list_for_each_entry(epi, &ep->items, itemlink) {
		struct eventpoll *child;

		if (!is_file_epoll(epi->file))
			continue;
		child = epi->file->private_data;
		if (child == into || ep_loop_check_proc(child, into, depth + 1))
			return true;
	}
	return false;
}

/* Adding epoll file tfile to ep: no cycle, no chain over EP_MAX_NESTS. */
static int ep_loop_check(struct eventpoll *ep, struct file *tfile)
{
	return ep_loop_check_proc(tfile->private_data, ep,
				  ep_upwards_depth(ep) + 1) ? -ELOOP : 0;
}

static int ep_eventpoll_release(struct inode *inode, struct file *file)
{
	struct eventpoll *ep = file->private_data;
	struct epitem *epi, *tmp;

	mutex_lock(&epmutex);
	mutex_lock(&ep->mtx);
	list_for_each_entry_safe(epi, tmp, &ep->items, itemlink)
		ep_remove(ep, epi);
	mutex_unlock(&ep->mtx);
	mutex_unlock(&epmutex);
	kfree(ep);
	return 0;
}

void eventpoll_release_file(struct file *file)
{
	mutex_lock(&epmutex);
	while (file->f_ep) {
		struct eventpoll *ep = file->f_ep->ep;

		mutex_lock(&ep->mtx);
		ep_remove(ep, file->f_ep);
		mutex_unlock(&ep->mtx);
	}
	mutex_unlock(&epmutex);
}

static const struct file_operations eventpoll_fops = {
	.llseek = no_llseek,
	.poll = ep_eventpoll_poll,
	.release = ep_eventpoll_release,
};

/* ---- system calls -------------------------------------------------------- */

static long do_epoll_create(int flags)
{
	struct eventpoll *ep;
	struct file *file;
	int fd;

	if (flags & ~EPOLL_CLOEXEC)
		return -EINVAL;
	ep = kzalloc(sizeof(*ep), GFP_KERNEL);
	if (!ep)
		return -ENOMEM;
	mutex_init(&ep->mtx);
	spin_lock_init(&ep->lock);
	init_waitqueue_head(&ep->wq);
	init_waitqueue_head(&ep->poll_wait);
	INIT_LIST_HEAD(&ep->rdllist);
	INIT_LIST_HEAD(&ep->items);
	fd = get_unused_fd_flags(flags);
	if (fd < 0)
		goto out_free;
	file = anon_inode_getfile("[eventpoll]", &eventpoll_fops, ep, O_RDWR);
	if (IS_ERR(file)) {
		put_unused_fd(fd);
		fd = PTR_ERR(file);
		goto out_free;
	}
	ep->file = file;
	fd_install(fd, file);
	return fd;
out_free:
	kfree(ep);
	return fd;
}

SYSCALL_DEFINE1(epoll_create1, int, flags)
{
	return do_epoll_create(flags);
}

SYSCALL_DEFINE1(epoll_create, int, size)
{
	return size <= 0 ? -EINVAL : do_epoll_create(0);
}

static bool ep_op_has_event(int op)
{
	return op != EPOLL_CTL_DEL;
}

/* The checks after both files are known, in Linux's order. */
static int ep_ctl_checks(int op, struct file *file, struct file *tfile,
			 const struct epoll_event *epds)
{
	if (!file_can_poll(tfile))
		return -EPERM;
	if (file == tfile || !is_file_epoll(file))
		return -EINVAL;
	if (ep_op_has_event(op) && (epds->events & EPOLLEXCLUSIVE) &&
	    (op == EPOLL_CTL_MOD || is_file_epoll(tfile) ||
	     (epds->events & ~EPOLLEXCLUSIVE_OK_BITS)))
		return -EINVAL;
	return 0;
}

/* epmutex and ep->mtx held. */
static int ep_ctl_locked(struct eventpoll *ep, int op, struct file *tfile,
			 int fd, struct epoll_event *epds)
{
	struct epitem *epi = ep_find(ep, tfile, fd);

	switch (op) {
	case EPOLL_CTL_ADD:
		if (epi)
			return -EEXIST;
		if (is_file_epoll(tfile) && ep_loop_check(ep, tfile))
			return -ELOOP;
		epds->events |= EPOLLERR | EPOLLHUP;
		return ep_insert(ep, epds, tfile, fd);
	case EPOLL_CTL_DEL:
		if (!epi)
			return -ENOENT;
		ep_remove(ep, epi);
		return 0;
	case EPOLL_CTL_MOD:
		if (!epi)
			return -ENOENT;
		if (epi->event.events & EPOLLEXCLUSIVE)
			return -EINVAL;
		epds->events |= EPOLLERR | EPOLLHUP;
		return ep_modify(ep, epi, epds);
	}
	return -EINVAL;
}

SYSCALL_DEFINE4(epoll_ctl, int, epfd, int, op, int, fd,
		struct epoll_event __user *, event)
{
	struct epoll_event epds = { 0, 0 };
	struct file *file, *tfile = NULL;
	struct eventpoll *ep;
	int err = -EFAULT;

	if (ep_op_has_event(op) && copy_from_user(&epds, event, sizeof(epds)))
		return err;
	err = -EBADF;
	file = fget(epfd);
	if (!file)
		return err;
	tfile = fget(fd);
	if (!tfile)
		goto out;
	err = ep_ctl_checks(op, file, tfile, &epds);
	if (err)
		goto out;
	ep = file->private_data;
	mutex_lock(&epmutex);
	mutex_lock(&ep->mtx);
	err = ep_ctl_locked(ep, op, tfile, fd, &epds);
	mutex_unlock(&ep->mtx);
	mutex_unlock(&epmutex);
out:
	if (tfile)
		fput(tfile);
	fput(file);
	return err;
}

static int do_epoll_wait(int epfd, struct epoll_event __user *events,
			 int maxevents, long timeout)
{
	struct file *file;
	int err;

	if (maxevents <= 0 || (unsigned long)maxevents > EP_MAX_EVENTS)
		return -EINVAL;
	if (!access_ok(events, maxevents * sizeof(struct epoll_event)))
		return -EFAULT;
	file = fget(epfd);
	if (!file)
		return -EBADF;
	err = -EINVAL;
	if (is_file_epoll(file))
		err = ep_poll(file->private_data, events, maxevents, timeout);
	fput(file);
	return err;
}

SYSCALL_DEFINE4(epoll_wait, int, epfd, struct epoll_event __user *, events,
		int, maxevents, int, timeout)
{
	return do_epoll_wait(epfd, events, maxevents,
			     msecs_to_jiffies_timeout(timeout));
}

SYSCALL_DEFINE6(epoll_pwait, int, epfd, struct epoll_event __user *, events,
		int, maxevents, int, timeout, const sigset_t __user *, sigmask,
		size_t, sigsetsize)
{
	int err = set_user_sigmask(sigmask, sigsetsize);

	if (err)
		return err;
	err = do_epoll_wait(epfd, events, maxevents,
			    msecs_to_jiffies_timeout(timeout));
	restore_saved_sigmask_unless(err == -EINTR);
	return err;
}
