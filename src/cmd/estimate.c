/* estimate: the memory budget of a model and workload against the card.
 * Options -> struct est_model / est_workload -> est_compute -> table or JSON
 * (schema oomlab.estimate.v1, docs/estimate.md). Exit 0 fits (or capacity
 * unknown), 1 does not fit, 2 bad input. */
#include "cmd/cmd.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/est.h"
#include "lib/gpus.h"
#include "lib/hfconfig.h"
#include "lib/models.h"
#include "lib/units.h"
#include "render/json.h"
#include "render/table.h"
#include "sys/modelsrc.h"
#include "sys/nvml.h"

#define NAME "estimate"
#define N_LEVERS 12

enum {
    O_LIST_MODELS = 256, O_LIST_GPUS, O_ARCH, O_LAYERS, O_DEC_LAYERS, O_HIDDEN, O_HEADS, O_KV,
    O_HEAD_DIM, O_FFN, O_VOCAB, O_EXPERTS, O_EPT, O_WINDOW, O_TIED, O_UNTIED, O_BATCH, O_SEQ,
    O_ACCUM, O_MODE, O_OPT, O_PREC, O_CKPT, O_ATTN, O_LORA_R, O_LORA_T, O_QUANT, O_GPUS,
    O_SHARD, O_PROMPT, O_GEN, O_LOSS, O_HEAD, O_NO_FOREACH, O_MASTER, O_KEEP_GRADS, O_DROPOUT, O_NO_DROPOUT, O_CAPACITY, O_GPU,
    O_CONTEXT, O_HEADROOM, O_EXPLAIN, O_JSON, O_HELP, O_TRAINER, O_LORA_DROP, O_OFFLOAD, O_CACHE,
};

static const struct option long_opts[] = {
    {"list-models", no_argument, 0, O_LIST_MODELS}, {"list-gpus", no_argument, 0, O_LIST_GPUS},
    {"arch", required_argument, 0, O_ARCH},         {"layers", required_argument, 0, O_LAYERS},
    {"decoder-layers", required_argument, 0, O_DEC_LAYERS},
    {"hidden", required_argument, 0, O_HIDDEN},     {"heads", required_argument, 0, O_HEADS},
    {"kv-heads", required_argument, 0, O_KV},       {"head-dim", required_argument, 0, O_HEAD_DIM},
    {"ffn", required_argument, 0, O_FFN},           {"vocab", required_argument, 0, O_VOCAB},
    {"experts", required_argument, 0, O_EXPERTS},   {"experts-per-token", required_argument, 0, O_EPT},
    {"sliding-window", required_argument, 0, O_WINDOW},
    {"dropout", no_argument, 0, O_DROPOUT},         {"no-dropout", no_argument, 0, O_NO_DROPOUT},
    {"tied-embeddings", no_argument, 0, O_TIED},    {"untied-embeddings", no_argument, 0, O_UNTIED},
    {"batch", required_argument, 0, O_BATCH},       {"seq", required_argument, 0, O_SEQ},
    {"grad-accum", required_argument, 0, O_ACCUM},  {"mode", required_argument, 0, O_MODE},
    {"optimizer", required_argument, 0, O_OPT},     {"precision", required_argument, 0, O_PREC},
    {"grad-ckpt", required_argument, 0, O_CKPT},    {"attention", required_argument, 0, O_ATTN},
    {"lora-r", required_argument, 0, O_LORA_R},     {"lora-targets", required_argument, 0, O_LORA_T},
    {"lora-dropout", required_argument, 0, O_LORA_DROP}, {"offload", required_argument, 0, O_OFFLOAD},
    {"quant", required_argument, 0, O_QUANT},       {"gpus", required_argument, 0, O_GPUS},
    {"shard", required_argument, 0, O_SHARD},       {"prompt-len", required_argument, 0, O_PROMPT},
    {"gen-len", required_argument, 0, O_GEN},       {"loss", required_argument, 0, O_LOSS},
    {"head", required_argument, 0, O_HEAD},         {"no-foreach", no_argument, 0, O_NO_FOREACH},
    {"trainer", required_argument, 0, O_TRAINER},  {"cache", required_argument, 0, O_CACHE},
    {"fused", no_argument, 0, O_NO_FOREACH},
    {"master-weights", no_argument, 0, O_MASTER},   {"keep-grads", no_argument, 0, O_KEEP_GRADS},   {"capacity", required_argument, 0, O_CAPACITY},
    {"gpu", required_argument, 0, O_GPU},           {"context", required_argument, 0, O_CONTEXT},
    {"headroom", required_argument, 0, O_HEADROOM}, {"explain", no_argument, 0, O_EXPLAIN},
    {"json", no_argument, 0, O_JSON},               {"help", no_argument, 0, O_HELP},
    {0, 0, 0, 0},
};

const struct option *cmd_estimate_options(void) { return long_opts; }

static const char usage_text[] =
    "usage: oomlab estimate [MODEL] [options]\n"
    "\n"
    "Memory budget of a model and workload against the card: weights, gradients,\n"
    "optimizer states, activations, logits, KV cache, temporaries, CUDA context and\n"
    "allocator slack; peak allocated / reserved / device used; max batch and seq.\n"
    "\n"
    "MODEL: a HuggingFace config.json (or a directory holding one) or a preset.\n"
    "  --list-models, --list-gpus     the built-in tables\n"
    "  --arch F --layers N --hidden N --heads N --kv-heads N --head-dim N --ffn N\n"
    "  --vocab N --experts N --experts-per-token N --sliding-window N\n"
    "  --decoder-layers N --tied-embeddings | --untied-embeddings\n"
    "  --dropout | --no-dropout (trained with dropout; family default or config)\n"
    "workload:\n"
    "  --batch B --seq S --grad-accum N --mode train|infer|load\n"
    "  --optimizer adamw|adamw-8bit|sgd|sgd-momentum|adafactor|lion|none|paged-adamw\n"
    "  --no-foreach | --fused (per-tensor or fused step: no full-size working copy)\n"
    "  --precision fp32|fp16|bf16|fp16-mixed|bf16-mixed [--master-weights]\n"
    "  --keep-grads (zero_grad keeps gradients allocated: PyTorch < 2.0)\n"
    "  --grad-ckpt none|attn-core|block|every:N|op (selective = attn-core, full = block)\n"
    "  --attention eager|sdpa|flash\n"
    "  --loss ce|chunked|sum  --head lm|cls|none\n"
    "  --trainer hf|torchtune|litgpt|llm.c|torchtitan (what the training code keeps\n"
    "    alive; hf)\n"
    "  --lora-r R --lora-targets q,k,v,o,gate,up,down|attn|mlp|all\n"
    "  --quant none|int8|nf4 (with --lora-r: QLoRA)\n"
    "  --lora-dropout P (adapters' dropout; default PEFT/torchtune 0, litgpt 0.05)\n"
    "  --gpus N --shard none|zero1|zero2|zero3|fsdp  --prompt-len N --gen-len N\n"
    "  --cache dynamic|legacy|static (generation's KV cache: HF DynamicCache, old\n"
    "    tuple cache, StaticCache)\n"
    "  --offload none|optimizer|params (host memory: ZeRO-Offload, FSDP CPU offload)\n"
    "card:\n"
    "  --capacity SIZE | --gpu NAME (else the local card through NVML)\n"
    "  --context SIZE (CUDA context; card default)  --headroom PCT (15)\n"
    "output:\n"
    "  --explain (every term's formula)  --json (schema oomlab.estimate.v1)\n"
    "Exit: 0 fits or capacity unknown, 1 does not fit, 2 bad input.\n";

struct opts {
    const char *model_arg;
    struct est_model over; /* explicit dimensions; 0 = not given */
    int arch, tied, dropout; /* -1 not given */
    struct est_workload wl;
    const char *gpu_name;
    bool list_models, list_gpus, explain, json, have_capacity, have_context;
    char card[192];
    char capacity_source[16]; /* "--capacity", "--gpu", "nvml"; "" unknown */
};

static int set_dim(int64_t *field, const char *opt, const char *arg)
{
    long long v;
    if (units_parse_int(arg, 1, (long long)1 << 40, &v))
        return cmd_usage_error(NAME, "--%s wants a positive integer, got '%s'", opt, arg);
    *field = v;
    return 0;
}

static int set_enum(int *field, int (*parse)(const char *), const char *opt, const char *arg)
{
    int v = parse(arg);
    if (v < 0) return cmd_usage_error(NAME, "--%s: unknown value '%s'", opt, arg);
    *field = v;
    return 0;
}

static int set_count(int64_t *field, const char *opt, const char *arg, long long min)
{
    long long v;
    if (units_parse_int(arg, min, INT64_MAX, &v))
        return cmd_usage_error(NAME, "--%s wants an integer >= %lld, got '%s'", opt, min, arg);
    *field = v;
    return 0;
}

static int opt_model(struct opts *o, int c, const char *arg)
{
    struct { int c; const char *name; int64_t *f; } dims[] = {
        {O_LAYERS, "layers", &o->over.layers}, {O_DEC_LAYERS, "decoder-layers", &o->over.decoder_layers},
        {O_HIDDEN, "hidden", &o->over.hidden}, {O_HEADS, "heads", &o->over.heads},
        {O_KV, "kv-heads", &o->over.kv_heads}, {O_HEAD_DIM, "head-dim", &o->over.head_dim},
        {O_FFN, "ffn", &o->over.ffn},          {O_VOCAB, "vocab", &o->over.vocab},
        {O_EXPERTS, "experts", &o->over.experts}, {O_EPT, "experts-per-token", &o->over.experts_per_token},
        {O_WINDOW, "sliding-window", &o->over.sliding_window},
    };
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++)
        if (dims[i].c == c) return set_dim(dims[i].f, dims[i].name, arg);
    if (c == O_ARCH) return set_enum(&o->arch, est_family_parse, "arch", arg);
    if (c == O_TIED || c == O_UNTIED) o->tied = c == O_TIED;
    if (c == O_DROPOUT || c == O_NO_DROPOUT) o->dropout = c == O_DROPOUT ? 1 : 2;
    return 0;
}

static int opt_enum(struct opts *o, int c, const char *arg)
{
    struct est_workload *w = &o->wl;
    int v = 0, rc = 0;
    switch (c) {
    case O_MODE: rc = set_enum(&v, est_mode_parse, "mode", arg); w->mode = v; break;
    case O_OPT: rc = set_enum(&v, est_optimizer_parse, "optimizer", arg); w->optimizer = v; break;
    case O_PREC: rc = set_enum(&v, est_precision_parse, "precision", arg); w->precision = v; break;
    case O_CKPT:
        if (est_ckpt_parse_arg(arg, &w->ckpt, &w->ckpt_every))
            return cmd_usage_error(NAME, "--grad-ckpt: unknown policy '%s' (none, attn-core, block, "
                                         "every:N, op)", arg);
        break;
    case O_ATTN: rc = set_enum(&v, est_attn_parse, "attention", arg); w->attention = v; break;
    case O_QUANT: rc = set_enum(&v, est_quant_parse, "quant", arg); w->quant = v; break;
    case O_SHARD: rc = set_enum(&v, est_shard_parse, "shard", arg); w->shard = v; break;
    case O_OFFLOAD: rc = set_enum(&v, est_offload_parse, "offload", arg); w->offload = v; break;
    case O_LOSS: rc = set_enum(&v, est_loss_parse, "loss", arg); w->loss = v; break;
    case O_HEAD: rc = set_enum(&v, est_head_parse, "head", arg); w->head = v; break;
    case O_TRAINER: rc = set_enum(&v, est_trainer_parse, "trainer", arg); w->trainer = v; break;
    case O_CACHE: rc = set_enum(&v, est_cache_parse, "cache", arg); w->cache = v; break;
    default: return 1;
    }
    return rc;
}

static int opt_size(struct opts *o, int c, const char *arg)
{
    double pct;
    switch (c) {
    case O_CAPACITY:
        if (units_parse_size_arg(arg, &o->wl.capacity_bytes) || o->wl.capacity_bytes <= 0)
            return cmd_usage_error(NAME, "--capacity wants a size such as 80GiB, got '%s'", arg);
        o->have_capacity = true;
        return 0;
    case O_CONTEXT:
        if (units_parse_size_arg(arg, &o->wl.context_bytes))
            return cmd_usage_error(NAME, "--context wants a size such as 500MiB, got '%s'", arg);
        o->have_context = true;
        return 0;
    case O_HEADROOM:
        if (units_parse_percent(arg, &pct) || pct >= 90)
            return cmd_usage_error(NAME, "--headroom wants a percentage below 90, got '%s'", arg);
        o->wl.headroom = pct / 100.0;
        return 0;
    case O_LORA_DROP: {
        char *end;
        errno = 0;
        double p = strtod(arg, &end);
        if (errno || end == arg || *end || !(p >= 0 && p < 1))
            return cmd_usage_error(NAME, "--lora-dropout wants a probability in [0, 1), got '%s'", arg);
        o->wl.lora_dropout = p;
        return 0;
    }
    case O_LORA_T:
        if (est_lora_targets_parse(arg, &o->wl.lora_targets))
            return cmd_usage_error(NAME, "--lora-targets: unknown target in '%s'", arg);
        return 0;
    default: return 1;
    }
}

static int opt_one(struct opts *o, int c, const char *arg)
{
    struct est_workload *w = &o->wl;
    int rc = opt_enum(o, c, arg);
    if (rc != 1) return rc;
    if ((rc = opt_size(o, c, arg)) != 1) return rc;
    switch (c) {
    case O_LIST_MODELS: o->list_models = true; return 0;
    case O_LIST_GPUS: o->list_gpus = true; return 0;
    case O_BATCH: return set_count(&w->batch, "batch", arg, 1);
    case O_SEQ: return set_count(&w->seq, "seq", arg, 1);
    case O_ACCUM: return set_count(&w->grad_accum, "grad-accum", arg, 1);
    case O_LORA_R: return set_count(&w->lora_r, "lora-r", arg, 0);
    case O_GPUS: return set_count(&w->gpus, "gpus", arg, 1);
    case O_PROMPT: return set_count(&w->prompt_len, "prompt-len", arg, 0);
    case O_GEN: return set_count(&w->gen_len, "gen-len", arg, 0);
    case O_NO_FOREACH: w->foreach = false; return 0;
    case O_MASTER: w->master_weights = true; return 0;
    case O_KEEP_GRADS: w->keep_grads = true; return 0;
    case O_GPU: o->gpu_name = arg; return 0;
    case O_EXPLAIN: o->explain = true; return 0;
    case O_JSON: o->json = true; return 0;
    default: return opt_model(o, c, arg);
    }
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
    int c;
    memset(o, 0, sizeof *o);
    o->arch = o->tied = o->dropout = -1;
    est_workload_init(&o->wl);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
        if (c == 'h' || c == O_HELP) {
            fputs(usage_text, stdout);
            return -2;
        }
        if (c == '?' || c == ':')
            return cmd_usage_error(NAME, "unknown or incomplete option '%s'", argv[optind - 1]);
        if (opt_one(o, c, optarg)) return EXIT_USAGE;
    }
    if (optind < argc) o->model_arg = argv[optind++];
    if (optind < argc) return cmd_usage_error(NAME, "one MODEL at most, got '%s' too", argv[optind]);
    return 0;
}

/* ---- the model ------------------------------------------------------- */

static void apply_overrides(struct est_model *m, const struct opts *o)
{
#define OVER(f) if (o->over.f) m->f = o->over.f
    OVER(layers); OVER(decoder_layers); OVER(hidden); OVER(heads); OVER(kv_heads);
    OVER(head_dim); OVER(ffn); OVER(vocab); OVER(experts); OVER(experts_per_token);
    OVER(sliding_window);
#undef OVER
    if (o->arch >= 0) m->family = (enum est_family)o->arch;
    if (o->tied >= 0) m->tied_embeddings = o->tied;
    if (o->dropout >= 0) m->dropout = o->dropout;
}

static int get_model(const struct opts *o, struct est_model *m, struct oomlab_err *err)
{
    bool from_arch = false; /* the family comes from --arch alone: its defaults apply */
    memset(m, 0, sizeof *m);
    if (o->model_arg) {
        /* an unknown model_type is usable with --arch: the family's defaults
         * apply, as for explicit dimensions (tie_word_embeddings is not read) */
        if (modelsrc_load(o->model_arg, "", o->arch >= 0, m, &from_arch, err)) return -1;
    } else if (o->arch < 0) {
        return oomlab_err_set(err, "no MODEL: give a config.json, a preset (--list-models) or "
                                   "--arch with the dimensions");
    } else {
        snprintf(m->name, sizeof m->name, "custom %s", est_family_name((enum est_family)o->arch));
        from_arch = true;
    }
    if (from_arch) m->tied_embeddings = est_family_tied_default((enum est_family)o->arch);
    apply_overrides(m, o);
    return est_model_finish(m, err);
}

/* ---- the card ---------------------------------------------------------- */

/* Capacity and where it came from, for the `card` line and JSON:
 * "80.00 GiB (--capacity)", "NVIDIA A100 80GB, 80.00 GiB (--gpu a100-80)",
 * "NVIDIA H200, 139.80 GiB (NVML, GPU 0; 616.00 MiB reserved)". NVML's
 * figure is the card's own, used even when the name matches a table row. */
static void get_card(struct opts *o, struct oomlab_err *err)
{
    const struct gpu_card *card = o->gpu_name ? gpus_find(o->gpu_name) : NULL;
    char cap[32];
    if (card) {
        if (!o->have_capacity) o->wl.capacity_bytes = card->capacity_bytes;
        if (!o->have_context) o->wl.context_bytes = card->context_bytes;
        units_format_bytes(o->wl.capacity_bytes, cap, sizeof cap);
        if (o->have_capacity)
            snprintf(o->card, sizeof o->card, "%s (--capacity); %.64s context (--gpu %.32s)", cap,
                     card->summary, o->gpu_name);
        else
            snprintf(o->card, sizeof o->card, "%.64s, %s (--gpu %.32s)", card->summary, cap,
                     o->gpu_name);
        snprintf(o->capacity_source, sizeof o->capacity_source, "%s",
                 o->have_capacity ? "--capacity" : "--gpu");
        return;
    }
    if (o->have_capacity) {
        units_format_bytes(o->wl.capacity_bytes, cap, sizeof cap);
        snprintf(o->card, sizeof o->card, "%s (--capacity)", cap);
        snprintf(o->capacity_source, sizeof o->capacity_source, "--capacity");
        return;
    }
    struct nvml *nv = NULL;
    struct nvml_gpu g;
    memset(&g, 0, sizeof g);
    if (nvml_open(&nv, err) == 0 && nvml_gpu(nv, 0, &g, err) == 0 && g.total > 0) {
        /* The driver's reservation (memory info v2) is never allocatable:
         * what a process can fill is total - reserved, which is also what
         * cudaMemGetInfo and torch report as the card's total. */
        int64_t usable = g.total;
        char resv[32] = "";
        if (g.reserved > 0 && g.reserved < g.total) {
            usable = g.total - g.reserved;
            char r[24];
            snprintf(resv, sizeof resv, "; %s reserved", units_format_bytes(g.reserved, r, sizeof r));
        }
        o->wl.capacity_bytes = usable;
        card = gpus_find(g.name);
        if (card && !o->have_context) o->wl.context_bytes = card->context_bytes;
        units_format_bytes(usable, cap, sizeof cap);
        snprintf(o->card, sizeof o->card, "%.80s, %s (NVML, GPU 0%s)", g.name[0] ? g.name : "GPU 0",
                 cap, resv);
        snprintf(o->capacity_source, sizeof o->capacity_source, "nvml");
    } else {
        fprintf(stderr, "oomlab %s: capacity unknown: pass --gpu or --capacity (%s)\n", NAME,
                err->msg[0] ? err->msg : "NVML reports no memory total for GPU 0");
    }
    if (nv) nvml_close(nv);
}

static int list_tables(const struct opts *o)
{
    size_t n;
    char b[32];
    if (o->list_models) {
        const struct model_preset *p = models_table(&n);
        for (size_t i = 0; i < n; i++) {
            struct est_model m = p[i].m;
            int64_t total = 0;
            struct oomlab_err e;
            if (est_model_finish(&m, &e) || est_params(&m, NULL, &total, NULL, &e)) total = -1;
            printf("%-24s %-10s %15lld  %s\n", p[i].name, est_family_name(m.family), (long long)total,
                   p[i].summary);
        }
    }
    if (o->list_gpus) {
        const struct gpu_card *g = gpus_table(&n);
        for (size_t i = 0; i < n; i++)
            printf("%-12s %12s%s  %s\n", g[i].name, units_format_bytes(g[i].capacity_bytes, b, sizeof b),
                   g[i].capacity_exact ? " " : "~", g[i].summary);
    }
    return EXIT_OK;
}

/* ---- rendering --------------------------------------------------------- */

struct findings {
    struct est_result r;
    int64_t max_batch, max_seq;
    struct est_lever levers[N_LEVERS];
    int n_levers;
    struct est_combo combo; /* when batch 1 does not fit: what makes it fit */
};

static void pct_of(int64_t bytes, int64_t cap, char *buf, size_t n)
{
    if (cap > 0) snprintf(buf, n, "%.1f%%", 100.0 * (double)bytes / (double)cap);
    else snprintf(buf, n, "-");
}

static void print_components(const struct opts *o, const struct findings *f)
{
    static const char *const head[] = {"component", "bytes", "size", "% card", "at peak"};
    struct table t;
    char bytes[32], size[32], pct[16];
    if (table_init(&t, 5, head)) return;
    for (size_t c = 1; c < 4; c++) table_align_right(&t, c);
    for (int i = 0; i < EST_C__COUNT; i++) {
        const struct est_component *c = &f->r.comp[i];
        if (c->bytes == 0) continue;
        snprintf(bytes, sizeof bytes, "%lld", (long long)c->bytes);
        units_format_bytes(c->bytes, size, sizeof size);
        pct_of(c->bytes, f->r.capacity_bytes, pct, sizeof pct);
        const char *row[] = {c->name, bytes, size, pct, c->at_peak ? "yes" : "no"};
        table_add(&t, row);
    }
    table_print(&t, stdout);
    table_release(&t);
    if (!o->explain) return;
    printf("\nformulas:\n");
    for (int i = 0; i < EST_C__COUNT; i++)
        if (f->r.comp[i].bytes) printf("  %-22s %s\n", f->r.comp[i].name, f->r.comp[i].formula);
    if (o->wl.mode == EST_MODE_TRAIN && o->wl.trainer == EST_TRAINER_LLMC)
        printf("  %-22s every term above: llm.c allocates them all up front\n", "peak allocated");
    else if (o->wl.mode == EST_MODE_TRAIN)
        printf("  %-22s weights + master + optimizer + max(fwd/bwd: gradients x %s + copies + "
               "activations + logits + temporaries, end of backward/step: gradients + its "
               "temporaries)\n", "peak allocated",
               o->wl.grad_accum > 1 || o->wl.keep_grads ? "1 (kept)" : "0 (set to None)");
    else
        printf("  %-22s weights + KV cache + activations + logits + temporaries\n", "peak allocated");
    printf("  %-22s peak allocated + allocator slack\n", "peak reserved");
    printf("  %-22s peak reserved + CUDA context\n", "device used");
    char pol[24];
    printf("\nassumed:\n");
    if (o->wl.mode == EST_MODE_TRAIN)
        printf("  %-22s %s: %s\n", "checkpointing", est_ckpt_describe(&o->wl, pol, sizeof pol),
               est_ckpt_keeps(o->wl.ckpt));
    printf("  %-22s %s\n", "loss path", est_loss_path(&o->wl));
    printf("  %-22s %s\n", "KV cache", est_cache_model(&o->wl));
}

static void print_figures(const struct est_result *r)
{
    struct { const char *what; int64_t v; } fig[] = {
        {"peak allocated (torch.cuda.max_memory_allocated)", r->peak_allocated_bytes},
        {"peak reserved  (torch.cuda.max_memory_reserved)", r->peak_reserved_bytes},
        {"device used    (nvidia-smi, context included)", r->device_used_bytes},
    };
    char b[32], pct[16];
    printf("\n");
    for (size_t i = 0; i < 3; i++) {
        pct_of(fig[i].v, r->capacity_bytes, pct, sizeof pct);
        printf("%-50s %12s  %6s\n", fig[i].what, units_format_bytes(fig[i].v, b, sizeof b), pct);
    }
    printf("%-50s %s\n", "peak phase", r->peak_phase);
    if (r->host_bytes > 0)
        printf("%-50s %12s\n", "host memory (offloaded states, per process)", units_format_bytes(r->host_bytes, b, sizeof b));
    if (r->managed_bytes > 0)
        printf("%-50s %12s\n", "paged optimizer states (in device used only)", units_format_bytes(r->managed_bytes, b, sizeof b));
}

/* The kind of workload in the user's words (est_kind order). */
static const char *const kind_phrase[EST_KIND__COUNT] = {
    "full-training", "LoRA", "QLoRA", "multi-GPU (DDP/ZeRO/FSDP)", "llm.c", "CPU-offload", "inference",
    "weight-loading",
};

/* How far off estimates of this kind have been on real measurements: the
 * runs nothing was tuned on first, the tuned ones beside. */
static void print_checked(const struct est_workload *wl)
{
    const struct est_checked *c = est_checked_for(est_kind_of(wl));
    const char *what = kind_phrase[c->kind];
    int held = c->rows - c->tuned;
    double mean = held ? c->held_mean_pct : c->mean_pct;
    if (c->rows == 0) {
        printf("accuracy   no measured %s runs to check against yet: unvalidated\n", what);
        return;
    }
    if (held && c->tuned)
        printf("accuracy   %d measured %s run%s not tuned on: error median %.1f%%, worst %.1f%% "
               "(with the %d tuned on: median %.1f%%, worst %.1f%%)", held, what, held == 1 ? "" : "s",
               c->held_median_pct, c->held_worst_pct, c->tuned, c->median_abs_pct, c->worst_abs_pct);
    else if (held)
        printf("accuracy   %d measured %s run%s (none tuned on): error median %.1f%%, worst %.1f%%",
               held, what, held == 1 ? "" : "s", c->held_median_pct, c->held_worst_pct);
    else
        printf("accuracy   %d measured %s run%s, all tuned on: error median %.1f%%, worst %.1f%%; "
               "none held out", c->rows, what, c->rows == 1 ? "" : "s", c->median_abs_pct, c->worst_abs_pct);
    if (fabs(mean) >= 10) /* a kind that runs one way: say which bound the peaks are */
        printf("; %.0f%% %s on average: read the peaks as %s bounds", fabs(mean),
               mean < 0 ? "low" : "high", mean < 0 ? "lower" : "upper");
    printf("\n");
}

/* Batch 1 does not fit: the fewest levers that make it fit, together. */
static void print_combo(const struct findings *f, long long seq)
{
    char a[32], b[32];
    if (f->max_batch != 0 || f->combo.n == 0) return;
    if (f->combo.n < 0) {
        printf("fit with   nothing: no combination of oomlab's levers makes batch 1 x seq %lld fit\n", seq);
        return;
    }
    printf("fit with   ");
    for (int i = 0; i < f->combo.n; i++) printf("%s%s", i ? " + " : "", f->combo.what[i]);
    printf(", together: batch 1 x seq %lld at %s device used (peak allocated %s)\n", seq,
           units_format_bytes(f->combo.device_used_bytes, a, sizeof a),
           units_format_bytes(f->combo.peak_allocated_bytes, b, sizeof b));
}

static void print_verdict(const struct opts *o, const struct findings *f)
{
    char a[32], b[32];
    const struct est_result *r = &f->r;
    int hr = (int)(o->wl.headroom * 100 + 0.5);
    printf("\n");
    if (r->fits < 0) {
        printf("verdict    capacity unknown: pass --gpu or --capacity\n");
    } else if (r->fits) {
        char c[32];
        printf("verdict    fits: %s of %s, %s free\n", units_format_bytes(r->device_used_bytes, a, sizeof a),
               units_format_bytes(r->capacity_bytes, b, sizeof b),
               units_format_bytes(r->capacity_bytes - r->device_used_bytes, c, sizeof c));
    } else {
        printf("verdict    over by %s (%s", units_format_bytes(r->over_bytes, a, sizeof a),
               units_format_bytes(r->device_used_bytes, b, sizeof b));
        printf(" needed, %s on the card)\n", units_format_bytes(r->capacity_bytes, a, sizeof a));
    }
    print_checked(&o->wl);
    if (r->fits >= 0 && o->wl.mode != EST_MODE_LOAD) {
        long long at = o->wl.mode == EST_MODE_INFER && o->wl.prompt_len ? o->wl.prompt_len : o->wl.seq;
        if (f->max_batch == 0)
            printf("max batch  none: batch 1 at seq %lld does not fit (%d%% headroom)\n", at, hr);
        else
            printf("max batch  %lld at seq %lld (%d%% headroom)\n", (long long)f->max_batch, at, hr);
        if (f->max_seq == 0)
            printf("max seq    none: seq 1 at batch %lld does not fit (%d%% headroom)\n", (long long)o->wl.batch, hr);
        else
            printf("max seq    %lld at batch %lld (%d%% headroom)\n", (long long)f->max_seq,
                   (long long)o->wl.batch, hr);
        print_combo(f, at);
    }
    for (int i = 0; i < f->n_levers && i < 4; i++)
        printf("%s %s saves %s\n", i ? "          " : "levers    ", f->levers[i].what,
               units_format_bytes(f->levers[i].saves_bytes, a, sizeof a));
}

static void print_table(const struct opts *o, const struct est_model *m, const struct findings *f)
{
    const struct est_workload *w = &o->wl;
    printf("model      %s (%s): %lld params, %lld trainable\n", m->name, est_family_name(m->family),
           (long long)f->r.params, (long long)f->r.trainable_params);
    if (w->mode == EST_MODE_INFER && w->prompt_len) /* the prompt, not --seq, is the length */
        printf("workload   infer, batch %lld x prompt %lld + %lld generated, %s", (long long)w->batch,
               (long long)w->prompt_len, (long long)w->gen_len, est_precision_name(w->precision));
    else
        printf("workload   %s, batch %lld x seq %lld, %s", est_mode_name(w->mode), (long long)w->batch,
               (long long)w->seq, est_precision_name(w->precision));
    char pol[24];
    if (w->mode == EST_MODE_TRAIN)
        printf(", %s, grad-ckpt %s, attention %s", est_optimizer_name(w->optimizer),
               est_ckpt_describe(w, pol, sizeof pol), est_attn_name(w->attention));
    if (w->trainer != EST_TRAINER_HF) printf(", %s", est_trainer_name(w->trainer));
    if (w->lora_r) printf(", LoRA r%lld (dropout %g)", (long long)w->lora_r, est_lora_dropout(w));
    if (w->quant) printf(", %s", est_quant_name(w->quant));
    if (w->gpus > 1 || w->shard) printf(", %lld GPU%s %s", (long long)w->gpus, w->gpus > 1 ? "s" : "",
                                        est_shard_name(w->shard));
    if (w->offload) printf(", %s offloaded to the CPU", est_offload_name(w->offload));
    printf("\ncard       %s\n\n", o->card[0] ? o->card : "unknown");
    print_components(o, f);
    print_figures(&f->r);
    print_verdict(o, f);
}

static void json_opt_bytes(struct json *j, const char *key, int64_t v)
{
    json_key(j, key);
    json_bytes(j, v);
}

static void print_json(const struct opts *o, const struct est_model *m, const struct findings *f)
{
    struct json j;
    const struct est_result *r = &f->r;
    json_init(&j, stdout, true);
    json_obj_begin(&j);
    json_key(&j, "schema"); json_str(&j, "oomlab.estimate.v1");
    json_key(&j, "model"); json_obj_begin(&j);
    json_key(&j, "name"); json_str(&j, m->name);
    json_key(&j, "arch"); json_str(&j, est_family_name(m->family));
    json_key(&j, "params"); json_int(&j, r->params);
    json_key(&j, "trainable_params"); json_int(&j, r->trainable_params);
    json_key(&j, "layers"); json_int(&j, m->layers);
    json_key(&j, "hidden"); json_int(&j, m->hidden);
    json_key(&j, "vocab"); json_int(&j, m->vocab);
    json_obj_end(&j);
    json_key(&j, "workload"); json_obj_begin(&j);
    json_key(&j, "mode"); json_str(&j, est_mode_name(o->wl.mode));
    json_key(&j, "batch"); json_int(&j, o->wl.batch);
    json_key(&j, "seq"); json_int(&j, o->wl.seq);
    json_key(&j, "precision"); json_str(&j, est_precision_name(o->wl.precision));
    json_key(&j, "optimizer"); json_str(&j, est_optimizer_name(o->wl.optimizer));
    char pol[24];
    json_key(&j, "grad_ckpt"); json_str(&j, est_ckpt_describe(&o->wl, pol, sizeof pol));
    json_key(&j, "attention"); json_str(&j, est_attn_name(o->wl.attention));
    json_key(&j, "trainer"); json_str(&j, est_trainer_name(o->wl.trainer));
    json_key(&j, "gpus"); json_int(&j, o->wl.gpus);
    json_key(&j, "shard"); json_str(&j, est_shard_name(o->wl.shard));
    json_key(&j, "offload"); json_str(&j, est_offload_name(o->wl.offload));
    json_key(&j, "lora_r"); json_int(&j, o->wl.lora_r);
    json_key(&j, "lora_dropout"); json_double(&j, est_lora_dropout(&o->wl));
    json_key(&j, "quant"); json_str(&j, est_quant_name(o->wl.quant));
    json_key(&j, "prompt_len"); json_int(&j, o->wl.prompt_len);
    json_key(&j, "gen_len"); json_int(&j, o->wl.gen_len);
    json_key(&j, "cache"); json_str(&j, est_cache_name(o->wl.cache));
    json_obj_end(&j);
    json_key(&j, "assumed"); json_obj_begin(&j);
    json_key(&j, "checkpointing");
    if (o->wl.mode == EST_MODE_TRAIN) json_str(&j, est_ckpt_keeps(o->wl.ckpt)); else json_null(&j);
    json_key(&j, "loss_path"); json_str(&j, est_loss_path(&o->wl));
    json_key(&j, "cache_model"); json_str(&j, est_cache_model(&o->wl));
    json_obj_end(&j);
    json_key(&j, "components"); json_arr_begin(&j);
    for (int i = 0; i < EST_C__COUNT; i++) {
        json_obj_begin(&j);
        json_key(&j, "name"); json_str(&j, r->comp[i].name);
        json_opt_bytes(&j, "bytes", r->comp[i].bytes);
        json_key(&j, "at_peak"); json_bool(&j, r->comp[i].at_peak);
        if (o->explain) { json_key(&j, "formula"); json_str(&j, r->comp[i].formula); }
        json_obj_end(&j);
    }
    json_arr_end(&j);
    json_opt_bytes(&j, "peak_allocated_bytes", r->peak_allocated_bytes);
    json_opt_bytes(&j, "peak_reserved_bytes", r->peak_reserved_bytes);
    json_opt_bytes(&j, "device_used_bytes", r->device_used_bytes);
    json_opt_bytes(&j, "capacity_bytes", r->capacity_bytes);
    json_opt_bytes(&j, "host_offload_bytes", r->host_bytes);
    json_opt_bytes(&j, "managed_bytes", r->managed_bytes);
    json_key(&j, "card");
    if (o->card[0]) json_str(&j, o->card); else json_null(&j);
    json_key(&j, "capacity_source");
    if (o->capacity_source[0]) json_str(&j, o->capacity_source); else json_null(&j);
    json_key(&j, "peak_phase"); json_str(&j, r->peak_phase);
    json_key(&j, "fits");
    if (r->fits < 0) json_null(&j); else json_bool(&j, r->fits);
    json_opt_bytes(&j, "over_bytes", r->fits < 0 ? -1 : r->over_bytes);
    json_key(&j, "headroom_percent"); json_double(&j, o->wl.headroom * 100);
    json_key(&j, "max_batch");
    if (f->max_batch < 0) json_null(&j); else json_int(&j, f->max_batch);
    json_key(&j, "max_seq");
    if (f->max_seq < 0) json_null(&j); else json_int(&j, f->max_seq);
    const struct est_checked *chk = est_checked_for(est_kind_of(&o->wl));
    json_key(&j, "checked"); json_obj_begin(&j);
    json_key(&j, "kind"); json_str(&j, est_kind_name(est_kind_of(&o->wl)));
    json_key(&j, "rows"); json_int(&j, chk->rows);
    json_key(&j, "tuned_rows"); json_int(&j, chk->tuned);
    json_key(&j, "median_abs_error_pct");
    if (chk->rows) json_double(&j, chk->median_abs_pct); else json_null(&j);
    json_key(&j, "worst_abs_error_pct");
    if (chk->rows) json_double(&j, chk->worst_abs_pct); else json_null(&j);
    json_key(&j, "mean_error_pct");
    if (chk->rows) json_double(&j, chk->mean_pct); else json_null(&j);
    int held = chk->rows - chk->tuned;
    json_key(&j, "untuned_rows"); json_int(&j, held);
    json_key(&j, "untuned_median_abs_error_pct");
    if (held) json_double(&j, chk->held_median_pct); else json_null(&j);
    json_key(&j, "untuned_worst_abs_error_pct");
    if (held) json_double(&j, chk->held_worst_pct); else json_null(&j);
    json_key(&j, "untuned_mean_error_pct");
    if (held) json_double(&j, chk->held_mean_pct); else json_null(&j);
    json_key(&j, "sources"); json_str(&j, chk->sources);
    json_obj_end(&j);
    json_key(&j, "fit_with"); /* batch 1 does not fit: the fewest levers that make it, together */
    if (f->max_batch != 0 || f->combo.n <= 0) {
        json_null(&j);
    } else {
        json_obj_begin(&j);
        json_key(&j, "changes"); json_arr_begin(&j);
        for (int i = 0; i < f->combo.n; i++) json_str(&j, f->combo.what[i]);
        json_arr_end(&j);
        json_opt_bytes(&j, "device_used_bytes", f->combo.device_used_bytes);
        json_opt_bytes(&j, "peak_allocated_bytes", f->combo.peak_allocated_bytes);
        json_obj_end(&j);
    }
    json_key(&j, "levers"); json_arr_begin(&j);
    for (int i = 0; i < f->n_levers; i++) {
        json_obj_begin(&j);
        json_key(&j, "change"); json_str(&j, f->levers[i].what);
        json_opt_bytes(&j, "saves_bytes", f->levers[i].saves_bytes);
        json_obj_end(&j);
    }
    json_arr_end(&j);
    json_obj_end(&j);
    json_finish(&j);
}

int cmd_estimate(int argc, char **argv)
{
    struct opts o;
    struct est_model m;
    struct findings f;
    struct oomlab_err err = {{0}};
    int rc = parse_opts(argc, argv, &o);
    if (rc == -2) return EXIT_OK;
    if (rc) return rc;
    if (o.list_models || o.list_gpus) return list_tables(&o);
    if (o.gpu_name && !gpus_find(o.gpu_name))
        return cmd_usage_error(NAME, "--gpu: unknown card '%s' (see --list-gpus)", o.gpu_name);
    if (get_model(&o, &m, &err)) return cmd_fail(NAME, &err, EXIT_USAGE);
    get_card(&o, &err);
    memset(&f, 0, sizeof f);
    if (est_compute(&m, &o.wl, &f.r, &err) || est_max_batch(&m, &o.wl, &f.max_batch, &err) ||
        est_max_seq(&m, &o.wl, &f.max_seq, &err) ||
        est_levers(&m, &o.wl, f.levers, N_LEVERS, &f.n_levers, &err) ||
        (f.max_batch == 0 && est_fit_combo(&m, &o.wl, &f.combo, &err)))
        return cmd_fail(NAME, &err, EXIT_USAGE);
    if (o.json) print_json(&o, &m, &f);
    else print_table(&o, &m, &f);
    return f.r.fits == 0 ? EXIT_FOUND : EXIT_OK; /* main checks what reached stdout */
}
