/* runcfg: run configs from YAML (libyaml events, for line:col) or JSON
 * (json-c, for NaN/Infinity and 64-bit ints). Every key is looked up in one
 * table of rules (key -> field, value kind); the first occurrence of a field
 * in document order wins; keys not in the table are kept in `extra`. */
#include "lib/runcfg.h"
#include "lib/textenc.h"
#include "lib/strbuf.h"

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

enum rc_field { F_BATCH, F_SEQ, F_DTYPE, F_ACCUM, F_CKPT, F_COUNT };

enum rc_kind {
    K_POS_INT, /* whole number >= 1 and < 2^31 */
    K_DTYPE,   /* a precision name: "bf16-mixed", "float32", 16... */
    K_FLAG,    /* a boolean that, when true, sets the dtype to rule.dtype */
    K_BOOL,    /* true/false/yes/no/on/off/1/0 */
};

struct rc_rule {
    const char *key;
    enum rc_field field;
    enum rc_kind kind;
    const char *dtype; /* K_FLAG: the dtype a true flag means */
};

/* The alias table (documented in docs/config.md). Not here on purpose:
 * max_position_embeddings (a model size, not the run's sequence length),
 * global/train_batch_size (the effective batch, not per device). */
static const struct rc_rule rc_rules[] = {
    {"device_batch_size", F_BATCH, K_POS_INT, NULL},
    {"per_device_train_batch_size", F_BATCH, K_POS_INT, NULL},
    {"train_batch_size_per_gpu", F_BATCH, K_POS_INT, NULL},
    {"micro_batch_size", F_BATCH, K_POS_INT, NULL},
    {"batch_size", F_BATCH, K_POS_INT, NULL},
    {"train_micro_batch_size_per_gpu", F_BATCH, K_POS_INT, NULL},
    {"bs", F_BATCH, K_POS_INT, NULL},
    {"max_seq_len", F_SEQ, K_POS_INT, NULL},
    {"seq_len", F_SEQ, K_POS_INT, NULL},
    {"seq_length", F_SEQ, K_POS_INT, NULL},
    {"max_seq_length", F_SEQ, K_POS_INT, NULL},
    {"block_size", F_SEQ, K_POS_INT, NULL},
    {"max_length", F_SEQ, K_POS_INT, NULL},
    {"context_length", F_SEQ, K_POS_INT, NULL},
    {"sequence_len", F_SEQ, K_POS_INT, NULL},
    {"max_position", F_SEQ, K_POS_INT, NULL},
    /* LLaMA-Factory's "cutoff length of the tokenized inputs" (its YAML
     * configs' cutoff_len: 2048; hiyouga/LLaMA-Factory:
     * src/llamafactory/hparams/data_args.py@072bfe29) */
    {"cutoff_len", F_SEQ, K_POS_INT, NULL},
    {"dtype", F_DTYPE, K_DTYPE, NULL},
    {"torch_dtype", F_DTYPE, K_DTYPE, NULL},
    {"precision", F_DTYPE, K_DTYPE, NULL},
    {"mixed_precision", F_DTYPE, K_DTYPE, NULL},
    {"bf16", F_DTYPE, K_FLAG, "bfloat16"},
    {"fp16", F_DTYPE, K_FLAG, "float16"},
    {"grad_accum_steps", F_ACCUM, K_POS_INT, NULL},
    {"gradient_accumulation_steps", F_ACCUM, K_POS_INT, NULL},
    {"accumulate_grad_batches", F_ACCUM, K_POS_INT, NULL},
    {"grad_accum", F_ACCUM, K_POS_INT, NULL},
    {"gradient_checkpointing", F_CKPT, K_BOOL, NULL},
    {"grad_ckpt", F_CKPT, K_BOOL, NULL},
    {"activation_checkpointing", F_CKPT, K_BOOL, NULL},
    {"use_gradient_checkpointing", F_CKPT, K_BOOL, NULL},
};

/* Precision spellings (case-insensitive) -> the canonical dtype. */
static const struct {
    const char *spelling, *dtype;
} rc_dtypes[] = {
    {"float32", "float32"},   {"fp32", "float32"},       {"f32", "float32"},
    {"32", "float32"},        {"32-true", "float32"},    {"float", "float32"},
    {"torch.float32", "float32"}, {"no", "float32"},     {"full", "float32"},
    {"bfloat16", "bfloat16"}, {"bf16", "bfloat16"},      {"bf16-mixed", "bfloat16"},
    {"bf16-true", "bfloat16"}, {"torch.bfloat16", "bfloat16"},
    {"float16", "float16"},   {"fp16", "float16"},       {"f16", "float16"},
    {"16", "float16"},        {"16-mixed", "float16"},   {"16-true", "float16"},
    {"half", "float16"},      {"torch.float16", "float16"}, {"amp", "float16"},
    {"float64", "float64"},   {"fp64", "float64"},       {"64", "float64"},
    {"64-true", "float64"},   {"double", "float64"},     {"torch.float64", "float64"},
};

static const struct {
    const char *spelling;
    int value;
} rc_bools[] = {
    {"true", 1}, {"false", 0}, {"yes", 1}, {"no", 0}, {"on", 1}, {"off", 0}, {"1", 1}, {"0", 0},
};

#define RC_MAX_INT 2147483647L

/* The guide's names, in the guide's order (runcfg_to_yaml). */
static const char *const rc_field_names[F_COUNT] = {
    [F_BATCH] = "device_batch_size", [F_SEQ] = "max_seq_len", [F_ACCUM] = "grad_accum_steps",
    [F_DTYPE] = "dtype",             [F_CKPT] = "gradient_checkpointing",
};
static const enum rc_field rc_guide_order[F_COUNT] = {F_BATCH, F_SEQ, F_ACCUM, F_DTYPE, F_CKPT};

static const struct rc_rule *find_rule(const char *key)
{
    for (size_t r = 0; r < sizeof rc_rules / sizeof rc_rules[0]; r++)
        if (strcmp(rc_rules[r].key, key) == 0) return &rc_rules[r];
    return NULL;
}

int runcfg_key_field(const char *key)
{
    const struct rc_rule *r = find_rule(key);
    static const int column[F_COUNT] = {[F_BATCH] = 0, [F_SEQ] = 1, [F_DTYPE] = 2, [F_ACCUM] = 3, [F_CKPT] = 4};
    return r && r->kind != K_FLAG ? column[r->field] : -1; /* bf16: true is not a dtype value */
}

const char *runcfg_alias_key(size_t i)
{
    return i < sizeof rc_rules / sizeof rc_rules[0] ? rc_rules[i].key : NULL;
}

void runcfg_init(struct runcfg *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->device_batch_size = cfg->max_seq_len = cfg->grad_accum = -1;
    cfg->grad_ckpt = -1;
}

bool runcfg_is_model_config(const struct runcfg *cfg)
{
    bool type = false, dims = false;
    for (size_t i = 0; i < cfg->n_extra; i++) {
        type |= !strcmp(cfg->extra[i].key, "model_type");
        dims |= !strcmp(cfg->extra[i].key, "hidden_size") || !strcmp(cfg->extra[i].key, "num_hidden_layers");
    }
    return type && dims && cfg->device_batch_size < 0 && cfg->max_seq_len < 0;
}

bool runcfg_knows_nothing(const struct runcfg *cfg)
{
    return cfg->device_batch_size < 1 && cfg->max_seq_len < 1 && cfg->grad_accum < 1 && !cfg->dtype[0] &&
           cfg->grad_ckpt < 0;
}

void runcfg_release(struct runcfg *cfg)
{
    for (size_t i = 0; i < cfg->n_extra; i++) {
        free(cfg->extra[i].key);
        free(cfg->extra[i].value);
    }
    free(cfg->extra);
    runcfg_init(cfg);
}

/* ---- values ------------------------------------------------------------- */

/* A plain (unquoted) YAML scalar read as PyYAML reads an int (YAML 1.1; its
 * resolver and constructor, checked with PyYAML 6.0: "010" is 8, "+8" is 8,
 * "1_000" is 1000, "0x1F" 31, "0b101" 5, "1:30" 90; "08" and "0o17" are
 * strings). 0 with *out set (LLONG_MAX past it), -1 when PyYAML would not
 * read an int: what the training script's yaml.safe_load will see. */
int runcfg_yaml11_int(const char *v, long long *out)
{
    static const struct { const char *prefix; int base; const char *digits; } forms[] = {
        {"0b", 2, "01"}, {"0x", 16, "0123456789abcdefABCDEF"}, {"0", 8, "01234567"}};
    char buf[96];
    size_t n = 0;
    bool neg = *v == '-';
    if (*v == '-' || *v == '+') v++;
    if (!isdigit((unsigned char)*v)) return -1; /* no "_8", no "" */
    for (const char *c = v; *c; c++)
        if (*c != '_') {
            if (n + 1 >= sizeof buf) /* absurd when it is a number at all */
                return strspn(v, "0123456789_") == strlen(v) ? (*out = LLONG_MAX, 0) : -1;
            buf[n++] = *c;
        }
    buf[n] = '\0';
    if (strcmp(buf, "0") == 0) return *out = 0, 0;
    int base = 10;
    const char *d = buf;
    for (size_t i = 0; i < sizeof forms / sizeof *forms && base == 10; i++)
        if (strncmp(buf, forms[i].prefix, strlen(forms[i].prefix)) == 0) {
            d = buf + strlen(forms[i].prefix);
            if (!*d || strspn(d, forms[i].digits) != strlen(d)) return -1;
            base = forms[i].base;
        }
    unsigned long long x = 0;
    if (base == 10 && strchr(d, ':')) { /* base 60: "1:30:10"; each part after the first < 60 */
        for (const char *part = d; part; part = strchr(part, ':') ? strchr(part, ':') + 1 : NULL) {
            size_t len = strcspn(part, ":");
            if (len == 0 || strspn(part, "0123456789") != len || (part != d && (len > 2 || (len == 2 && *part > '5'))))
                return -1;
            unsigned long long digit = strtoull(part, NULL, 10);
            if (x > (ULLONG_MAX - digit) / 60) return *out = LLONG_MAX, 0;
            x = x * 60 + digit;
        }
    } else {
        if (base == 10 && strspn(d, "0123456789") != strlen(d)) return -1;
        errno = 0;
        x = strtoull(d, NULL, base);
        if (errno == ERANGE) x = ULLONG_MAX;
    }
    long long val = x > (unsigned long long)LLONG_MAX ? LLONG_MAX : (long long)x;
    *out = neg ? -val : val;
    return 0;
}

/* A whole number of at least 1. yaml_plain: an unquoted YAML scalar, read
 * as PyYAML does (runcfg_yaml11_int); else decimal digits only ("8", a quoted "8",
 * --set, JSON): not "8x", "-1", "+8", "8.0". */
static int parse_pos_int(const char *v, bool yaml_plain, long *out, char *why, size_t whylen)
{
    long long x = 0;
    if (*v == '\0') return snprintf(why, whylen, "expects a whole number, got an empty value"), -1;
    bool ok = yaml_plain ? runcfg_yaml11_int(v, &x) == 0 : strspn(v, "0123456789") == strlen(v);
    if (!ok && yaml_plain && v[0] == '0' && strspn(v, "0123456789") == strlen(v))
        return snprintf(why, whylen, "expects a whole number, got '%s' (YAML reads a leading 0 "
                        "as octal and this is no octal number: PyYAML gives the string '%s')", v, v), -1;
    if (!ok && v[0] == '-')
        return snprintf(why, whylen, "must be at least 1, got '%s'", v), -1;
    if (!ok) return snprintf(why, whylen, "expects a whole number, got '%s'", v), -1;
    if (!yaml_plain) {
        errno = 0;
        unsigned long long u = strtoull(v, NULL, 10);
        x = errno == ERANGE || u > (unsigned long long)LLONG_MAX ? LLONG_MAX : (long long)u;
    }
    if (x > RC_MAX_INT) return snprintf(why, whylen, "value %s is absurd (2^31 or more)", v), -1;
    if (x < 0) return snprintf(why, whylen, "must be at least 1, got '%s'", v), -1;
    if (x < 1) return snprintf(why, whylen, "must be at least 1, got %s", v), -1;
    *out = (long)x;
    return 0;
}

static int parse_bool(const char *v, int *out)
{
    for (size_t i = 0; i < sizeof rc_bools / sizeof rc_bools[0]; i++)
        if (strcasecmp(v, rc_bools[i].spelling) == 0) {
            *out = rc_bools[i].value;
            return 0;
        }
    return -1;
}

static const char *canonical_dtype(const char *v)
{
    for (size_t i = 0; i < sizeof rc_dtypes / sizeof rc_dtypes[0]; i++)
        if (strcasecmp(v, rc_dtypes[i].spelling) == 0) return rc_dtypes[i].dtype;
    return NULL;
}

const char *runcfg_dtype_name(const char *spelling)
{
    return spelling ? canonical_dtype(spelling) : NULL;
}

bool runcfg_set_unknown_precision(const char *assignment)
{
    const char *eq = assignment ? strchr(assignment, '=') : NULL;
    if (!eq) return false;
    char key[128];
    size_t kl = (size_t)(eq - assignment);
    while (kl && isspace((unsigned char)assignment[kl - 1])) kl--;
    if (kl == 0 || kl >= sizeof key) return false;
    memcpy(key, assignment, kl);
    key[kl] = '\0';
    const char *dot = strrchr(key, '.'), *leaf = dot ? dot + 1 : key, *v = eq + 1;
    while (isspace((unsigned char)*v)) v++;
    if (runcfg_key_field(leaf) != 2 || !*v || !strcmp(v, "null") || !strcmp(v, "~")) return false;
    return canonical_dtype(v) == NULL;
}

void runcfg_set_warning(const struct runcfg_rendered *r, size_t i, const char *assignment, bool has_config,
                        bool used, char *buf, size_t size)
{
    const char *eq = strchr(assignment, '='), *value = eq ? eq + 1 : "";
    int kl = eq ? (int)(eq - assignment) : (int)strlen(assignment);
    while (kl && assignment[kl - 1] == ' ') kl--;
    while (*value == ' ') value++;
    const char *sugg = i < RUNCFG_MAX_SETS ? r->suggestion[i] : "";
    buf[0] = '\0';
    if (i < RUNCFG_MAX_SETS && r->unknown[i] && !(used && !*sugg && !has_config))
        snprintf(buf, size, "%.*s: %s%s%s%s", kl, assignment,
                 has_config ? "not a key of the config" : "not a key oomlab reads",
                 *sugg ? "; did you mean '" : " (added as written)", sugg, *sugg ? "'?" : "");
    else if (runcfg_set_unknown_precision(assignment))
        snprintf(buf, size, "%.*s=%s: not a precision oomlab knows (fp32, bf16, fp16, fp64 and their spellings, "
                            "docs/config.md): the ledger's dtype stays empty", kl, assignment, value);
}

void runcfg_record_only_note(size_t n_sets, size_t record_only, bool keys, char *buf, size_t size)
{
    buf[0] = '\0';
    if (record_only)
        snprintf(buf, size, "the command has no {config}%s: --set changes only the record (configs/ID.yaml, "
                            "runs.csv), not what runs",
                 !keys ? "" : record_only < n_sets ? " and not every {KEY}" : " or {KEY}");
}

static int extra_put(struct runcfg *cfg, const char *key, const char *value, bool replace)
{
    if (replace)
        for (size_t i = 0; i < cfg->n_extra; i++)
            if (strcmp(cfg->extra[i].key, key) == 0) {
                char *v = strdup(value);
                if (!v) return -1;
                free(cfg->extra[i].value);
                cfg->extra[i].value = v;
                return 0;
            }
    if (cfg->n_extra == cfg->cap_extra) { /* doubling: a config of many keys stays linear */
        struct runcfg_kv *grown =
            strbuf_grow(cfg->extra, &cfg->cap_extra, cfg->n_extra + 1, sizeof *grown, SIZE_MAX);
        if (!grown) return -1;
        cfg->extra = grown;
    }
    struct runcfg_kv *p = cfg->extra;
    char *k = strdup(key), *v = strdup(value);
    if (!k || !v) {
        free(k);
        free(v);
        return -1;
    }
    p[cfg->n_extra].key = k;
    p[cfg->n_extra].value = v;
    cfg->n_extra++;
    return 0;
}

/* Outcome of applying one value: set, not applicable (a false flag, null,
 * an unrecognised dtype such as "auto"), or an error in why. */
enum rc_apply { RC_SET, RC_SKIP, RC_BAD };

static enum rc_apply apply_rule(struct runcfg *cfg, const struct rc_rule *rule, const char *v,
                                bool is_null, bool yaml_plain, char *why, size_t whylen)
{
    if (is_null) return RC_SKIP;
    long n;
    int b;
    const char *dt;
    switch (rule->kind) {
    case K_POS_INT:
        if (parse_pos_int(v, yaml_plain, &n, why, whylen) != 0) return RC_BAD;
        if (rule->field == F_BATCH) cfg->device_batch_size = n;
        else if (rule->field == F_SEQ) cfg->max_seq_len = n;
        else cfg->grad_accum = n;
        return RC_SET;
    case K_BOOL:
        if (parse_bool(v, &b) != 0)
            return snprintf(why, whylen, "expects true or false, got '%s'", v), RC_BAD;
        cfg->grad_ckpt = b;
        return RC_SET;
    case K_FLAG:
        if (parse_bool(v, &b) != 0)
            return snprintf(why, whylen, "expects true or false, got '%s'", v), RC_BAD;
        if (!b) return RC_SKIP;
        snprintf(cfg->dtype, sizeof cfg->dtype, "%s", rule->dtype);
        return RC_SET;
    case K_DTYPE:
        dt = canonical_dtype(v);
        if (!dt) return RC_SKIP; /* "auto", "fp8"...: kept in extra */
        snprintf(cfg->dtype, sizeof cfg->dtype, "%s", dt);
        return RC_SET;
    }
    return RC_SKIP;
}

/* "prefix.key" (or "key" at the top), malloc'd; NULL on no memory. */
static char *join_path(const char *prefix, const char *key)
{
    size_t pl = strlen(prefix), kl = strlen(key);
    char *p = malloc(pl + kl + 2);
    if (!p) return NULL;
    if (pl) {
        memcpy(p, prefix, pl);
        p[pl++] = '.';
    }
    memcpy(p + pl, key, kl + 1);
    return p;
}

/* One key/value met while walking a document. */
struct rc_walk {
    struct runcfg *cfg;
    const char *name;
    unsigned seen; /* fields already taken in this document (first wins) */
    struct oomlab_err *err;
};

static int walk_scalar(struct rc_walk *w, const char *path, const char *key, const char *value,
                       bool is_null, bool yaml_plain, long line, long col)
{
    const struct rc_rule *rule = find_rule(key);
    if (rule && !(w->seen & (1u << rule->field))) {
        char why[256];
        enum rc_apply a = apply_rule(w->cfg, rule, value, is_null, yaml_plain, why, sizeof why);
        if (a == RC_BAD) {
            if (line > 0) return oomlab_err_at(w->err, w->name, line, col, "%s %s", key, why);
            return oomlab_err_set(w->err, "%s: %s %s", w->name, key, why);
        }
        if (a == RC_SET) {
            w->seen |= 1u << rule->field;
            return 0;
        }
        if (rule->kind == K_FLAG || is_null) return 0;
    }
    /* unknown keys, and later aliases of a field already set, are kept */
    if (extra_put(w->cfg, path, is_null ? "null" : value, false) != 0)
        return oomlab_err_set(w->err, "%s: out of memory", w->name);
    return 0;
}

/* ---- YAML --------------------------------------------------------------- */

struct yaml_frame {
    bool mapping;    /* else a sequence (its contents are not searched) */
    bool want_key;   /* mapping: the next node is a key */
    bool skipped;    /* this level is not searched (counted in skip) */
    char *key;       /* mapping: the current key (NULL: a non-scalar key) */
    char *prefix;    /* dotted path of this mapping ("" at the top) */
};

struct yaml_state {
    struct yaml_frame stack[RUNCFG_MAX_DEPTH];
    int depth;
    int skip; /* > 0 inside a sequence or a collection used as a key */
    bool collection_bad;              /* a list or mapping where a field wants one value */
    struct oomlab_err collection_err; /* ...its error, returned when the YAML parsed */
};

static struct yaml_frame *yaml_top(struct yaml_state *st)
{
    return st->depth ? &st->stack[st->depth - 1] : NULL;
}

/* A node has been read in the top mapping: as its key, or as its value. */
static void yaml_node_done(struct yaml_state *st)
{
    struct yaml_frame *f = yaml_top(st);
    if (!f || !f->mapping || f->skipped) return;
    if (f->want_key) { /* a non-scalar (or alias) key: its value is ignored */
        f->want_key = false;
        return;
    }
    f->want_key = true;
    free(f->key);
    f->key = NULL;
}

static int yaml_on_scalar(struct rc_walk *w, struct yaml_state *st, yaml_event_t *ev)
{
    struct yaml_frame *f = yaml_top(st);
    if (!f || st->skip || !f->mapping) return 0;
    const char *text = (const char *)ev->data.scalar.value;
    if (f->want_key) {
        f->key = strdup(text);
        if (!f->key) return oomlab_err_set(w->err, "%s: out of memory", w->name);
        f->want_key = false;
        return 0;
    }
    int rc = 0;
    if (f->key) {
        bool is_null = ev->data.scalar.plain_implicit &&
                       (text[0] == '\0' || strcmp(text, "~") == 0 || strcasecmp(text, "null") == 0);
        char *path = join_path(f->prefix, f->key);
        if (!path) return oomlab_err_set(w->err, "%s: out of memory", w->name);
        rc = walk_scalar(w, path, f->key, text, is_null, ev->data.scalar.plain_implicit,
                         (long)ev->start_mark.line + 1,
                         (long)ev->start_mark.column + 1);
        free(path);
    }
    yaml_node_done(st);
    return rc;
}

static int yaml_on_start(struct rc_walk *w, struct yaml_state *st, yaml_event_t *ev, bool mapping)
{
    long line = (long)ev->start_mark.line + 1, col = (long)ev->start_mark.column + 1;
    if (st->depth >= RUNCFG_MAX_DEPTH)
        return oomlab_err_at(w->err, w->name, line, col, "nesting deeper than %d levels",
                             RUNCFG_MAX_DEPTH);
    struct yaml_frame *parent = yaml_top(st);
    if (!parent && !mapping)
        return oomlab_err_at(w->err, w->name, line, col,
                             "a run config must be a mapping of keys to values");
    bool skipped = st->skip > 0 || !mapping ||
                   (parent && (!parent->mapping || parent->want_key || !parent->key));
    const struct rc_rule *rule = st->skip || !parent || !parent->mapping || parent->want_key ||
                                         !parent->key ? NULL : find_rule(parent->key);
    /* device_batch_size: [8, 16] has no one value: refused, not recorded
     * empty — once the rest has parsed, so a syntax error further on is
     * what is reported */
    if (rule && !(w->seen & (1u << rule->field)) && !st->collection_bad)
        st->collection_bad = oomlab_err_at(&st->collection_err, w->name, line, col,
                                           "%s expects a single value, got a %s", parent->key,
                                           mapping ? "mapping" : "list") < 0;
    struct yaml_frame *f = &st->stack[st->depth++];
    memset(f, 0, sizeof *f);
    f->mapping = mapping;
    f->want_key = true;
    f->skipped = skipped;
    if (skipped) {
        st->skip++;
        return 0;
    }
    f->prefix = parent ? join_path(parent->prefix, parent->key) : strdup("");
    if (!f->prefix) return oomlab_err_set(w->err, "%s: out of memory", w->name);
    return 0;
}

static void yaml_pop(struct yaml_state *st)
{
    struct yaml_frame *f = yaml_top(st);
    if (!f) return;
    if (f->skipped) st->skip--;
    free(f->key);
    free(f->prefix);
    st->depth--;
}

static void yaml_on_end(struct yaml_state *st)
{
    yaml_pop(st);
    if (!st->skip) yaml_node_done(st);
}

static int yaml_error(struct rc_walk *w, const yaml_parser_t *p)
{
    const char *problem = p->problem ? p->problem : "invalid YAML";
    long line = (long)p->problem_mark.line + 1, col = (long)p->problem_mark.column + 1;
    if (p->context)
        return oomlab_err_at(w->err, w->name, line, col, "%s %s", problem, p->context);
    return oomlab_err_at(w->err, w->name, line, col, "%s", problem);
}

/* A config is one document: after it only the stream's end. A second one
 * ("---" and more keys) would leave the run's values in doubt, so it is
 * refused where it starts, as PyYAML's safe_load refuses it ("expected a
 * single document in the stream"). */
static int yaml_one_document(struct rc_walk *w, yaml_parser_t *p)
{
    yaml_event_t ev;
    if (!yaml_parser_parse(p, &ev)) return yaml_error(w, p);
    int rc = 0;
    if (ev.type == YAML_DOCUMENT_START_EVENT)
        rc = oomlab_err_at(w->err, w->name, (long)ev.start_mark.line + 1,
                           (long)ev.start_mark.column + 1,
                           "a second YAML document starts here: a run config is one "
                           "document; keep the one the run uses (PyYAML's safe_load "
                           "refuses this too)");
    yaml_event_delete(&ev);
    return rc;
}

static int parse_yaml(struct rc_walk *w, const char *text, size_t len)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) return oomlab_err_set(w->err, "%s: out of memory", w->name);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    struct yaml_state st;
    memset(&st, 0, sizeof st);
    int rc = 0;
    bool done = false;
    while (!done && rc == 0) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            rc = yaml_error(w, &parser);
            break;
        }
        switch (ev.type) {
        case YAML_SCALAR_EVENT: rc = yaml_on_scalar(w, &st, &ev); break;
        case YAML_ALIAS_EVENT:
            if (!st.skip) yaml_node_done(&st);
            break;
        case YAML_MAPPING_START_EVENT: rc = yaml_on_start(w, &st, &ev, true); break;
        case YAML_SEQUENCE_START_EVENT: rc = yaml_on_start(w, &st, &ev, false); break;
        case YAML_MAPPING_END_EVENT:
        case YAML_SEQUENCE_END_EVENT: yaml_on_end(&st); break;
        case YAML_DOCUMENT_END_EVENT: rc = yaml_one_document(w, &parser); /* fall through */
        case YAML_STREAM_END_EVENT: done = true; break;
        default: break;
        }
        if (ev.type == YAML_SCALAR_EVENT && st.depth == 0 && rc == 0 && !st.skip) {
            const char *v = (const char *)ev.data.scalar.value;
            if (v[0] != '\0' || !ev.data.scalar.plain_implicit)
                rc = oomlab_err_at(w->err, w->name, (long)ev.start_mark.line + 1,
                                   (long)ev.start_mark.column + 1,
                                   "a run config must be a mapping of keys to values");
        }
        yaml_event_delete(&ev);
    }
    while (st.depth > 0) yaml_pop(&st);
    yaml_parser_delete(&parser);
    if (rc == 0 && st.collection_bad) {
        *w->err = st.collection_err;
        rc = -1;
    }
    return rc;
}

/* ---- JSON --------------------------------------------------------------- */

/* Advance line:col over text[from, to). */
static void count_line_col(const char *text, size_t from, size_t to, long *line, long *col)
{
    for (size_t i = from; i < to; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else if (((unsigned char)text[i] & 0xc0) != 0x80) {
            (*col)++; /* columns count characters, as libyaml's do */
        }
    }
}

static void offset_to_line_col(const char *text, size_t off, long *line, long *col)
{
    *line = 1;
    *col = 1;
    count_line_col(text, 0, off, line, col);
}

/* Positions for errors (json-c keeps none): only a key of the alias table
 * can have a bad value, so only those are looked for, each from where the
 * last one was found (document order), and line:col is counted on from
 * the last position. Linear in the text, whatever its number of keys. */
#define RC_NRULES (sizeof rc_rules / sizeof rc_rules[0])
struct json_walk {
    struct rc_walk *w;
    const char *text;
    size_t len, cursor;      /* where the next key is searched */
    size_t counted;          /* text[counted] is at line:col */
    long line, col;
    bool missing[RC_NRULES]; /* not in the text past the cursor (an escaped key) */
};

/* The quoted key at text[i], followed by ':': the offset of its value. */
static size_t json_key_at(const struct json_walk *jw, size_t i, const char *key, size_t kl)
{
    if (jw->text[i] != '"' || memcmp(jw->text + i + 1, key, kl) != 0 || jw->text[i + 1 + kl] != '"')
        return 0;
    size_t j = i + kl + 2;
    while (j < jw->len && isspace((unsigned char)jw->text[j])) j++;
    if (j >= jw->len || jw->text[j] != ':') return 0;
    for (j++; j < jw->len && isspace((unsigned char)jw->text[j]);) j++;
    return j;
}

/* Where the value of an alias-table key starts: the key's next occurrence
 * from the cursor. 0 when not found. */
static size_t json_value_offset(struct json_walk *jw, const struct rc_rule *rule)
{
    size_t r = (size_t)(rule - rc_rules), kl = strlen(rule->key);
    if (jw->missing[r]) return 0;
    for (size_t i = jw->cursor; i + kl + 2 <= jw->len; i++) {
        const char *q = memchr(jw->text + i, '"', jw->len - i);
        if (!q || (size_t)(q - jw->text) + kl + 2 > jw->len) break;
        i = (size_t)(q - jw->text);
        size_t at = json_key_at(jw, i, rule->key, kl);
        if (at) return jw->cursor = at;
    }
    jw->missing[r] = true;
    return 0;
}

/* line:col of text[off], counted on from the last position asked for. */
static void json_line_col(struct json_walk *jw, size_t off, long *line, long *col)
{
    if (off < jw->counted || !jw->line) {
        jw->counted = 0;
        jw->line = jw->col = 1;
    }
    count_line_col(jw->text, jw->counted, off, &jw->line, &jw->col);
    jw->counted = off;
    *line = jw->line;
    *col = jw->col;
}

static int json_walk_object(struct json_walk *jw, struct json_object *obj, const char *prefix,
                            int depth);

static int json_walk_value(struct json_walk *jw, const char *path, const char *key,
                           struct json_object *v, int depth)
{
    enum json_type t = json_object_get_type(v);
    if (t == json_type_object) return json_walk_object(jw, v, path, depth + 1);
    if (t == json_type_array) return 0; /* sequences are not searched */
    const struct rc_rule *rule = find_rule(key);
    size_t off = rule ? json_value_offset(jw, rule) : 0;
    long line = 0, col = 0;
    if (off) json_line_col(jw, off, &line, &col);
    const char *text;
    if (t == json_type_null) text = "null";
    else if (t == json_type_string) text = json_object_get_string(v);
    else text = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
    if (!text) text = "";
    if (t == json_type_double && rule && rule->kind == K_POS_INT) {
        char why[64];
        snprintf(why, sizeof why, "expects a whole number, got '%s'", text);
        if (line > 0) return oomlab_err_at(jw->w->err, jw->w->name, line, col, "%s %s", key, why);
        return oomlab_err_set(jw->w->err, "%s: %s %s", jw->w->name, key, why);
    }
    return walk_scalar(jw->w, path, key, text, t == json_type_null, false, line, col);
}

static int json_walk_object(struct json_walk *jw, struct json_object *obj, const char *prefix,
                            int depth)
{
    if (depth > RUNCFG_MAX_DEPTH)
        return oomlab_err_set(jw->w->err, "%s: nesting deeper than %d levels", jw->w->name,
                              RUNCFG_MAX_DEPTH);
    json_object_object_foreach(obj, key, val)
    {
        char *path = join_path(prefix, key);
        if (!path) return oomlab_err_set(jw->w->err, "%s: out of memory", jw->w->name);
        int rc = json_walk_value(jw, path, key, val, depth);
        free(path);
        if (rc != 0) return -1;
    }
    return 0;
}

static int parse_json(struct rc_walk *w, const char *text, size_t len)
{
    if (len > INT_MAX) return oomlab_err_set(w->err, "%s: config too large", w->name);
    struct json_tokener *tok = json_tokener_new_ex(RUNCFG_MAX_DEPTH);
    if (!tok) return oomlab_err_set(w->err, "%s: out of memory", w->name);
    struct json_object *root = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error jerr = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    long line, col;
    int rc = 0;
    if (!root || jerr != json_tokener_success) {
        const char *msg = jerr == json_tokener_continue ? "unexpected end of JSON input"
                                                        : json_tokener_error_desc(jerr);
        if (jerr == json_tokener_continue || end > len) end = len; /* else: the offending char */
        offset_to_line_col(text, end, &line, &col);
        rc = oomlab_err_at(w->err, w->name, line, col, "invalid JSON: %s", msg);
    } else {
        while (end < len && isspace((unsigned char)text[end])) end++;
        if (end < len) {
            offset_to_line_col(text, end, &line, &col);
            rc = oomlab_err_at(w->err, w->name, line, col,
                               "invalid JSON: unexpected text after the top-level object");
        } else if (!json_object_is_type(root, json_type_object)) {
            rc = oomlab_err_at(w->err, w->name, 1, 1,
                               "a run config must be a mapping of keys to values");
        } else {
            struct json_walk jw = {.w = w, .text = text, .len = len};
            rc = json_walk_object(&jw, root, "", 1);
        }
    }
    json_object_put(root);
    json_tokener_free(tok);
    return rc;
}

/* ---- entry points ------------------------------------------------------- */

/* 0: YAML; 1: JSON; 2: '{' then a bare key, a YAML flow mapping ("{a: 1}")
 * unless JSON reads it (json-c is lenient about some of those). */
static int looks_like_json(const char *text, size_t len)
{
    size_t i = 0;
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) i = 3;
    while (i < len && isspace((unsigned char)text[i])) i++;
    if (i >= len || text[i] != '{') return 0;
    i++;
    while (i < len && isspace((unsigned char)text[i])) i++;
    return i < len && text[i] != '"' && text[i] != '}' ? 2 : 1;
}

/* Fields parsed into tmp override cfg; tmp's extras are appended. */
static int merge_into(struct runcfg *cfg, struct runcfg *tmp, unsigned seen)
{
    if (seen & (1u << F_BATCH)) cfg->device_batch_size = tmp->device_batch_size;
    if (seen & (1u << F_SEQ)) cfg->max_seq_len = tmp->max_seq_len;
    if (seen & (1u << F_ACCUM)) cfg->grad_accum = tmp->grad_accum;
    if (seen & (1u << F_CKPT)) cfg->grad_ckpt = tmp->grad_ckpt;
    if (seen & (1u << F_DTYPE)) memcpy(cfg->dtype, tmp->dtype, sizeof cfg->dtype);
    for (size_t i = 0; i < tmp->n_extra; i++)
        if (extra_put(cfg, tmp->extra[i].key, tmp->extra[i].value, false) != 0) return -1;
    return 0;
}

int runcfg_parse(struct runcfg *cfg, const char *text, size_t len, const char *name,
                 struct oomlab_err *err)
{
    if (!name) name = "config";
    if (!text) len = 0;
    char wide[512];
    if (textenc_wide_message(text, len, name, "a run config", wide, sizeof wide))
        return oomlab_err_set(err, "%s: %s", name, wide);
    const char *nul = text ? memchr(text, '\0', len) : NULL;
    if (nul) {
        long line, col;
        offset_to_line_col(text, (size_t)(nul - text), &line, &col);
        return oomlab_err_at(err, name, line, col, "binary data (a NUL byte) in a config");
    }
    struct runcfg tmp;
    runcfg_init(&tmp);
    struct rc_walk w = {.cfg = &tmp, .name = name, .err = err};
    int rc;
    int kind = looks_like_json(text ? text : "", len);
    if (kind) { /* past a UTF-8 BOM, as looks_like_json looked */
        size_t bom = len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
        rc = parse_json(&w, text + bom, len - bom);
        if (rc != 0 && kind == 2) { /* a YAML flow mapping ("{a: 1}") is not JSON but fine */
            runcfg_release(&tmp);
            w.seen = 0;
            rc = parse_yaml(&w, text, len); /* its error, not JSON's: it was never JSON */
        }
    } else {
        rc = parse_yaml(&w, text ? text : "", len);
    }
    if (rc == 0 && merge_into(cfg, &tmp, w.seen) != 0)
        rc = oomlab_err_set(err, "%s: out of memory", name);
    runcfg_release(&tmp);
    return rc;
}

/* One --set value: a rule's field (a false flag clears its dtype), else extra. */
static int set_value(struct runcfg *cfg, const char *key, const char *value, const char *label,
                     struct oomlab_err *err)
{
    const struct rc_rule *rule = find_rule(key);
    if (rule) {
        char why[256];
        struct runcfg tmp = *cfg;
        enum rc_apply a = apply_rule(&tmp, rule, value, false, false, why, sizeof why);
        if (a == RC_BAD && label) return oomlab_err_set(err, "%s %s", label, why);
        if (a == RC_BAD) return oomlab_err_set(err, "--set %s: %s %s", key, key, why);
        if (a == RC_SET) {
            *cfg = tmp;
            return 0;
        }
        if (rule->kind == K_FLAG) { /* bf16=false: no longer bfloat16 */
            if (strcmp(cfg->dtype, rule->dtype) == 0) cfg->dtype[0] = '\0';
            return 0;
        }
    }
    if (extra_put(cfg, key, value, true) != 0) return oomlab_err_set(err, "out of memory");
    return 0;
}

int runcfg_set(struct runcfg *cfg, const char *assignment, struct oomlab_err *err)
{
    return runcfg_set_labeled(cfg, assignment, NULL, err);
}

int runcfg_set_labeled(struct runcfg *cfg, const char *assignment, const char *label, struct oomlab_err *err)
{
    const char *eq = assignment ? strchr(assignment, '=') : NULL;
    if (!eq || eq == assignment)
        return oomlab_err_set(err, "--set expects key=value, got '%s'",
                              assignment ? assignment : "");
    char key[128];
    size_t kl = (size_t)(eq - assignment);
    while (kl > 0 && isspace((unsigned char)assignment[kl - 1])) kl--;
    size_t ks = 0;
    while (ks < kl && isspace((unsigned char)assignment[ks])) ks++;
    if (kl - ks == 0 || kl - ks >= sizeof key)
        return oomlab_err_set(err, "--set expects key=value, got '%s'", assignment);
    memcpy(key, assignment + ks, kl - ks);
    key[kl - ks] = '\0';
    const char *v = eq + 1;
    while (isspace((unsigned char)*v)) v++;
    size_t vl = strlen(v);
    while (vl > 0 && isspace((unsigned char)v[vl - 1])) vl--;
    char *value = strndup(v, vl);
    if (!value) return oomlab_err_set(err, "out of memory");
    int rc = set_value(cfg, key, value, label, err);
    free(value);
    return rc;
}

long runcfg_effective_batch(const struct runcfg *cfg)
{
    if (cfg->device_batch_size < 1) return -1;
    long accum = cfg->grad_accum >= 1 ? cfg->grad_accum : 1, out;
    if (__builtin_mul_overflow(cfg->device_batch_size, accum, &out)) return -1;
    return out;
}

/* ---- writing ------------------------------------------------------------ */

/* Plain YAML is safe unless the scalar could be read differently: empty,
 * padded, an indicator first, ": " or " #" inside, a control character, or
 * a word YAML reads as null. */
static bool needs_quotes(const char *s)
{
    if (!s[0] || isspace((unsigned char)s[0]) || isspace((unsigned char)s[strlen(s) - 1]))
        return true;
    if (strchr("-?:,[]{}#&*!|>'\"%@`", s[0])) {
        /* "-1", "-0.5" are numbers and fine plain */
        if (!(s[0] == '-' && isdigit((unsigned char)s[1]))) return true;
    }
    for (size_t i = 0; s[i]; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) return true;
        if ((c == ':' && (s[i + 1] == ' ' || s[i + 1] == '\0')) || (c == '#' && i > 0 && s[i - 1] == ' '))
            return true;
    }
    return false;
}

/* Above ASCII, what can be written raw inside quotes: YAML's printable set
 * minus its line breaks (NEL, LS, PS), which a reader would fold. */
static bool yaml_printable(uint32_t c)
{
    if (c == 0x2028 || c == 0x2029) return false;
    return (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c != 0xfeff) ||
           (c >= 0x10000 && c <= 0x10ffff);
}

/* Double-quoted: escapes for quotes, backslashes, control and non-printable
 * characters; bytes that are not UTF-8 (JSON lets them through) become
 * U+FFFD so the output is always YAML that parses. */
static void buf_scalar(struct strbuf *b, const char *s)
{
    bool ascii = true;
    for (size_t i = 0; s[i]; i++) ascii = ascii && (unsigned char)s[i] < 0x80;
    if (ascii && !needs_quotes(s)) {
        strbuf_adds(b, s);
        return;
    }
    strbuf_add(b, "\"", 1);
    for (size_t i = 0, len = strlen(s); s[i];) {
        const unsigned char *u = (const unsigned char *)s + i;
        char esc[16];
        if (u[0] == '"' || u[0] == '\\') {
            esc[0] = '\\';
            esc[1] = (char)u[0];
            strbuf_add(b, esc, 2);
            i++;
        } else if (u[0] < 0x20 || u[0] == 0x7f) {
            snprintf(esc, sizeof esc, "\\x%02x", u[0]);
            strbuf_adds(b, esc);
            i++;
        } else if (u[0] < 0x80) {
            strbuf_add(b, (const char *)u, 1);
            i++;
        } else {
            uint32_t cp = 0;
            size_t n = strbuf_utf8_seq(u, len - i, &cp);
            if (n && yaml_printable(cp)) {
                strbuf_add(b, (const char *)u, n);
            } else {
                snprintf(esc, sizeof esc, "\\U%08x", n ? (unsigned)cp : 0xfffdu);
                strbuf_adds(b, esc);
            }
            i += n ? n : 1;
        }
    }
    strbuf_add(b, "\"", 1);
}

/* libyaml refuses implicit keys over 1024 characters: long keys (escapes
 * can grow a byte tenfold) are written in the explicit "? key" form. */
static void buf_kv(struct strbuf *b, const char *key, const char *value)
{
    bool explicit_key = strlen(key) > 100;
    if (explicit_key) strbuf_adds(b, "? ");
    buf_scalar(b, key);
    strbuf_adds(b, explicit_key ? "\n: " : ": ");
    buf_scalar(b, value);
    strbuf_adds(b, "\n");
}

char *runcfg_to_yaml(const struct runcfg *cfg)
{
    struct strbuf b = {0};
    strbuf_adds(&b, ""); /* an empty config is "" */
    for (size_t i = 0; i < F_COUNT; i++) {
        enum rc_field f = rc_guide_order[i];
        char num[32];
        const char *v = NULL;
        long n = f == F_BATCH ? cfg->device_batch_size : f == F_SEQ ? cfg->max_seq_len
                                                       : f == F_ACCUM ? cfg->grad_accum : -1;
        if (f == F_DTYPE) v = cfg->dtype[0] ? cfg->dtype : NULL;
        else if (f == F_CKPT) v = cfg->grad_ckpt < 0 ? NULL : cfg->grad_ckpt ? "true" : "false";
        else if (n >= 1) {
            snprintf(num, sizeof num, "%ld", n);
            v = num;
        }
        if (v) buf_kv(&b, rc_field_names[f], v);
    }
    for (size_t i = 0; i < cfg->n_extra; i++) buf_kv(&b, cfg->extra[i].key, cfg->extra[i].value);
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}
