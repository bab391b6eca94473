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
};

const struct gpu_card *gpus_table(size_t *n);
/* Case-insensitive; accepts the name, or a device name as NVML/nvidia-smi
 * prints it ("NVIDIA A100-SXM4-80GB", "Tesla T4") matched by its tokens.
 * NULL when unknown. */
const struct gpu_card *gpus_find(const char *name);

#endif
