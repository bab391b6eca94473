/* Fuzz target: config.json parsing, then the budget on whatever shape came
 * out. Must never crash, over-read, overflow (UBSan) or leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/est.h"
#include "lib/hfconfig.h"

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
    if (hfconfig_parse(copy, size, "fuzz.json", &m, &q, &err) == HFCONFIG_OK &&
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
