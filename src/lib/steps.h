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
 * fields found (0 when the line says nothing about progress). */
unsigned steps_parse_line(const char *line, size_t len, struct steps_point *pt);

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
};

void steps_series_init(struct steps_series *s);
/* Keep points with a loss or a memory figure; 0 or -1 (out of memory). */
int steps_series_add(struct steps_series *s, const struct steps_point *pt);
enum steps_trend steps_loss_trend(const struct steps_series *s);
enum steps_trend steps_memory_trend(const struct steps_series *s);
/* Highest peak_alloc / peak_reserved seen, -1 when none. */
int64_t steps_max_peak_alloc(const struct steps_series *s);
int64_t steps_max_peak_reserved(const struct steps_series *s);
void steps_series_release(struct steps_series *s);

#endif
