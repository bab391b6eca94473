/* spark: a one-line sparkline of recent values for terminals. Values are
 * fractions in [0, 1] (used / total); a negative value is unknown and drawn
 * as a blank. UTF-8 block elements, or ASCII when the terminal is not UTF-8.
 * Writes into the caller's buffer; no allocation. */
#ifndef OOMLAB_SPARK_H
#define OOMLAB_SPARK_H

#include <stdbool.h>
#include <stddef.h>

/* Renders n values into buf (always NUL-terminated; stops when full).
 * Returns buf. */
const char *spark_render(const double *values, size_t n, bool utf8, char *buf, size_t size);

/* Whether LC_ALL / LC_CTYPE / LANG (first set wins) names UTF-8. */
bool spark_utf8_locale(void);

#endif
