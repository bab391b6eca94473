/* bars: per-run peak memory as horizontal bars for a terminal (`oomlab
 * table --plot`): one line per run, the bar scaled to the largest peak or
 * capacity shown, the card's capacity marked with '|', a lower bound said
 * (">="), an unknown peak drawn as no bar and the word "unknown", an OOM
 * named. UTF-8 eighth blocks, or '#' when the terminal is not UTF-8.
 * Writes to the caller's stream; no allocation. */
#ifndef OOMLAB_BARS_H
#define OOMLAB_BARS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lib/ledger.h"

struct bars_row {
    const char *label;
    double peak_gib;     /* NaN unknown */
    bool lower_bound;    /* the peak is at least this */
    double capacity_gib; /* NaN unknown */
    bool oom;
};

/* width: the terminal's columns (0: 80). Returns 0, or -1 on a write error. */
int bars_render(FILE *f, const struct bars_row *rows, size_t n, size_t width, bool utf8);

/* The ledger's runs (those named in ids, in ledger order; every run when
 * n_ids is 0) as bars. */
int bars_ledger(FILE *f, const struct ledger *lg, char *const *ids, size_t n_ids, size_t width, bool utf8);

#endif
