/* argsubst: one left-to-right pass per argument; a replacement is never
 * scanned again, so a value holding "{config}" stays literal. */
#include "lib/argsubst.h"

#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"

char *argsubst(const char *arg, const char *const *keys, const char *const *vals, size_t n)
{
    size_t cap = strlen(arg) + 1, len = 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    for (const char *p = arg; *p;) {
        const char *rep = NULL;
        size_t skip = 1;
        for (size_t k = 0; k < n && *p == '{' && !rep; k++) {
            size_t kl = strlen(keys[k]);
            if (kl && !strncmp(p + 1, keys[k], kl) && p[1 + kl] == '}') {
                rep = vals[k];
                skip = kl + 2;
            }
        }
        size_t add = rep ? strlen(rep) : 1;
        if (len + add + 1 > cap) {
            char *grown = strbuf_grow(out, &cap, len + add + 1, 1, ARGSUBST_MAX);
            if (!grown) {
                free(out);
                return NULL;
            }
            out = grown;
        }
        memcpy(out + len, rep ? rep : p, add);
        len += add;
        p += skip;
    }
    out[len] = '\0';
    return out;
}

void argsubst_free(char **argv)
{
    for (size_t i = 0; argv && argv[i]; i++) free(argv[i]);
    free(argv);
}

char **argsubst_argv(char *const *argv, size_t argc, const char *const *keys,
                     const char *const *vals, size_t n)
{
    char **out = calloc(argc + 1, sizeof *out);
    if (!out) return NULL;
    for (size_t i = 0; i < argc; i++) {
        out[i] = argsubst(argv[i], keys, vals, n);
        if (!out[i]) {
            argsubst_free(out);
            return NULL;
        }
    }
    return out;
}

bool argsubst_uses(char *const *argv, size_t argc, const char *key)
{
    size_t kl = strlen(key);
    for (size_t i = 0; i < argc; i++)
        for (const char *p = strchr(argv[i], '{'); p; p = strchr(p + 1, '{'))
            if (!strncmp(p + 1, key, kl) && p[1 + kl] == '}') return true;
    return false;
}
