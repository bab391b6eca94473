/* torchhook: the C side of `oomlab run --torch[=steps|snapshot]`. Before
 * the child starts: find the hook (share/oomlab/torch), write the step
 * file's header, and put the hook on the child's PYTHONPATH with the paths
 * it writes to (logs/ID_steps.csv, logs/ID_oom/, logs/ID_torch.err) — set
 * in oomlab's own environment, which the child inherits, and taken back
 * after it started. After the run: read the step file back. The struct
 * owns nothing on the heap. */
#ifndef OOMLAB_TORCHHOOK_H
#define OOMLAB_TORCHHOOK_H

#include <limits.h>
#include <stdbool.h>

#include "lib/err.h"
#include "lib/torchsteps.h"

enum torchhook_mode { TORCHHOOK_OFF, TORCHHOOK_STEPS, TORCHHOOK_SNAPSHOT };

struct torchhook {
    enum torchhook_mode mode;
    char steps_path[PATH_MAX], oom_dir[PATH_MAX], errors_path[PATH_MAX];
    char old_pythonpath[8192];
    bool had_pythonpath, env_set;
};

/* "steps"/"snapshot" (NULL or "" = steps) -> mode; -1 with err otherwise. */
int torchhook_mode_parse(const char *s, enum torchhook_mode *mode, struct oomlab_err *err);

/* Prepare for a run whose files live in log_dir with this id. -1 with err
 * (hook not found, cannot write the step file). */
int torchhook_setup(struct torchhook *th, enum torchhook_mode mode, const char *log_dir,
                    const char *id, struct oomlab_err *err);
/* Take our variables back out of oomlab's environment (idempotent). */
void torchhook_unset(struct torchhook *th);
/* Read logs/ID_steps.csv back. -1 with err when it is missing or not ours. */
int torchhook_read(const struct torchhook *th, struct torchsteps *ts, struct oomlab_err *err);
/* The same for a step file by path (report reads finished runs' files). */
int torchhook_read_file(const char *path, struct torchsteps *ts, struct oomlab_err *err);
/* How many files the hook left in logs/ID_oom (memory summaries, snapshots). */
int torchhook_oom_files(const struct torchhook *th);
/* The hook recorded errors of its own (logs/ID_torch.err is not empty). */
bool torchhook_had_errors(const struct torchhook *th);

#endif
