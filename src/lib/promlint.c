/* promlint: Prometheus text format checker (see promlint.h). One pass over
 * the lines keeps the families seen; series keys (name + sorted labels)
 * are collected and sorted at the end to find repeats. */
#include "lib/promlint.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"

#define NAME_MAX_LEN 200
#define LABELS_MAX 32
#define SERIES_MAX 200000

struct family {
    char name[NAME_MAX_LEN + 1];
    char type[16];
    bool helped, sampled, closed;
};

struct series {
    char *key;
    long line;
};

struct lint {
    const char *file;
    struct family *fam;
    size_t n_fam, cap_fam;
    struct series *ser;
    size_t n_ser, cap_ser;
    long current; /* index of the family whose lines come now; -1 none */
    size_t samples;
    struct oomlab_err *err;
};

static bool first_ch(char c, bool colon)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colon && c == ':');
}

static bool next_ch(char c, bool colon)
{
    return first_ch(c, colon) || (c >= '0' && c <= '9');
}

/* A name at s[*i]; copied into out. */
static bool take_name(const char *s, size_t len, size_t *i, bool colon, char *out)
{
    size_t start = *i;
    if (*i >= len || !first_ch(s[*i], colon)) return false;
    while (*i < len && next_ch(s[*i], colon))
        (*i)++;
    if (*i - start > NAME_MAX_LEN) return false;
    memcpy(out, s + start, *i - start);
    out[*i - start] = '\0';
    return true;
}

static struct family *find(struct lint *l, const char *name, long *index)
{
    for (size_t k = 0; k < l->n_fam; k++)
        if (!strcmp(l->fam[k].name, name)) {
            if (index) *index = (long)k;
            return &l->fam[k];
        }
    return NULL;
}

static struct family *add_family(struct lint *l, const char *name)
{
    if (l->n_fam == l->cap_fam) {
        struct family *g = strbuf_grow(l->fam, &l->cap_fam, l->n_fam + 1, sizeof *g, SIZE_MAX);
        if (!g) return NULL;
        l->fam = g;
    }
    struct family *f = &l->fam[l->n_fam++];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    return f;
}

/* Make family idx the current one; the previous one is closed. */
static void switch_to(struct lint *l, long idx)
{
    if (l->current >= 0 && l->current != idx) l->fam[l->current].closed = true;
    l->current = idx;
}

static int meta(struct lint *l, const char *s, size_t len, long line)
{
    bool help = len > 7 && !strncmp(s, "# HELP ", 7), type = len > 7 && !strncmp(s, "# TYPE ", 7);
    if (!help && !type) return 0; /* any other comment */
    size_t i = 7;
    char name[NAME_MAX_LEN + 1];
    if (!take_name(s, len, &i, true, name))
        return oomlab_err_at(l->err, l->file, line, (long)i + 1, "bad metric name in %s line",
                             help ? "HELP" : "TYPE");
    long idx;
    struct family *f = find(l, name, &idx);
    if (!f) {
        if (!(f = add_family(l, name))) return oomlab_err_set(l->err, "out of memory");
        idx = (long)l->n_fam - 1;
    }
    if (f->closed || f->sampled)
        return oomlab_err_at(l->err, l->file, line, 1, "%s for %s after its samples",
                             help ? "HELP" : "TYPE", name);
    if (help ? f->helped : f->type[0] != '\0')
        return oomlab_err_at(l->err, l->file, line, 1, "second %s line for %s",
                             help ? "HELP" : "TYPE", name);
    switch_to(l, idx);
    if (help) {
        if (i < len && s[i] != ' ')
            return oomlab_err_at(l->err, l->file, line, (long)i + 1,
                                 "HELP name must be followed by a space");
        for (size_t k = i; k < len; k++) {
            if (s[k] != '\\') continue;
            if (k + 1 >= len || (s[k + 1] != '\\' && s[k + 1] != 'n'))
                return oomlab_err_at(l->err, l->file, line, (long)k + 1, "bad escape in HELP text");
            k++;
        }
        f->helped = true;
        return 0;
    }
    static const char *const types[] = {"counter", "gauge", "histogram", "summary", "untyped"};
    if (i >= len || s[i] != ' ')
        return oomlab_err_at(l->err, l->file, line, (long)i + 1, "TYPE needs a type");
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        if (len - i - 1 == strlen(types[t]) && !strncmp(s + i + 1, types[t], strlen(types[t]))) {
            snprintf(f->type, sizeof f->type, "%s", types[t]);
            return 0;
        }
    return oomlab_err_at(l->err, l->file, line, (long)i + 2, "unknown TYPE '%.*s'",
                         (int)(len - i - 1), s + i + 1);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* {a="x",b="y"} at s[*i]; appends the sorted pairs to key. */
static int labels(struct lint *l, const char *s, size_t len, size_t *i, long line, char *key,
                  size_t keysize)
{
    char *pairs[LABELS_MAX];
    size_t n = 0;
    int rc = 0;
    (*i)++; /* '{' */
    while (rc == 0 && *i < len && s[*i] != '}') {
        char name[NAME_MAX_LEN + 1];
        size_t col = *i;
        if (n == LABELS_MAX)
            rc = oomlab_err_at(l->err, l->file, line, (long)col + 1, "too many labels");
        else if (!take_name(s, len, i, false, name) || !strncmp(name, "__", 2))
            rc = oomlab_err_at(l->err, l->file, line, (long)col + 1, "bad label name");
        else if (*i + 1 >= len || s[*i] != '=' || s[*i + 1] != '"')
            rc = oomlab_err_at(l->err, l->file, line, (long)*i + 1, "expected =\" after label %s",
                               name);
        if (rc) break;
        *i += 2;
        size_t vstart = *i;
        while (*i < len && s[*i] != '"') {
            if (s[*i] == '\\') {
                if (*i + 1 >= len || !strchr("\\\"n", s[*i + 1])) {
                    rc = oomlab_err_at(l->err, l->file, line, (long)*i + 1,
                                       "bad escape in label value");
                    break;
                }
                (*i)++;
            }
            (*i)++;
        }
        if (rc) break;
        if (*i >= len) {
            rc = oomlab_err_at(l->err, l->file, line, (long)vstart, "unterminated label value");
            break;
        }
        size_t plen = strlen(name) + (*i - vstart) + 3;
        char *pair = malloc(plen);
        if (!pair) {
            rc = oomlab_err_set(l->err, "out of memory");
            break;
        }
        snprintf(pair, plen, "%s=%.*s", name, (int)(*i - vstart), s + vstart);
        for (size_t k = 0; k < n && rc == 0; k++)
            if (!strncmp(pairs[k], name, strlen(name)) && pairs[k][strlen(name)] == '=')
                rc = oomlab_err_at(l->err, l->file, line, (long)col + 1, "label %s repeated", name);
        pairs[n++] = pair;
        (*i)++; /* closing quote */
        if (rc == 0 && *i < len && s[*i] == ',')
            (*i)++;
        else if (rc == 0 && (*i >= len || s[*i] != '}'))
            rc = oomlab_err_at(l->err, l->file, line, (long)*i + 1, "expected , or } in labels");
    }
    if (rc == 0 && *i >= len)
        rc = oomlab_err_at(l->err, l->file, line, (long)*i, "unterminated labels");
    (*i)++;
    qsort(pairs, n, sizeof *pairs, cmp_str);
    for (size_t k = 0; k < n; k++) {
        size_t used = strlen(key);
        snprintf(key + used, keysize - used, "\x1f%s", pairs[k]);
        free(pairs[k]);
    }
    return rc;
}

/* Go's ParseFloat as Prometheus accepts it, kept strict: decimal or NaN/Inf. */
static bool number(const char *s, size_t len)
{
    if (len && (s[0] == '+' || s[0] == '-')) s++, len--;
    if ((len == 3 && (!strncmp(s, "Inf", 3) || !strncmp(s, "NaN", 3))) ||
        (len == 8 && !strncmp(s, "Infinity", 8)))
        return true;
    size_t i = 0, digits = 0;
    while (i < len && s[i] >= '0' && s[i] <= '9')
        i++, digits++;
    if (i < len && s[i] == '.') {
        i++;
        while (i < len && s[i] >= '0' && s[i] <= '9')
            i++, digits++;
    }
    if (!digits) return false;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-')) i++;
        size_t e = i;
        while (i < len && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == e) return false;
    }
    return i == len;
}

static struct family *family_of(struct lint *l, const char *name, long *idx)
{
    struct family *f = find(l, name, idx);
    if (f) return f;
    static const char *const suffixes[] = {"_bucket", "_sum", "_count"};
    for (size_t k = 0; k < 3; k++) {
        size_t n = strlen(name), sl = strlen(suffixes[k]);
        if (n <= sl || strcmp(name + n - sl, suffixes[k])) continue;
        char base[NAME_MAX_LEN + 1];
        snprintf(base, sizeof base, "%.*s", (int)(n - sl), name);
        f = find(l, base, idx);
        if (f && (!strcmp(f->type, "histogram") || !strcmp(f->type, "summary"))) return f;
    }
    return NULL;
}

static int sample(struct lint *l, const char *s, size_t len, long line)
{
    size_t i = 0;
    char name[NAME_MAX_LEN + 1], key[4096];
    if (!take_name(s, len, &i, true, name))
        return oomlab_err_at(l->err, l->file, line, 1, "bad metric name");
    snprintf(key, sizeof key, "%s", name);
    if (i < len && s[i] == '{' && labels(l, s, len, &i, line, key, sizeof key) < 0) return -1;
    if (i >= len || (s[i] != ' ' && s[i] != '\t'))
        return oomlab_err_at(l->err, l->file, line, (long)i + 1,
                             "expected a space before the value");
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    size_t v = i;
    while (i < len && s[i] != ' ' && s[i] != '\t')
        i++;
    if (!number(s + v, i - v))
        return oomlab_err_at(l->err, l->file, line, (long)v + 1, "value '%.*s' is not a number",
                             (int)(i - v), s + v);
    if (i < len) { /* optional timestamp: integer milliseconds */
        while (i < len && (s[i] == ' ' || s[i] == '\t'))
            i++;
        size_t t = i + (i < len && s[i] == '-');
        size_t d = t;
        while (d < len && s[d] >= '0' && s[d] <= '9')
            d++;
        if (d == t || d != len)
            return oomlab_err_at(l->err, l->file, line, (long)i + 1, "junk after the value");
    }
    long idx;
    struct family *f = family_of(l, name, &idx);
    if (!f || !f->type[0])
        return oomlab_err_at(l->err, l->file, line, 1, "%s has no TYPE line before it", name);
    if (f->closed)
        return oomlab_err_at(l->err, l->file, line, 1, "samples of %s are not grouped together",
                             f->name);
    switch_to(l, idx);
    f->sampled = true;
    if (l->n_ser == SERIES_MAX) return oomlab_err_at(l->err, l->file, line, 1, "too many series");
    if (l->n_ser == l->cap_ser) {
        struct series *g = strbuf_grow(l->ser, &l->cap_ser, l->n_ser + 1, sizeof *g, SERIES_MAX);
        if (!g) return oomlab_err_set(l->err, "out of memory");
        l->ser = g;
    }
    char *k = strdup(key);
    if (!k) return oomlab_err_set(l->err, "out of memory");
    l->ser[l->n_ser++] = (struct series){k, line};
    l->samples++;
    return 0;
}

static int cmp_series(const void *a, const void *b)
{
    const struct series *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

static int duplicates(struct lint *l)
{
    if (l->n_ser < 2) return 0;
    qsort(l->ser, l->n_ser, sizeof *l->ser, cmp_series);
    for (size_t k = 1; k < l->n_ser; k++)
        if (!strcmp(l->ser[k].key, l->ser[k - 1].key))
            return oomlab_err_at(l->err, l->file, l->ser[k].line, 1,
                                 "series repeated (first on line %ld): one sample per series",
                                 l->ser[k - 1].line);
    return 0;
}

int promlint_check(const char *file, const char *text, size_t len, size_t *samples,
                   struct oomlab_err *err)
{
    struct lint l = {.file = file, .current = -1, .err = err};
    int rc = 0;
    long line = 1;
    if (len && text[len - 1] != '\n')
        rc = oomlab_err_set(err, "%s: the last line has no newline", file);
    for (size_t pos = 0; rc == 0 && pos < len; line++) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len;
        const char *s = text + pos;
        size_t n = end - pos;
        if (memchr(s, '\0', n))
            rc = oomlab_err_at(err, file, line, 1, "NUL byte");
        else if (n && s[0] == '#')
            rc = meta(&l, s, n, line);
        else if (n)
            rc = sample(&l, s, n, line);
        pos = end + 1;
    }
    if (rc == 0) rc = duplicates(&l);
    if (samples) *samples = l.samples;
    for (size_t k = 0; k < l.n_ser; k++)
        free(l.ser[k].key);
    free(l.ser);
    free(l.fam);
    return rc;
}
