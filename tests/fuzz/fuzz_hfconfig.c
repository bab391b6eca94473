/* Fuzz target: config.json parsing, then the budget on whatever shape came
 * out. Must never crash, over-read, overflow (UBSan) or leak. Then the same
 * parse with one of the library's mallocs failing (which one: from the
 * input's bytes): it must say "out of memory" as HFCONFIG_BAD, never take
 * the failure for an unknown model_type or a config that parsed (b9667b0e).
 * fuzz-ldflags: -Wl,--wrap=malloc */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/est.h"
#include "lib/hfconfig.h"
#include "../unit/failmalloc.h"

/* Parse with the malloc after `skip` failing; traps on a wrong answer. */
static void parse_failing(const char *text, size_t size, long skip)
{
    struct est_model m;
    struct hfconfig_quant q;
    struct oomlab_err err;
    memset(&err, 0, sizeof err);
    failmalloc_arm(skip);
    int rc = hfconfig_parse(text, size, "fuzz.json", &m, &q, &err);
    failmalloc_disarm();
    if (failmalloc_hit && (rc != HFCONFIG_BAD || !strstr(err.msg, "out of memory"))) {
        fprintf(stderr, "malloc %ld failed: rc %d, '%s'\n", skip, rc, err.msg);
        __builtin_trap();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct est_model m;
    struct est_workload wl;
    struct est_result r;
    struct hfconfig_quant q;
    struct oomlab_err err;
    char *copy = malloc(size ? size : 1); /* exact size: ASan catches any over-read */
    if (!copy) return 0;
    memcpy(copy, data, size);
    failmalloc_arm(1L << 40); /* counts the parse's mallocs, fails none */
    int rc = hfconfig_parse(copy, size, "fuzz.json", &m, &q, &err);
    long mallocs = (1L << 40) - failmalloc_countdown;
    failmalloc_disarm();
    if (mallocs > 0) {
        uint32_t h = 2166136261u; /* FNV-1a: the same input fails the same malloc */
        for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 16777619u;
        parse_failing(copy, size, (long)(h % (uint32_t)mallocs));
    }
    if (rc == HFCONFIG_OK &&
        est_model_finish(&m, &err) == 0) {
        est_workload_init(&wl);
        wl.seq = 128;
        wl.capacity_bytes = (int64_t)80 << 30;
        est_compute(&m, &wl, &r, &err);
        int64_t b;
        est_max_batch(&m, &wl, &b, &err);
        wl.mode = EST_MODE_INFER;
        wl.gen_len = 64;
        if (q.quant > 0) wl.quant = (enum est_quant)q.quant; /* the checkpoint's own */
        if (q.quant == EST_QUANT_FP8) { /* its scales' layout and keep list, as estimate takes them */
            wl.fp8_scale = (enum est_fp8_scale)q.fp8_scale;
            wl.fp8_block_out = q.fp8_block_out;
            wl.fp8_block_in = q.fp8_block_in;
            wl.fp8_static_act = q.fp8_static_act;
            wl.fp8_keep = q.fp8_keep;
            wl.fp8_decompress = q.fp8_decompress;
        }
        est_compute(&m, &wl, &r, &err);
    }
    free(copy);
    return 0;
}
