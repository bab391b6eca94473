/* steps: one pass over a log line's words; each keyword found in the rule
 * table (step, iter, epoch, loss, memory...) reads the value after it. Then
 * series bookkeeping (merging re-logged steps, restarts) and the trends,
 * which compare the first and last thirds against the series' own noise. */
#include "lib/steps.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/strbuf.h"
#include "lib/units.h"

/* ---- line scanning ------------------------------------------------------ */

struct scan {
    const char *s; /* the segment being read (after the last \r) */
    size_t n;
    struct steps_point *pt;
    size_t prev_word, prev_len; /* the word before the current one */
    bool saw_gpu, saw_cpu, summary;
};

/* ASCII classes without the locale (and without a call per byte). */
static inline bool is_digit(unsigned char c)
{
    return (unsigned)(c - '0') < 10u;
}

static inline bool is_alpha(unsigned char c)
{
    return (unsigned)((c | 0x20) - 'a') < 26u;
}

static inline bool is_word_char(unsigned char c)
{
    return is_alpha(c) || c == '_';
}

static size_t skip_blanks(const struct scan *sc, size_t i)
{
    while (i < sc->n && (sc->s[i] == ' ' || sc->s[i] == '\t')) i++;
    return i;
}

/* After a key: quotes, blanks, then one ':' or '=' (optional), blanks. */
static size_t skip_separator(const struct scan *sc, size_t i)
{
    while (i < sc->n && (sc->s[i] == '\'' || sc->s[i] == '"')) i++;
    i = skip_blanks(sc, i);
    if (i < sc->n && (sc->s[i] == ':' || sc->s[i] == '=')) i = skip_blanks(sc, i + 1);
    while (i < sc->n && (sc->s[i] == '\'' || sc->s[i] == '"')) i++;
    return i;
}

/* Non-negative decimal integer; returns bytes consumed, 0 when none. */
static size_t read_long(const struct scan *sc, size_t i, long *out)
{
    size_t j = i;
    long v = 0;
    while (j < sc->n && is_digit((unsigned char)sc->s[j])) {
        if (j - i >= 18) return 0; /* absurd: not a step counter */
        v = v * 10 + (sc->s[j] - '0');
        j++;
    }
    if (j == i) return 0;
    *out = v;
    return j - i;
}

static bool word_at(const char *s, size_t n, size_t i, const char *w)
{
    size_t wl = strlen(w);
    if (i + wl > n || strncasecmp(s + i, w, wl) != 0) return false;
    return i + wl == n || !isalnum((unsigned char)s[i + wl]);
}

/* A decimal number printed by Python/C ("0.19040994346141815", "7.2E+00",
 * "-1e-3") or nan/inf spelled any way; parsed with strtod so it is exact.
 * Returns bytes consumed (0 when none); *nonfinite when nan/inf. */
static size_t read_double(const struct scan *sc, size_t i, double *out, bool *nonfinite)
{
    const char *s = sc->s;
    size_t j = i;
    bool neg = false;
    if (j < sc->n && (s[j] == '-' || s[j] == '+')) neg = s[j++] == '-';
    static const struct { const char *word; bool nan; } specials[] = {
        {"nan", true}, {"infinity", false}, {"inf", false},
    };
    bool maybe_special = j < sc->n && ((s[j] | 0x20) == 'n' || (s[j] | 0x20) == 'i');
    for (size_t k = 0; maybe_special && k < sizeof specials / sizeof specials[0]; k++) {
        if (!word_at(s, sc->n, j, specials[k].word)) continue;
        *out = specials[k].nan ? NAN : (neg ? -INFINITY : INFINITY);
        if (nonfinite) *nonfinite = true;
        return j + strlen(specials[k].word) - i;
    }
    char buf[64];
    size_t start = j, digits = 0;
    while (j < sc->n && isdigit((unsigned char)s[j])) j++, digits++;
    if (j < sc->n && s[j] == '.') {
        j++;
        while (j < sc->n && isdigit((unsigned char)s[j])) j++, digits++;
    }
    if (digits == 0) return 0;
    if (j + 1 < sc->n && (s[j] == 'e' || s[j] == 'E')) {
        size_t e = j + 1;
        if (e < sc->n && (s[e] == '+' || s[e] == '-')) e++;
        if (e < sc->n && isdigit((unsigned char)s[e])) {
            j = e;
            while (j < sc->n && isdigit((unsigned char)s[j])) j++;
        }
    }
    size_t len = j - start;
    if (len + 2 > sizeof buf) return 0;
    buf[0] = neg ? '-' : '+';
    memcpy(buf + 1, s + start, len);
    buf[len + 1] = '\0';
    errno = 0;
    char *end;
    double v = strtod(buf, &end);
    if (end == buf) return 0;
    *out = v;
    if (nonfinite) *nonfinite = !isfinite(v);
    return j - i;
}

enum mem_kind { MEM_ALLOC, MEM_RESERVED, MEM_ANY };

static void set_mem(struct scan *sc, enum mem_kind kind, int64_t bytes)
{
    struct steps_point *pt = sc->pt;
    static const unsigned bit[] = {STEPS_PEAK_ALLOC, STEPS_PEAK_RESERVED, STEPS_MEM};
    int64_t *slot[] = {&pt->peak_alloc, &pt->peak_reserved, &pt->mem};
    if (pt->fields & bit[kind]) return; /* first figure of a kind wins */
    pt->fields |= bit[kind];
    *slot[kind] = bytes;
}

/* A size at i. unit_needed: a bare number is refused; otherwise a bare
 * number is in `bare_unit` bytes (e.g. 1 MiB for mmcv, 1 GiB). */
static bool read_size(const struct scan *sc, size_t i, enum units_base base, bool unit_needed,
                      double bare_unit, int64_t *bytes)
{
    size_t num = i;
    while (num < sc->n && (is_digit((unsigned char)sc->s[num]) || sc->s[num] == '.')) num++;
    if (num == i || !is_digit((unsigned char)sc->s[i])) return false;
    bool sat = false;
    size_t used = units_parse_size(sc->s + i, sc->n - i, base, bytes, &sat);
    if (used == 0 || sat) return false;
    for (size_t k = num; k < i + used; k++)
        if (is_alpha((unsigned char)sc->s[k])) return true; /* a unit followed */
    if (unit_needed) return false;
    double v;
    if (!read_double(sc, i, &v, NULL) || !(v >= 0)) return false;
    double b = v * bare_unit;
    if (!(b < 9.2e18)) return false;
    *bytes = (int64_t)llround(b);
    return true;
}

static void set_step(struct scan *sc, long step)
{
    if (sc->pt->fields & STEPS_STEP) return;
    sc->pt->fields |= STEPS_STEP;
    sc->pt->step = step;
}

static void set_epoch(struct scan *sc, double epoch)
{
    if ((sc->pt->fields & STEPS_EPOCH) || !isfinite(epoch) || epoch < 0) return;
    sc->pt->fields |= STEPS_EPOCH;
    sc->pt->epoch = epoch;
}

/* "[N/M]" at i (blanks allowed inside): N; 0 when absent. */
static size_t read_bracket_fraction(const struct scan *sc, size_t i, long *num)
{
    size_t j = i;
    if (j >= sc->n || sc->s[j] != '[') return 0;
    j = skip_blanks(sc, j + 1);
    size_t k = read_long(sc, j, num);
    if (k == 0) return 0;
    j = skip_blanks(sc, j + k);
    if (j >= sc->n || sc->s[j] != '/') return 0;
    long total;
    j = skip_blanks(sc, j + 1);
    k = read_long(sc, j, &total);
    if (k == 0) return 0;
    j = skip_blanks(sc, j + k);
    if (j >= sc->n || sc->s[j] != ']') return 0;
    return j + 1 - i;
}

/* mmengine writes "Epoch(train)" / "Iter(train)"; "(val)" is not training. */
static size_t skip_train_tag(const struct scan *sc, size_t i, bool *eval)
{
    *eval = false;
    if (i >= sc->n || sc->s[i] != '(') return i;
    if (sc->n - i >= 7 && memcmp(sc->s + i, "(train)", 7) == 0) return i + 7;
    *eval = true;
    return i;
}

/* ---- rules: one function per keyword family --------------------------- */

/* "step=N", "step: N", "Step N:", "step 63/64", "global step 499",
 * "Step #9, loss: ..." (Anti-DreamBooth), "batch_id:1280" (Paddle's
 * transformer example: the batch being fed). */
static void rule_step(struct scan *sc, size_t i)
{
    long v;
    i = skip_separator(sc, i);
    if (i + 1 < sc->n && sc->s[i] == '#' && is_digit((unsigned char)sc->s[i + 1])) i++;
    if (read_long(sc, i, &v)) set_step(sc, v);
}

/* "iter 100:", "Iter [16881/87900]", "iteration 100/ 1000 |". */
static void rule_iter(struct scan *sc, size_t i)
{
    long v;
    bool eval;
    i = skip_train_tag(sc, i, &eval);
    if (eval) return;
    i = skip_blanks(sc, i);
    if (read_bracket_fraction(sc, i, &v)) {
        set_step(sc, v);
        return;
    }
    i = skip_separator(sc, i);
    size_t k = read_long(sc, i, &v);
    if (k == 0) return;
    /* "after 5 iterations", "iter 3 of": the number must end the clause. */
    size_t j = i + k;
    if (j < sc->n && sc->s[j] == '%') {
        /* tqdm's bar with its description: "Iteration:  20% 989/5070 [00:13<08:41,
         * 7.83it/s]" (huggingface/transformers' run_lm_finetuning.py), "20%|██ |
         * 989/5070": 20 is the percentage; the step is the count before the
         * total (diagcall5) */
        j++;
        while (j < sc->n && j - i < 256 && !is_digit((unsigned char)sc->s[j]) && sc->s[j] != '[') j++;
        k = j < sc->n && is_digit((unsigned char)sc->s[j]) ? read_long(sc, j, &v) : 0;
        if (k && j + k < sc->n && sc->s[j + k] == '/') set_step(sc, v);
        return;
    }
    if (j < sc->n && (isalpha((unsigned char)sc->s[j]) || sc->s[j] == '.')) return;
    set_step(sc, v);
}

/* Keras-style "- it 6/100 -": only with the "/total". */
static void rule_it(struct scan *sc, size_t i)
{
    long v;
    if (i < 3 || sc->s[i - 3] == '/') return; /* "1.20s/it" */
    i = skip_blanks(sc, i);
    size_t k = read_long(sc, i, &v);
    if (k == 0 || i + k >= sc->n || sc->s[i + k] != '/') return;
    set_step(sc, v);
}

/* MXNet's Speedometer: "Epoch[0] Batch [2260]\tSpeed: ..." (and
 * "Iter[0] Batch [20]"); icefall/k2 trainers: "Epoch 1, batch 164100,
 * loss[...]" after the epoch on the same line. Otherwise "batch 8" or a
 * shape "[32, 3, 224]" is no step. */
static void rule_batch(struct scan *sc, size_t i)
{
    long v;
    i = skip_blanks(sc, i);
    if (i < sc->n && sc->s[i] == '[') {
        size_t k = read_long(sc, i + 1, &v);
        if (k == 0 || i + 1 + k >= sc->n || sc->s[i + 1 + k] != ']') return;
        set_step(sc, v);
        return;
    }
    if (!(sc->pt->fields & STEPS_EPOCH)) return;
    i = skip_separator(sc, i); /* "epoch: 0, batch: 1279, sum loss: ..." */
    size_t k = read_long(sc, i, &v);
    if (k == 0 || (i + k < sc->n && (isalnum((unsigned char)sc->s[i + k]) || sc->s[i + k] == '.'))) return;
    set_step(sc, v);
}

static void rule_num_updates(struct scan *sc, size_t i)
{
    long v;
    i = skip_separator(sc, i);
    if (read_long(sc, i, &v)) set_step(sc, v);
}

/* "Epoch 0:", "epoch: 3442", "'epoch': 0.97", "epoch 24/80",
 * "Epoch: [1][10003/10010]" (Lua torch, mmcv: step 10003),
 * "Epoch: [0]  [ 260/3696]" (MetricLogger: step 260). */
static void rule_epoch(struct scan *sc, size_t i)
{
    bool eval;
    i = skip_train_tag(sc, i, &eval);
    if (eval) return;
    i = skip_separator(sc, i);
    long e, step;
    if (i < sc->n && sc->s[i] == '[') {
        size_t j = i + 1, k = read_long(sc, skip_blanks(sc, j), &e);
        if (k == 0) return;
        j = skip_blanks(sc, j);
        j = skip_blanks(sc, j + k);
        if (j >= sc->n || sc->s[j] != ']') return;
        set_epoch(sc, (double)e);
        /* MetricLogger (DETR, DeiT, BLIP) joins with two blanks: "Epoch: [0]  [ 260/3696]" */
        if (read_bracket_fraction(sc, skip_blanks(sc, j + 1), &step)) set_step(sc, step);
        return;
    }
    double v;
    bool nf = false;
    if (i < sc->n && (sc->s[i] == '-' || sc->s[i] == '+')) return;
    if (read_double(sc, i, &v, &nf) && !nf) set_epoch(sc, v);
}

static bool prev_word_is(const struct scan *sc, const char *const *words)
{
    if (sc->prev_len == 0) return false;
    for (size_t k = 0; words[k]; k++)
        if (strlen(words[k]) == sc->prev_len &&
            strncasecmp(sc->s + sc->prev_word, words[k], sc->prev_len) == 0)
            return true;
    return false;
}

/* The training loss: "loss: 2.47", "'loss': 1.36", "lm loss: 7.2E+00",
 * "Train loss 1.406", "loss=nan", "(loss: tensor(0.19)". Not validation
 * losses ("val loss", "Val loss") nor "loss scale". */
static void rule_loss(struct scan *sc, size_t i)
{
    static const char *const not_training[] = {
        "val", "valid", "validation", "eval", "evaluation", "test", "dev", "nll", NULL,
    };
    if (sc->pt->fields & STEPS_LOSS) return;
    if (prev_word_is(sc, not_training)) return;
    i = skip_separator(sc, i);
    if (sc->n - i >= 7 && memcmp(sc->s + i, "tensor(", 7) == 0) i += 7;
    double v;
    bool nf = false;
    if (!read_double(sc, i, &v, &nf)) return;
    sc->pt->fields |= STEPS_LOSS;
    sc->pt->loss = v;
    sc->pt->loss_nonfinite = nf;
}

/* Memory keys whose meaning is fixed by the key: value after ':'/'=' with
 * a unit; a bare number is GiB ("peak_alloc=12.5" as the guide's scripts
 * may print) unless the rule says otherwise. */
struct mem_key {
    enum mem_kind kind;
    enum units_base base;
    double bare_unit; /* 0: a unit is required */
};

static void read_mem_key(struct scan *sc, size_t i, const struct mem_key *mk)
{
    int64_t b;
    i = skip_separator(sc, i);
    if (read_size(sc, i, mk->base, mk->bare_unit == 0, mk->bare_unit, &b)) set_mem(sc, mk->kind, b);
}

static void rule_peak_alloc(struct scan *sc, size_t i)
{
    static const struct mem_key mk = {MEM_ALLOC, UNITS_KB_IS_1024, 0};
    read_mem_key(sc, i, &mk);
}

static void rule_peak_reserved(struct scan *sc, size_t i)
{
    static const struct mem_key mk = {MEM_RESERVED, UNITS_KB_IS_1024, 0};
    read_mem_key(sc, i, &mk);
}

/* YOLO's "gpu_mem" as a key ("gpu_mem=3.2G"): reserved/1e9 in YOLOv5. */
static void rule_gpu_mem(struct scan *sc, size_t i)
{
    static const struct mem_key mk = {MEM_ANY, UNITS_KB_IS_1000, 0};
    read_mem_key(sc, i, &mk);
}

/* Megatron's "| max allocated: 12606.06 | max reserved: 17482.0" (MB in a
 * "memory (MB)" line) and llama-recipes' "Max CUDA memory allocated was
 * 1 GB": a max/peak word must open the clause, otherwise it is a current
 * figure and ignored. */
static void rule_allocated_reserved(struct scan *sc, size_t i, enum mem_kind kind)
{
    if (sc->saw_cpu) return;
    size_t b = i;
    while (b > 0 && (isalpha((unsigned char)sc->s[b - 1]) || sc->s[b - 1] == ' ' ||
                     sc->s[b - 1] == '_'))
        b--;
    bool peak = false;
    for (size_t k = b; k < i && !peak; k++)
        if ((k == b || !isalpha((unsigned char)sc->s[k - 1])) &&
            (word_at(sc->s, i, k, "max") || word_at(sc->s, i, k, "peak")))
            peak = true;
    if (!peak) return;
    i = skip_separator(sc, i);
    if (word_at(sc->s, sc->n, i, "was") || word_at(sc->s, sc->n, i, "is"))
        i = skip_blanks(sc, i + (sc->s[i] == 'w' || sc->s[i] == 'W' ? 3 : 2));
    double bare = 0;
    if (memmem(sc->s, sc->n, "(MB)", 4)) bare = 1024.0 * 1024;
    else if (memmem(sc->s, sc->n, "(GB)", 4)) bare = 1024.0 * 1024 * 1024;
    int64_t bytes;
    if (read_size(sc, i, UNITS_KB_IS_1024, bare == 0, bare, &bytes)) set_mem(sc, kind, bytes);
}

static void rule_allocated(struct scan *sc, size_t i)
{
    rule_allocated_reserved(sc, i, MEM_ALLOC);
}

static void rule_reserved(struct scan *sc, size_t i)
{
    rule_allocated_reserved(sc, i, MEM_RESERVED);
}

/* "memory: 78GiB (56%)" / "memory:  8.44GiB(13.20%)": torchtitan's max
 * reserved (the percentage of capacity marks it); "memory: 7954," with no
 * unit: mmcv/mmdet's max allocated in MiB; other "memory: <size>": unstated.
 * Not an error's "out of memory:101" (ArrayFire's code, h24-09): no reading. */
static void rule_memory(struct scan *sc, size_t i)
{
    /* "Free memory: 7.75GiB" and "Total memory: 8.00GiB" (TF 1.x's device
     * properties at start-up), XGBoost's "- Free memory: 224067584" /
     * "- Requested memory: 878511352" under its allocation error
     * (dmlc/xgboost#8292): the device's figures or a request, no memory
     * the run holds; nor is a serving engine's KV-cache budget ("Available
     * KV cache memory: 64.27 GiB", vLLM's gpu_worker) (nonpt20) */
    static const char *const error_words[] = {"of", "free", "requested", "total", "available", "cache", NULL};
    if (sc->saw_cpu || prev_word_is(sc, error_words)) return;
    size_t j = skip_blanks(sc, i);
    if (j >= sc->n || (sc->s[j] != ':' && sc->s[j] != '=')) return;
    j = skip_blanks(sc, j + 1);
    int64_t b;
    if (read_size(sc, j, UNITS_KB_IS_1024, true, 0, &b)) {
        const char *pct = memchr(sc->s + j, '(', sc->n - j);
        bool capacity = pct && (size_t)(pct - (sc->s + j)) < 24 &&
                        memchr(pct, '%', sc->n - (size_t)(pct - sc->s)) != NULL;
        set_mem(sc, capacity ? MEM_RESERVED : MEM_ANY, b);
    } else if (read_size(sc, j, UNITS_KB_IS_1024, false, 1024.0 * 1024, &b)) {
        set_mem(sc, MEM_ALLOC, b);
    }
}

/* MLX "Peak mem 8.626 GB" (mx.get_peak_memory()/1e9: decimal GB). */
static void rule_mem(struct scan *sc, size_t i)
{
    static const char *const peak[] = {"peak", "max", NULL};
    if (!prev_word_is(sc, peak) || sc->saw_cpu) return;
    int64_t b;
    i = skip_separator(sc, i);
    if (read_size(sc, i, UNITS_KB_IS_1000, true, 0, &b)) set_mem(sc, MEM_ALLOC, b);
}

/* "GPU: 1001.00 KB": a size (unit required) right after "GPU:". */
static void rule_gpu(struct scan *sc, size_t i)
{
    sc->saw_gpu = true;
    size_t j = skip_blanks(sc, i);
    if (j >= sc->n || sc->s[j] != ':' || sc->saw_cpu) return;
    int64_t b;
    if (read_size(sc, skip_blanks(sc, j + 1), UNITS_KB_IS_1024, true, 0, &b)) set_mem(sc, MEM_ANY, b);
}

/* "peak: 2.55" in a line about a GPU (TensorFlow get_memory_info scripts):
 * a bare number there is GB (1024-based, like the guide's). */
static void rule_peak(struct scan *sc, size_t i)
{
    if (!sc->saw_gpu || sc->saw_cpu) return;
    size_t j = skip_blanks(sc, i);
    if (j >= sc->n || (sc->s[j] != ':' && sc->s[j] != '=')) return;
    int64_t b;
    if (read_size(sc, skip_blanks(sc, j + 1), UNITS_KB_IS_1024, false, 1024.0 * 1024 * 1024, &b))
        set_mem(sc, MEM_ANY, b);
}

static void rule_cpu(struct scan *sc, size_t i)
{
    (void)i;
    sc->saw_cpu = true;
}

static void rule_summary(struct scan *sc, size_t i)
{
    (void)i;
    sc->summary = true;
}

struct word_rule {
    const char *word; /* lower case, matched case-insensitively, whole word */
    size_t len;
    void (*apply)(struct scan *sc, size_t after);
};

#define W(word, fn) {word, sizeof word - 1, fn}

/* The keyword table. Words are runs of letters and '_', so "det_loss_cls_0"
 * or "valid_loss" never read as "loss". */
static const struct word_rule word_rules[] = {
    W("step", rule_step),
    W("global_step", rule_step),
    W("batch_id", rule_step),
    W("iter", rule_iter),
    W("iteration", rule_iter),
    W("it", rule_it),
    W("num_updates", rule_num_updates),
    W("batch", rule_batch),
    W("epoch", rule_epoch),
    W("loss", rule_loss),
    W("train_loss", rule_loss),
    W("training_loss", rule_loss),
    W("avr_loss", rule_loss),
    W("avg_loss", rule_loss),
    W("mean_loss", rule_loss),
    W("total_loss", rule_loss),
    W("lm_loss", rule_loss),
    W("running_loss", rule_loss),
    W("train_epoch_loss", rule_loss),
    W("reduced_train_loss", rule_loss),
    W("train_loss_step", rule_loss),
    W("peak_alloc", rule_peak_alloc),
    W("peak_allocated", rule_peak_alloc),
    W("max_allocated", rule_peak_alloc),
    W("max_memory_allocated", rule_peak_alloc),
    W("max_mem", rule_peak_alloc),
    W("max_ma", rule_peak_alloc),
    W("peak_reserved", rule_peak_reserved),
    W("max_reserved", rule_peak_reserved),
    W("max_memory_reserved", rule_peak_reserved),
    W("max_ca", rule_peak_reserved),
    W("allocated", rule_allocated),
    W("reserved", rule_reserved),
    W("memory", rule_memory),
    W("mem", rule_mem),
    W("gpu_mem", rule_gpu_mem),
    W("gpu", rule_gpu),
    W("peak", rule_peak),
    W("cpu", rule_cpu),
    W("ram", rule_cpu),
    W("train_runtime", rule_summary),
};

#define N_WORD_RULES (sizeof word_rules / sizeof word_rules[0])

/* Rules by (first letter, length), built once: most words of a line match
 * no bucket and cost one lookup. */
#define MAX_WORD 20
static unsigned char bucket_start[26 * (MAX_WORD + 1) + 1];
static unsigned char bucket_rules[N_WORD_RULES];
static pthread_once_t rules_once = PTHREAD_ONCE_INIT;

static unsigned bucket_of(char first, size_t len)
{
    return (unsigned)((first | 0x20) - 'a') * (MAX_WORD + 1) + (unsigned)len;
}

static void index_rules(void)
{
    unsigned count[26 * (MAX_WORD + 1)] = {0};
    for (size_t r = 0; r < N_WORD_RULES; r++) count[bucket_of(word_rules[r].word[0], word_rules[r].len)]++;
    unsigned at = 0;
    for (size_t b = 0; b < 26 * (MAX_WORD + 1); b++) {
        bucket_start[b] = (unsigned char)at;
        at += count[b];
    }
    bucket_start[26 * (MAX_WORD + 1)] = (unsigned char)at;
    unsigned fill[26 * (MAX_WORD + 1)] = {0};
    for (size_t r = 0; r < N_WORD_RULES; r++) {
        unsigned b = bucket_of(word_rules[r].word[0], word_rules[r].len);
        bucket_rules[bucket_start[b] + fill[b]++] = (unsigned char)r;
    }
}

static void apply_word(struct scan *sc, size_t w, size_t len)
{
    if (len < 2 || len > MAX_WORD || !is_alpha((unsigned char)sc->s[w])) return;
    unsigned b = bucket_of(sc->s[w], len);
    for (unsigned k = bucket_start[b]; k < bucket_start[b + 1]; k++) {
        const struct word_rule *rule = &word_rules[bucket_rules[k]];
        if (strncasecmp(sc->s + w, rule->word, len) != 0) continue;
        /* the last part of a hyphenated name, a setting's: tacotron2's flag
         * "--n-frames-per-step=5" (the decoder's reduction factor,
         * begeekmyfriend/tacotron2#14 = heldout59 h59-57; NVIDIA/tacotron2's
         * hparams "n_frames_per_step"), "--gradient-accumulation-steps"
         * (its word is "steps", no rule), "multi-step": no step of the run.
         * (open59) */
        if (rule->apply == rule_step && w >= 2 && sc->s[w - 1] == '-' && is_alpha((unsigned char)sc->s[w - 2]))
            return;
        rule->apply(sc, w + len);
        return;
    }
}

/* "...| 450/1000 [" after a tqdm bar, or "  6/100 [====" (Keras) at the start:
 * the step, unless the bar is an evaluation's. */
static void rule_bar(struct scan *sc, size_t i, size_t bar_at)
{
    static const char *const eval_words[] = {"eval", "valid", "test", "predict", "sanity"};
    long v, total;
    i = skip_blanks(sc, i);
    size_t k = read_long(sc, i, &v);
    if (k == 0) return;
    size_t j = skip_blanks(sc, i + k);
    if (j >= sc->n || sc->s[j] != '/') return;
    j = skip_blanks(sc, j + 1);
    k = read_long(sc, j, &total);
    if (k == 0) return;
    j = skip_blanks(sc, j + k);
    bool keras3 = bar_at == i && j < sc->n && (unsigned char)sc->s[j] == 0xe2; /* "━━━" */
    if (j >= sc->n || (sc->s[j] != '[' && !keras3)) return;
    const uint32_t first = 1u << ('e' - 'a') | 1u << ('v' - 'a') | 1u << ('t' - 'a') |
                           1u << ('p' - 'a') | 1u << ('s' - 'a');
    for (size_t p = 0; p < bar_at; p++) {
        unsigned l = (unsigned)((sc->s[p] | 0x20) - 'a');
        if (l >= 26 || !(first & (1u << l))) continue;
        for (size_t e = 0; e < sizeof eval_words / sizeof eval_words[0]; e++) {
            size_t el = strlen(eval_words[e]);
            if (p + el <= bar_at && strncasecmp(sc->s + p, eval_words[e], el) == 0) return;
        }
    }
    set_step(sc, v);
}

/* transformers' notebook bar: "[ 501/1500 06:35 < 13:11, 1.26 it/s, Epoch
 * 1/3]" (NotebookProgressCallback). The training bar carries the epoch; the
 * evaluation bar ("[12/50 00:03]") does not, and counts no training step. */
static void rule_notebook_bar(struct scan *sc, size_t i)
{
    long v, total;
    size_t j = skip_blanks(sc, i + 1), k = read_long(sc, j, &v);
    if (k == 0 || j + k >= sc->n || sc->s[j + k] != '/') return;
    j += k + 1;
    k = read_long(sc, j, &total);
    if (k == 0 || j + k >= sc->n || sc->s[j + k] != ' ') return;
    j = skip_blanks(sc, j + k);
    size_t t = j;
    while (t < sc->n && is_digit((unsigned char)sc->s[t])) t++;
    if (t == j || t + 2 >= sc->n || sc->s[t] != ':' || !is_digit((unsigned char)sc->s[t + 1])) return;
    for (size_t e = t; e + 5 <= sc->n; e++)
        if (word_at(sc->s, sc->n, e, "epoch")) {
            set_step(sc, v);
            return;
        }
}

/* YOLO rows: "0/299  4.11G  0.05746  3.93  65.8 ..." (epoch/epochs,
 * gpu_mem reserved/1e9, then the loss columns): epoch, memory, and the loss
 * as the sum of up to three fractional columns (box+obj+cls, or box+cls+dfl). */
static void rule_yolo_row(struct scan *sc, size_t i)
{
    long epoch, total;
    size_t k = read_long(sc, i, &epoch);
    if (k == 0 || i + k >= sc->n || sc->s[i + k] != '/') return;
    size_t j = i + k + 1;
    k = read_long(sc, j, &total);
    if (k == 0) return;
    j += k;
    if (j >= sc->n || (sc->s[j] != ' ' && sc->s[j] != '\t')) return;
    j = skip_blanks(sc, j);
    double v;
    size_t num = read_double(sc, j, &v, NULL);
    if (num == 0) return;
    size_t u = skip_blanks(sc, j + num);
    if (u >= sc->n || (sc->s[u] != 'G' && sc->s[u] != 'M') ||
        (u + 1 < sc->n && isalpha((unsigned char)sc->s[u + 1])))
        return;
    int64_t b;
    if (!read_size(sc, j, UNITS_KB_IS_1000, true, 0, &b)) return;
    set_epoch(sc, (double)epoch);
    set_mem(sc, MEM_ANY, b);
    j = u + 1;
    double sum = 0;
    int cols = 0;
    while (cols < 3) {
        j = skip_blanks(sc, j);
        size_t m = read_double(sc, j, &v, NULL);
        if (m == 0 || !memchr(sc->s + j, '.', m) || !isfinite(v)) break;
        sum += v;
        cols++;
        j += m;
    }
    if (cols > 0 && !(sc->pt->fields & STEPS_LOSS)) {
        sc->pt->fields |= STEPS_LOSS;
        sc->pt->loss = sum;
    }
}

/* Darknet's training line: "7017: 4.850285, 4.927210 avg loss, 0.002000
 * rate, 3.594010 seconds, 898176 images" (AlexeyAB/darknet
 * src/detector.c: "%d: %f, %f avg loss, %f rate, %lf seconds, %d images";
 * pjreddie/darknet examples/detector.c: "%ld: %f, %f avg, %f rate, ..."):
 * the iteration, the batch's loss, then its running average. The words
 * "avg" and "rate" in their places make it one; a numbered list ("2: 0.5,
 * 0.7") is not. (nonpt20) */
static void rule_darknet_row(struct scan *sc, size_t i)
{
    long iteration;
    size_t k = read_long(sc, i, &iteration);
    if (k == 0 || i + k >= sc->n || sc->s[i + k] != ':') return;
    size_t j = skip_blanks(sc, i + k + 1);
    double loss, avg, rate;
    bool nonfinite = false;
    size_t m = read_double(sc, j, &loss, &nonfinite);
    if (m == 0 || j + m >= sc->n || sc->s[j + m] != ',') return;
    j = skip_blanks(sc, j + m + 1);
    m = read_double(sc, j, &avg, NULL);
    if (m == 0) return;
    j = skip_blanks(sc, j + m);
    if (!word_at(sc->s, sc->n, j, "avg")) return;
    j += 3;
    j = skip_blanks(sc, j);
    if (word_at(sc->s, sc->n, j, "loss")) j = skip_blanks(sc, j + 4);
    if (j >= sc->n || sc->s[j] != ',') return;
    j = skip_blanks(sc, j + 1);
    m = read_double(sc, j, &rate, NULL);
    if (m == 0) return;
    j = skip_blanks(sc, j + m);
    if (!word_at(sc->s, sc->n, j, "rate")) return;
    set_step(sc, iteration);
    if (!(sc->pt->fields & STEPS_LOSS)) {
        sc->pt->fields |= STEPS_LOSS;
        sc->pt->loss = loss;
        sc->pt->loss_nonfinite = nonfinite;
    }
}

static size_t skip_escape(const char *s, size_t n, size_t i)
{
    /* ESC [ params final (CSI), or ESC + one byte. */
    if (i + 1 < n && s[i + 1] == '[') {
        size_t j = i + 2;
        while (j < n && !((unsigned char)s[j] >= 0x40 && (unsigned char)s[j] <= 0x7e)) j++;
        return j < n ? j + 1 : n;
    }
    return i + 2 < n ? i + 2 : n;
}

static void scan_words(struct scan *sc)
{
    const char *s = sc->s;
    size_t i = 0, n = sc->n;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (is_word_char(c)) {
            size_t w = i;
            while (i < n && is_word_char((unsigned char)s[i])) i++;
            apply_word(sc, w, i - w);
            sc->prev_word = w;
            sc->prev_len = i - w;
            continue;
        }
        if (c == 0x1b) {
            i = skip_escape(s, n, i);
            continue;
        }
        if (c == '|') rule_bar(sc, i + 1, i);
        if (is_digit(c)) { /* a number ends the "previous word" context */
            while (i < n && (is_digit((unsigned char)s[i]) || s[i] == '.')) i++;
            sc->prev_len = 0;
            continue;
        }
        if (c != ' ' && c != '\t' && c != '/' && c != '\'' && c != '"') sc->prev_len = 0;
        i++;
    }
}

/* The last \r-separated segment that has content (a redrawn progress bar
 * shows its final state); CR/LF at the very end are ignored. */
static void last_segment(const char **line, size_t *len)
{
    const char *s = *line;
    size_t n = *len;
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r')) n--;
    const char *cr = memrchr(s, '\r', n);
    if (cr) {
        size_t off = (size_t)(cr - s) + 1;
        s += off;
        n -= off;
    }
    *line = s;
    *len = n;
}

/* Lines with no digit say nothing about progress, except "loss: nan". */
static bool may_carry_progress(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (is_digit(c)) return true;
        if (i + 3 <= n && (((c | 0x20) == 'n' && (s[i + 1] | 0x20) == 'a' && (s[i + 2] | 0x20) == 'n') ||
                           ((c | 0x20) == 'i' && (s[i + 1] | 0x20) == 'n' && (s[i + 2] | 0x20) == 'f')))
            return true;
    }
    return false;
}

static void point_clear(struct steps_point *pt)
{
    memset(pt, 0, sizeof *pt);
    pt->step = -1;
    pt->epoch = pt->loss = NAN;
    pt->peak_alloc = pt->peak_reserved = pt->mem = -1;
}

bool steps_darknet_line(const char *line, size_t len)
{
    struct steps_point pt;
    point_clear(&pt);
    if (!line || len == 0) return false;
    last_segment(&line, &len);
    struct scan sc = {.s = line, .n = len, .pt = &pt};
    size_t first = skip_blanks(&sc, 0);
    if (first >= len || !isdigit((unsigned char)line[first])) return false;
    rule_darknet_row(&sc, first);
    return (pt.fields & STEPS_STEP) != 0;
}

unsigned steps_parse_line(const char *line, size_t len, struct steps_point *pt)
{
    pthread_once(&rules_once, index_rules);
    point_clear(pt);
    if (!line || len == 0) return 0;
    last_segment(&line, &len);
    if (!may_carry_progress(line, len)) return 0;
    struct scan sc = {.s = line, .n = len, .pt = pt};
    size_t first = skip_blanks(&sc, 0);
    while (first + 1 < len && line[first] == '>' && line[first + 1] == ' ')
        first = skip_blanks(&sc, first + 1); /* markdown quote */
    if (first < len && line[first] == '[') rule_notebook_bar(&sc, first);
    if (first < len && isdigit((unsigned char)line[first])) {
        rule_yolo_row(&sc, first);
        rule_darknet_row(&sc, first);
        rule_bar(&sc, first, first);
    }
    scan_words(&sc);
    if (sc.summary) { /* HF's end-of-training dict is not a step */
        point_clear(pt);
        return 0;
    }
    return pt->fields;
}

/* ---- series ------------------------------------------------------------- */

/* A hard cap on stored points: past it, neighbours are merged pairwise, so
 * memory stays bounded on any log while thirds and noise keep their shape. */
#define STEPS_SERIES_CAP ((size_t)1 << 20)

const char *steps_trend_name(enum steps_trend t, bool memory)
{
    static const char *const names[] = {
        [STEPS_TREND_TOO_FEW] = "too-few", [STEPS_TREND_FALLING] = "falling",
        [STEPS_TREND_FLAT] = "flat",       [STEPS_TREND_RISING] = "rising",
        [STEPS_TREND_DIVERGING] = "diverging", [STEPS_TREND_NAN] = "nan",
        [STEPS_TREND_NONE] = "none-shown",
    };
    if (memory && t == STEPS_TREND_RISING) return "growing";
    if ((unsigned)t >= sizeof names / sizeof names[0]) return "too-few";
    return names[t];
}

void steps_series_init(struct steps_series *s)
{
    memset(s, 0, sizeof *s);
    s->epoch = NAN;
}

static const unsigned MEM_BITS = STEPS_PEAK_ALLOC | STEPS_PEAK_RESERVED | STEPS_MEM;

static void merge_max(int64_t *dst, int64_t src)
{
    if (src > *dst) *dst = src;
}

/* Fold b (the later one) into a: loss and epoch from b, memory peaks max. */
static void point_merge(struct steps_point *a, const struct steps_point *b)
{
    if (b->fields & STEPS_LOSS) {
        a->loss = b->loss;
        a->loss_nonfinite = b->loss_nonfinite;
    }
    if (b->fields & STEPS_EPOCH) a->epoch = b->epoch;
    if ((b->fields & STEPS_STEP) && !(a->fields & STEPS_STEP)) a->step = b->step;
    merge_max(&a->peak_alloc, b->peak_alloc);
    merge_max(&a->peak_reserved, b->peak_reserved);
    merge_max(&a->mem, b->mem);
    a->fields |= b->fields;
}

/* -1, 0, 1: progress order by (epoch when both known, step). */
static int key_cmp(const struct steps_point *a, const struct steps_point *b)
{
    if ((a->fields & b->fields & STEPS_EPOCH) && a->epoch != b->epoch)
        return a->epoch < b->epoch ? -1 : 1;
    return a->step < b->step ? -1 : a->step > b->step;
}

static void compact(struct steps_series *s)
{
    size_t k = 0;
    for (size_t i = 0; i + 1 < s->n; i += 2) {
        struct steps_point a = s->points[i], b = s->points[i + 1];
        if ((a.fields & b.fields & STEPS_LOSS) && !a.loss_nonfinite && !b.loss_nonfinite)
            b.loss = (a.loss + b.loss) / 2;
        if (a.loss_nonfinite) {
            b.loss = a.loss;
            b.loss_nonfinite = true;
            b.fields |= STEPS_LOSS;
        }
        point_merge(&a, &b);
        s->points[k++] = a;
    }
    if (s->n % 2) s->points[k++] = s->points[s->n - 1];
    s->n = k;
}

static int append(struct steps_series *s, const struct steps_point *pt)
{
    if (s->n == STEPS_SERIES_CAP) compact(s);
    if (s->n == s->cap) {
        struct steps_point *p = strbuf_grow(s->points, &s->cap, s->n + 1, sizeof *p, SIZE_MAX);
        if (!p) return -1;
        s->points = p;
    }
    s->points[s->n++] = *pt;
    return 0;
}

/* A point with a step: the same step again (another rank, the line redrawn
 * after the loss updated) merges; an earlier step means the run restarted
 * (or resumed from a checkpoint): the abandoned stretch is dropped. */
static int add_stepped(struct steps_series *s, const struct steps_point *pt)
{
    size_t j = s->n;
    while (j > 0 && !(s->points[j - 1].fields & STEPS_STEP)) j--;
    if (j == 0) return append(s, pt);
    int c = key_cmp(pt, &s->points[j - 1]);
    if (c == 0) {
        point_merge(&s->points[j - 1], pt);
        return 0;
    }
    if (c < 0) {
        size_t keep = j - 1;
        while (keep > 0 && !((s->points[keep - 1].fields & STEPS_STEP) &&
                             key_cmp(&s->points[keep - 1], pt) < 0))
            keep--;
        s->n = keep;
    }
    return append(s, pt);
}

int steps_series_add(struct steps_series *s, const struct steps_point *in)
{
    if (in->fields & STEPS_EPOCH) s->epoch = in->epoch;
    if (!(in->fields & (STEPS_LOSS | MEM_BITS))) return 0;
    struct steps_point own = *in;
    const struct steps_point *pt = &own;
    if ((own.fields & STEPS_STEP) && !(own.fields & STEPS_EPOCH) && isfinite(s->epoch)) {
        own.epoch = s->epoch; /* Keras: "Epoch 3/10", then bars from 1/100 */
        own.fields |= STEPS_EPOCH;
    }
    if (pt->fields & STEPS_STEP) return add_stepped(s, pt);
    /* No step: a memory line printed after its step's loss line (or the
     * loss after the memory) completes that point when it fills a gap. */
    if (s->n > 0) {
        struct steps_point *last = &s->points[s->n - 1];
        unsigned data = pt->fields & (STEPS_LOSS | MEM_BITS);
        bool same_epoch = !(pt->fields & last->fields & STEPS_EPOCH) || pt->epoch == last->epoch;
        if (!(data & last->fields) && same_epoch) {
            point_merge(last, pt);
            return 0;
        }
    }
    return append(s, pt);
}

/* ---- trends ------------------------------------------------------------- */

#define NOISE_T 2.0         /* a change must exceed this many standard errors */
#define MIN_REL_CHANGE 0.005 /* ... and 0.5% of the level */
#define DIVERGE_REL 0.10     /* a rise from the trough of 10%+ after a fall */
#define MEM_GROWTH_REL 0.002 /* memory: 0.2% above the earlier maximum */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double mean(const double *v, size_t n)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += v[i];
    return sum / (double)n;
}

/* Noise of a series, robust to its trend and to one-off jumps: the median
 * absolute difference of neighbours, scaled to a standard deviation. */
static double noise_sigma(const double *v, size_t n)
{
    if (n < 2) return 0;
    double *d = malloc((n - 1) * sizeof *d);
    if (!d) return 0;
    for (size_t i = 0; i + 1 < n; i++) d[i] = fabs(v[i + 1] - v[i]);
    qsort(d, n - 1, sizeof *d, cmp_double);
    size_t m = n - 1;
    double med = m % 2 ? d[m / 2] : (d[m / 2 - 1] + d[m / 2]) / 2;
    free(d);
    return med / 0.9539; /* median |N(0, 2 sigma^2)| = 0.6745 * sqrt(2) sigma */
}

static bool significant(double diff, double level, double se)
{
    return fabs(diff) >= MIN_REL_CHANGE * fabs(level) && fabs(diff) >= NOISE_T * se &&
           fabs(diff) > 0;
}

/* -1 when every value is below the one before it, +1 when every one is
 * above, 0 otherwise: three or more points moving the same way each time
 * are a trend whatever their noise estimate says (the noise estimate of a
 * short steady fall is the fall itself). */
static int monotone(const double *v, size_t n)
{
    bool down = true, up = true;
    for (size_t i = 1; i < n; i++) {
        down = down && v[i] < v[i - 1];
        up = up && v[i] > v[i - 1];
    }
    return down ? -1 : up ? 1 : 0;
}

static enum steps_trend loss_trend_of(const double *v, size_t n)
{
    if (n < 3) return STEPS_TREND_TOO_FEW;
    size_t k = n / 3 ? n / 3 : 1;
    double first = mean(v, k), last = mean(v + n - k, k);
    double se = noise_sigma(v, n) * sqrt(2.0 / (double)k);
    /* The trough: the lowest mean of k neighbours before the last third. */
    double trough = first, window = first * (double)k; /* sliding sum: O(n) */
    for (size_t i = 1; i + 2 * k <= n; i++) {
        window += v[i + k - 1] - v[i - 1];
        if (window / (double)k < trough) trough = window / (double)k;
    }
    double level = fmax(fabs(first), fabs(last));
    double rise = last - trough;
    if (rise > 0 && significant(rise, level, se) && rise >= DIVERGE_REL * fabs(trough)) {
        bool fell = first > trough && significant(first - trough, level, se);
        bool blew_up = first > 0 && last >= 2 * first;
        if (fell || blew_up) return STEPS_TREND_DIVERGING;
    }
    int mono = monotone(v, n);
    if (mono && fabs(v[n - 1] - v[0]) >= MIN_REL_CHANGE * level)
        return mono < 0 ? STEPS_TREND_FALLING : STEPS_TREND_RISING;
    if (!significant(last - first, level, se)) return STEPS_TREND_FLAT;
    return last < first ? STEPS_TREND_FALLING : STEPS_TREND_RISING;
}

enum steps_trend steps_loss_trend(const struct steps_series *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (!(s->points[i].fields & STEPS_LOSS)) continue;
        if (s->points[i].loss_nonfinite || !isfinite(s->points[i].loss)) return STEPS_TREND_NAN;
        n++;
    }
    if (n < 3) return STEPS_TREND_TOO_FEW;
    double *v = malloc(n * sizeof *v);
    if (!v) return STEPS_TREND_TOO_FEW;
    n = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->points[i].fields & STEPS_LOSS) v[n++] = s->points[i].loss;
    enum steps_trend t = loss_trend_of(v, n);
    free(v);
    return t;
}

static int64_t mem_value(const struct steps_point *p, unsigned kind)
{
    return kind == STEPS_PEAK_RESERVED ? p->peak_reserved
           : kind == STEPS_PEAK_ALLOC  ? p->peak_alloc
                                       : p->mem;
}

/* The figure a memory trend follows: reserved if the log shows it, else
 * allocated, else unstated; 0 when none. */
static unsigned mem_kind(const struct steps_series *s)
{
    static const unsigned order[] = {STEPS_PEAK_RESERVED, STEPS_PEAK_ALLOC, STEPS_MEM};
    for (size_t o = 0; o < 3; o++)
        for (size_t i = 0; i < s->n; i++)
            if (s->points[i].fields & order[o]) return order[o];
    return 0;
}

/* Memory grows when the last third's mean is above the highest value of the
 * middle third (all earlier values when there is no middle): a warm-up
 * climb, a one-off step or noisy per-step peaks stay "flat". *level_at gets
 * that highest value's index: a flat run's level. */
static enum steps_trend mem_growth(const double *v, size_t n, size_t *level_at)
{
    *level_at = 0;
    if (n < 2) return STEPS_TREND_FLAT;
    size_t k = n / 3 ? n / 3 : 1;
    size_t from = n > 2 * k ? k : 0;
    size_t at = from;
    for (size_t i = from; i < n - k; i++)
        if (v[i] > v[at]) at = i;
    *level_at = at;
    double ref = v[at], last = mean(v + n - k, k);
    return last > ref * (1 + MEM_GROWTH_REL) && last > ref ? STEPS_TREND_RISING : STEPS_TREND_FLAT;
}

/* A flat run's level and the step that first reached it (within the
 * tolerance growth is judged by); no slope: one rise and a plateau would
 * read as growth ("flat: 6.00 -> 7.00 GB ... (+5.26 GB per 100 steps)"). */
static void mem_level(const struct steps_series *s, const double *v, size_t level_at,
                      struct steps_mem_trend *t)
{
    t->bytes_per_100_steps = NAN;
    size_t j = 0;
    while (j < level_at && v[j] < v[level_at] * (1 - MEM_GROWTH_REL)) j++;
    /* the level's bytes from its point, not back from the double: a figure
     * near INT64_MAX rounds up to 2^63, which no int64_t holds */
    for (size_t i = 0, seen = 0; i < s->n; i++) {
        if (!(s->points[i].fields & t->kind)) continue;
        if (seen == j) t->level_step = s->points[i].step;
        if (seen++ == level_at) {
            t->level_bytes = mem_value(&s->points[i], t->kind);
            return;
        }
    }
}

/* The evidence: first and last point, their steps, the slope per 100 steps. */
static void mem_evidence(const struct steps_series *s, unsigned kind, struct steps_mem_trend *t)
{
    const struct steps_point *first = NULL, *last = NULL;
    for (size_t i = 0; i < s->n; i++) {
        if (!(s->points[i].fields & kind)) continue;
        if (!first) first = &s->points[i];
        last = &s->points[i];
        t->points++;
    }
    t->first_bytes = mem_value(first, kind);
    t->last_bytes = mem_value(last, kind);
    t->first_step = first->step;
    t->last_step = last->step;
    if (first->step >= 0 && last->step > first->step)
        t->bytes_per_100_steps = (double)(t->last_bytes - t->first_bytes) * 100.0 /
                                 (double)(last->step - first->step);
}

void steps_memory_trend_of(const struct steps_series *s, struct steps_mem_trend *t)
{
    memset(t, 0, sizeof *t);
    t->trend = STEPS_TREND_NONE;
    t->first_bytes = t->last_bytes = -1;
    t->first_step = t->last_step = -1;
    t->bytes_per_100_steps = NAN;
    t->level_bytes = -1;
    t->level_step = -1;
    t->kind = mem_kind(s);
    if (!t->kind) return;
    mem_evidence(s, t->kind, t);
    double *v = malloc(t->points * sizeof *v);
    if (!v) { /* no level without the values: no figure either */
        t->trend = STEPS_TREND_FLAT;
        t->bytes_per_100_steps = NAN;
        return;
    }
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->points[i].fields & t->kind) v[n++] = (double)mem_value(&s->points[i], t->kind);
    size_t level_at;
    t->trend = mem_growth(v, n, &level_at);
    if (t->trend == STEPS_TREND_FLAT) mem_level(s, v, level_at, t);
    free(v);
}

enum steps_trend steps_memory_trend(const struct steps_series *s)
{
    struct steps_mem_trend t;
    steps_memory_trend_of(s, &t);
    return t.trend;
}

size_t steps_memory_trend_format(const struct steps_mem_trend *t, char *buf, size_t size)
{
    static const double gib = 1024.0 * 1024.0 * 1024.0;
    const char *name = steps_trend_name(t->trend, true);
    int n;
    if (t->trend == STEPS_TREND_NONE || t->points == 0)
        n = snprintf(buf, size, "%s", name);
    else if (t->trend == STEPS_TREND_FLAT && t->first_step >= 0 && t->last_step > t->first_step) {
        char level[96] = "";
        if (t->last_bytes != t->first_bytes && t->level_step >= 0)
            snprintf(level, sizeof level, " (%.2f GB by step %ld, no climb past it in the last third)",
                     (double)t->level_bytes / gib, t->level_step);
        else if (t->last_bytes != t->first_bytes)
            snprintf(level, sizeof level, " (no climb past %.2f GB in the last third)",
                     (double)t->level_bytes / gib);
        n = snprintf(buf, size, "%s: %.2f -> %.2f GB over steps %ld-%ld%s", name, (double)t->first_bytes / gib,
                     (double)t->last_bytes / gib, t->first_step, t->last_step, level);
    }
    else if (t->first_step >= 0 && t->last_step > t->first_step)
        n = snprintf(buf, size, "%s: %.2f -> %.2f GB over steps %ld-%ld (%+.2f GB per 100 steps)",
                     name, (double)t->first_bytes / gib, (double)t->last_bytes / gib,
                     t->first_step, t->last_step, t->bytes_per_100_steps / gib);
    else
        n = snprintf(buf, size, "%s: %.2f -> %.2f GB over %zu points", name,
                     (double)t->first_bytes / gib, (double)t->last_bytes / gib, t->points);
    return n < 0 ? 0 : (size_t)n;
}

static int64_t max_of(const struct steps_series *s, unsigned kind)
{
    int64_t best = -1;
    for (size_t i = 0; i < s->n; i++)
        if (s->points[i].fields & kind) merge_max(&best, mem_value(&s->points[i], kind));
    return best;
}

int64_t steps_max_peak_alloc(const struct steps_series *s)
{
    return max_of(s, STEPS_PEAK_ALLOC);
}

int64_t steps_max_peak_reserved(const struct steps_series *s)
{
    return max_of(s, STEPS_PEAK_RESERVED);
}

void steps_series_release(struct steps_series *s)
{
    free(s->points);
    steps_series_init(s);
}
