/*
 * kernel/futex.c: futex(2), and the robust list calls.
 *
 * A futex is a 32-bit word in user memory. FUTEX_WAIT sleeps if the word
 * still holds the value the caller saw; FUTEX_WAKE wakes sleepers of the
 * same futex. "The same" is a key (get_futex_key): a private futex
 * (FUTEX_PRIVATE_FLAG, or memory no other process can map) is its mm and
 * address, which every thread of the process shares; one in a MAP_SHARED mapping is the file's mapping and its
 * offset there, so processes that map the page at different addresses
 * meet (shared anonymous memory is a shmem file, mm/shmem.c). Sleepers
 * wait in a futex_q on one of a few hash buckets.
 *
 * No wake-up is lost: the waiter queues itself, then reads the word; the
 * waker stores the word, then wakes. The waiter either sees the new value
 * (EAGAIN) or is queued in time. The word is read once before queueing
 * too, so the read after it finds the page present and cannot sleep.
 *
 * Roadmap: get_futex_key; futex_wait (with futex_wait_setup,
 * futex_unqueue); futex_wake; futex_requeue; the timeout and the
 * dispatch (do_futex); futex_wake_one (a thread's exit, for
 * pthread_join); set_robust_list/get_robust_list (stored only: no
 * robust-list walk at exit).
 */
#include <kernel/errno.h>
#include <kernel/init.h>
#include <kernel/jiffies.h>
#include <kernel/sched.h>
#include <kernel/syscalls.h>
#include <kernel/uaccess.h>
#include <fs/fs.h>
#include <mm/mmap.h>
#include <mm/mmap_lock.h>

#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_REQUEUE 3
#define FUTEX_CMP_REQUEUE 4
#define FUTEX_WAIT_BITSET 9
#define FUTEX_WAKE_BITSET 10
#define FUTEX_WAIT_REQUEUE_PI 11
#define FUTEX_LOCK_PI2 13
#define FUTEX_PRIVATE_FLAG 128
#define FUTEX_CLOCK_REALTIME 256
#define FUTEX_CMD_MASK (~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))
#define FUTEX_BITSET_MATCH_ANY 0xffffffffU

#define FUTEX_HASHBITS 4

/* ptr: the mm (private) or the address_space (shared); word: the page's
 * address or index; offset within the page. */
struct futex_key {
	void *ptr;
	unsigned long word;
	unsigned int offset;
};

struct futex_q {
	struct list_head list;	/* on a bucket; empty once woken */
	struct futex_key key;
	u32 bitset;
	struct wait_queue_entry wait;	/* what wait_woken() sleeps on */
};

struct futex_hash_bucket {
	spinlock_t lock;
	struct list_head chain;
};

static struct futex_hash_bucket futex_queues[1 << FUTEX_HASHBITS];

static struct futex_hash_bucket *hash_futex(const struct futex_key *key)
{
	unsigned long h = (unsigned long)key->ptr ^ (key->word * 31) ^
			  key->offset;

	h ^= h >> 7 ^ h >> 17;
	return &futex_queues[h & ((1 << FUTEX_HASHBITS) - 1)];
}

static bool match_futex(const struct futex_key *a, const struct futex_key *b)
{
	return a->ptr == b->ptr && a->word == b->word && a->offset == b->offset;
}

static int get_futex_key(u32 __user *uaddr, bool shared, struct futex_key *key)
{
	unsigned long address = (unsigned long)uaddr;
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;

	if (address & 3)
		return -EINVAL;
	if (!access_ok(uaddr, sizeof(u32)))
		return -EFAULT;
	key->offset = address & ~PAGE_MASK;
	key->ptr = mm;
	key->word = address & PAGE_MASK;
	if (!shared)
		return 0;
	mmap_read_lock(mm);
	vma = find_vma(mm, address);
	if (!vma || vma->vm_start > address) {
		mmap_read_unlock(mm);
		return -EFAULT;
	}
	if ((vma->vm_flags & VM_SHARED) && vma->vm_file) {
		key->ptr = vma->vm_file->f_inode->i_mapping;
		key->word = vma->vm_pgoff +
			    ((address - vma->vm_start) >> PAGE_SHIFT);
	}
	mmap_read_unlock(mm);	/* before the futex word is read: it may
				 * fault, which takes mmap_lock again */
	return 0;
}

/* Wake q: off its bucket first (the waiter's test), then the task. */
static void futex_wake_q(struct futex_q *q)
{
	list_del_init(&q->list);
	woken_wake_function(&q->wait);
}

/* A waker emptied q.list under its bucket's lock (the bucket of q's key
 * then: a requeue changes both under the locks): take it once. */
static void futex_waker_done(struct futex_q *q)
{
	struct futex_hash_bucket *hb = hash_futex(&q->key);
	unsigned long flags;

	spin_lock_irqsave(&hb->lock, flags);
	spin_unlock_irqrestore(&hb->lock, flags);
}

/* Take q off its bucket unless a waker did: true if it was still on. */
static bool futex_unqueue(struct futex_q *q)
{
	struct futex_hash_bucket *hb = hash_futex(&q->key);
	unsigned long flags;
	bool queued;

	spin_lock_irqsave(&hb->lock, flags);
	queued = !list_empty(&q->list);
	if (queued)
		list_del_init(&q->list);
	spin_unlock_irqrestore(&hb->lock, flags);
	return queued;
}

/* Queue q, then check the word: 0 (queued), or -EAGAIN/-EFAULT. */
static int futex_wait_setup(u32 __user *uaddr, u32 val, struct futex_q *q)
{
	struct futex_hash_bucket *hb = hash_futex(&q->key);
	unsigned long flags;
	u32 uval;

	if (get_user(uval, uaddr))	/* fault the page in, if it must */
		return -EFAULT;
	spin_lock_irqsave(&hb->lock, flags);
	list_add_tail(&q->list, &hb->chain);
	spin_unlock_irqrestore(&hb->lock, flags);
	if (get_user(uval, uaddr)) {
		futex_unqueue(q);
		return -EFAULT;
	}
	if (uval != val) {
		futex_unqueue(q);
		return -EAGAIN;
	}
	return 0;
}

/* The timeout in ticks: FUTEX_WAIT's is relative, WAIT_BITSET's an
 * absolute time on CLOCK_MONOTONIC (or CLOCK_REALTIME); none: no limit. */
static long futex_timeout(const struct __kernel_timespec *ts, int cmd, int op)
{
	struct __kernel_timespec left;
	u64 now, abs;

	if (!ts)
		return MAX_SCHEDULE_TIMEOUT;
	if (cmd == FUTEX_WAIT)
		return timespec_to_jiffies(ts);
	now = (op & FUTEX_CLOCK_REALTIME) ? ktime_get_real_ns()
					  : ktime_get_ns();
	if (ts->tv_sec >= (s64)(MAX_SCHEDULE_TIMEOUT / HZ / 2))
		return MAX_SCHEDULE_TIMEOUT;
	abs = ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
	if (abs <= now)
		return 0;
	left.tv_sec = (abs - now) / NSEC_PER_SEC;
	left.tv_nsec = (abs - now) % NSEC_PER_SEC;
	return timespec_to_jiffies(&left);
}

/*
 * Sleep until woken, a signal, or the timeout. An absolute deadline is
 * checked against its clock once the ticks run out: that clock, not the
 * tick, says when it has come.
 */
static long futex_wait(u32 __user *uaddr, bool shared, u32 val,
		       const struct __kernel_timespec *ts, int cmd, int op,
		       u32 bitset)
{
	long timeout = futex_timeout(ts, cmd, op);
	struct futex_q q = { .bitset = bitset };
	long err;

	if (!bitset)
		return -EINVAL;
	err = get_futex_key(uaddr, shared, &q.key);
	if (err)
		return err;
	INIT_LIST_HEAD(&q.list);
	init_wait_woken(&q.wait);
	err = futex_wait_setup(uaddr, val, &q);
	if (err)
		return err;
	for (;;) {
		/* Only wakers empty it, under the bucket's lock, and the one
		 * that did may still be waking us on another CPU: wait for
		 * it to let go before this frame (q) ends. */
		if (list_empty(&q.list)) {
			futex_waker_done(&q);
			return 0;
		}
		if (!timeout && ts && cmd != FUTEX_WAIT)
			timeout = futex_timeout(ts, cmd, op);
		if (!timeout || signal_pending(current))
			break;
		timeout = wait_woken(&q.wait, timeout);
	}
	if (!futex_unqueue(&q))
		return 0;	/* woken after all */
	if (!timeout)
		return -ETIMEDOUT;
	/* A handler that asks for restarts gets one unless a timeout was
	 * given (Linux restarts those with the time left; here, EINTR). */
	return ts ? -ERESTARTNOHAND : -ERESTARTSYS;
}

static long futex_wake(u32 __user *uaddr, bool shared, int nr_wake,
		       u32 bitset)
{
	struct futex_q *q, *next;
	struct futex_hash_bucket *hb;
	struct futex_key key;
	unsigned long flags;
	long ret;

	if (!bitset)
		return -EINVAL;
	ret = get_futex_key(uaddr, shared, &key);
	if (ret)
		return ret;
	hb = hash_futex(&key);
	spin_lock_irqsave(&hb->lock, flags);
	list_for_each_entry_safe(q, next, &hb->chain, list) {
		if (!match_futex(&q->key, &key) || !(q->bitset & bitset))
			continue;
		futex_wake_q(q);
		if (++ret >= nr_wake)	/* as Linux: 0 wakes one */
			break;
	}
	spin_unlock_irqrestore(&hb->lock, flags);
	return ret;
}

void futex_wake_one(u32 __user *uaddr)
{
	futex_wake(uaddr, true, 1, FUTEX_BITSET_MATCH_ANY);
}

/*
 * Wake nr_wake waiters of uaddr and move up to nr_requeue more to
 * uaddr2; CMP_REQUEUE first checks that *uaddr is still cmpval.
 * Returns how many were woken or moved.
 */
static long futex_requeue(u32 __user *uaddr, bool shared, u32 __user *uaddr2,
			  int nr_wake, int nr_requeue, const u32 *cmpval)
{
	struct futex_key key1, key2;
	struct futex_q *q, *next;
	struct futex_hash_bucket *hb1, *hb2;
	unsigned long flags;
	long ret;
	u32 uval;

	if (nr_wake < 0 || nr_requeue < 0)
		return -EINVAL;
	ret = get_futex_key(uaddr, shared, &key1) ?:
	      get_futex_key(uaddr2, shared, &key2);
	if (ret)
		return ret;
	if (cmpval && get_user(uval, uaddr))
		return -EFAULT;
	if (cmpval && uval != *cmpval)
		return -EAGAIN;
	hb1 = hash_futex(&key1);
	hb2 = hash_futex(&key2);
	/* Both buckets' locks, the lower address first (two requeues the
	 * other way round would each hold one and wait for the other). */
	flags = local_irq_save();
	spin_lock(hb1 < hb2 ? &hb1->lock : &hb2->lock);
	if (hb1 != hb2)
		spin_lock(hb1 < hb2 ? &hb2->lock : &hb1->lock);
	list_for_each_entry_safe(q, next, &hb1->chain, list) {
		if (!match_futex(&q->key, &key1))
			continue;
		if (ret < nr_wake) {
			futex_wake_q(q);
		} else if (ret < nr_wake + nr_requeue) {
			list_del(&q->list);
			q->key = key2;
			list_add_tail(&q->list, &hb2->chain);
		} else {
			break;
		}
		ret++;
	}
	if (hb1 != hb2)
		spin_unlock(&hb2->lock);
	spin_unlock(&hb1->lock);
	local_irq_restore(flags);
	return ret;
}

static long do_futex(u32 __user *uaddr, int op, u32 val,
		     const struct __kernel_timespec *ts, u32 __user *uaddr2,
		     u32 val2, u32 val3)
{
	int cmd = op & FUTEX_CMD_MASK;
	bool shared = !(op & FUTEX_PRIVATE_FLAG);

	if ((op & FUTEX_CLOCK_REALTIME) && cmd != FUTEX_WAIT &&
	    cmd != FUTEX_WAIT_BITSET && cmd != FUTEX_WAIT_REQUEUE_PI &&
	    cmd != FUTEX_LOCK_PI2)
		return -ENOSYS;
	switch (cmd) {
	case FUTEX_WAIT:
		val3 = FUTEX_BITSET_MATCH_ANY;
		/* fall through */
	case FUTEX_WAIT_BITSET:
		return futex_wait(uaddr, shared, val, ts, cmd, op, val3);
	case FUTEX_WAKE:
		val3 = FUTEX_BITSET_MATCH_ANY;
		/* fall through */
	case FUTEX_WAKE_BITSET:
		return futex_wake(uaddr, shared, val, val3);
	case FUTEX_REQUEUE:
		return futex_requeue(uaddr, shared, uaddr2, val, val2, NULL);
	case FUTEX_CMP_REQUEUE:
		return futex_requeue(uaddr, shared, uaddr2, val, val2, &val3);
	}
	return -ENOSYS;	/* PI futexes, WAKE_OP: not implemented */
}

SYSCALL_DEFINE6(futex, u32 __user *, uaddr, int, op, u32, val,
		const struct __kernel_timespec __user *, utime,
		u32 __user *, uaddr2, u32, val3)
{
	int cmd = op & FUTEX_CMD_MASK;
	struct __kernel_timespec ts, *tsp = NULL;

	if (utime && (cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET)) {
		if (copy_from_user(&ts, utime, sizeof(ts)))
			return -EFAULT;
		if (!timespec_valid(&ts))
			return -EINVAL;
		tsp = &ts;
	}
	/* The requeue operations pass their second count in utime's place. */
	return do_futex(uaddr, op, val, tsp, uaddr2, (u32)(unsigned long)utime,
			val3);
}

/* struct robust_list_head: list, futex_offset, list_op_pending. */
#define ROBUST_LIST_HEAD_SIZE 24

SYSCALL_DEFINE2(set_robust_list, void __user *, head, size_t, len)
{
	if (len != ROBUST_LIST_HEAD_SIZE)
		return -EINVAL;
	current->robust_list = (unsigned long)head;
	return 0;
}

SYSCALL_DEFINE3(get_robust_list, int, pid, unsigned long __user *, head_ptr,
		size_t __user *, len_ptr)
{
	struct task_struct *t;
	unsigned long head = 0;
	int err = 0;

	lock_tasklist();	/* read t before it can be reaped */
	t = pid ? find_task_by_pid(pid) : current;
	if (!t || t->exit_state)
		err = -ESRCH;
	else if (t != current && current->cred.euid &&
		 current->cred.euid != t->cred.uid)
		err = -EPERM;
	else
		head = t->robust_list;
	unlock_tasklist();
	if (err)
		return err;
	if (put_user((size_t)ROBUST_LIST_HEAD_SIZE, len_ptr) ||
	    put_user(head, head_ptr))
		return -EFAULT;
	return 0;
}

/* Before any process runs (initcalls come before init). */
static int futex_init(void)
{
	for (int i = 0; i < (1 << FUTEX_HASHBITS); i++) {
		spin_lock_init(&futex_queues[i].lock);
		INIT_LIST_HEAD(&futex_queues[i].chain);
	}
	return 0;
}
device_initcall(futex_init);
