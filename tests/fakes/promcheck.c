/* promcheck FILE...: the Prometheus text syntax check used by the e2e tests
 * on `oomlab watch --prom` output (lib/promlint: names, HELP/TYPE, label
 * escaping, grouping, one sample per series). Prints "FILE: N samples ok"
 * or the first error as FILE:LINE:COL; exit 0 when every file passes. */
#include <stdio.h>
#include <stdlib.h>

#include "lib/promlint.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (size_t r; buf && (r = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += r;
        if (n == cap && cap < (64u << 20)) {
            char *g = realloc(buf, cap *= 2);
            if (!g) free(buf);
            buf = g;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    int status = argc > 1 ? 0 : 2;
    for (int i = 1; i < argc; i++) {
        size_t len, samples;
        char *text = slurp(argv[i], &len);
        struct oomlab_err err;
        if (!text) {
            fprintf(stderr, "promcheck: cannot read %s\n", argv[i]);
            status = 1;
        } else if (promlint_check(argv[i], text, len, &samples, &err) < 0) {
            fprintf(stderr, "%s\n", err.msg);
            status = 1;
        } else {
            printf("%s: %zu samples ok\n", argv[i], samples);
        }
        free(text);
    }
    return status;
}
