/* Fuzz target: one record of the kernel's log read for an OOM kill
 * (lib/kmsgoom) on arbitrary bytes: never past the record, a name that
 * fits, a pid above 0. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/kmsgoom.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1); /* exact size: ASan catches over-reads */
    if (!copy) return 0;
    memcpy(copy, data, size);
    struct kmsgoom_kill k;
    if (kmsgoom_parse(copy, size, &k)) {
        if (k.pid <= 0 || k.usec < 0 || strlen(k.comm) >= sizeof k.comm) abort();
    }
    free(copy);
    return 0;
}
