/* units: byte sizes, durations and percentages as users and logs write them,
 * with checked arithmetic. Byte counts are int64_t; UNITS_UNKNOWN (-1) means
 * "not stated" and is never printed as 0. Nothing here allocates. */
#ifndef OOMLAB_UNITS_H
#define OOMLAB_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UNITS_UNKNOWN ((int64_t)-1)

/* How to read decimal-looking labels: PyTorch's CUDA allocator and most
 * tools print 1024-based values even when labelled "MB"/"GB". */
enum units_base { UNITS_KB_IS_1024, UNITS_KB_IS_1000 };

/* Parse "<number>[ ]<unit>" at s (len bytes, no NUL needed): units are
 * B, byte(s), KiB, MiB, GiB, TiB, PiB, EiB, KB/MB/GB/TB/PB (per base), K/M/G/T.
 * Leading blanks are skipped; the number may have a fraction and an
 * exponent. The result is rounded to the nearest byte and saturates at
 * INT64_MAX (*saturated set when non-NULL). Returns the count of bytes of s
 * consumed, or 0 when s does not start with a size. */
size_t units_parse_size(const char *s, size_t len, enum units_base base, int64_t *bytes,
                        bool *saturated);

/* Whole string must be a size ("80GiB", "24 GB", "1024"); a bare number is
 * bytes. Returns 0 or -1. Decimal labels are 1000-based here (user input). */
int units_parse_size_arg(const char *s, int64_t *bytes);

/* "500ms", "2s", "10m", "1h", "250" (ms) -> milliseconds. 0 or -1. */
int units_parse_duration_ms(const char *s, int64_t *ms);

/* "15%", "15", "0.15" (a fraction when < 1) -> percent in [0, 100]. 0 or -1. */
int units_parse_percent(const char *s, double *pct);

/* Strict decimal integer within [min, max] (strtoll, whole string). 0 or -1. */
int units_parse_int(const char *s, long long min, long long max, long long *out);

/* "1.50 GiB", "512 B", "unknown" for UNITS_UNKNOWN; always NUL-terminated. */
const char *units_format_bytes(int64_t bytes, char *buf, size_t size);

/* Checked arithmetic: return false on overflow and leave *out unchanged. */
bool units_add(int64_t a, int64_t b, int64_t *out);
bool units_mul(int64_t a, int64_t b, int64_t *out);

#endif
