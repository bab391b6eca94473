/* units: byte sizes, durations and percentages as users and logs write them,
 * with checked arithmetic. Byte counts are int64_t; UNITS_UNKNOWN (-1) means
 * "not stated" and is never printed as 0. Nothing here allocates. */
#ifndef OOMLAB_UNITS_H
#define OOMLAB_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"

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
/* A bare number (digits, no unit) under 1 MiB given as a memory size:
 * "--capacity 24" is 24 GiB to the person who typed it and 24 bytes to
 * units_parse_size_arg, so options refuse it and ask for a unit. */
bool units_size_arg_bare_small(const char *s, int64_t bytes);

/* Durations, one rule for every flag (oomlab(1), DURATIONS): digits with an
 * optional fraction ("0.5", ".5", "5.") and an optional unit, ms, s, m, h or d;
 * a bare number is seconds, as sleep(1) and timeout(1) read it. No sign,
 * exponent, blank or other unit. Rounded to the nearest millisecond; at most
 * UNITS_DURATION_MAX_MS. 0, or -1 when s is not such a duration. */
#define UNITS_DURATION_MAX_MS ((int64_t)1000000000000000) /* ~31,700 years */
int units_parse_duration_ms(const char *s, int64_t *ms);
/* The forms a duration takes, one of each unit, as every --help and error
 * says them (oomlab(1) DURATIONS says the same). */
#define UNITS_DURATION_EXAMPLES "90, 500ms, 30s, 10m, 1.5h or 2d"
#define UNITS_DURATION_HELP "DUR: " UNITS_DURATION_EXAMPLES "; a bare number is\nseconds (DURATIONS in oomlab(1)).\n"

/* A flag's duration within [min_ms, max_ms]: 0, or -1 with err saying what
 * was wrong, e.g. "--interval '5ms': at least 10ms" or "--timeout '1e3':
 * expected a duration such as 90, 500ms, 30s, 10m, 1.5h or 2d (a bare
 * number is seconds)"; a combination says its one-unit spelling, "--timeout
 * '1h30m': one unit only: write 90m". flag is the option as typed. */
int units_duration_arg(const char *flag, const char *s, int64_t min_ms, int64_t max_ms, int64_t *ms,
                       struct oomlab_err *err);

/* "250ms", "2s", "10m", "1h": the largest unit that states ms exactly, in a
 * spelling units_parse_duration_ms reads back; always NUL-terminated. */
const char *units_format_duration_ms(int64_t ms, char *buf, size_t size);

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
