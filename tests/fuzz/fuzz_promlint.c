/* Fuzz target: the Prometheus text checker must never crash, leak or read
 * past len on arbitrary input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/promlint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1);
    if (!copy) return 0;
    memcpy(copy, data, size);
    struct oomlab_err err;
    size_t n;
    promlint_check("fuzz", copy, size, &n, &err);
    free(copy);
    return 0;
}
