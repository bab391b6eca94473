/* Fuzz torchelastic's failure-summary reader (lib/elastic): lines fed in
 * order; what it keeps stays within its own fields' promises. */
#include <stdint.h>
#include <string.h>

#include "lib/elastic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct elastic_state s;
    elastic_init(&s);
    const char *text = (const char *)data;
    for (size_t pos = 0; pos < size;) {
        const char *nl = memchr(text + pos, '\n', size - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : size - pos;
        elastic_line(&s, text + pos, n);
        pos += n + 1;
    }
    if (strnlen(s.root.host, sizeof s.root.host) == sizeof s.root.host) __builtin_trap();
    if (strnlen(s.root.time, sizeof s.root.time) == sizeof s.root.time) __builtin_trap();
    int sig = elastic_signal(&s.root);
    if (sig < 0 || sig > 64 || (sig && !s.root.have_exitcode)) __builtin_trap();
    if (s.n_failures > ELASTIC_MAX_FAILURES || s.n_srun > ELASTIC_MAX_SRUN || s.restarts < 0) __builtin_trap();
    for (size_t i = 0; i < s.n_srun; i++) {
        const struct elastic_srun *t = &s.srun[i];
        if (t->n_tasks < 1 || t->first_task < 0 || t->line < 1 || t->line > s.line || t->attempt > s.restarts)
            __builtin_trap();
        if (strnlen(t->host, sizeof t->host) == sizeof t->host || strnlen(t->tasks, sizeof t->tasks) == sizeof t->tasks)
            __builtin_trap();
    }
    for (int k = 1; k < s.restarts && k < ELASTIC_MAX_RESTARTS; k++)
        if (s.restart_line[k] <= s.restart_line[k - 1]) __builtin_trap();
    if (elastic_attempt_of_line(&s, s.line + 1) != s.restarts) __builtin_trap();
    return 0;
}
