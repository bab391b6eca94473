/* json: streaming writer (see json.h). Commas and indentation are tracked
 * per nesting level so callers never emit separators themselves. */
#include "render/json.h"
#include "lib/strbuf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void json_init(struct json *j, FILE *f, bool pretty)
{
    memset(j, 0, sizeof *j);
    j->f = f;
    j->pretty = pretty;
    j->first[0] = true;
}

static void indent(struct json *j)
{
    if (!j->pretty) return;
    fputc('\n', j->f);
    for (int i = 0; i < j->depth; i++) fputs("  ", j->f);
}

static void before_value(struct json *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (j->depth > 0) {
        if (!j->first[j->depth]) fputc(',', j->f);
        indent(j);
    }
    j->first[j->depth] = false;
}

static void open(struct json *j, char c)
{
    before_value(j);
    fputc(c, j->f);
    if (j->depth < JSON_MAX_DEPTH - 1) j->depth++;
    j->first[j->depth] = true;
}

static void close_(struct json *j, char c)
{
    bool empty = j->first[j->depth];
    if (j->depth > 0) j->depth--;
    if (!empty) indent(j);
    fputc(c, j->f);
}

void json_obj_begin(struct json *j) { open(j, '{'); }
void json_obj_end(struct json *j) { close_(j, '}'); }
void json_arr_begin(struct json *j) { open(j, '['); }
void json_arr_end(struct json *j) { close_(j, ']'); }

static void write_escaped(FILE *f, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc(c, f);
            i++;
        } else if (c < 0x20 || c == 0x7F) {
            fprintf(f, "\\u%04x", c);
            i++;
        } else {
            size_t start = i, l; /* one fwrite per run of text that needs no escape */
            while (i < n && p[i] != '"' && p[i] != '\\' && p[i] >= 0x20 && p[i] != 0x7F &&
                   (l = strbuf_utf8_seq(p + i, n - i, NULL)) > 0)
                i += l;
            if (i > start) fwrite(p + start, 1, i - start, f);
            else fputs("\\ufffd", f), i++;
        }
    }
    fputc('"', f);
}

void json_key(struct json *j, const char *key)
{
    before_value(j);
    write_escaped(j->f, key, strlen(key));
    fputs(j->pretty ? ": " : ":", j->f);
    j->after_key = true;
}

void json_strn(struct json *j, const char *s, size_t n)
{
    before_value(j);
    write_escaped(j->f, s, n);
}

void json_str(struct json *j, const char *s)
{
    if (!s) {
        json_null(j);
        return;
    }
    json_strn(j, s, strlen(s));
}

void json_int(struct json *j, long long v)
{
    before_value(j);
    fprintf(j->f, "%lld", v);
}

void json_bytes(struct json *j, int64_t v)
{
    if (v < 0) json_null(j);
    else json_int(j, (long long)v);
}

void json_double(struct json *j, double v)
{
    if (!isfinite(v)) {
        json_null(j);
        return;
    }
    before_value(j);
    /* Shortest form that reads back as the same double: 19.8, not
     * 19.800000000000001. */
    char buf[32];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    fputs(buf, j->f);
}

void json_bool(struct json *j, bool v)
{
    before_value(j);
    fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j)
{
    before_value(j);
    fputs("null", j->f);
}

int json_finish(struct json *j)
{
    fputc('\n', j->f);
    if (fflush(j->f) != 0 || ferror(j->f)) return -1;
    return 0;
}
