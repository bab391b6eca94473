/* gpus: card capacities. Exact rows are the MiB totals nvidia-smi prints on
 * those cards; approximate rows use the nominal size and say so. Context
 * sizes are typical PyTorch 2.x figures with CUDA_MODULE_LOADING=LAZY. */
#include "lib/gpus.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#define MiB(x) ((int64_t)(x) * 1024 * 1024)

static const struct gpu_card cards[] = {
    {"t4", "NVIDIA T4 16GB", MiB(15360), MiB(420), true},
    {"v100-16gb", "NVIDIA V100 16GB", MiB(16160), MiB(420), true},
    {"v100-32gb", "NVIDIA V100 32GB", MiB(32510), MiB(420), true},
    {"a10g", "NVIDIA A10G 24GB", MiB(23028), MiB(460), true},
    {"a10", "NVIDIA A10 24GB", MiB(23028), MiB(460), true},
    {"l4", "NVIDIA L4 24GB", MiB(23034), MiB(460), true},
    {"a100-40gb", "NVIDIA A100 40GB", MiB(40960), MiB(480), true},
    {"a100-80gb", "NVIDIA A100 80GB", MiB(81920), MiB(480), true},
    {"a800-80gb", "NVIDIA A800 80GB", MiB(81920), MiB(480), true},
    {"a6000", "NVIDIA RTX A6000 48GB", MiB(49140), MiB(460), true},
    {"l40s", "NVIDIA L40S 48GB", MiB(46068), MiB(480), true},
    {"h100", "NVIDIA H100 80GB HBM3", MiB(81559), MiB(520), true},
    {"h200", "NVIDIA H200 141GB", MiB(143771), MiB(520), true},
    {"rtx3090", "NVIDIA GeForce RTX 3090 24GB", MiB(24576), MiB(420), true},
    {"rtx4090", "NVIDIA GeForce RTX 4090 24GB", MiB(24564), MiB(440), true},
    {"titan-rtx", "NVIDIA TITAN RTX 24GB", MiB(24576), MiB(420), true},
    {"rtx6000", "NVIDIA Quadro RTX 6000 24GB", MiB(24576), MiB(420), true},
    {"mi250", "AMD Instinct MI250 (one GCD, 64GB)", MiB(65536), MiB(400), false},
    {"mi300x", "AMD Instinct MI300X 192GB", MiB(196608), MiB(400), false},
};

const struct gpu_card *gpus_table(size_t *n)
{
    *n = sizeof cards / sizeof cards[0];
    return cards;
}

/* Lower-case alphanumerics only: "NVIDIA A100-SXM4-80GB" -> "nvidiaa100sxm480gb". */
static void squash(const char *s, char *out, size_t n)
{
    size_t j = 0;
    for (; *s && j + 1 < n; s++)
        if (isalnum((unsigned char)*s)) out[j++] = (char)tolower((unsigned char)*s);
    out[j] = '\0';
}

/* Device-name rules, most specific first: every needle must appear. */
static const struct { const char *needles[3]; const char *card; } device_rules[] = {
    {{"a100", "80", NULL}, "a100-80gb"}, {{"a100", NULL, NULL}, "a100-40gb"},
    {{"a800", NULL, NULL}, "a800-80gb"},  {{"h100", NULL, NULL}, "h100"},
    {{"h200", NULL, NULL}, "h200"},       {{"v100", "32", NULL}, "v100-32gb"},
    {{"v100", NULL, NULL}, "v100-16gb"},  {{"a10g", NULL, NULL}, "a10g"},
    {{"l40s", NULL, NULL}, "l40s"},       {{"l4", NULL, NULL}, "l4"},
    {{"t4", NULL, NULL}, "t4"},           {{"3090", NULL, NULL}, "rtx3090"},
    {{"4090", NULL, NULL}, "rtx4090"},    {{"a6000", NULL, NULL}, "a6000"},
    {{"titanrtx", NULL, NULL}, "titan-rtx"}, {{"mi300", NULL, NULL}, "mi300x"},
    {{"mi250", NULL, NULL}, "mi250"},
};

const struct gpu_card *gpus_find(const char *name)
{
    char want[96], have[96];
    if (!name) return NULL;
    squash(name, want, sizeof want);
    for (size_t i = 0; i < sizeof cards / sizeof cards[0]; i++) {
        squash(cards[i].name, have, sizeof have);
        if (strcmp(want, have) == 0) return &cards[i];
    }
    for (size_t r = 0; r < sizeof device_rules / sizeof device_rules[0]; r++) {
        int ok = 1;
        for (int k = 0; k < 3 && device_rules[r].needles[k]; k++)
            if (!strstr(want, device_rules[r].needles[k])) ok = 0;
        if (ok)
            for (size_t i = 0; i < sizeof cards / sizeof cards[0]; i++)
                if (strcmp(cards[i].name, device_rules[r].card) == 0) return &cards[i];
    }
    return NULL;
}
