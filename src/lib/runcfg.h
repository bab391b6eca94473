/* runcfg: a run's configuration — the guide's fields with their common
 * aliases — parsed from YAML or JSON text or set from `--set key=value`.
 * Pure: parses strings, never reads files. Unknown numbers are -1, unknown
 * flags -1, an unknown dtype is "". Keys that are not recognised are kept in
 * `extra` (in order) so configs round-trip. The caller frees the insides
 * with runcfg_release. */
#ifndef OOMLAB_RUNCFG_H
#define OOMLAB_RUNCFG_H

#include <stdbool.h>
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
    size_t n_extra, cap_extra; /* cap_extra: room in extra (grown by doubling) */
};

void runcfg_init(struct runcfg *cfg);
/* A plain (unquoted) YAML scalar read as PyYAML reads an int (YAML 1.1:
 * "010" 8, "0x1F" 31, "1:30" 90): 0 with *out set (LLONG_MAX past it), -1
 * when PyYAML reads no int. */
int runcfg_yaml11_int(const char *v, long long *out);
/* Mappings and lists nest at most this deep (the top mapping is level 1);
 * runcfg_parse refuses deeper text, and runcfg_render walks every level a
 * parsed config can have. */
#define RUNCFG_MAX_DEPTH 64
/* Parse YAML (JSON is YAML's subset, but JSON input is parsed as JSON so
 * NaN/Infinity and 64-bit ints behave). name is used in file:line:col errors.
 * Nested mappings are searched too (e.g. `training: {batch_size: 8}`). */
int runcfg_parse(struct runcfg *cfg, const char *text, size_t len, const char *name,
                 struct oomlab_err *err);
/* Apply "key=value" (aliases recognised; unknown keys go to extra). */
int runcfg_set(struct runcfg *cfg, const char *assignment, struct oomlab_err *err);
/* The same, a bad value's error saying label ("--max 3000000000: batch")
 * where runcfg_set says "--set KEY: KEY": for a value the user did not
 * give as --set (probe's probed value). NULL label: runcfg_set. */
int runcfg_set_labeled(struct runcfg *cfg, const char *assignment, const char *label, struct oomlab_err *err);
/* Effective batch = device_batch_size * grad_accum (grad_accum unknown -> 1);
 * -1 when the batch is unknown or the product overflows. */
long runcfg_effective_batch(const struct runcfg *cfg);
/* The config as YAML text (malloc'd, NUL-terminated; NULL on no memory):
 * known fields first in the guide's order, then extra. */
char *runcfg_to_yaml(const struct runcfg *cfg);
void runcfg_release(struct runcfg *cfg);
/* A Hugging Face model's config.json (model_type with hidden_size or
 * num_hidden_layers at the top) and no batch or sequence length: not a
 * run's config, and its torch_dtype is how the weights are stored. */
bool runcfg_is_model_config(const struct runcfg *cfg);
/* None of the fields the plan and the ledger use is known (an empty file,
 * or only keys oomlab does not read): batch, sequence length, accumulation,
 * precision, checkpointing. */
bool runcfg_knows_nothing(const struct runcfg *cfg);

/* The alias table, for --set checks: the ledger column a key's value is
 * (0 batch, 1 seq, 2 dtype, 3 accum, 4 ckpt) or -1 (unknown keys, and the
 * bf16/fp16 flags, whose value is not a dtype); and its i-th key (NULL
 * past the end). */
int runcfg_key_field(const char *key);
/* The dtype a precision name means ("bf16-mixed" -> "bfloat16", any case);
 * NULL for a name the alias table does not know ("fp8", "auto", a typo). */
const char *runcfg_dtype_name(const char *spelling);
/* "--set KEY=VALUE" whose KEY (the last part of a dotted path) is a dtype
 * key and whose VALUE names no precision the table knows ("dtype=bf61"):
 * the ledger's dtype would stay empty. null, ~ and "" are not unknown. */
bool runcfg_set_unknown_precision(const char *assignment);
const char *runcfg_alias_key(size_t i);

/* ---- the config as the user wrote it, with --set applied ---------------
 * runcfg_render keeps the --config's own keys, nesting and order (YAML
 * stays YAML, JSON stays JSON; comments are not kept) and applies each
 * "path=value": a dotted path (training.per_device_train_batch_size=4)
 * sets that key; a bare ledger column or alias sets the config's key for
 * that column that runcfg_parse reads, the first in document order (--set
 * device_batch_size=4 sets per_device_train_batch_size); any other bare key
 * sets the key of that name where the config has it once; else the key is
 * added at the top (nested for a dotted path). Without a --config the --set keys
 * form the document. YAML output starts with `# header` (cleaned to one
 * printable line). The caller frees with runcfg_rendered_release. */
#define RUNCFG_MAX_SETS 64
struct runcfg_rendered {
    char *text; /* NUL-terminated */
    size_t len;
    bool json;
    /* per --set: where it landed ("training.per_device_train_batch_size")
     * and, for a key neither in the config nor in the alias table, a
     * did-you-mean ("" none) */
    char target[RUNCFG_MAX_SETS][128];
    bool unknown[RUNCFG_MAX_SETS];
    char suggestion[RUNCFG_MAX_SETS][128];
};
int runcfg_render(const char *orig, size_t orig_len, const char *name, const char *header,
                  char *const *sets, size_t n_sets, struct runcfg_rendered *out,
                  struct oomlab_err *err);
void runcfg_rendered_release(struct runcfg_rendered *r);
/* What `--set` i of a render deserves a warning for, shared by run and
 * probe: a key neither in the config nor one oomlab reads ("not a key of
 * the config; did you mean 'x'?"), unless it is the command's own (used:
 * the command names {KEY} or {config}; no --config; nothing near it); or a
 * precision the table does not know (runcfg_set_unknown_precision). The
 * text follows "warning: --set "; "" when nothing is to be said. */
void runcfg_set_warning(const struct runcfg_rendered *r, size_t i, const char *assignment, bool has_config,
                        bool used, char *buf, size_t size);
/* The note when record_only of n_sets --set values reach no placeholder
 * of the command: "the command has no {config} ...: --set changes only the
 * record (configs/ID.yaml, runs.csv), not what runs". keys: the command's
 * {KEY} placeholders are substituted too (run; probe has only {config}).
 * "" when every --set reaches the command. */
void runcfg_record_only_note(size_t n_sets, size_t record_only, bool keys, char *buf, size_t size);

#endif
