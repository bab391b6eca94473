/* runexec: one supervised run of a command under a run id — the machinery
 * behind `oomlab run` and each `oomlab probe` trial. Writes
 * DIR/configs/ID.yaml, DIR/logs/ID.log, DIR/logs/ID_mem.csv and appends one
 * row to DIR/runs.csv; then scans the log (diagnose engine) and the step
 * lines (peaks, loss trend). Nothing is allocated in the result. */
#ifndef OOMLAB_RUNEXEC_H
#define OOMLAB_RUNEXEC_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/err.h"
#include "lib/launcher.h"
#include "lib/oom.h"
#include "lib/ledger.h"
#include "lib/runcfg.h"
#include "sys/torchhook.h"
#include "lib/steps.h"
#include "sys/memlog.h"

/* The notes tag of a run whose NVML figures were device-wide only. */
#define RUNEXEC_NOTE_DEVICE_ONLY LEDGER_NOTE_DEVICE_ONLY

struct runexec_result;

/* What a live view of the run sees (issue 16: run --prom, guard --steps). */
struct runexec_live {
    const char *id, *dir, *log_path;
    const struct memlog_peak *gpus; /* the latest sample per GPU (n_gpus 0: not sampled) */
    size_t n_gpus;
    const struct runexec_result *res; /* NULL while the command runs; the final result */
};

struct runexec_opts {
    const char *dir;          /* default "." */
    const char *id;           /* NULL: next free runNNN */
    bool force;               /* overwrite an existing id */
    char *const *argv;        /* the command, argv[0] looked up in PATH */
    const struct runcfg *cfg; /* may be NULL */
    const char *config_path;  /* the --config file's name (informational) */
    int gpu;                  /* -1: all GPUs */
    int64_t interval_ms;      /* NVML sampling interval, >= 10 */
    int64_t timeout_ms;       /* 0: none; on expiry the group gets SIGTERM, then SIGKILL */
    bool quiet;               /* do not echo the child's output to our stdout */
    bool echo_stderr;         /* echo it to our stderr instead (guard --json) */
    const char *tag;          /* ledger notes tag, e.g. "probe" (may be NULL) */
    const char *who;          /* the command its notices name, "oomlab WHO: ..."; NULL: "run" */
    /* added by the run engineer (zero-initialised = the behaviour above): */
    char *const *sets;        /* the "key=value" already applied to cfg and config_text */
    size_t n_sets;
    const char *note;         /* free text for the ledger's notes column (may be NULL) */
    int64_t grace_ms;         /* SIGTERM -> SIGKILL grace; 0: 20000 */
    bool silent;              /* no notices on stderr (e.g. "memory not sampled") */
    bool pty;                 /* the child's stdin/stdout/stderr are a new pseudo-terminal */
    enum torchhook_mode torch; /* --torch: the PyTorch hook on the child's PYTHONPATH
                                  (sys/torchhook); TORCHHOOK_OFF (0) by default */
    /* added for issue 10 (the records engineer): */
    const char *config_text;  /* configs/ID.yaml written verbatim (cfg is its parse); NULL:
                                 cfg as YAML, or no file without cfg */
    size_t config_len;
    bool subst_config;        /* replace {config} in argv with DIR/configs/ID.yaml */
    const char *const *subst_keys, *const *subst_vals; /* and {KEY} with its value */
    size_t n_subst;
    /* added for issue 16 (guard): called after every sampling tick (with or
     * without NVML) and once after the ledger row (lv->res set). Returning
     * true stops the command as --timeout does (SIGTERM, SIGKILL after the
     * grace); the row's notes say so. NULL: none. */
    bool (*live)(const struct runexec_live *lv, void *ctx);
    void *live_ctx;
    /* issue 16 (ranks): this oomlab is one rank of a job (srun oomlab run):
     * its files are named ID_rankN (lib/ledger's stem), the ledger rows go
     * to this host's shard, and the id is shared with the job's other
     * ranks (refused when another job holds it). NULL: not a rank. */
    const struct launcher_info *rank;
    /* a run that is not a rank, started inside a scheduler's job (oomlab
     * run in an sbatch script): the job ("slurm:123") for its row's
     * job_id, so the row leads to sacct and slurm-123.out. NULL: none. */
    const char *job_id;
};

struct runexec_result {
    char id[64];
    int exit_code;        /* as `run` exits: child's code, 128+N, 126, 127 */
    int term_signal;      /* 0 when it exited */
    bool timed_out;
    bool interrupted;     /* we got SIGINT/SIGTERM and passed it on */
    bool oom;             /* the log engine found a GPU OOM */
    bool failure_other;   /* a non-GPU-OOM failure was diagnosed (host OOM...) */
    char oom_kind[32];
    enum oom_stage oom_stage;
    int64_t capacity;          /* bytes, from NVML or the OOM message; -1 */
    int64_t peak_alloc;        /* from step lines; -1 */
    int64_t peak_reserved;     /* from step lines; -1 */
    int64_t peak_nvml;         /* device memory of the child's tree; -1 (never device-wide) */
    int64_t device_peak;       /* NVML's device-wide used peak: every process on the GPU; -1 */
    int64_t device_start;      /* device-wide used at the first sample (others, the driver); -1 */
    bool nvml_device_only;     /* NVML sampled the GPU but never the tree's figure (its pids
                                  hidden in a container, or no permission for the list): the
                                  run's own NVML peak is unknown, device_* stand beside it */
    char peak_source[16];      /* "log", "nvml", "oom" (the OOM message's counters,
                                  copied into peak_alloc/peak_reserved), "" */
    char loss_trend[16];       /* steps_trend_name */
    bool sampled;              /* NVML samples were taken */
    int64_t duration_ms;
    /* added by the run engineer: */
    bool exec_failed;          /* 126/127: nothing was recorded, the id stays free */
    int forwarded_signal;      /* SIGINT/SIGTERM/SIGHUP passed to the child's group; 0 none */
    bool recorded;             /* the ledger row was appended */
    char problem[700];         /* what went wrong writing the records ("" none): the log
                                  or memory CSV is incomplete, or the row was not written */
    char log_path[4096];
    bool id_taken;             /* -1 because the id exists and force was not given */
    int64_t oom_alloc, oom_reserved; /* PyTorch's counters in the OOM message; -1 */
    /* added for issue 10 (the records engineer): */
    int64_t oom_in_use;        /* "this process has X memory in use"; -1 */
    bool peak_lower_bound;     /* peak_source "oom": the true peak was at least this */
    struct steps_mem_trend mem; /* the per-step memory trend with its evidence */
    bool peaks_from_torch;     /* peak_alloc/peak_reserved and mem came from the torch hook */
    size_t torch_steps;        /* optimizer steps the hook recorded (--torch) */
    int torch_ranks;           /* ranks that reported */
    long torch_worst_rank;     /* the rank with the highest peak reserved; -1 */
    int torch_oom_files;       /* memory summaries / snapshots in logs/ID_oom */
    bool torch_errors;         /* the hook wrote logs/ID_torch.err */
    char first_fix[384];       /* after a GPU OOM: the plan's first action ("" none) */
    bool placeholder;          /* the `running` row was appended at the start */
    bool dir_failed;           /* -1 because DIR (or configs/, logs/) cannot be made */
    /* added for issue 16 (guard): */
    bool stopped;              /* opts->live asked for the command to end */
    /* issue 16: a run wrapping a launcher (torchrun): the ranks its log's
     * [rankN]: lines or the torch hook showed, and the worst of them */
    int ranks_seen;            /* 0 none seen */
    long worst_rank;           /* -1 unknown */
    const char *worst_rank_from; /* "torch hook", "step lines", "OOM message" */
    long first_oom_rank;       /* the rank of the first GPU OOM in the log; -1 */
    char stem[128];            /* the files' name: ID or ID_rankN */
    int attempts;              /* a wrapped torchelastic's attempts (restarts + 1); 0 unknown */
    char attempts_note[320];   /* which attempt ran out first, when it restarted ("" none) */
    bool oom_earlier;          /* an attempt before the last had a GPU OOM (the row is the last's) */
    int rank_rows;             /* rows written per rank and attempt (wrapped launcher) */
    int rank_logs;             /* logs/ID_rankN.log files written from its [rankN]: lines */
    int64_t host_oom_kills;    /* processes of oomlab's cgroup the kernel's OOM killer killed
                                  during the run (sys/hostoom); -1 unknown */
    bool host_oom_kmsg;        /* that count unknown, the kernel's log says its OOM killer
                                  killed the command's process during the run */
};

/* 0 when the run happened (whatever the child did: read result.exit_code);
 * -1 with err when it could not be set up (bad id, id exists, cannot write). */
int runexec(const struct runexec_opts *opts, struct runexec_result *res, struct oomlab_err *err);

/* A run id is checked with lib/ledger's ledger_id_check_new. */

#endif
