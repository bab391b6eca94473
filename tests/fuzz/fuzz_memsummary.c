/* Fuzz target: the memory_summary() table reader over arbitrary lines —
 * every line of the input fed to memsummary_line, then the fragmentation
 * judgement, then the whole input as a file of several tables
 * (memsummary_text) — must never read out of bounds, overflow or hang. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/memsummary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1); /* exact size: ASan catches any over-read */
    if (!copy) return 0;
    memcpy(copy, data, size);
    struct oom_memsummary m;
    oom_memsummary_init(&m);
    size_t a = 0;
    while (a < size) {
        const char *nl = memchr(copy + a, '\n', size - a);
        size_t b = nl ? (size_t)(nl - copy) : size;
        memsummary_line(copy + a, b - a, &m);
        a = b + 1;
    }
    (void)memsummary_fragmented(&m);
    /* the same bytes as the hook's file of several tables: never more
     * than max, each table's device one its title could name */
    struct oom_memsummary tables[3];
    size_t n = memsummary_text(copy, size, tables, 3);
    if (n > 3) abort();
    for (size_t i = 0; i < n; i++) (void)memsummary_fragmented(&tables[i]);
    free(copy);
    return 0;
}
