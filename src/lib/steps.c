/* steps: placeholder until the step/loss parser lands: sees nothing. */
#include "lib/steps.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

unsigned steps_parse_line(const char *line, size_t len, struct steps_point *pt)
{
    memset(pt, 0, sizeof *pt);
    pt->step = -1;
    pt->epoch = pt->loss = NAN;
    pt->peak_alloc = pt->peak_reserved = pt->mem = -1;
    return 0;
}
const char *steps_trend_name(enum steps_trend t, bool memory) { return "too-few"; }
void steps_series_init(struct steps_series *s) { memset(s, 0, sizeof *s); }
int steps_series_add(struct steps_series *s, const struct steps_point *pt) { return 0; }
enum steps_trend steps_loss_trend(const struct steps_series *s) { return STEPS_TREND_TOO_FEW; }
enum steps_trend steps_memory_trend(const struct steps_series *s) { return STEPS_TREND_NONE; }
int64_t steps_max_peak_alloc(const struct steps_series *s) { return -1; }
int64_t steps_max_peak_reserved(const struct steps_series *s) { return -1; }
void steps_series_release(struct steps_series *s) { free(s->points); memset(s, 0, sizeof *s); }
