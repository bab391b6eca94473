/* Fuzz target: /proc stat, cmdline and uptime parsing on arbitrary bytes
 * (a process names itself; its comm may hold anything but NUL), and the
 * cleaning that makes what it chose safe to print. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/procstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1); /* exact size: ASan catches over-reads */
    if (!copy) return 0;
    memcpy(copy, data, size);
    struct procstat st;
    procstat_parse(copy, size, &st);
    char line[128];
    procstat_cmdline(copy, size, line, sizeof line);
    procstat_uptime(copy, size);
    free(copy);
    /* cleaning: the result is valid UTF-8 without control bytes, never longer */
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    size_t before = strlen(text), after = procstat_clean(text);
    if (after > before || after != strlen(text)) abort();
    for (size_t i = 0; i < after; i++)
        if ((unsigned char)text[i] < 0x20 || text[i] == 0x7f) abort();
    if (procstat_clip(text, after / 2) > (int)(after / 2)) abort();
    free(text);
    return 0;
}
