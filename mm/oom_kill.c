/*
 * mm/oom_kill.c: when a program's page fault cannot get a page, kill the
 * task that holds the most memory, not whoever happened to fault
 * (Linux's OOM killer, in its simplest form: the badness is the
 * resident size alone). Without it, the task that faulted next died: a
 * memory hog's neighbour, or the shell running the tests.
 *
 *   out_of_memory       called by handle_mm_fault on VM_FAULT_OOM for a
 *                       user access: kill the biggest other task and let
 *                       the access fault again, or say current is it
 *   select_bad_process  the biggest user task, or one already dying
 */
#include <mm/mmap.h>
#include <kernel/printk.h>
#include <kernel/resource.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/time.h>

#define DYING ((struct task_struct *)1)

static bool dying(struct task_struct *t)
{
	return t->exit_state || fatal_signal_pending(t);
}

/* May t stand for its process? The leader does; while the leader has
 * exited (pthread_exit), its other threads do (the biggest is chosen, so
 * the mm they share is still weighed once). */
static bool oom_candidate(struct task_struct *t)
{
	struct task_struct *leader = t->group_leader;

	return t->mm && (t == leader || (!leader->mm && t->tgid != t->pid));
}

/* The user process with the most resident pages, each counted once
 * whatever its threads: not init, not a kernel thread. DYING when a task
 * killed for memory has not exited yet (its pages come back when it
 * does); NULL when there is no one. Tasklist lock held: the victim
 * cannot go before it is signalled. */
static struct task_struct *select_bad_process(unsigned long *rss)
{
	struct task_struct *t, *victim = NULL;

	*rss = 0;
	list_for_each_entry(t, &task_list, tasks) {
		unsigned long n;

		/* current stands for its own process. (A vfork parent,
		 * or another thread of current's, shares current's mm:
		 * killing it frees nothing.) */
		if (t != current &&
		    (!oom_candidate(t) || t->mm == current->mm))
			continue;
		if (!t->mm || (t->flags & PF_KTHREAD) || t->tgid == 1)
			continue;
		if (t->oom_victim && dying(t))
			return DYING;
		n = get_mm_rss(t->mm);
		if (n > *rss) {
			*rss = n;
			victim = t;
		}
	}
	return victim;
}

bool out_of_memory(void)
{
	struct task_struct *victim;
	unsigned long rss;

	if (dying(current))
		return false;	/* on its way out: nothing to retry */
	lock_tasklist();
	victim = select_bad_process(&rss);
	if (victim == DYING) {
		unlock_tasklist();
		schedule_timeout_interruptible(1);	/* let it finish */
		return true;
	}
	if (!victim || victim->mm == current->mm) {
		unlock_tasklist();
		return false;	/* current is the biggest: it goes */
	}
	pr_err("mm: out of memory: killed %s[%d] (%lu kB resident) for "
	       "%s[%d]\n", victim->comm, victim->pid,
	       rss << (PAGE_SHIFT - 10), current->comm, current->pid);
	victim->oom_victim = true;
	group_send_sig_info(SIGKILL, NULL, victim);	/* all its threads */
	unlock_tasklist();
	schedule_timeout_interruptible(1);
	return true;
}
