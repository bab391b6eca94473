/* Fuzz target: run-config parsing (YAML and JSON) must never crash, leak or
 * read past len; whatever parses must write YAML that parses back the same;
 * and the config rendered in its own schema with --set applied (a value
 * and a header taken from the input) must parse back too. probe's trial
 * configs: the values a config takes for the batch (or the sequence
 * length), rendered and read back as probe's trial_config does, are those
 * up to a bound, never a value refused below one taken (probe checks --min
 * and --max only, a1ad6de0); 2^31 and above are refused. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/runcfg.h"

#define RC_MAX_INT_FUZZ 2147483647L /* runcfg.c's RC_MAX_INT: 2^31 and above are absurd */

/* The input's first line (NUL-free, at most 120 bytes) as a --set. */
static void first_line_set(const char *text, size_t size)
{
    size_t n = 0;
    while (n < size && n < 120 && text[n] && text[n] != '\n') n++;
    char line[121];
    memcpy(line, text, n);
    line[n] = '\0';
    struct runcfg cfg, back;
    struct oomlab_err err;
    bool takes = false; /* runcfg_set takes it on an empty config */
    for (int parsed = 0; parsed < 2; parsed++) {
        runcfg_init(&cfg);
        if (parsed && runcfg_parse(&cfg, text, size, "fuzz", &err) != 0) {
            runcfg_release(&cfg);
            break;
        }
        err.msg[0] = '\0';
        if (runcfg_set(&cfg, line, &err) == 0) {
            /* a dotted key is taken whole as an extra here, but the render
             * nests it, where a key of the schema may refuse a mapping
             * (fp16.x=4 renders fp16: {x: 4}): only undotted keys count */
            const char *eq = strchr(line, '=');
            takes |= !parsed && eq && !memchr(line, '.', (size_t)(eq - line));
            char *yaml = runcfg_to_yaml(&cfg);
            if (yaml) {
                runcfg_init(&back);
                if (runcfg_parse(&back, yaml, strlen(yaml), "back", &err) != 0) {
                    fprintf(stderr, "--set '%s' wrote YAML that does not parse: %s\n%s\n", line, err.msg, yaml);
                    __builtin_trap();
                }
                runcfg_release(&back);
                free(yaml);
            }
        } else if (!err.msg[0]) {
            __builtin_trap();
        }
        runcfg_release(&cfg);
    }
    (void)runcfg_set_unknown_precision(line);
    char *sets[] = {line};
    const char *rest = n < size ? text + n + 1 : NULL; /* the lines below it as the --config */
    for (int k = 0; k < 2; k++) {
        struct runcfg_rendered r;
        if (runcfg_render(k ? rest : NULL, k && rest ? size - n - 1 : 0, "fuzz", "fuzz", sets, 1, &r, &err) != 0)
            continue;
        if (!k && takes) { /* no --config: the set alone is the document run writes */
            runcfg_init(&back);
            if (runcfg_parse(&back, r.text, r.len, "rendered", &err) != 0) {
                fprintf(stderr, "--set '%s' alone rendered what does not parse: %s\n%s\n", line, err.msg, r.text);
                __builtin_trap();
            }
            runcfg_release(&back);
        }
        size_t cap = 1 + n % 61;
        char *warn = malloc(cap); /* exact size: ASan sees any overflow */
        if (warn) {
            for (int w = 0; w < 4; w++) {
                runcfg_set_warning(&r, 0, line, w & 1, w & 2, warn, cap);
                if (!memchr(warn, '\0', cap)) __builtin_trap();
            }
            free(warn);
        }
        runcfg_rendered_release(&r);
    }
}

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
    static const long trial[] = {1, 3, 1L << 24, (1L << 31) - 1, 1L << 31, 99999999999L};
    const char *key = size & 1 ? "max_seq_len" : "device_batch_size";
    long refused = 0; /* the first value refused */
    for (size_t i = 0; i < sizeof trial / sizeof trial[0]; i++) {
        char assign[64];
        snprintf(assign, sizeof assign, "%s=%ld", key, trial[i]);
        char *sets[] = {assign};
        struct runcfg_rendered r;
        bool took = false;
        if (runcfg_render(copy, size, "fuzz", "oomlab probe", sets, 1, &r, &err) == 0) {
            runcfg_init(&back);
            took = runcfg_parse(&back, r.text, r.len, "the trial's config", &err) == 0 &&
                   (size & 1 ? back.max_seq_len : back.device_batch_size) == trial[i];
            runcfg_release(&back);
            runcfg_rendered_release(&r);
        }
        if (took && (refused || trial[i] > RC_MAX_INT_FUZZ)) {
            fprintf(stderr, "%s taken after %ld was refused\n", assign, refused);
            __builtin_trap();
        }
        if (!took && !refused) refused = trial[i];
        /* probe's trial_config sets the value on the parsed config, labeled */
        runcfg_init(&back);
        if (runcfg_parse(&back, copy, size, "fuzz", &err) == 0) {
            char label[96];
            snprintf(label, sizeof label, "--max %ld: %s", trial[i], size & 1 ? "seq" : "batch");
            if (runcfg_set_labeled(&back, assign, label, &err) == 0) {
                if ((size & 1 ? back.max_seq_len : back.device_batch_size) != trial[i] || trial[i] > RC_MAX_INT_FUZZ) {
                    fprintf(stderr, "%s set, the config holds another value\n", assign);
                    __builtin_trap();
                }
            } else if (strncmp(err.msg, label, strlen(label))) {
                fprintf(stderr, "%s refused without its label: %s\n", assign, err.msg);
                __builtin_trap();
            }
        }
        runcfg_release(&back);
    }
    first_line_set(copy, size);
    free(copy);
    return 0;
}
