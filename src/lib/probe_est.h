/* probe_est: the estimator (lib/est) as probe's predicted-peak function.
 * The model's shape comes from the caller (finished with est_model_finish);
 * the workload from the run config — sequence length, batch, dtype,
 * gradient checkpointing, accumulation — with the probed parameter (batch
 * or seq) varying. Everything lives in the caller's struct probe_est. */
#ifndef OOMLAB_PROBE_EST_H
#define OOMLAB_PROBE_EST_H

#include <stdint.h>

#include "lib/err.h"
#include "lib/est.h"
#include "lib/runcfg.h"

enum probe_est_param { PROBE_EST_BATCH, PROBE_EST_SEQ };

struct probe_est {
    struct est_model model;
    struct est_workload wl;
    enum probe_est_param param;
    bool seq_assumed; /* probing batch, and the config states no sequence length */
};

/* param is "batch" or "seq" (-1 with err otherwise: the estimator cannot
 * vary anything else). cfg may be NULL. */
int probe_est_init(struct probe_est *pe, const struct est_model *finished,
                   const struct runcfg *cfg, const char *param, struct oomlab_err *err);
/* A probe_predict_fn (ctx is a struct probe_est): the device memory
 * nvidia-smi would show at value, -1 when the estimator refuses it. */
int64_t probe_est_predict(void *ctx, long value);

#endif
