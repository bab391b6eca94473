/* Fuzz target: size parsing must never read past len or misbehave on junk. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int64_t b;
    bool sat;
    char *copy = malloc(size); /* exact size: ASan catches any over-read */
    if (!copy) return 0;
    memcpy(copy, data, size);
    units_parse_size(copy, size, UNITS_KB_IS_1024, &b, &sat);
    free(copy);
    return 0;
}
