/* onoom: the next attempt's one change after a GPU OOM (see onoom.h). */
#include "lib/onoom.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static const char *const names[] = {
    [ONOOM_OFF] = "off", [ONOOM_HALVE_BATCH] = "halve-batch", [ONOOM_HALVE_SEQ] = "halve-seq",
    [ONOOM_CKPT] = "ckpt"};

int onoom_parse(const char *s, enum onoom_policy *out, struct oomlab_err *err)
{
    for (int p = ONOOM_HALVE_BATCH; p <= ONOOM_CKPT; p++)
        if (!strcmp(s, names[p])) return *out = (enum onoom_policy)p, 0;
    return oomlab_err_set(err, "--on-oom '%s': expected halve-batch, halve-seq or ckpt", s);
}

const char *onoom_name(enum onoom_policy p)
{
    return p >= ONOOM_OFF && p <= ONOOM_CKPT ? names[p] : "?";
}

int onoom_check(enum onoom_policy p, const struct runcfg *cfg, struct oomlab_err *err)
{
    if (p == ONOOM_HALVE_BATCH && (!cfg || cfg->device_batch_size < 1))
        return oomlab_err_set(err, "--on-oom halve-batch: the batch size is not in the config "
                                   "(give --config FILE or --set device_batch_size=N)");
    if (p == ONOOM_HALVE_SEQ && (!cfg || cfg->max_seq_len < 1))
        return oomlab_err_set(err, "--on-oom halve-seq: the sequence length is not in the config "
                                   "(give --config FILE or --set max_seq_len=N)");
    return 0;
}

long onoom_half_batch(long b)
{
    /* b over its smallest factor: a walk down from b/2 took seconds for a
     * large prime (2147483647, diagnose --config's plan) */
    for (long p = 2; p <= b / p; p++)
        if (b % p == 0) return b / p;
    return 1;
}

static int halve_batch(const struct runcfg *cfg, long floor, const struct onoom_keys *k,
                       struct onoom_step *out)
{
    long b = cfg->device_batch_size, a = cfg->grad_accum > 0 ? cfg->grad_accum : 1;
    long d = b > 1 ? onoom_half_batch(b) : 0;
    if (d < floor || d < 1) {
        snprintf(out->what, sizeof out->what, "%s %ld cannot be halved above the floor %ld", k->batch, b, floor);
        return 1;
    }
    long factor = b / d;
    if (a > LONG_MAX / factor) {
        snprintf(out->what, sizeof out->what, "%s %ld x %ld overflows", k->accum, a, factor);
        return 1;
    }
    snprintf(out->sets[0], sizeof out->sets[0], "%s=%ld", k->batch, d);
    snprintf(out->sets[1], sizeof out->sets[1], "%s=%ld", k->accum, a * factor);
    out->n_sets = 2;
    snprintf(out->what, sizeof out->what, "%s %ld -> %ld, %s %s%ld -> %ld (effective batch %ld kept)",
             k->batch, b, d, k->accum, cfg->grad_accum > 0 ? "" : "(unset) ", a, a * factor, b * a);
    return 0;
}

static int halve_seq(const struct runcfg *cfg, long floor, const struct onoom_keys *k,
                     struct onoom_step *out)
{
    long s = cfg->max_seq_len, h = s / 2;
    if (h < floor || h < 1) {
        snprintf(out->what, sizeof out->what, "%s %ld cannot be halved above the floor %ld", k->seq, s, floor);
        return 1;
    }
    snprintf(out->sets[0], sizeof out->sets[0], "%s=%ld", k->seq, h);
    out->n_sets = 1;
    snprintf(out->what, sizeof out->what, "%s %ld -> %ld", k->seq, s, h);
    return 0;
}

int onoom_next(enum onoom_policy p, const struct runcfg *cfg, long floor,
               const struct onoom_keys *keys, struct onoom_step *out, struct oomlab_err *err)
{
    memset(out, 0, sizeof *out);
    if (floor < 1) floor = 1;
    if (onoom_check(p, cfg, err) < 0) return -1;
    switch (p) {
    case ONOOM_HALVE_BATCH: return halve_batch(cfg, floor, keys, out);
    case ONOOM_HALVE_SEQ: return halve_seq(cfg, floor, keys, out);
    case ONOOM_CKPT:
        if (cfg && cfg->grad_ckpt == 1) {
            snprintf(out->what, sizeof out->what, "%s is already on", keys->ckpt);
            return 1;
        }
        snprintf(out->sets[0], sizeof out->sets[0], "%s=true", keys->ckpt);
        out->n_sets = 1;
        snprintf(out->what, sizeof out->what, "%s %s -> true", keys->ckpt,
                 !cfg || cfg->grad_ckpt < 0 ? "(unset)" : "false");
        return 0;
    default: return oomlab_err_set(err, "no --on-oom policy");
    }
}
