/* Fuzz target: run-config parsing (YAML and JSON) must never crash, leak or
 * read past len; whatever parses must write YAML that parses back the same;
 * and the config rendered in its own schema with --set applied (a value
 * and a header taken from the input) must parse back too. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/runcfg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1); /* exact size: ASan catches any over-read */
    if (!copy) return 0;
    memcpy(copy, data, size);
    struct runcfg cfg, back;
    struct oomlab_err err;
    runcfg_init(&cfg);
    if (runcfg_parse(&cfg, copy, size, "fuzz", &err) == 0) {
        char *yaml = runcfg_to_yaml(&cfg);
        if (yaml) {
            runcfg_init(&back);
            if (runcfg_parse(&back, yaml, strlen(yaml), "back", &err) != 0) abort();
            if (back.device_batch_size != cfg.device_batch_size ||
                back.max_seq_len != cfg.max_seq_len || back.grad_accum != cfg.grad_accum ||
                back.grad_ckpt != cfg.grad_ckpt || strcmp(back.dtype, cfg.dtype) != 0)
                abort();
            runcfg_release(&back);
            free(yaml);
        }
    }
    if (runcfg_parse(&cfg, copy, size, "fuzz", &err) == 0) {
        char value[64] = "", set[96], header[96];
        size_t n = 0;
        while (n < size && n < sizeof value - 1 && data[n] && data[n] != '=') n++;
        memcpy(value, data, n);
        value[n] = '\0';
        snprintf(set, sizeof set, "note=%s", value);
        snprintf(header, sizeof header, "fuzz %s", value);
        char *sets[] = {"device_batch_size=4", "a.b.c=1", set};
        struct runcfg_rendered r;
        if (runcfg_render(copy, size, "fuzz", header, sets, 3, &r, &err) == 0) {
            runcfg_init(&back);
            if (runcfg_parse(&back, r.text, r.len, "rendered", &err) != 0) abort();
            if (back.device_batch_size != 4) abort();
            runcfg_release(&back);
            runcfg_rendered_release(&r);
        }
    }
    runcfg_effective_batch(&cfg);
    runcfg_release(&cfg);
    free(copy);
    return 0;
}
