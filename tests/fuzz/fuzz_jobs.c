/* Fuzz target: job ids from any line must never read past len and always
 * be NUL-terminated within their buffer; the input's lines as paths (with
 * ids and ranks taken from them) must group without misbehaving, every log
 * into a run whose first log is not after it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jobs.h"

#define MAX_LOGS 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size + 1);
    if (!copy) return 0;
    memcpy(copy, data, size);
    copy[size] = '\0';
    struct jobs_log logs[MAX_LOGS];
    char ids[MAX_LOGS][JOBS_ID_MAX];
    int ranks[MAX_LOGS];
    size_t n = 0, i = 0;
    while (i < size && n < MAX_LOGS) {
        char *nl = memchr(copy + i, '\n', size - i);
        size_t end = nl ? (size_t)(nl - copy) : size;
        char *line = malloc(end - i ? end - i : 1); /* exact size: ASan catches an over-read */
        if (line) {
            memcpy(line, copy + i, end - i);
            ids[n][0] = '\0';
            if (jobs_id_in_line(line, end - i, ids[n], sizeof ids[n]) &&
                !memchr(ids[n], '\0', sizeof ids[n]))
                abort();
            free(line);
        }
        copy[end] = '\0'; /* the line is the path */
        ranks[n] = (int)(end - i) % 5 - 1;
        logs[n] = (struct jobs_log){copy + i, ids[n], &ranks[n], 1, NULL};
        n++;
        i = end + 1;
    }
    size_t run[MAX_LOGS];
    enum jobs_link link[MAX_LOGS];
    size_t runs = jobs_group(logs, n, run, link);
    size_t firsts = 0;
    for (size_t k = 0; k < n; k++) {
        if (run[k] > k || run[run[k]] != run[k]) abort();
        firsts += run[k] == k;
    }
    if (firsts != runs) abort();
    free(copy);
    return 0;
}
