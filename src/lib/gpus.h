/* gpus: the built-in card table — capacity as the driver reports it
 * (nvidia-smi "Total", which torch's total_memory matches) and a typical
 * CUDA context size with lazy module loading. Static rows; no allocation. */
#ifndef OOMLAB_GPUS_H
#define OOMLAB_GPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gpu_card {
    const char *name;      /* "a100-80gb" */
    const char *summary;   /* "NVIDIA A100 80GB (SXM/PCIe)" */
    int64_t capacity_bytes;
    int64_t context_bytes; /* typical CUDA context + cuBLAS workspace */
    bool capacity_exact;   /* the driver's figure, not the marketing one */
    /* The names NVML and nvidia-smi print for this card ("NVIDIA A100-SXM4-80GB"). */
    const char *devices[4];
    /* The whole tokens that identify the card inside a device name
     * ("a100 80"): every one must appear as a token; "l4" never matches "L40". */
    const char *keys[2];
};

const struct gpu_card *gpus_table(size_t *n);
/* Case-insensitive; accepts the table name, the summary, a device name as
 * NVML/nvidia-smi prints it, or any name holding a row's key tokens as whole
 * tokens (letters and digits split on anything else; "80GB" is the token
 * "80"). The row with the most key tokens wins; NULL when none or a tie. */
const struct gpu_card *gpus_find(const char *name);

#endif
