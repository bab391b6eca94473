/* probe_est: the estimator's device-memory figure as a function of the
 * probed value (see probe_est.h). */
#include "lib/probe_est.h"

#include <string.h>

/* A run config's dtype is the training precision: bf16/fp16 configs train
 * with autocast over fp32 master weights (HF's bf16: true, Lightning's
 * bf16-mixed), so they map to the mixed modes. */
static const struct {
    const char *dtype;
    enum est_precision precision;
} precisions[] = {
    {"bfloat16", EST_BF16_MIXED},
    {"float16", EST_FP16_MIXED},
    {"float32", EST_FP32},
};

int probe_est_init(struct probe_est *pe, const struct est_model *finished,
                   const struct runcfg *cfg, const char *param, struct oomlab_err *err)
{
    memset(pe, 0, sizeof *pe);
    if (!strcmp(param, "batch")) pe->param = PROBE_EST_BATCH;
    else if (!strcmp(param, "seq")) pe->param = PROBE_EST_SEQ;
    else return oomlab_err_set(err, "--model estimates batch or seq, not '%s'", param);
    pe->model = *finished;
    est_workload_init(&pe->wl);
    pe->seq_assumed = pe->param == PROBE_EST_BATCH;
    pe->wl.attention = est_family_attention(pe->model.family); /* as estimate without --attention */
    if (!cfg) return 0;
    if (cfg->max_seq_len > 0) {
        pe->wl.seq = cfg->max_seq_len;
        pe->seq_assumed = false;
    }
    if (cfg->device_batch_size > 0) pe->wl.batch = cfg->device_batch_size;
    if (cfg->grad_accum > 0) pe->wl.grad_accum = cfg->grad_accum;
    if (cfg->grad_ckpt == 1) pe->wl.ckpt = EST_CKPT_FULL;
    for (size_t i = 0; i < sizeof precisions / sizeof *precisions; i++)
        if (!strcmp(cfg->dtype, precisions[i].dtype)) pe->wl.precision = precisions[i].precision;
    return 0;
}

int64_t probe_est_predict(void *ctx, long value)
{
    const struct probe_est *pe = ctx;
    struct est_workload wl = pe->wl;
    if (pe->param == PROBE_EST_BATCH) wl.batch = value;
    else wl.seq = value;
    struct est_result r;
    if (est_compute(&pe->model, &wl, &r, NULL) < 0) return -1;
    return r.device_used_bytes;
}
