/* proc: what Linux /proc says about a process — parent, state, owner,
 * command line, age, resident memory — and its place in a process tree.
 * Used by memlog (the child's tree) and ps (who holds the GPU). Results are
 * copied into caller-owned structs; proc_descendants' list is freed by the
 * caller with free(). */
#ifndef OOMLAB_PROC_H
#define OOMLAB_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/err.h"

struct proc_info {
    pid_t pid, ppid;
    char state; /* R S D Z T ...; '?' unknown */
    uid_t uid;
    bool uid_known;
    char user[64]; /* login name, or the uid in decimal */
    char comm[64];
    char cmdline[1024];             /* arguments joined by spaces; "[comm]" when empty */
    unsigned long long start_ticks; /* since boot: with pid, identifies the process */
    double elapsed_s;               /* -1 unknown */
    int64_t rss_bytes;              /* -1 unknown */
    long long cpu_ticks;            /* user+system CPU time, clock ticks; -1 unknown */
};

/* Fill pi for pid. -1 when /proc has no such pid (gone, or in another PID
 * namespace: a container) — err says which. */
int proc_read(pid_t pid, struct proc_info *pi, struct oomlab_err *err);

/* Just the parent and start time (cheaper: one small read). 0 or -1. */
int proc_parent(pid_t pid, pid_t *ppid, unsigned long long *start_ticks);

/* CPU seconds the process identified by (pid, start_ticks) has used so far
 * (user + system, all threads). -1 when it is gone, its pid was reused, or
 * the figure is unknown. */
double proc_cpu_s(pid_t pid, unsigned long long start_ticks);

/* Is pid root or one of its descendants (walking parents, bounded)? */
bool proc_in_tree(pid_t pid, pid_t root);

/* Every pid whose ancestry reaches root (root excluded), by one scan of
 * /proc. *out malloc'd (NULL when *n == 0). 0 or -1. */
int proc_descendants(pid_t root, pid_t **out, size_t *n, struct oomlab_err *err);

/* Which rank of a distributed job the process was started as, and in which
 * torchelastic attempt: lib/launcher's table over its /proc/PID/environ
 * (RANK, SLURM_PROCID, OMPI_COMM_WORLD_RANK ...; TORCHELASTIC_RESTART_COUNT),
 * the environment a launcher gave each worker. *rank -1 when it is no rank
 * (or the environment cannot be read: another user's process); *restart 0
 * when unknown. */
void proc_rank(pid_t pid, long *rank, long *restart);

/* Seconds since boot from /proc/uptime; -1 unknown. */
double proc_uptime(void);

#endif
