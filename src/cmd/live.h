/* live: what `run --prom DIR` and `guard --steps N` do while a command runs,
 * as one runexec live callback (runexec_opts.live): reads the log as it
 * grows (lib/livelog: step lines, per-step peaks, GPU OOM messages), keeps a
 * node_exporter textfile in DIR up to date (temp + rename, sys/filerepl;
 * render/prom) and asks runexec to stop the command once N training steps
 * were seen. A struct live owns its buffers: live_release frees them. */
#ifndef OOMLAB_CMD_LIVE_H
#define OOMLAB_CMD_LIVE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "lib/err.h"
#include "lib/livelog.h"
#include "sys/runexec.h"

struct live {
    /* set by the caller before live_init */
    const char *prom_dir; /* NULL: no textfile */
    bool prom_dcgm;       /* also dcgm-exporter's DCGM_FI_DEV_FB_USED/FREE (MiB) */
    long stop_after;      /* > 0: stop the command once this many steps were seen */
    const char *who;      /* "run", "guard": for messages */
    /* state */
    struct livelog log;
    int fd;               /* the log, read from where the last tick stopped */
    off_t offset;
    char rank[16], job[128], host[256];
    char prom_path[4096];
    bool prom_failed;     /* said once; the run goes on */
    bool stop_asked;
};

/* Checks DIR (a directory we can write) and reads rank/job/host from the
 * launcher's environment. 0, or -1 with err (a usage error: nothing ran). */
int live_init(struct live *lv, struct oomlab_err *err);
/* The runexec callback; ctx is the struct live. */
bool live_tick(const struct runexec_live *rl, void *ctx);
void live_release(struct live *lv);

/* The textfile's name for a run id and rank ("" no rank):
 * oomlab_run_ID.prom or oomlab_run_ID_rankR.prom. */
void live_prom_name(const char *id, const char *rank, char *buf, size_t size);

#endif
