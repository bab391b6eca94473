/* procstat: /proc text parsers (see procstat.h). The command name in stat
 * is untrusted (any bytes but NUL, ')' included), so the fields are found
 * after the last ')'. */
#include "lib/procstat.h"
#include "lib/strbuf.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Next space-separated field in [*p, end) as a NUL-terminated copy. */
static int next_field(const char **p, const char *end, char *field, size_t size)
{
    while (*p < end && **p == ' ')
        (*p)++;
    size_t n = 0;
    while (*p < end && **p != ' ' && **p != '\n') {
        if (n + 1 >= size) return -1;
        field[n++] = *(*p)++;
    }
    field[n] = '\0';
    return n ? 0 : -1;
}

static int to_ll(const char *s, long long *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno || end == s || *end) return -1;
    *v = x;
    return 0;
}

static int to_ull(const char *s, unsigned long long *v)
{
    if (*s == '-') return -1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || end == s || *end) return -1;
    *v = x;
    return 0;
}

int procstat_parse(const char *buf, size_t len, struct procstat *out)
{
    memset(out, 0, sizeof *out);
    out->rss_pages = out->cpu_ticks = -1;
    const char *open = memchr(buf, '(', len), *close = NULL;
    for (size_t i = len; i > 0; i--)
        if (buf[i - 1] == ')') {
            close = buf + i - 1;
            break;
        }
    if (!open || !close || close < open) return -1;
    char field[32];
    const char *p = buf, *end = buf + len;
    long long v;
    if (next_field(&p, open, field, sizeof field) < 0 || to_ll(field, &v) < 0 || v <= 0) return -1;
    out->pid = (long)v;
    size_t clen = (size_t)(close - open - 1);
    if (clen >= sizeof out->comm) clen = sizeof out->comm - 1;
    memcpy(out->comm, open + 1, clen);
    out->comm[clen] = '\0';
    procstat_clean(out->comm);
    p = close + 1;
    unsigned long long utime = 0, stime = 0;
    bool cpu_ok = true;
    /* field 3 onwards */
    for (int f = 3; f <= 24; f++) {
        if (next_field(&p, end, field, sizeof field) < 0) return f > 22 ? 0 : -1;
        if (f == 3) {
            if (strlen(field) != 1) return -1;
            out->state = field[0];
        } else if (f == 4) {
            if (to_ll(field, &v) < 0 || v < 0) return -1;
            out->ppid = (long)v;
        } else if (f == 14 || f == 15) {
            cpu_ok = cpu_ok && to_ull(field, f == 14 ? &utime : &stime) == 0;
        } else if (f == 22) {
            if (cpu_ok && utime <= (unsigned long long)INT64_MAX / 2 &&
                stime <= (unsigned long long)INT64_MAX / 2)
                out->cpu_ticks = (long long)(utime + stime);
            if (to_ull(field, &out->start_ticks) < 0) return -1;
        } else if (f == 24) {
            if (to_ll(field, &v) == 0 && v >= 0) out->rss_pages = v;
        }
    }
    return 0;
}

static bool unsafe_code_point(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

size_t procstat_clean(char *s)
{
    size_t n = strlen(s), w = 0;
    for (size_t r = 0; r < n;) {
        uint32_t cp = 0;
        size_t len = strbuf_utf8_seq((const unsigned char *)s + r, n - r, &cp);
        if (len == 0 || unsafe_code_point(cp)) {
            s[w++] = '?';
            r += len ? len : 1;
            continue;
        }
        memmove(s + w, s + r, len);
        w += len, r += len;
    }
    s[w] = '\0';
    return w;
}

int procstat_clip(const char *s, size_t max)
{
    size_t n = strnlen(s, max + 1);
    if (n <= max) return (int)n;
    n = max;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--; /* s[n] continues a character: cut before that character */
    return (int)n;
}

size_t procstat_cmdline(const char *raw, size_t len, char *out, size_t size)
{
    if (!size) return 0;
    while (len && raw[len - 1] == '\0')
        len--; /* the trailing NUL(s) */
    size_t n = 0;
    for (size_t i = 0; i < len && n + 1 < size; i++)
        out[n++] = raw[i] == '\0' ? ' ' : raw[i];
    if (n < len) /* cut: do not leave half a character to become '?' */
        while (n > 0 && ((unsigned char)raw[n] & 0xC0) == 0x80)
            n--;
    out[n] = '\0';
    return procstat_clean(out);
}

double procstat_uptime(const char *buf, size_t len)
{
    char tmp[64];
    size_t n = len < sizeof tmp - 1 ? len : sizeof tmp - 1;
    memcpy(tmp, buf, n);
    tmp[n] = '\0';
    char *end;
    errno = 0;
    double v = strtod(tmp, &end);
    if (errno || end == tmp || !(v >= 0 && v < 1e12)) return -1;
    return v;
}
