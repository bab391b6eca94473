/* Fuzz target: /proc stat, cmdline and uptime parsing on arbitrary bytes
 * (a process names itself; its comm may hold anything but NUL). */
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
    return 0;
}
