/* promlint: a syntax check of Prometheus text format in the spirit of
 * `promtool check metrics`: metric and label names, HELP/TYPE lines (at
 * most one each per family, before its samples, a known type), label
 * escaping, numeric values, families not interleaved, every sampled family
 * typed, and one sample per series. Used by the tests on `watch --prom`
 * output. Allocates only while checking. */
#ifndef OOMLAB_PROMLINT_H
#define OOMLAB_PROMLINT_H

#include <stddef.h>

#include "lib/err.h"

/* 0 when text (len bytes) is valid; -1 with "NAME:LINE:COL: why" in err,
 * NAME being the file name given for messages. *samples (may be NULL)
 * gets the number of sample lines. */
int promlint_check(const char *name, const char *text, size_t len, size_t *samples,
                   struct oomlab_err *err);

#endif
