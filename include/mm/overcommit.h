/*
 * Overcommit accounting (mm/overcommit.c), Linux's rules: every private
 * writable mapping, shared anonymous mapping and heap page is "committed"
 * when it is mapped, before any page exists, and /proc/sys/vm/
 * overcommit_memory decides how much may be:
 *   0  heuristic (default): refuse one request larger than all of RAM
 *   1  always: refuse nothing
 *   2  never: refuse what would take the total past CommitLimit
 *      (overcommit_ratio % of RAM; pagelab has no swap)
 * MAP_NORESERVE mappings are not committed, except under 2.
 */
#ifndef _MM_OVERCOMMIT_H
#define _MM_OVERCOMMIT_H

#include <kernel/types.h>

#define OVERCOMMIT_GUESS 0
#define OVERCOMMIT_ALWAYS 1
#define OVERCOMMIT_NEVER 2

extern int sysctl_overcommit_memory;

/* Commit pages more: 0, or -ENOMEM (and nothing committed). */
int vm_enough_memory(long pages);
/* Give back what vm_enough_memory took. */
void vm_unacct_memory(long pages);
/* Pages committed, and the limit mode 2 holds them to. */
long vm_committed_pages(void);
unsigned long vm_commit_limit(void);

#endif
