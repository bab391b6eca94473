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
    int sm; /* compute capability x 10 (86: sm_86), which kernels a build must carry; 0: not CUDA */
};

const struct gpu_card *gpus_table(size_t *n);
/* A Hopper card (compute capability 9.0: H100, H200, H800, H20, GH200),
 * where torch's default cuBLAS workspace is 32 MiB. */
bool gpus_sm90(const struct gpu_card *card);
/* A data-centre card of a generation sold as SXM modules on NVLink/NVSwitch
 * (compute capability 7.0 V100, 8.0 A100/A800, 9.0 H100/H200): NCCL opens
 * many channels there. The PCIe versions share the rows and are counted the
 * same way. */
bool gpus_nvlink(const struct gpu_card *card);
/* Case-insensitive; accepts the table name, the summary, a device name as
 * NVML/nvidia-smi prints it, or any name holding a row's key tokens as whole
 * tokens (letters and digits split on anything else; "80GB" is the token
 * "80"). The row with the most key tokens wins; NULL when none or a tie. */
const struct gpu_card *gpus_find(const char *name);

/* The CUDA context a PyTorch build loads. With lazy module loading (torch
 * >= 1.13 sets CUDA_MODULE_LOADING=LAZY when unset; CUDA >= 11.7) kernels
 * are loaded when first used and the card's default (card_default) holds;
 * before, every kernel of every library is loaded at the first CUDA call,
 * a figure that grows with the CUDA version. torch is "1.4", "1.7.1+cu110"
 * (torch.__version__; the +cuXYZ tag names the CUDA build) or NULL; cuda is
 * "10.1", "11.8" (torch.version.cuda) or NULL. Fills *bytes and *why (a
 * static sentence naming the rule and its sources); 0, or -1 with a message
 * (unparsable version, or a torch 1.7-1.12 without its CUDA version on a card
 * that runs both of the CUDA 10.2 and 11.x builds those versions shipped).
 * card_sm is the card's compute capability x 10 (gpu_card.sm; 0 unknown): a
 * card of sm_80 or later runs no CUDA 10 build, so torch 1.7-1.12 there is a
 * CUDA 11.x build. */
struct oomlab_err;
int gpus_context(const char *torch, const char *cuda, int64_t card_default, int card_sm, int64_t *bytes,
                 const char **why, struct oomlab_err *err);

#endif
