/* steps: what one training-log line says about progress — step, loss,
 * per-step peak memory — for HF Trainer dicts, Lightning/tqdm bars,
 * torchtitan, Megatron, DeepSpeed, nanoGPT, fairseq, mmdet, MLX and the
 * guide's `step=N peak_alloc=X.XXGB peak_reserved=Y.YYGB` lines; and the
 * trends of a series of such points. Pure functions on strings; a series
 * owns its points and is freed with steps_series_release. */
#ifndef OOMLAB_STEPS_H
#define OOMLAB_STEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Which fields a line carried (bit set) — an unset field's value is -1/NaN. */
enum steps_field {
    STEPS_STEP = 1 << 0,
    STEPS_LOSS = 1 << 1,
    STEPS_PEAK_ALLOC = 1 << 2,    /* max allocated (bytes) */
    STEPS_PEAK_RESERVED = 1 << 3, /* max reserved (bytes) */
    STEPS_MEM = 1 << 4,           /* a memory figure of unstated kind (bytes) */
    STEPS_EPOCH = 1 << 5,
};

struct steps_point {
    unsigned fields; /* enum steps_field bits */
    long step;       /* -1 unknown */
    double epoch;    /* NaN unknown */
    double loss;     /* NaN unknown; may be nan/inf when the log says so */
    bool loss_nonfinite; /* the log printed nan/inf for the loss */
    int64_t peak_alloc, peak_reserved, mem; /* -1 unknown */
};

/* Parse one line (no NUL needed, may contain \r, ANSI colours). Returns the
 * fields found (0 when the line says nothing about progress). Only the last
 * \r-separated segment is read (a redrawn bar's final state); ANSI escapes,
 * timestamps, "[rank3]:" and "> " prefixes are ignored. The first value of
 * each field in the line wins. Numbers are parsed with strtod (exact).
 *
 * Memory units -> bytes. 1024-based: GiB/MiB/KiB always; and "GB"/"MB"/"KB"
 * as printed by the guide's step lines, PyTorch, DeepSpeed (MA/Max_MA/CA/
 * Max_CA), Megatron ("memory (MB)"), mmcv/mmdet ("memory: 7954" = MiB),
 * llama-recipes and "GPU: 1001.00 KB". 1000-based: MLX ("Peak mem 8.626 GB",
 * mx.get_peak_memory()/1e9) and YOLO's gpu_mem column ("18.3G", /1E9).
 * Kinds: torchtitan "memory: X GiB(P%)" is max reserved; mmcv's and MLX's
 * figures are peak allocated; YOLO's, "GPU: <size>" and a unit-less
 * "peak: 2.55" (GB) in a GPU line are STEPS_MEM. Lines about CPU/RAM memory
 * are ignored. Validation losses (val/eval/test prefixes, valid_loss...) are
 * not the loss; HF Trainer's final {'train_runtime': ...} dict is not a
 * point; evaluation progress bars give no step. */
unsigned steps_parse_line(const char *line, size_t len, struct steps_point *pt);
/* the line is Darknet's training record ("7017: 4.850285, 4.927210 avg
 * loss, 0.002000 rate, 3.59 seconds, 898176 images"): an iteration of the
 * training loop, which spans forward, backward and the update (nonpt20). */
bool steps_darknet_line(const char *line, size_t len);

enum steps_trend {
    STEPS_TREND_TOO_FEW,   /* fewer than 3 points */
    STEPS_TREND_FALLING,
    STEPS_TREND_FLAT,
    STEPS_TREND_RISING,    /* memory: "growing" */
    STEPS_TREND_DIVERGING, /* loss: rising after falling / blowing up */
    STEPS_TREND_NAN,       /* loss: nan/inf seen */
    STEPS_TREND_NONE,      /* memory: no memory figure shown at all */
};

/* "too-few", "falling", "flat", "rising", "diverging", "nan", "none-shown";
 * for memory, RISING prints as "growing". */
const char *steps_trend_name(enum steps_trend t, bool memory);

struct steps_series {
    struct steps_point *points;
    size_t n, cap;
    double epoch;    /* the latest epoch any line showed (NaN: none yet) */
};

void steps_series_init(struct steps_series *s);
/* Keep points with a loss or a memory figure; 0 or -1 (out of memory).
 * Every parsed line may be passed. A step seen again (re-logged by another
 * rank, a bar redrawn after its loss updated) merges into that point (loss
 * from the later line, memory peaks the max); a lower (epoch, step) than the
 * last means the run restarted or resumed, and the points from that step on
 * are dropped. A line with no step that fills a gap of the last point (its
 * memory line, say) completes it. An epoch shown on its own line ("Epoch
 * 3/10") is given to the stepped points after it. Past 2^20 points
 * neighbours are merged pairwise, so memory stays bounded. */
int steps_series_add(struct steps_series *s, const struct steps_point *pt);
/* Loss: NAN as soon as any point's loss is nan/inf; TOO_FEW under 3 losses.
 * Otherwise the means of the first and last thirds are compared; a change
 * counts when it is at least 0.5% of the level and 2 standard errors of the
 * series' own noise (median |difference of neighbours|, robust to the trend
 * and to spikes). DIVERGING: the last third sits 10%+ (and significantly)
 * above the lowest k-window mean before it, after a significant fall, or at
 * twice the first third or more (a blow-up). Else FALLING / RISING / FLAT. */
enum steps_trend steps_loss_trend(const struct steps_series *s);
/* Memory: NONE when no point has a figure; the figure followed is reserved
 * if shown, else allocated, else unstated. FLAT with one point. RISING
 * ("growing") when the last third's mean exceeds, by 0.2%, the highest value
 * of the middle third (of all earlier values when there is none): warm-up
 * climbs, one-off steps and noisy per-step peaks stay FLAT. */
enum steps_trend steps_memory_trend(const struct steps_series *s);

/* The memory trend with its evidence (the leak report of run, table,
 * compare, diagnose and plan). Nothing allocated. */
struct steps_mem_trend {
    enum steps_trend trend;     /* NONE, FLAT or RISING, as steps_memory_trend */
    unsigned kind;              /* STEPS_PEAK_RESERVED/_ALLOC/STEPS_MEM followed; 0 none */
    size_t points;              /* points carrying that figure */
    int64_t first_bytes;        /* the figure at the first / last such point; -1 none */
    int64_t last_bytes;
    long first_step, last_step; /* their steps; -1 when the log gave none */
    double bytes_per_100_steps; /* growing: (last - first) * 100 / (last_step -
                                   first_step); NaN when the steps are unknown or
                                   equal, and when flat: a level is not a slope
                                   (one rise, then a plateau, is not growth) */
    int64_t level_bytes;        /* flat: the level the last third did not climb
                                   past (the highest figure before it); -1 none */
    long level_step;            /* the step that first reached it; -1 unknown */
};
void steps_memory_trend_of(const struct steps_series *s, struct steps_mem_trend *t);
/* "growing: 13.70 -> 22.30 GB over steps 1-147 (+5.85 GB per 100 steps)",
 * "flat: 6.00 -> 7.00 GB over steps 1-20 (7.00 GB by step 11, no climb past
 * it in the last third)", "flat: 8.40 -> 8.40 GB over steps 1-20", "none-shown" (GB = GiB, as the ledger's). snprintf-like:
 * returns the length it needed. */
size_t steps_memory_trend_format(const struct steps_mem_trend *t, char *buf, size_t size);
/* Highest peak_alloc / peak_reserved seen, -1 when none. */
int64_t steps_max_peak_alloc(const struct steps_series *s);
int64_t steps_max_peak_reserved(const struct steps_series *s);
void steps_series_release(struct steps_series *s);

#endif
