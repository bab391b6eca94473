/* runcfg: a run's configuration — the guide's fields with their common
 * aliases — parsed from YAML or JSON text or set from `--set key=value`.
 * Pure: parses strings, never reads files. Unknown numbers are -1, unknown
 * flags -1, an unknown dtype is "". Keys that are not recognised are kept in
 * `extra` (in order) so configs round-trip. The caller frees the insides
 * with runcfg_release. */
#ifndef OOMLAB_RUNCFG_H
#define OOMLAB_RUNCFG_H

#include <stddef.h>

#include "lib/err.h"

struct runcfg_kv {
    char *key, *value; /* value as written (scalars only) */
};

struct runcfg {
    long device_batch_size; /* per_device_train_batch_size, batch_size, micro_batch_size... */
    long max_seq_len;       /* seq_len, block_size, max_length, max_seq_length... */
    char dtype[16];         /* "float32", "bfloat16", "float16" (from dtype, precision,
                               torch_dtype, bf16/fp16 flags); "" unknown */
    long grad_accum;        /* grad_accum_steps, gradient_accumulation_steps... */
    int grad_ckpt;          /* gradient_checkpointing; 1 yes, 0 no, -1 unknown */
    struct runcfg_kv *extra;
    size_t n_extra;
};

void runcfg_init(struct runcfg *cfg);
/* Parse YAML (JSON is YAML's subset, but JSON input is parsed as JSON so
 * NaN/Infinity and 64-bit ints behave). name is used in file:line:col errors.
 * Nested mappings are searched too (e.g. `training: {batch_size: 8}`). */
int runcfg_parse(struct runcfg *cfg, const char *text, size_t len, const char *name,
                 struct oomlab_err *err);
/* Apply "key=value" (aliases recognised; unknown keys go to extra). */
int runcfg_set(struct runcfg *cfg, const char *assignment, struct oomlab_err *err);
/* Effective batch = device_batch_size * grad_accum (grad_accum unknown -> 1);
 * -1 when the batch is unknown or the product overflows. */
long runcfg_effective_batch(const struct runcfg *cfg);
/* The config as YAML text (malloc'd, NUL-terminated; NULL on no memory):
 * known fields first in the guide's order, then extra. */
char *runcfg_to_yaml(const struct runcfg *cfg);
void runcfg_release(struct runcfg *cfg);

#endif
