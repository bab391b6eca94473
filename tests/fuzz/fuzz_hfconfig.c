/* Fuzz target: config.json parsing, then the budget and the parameters
 * active per token (with and without LoRA) on whatever shape came out.
 * Must never crash, over-read, overflow (UBSan) or leak. Then the same
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

/* The parameters a token passes through (estimate's MoE line): the
 * unknown -1 exactly when the experts per token were assumed (a mixture
 * of two or more experts no config named the top-k of), else within the
 * total, the total itself for a dense model; never another answer. */
static void active_params(const struct est_model *m, const struct est_workload *wl)
{
    struct oomlab_err err;
    if (wl->lora_r == 0) { /* and with LoRA adapters on every target, the experts' MLP among them */
        struct est_workload lora = *wl;
        lora.lora_r = 16;
        lora.lora_targets = EST_LORA_Q | EST_LORA_V | EST_LORA_GATE | EST_LORA_UP | EST_LORA_DOWN;
        active_params(m, &lora);
    }
    int64_t total, active = -2;
    if (est_params(m, wl, &total, NULL, &err) < 0) return;
    if (est_active_params(m, wl, &active, &err) < 0) {
        if (!m->experts) __builtin_trap(); /* a dense model's is its total */
        return;
    }
    bool unknown = m->experts && m->experts_per_token_assumed;
    if (unknown ? active != -1 : (active < 0 || active > total || (!m->experts && active != total))) {
        fprintf(stderr, "active %lld of %lld (experts %lld, per token %lld%s)\n", (long long)active,
                (long long)total, (long long)m->experts, (long long)m->experts_per_token,
                m->experts_per_token_assumed ? ", assumed" : "");
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
        active_params(&m, &wl);
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
