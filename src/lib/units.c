/* units: parsing and printing of sizes, durations and percentages, and
 * checked int64 arithmetic. Table-driven: one row per unit spelling. */
#include "lib/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct unit_rule {
    const char *label; /* case-sensitive spelling as printed by tools */
    int power;         /* multiplier exponent */
    bool binary;       /* always 1024-based */
};

/* Longest spellings first so "MiB" wins over "M". */
static const struct unit_rule unit_rules[] = {
    {"bytes", 0, true}, {"byte", 0, true},  {"EiB", 6, true},   {"PiB", 5, true},
    {"TiB", 4, true},   {"GiB", 3, true},   {"MiB", 2, true},   {"KiB", 1, true},
    {"kiB", 1, true},   {"EB", 6, false},   {"PB", 5, false},   {"TB", 4, false},
    {"GB", 3, false},   {"MB", 2, false},   {"KB", 1, false},   {"kB", 1, false},
    {"Gb", 3, false},   {"Mb", 2, false},   {"Kb", 1, false},   {"T", 4, false},
    {"G", 3, false},    {"M", 2, false},    {"K", 1, false},    {"k", 1, false},
    {"B", 0, true},
};

static size_t parse_number(const char *s, size_t len, long double *val)
{
    char tmp[64];
    size_t n = 0;
    while (n < len && n < sizeof tmp - 1 &&
           (isdigit((unsigned char)s[n]) || s[n] == '.' || s[n] == ',' ||
            ((s[n] == 'e' || s[n] == 'E') && n > 0 && n + 1 < len &&
             (isdigit((unsigned char)s[n + 1]) || s[n + 1] == '+' || s[n + 1] == '-')) ||
            ((s[n] == '+' || s[n] == '-') && n > 0 && (s[n - 1] == 'e' || s[n - 1] == 'E'))))
        n++;
    while (n > 0 && s[n - 1] == ',') n--; /* a trailing comma is punctuation */
    if (n == 0 || !isdigit((unsigned char)s[0])) return 0;
    /* A comma is a thousands separator ("1,024") unless it is the number's
     * only separator mark and one or two digits follow it: then it is a
     * decimal comma, as printf writes under a German or French locale
     * ("failed to allocate 1900,00 MiB of pinned memory",
     * ggml-org/llama.cpp#9629). */
    size_t dec = n, commas = 0;
    bool dot = false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '.') dot = true;
        if (s[i] != ',') continue;
        size_t d = 0;
        while (i + 1 + d < n && isdigit((unsigned char)s[i + 1 + d])) d++;
        if (d == 1 || d == 2) dec = i;
        commas++;
    }
    if (dot || commas != 1) dec = n;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] != ',' || i == dec) tmp[k++] = i == dec ? '.' : s[i];
    tmp[k] = '\0';
    char *end = NULL;
    errno = 0;
    *val = strtold(tmp, &end);
    if (end == tmp) return 0;
    /* Give back characters strtold did not use (e.g. a trailing "."). */
    size_t used = (size_t)(end - tmp), back = k - used;
    size_t consumed = n;
    while (back > 0 && consumed > 0) {
        if (s[consumed - 1] != ',' || consumed - 1 == dec) back--;
        consumed--;
    }
    return consumed;
}

static int64_t to_bytes(long double v, bool *saturated)
{
    if (!(v >= 0)) v = 0;
    if (v >= 9.2233720368547758e18L) {
        if (saturated) *saturated = true;
        return INT64_MAX;
    }
    return (int64_t)llroundl(v);
}

size_t units_parse_size(const char *s, size_t len, enum units_base base, int64_t *bytes,
                        bool *saturated)
{
    size_t i = 0;
    if (saturated) *saturated = false;
    while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
    long double v;
    size_t n = parse_number(s + i, len - i, &v);
    if (n == 0) return 0;
    i += n;
    size_t j = i;
    while (j < len && s[j] == ' ') j++;
    for (size_t r = 0; r < sizeof unit_rules / sizeof unit_rules[0]; r++) {
        const struct unit_rule *u = &unit_rules[r];
        size_t ul = strlen(u->label);
        if (j + ul > len || memcmp(s + j, u->label, ul) != 0) continue;
        /* A unit is a whole word: "GPU" must not read as "G". */
        if (j + ul < len && isalpha((unsigned char)s[j + ul])) continue;
        long double mult = (u->binary || base == UNITS_KB_IS_1024) ? 1024.0L : 1000.0L;
        for (int p = 0; p < u->power; p++) v *= mult;
        *bytes = to_bytes(v, saturated);
        return j + ul;
    }
    *bytes = to_bytes(v, saturated); /* bare number: bytes */
    return i;
}

int units_parse_size_arg(const char *s, int64_t *bytes)
{
    if (!s) return -1;
    size_t len = strlen(s);
    bool sat = false;
    int64_t b;
    size_t n = units_parse_size(s, len, UNITS_KB_IS_1000, &b, &sat);
    if (n == 0 || n != len || sat) return -1;
    *bytes = b;
    return 0;
}

bool units_size_arg_bare_small(const char *s, int64_t bytes)
{
    if (!s || !*s || bytes <= 0 || bytes >= ((int64_t)1 << 20)) return false;
    return strspn(s, "0123456789.") == strlen(s);
}

/* Units a duration may carry, in milliseconds; "" is the bare number. */
static const struct {
    const char *suffix;
    int64_t ms;
} duration_units[] = {{"ms", 1}, {"s", 1000}, {"m", 60000}, {"h", 3600000}, {"d", 86400000}, {"", 1000}};
/* (timeout(1) reads d for days too; a cluster job's limit is in days:
 * sbatch --time=2-00:00:00) */

/* Digits, at most one '.', at least one digit: the length read, or 0. */
static size_t duration_number(const char *s, long double *v)
{
    long double whole = 0, frac = 0, scale = 1;
    size_t i = 0, digits = 0;
    bool dot = false;
    for (; s[i]; i++) {
        if (s[i] == '.' && !dot) {
            dot = true;
            continue;
        }
        if (s[i] < '0' || s[i] > '9') break;
        if (++digits > 30) return 0; /* beyond any sane duration, and long double's digits */
        if (dot)
            frac += (s[i] - '0') * (scale /= 10);
        else
            whole = whole * 10 + (s[i] - '0');
    }
    *v = whole + frac;
    return digits ? i : 0;
}

int units_parse_duration_ms(const char *s, int64_t *ms)
{
    long double v;
    size_t n = s ? duration_number(s, &v) : 0;
    if (n == 0) return -1;
    for (size_t r = 0; r < sizeof duration_units / sizeof duration_units[0]; r++) {
        if (strcmp(s + n, duration_units[r].suffix) != 0) continue;
        long double t = v * (long double)duration_units[r].ms;
        if (t > (long double)UNITS_DURATION_MAX_MS) return -1;
        *ms = (int64_t)llroundl(t);
        return 0;
    }
    return -1;
}

const char *units_format_duration_ms(int64_t ms, char *buf, size_t size)
{
    for (size_t r = 4; ms > 0 && r > 0; r--) /* d, h, m, s: the largest exact one */
        if (ms % duration_units[r].ms == 0) {
            snprintf(buf, size, "%lld%s", (long long)(ms / duration_units[r].ms),
                     duration_units[r].suffix);
            return buf;
        }
    snprintf(buf, size, "%lldms", (long long)ms);
    return buf;
}

/* Written as a duration (digits, at most one '.', a unit) whatever its
 * size: "99999999999h" is too long, not "not a duration". */
static bool duration_shaped(const char *s)
{
    size_t n = strspn(s, "0123456789."), dots = 0, digits = 0;
    for (size_t i = 0; i < n; i++) dots += s[i] == '.', digits += s[i] != '.';
    for (size_t r = 0; digits && dots <= 1 && r < sizeof duration_units / sizeof duration_units[0]; r++)
        if (!strcmp(s + n, duration_units[r].suffix)) return true;
    return false;
}

/* Written as a combination of units, largest first ("1h30m", "2m30s",
 * "1d12h"), which is not accepted: the sum in ms, or -1. */
static int64_t duration_combination(const char *s)
{
    static const char units[] = "dhms";                                     /* then ms */
    static const int64_t unit_ms[] = {86400000, 3600000, 60000, 1000, 1}; /* d h m s ms */
    long double sum = 0;
    int parts = 0, last = -1;
    while (*s) {
        long double v;
        size_t n = duration_number(s, &v);
        if (n == 0) return -1;
        s += n;
        const char *at = *s ? strchr(units, *s) : NULL;
        int u = s[0] == 'm' && s[1] == 's' ? 4 : at ? (int)(at - units) : -1;
        if (u <= last) return -1; /* a unit on every part, each smaller than the one before */
        s += u == 4 ? 2 : 1;
        sum += v * (long double)unit_ms[u];
        last = u;
        parts++;
    }
    return parts >= 2 && sum >= 1 && sum <= (long double)UNITS_DURATION_MAX_MS ? (int64_t)llroundl(sum) : -1;
}

int units_duration_arg(const char *flag, const char *s, int64_t min_ms, int64_t max_ms,
                       int64_t *ms, struct oomlab_err *err)
{
    int64_t v;
    char lim[32];
    bool parsed = units_parse_duration_ms(s, &v) == 0;
    if (!parsed && s && duration_shaped(s))
        return oomlab_err_set(err, "%s '%s': at most %s", flag, s,
                              units_format_duration_ms(max_ms < UNITS_DURATION_MAX_MS ? max_ms : UNITS_DURATION_MAX_MS,
                                                       lim, sizeof lim));
    if (!parsed) {
        v = s ? duration_combination(s) : -1;
        if (v <= 0)
            return oomlab_err_set(err,
                                  "%s '%s': expected a duration such as " UNITS_DURATION_EXAMPLES
                                  " (a bare number is seconds; see DURATIONS in oomlab(1))",
                                  flag, s ? s : "");
    }
    /* a combination's one-unit spelling only where that is taken: out of
     * the flag's range, the range is what to say ("--interval '1h30m': at
     * most 1h", not "write 90m", refused next) (review25) */
    if (v < min_ms)
        return oomlab_err_set(err, "%s '%s': at least %s", flag, s,
                              units_format_duration_ms(min_ms, lim, sizeof lim));
    if (v > max_ms)
        return oomlab_err_set(err, "%s '%s': at most %s", flag, s,
                              units_format_duration_ms(max_ms, lim, sizeof lim));
    if (!parsed)
        return oomlab_err_set(err, "%s '%s': one unit only: write %s (see DURATIONS in oomlab(1))", flag, s,
                              units_format_duration_ms(v, lim, sizeof lim));
    *ms = v;
    return 0;
}

int units_parse_percent(const char *s, double *pct)
{
    if (!s || !*s) return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || !isfinite(v) || v < 0) return -1;
    if (*end == '%' && end[1] == '\0') {
    } else if (*end == '\0') {
        if (v < 1) v *= 100; /* 0.15 means 15% */
    } else {
        return -1;
    }
    if (v > 100) return -1;
    *pct = v;
    return 0;
}

int units_parse_int(const char *s, long long min, long long max, long long *out)
{
    if (!s || !*s) return -1;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end != '\0' || end == s || v < min || v > max) return -1;
    *out = v;
    return 0;
}

const char *units_format_bytes(int64_t bytes, char *buf, size_t size)
{
    static const char *labels[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (bytes < 0) {
        snprintf(buf, size, "unknown");
        return buf;
    }
    if (bytes < 1024) {
        snprintf(buf, size, "%lld B", (long long)bytes);
        return buf;
    }
    long double v = (long double)bytes;
    int i = 0;
    while (v >= 1024 && i < 6) {
        v /= 1024;
        i++;
    }
    snprintf(buf, size, "%.2Lf %s", v, labels[i]);
    return buf;
}

bool units_add(int64_t a, int64_t b, int64_t *out)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) return false;
    *out = r;
    return true;
}

bool units_mul(int64_t a, int64_t b, int64_t *out)
{
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) return false;
    *out = r;
    return true;
}
