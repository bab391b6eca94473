/* Fuzz target: lib/allocconf on any bytes — the settings string (the
 * input's first line, as PYTORCH_CUDA_ALLOC_CONF holds it) and a torch
 * version (the second line). The unknown-key list must stay inside any
 * buffer, however small, end in a NUL, and count the same keys whatever
 * the buffer's size, and the suggestions as well; a key too new comes
 * with its release. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/allocconf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1); /* the parser takes a C string, as getenv gives */
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *version = strchr(text, '\n');
    if (version) *version++ = '\0';
    size_t sizes[] = {1, 2, 7, 64, 4096};
    size_t first = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char *out = malloc(sizes[i]); /* exact size: ASan catches a write past it */
        if (!out) break;
        size_t n = allocconf_unknown_keys(text, out, sizes[i]);
        if (!memchr(out, '\0', sizes[i])) abort();
        if (i == 0) first = n;
        else if (n != first) abort();
        if (sizes[i] == 4096 && (n == 0) != (out[0] == '\0')) abort();
        /* the did-you-mean list too: inside the buffer, NUL-ended, the same
         * count whatever its size */
        size_t found = allocconf_suggest(text, out, sizes[i]);
        if (!memchr(out, '\0', sizes[i])) abort();
        if (found > n) abort(); /* a suggestion is for an unknown key */
        free(out);
    }
    const char *since = NULL;
    const char *key = allocconf_too_new(text, version ? version : "", &since);
    if (key && !since) abort();
    free(text);
    return 0;
}
