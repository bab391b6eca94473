/* Fuzz target: the step/loss line parser must never read past len, and a
 * series built from the input's lines must give trends without misbehaving. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/steps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1); /* exact size: ASan catches any over-read */
    if (!copy) return 0;
    memcpy(copy, data, size);
    struct steps_series s;
    steps_series_init(&s);
    size_t i = 0;
    while (i < size) {
        const char *nl = memchr(copy + i, '\n', size - i);
        size_t end = nl ? (size_t)(nl - copy) : size;
        char *line = malloc(end - i ? end - i : 1);
        if (line) {
            memcpy(line, copy + i, end - i);
            struct steps_point pt;
            steps_parse_line(line, end - i, &pt);
            steps_series_add(&s, &pt);
            free(line);
        }
        i = end + 1;
    }
    steps_loss_trend(&s);
    struct steps_mem_trend t;
    steps_memory_trend_of(&s, &t);
    if (t.trend != steps_memory_trend(&s)) abort();
    char buf[200];
    if (steps_memory_trend_format(&t, buf, sizeof buf) >= sizeof buf) abort();
    steps_max_peak_alloc(&s);
    steps_max_peak_reserved(&s);
    steps_series_release(&s);
    free(copy);
    return 0;
}
