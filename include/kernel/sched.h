/*
 * Tasks and the scheduler (kernel/sched/, kernel/fork.c, kernel/exit.c).
 *
 * A task is one thread: its kernel stack, saved registers, signal mask
 * and identity (cred). What a process has, its threads share through
 * counted pointers that clone() copies or shares flag by flag: the
 * address space (mm, CLONE_VM), open files (files, CLONE_FILES),
 * cwd/root/umask (fs, CLONE_FS), signal handlers (sighand,
 * CLONE_SIGHAND) and, for a thread group (CLONE_THREAD), the process's
 * own state (sig: the thread list, signals pending for the process, how
 * it exits). A thread's pid is its thread id; the group's tgid is its
 * leader's pid, which getpid() returns. current is the running task. A
 * task in the kernel runs until it sleeps (schedule()), returns to user
 * mode (where a pending reschedule or signal is acted on), or, with
 * preempt=full, is preempted (<kernel/preempt.h>).
 */
#ifndef _KERNEL_SCHED_H
#define _KERNEL_SCHED_H

#include <kernel/lockdep_types.h>
#include <kernel/cred.h>
#include <kernel/list.h>
#include <kernel/preempt.h>
#include <kernel/signal.h>
#include <kernel/wait.h>
#include <kernel/resource.h>
#include <kernel/trace.h>
#include <mm/mm.h>

struct mm_struct;
struct files_struct;
struct fs_struct;
struct pt_regs;
struct new_blocks_watch;

#define TASK_COMM_LEN 16
/* task->exit_state */
#define EXIT_ZOMBIE 16
#define EXIT_DEAD 32

/* FXSAVE area: x87 and SSE registers, saved on every switch. */
struct fpu_state {
	u8 fxsave[512];
} __attribute__((aligned(16)));

#define PF_MEMALLOC 0x1	/* reclaiming: may use the reserve, no recursion */
#define PF_KTHREAD 0x2	/* a kernel thread */
#define PF_EXITING 0x4	/* in do_exit: takes no more signals */

/* signal_struct->flags */
#define SIGNAL_GROUP_EXIT 0x1	/* exit_group or a fatal signal: all die */
#define SIGNAL_STOP_STOPPED 0x2	/* job control stopped the group */
/* init (Linux's SIGNAL_UNKILLABLE): a signal whose action is the default
 * is dropped, SIGKILL and SIGSTOP too; a fault clears it. */
#define SIGNAL_UNKILLABLE 0x4

/*
 * A process: what its threads (tasks made by clone(CLONE_THREAD)) share
 * beyond the handlers, Linux's signal_struct. Fields are guarded by the
 * siglock of the group's sighand (every thread shares it: CLONE_THREAD
 * needs CLONE_SIGHAND); count is atomic.
 */
struct signal_struct {
	int count;	/* tasks pointing here, zombies included (atomic) */
	int live;	/* threads that have not begun to exit */
	int nr_threads;	/* threads on thread_head */
	struct list_head thread_head;	/* every thread, via thread_node */
	sigset_t shared_pending;	/* signals for the process */
	siginfo_t shared_info[_NSIG];
	unsigned int flags;	/* SIGNAL_* */
	int group_exit_code;	/* wait status word, with SIGNAL_GROUP_EXIT */
	/* exec in a thread kills the others (de_thread) and waits on
	 * exec_wait until it is the only one left. */
	struct task_struct *group_exec_task;
	wait_queue_head_t exec_wait;
	/* Job control: the signal that stopped the group, while wait4
	 * (WUNTRACED) has not reported it; a SIGCONT it has not reported. */
	int stop_report;
	bool cont_report;
	/* CPU time, switches and faults of threads already gone (getrusage
	 * and times add the live threads' own). */
	struct group_usage dead;
};

struct task_struct {
	volatile long state;	/* TASK_RUNNING, TASK_INTERRUPTIBLE, ... */
	/* Running on a CPU now, or still switching away from it: not to be
	 * queued (it is not off its stack) nor freed (kernel/sched/core.c). */
	volatile int on_cpu;
	int cpu;	/* the CPU it runs or last ran on */
	unsigned long cpus_allowed;	/* sched_setaffinity: bit n, CPU n */
	/* Pages whose PTE this task cleared, kept until its next TLB flush
	 * (arch/x86/mm/tlb.c: tlb_put_page): another CPU may still reach
	 * them through its TLB until then. */
	struct page *tlb_pending[64];
	int nr_tlb_pending;
	/* zap_page_range of this task's own mm, which no other task uses:
	 * a page may go at once (arch/x86/mm/tlb.c: tlb_put_page). */
	bool tlb_free_now;
	/* PTEs this task cleared since its last TLB flush (whatever the
	 * CPU count): a path that clears them must flush before it is
	 * done (truncate_setsize checks the truncate-old lab's unmap). */
	int nr_tlb_unflushed;
	/* In handle_mm_fault: the PTE it found and what it held then. A
	 * fault may replace only the page it found there (zap_pte checks;
	 * fault_pte NULL outside a fault). */
	void *fault_pte;
	unsigned long fault_entry;
	/* Pages truncation removed from the cache while they were still
	 * mapped: truncate_setsize checks the unmap dropped their map
	 * counts (mm/truncate.c). NULL outside truncate_setsize. */
	struct truncate_watch *truncate_watch;
	/* Blocks the file system allocated for this task while
	 * block_write_begin prepared a page: none may be read from the
	 * disk (fs/buffer_write.c). NULL elsewhere. */
	struct new_blocks_watch *new_blocks;
	/* Bios held back to go to the disk together (block/bio.c:
	 * blk_start_plug); NULL when not plugging. */
	struct blk_plug *plug;
	int exit_state;
	pid_t pid;	/* the thread id (gettid) */
	pid_t tgid;	/* the process id (getpid): the leader's pid */
	pid_t pgid, sid;	/* process group and session */
	char comm[TASK_COMM_LEN];
	unsigned long thread_sp;	/* saved kernel rsp while switched out */
	void *stack;	/* kernel stack, THREAD_SIZE bytes */
	unsigned int flags;	/* PF_* */
	int lockdep_depth;	/* mutexes held (more than MAX_LOCK_DEPTH:
				 * only the first are listed) */
	struct held_lock held_locks[MAX_LOCK_DEPTH];

	struct mm_struct *mm;
	struct files_struct *files;
	struct fs_struct *fs;
	struct cred cred;
	struct rlimit rlim[RLIM_NLIMITS];

	/* A process's children hang off its group leader: parent is always
	 * a leader, and any thread of it may wait for them (wait4 sleeps on
	 * the leader's wait_chldexit). Threads other than the leader are on
	 * no children list (their sibling is empty). */
	struct task_struct *parent;
	struct list_head children;	/* my children, through their sibling */
	struct list_head sibling;
	struct task_struct *group_leader;	/* myself, for a process */
	struct list_head thread_node;	/* on sig->thread_head */
	struct list_head tasks;	/* all tasks */
	struct list_head run_list;	/* on the run queue when runnable */
	wait_queue_head_t wait_chldexit;	/* wait4 sleeps here */
	int exit_code;	/* wait status word, once a zombie */
	struct task_struct *vfork_parent;	/* set while a vfork child runs */

	struct signal_state signal;	/* this thread's mask and pending set */
	struct sighand_struct *sighand;	/* handlers, maybe shared */
	struct signal_struct *sig;	/* the process's (Linux: signal) */
	struct fpu_state fpu;
	unsigned long fs_base;	/* arch_prctl(ARCH_SET_FS): TLS */
	/* CLONE_CHILD_SETTID: the new thread writes its tid here first;
	 * CLONE_CHILD_CLEARTID, set_tid_address: 0 is written here, and a
	 * futex waiter woken, when it exits (pthread_join waits on it). */
	unsigned long set_child_tid, clear_child_tid;
	unsigned long robust_list;	/* set_robust_list: kept, not walked */
	u64 utime_ticks, stime_ticks;
	u64 start_time;	/* jiffies at fork (/proc/PID/stat's starttime) */
	unsigned long nvcsw;	/* times it gave up the CPU (slept, yielded) */
	unsigned long nivcsw;	/* times it was preempted */
	/* Page faults that did (maj) or did not (min) wait for the disk
	 * (handle_mm_fault). */
	unsigned long min_flt, maj_flt;
	/* Resident size in KiB, sampled at getrusage and exit (not at every
	 * fault). */
	unsigned long maxrss_kb;
	/* Reaped children's usage, with their own reaped children's (the
	 * largest maxrss): times(), RUSAGE_CHILDREN. */
	struct group_usage cusage;
	int nice;	/* setpriority: -20..19, inherited; the round-robin
			 * scheduler does not use it */
	int pdeath_signal;	/* prctl: sent to me when my parent exits */
	bool oom_victim;	/* killed by mm/oom_kill.c to free memory */
	bool undumpable;	/* prctl(PR_SET_DUMPABLE, 0); exec clears it */
	unsigned long last_nvcsw, hung_since;	/* kernel/hung_task.c */
	bool hung_reported;
	struct trace_graph trace;	/* kernel/trace.c: traced calls in progress */
	/* ITIMER_REAL (alarm, setitimer): SIGALRM at it_real_expires (jiffies,
	 * 0 = disarmed), then every it_real_incr ticks if that is non-zero. */
	u64 it_real_expires, it_real_incr;
	struct list_head itimer_list;
	/* kernel/sched/explore.c: in run explore_run (0: none), its task
	 * explore_id; inside explore_enter depth times; i_size_changes when
	 * it last locked a page in a fault; inside explore_quiet (printk,
	 * the explorer itself) off times. */
	unsigned long explore_run;
	int explore_id, explore_depth, explore_off;
	unsigned int explore_ticks;	/* ticks it ran in this run */
	unsigned long explore_lock_gen;
};

static inline bool thread_group_leader(const struct task_struct *t)
{
	return t->group_leader == t;
}

/* Only the leader is left, if that (siglock held, or a dead group). */
static inline bool thread_group_empty(const struct task_struct *t)
{
	return t->sig->nr_threads <= 1;
}

/* The user registers saved at the top of t's kernel stack. */
#define task_pt_regs(t) \
	((struct pt_regs *)((char *)(t)->stack + THREAD_SIZE) - 1)

#include <asm/current.h>	/* current */

extern struct task_struct init_task;	/* pid 0: boot, then idle */
extern struct list_head task_list;	/* every task but init_task */

/*
 * The task list, the pids and the family links (tasks, children, sibling,
 * parent) change only under tasklist_lock (fork, exit, wait,
 * kernel_thread), and a walk of them, or a find_task_by_pid whose task is
 * used at once, holds it too, so that the task it stands on is not freed
 * under it. Nothing under it may sleep. Interrupts are off while it is
 * held, since the tty's interrupt handler walks the list to send ^C (Linux
 * makes it an rwlock, readers in interrupts); the flags it saved wait in
 * this CPU's area, where nothing can move the holder.
 */
extern spinlock_t tasklist_lock;

static inline void lock_tasklist(void)
{
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	this_cpu()->tasklist_flags = flags;
}

static inline void unlock_tasklist(void)
{
	spin_unlock_irqrestore(&tasklist_lock, this_cpu()->tasklist_flags);
}

/* pid 0: a CPU's idle task (init_task on the boot CPU). */
static inline bool is_idle_task(const struct task_struct *t)
{
	return t->pid == 0;
}

/* Set current's state before testing the condition it sleeps on: the
 * barrier keeps the test from being done before the store is seen, so a
 * waker on another CPU that changes the condition and then looks at the
 * state finds us about to sleep and wakes us. */
#define set_current_state(s)                                          \
	do {                                                           \
		current->state = (s);                                  \
		__atomic_thread_fence(__ATOMIC_SEQ_CST);               \
	} while (0)

void sched_init(void);
void schedule(void);
/* Preempt the interrupted kernel code if a switch is due (traps.c). */
void preempt_schedule_irq(void);
/* Make a sleeping task runnable. */
void wake_up_process(struct task_struct *t);
/* Wait until t has left its CPU for good (before freeing it). */
void wait_task_inactive(struct task_struct *t);
/* Let t run only on the CPUs in mask (online ones, not empty); it moves
 * off its CPU now if that is not one of them. */
void set_cpus_allowed(struct task_struct *t, unsigned long mask);
/* Called from the timer tick: account time, maybe ask to reschedule. */
void scheduler_tick(void);
struct task_struct *find_task_by_pid(pid_t pid);
pid_t last_pid_allocated(void);	/* the newest pid (/proc/loadavg) */

/* The life cycle, across kernel/fork.c, exit.c, exec.c, signal.c and
 * sched/core.c (not for drivers). */
__noreturn void do_exit(long code);	/* code: a wait status word */
/* exit_group, a fatal signal: every thread of current's process ends. */
__noreturn void do_group_exit(int code);
/* exec: the other threads are killed and current becomes the leader;
 * 0, or -EAGAIN when the group is exiting already. */
int de_thread(void);
void release_task(struct task_struct *t);	/* a reaped or self-reaped task */
void put_sighand(struct sighand_struct *sh);	/* kernel/fork.c */
void put_signal_struct(struct signal_struct *s);
void exec_mm_release(struct task_struct *t);	/* exec: CLEARTID, vfork */
/* kernel/signal.c, siglock held: SIGKILL to every other thread of t's
 * group; process signals t may no longer take (which) to another. */
void zap_other_threads(struct task_struct *t);
void retarget_shared_pending(struct task_struct *t, sigset_t which);
/* kernel/futex.c: wake one waiter of the futex at uaddr (a thread's
 * CLONE_CHILD_CLEARTID word at exit). */
void futex_wake_one(u32 *uaddr);	/* a user address */
__noreturn void schedule_dead(void);	/* an exiting task's last switch */
__noreturn void cpu_idle(void);	/* pid 0, forever */
void release_task_stack(struct task_struct *t);	/* frees the task too */
struct task_struct *fork_idle(int cpu);	/* another CPU's pid 0 */
void mm_release_vfork(struct task_struct *t);	/* wake a vfork parent */
void fpu_init_task(struct task_struct *t);	/* a clean FPU state */
void fpu_load_current(const struct fpu_state *src);	/* into the CPU */
void fpu_save_current(void);	/* the CPU's registers into current->fpu */
void fpu_reset_current(void);	/* exec: a clean FPU in the CPU */
void itimer_cancel(struct task_struct *t);
void init_exited(long code);	/* pid 1 is exiting */
/* Reschedule and deliver signals on the way back to user mode. */
void exit_to_user_mode(struct pt_regs *regs);
/* A kernel thread running fn(arg); returns its pid or -errno. */
pid_t kernel_thread(void (*fn)(void *), void *arg, const char *name);

/* For a person looking at a hang (kernel/sched/show.c): R, S, D, T, Z or
 * X, as /proc/PID/stat shows the state; where a sleeping task waits (the
 * first function on its stack outside the __sched sleep primitives, 0
 * when it is not asleep); its kernel stack, symbolised; its line and
 * stack; every task's (sysrq t, the hung-task watchdog). */
char task_state_to_char(const struct task_struct *t);
unsigned long get_wchan(struct task_struct *t);
void show_task_stack(struct task_struct *t);
void sched_show_task(struct task_struct *t);
void show_state(void);

#endif
