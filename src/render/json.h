/* json: a small streaming JSON writer for --json output.
 * The writer keeps only a nesting stack; the caller owns the FILE*.
 * Unknown values are written as null (json_null / json_int with UNITS_UNKNOWN
 * via json_bytes), never as 0. Strings are escaped as UTF-8-safe JSON:
 * invalid UTF-8 bytes become U+FFFD so output always parses. */
#ifndef OOMLAB_JSON_H
#define OOMLAB_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json {
    FILE *f;
    int depth;
    bool first[JSON_MAX_DEPTH];
    bool after_key;
    bool pretty;
};

void json_init(struct json *j, FILE *f, bool pretty);
void json_obj_begin(struct json *j);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j);
void json_arr_end(struct json *j);
void json_key(struct json *j, const char *key);
void json_str(struct json *j, const char *s);       /* NULL -> null */
void json_strn(struct json *j, const char *s, size_t n);
void json_int(struct json *j, long long v);
void json_bytes(struct json *j, int64_t v);          /* negative -> null */
void json_double(struct json *j, double v);          /* NaN/inf -> null */
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/* Ends the document with a newline; returns -1 if any write failed. */
int json_finish(struct json *j);

#endif
