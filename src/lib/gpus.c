/* gpus: card capacities. Exact rows are the MiB totals nvidia-smi prints on
 * those cards; approximate rows use the nominal size and say so. Context
 * sizes are typical PyTorch 2.x figures with CUDA_MODULE_LOADING=LAZY.
 * Device names are as nvidia-smi --query-gpu=name prints them (the Quadro
 * RTX 6000 row: akash-network/provider-configs#81, "Quadro RTX 6000,
 * 24576 MiB"; L40S: akash-network/provider-configs#99, "NVIDIA L40S,
 * 46068 MiB"). */
#include "lib/gpus.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/err.h"

#define MiB(x) ((int64_t)(x) * 1024 * 1024)

static const struct gpu_card cards[] = {
    {"t4", "NVIDIA T4 16GB", MiB(15360), MiB(420), true, {"Tesla T4"}, {"t4"}, 75},
    {"v100-16gb", "NVIDIA V100 16GB", MiB(16160), MiB(420), true,
     {"Tesla V100-SXM2-16GB", "Tesla V100-PCIE-16GB"}, {"v100"}, 70},
    {"v100-32gb", "NVIDIA V100 32GB", MiB(32510), MiB(420), true,
     {"Tesla V100-SXM2-32GB", "Tesla V100-PCIE-32GB", "Tesla V100S-PCIE-32GB"}, {"v100 32", "v100s"}, 70},
    {"a10g", "NVIDIA A10G 24GB", MiB(23028), MiB(460), true, {"NVIDIA A10G"}, {"a10g"}, 86},
    {"a10", "NVIDIA A10 24GB", MiB(23028), MiB(460), true, {"NVIDIA A10"}, {"a10"}, 86},
    {"l4", "NVIDIA L4 24GB", MiB(23034), MiB(460), true, {"NVIDIA L4"}, {"l4"}, 89},
    {"a100-40gb", "NVIDIA A100 40GB", MiB(40960), MiB(480), true,
     {"NVIDIA A100-SXM4-40GB", "NVIDIA A100-PCIE-40GB"}, {"a100 40"}, 80},
    {"a100-80gb", "NVIDIA A100 80GB", MiB(81920), MiB(480), true,
     {"NVIDIA A100-SXM4-80GB", "NVIDIA A100 80GB PCIe"}, {"a100 80"}, 80},
    {"a800-80gb", "NVIDIA A800 80GB", MiB(81920), MiB(480), true,
     {"NVIDIA A800-SXM4-80GB", "NVIDIA A800 80GB PCIe"}, {"a800"}, 80},
    {"a6000", "NVIDIA RTX A6000 48GB", MiB(49140), MiB(460), true, {"NVIDIA RTX A6000"}, {"a6000"}, 86},
    {"l40", "NVIDIA L40 48GB (L40S's 46068 MiB assumed)", MiB(46068), MiB(480), false,
     {"NVIDIA L40"}, {"l40"}, 89},
    {"l40s", "NVIDIA L40S 48GB", MiB(46068), MiB(480), true, {"NVIDIA L40S"}, {"l40s"}, 89},
    {"h100", "NVIDIA H100 80GB HBM3", MiB(81559), MiB(520), true,
     {"NVIDIA H100 80GB HBM3", "NVIDIA H100 PCIe"}, {"h100"}, 90},
    {"h200", "NVIDIA H200 141GB", MiB(143771), MiB(520), true, {"NVIDIA H200"}, {"h200"}, 90},
    {"rtx3090", "NVIDIA GeForce RTX 3090 24GB", MiB(24576), MiB(420), true,
     {"NVIDIA GeForce RTX 3090"}, {"3090"}, 86},
    {"rtx4090", "NVIDIA GeForce RTX 4090 24GB", MiB(24564), MiB(440), true,
     {"NVIDIA GeForce RTX 4090"}, {"4090"}, 89},
    {"titan-rtx", "NVIDIA TITAN RTX 24GB", MiB(24576), MiB(420), true, {"NVIDIA TITAN RTX"},
     {"titan rtx"}, 75},
    {"rtx6000", "NVIDIA Quadro RTX 6000 24GB", MiB(24576), MiB(420), true, {"Quadro RTX 6000"},
     {"quadro rtx 6000"}, 75},
    {"mi250", "AMD Instinct MI250 (one GCD, 64GB)", MiB(65536), MiB(400), false,
     {"AMD Instinct MI250X", "AMD Instinct MI250"}, {"mi250", "mi250x"}, 0},
    {"mi300x", "AMD Instinct MI300X 192GB", MiB(196608), MiB(400), false, {"AMD Instinct MI300X"},
     {"mi300x"}, 0},
};

#define N_CARDS (sizeof cards / sizeof cards[0])
#define MAX_TOK 16
#define TOK_LEN 24

const struct gpu_card *gpus_table(size_t *n)
{
    *n = N_CARDS;
    return cards;
}

bool gpus_sm90(const struct gpu_card *card) { return card && card->sm == 90; }

bool gpus_nvlink(const struct gpu_card *card)
{
    static const int nvlink_sm[] = {70, 80, 90};
    for (size_t i = 0; card && i < sizeof nvlink_sm / sizeof nvlink_sm[0]; i++)
        if (card->sm == nvlink_sm[i]) return true;
    return false;
}

/* Lower-case alphanumerics only: "NVIDIA A100-SXM4-80GB" -> "nvidiaa100sxm480gb". */
static void squash(const char *s, char *out, size_t n)
{
    size_t j = 0;
    for (; *s && j + 1 < n; s++)
        if (isalnum((unsigned char)*s)) out[j++] = (char)tolower((unsigned char)*s);
    out[j] = '\0';
}

struct toks { char t[MAX_TOK][TOK_LEN]; int n; };

/* Whole tokens: runs of letters and digits, lower-cased; a size such as
 * "80GB" is the token "80". */
static void tokenize(const char *s, struct toks *k)
{
    k->n = 0;
    while (*s && k->n < MAX_TOK) {
        while (*s && !isalnum((unsigned char)*s)) s++;
        size_t j = 0;
        bool digits = true;
        for (; isalnum((unsigned char)*s); s++) {
            if (j + 1 < TOK_LEN) k->t[k->n][j++] = (char)tolower((unsigned char)*s);
            if (!isdigit((unsigned char)*s)) digits = false;
        }
        if (!j) break;
        k->t[k->n][j] = '\0';
        if (!digits && j > 2 && strcmp(k->t[k->n] + j - 2, "gb") == 0 &&
            isdigit((unsigned char)k->t[k->n][j - 3])) {
            size_t d = 0; /* "80gb": digits only? */
            while (d < j - 2 && isdigit((unsigned char)k->t[k->n][d])) d++;
            if (d == j - 2) k->t[k->n][j - 2] = '\0';
        }
        k->n++;
    }
}

static bool has_tok(const struct toks *k, const char *t)
{
    for (int i = 0; i < k->n; i++)
        if (strcmp(k->t[i], t) == 0) return true;
    return false;
}

/* How many key tokens match (all of them must), or 0. */
static int key_score(const struct toks *in, const char *key)
{
    struct toks kk;
    tokenize(key, &kk);
    for (int i = 0; i < kk.n; i++)
        if (!has_tok(in, kk.t[i])) return 0;
    return kk.n;
}

static bool same_name(const char *want, const struct gpu_card *c)
{
    char have[96];
    squash(c->name, have, sizeof have);
    if (strcmp(want, have) == 0) return true;
    squash(c->summary, have, sizeof have);
    if (strcmp(want, have) == 0) return true;
    for (int d = 0; d < 4 && c->devices[d]; d++) {
        squash(c->devices[d], have, sizeof have);
        if (strcmp(want, have) == 0) return true;
    }
    return false;
}

const struct gpu_card *gpus_find(const char *name)
{
    char want[96];
    struct toks in;
    if (!name) return NULL;
    squash(name, want, sizeof want);
    for (size_t i = 0; i < N_CARDS; i++)
        if (same_name(want, &cards[i])) return &cards[i];
    tokenize(name, &in);
    const struct gpu_card *best = NULL;
    int best_score = 0, ties = 0;
    for (size_t i = 0; i < N_CARDS; i++)
        for (int k = 0; k < 2 && cards[i].keys[k]; k++) {
            int s = key_score(&in, cards[i].keys[k]);
            if (s > best_score) { best = &cards[i]; best_score = s; ties = 0; }
            else if (s && s == best_score && best != &cards[i]) ties++;
        }
    return ties ? NULL : best;
}

/* ---- the CUDA context by torch / CUDA version ------------------------- */

/* Eager module loading: the context nvidia-smi shows after the first CUDA
 * call, less the caching allocator's one block the measurement held, by the
 * CUDA version of the build. Each figure is the mean of the measurements
 * its sentence names. */
#define EAGER_CUDA11                                                                                   \
    "eager module loading (torch < 1.13 or CUDA < 11.7), CUDA 11.0-11.6: 1404 MiB, the mean of torch "  \
    "1.7.1+cu110 on an RTX 3090 (1644 - 158: 1486; pytorch/pytorch#49877), 1.8.2+cu111 on an RTX 3090 " \
    "(1687 - 2: 1685; #55277), 1.7.1+cu110 after empty_cache (1105; #60150), a V100, CUDA 11.2 "        \
    "(1343 - 2: 1341; HF perf_train_gpu_one, row A01)"

static const struct {
    int cuda_lo, cuda_hi; /* major * 100 + minor, inclusive */
    int mib;
    const char *why;
} eager[] = {
    {900, 1099, 798,
     "eager module loading (torch < 1.13 or CUDA < 11.7), CUDA 9-10 build: 798 MiB, the mean of torch "
     "1.6.0+cu101 on an RTX 2080 Ti (1035 MiB with a 158 MiB block: 877; pytorch/pytorch#49877) and torch "
     "1.8.2+cu101 on a GTX 1080 (721 MiB with a 2 MiB block: 719; pytorch/pytorch#55277)"},
    {1100, 1106, 1404, EAGER_CUDA11},
    {1107, 9999, 616,
     "eager module loading (torch < 1.13), CUDA >= 11.7 build: 616 MiB, torch 1.13/CUDA 11.7 with "
     "CUDA_MODULE_LOADING=DEFAULT (666,632,192 B with a 20 MiB block; pytorch/pytorch#86509)"},
};

/* torch 1.7-1.12 without its CUDA version on a card of sm_80 or later: the
 * CUDA 10.2 builds those versions shipped carry no kernels past sm_75 (an
 * A100 on one: "sm_80 is not compatible with the current PyTorch
 * installation ... supports CUDA capabilities sm_37 sm_50 sm_60 sm_70",
 * pytorch/pytorch#45028), so the build that ran was a CUDA 11.x one (11.0-11.6:
 * CUDA 11.7 came with torch 1.13). */
static const char cuda11_by_card_why[] =
    "torch 1.7-1.12 on a card of compute capability 8.0 or later runs only their CUDA 11.x builds (CUDA 10.2 "
    "builds carry no sm_80 kernels, pytorch/pytorch#45028); " EAGER_CUDA11;

/* The CUDA builds each torch 1.9-1.12 release shipped for Linux, as
 * pytorch.org lists them (pytorch/pytorch.github.io:_get_started/
 * previous-versions.md@04862e37: wheels and conda together; 1.7 and 1.8
 * from the builds the threads of the eager[] rows ran), and a CUDA 11 tag
 * of each for the message's example. */
static const struct { int torch; const char *builds, *tag; } builds[] = {
    {107, "10.x and 11.0", "cu110"},         /* 1.7.1+cu110: #49877, #47109 */
    {108, "10.1, 10.2 and 11.1", "cu111"}, /* 1.8.2+cu101 and +cu111: #55277 */
    {109, "10.2, 11.1 (pip) and 11.3 (conda)", "cu111"},
    {110, "10.2, 11.1 (pip) and 11.3 (conda)", "cu111"},
    {111, "10.2 and 11.3", "cu113"},
    {112, "10.2, 11.3 and 11.6", "cu113"},
};

/* torch 1.7-1.12 without a CUDA version on a card that runs either build:
 * the two contexts differ by 600 MiB, so ask for the version, and say how. */
static int refuse_unknown_build(const char *torch, int tv, int card_sm, struct oomlab_err *err)
{
    const char *which = "10.2 and 11.x", *tag = "cu113";
    for (size_t i = 0; i < sizeof builds / sizeof builds[0]; i++)
        if (builds[i].torch == tv) which = builds[i].builds, tag = builds[i].tag;
    char card[96] = "and the card is unknown (with --gpu, one of sm_80 or later runs only the CUDA 11 ones)";
    if (card_sm) snprintf(card, sizeof card, "and this card (sm_%d) runs all of them", card_sm);
    return oomlab_err_set(err,
                          "torch %s shipped CUDA %s builds, %s; their contexts differ by about 600 MiB: "
                          "add --cuda with what "
                          "`python -c 'import torch; print(torch.version.cuda)'` prints (e.g. --cuda 10.2), "
                          "or give --torch as torch.__version__ prints it (e.g. %.*s+%s)",
                          torch, which, card, (int)strcspn(torch, "+"), torch, tag);
}

static const char lazy_why[] =
    "lazy module loading (torch >= 1.13 sets CUDA_MODULE_LOADING=LAZY; CUDA >= 11.7): the card's default "
    "(torch 1.13/CUDA 11.7 measured 287,047,680 B lazy against 666,632,192 B eager, pytorch/pytorch#86509)";

/* "1.7.1" -> 107 (major * 100 + minor); -1 on junk. *rest points past the
 * last digit read. */
static int parse_ver(const char *s, const char **rest)
{
    char *end;
    errno = 0;
    long major = strtol(s, &end, 10);
    if (errno || end == s || major < 0 || major > 99) return -1;
    long minor = 0;
    if (*end == '.') {
        const char *m = end + 1;
        minor = strtol(m, &end, 10);
        if (errno || end == m || minor < 0 || minor > 99) return -1;
        while (*end == '.' || isdigit((unsigned char)*end) || isalpha((unsigned char)*end)) end++;
    }
    *rest = end;
    return (int)(major * 100 + minor);
}

/* "+cu110" -> 1100, "+cu92" -> 902; 0 without a tag; -1 on junk;
 * -2 for a build without CUDA (+cpu, +rocm...). */
static int parse_cu_tag(const char *s)
{
    if (!*s) return 0;
    if (*s != '+') return -1;
    if (strncmp(s + 1, "cu", 2)) return -2;
    const char *d = s + 3;
    size_t n = strlen(d);
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)d[i])) return -1;
    if (n == 2) return (d[0] - '0') * 100 + (d[1] - '0');
    if (n == 3) return ((d[0] - '0') * 10 + (d[1] - '0')) * 100 + (d[2] - '0');
    return -1;
}

int gpus_context(const char *torch, const char *cuda, int64_t card_default, int card_sm, int64_t *bytes,
                 const char **why, struct oomlab_err *err)
{
    int tv = 0, cv = 0;
    const char *rest = "";
    if (torch) {
        tv = parse_ver(torch, &rest);
        int tag = tv < 0 ? -1 : parse_cu_tag(rest);
        if (tv < 0 || tag == -1)
            return oomlab_err_set(err, "--torch wants a version such as 1.4, 2.1 or 1.7.1+cu110, got '%s'", torch);
        if (tag == -2)
            return oomlab_err_set(err, "--torch %s is not a CUDA build: give --context", torch);
        cv = tag;
    }
    if (cuda) {
        const char *r2;
        int c = parse_ver(cuda, &r2);
        if (c < 0 || *r2) return oomlab_err_set(err, "--cuda wants a version such as 10.1 or 11.8, got '%s'", cuda);
        if (cv && c != cv)
            return oomlab_err_set(err, "--cuda %s contradicts --torch %s", cuda, torch);
        cv = c;
    }
    if (cv && cv < 900) return oomlab_err_set(err, "no CUDA context figure for CUDA before 9.0: give --context");
    /* lazy: torch >= 1.13 on CUDA >= 11.7; CUDA 11.7+ builds of torch are
     * 1.13 or later (1.12.1's newest was cu116, pytorch/pytorch#85917) */
    if ((tv >= 113 && (cv == 0 || cv >= 1107)) || (tv == 0 && cv >= 1107)) {
        *bytes = card_default;
        *why = lazy_why;
        return 0;
    }
    const char *by_card = NULL;
    if (!cv && tv > 106) {
        if (card_sm < 80) return refuse_unknown_build(torch, tv, card_sm, err);
        cv = 1100;
        by_card = cuda11_by_card_why;
    }
    if (!cv) cv = 1000; /* torch <= 1.6: CUDA 9.2-10.2 builds only; 1.7.0 was the first
                         * with a CUDA 11.0 build (pytorch/pytorch#47109) */
    for (size_t i = 0; i < sizeof eager / sizeof eager[0]; i++)
        if (cv >= eager[i].cuda_lo && cv <= eager[i].cuda_hi) {
            *bytes = (int64_t)eager[i].mib * 1024 * 1024;
            *why = by_card ? by_card : eager[i].why;
            return 0;
        }
    return oomlab_err_set(err, "no CUDA context figure for CUDA %d.%d: give --context", cv / 100, cv % 100);
}
