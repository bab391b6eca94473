/* estimate: the memory budget of a model and workload against the card.
 * Options -> struct est_model / est_workload -> est_compute -> table or JSON
 * (schema oomlab.estimate.v1, docs/estimate.md). Exit 0 fits (or capacity
 * unknown), 1 does not fit, 2 bad input. */
#include "cmd/cmd.h"

#include <ctype.h>
#include <errno.h>
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

static const char usage_head[] =
    "usage: oomlab estimate [MODEL] [options]\n"
    "\n"
    "Memory budget of a model and workload against the card: weights, gradients,\n"
    "optimizer states, activations, logits, KV cache, temporaries, CUDA context and\n"
    "allocator slack; peak allocated / reserved / device used; max batch and seq.\n"
    "\n";
static const char usage_tail[] = "\nExit: 0 fits or capacity unknown, 1 does not fit, 2 bad input, 3 cannot write.\n";

struct opts {
    const char *model_arg;
    struct est_model over; /* explicit dimensions; 0 = not given */
    int arch, tied, dropout, quant; /* -1 not given */
    int64_t quant_group;            /* -2 not given (the option's floor is -1) */
    bool attn_given;                /* --attention given; else sdpa, or eager where the family has no SDPA */
    struct est_workload wl;
    const char *gpu_name;
    const char *capacity_arg; /* --capacity as written (its unit: decimal GB is said) */
    const char *torch, *cuda; /* --torch / --cuda: the CUDA context by version (gpus_context) */
    int card_sm;              /* the table card's compute capability x 10 (gpus_context); 0 unknown */
    const char *torchao;      /* --torchao: its to_nf4 transient by version */
    const char *peft;         /* --peft: LoRA adapters' dtype by version */
    const char *transformers; /* --transformers: the causal-LM loss path by version */
    bool list_models, list_gpus, explain, json, have_capacity, have_context;
    bool no_foreach; /* --no-foreach or --fused */
    bool fused;      /* --fused: no working copy at all (DeepSpeed FusedAdam, torch fused=True) */
    char card[192];
    char capacity_source[16]; /* "--capacity", "--gpu", "nvml"; "" unknown */
    char capacity_unknown[sizeof ((struct oomlab_err *)0)->msg]; /* why NVML gave none: said once the input is known good */
};

/* --mode, --optimizer, ...: a name its lib/est parser knows, into an int
 * (enum) field; the parser goes by the option's name. */
static const struct {
    const char *option;
    int (*parse)(const char *);
} choices[] = {
    {"arch", est_family_parse},       {"mode", est_mode_parse},       {"optimizer", est_optimizer_parse},
    {"precision", est_precision_parse}, {"attention", est_attn_parse}, {"quant", est_quant_parse},
    {"shard", est_shard_parse},       {"offload", est_offload_parse}, {"loss", est_loss_parse},
    {"head", est_head_parse},         {"trainer", est_trainer_parse}, {"cache", est_cache_parse},
    {"mask", est_mask_parse},         {"prefill-logits", est_prefill_logits_parse},
    {"use-cache", est_auto_yes_no_parse}, {"compile-loss", est_auto_yes_no_parse},
    {"loss-upcast", est_auto_yes_no_parse}, {"loop-holds", est_keep_parse}, {"layer-buffers", est_layer_buffers_parse},
    {"var-order", est_len_order_parse},
    {"quant-storage", est_quant_storage_parse}, {"autograd", est_autograd_parse},
    {"quant-kernel", est_qkernel_parse},
};

static int parse_choice(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    for (size_t i = 0; i < sizeof choices / sizeof choices[0]; i++) {
        if (strcmp(choices[i].option, o->name)) continue;
        int v = choices[i].parse(val);
        if (v < 0 || size != sizeof v) break;
        memcpy(dst, &v, sizeof v);
        return 0;
    }
    if (!strcmp(o->name, "arch")) {
        /* its metavar names no value, unlike the other choices' */
        char names[384];
        est_family_arch_names(names, sizeof names);
        return oomlab_err_set(err, "--arch: unknown family '%s' (one of: %s)", val, names);
    }
    return oomlab_err_set(err, "--%s: unknown value '%s'", o->name, val);
}

/* --grad-ckpt POLICY: the policy and every:N's N, into the workload. */
static int parse_ckpt(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    struct est_workload *w = dst;
    if (est_ckpt_parse_arg(val, &w->ckpt, &w->ckpt_every))
        return oomlab_err_set(err, "--%s: unknown policy '%s' (none, attn-core, block, every:N, op)", o->name, val);
    return 0;
}

/* --capacity SIZE (above 0) and --context SIZE, into an int64_t. */
static int parse_size(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    bool cap = !strcmp(o->name, "capacity");
    if (units_parse_size_arg(val, dst) || (cap && *(int64_t *)dst <= 0))
        return oomlab_err_set(err, "--%s wants a size such as %s, got '%s'", o->name, cap ? "80GiB" : "500MiB", val);
    if (units_size_arg_bare_small(val, *(int64_t *)dst))
        return oomlab_err_set(err, "--%s '%s': a bare number is bytes (%s B); give a unit, e.g. %s%s", o->name,
                              val, val, val, cap ? "GiB" : "MiB");
    return 0;
}

/* --capacity SIZE: checked as parse_size does, kept as written (capacity_arg). */
static int parse_capacity(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    int64_t bytes;
    if (parse_size(o, val, &bytes, sizeof bytes, err) < 0) return -1;
    return opt_string(o, val, dst, size, err);
}

/* The built-in cards whose name holds what --gpu gave, lower-case letters
 * and digits only ("A100" -> a100-40gb, a100-80gb), comma-separated into
 * out ("" none). */
static size_t gpu_candidates(const char *given, char *out, size_t size)
{
    char want[64];
    size_t w = 0, used = 0, n = 0, found = 0;
    for (const char *c = given; *c && w + 1 < sizeof want; c++)
        if (isalnum((unsigned char)*c)) want[w++] = (char)tolower((unsigned char)*c);
    want[w] = '\0';
    out[0] = '\0';
    if (w < 2) return 0;
    const struct gpu_card *cards = gpus_table(&n);
    for (size_t i = 0; i < n; i++) {
        char have[64];
        size_t h = 0;
        for (const char *c = cards[i].name; *c && h + 1 < sizeof have; c++)
            if (isalnum((unsigned char)*c)) have[h++] = (char)tolower((unsigned char)*c);
        have[h] = '\0';
        if (!strstr(have, want)) continue;
        int k = snprintf(out + used, size - used, "%s%s", used ? ", " : "", cards[i].name);
        if (k < 0 || (size_t)k >= size - used) break;
        used += (size_t)k;
        found++;
    }
    return found;
}

/* Training-only options under --mode infer|load changed nothing and said
 * nothing (--grad-ckpt is refused in parse_opts; these are only named: an
 * option set shared between a training and an inference call is common). */
static void note_train_only(const struct opts *o)
{
    if (o->wl.mode == EST_MODE_TRAIN) return;
    struct est_workload d;
    est_workload_init(&d);
    const struct est_workload *w = &o->wl;
    const struct {
        bool given;
        const char *name;
    } train_only[] = {
        {w->optimizer != d.optimizer, "--optimizer"},
        {w->grad_accum != d.grad_accum, "--grad-accum"},
        {o->no_foreach && !o->fused, "--no-foreach"},
        {o->fused, "--fused"},
        {w->master_weights, "--master-weights"},
        {w->keep_grads, "--keep-grads"},
        {w->loss != d.loss, "--loss"},
        {w->loop_holds != d.loop_holds && !w->autograd, "--loop-holds"}, /* --autograd: the eval loop's */
        {w->longest_first, "--longest-first"},
        {w->use_cache != d.use_cache, "--use-cache"},
        {w->len_mean > 0, "--var-len"},
        {w->compiled, "--compile"},
        {w->shard == EST_SHARD_ZERO1 || w->shard == EST_SHARD_ZERO2,
         w->shard == EST_SHARD_ZERO1 ? "--shard zero1" : "--shard zero2"},
    };
    char names[256] = "";
    size_t used = 0, n = 0;
    for (size_t i = 0; i < sizeof train_only / sizeof *train_only; i++) {
        if (!train_only[i].given) continue;
        int k = snprintf(names + used, sizeof names - used, "%s%s", n ? ", " : "", train_only[i].name);
        if (k > 0 && (size_t)k < sizeof names - used) used += (size_t)k;
        n++;
    }
    if (n)
        fprintf(stderr, "oomlab %s: note: %s change%s only a training estimate: ignored under --mode %s\n", NAME,
                names, n == 1 ? "s" : "", est_mode_name(w->mode));
}

/* A decimal unit (GB, G, TB, MB...) in a card's size: 80GB is 74.51 GiB,
 * while a card sold as "80GB" holds about 80 GiB (nvidia-smi's 81920MiB).
 * The stated rule (GB = 10^9, 1000-based) stays; a note says what it gave. */
static void note_decimal_capacity(const struct opts *o)
{
    const char *v = o->capacity_arg;
    if (!v) return;
    size_t len = strlen(v);
    const char *unit = v + strspn(v, "0123456789. ");
    if (!*unit || strchr(unit, 'i') || len < 2) return; /* bytes, or a binary unit */
    char got[32], gib[64];
    units_format_bytes(o->wl.capacity_bytes, got, sizeof got);
    snprintf(gib, sizeof gib, "%.*s%ciB", (int)(unit - v), v, toupper((unsigned char)*unit));
    fprintf(stderr,
            "oomlab %s: note: --capacity %s is 1000-based: %s; a card sold as \"%s\" holds about %s "
            "(write %s, or --gpu NAME)\n",
            NAME, v, got, v, gib, gib);
}

static int parse_headroom(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    double pct;
    if (units_parse_percent(val, &pct) || pct >= 90)
        return oomlab_err_set(err, "--%s wants a percentage below 90, got '%s'", o->name, val);
    *(double *)dst = pct / 100.0;
    return 0;
}

static int parse_probability(const struct opt_spec *o, const char *val, void *dst, size_t size,
                             struct oomlab_err *err)
{
    char *end;
    errno = 0;
    double p = strtod(val, &end);
    if (errno || end == val || *end || !(p >= 0 && p < 1))
        return oomlab_err_set(err, "--%s wants a probability in [0, 1), got '%s'", o->name, val);
    *(double *)dst = p;
    return 0;
}

static int parse_targets(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    if (est_lora_targets_parse(val, dst))
        return oomlab_err_set(err, "--%s: unknown target in '%s'", o->name, val);
    return 0;
}

/* --cache-len N (positions) or max (the model's max positions: -1). */
static int parse_cache_len(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    char *end;
    if (!strcmp(val, "max")) {
        *(int64_t *)dst = -1;
        return 0;
    }
    errno = 0;
    long long n = strtoll(val, &end, 10);
    if (errno || end == val || *end || n < 1 || n > (1 << 24))
        return oomlab_err_set(err, "--%s wants positions (1..%d) or max, got '%s'", o->name, 1 << 24, val);
    *(int64_t *)dst = n;
    return 0;
}

/* --var-len MEAN,SD: the samples' mean length and its standard deviation
 * (tokens), into the workload. */
static int parse_var_len(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    struct est_workload *w = dst;
    char *end, *end2;
    errno = 0;
    double mean = strtod(val, &end), sd = 0;
    if (!errno && end != val && *end == ',') {
        sd = strtod(end + 1, &end2);
        end = end2;
    }
    if (errno || end == val || *end || !(mean >= 1 && mean <= (1 << 24)) || !(sd >= 0 && sd <= (1 << 24)))
        return oomlab_err_set(err, "--%s wants MEAN,SD in tokens (e.g. 3234,2548), got '%s'", o->name, val);
    w->len_mean = mean;
    w->len_sd = sd;
    return 0;
}

/* --ds-bucket / --ds-prefetch / --ds-persist N|auto, --ds-max-live N:
 * elements, or transformers' "auto" (EST_DS_AUTO: from the hidden size)
 * where the option's metavar offers it (DeepSpeed has none for
 * stage3_max_live_parameters). */
static int parse_ds_elems(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    bool has_auto = strstr(o->metavar, "auto") != NULL;
    if (has_auto && !strcmp(val, "auto")) {
        *(int64_t *)dst = EST_DS_AUTO;
        return 0;
    }
    char *end;
    errno = 0;
    double v = strtod(val, &end); /* DeepSpeed configs write 5e8, 2e8 */
    if (errno || end == val || *end || !(v >= 1 && v <= 1099511627776.0) || v != floor(v))
        return oomlab_err_set(err, "--%s wants elements (such as 5e8 or 200000000)%s, got '%s'", o->name,
                              has_auto ? " or auto" : "", val);
    *(int64_t *)dst = (int64_t)v;
    return 0;
}

/* --ds-persist N|auto: also 0 (DeepSpeed's "persist nothing"), which the
 * field holds as EST_DS_NONE since its 0 is "unset". */
static int parse_ds_persist(const struct opt_spec *o, const char *val, void *dst, size_t size,
                            struct oomlab_err *err)
{
    char *end;
    errno = 0;
    double v = strtod(val, &end);
    if (!errno && end != val && !*end && v == 0) {
        *(int64_t *)dst = EST_DS_NONE;
        return 0;
    }
    return parse_ds_elems(o, val, dst, size, err);
}

/* --ds-overlap-comm on|off, into an int (-1 = the stage's default). */
static int parse_on_off(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    if (strcmp(val, "on") && strcmp(val, "off") && strcmp(val, "true") && strcmp(val, "false"))
        return oomlab_err_set(err, "--%s wants on or off, got '%s'", o->name, val);
    *(int *)dst = !strcmp(val, "on") || !strcmp(val, "true");
    return 0;
}

/* --kv-layout grouped|expanded, into a bool. */
static int parse_kv_layout(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    if (strcmp(val, "grouped") && strcmp(val, "expanded"))
        return oomlab_err_set(err, "--%s: unknown value '%s' (grouped, expanded)", o->name, val);
    *(bool *)dst = !strcmp(val, "expanded");
    return 0;
}

/* --gen-loop auto|gpt-fast|torchtune, into an enum est_gen_loop. */
static int parse_gen_loop(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    static const char *const names[] = {"auto", "gpt-fast", "torchtune"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(val, names[i])) {
            *(int *)dst = i; /* enum est_gen_loop's order */
            return 0;
        }
    return oomlab_err_set(err, "--%s: unknown value '%s' (auto, gpt-fast, torchtune)", o->name, val);
}

#define AT(f) OPT_FIELD(struct opts, f)
#define DIM(n, f, h) {.name = n, .metavar = "N", .parse = opt_int, AT(over.f), .min = 1, .max = (long long)1 << 40, .help = h}
#define COUNT(n, mv, f, lo, h) {.name = n, .metavar = mv, .parse = opt_int, AT(wl.f), .min = lo, .max = INT64_MAX, .help = h}
#define CHOICE(n, mv, f, h) {.name = n, .metavar = mv, .parse = parse_choice, AT(f), .help = h}
static const struct opt_spec specs[] = {
    {.name = "list-models", .help = "the built-in model presets", AT(list_models),
     .group = "MODEL: a HuggingFace config.json (or a directory holding one) or a preset."},
    {.name = "list-gpus", .help = "the built-in cards", AT(list_gpus)},
    CHOICE("arch", "F", arch, "model family (with the dimensions below: no\nconfig.json needed)"),
    DIM("layers", layers, "transformer layers"),
    DIM("hidden", hidden, "hidden size"),
    DIM("heads", heads, "attention heads"),
    DIM("kv-heads", kv_heads, "key/value heads (grouped-query attention)"),
    DIM("head-dim", head_dim, "dimension of one head"),
    DIM("ffn", ffn, "feed-forward (intermediate) size"),
    DIM("vocab", vocab, "vocabulary size"),
    DIM("experts", experts, "MoE experts"),
    DIM("experts-per-token", experts_per_token, "experts each token is routed to"),
    DIM("sliding-window", sliding_window, "attention window in tokens"),
    DIM("max-positions", max_positions, "position table rows / context length\n(max_position_embeddings)"),
    DIM("decoder-layers", decoder_layers, "decoder layers (encoder-decoder models)"),
    {.name = "tied-embeddings", .help = "input and output embeddings shared", AT(tied), .flag_value = 1},
    {.name = "untied-embeddings", .help = "input and output embeddings not shared", AT(tied), .flag_value = 0},
    {.name = "dropout", .help = "trained with dropout (default: the family's or the\nconfig's)", AT(dropout),
     .flag_value = 1},
    {.name = "no-dropout", .help = "trained without dropout", AT(dropout), .flag_value = 2},
    {.name = "batch", .metavar = "B", .parse = opt_int, AT(wl.batch), .min = 1, .max = INT64_MAX,
     .help = "micro-batch (default 1)", .group = "workload:"},
    COUNT("seq", "S", seq, 1, "sequence length (default 512)"),
    COUNT("grad-accum", "N", grad_accum, 1, "gradient accumulation steps (default 1)"),
    CHOICE("mode", "train|infer|load", wl.mode, "what the card does (default train)"),
    CHOICE("optimizer", "adamw|adamw-8bit|sgd|sgd-momentum|adafactor|lion|none|paged-adamw", wl.optimizer,
           "the optimizer (default adamw)"),
    {.name = "no-foreach", .help = "per-tensor optimizer step: no full-size working copy", AT(no_foreach)},
    {.name = "compile", .help = "torch.compile'd training (torchtitan --training.compile,\nHF --torch_compile, torch.compile(model)): blocks keep\nthe min-cut partitioner's saved set (torch 2's rules;\n--torch 1.x: functorch 1.13's)", AT(wl.compiled)},
    CHOICE("compile-loss", "auto|yes|no", wl.compile_loss,
           "cross-entropy under torch.compile (--trainer torchtitan:\nits loss_fn, compiled under --training.compile since\n2025-04-02; auto: yes with --compile; yes with\n--trainer torchtune --compile: own model code whose\nforward takes the loss, torch.compile(model)): the\n16-bit logits kept, a 16-bit gradient, no fp32 buffers"),
    CHOICE("loss-upcast", "auto|yes|no", wl.loss_upcast,
           "cross-entropy's dtype: yes, fp32 logits (autocast, a\n.float() in the model or loss); no, the model's 16-bit\nlogits as returned (pure fp16/bf16, no autocast, no\n.float(): F.cross_entropy(model(x)...) on a model\n.to(bfloat16)); auto: the trainer's own (fp32; 16-bit\nfor HF under DeepSpeed where the head returns 16-bit)"),
    {.name = "fused", .help = "fused optimizer step (DeepSpeed's FusedAdam, torch\nfused=True): no working copy", AT(fused)},
    CHOICE("precision", "fp32|fp16|bf16|fp16-mixed|bf16-mixed|fp16-autocast|bf16-autocast", wl.precision,
           "the training precision (default bf16-mixed): fp16/bf16\npure 16-bit; -mixed autocast on fp32 weights;\n-autocast autocast on 16-bit weights (HF Trainer\n--bf16 on a model loaded in bf16)"),
    {.name = "master-weights", .help = "fp32 master weights beside half-precision ones", AT(wl.master_weights)},
    {.name = "keep-grads", .help = "zero_grad keeps gradients allocated: PyTorch < 2.0", AT(wl.keep_grads)},
    {.name = "no-reshard", .help = "with --shard fsdp: blocks stay gathered from forward\nto backward (FSDP SHARD_GRAD_OP, FSDP2\nreshard_after_forward=False)", AT(wl.no_reshard)},
    CHOICE("loop-holds", "auto|none|logits|outputs", wl.loop_holds,
           "what the training loop holds of the model's output:\nlogits through backward (torchtune before 2024-07-28,\nfsdp_qlora's output); outputs, logits + K/V presents,\nthrough backward into the next forward (optimum's\nbenchmark); none (HF Trainer's compute_loss); auto:\nthe trainer's own (HF logits held, torchtune none);\nwith --autograd, logits|outputs: an eval loop's\nprevious output, its graph, alive through the next\nforward"),
    {.name = "keep-logits", .help = "old spelling of --loop-holds logits", AT(wl.loop_holds),
     .flag_value = EST_KEEP_LOGITS},
    {.name = "longest-first", .help = "--seq is the first micro-batch only, later ones shorter\n(lit-gpt before 2024 forces the longest sample first)",
     AT(wl.longest_first)},
    {.name = "keep-outputs", .help = "old spelling of --loop-holds outputs", AT(wl.loop_holds),
     .flag_value = EST_KEEP_OUTPUTS},
    CHOICE("use-cache", "auto|yes|no", wl.use_cache,
           "training forward returns K/V presents (auto: HF\ndecoders without gradient checkpointing)"),
    {.name = "var-len", .metavar = "MEAN,SD", .parse = parse_var_len, AT(wl),
     .help = "sample lengths vary (lognormal, cut at --seq, padded\nper micro-batch): reserved high-water mark"},
    CHOICE("var-order", "random|sorted|longest-first", wl.len_order, "the sampler's order of lengths (default random)"),
    COUNT("var-samples", "N", len_samples, 1, "samples in the epoch (default 1000)"),
    CHOICE("layer-buffers", "auto|none", wl.layer_buffers,
           "per-layer causal-mask/rotary buffers (auto: HF\nGPT-NeoX, GPT-2)"),
    {.name = "grad-ckpt", .metavar = "none|attn-core|block|every:N|op", .parse = parse_ckpt, AT(wl),
     .help = "activation checkpointing (selective = attn-core,\nfull = block)"},
    CHOICE("attention", "eager|sdpa|flash|sdpa-math", wl.attention,
           "attention kernel (default sdpa, eager for gptj and\ngpt_oss, which have no SDPA; sdpa-math: SDPA with\nan explicit mask on torch 2.0)"),
    CHOICE("loss", "ce|chunked|sum", wl.loss, "the loss's logits path"),
    CHOICE("head", "lm|cls|none", wl.head, "the output head"),
    CHOICE("trainer", "hf|torchtune|litgpt|llm.c|torchtitan", wl.trainer,
           "what the training code keeps alive (default hf)"),
    COUNT("lora-r", "R", lora_r, 0, "LoRA rank"),
    {.name = "lora-targets", .metavar = "q,k,v,o,gate,up,down|attn|mlp|all", .parse = parse_targets,
     AT(wl.lora_targets), .help = "the layers LoRA adapts (default q,v)"},
    CHOICE("quant", "none|int8|nf4|nf4-dq|gptq|awq|fp8", quant,
           "base weights quantized (with --lora-r: QLoRA);\ngptq, awq: pre-quantized 4-bit checkpoints;\nfp8: 1-byte "
           "linears + fp32 scales (inference);\ndefault: the config.json's quantization_config"),
    {.name = "quant-group", .metavar = "N", .parse = opt_int, AT(quant_group), .min = -1, .max = INT64_MAX,
     .help = "gptq/awq inputs per scale (group_size; default the\nconfig's, else 128; -1 per channel)"},
    CHOICE("quant-kernel", "auto|gemm|exllama|exllama-v2", wl.quant_kernel,
           "awq's kernels (AwqConfig version; default auto: the\nconfig's, else gemm): exllama-v2 (version \"exllama\")\nkeeps a scratch buffer; both exllama repack at load"),
    CHOICE("quant-storage", "auto|uint8|model", wl.quant_storage,
           "4-bit data's storage dtype (bnb_4bit_quant_storage);\nPEFT keeps adapters fp32 on uint8 (default auto:\nmodel under fsdp/zero3, else uint8)"),
    {.name = "kbit-prep", .help = "PEFT prepare_model_for_kbit_training: the 16-bit\nparameters cast to fp32, fp32 activations (with --quant)",
     AT(wl.kbit_prep)},
    {.name = "kbit-prep-trl", .help = "TRL SFTTrainer's QLoRA under bf16: --kbit-prep, then\nembedding and lm_head cast back to bf16, norms\nfp32 (fp32 residual stream; with --quant)",
     AT(wl.kbit_trl)},
    {.name = "bnb-legacy", .help = "bitsandbytes < 0.43: 4-bit weights quantized from\nfp16 (a bf16 copy beside each dequantized one)",
     AT(wl.bnb_fp16_state)},
    {.name = "lora-dropout", .metavar = "P", .parse = parse_probability, AT(wl.lora_dropout),
     .help = "adapters' dropout; default PEFT/torchtune 0,\nlitgpt 0.05"},
    COUNT("gpus", "N", gpus, 1, "GPUs the job is spread over (default 1)"),
    CHOICE("shard", "none|zero0|zero1|zero2|zero3|fsdp|gemini", wl.shard,
           "how states are sharded over --gpus (DeepSpeed's zero1-3\nalso on one GPU; zero0: DeepSpeed's engine at stage 0,\nall-reduce after backward; gemini: ColossalAI's chunks,\nstatic placement, --offload for its offload fractions)"),
    {.name = "ds-bucket", .metavar = "N|auto", .parse = parse_ds_elems, AT(wl.ds_bucket),
     .help = "DeepSpeed reduce_bucket_size in elements (default\nzero1/2 5e8, zero3 auto = hidden^2)"},
    {.name = "ds-overlap-comm", .metavar = "on|off", .parse = parse_on_off, AT(wl.ds_overlap),
     .help = "DeepSpeed overlap_comm: two reduce buckets for\nzero1/zero2 (default off; zero3 on)"},
    {.name = "ds-zero-init", .metavar = "on|off", .parse = parse_on_off, AT(wl.ds_zero_init),
     .help = "ZeRO-3: the model was built under deepspeed.zero.Init\n(default on; off: loaded before DeepSpeed's config,\ne.g. from_pretrained before TrainingArguments: each\ngathered weight stays until its backward)"},
    {.name = "ds-prefetch", .metavar = "N|auto", .parse = parse_ds_elems, AT(wl.ds_prefetch),
     .help = "stage3_prefetch_bucket_size (default auto = 0.9 x\nhidden^2; gathered only on several GPUs)"},
    {.name = "ds-max-live", .metavar = "N", .parse = parse_ds_elems, AT(wl.ds_max_live),
     .help = "stage3_max_live_parameters (default 1e9): the\nprefetch stops where gathered elements reach it"},
    {.name = "ds-persist", .metavar = "N|auto", .parse = parse_ds_persist, AT(wl.ds_persist),
     .help = "stage3_param_persistence_threshold (default 1e5,\nauto = 10 x hidden): params this small stay\ngathered on every GPU, also under --offload params"},
    COUNT("prompt-len", "N", prompt_len, 0, "prompt tokens (generation)"),
    COUNT("gen-len", "N", gen_len, 0, "generated tokens"),
    CHOICE("cache", "dynamic|legacy|static|none|rolling", wl.cache,
           "generation's KV cache: HF DynamicCache, old tuple\ncache, StaticCache; none: a forward keeping no K, V\n(use_cache=False; BERT/RoBERTa's default), with\n--gen-len every step rerunning the whole sequence;\nrolling: a window of --cache-len positions rolled\nleft when full (AutoAWQ fused modules: N =\nmax_new_tokens)"),
    {.name = "cache-len", .metavar = "N|max", .parse = parse_cache_len, AT(wl.cache_len),
     .help = "static or rolling cache positions (default prompt +\ngenerated; max: the model's max positions)"},
    {.name = "fuse-layers", .help = "AutoAWQ from_quantized(fuse_layers=True): q, k, v\nfused at load, both copies alive until the swap (with\n--quant awq --cache rolling)", AT(wl.fuse_layers)},
    {.name = "kv-layout", .metavar = "grouped|expanded", .parse = parse_kv_layout, AT(wl.kv_expanded),
     .help = "K, V stored per KV head, or for every query head"},
    {.name = "gen-loop", .metavar = "auto|gpt-fast|torchtune", .parse = parse_gen_loop, AT(wl.gen_loop),
     .help = "generation's loop: auto the trainer's (HF generate);\ngpt-fast: gpt-fast's / torchao's generate.py;\ntorchtune: torchtune's generate() (both with\n--cache static)"},
    CHOICE("mask", "auto|none|4d|square|rows|max-positions", wl.mask, "generation's causal mask (default auto: HF's)"),
    CHOICE("prefill-logits", "auto|last|all", wl.prefill_logits,
           "prompt positions prefill computes logits for"),
    CHOICE("autograd", "off|on|train", wl.autograd,
           "an inference forward with grad enabled (no\ntorch.no_grad / inference_mode): on, model.eval();\ntrain, model.train() (dropout); every op's saved\ntensors held with the output (default off; not with\n--gen-len: generate() runs under no_grad)"),
    CHOICE("offload", "none|optimizer|params", wl.offload,
           "host memory: ZeRO-Offload, FSDP CPU offload"),
    {.name = "optim-in-bwd", .help = "the optimizer step fused into backward, each gradient\nfreed at its hook (torchtune optimizer_in_bwd)",
     AT(wl.optim_in_bwd)},
    {.name = "act-offload", .help = "saved activations in host memory (torchtune\nenable_activation_offloading, save_on_cpu): one\nblock's (with --grad-ckpt block its input) on the GPU",
     AT(wl.act_offload)},
    {.name = "capacity", .metavar = "SIZE", .parse = parse_capacity, AT(capacity_arg), .group = "card:",
     .help = "the card's memory (else --gpu, else the local card\nthrough NVML); GiB = 2^30 bytes, GB or G = 10^9"},
    {.name = "gpu", .metavar = "NAME", .parse = opt_string, AT(gpu_name), .help = "a built-in card (--list-gpus)"},
    {.name = "context", .metavar = "SIZE", .parse = parse_size, AT(wl.context_bytes),
     .help = "CUDA context (default: the card's, or by --torch/--cuda)"},
    {.name = "nccl", .metavar = "SIZE", .parse = parse_size, AT(wl.nccl_bytes),
     .help = "NCCL buffers on each GPU of a --gpus run (default: by\nthe card's link, 544/688 MiB on NVLink; 0: none)"},
    {.name = "torch", .metavar = "VERSION", .parse = opt_string, AT(torch),
     .help = "torch.__version__ (1.4, 1.7.1+cu110): before 1.13 every\nkernel loads at start, a larger CUDA context"},
    {.name = "torchao", .metavar = "VERSION", .parse = opt_string, AT(torchao),
     .help = "torchao.__version__ under --trainer torchtune --quant\nnf4*: 0.1 quantizes a whole weight at once (68 B per\nelement), 0.2 on in chunks (default)"},
    {.name = "peft", .metavar = "VERSION", .parse = opt_string, AT(peft),
     .help = "peft.__version__ under --lora-r: from 0.12 (default)\nLoRA adapters on 16-bit weights are fp32, before it\nthe weights' dtype"},
    {.name = "transformers", .metavar = "VERSION", .parse = opt_string, AT(transformers),
     .help = "transformers.__version__ of an HF training run: the\ncausal-LM loss path (before 4.46 Llama-family heads\nupcast in forward; 4.46-4.48 the loss function copies\nthe shifted fp32 logits; 4.49 on, the default, it pads\nthe labels)"},
    {.name = "cuda", .metavar = "VERSION", .parse = opt_string, AT(cuda),
     .help = "torch.version.cuda (10.1, 11.8): the context of an eager-\nloading build grows with it"},
    {.name = "headroom", .metavar = "PCT", .parse = parse_headroom, AT(wl.headroom), .help = "headroom in percent of the card (default 15)"},
    {.name = "explain", .help = "every term's formula", AT(explain), .group = "output:"},
    {.name = "json", .help = "schema oomlab.estimate.v1", AT(json)},
    {0},
};
#undef CHOICE
#undef COUNT
#undef DIM
#undef AT
/* Other tools' spellings (HF Trainer, DeepSpeed, accelerate flags) */
static const struct opt_hint hints[] = {
    {"model", "MODEL is the first argument (oomlab estimate gpt2, oomlab estimate path/to/config.json)"},
    {"bf16", "--precision bf16-mixed (or bf16 for pure bf16)"},
    {"fp16", "--precision fp16-mixed (or fp16 for pure fp16)"},
    {"zero", "--shard zero1, zero2 or zero3"},
    {"gradient-checkpointing", "--grad-ckpt block"},
    {"gradient-accumulation-steps", "--grad-accum N"},
    {"per-device-train-batch-size", "--batch N"},
    {0},
};
static const struct opt_table opt_table = {.command = NAME, .usage = usage_head, .epilogue = usage_tail,
                                           .spec = specs, .hints = hints};
CMD_OPTIONS(cmd_estimate_options, opt_table)

static int parse_opts(int argc, char **argv, struct opts *o)
{
    memset(o, 0, sizeof *o);
    o->arch = o->tied = o->dropout = o->quant = -1;
    est_workload_init(&o->wl);
    o->quant_group = -2;
    o->wl.attention = (enum est_attn)-1;
    int first, rc = cmd_options(&opt_table, argc, argv, o, &first);
    if (rc != CMD_CONTINUE) return rc == EXIT_OK ? -2 : rc;
    o->attn_given = (int)o->wl.attention >= 0;
    if (!o->attn_given) o->wl.attention = EST_ATTN_SDPA;
    if (o->capacity_arg && units_parse_size_arg(o->capacity_arg, &o->wl.capacity_bytes) < 0)
        return cmd_usage_error(NAME, "--capacity wants a size such as 80GiB, got '%s'", o->capacity_arg);
    o->have_capacity = o->wl.capacity_bytes >= 0;
    o->have_context = o->wl.context_bytes >= 0;
    if (o->quant >= 0) o->wl.quant = (enum est_quant)o->quant;
    if (o->quant_group >= -1) o->wl.quant_group = o->quant_group;
    if (o->no_foreach || o->fused) o->wl.foreach = false;
    o->wl.fused = o->fused;
    o->wl.compile_torch1 = o->torch && strncmp(o->torch, "1.", 2) == 0; /* --compile: functorch 1.13's partitioner */
    o->wl.torch1 = o->wl.compile_torch1; /* cuBLAS's own workspace, outside torch's counters */
    if (o->torchao) {
        unsigned major = 0, minor = 0;
        if (sscanf(o->torchao, "%u.%u", &major, &minor) != 2)
            return cmd_usage_error(NAME, "--torchao wants a version such as 0.1 or 0.3.1, got '%s'", o->torchao);
        o->wl.torchao01 = major == 0 && minor < 2; /* pytorch/ao#196: chunks from v0.2.0 */
    }
    if (o->peft) {
        unsigned major = 0, minor = 0;
        if (sscanf(o->peft, "%u.%u", &major, &minor) != 2)
            return cmd_usage_error(NAME, "--peft wants a version such as 0.11.1 or 0.13.2, got '%s'", o->peft);
        /* huggingface/peft#1706 (ae1ae20b7, first released in v0.12.0): autocast_adapter_dtype */
        o->wl.peft_old = major == 0 && minor < 12;
    }
    if (o->transformers) {
        unsigned major = 0, minor = 0;
        if (sscanf(o->transformers, "%u.%u", &major, &minor) != 2 || major == 0 || major > 99 || minor > 999)
            return cmd_usage_error(NAME, "--transformers wants a version such as 4.45.2 or 4.48.1, got '%s'",
                                   o->transformers);
        o->wl.transformers = major * 1000 + minor; /* read by hf_loss_era (src/lib/est.c) */
    }
    if (first < argc) o->model_arg = argv[first++];
    if (first < argc) return cmd_usage_error(NAME, "one MODEL at most, got '%s' too", argv[first]);
    if (o->wl.mode != EST_MODE_INFER && (o->wl.prompt_len || o->wl.gen_len)) /* were ignored */
        return cmd_usage_error(NAME, "--prompt-len and --gen-len describe generation: add --mode infer "
                                     "(without it this is a %s estimate, which they do not change)",
                               o->wl.mode == EST_MODE_LOAD ? "load" : "training");
    if (o->wl.mode != EST_MODE_TRAIN && o->wl.ckpt != EST_CKPT_NONE) /* was ignored */
        return cmd_usage_error(NAME, "--grad-ckpt recomputes activations for a backward pass: it changes "
                                     "only a training estimate (drop it, or use --mode train)");
    return 0;
}

/* ---- the model ------------------------------------------------------- */

static void apply_overrides(struct est_model *m, const struct opts *o)
{
#define OVER(f) if (o->over.f) m->f = o->over.f
    OVER(layers); OVER(decoder_layers); OVER(hidden); OVER(heads); OVER(kv_heads);
    OVER(head_dim); OVER(ffn); OVER(vocab); OVER(experts); OVER(experts_per_token);
    OVER(sliding_window);
    OVER(max_positions);
#undef OVER
    if (o->arch >= 0) m->family = (enum est_family)o->arch;
    if (o->tied >= 0) m->tied_embeddings = o->tied;
    if (o->dropout >= 0) m->dropout = o->dropout;
}

/* An fp8 checkpoint's own scales, keep list and loader (--quant fp8 alone
 * takes DeepSeek-V3's layout: 128x128 blocks, dynamic activations).
 * Keep-list entries oomlab cannot place are counted fp8: say so, the
 * weights read low by them (unless compressed-tensors has made them 16-bit
 * anyway). */
static void use_fp8_config(struct opts *o, const struct hfconfig_quant *q)
{
    o->wl.fp8_scale = (enum est_fp8_scale)q->fp8_scale;
    o->wl.fp8_block_out = q->fp8_block_out;
    o->wl.fp8_block_in = q->fp8_block_in;
    o->wl.fp8_static_act = q->fp8_static_act;
    o->wl.fp8_keep = q->fp8_keep;
    o->wl.fp8_decompress = q->fp8_decompress;
    o->wl.fp8_scale_model_dtype = q->fp8_scale_model_dtype;
    if (q->fp8_unplaced && !est_fp8_decompressed(&o->wl)) /* moot once 16-bit */
        fprintf(stderr, "oomlab %s: note: %s keeps %d module%s 16-bit that oomlab cannot place (first: %s): "
                        "counted as fp8, so the weights may read low\n",
                NAME, o->model_arg, q->fp8_unplaced, q->fp8_unplaced > 1 ? "s" : "", q->fp8_unplaced_first);
}

/* The config's own refusal ("FILE: model_type \"X\" is not modelled: WHY;
 * pass --arch ..."), without the file and the advice --arch has followed,
 * for the limits line: a config estimated as another family says what that
 * family leaves out (Qwen2.5-VL's vision tower read as qwen2). */
static void keep_refusal(struct est_model *m, const char *msg)
{
    const char *from = strstr(msg, "model_type ");
    const char *to = from ? strstr(from, "; pass --arch") : NULL;
    if (!from) return;
    size_t n = to ? (size_t)(to - from) : strlen(from);
    snprintf(m->read_as, sizeof m->read_as, "%.*s", (int)n, from);
}

static int get_model(const struct opts *o, struct est_model *m, struct hfconfig_quant *q, struct oomlab_err *err)
{
    bool from_arch = false; /* the family comes from --arch alone: its defaults apply */
    memset(m, 0, sizeof *m);
    if (o->model_arg) {
        /* an unknown model_type is usable with --arch: the family's defaults
         * apply, as for explicit dimensions (tie_word_embeddings is not read) */
        if (modelsrc_load(o->model_arg, "", o->arch >= 0, m, &from_arch, q, err)) return -1;
        if (from_arch) keep_refusal(m, err->msg);
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

/* The GPUs' link for NCCL's channel count: NVLink parts, PCIe ones, or
 * unknown (no card in the table, or an AMD card: RCCL, not measured). */
static enum est_link card_link(const struct gpu_card *card)
{
    if (!card || card->sm == 0) return EST_LINK_UNKNOWN;
    return gpus_nvlink(card) ? EST_LINK_NVLINK : EST_LINK_PCIE;
}

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
        if (gpus_sm90(card)) o->wl.blas_workspace = EST_BLAS_WORKSPACE_SM90;
        o->card_sm = card->sm;
        o->wl.nccl_link = card_link(card);
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
        if (card && gpus_sm90(card)) o->wl.blas_workspace = EST_BLAS_WORKSPACE_SM90;
        if (card) o->card_sm = card->sm;
        o->wl.nccl_link = card_link(card);
        units_format_bytes(usable, cap, sizeof cap);
        snprintf(o->card, sizeof o->card, "%.80s, %s (NVML, GPU 0%s)", g.name[0] ? g.name : "GPU 0",
                 cap, resv);
        snprintf(o->capacity_source, sizeof o->capacity_source, "nvml");
    } else {
        snprintf(o->capacity_unknown, sizeof o->capacity_unknown, "%s",
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
    char cache_model[320];  /* est_cache_describe: the cache, its mask and logits */
    char deepspeed[768];    /* est_ds_describe: ZeRO's buffers; "" outside DeepSpeed */
    const char *loss_path;  /* est_loss_path */
    const char *hf_loss;    /* est_hf_loss, only under --transformers */
    const char *precision_model; /* est_precision_model */
    int64_t active_params;  /* est_active_params: per token; -1 unknown */
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
    else if (o->wl.mode == EST_MODE_TRAIN && o->wl.longest_first)
        printf("  %-22s weights + master + optimizer + max(first micro-batch (the longest): copies + "
               "activations + logits + temporaries, no gradient yet; a later micro-batch: gradients + "
               "copies + what the longest one left (litgpt: its fp32 logit chunks, QLoRA inputs) + "
               "shard buffers, its own tokens not counted; end of backward/step: gradients + its "
               "temporaries)\n", "peak allocated");
    else if (o->wl.mode == EST_MODE_TRAIN)
        printf("  %-22s weights + master + optimizer + max(fwd/bwd: gradients x %s + copies + "
               "activations + logits + temporaries, end of backward/step: gradients + its "
               "temporaries) + cuBLAS workspaces\n", "peak allocated",
               o->wl.grad_accum > 1 || o->wl.keep_grads ? "1 (kept)"
               : f->r.comp[EST_C_GRADS].at_peak && f->r.comp[EST_C_GRADS].bytes > 0 &&
                         strcmp(f->r.peak_phase, "forward/backward") == 0
                   ? "0 (set to None) + those made before the recomputed block"
                   : "0 (set to None)");
    else
        printf("  %-22s weights + KV cache + activations + logits + temporaries + cuBLAS workspaces\n",
               "peak allocated");
    printf("  %-22s peak allocated + allocator slack\n", "peak reserved");
    printf("  %-22s peak reserved + CUDA context%s\n", "device used",
           f->r.comp[EST_C_NCCL].bytes > 0 ? " + NCCL buffers" : "");
    char pol[24];
    printf("\nassumed:\n");
    if (o->wl.mode == EST_MODE_TRAIN)
        printf("  %-22s %s: %s\n", "checkpointing", est_ckpt_describe(&o->wl, pol, sizeof pol),
               est_ckpt_keeps(o->wl.ckpt));
    if (o->wl.mode == EST_MODE_TRAIN)
        printf("  %-22s %s\n", "precision", f->precision_model);
    if (est_compile_model(&o->wl)) printf("  %-22s %s\n", "torch.compile", est_compile_model(&o->wl));
    if (est_fsdp2_model(&o->wl)) printf("  %-22s %s\n", "FSDP2", est_fsdp2_model(&o->wl));
    printf("  %-22s %s\n", "loss path", f->loss_path);
    if (f->hf_loss) printf("  %-22s %s\n", "transformers loss", f->hf_loss);
    printf("  %-22s %s\n", "KV cache", f->cache_model);
    printf("  %-22s %s\n", "figures", est_figures_model(&o->wl));
    if (f->deepspeed[0])
        printf("  %-22s %s\n", o->wl.shard == EST_SHARD_GEMINI ? "Gemini" : "DeepSpeed", f->deepspeed);
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
        printf("%-50s %12s\n", "host memory (offloaded to the CPU, per process)", units_format_bytes(r->host_bytes, b, sizeof b));
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

/* A sequence past the model's positions: a learned table (GPT-2, OPT,
 * BERT) cannot index it, a rotary model was not trained for it. The
 * memory figures still hold; say so rather than let "fits" or "max seq
 * 8653" (GPT-2: 1024 positions) read as a length the model can take. */
static bool past_positions(const struct est_model *m, int64_t len)
{
    return m->max_positions > 0 && len > m->max_positions;
}

/* Generation's prompt: --prompt-len, else --seq stands in for it (as the
 * estimator takes it: `--mode infer --gen-len 1000` alone is a 512-token
 * prompt + 1000 generated, and must say so). 0 outside a generation. */
static int64_t gen_prompt(const struct est_workload *w)
{
    if (w->mode != EST_MODE_INFER || (!w->prompt_len && !w->gen_len)) return 0;
    return w->prompt_len ? w->prompt_len : w->seq;
}

static void note_length(const struct opts *o, const struct est_model *m)
{
    bool infer = gen_prompt(&o->wl) > 0;
    int64_t len = infer ? gen_prompt(&o->wl) + o->wl.gen_len : o->wl.seq;
    if (o->wl.mode == EST_MODE_LOAD || !past_positions(m, len)) return;
    fprintf(stderr,
            "oomlab %s: note: %s %lld is past the model's %lld positions (max_position_embeddings): a "
            "learned position table (GPT-2, OPT, BERT) cannot index it; a rotary model was not "
            "trained for it\n",
            NAME, infer ? "prompt + generated" : "seq", (long long)len, (long long)m->max_positions);
}

static void print_verdict(const struct opts *o, const struct est_model *m, const struct findings *f)
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
    char lim[1024];
    if (est_limits(m, &o->wl, lim, sizeof lim)) printf("limits     %s\n", lim);
    if (r->fits >= 0 && o->wl.mode != EST_MODE_LOAD) {
        long long at = gen_prompt(&o->wl) ? gen_prompt(&o->wl) : o->wl.seq;
        /* generation: the search varies the prompt (est_max_seq), the generated
         * tokens stay: say "prompt" and the tokens added, not "seq" */
        bool gen = gen_prompt(&o->wl) > 0;
        const char *len_word = gen ? "prompt" : "seq", *label = gen ? "max prompt" : "max seq   ";
        char plus[48] = "";
        if (gen && o->wl.gen_len)
            snprintf(plus, sizeof plus, " + %lld generated", (long long)o->wl.gen_len);
        if (f->max_batch == 0)
            printf("max batch  none: batch 1 at %s %lld%s does not fit (%d%% headroom)\n", len_word, at, plus, hr);
        else
            printf("max batch  %lld at %s %lld%s (%d%% headroom)\n", (long long)f->max_batch, len_word, at, plus, hr);
        if (f->max_seq == 0)
            printf("%s none: %s 1 at batch %lld%s does not fit (%d%% headroom)\n", label, len_word,
                   (long long)o->wl.batch, plus, hr);
        else if (past_positions(m, f->max_seq + (gen ? o->wl.gen_len : 0)))
            printf("%s %lld at batch %lld%s (%d%% headroom; memory only: the model has %lld positions)\n", label,
                   (long long)f->max_seq, (long long)o->wl.batch, plus, hr, (long long)m->max_positions);
        else
            printf("%s %lld at batch %lld%s (%d%% headroom)\n", label, (long long)f->max_seq,
                   (long long)o->wl.batch, plus, hr);
        print_combo(f, at);
    }
    for (int i = 0; i < f->n_levers && i < 4; i++)
        printf("%s %s saves %s\n", i ? "          " : "levers    ", f->levers[i].what,
               units_format_bytes(f->levers[i].saves_bytes, a, sizeof a));
}

/* fp8 scales in a few words for the workload line: " block 128x128". */
static void fp8_layout(const struct est_workload *w, char *buf, size_t n)
{
    int64_t bo, bi;
    est_fp8_block(w, &bo, &bi);
    if (w->fp8_scale == EST_FP8_BLOCK)
        snprintf(buf, n, " block %lldx%lld", (long long)bo, (long long)bi);
    else
        snprintf(buf, n, " per %s", est_fp8_scale_words(w->fp8_scale));
    if (w->fp8_static_act) snprintf(buf + strlen(buf), n - strlen(buf), ", static input scales");
}

/* The fp8 line: what is held in 1 byte, what its scales cost, what stays 16-bit. */
static void print_fp8(const struct est_model *m, const struct est_workload *w, const struct est_result *r)
{
    int64_t fp8, scales, kept;
    struct oomlab_err err;
    char sb[32];
    if (est_fp8_weights(m, w, &fp8, &scales, &kept, &err)) return;
    units_format_bytes(scales, sb, sizeof sb);
    printf("fp8        %lld linear weights x 1 B + %s %s scales; 16-bit: %lld params (embeddings, lm_head, "
           "norms, routers", (long long)fp8, sb, est_fp8_scale_dtype(w), (long long)(r->params - fp8));
    if (kept) printf(", %lld in linears the checkpoint keeps", (long long)kept);
    printf(")\n");
    if (w->fp8_decompress)
        printf("           compressed-tensors: each linear decompressed to 16-bit at its first forward and kept "
               "(CompressedLinear)%s\n", w->mode == EST_MODE_LOAD ? "; loaded, not yet run: fp8" : ": counted 16-bit");
}

static void json_fp8(struct json *j, const struct est_model *m, const struct est_workload *w)
{
    int64_t fp8 = -1, scales = -1, kept = -1;
    struct oomlab_err err;
    if (est_fp8_weights(m, w, &fp8, &scales, &kept, &err)) fp8 = scales = kept = -1;
    json_key(j, "fp8"); json_obj_begin(j);
    json_key(j, "scales"); json_str(j, est_fp8_scale_name(w->fp8_scale));
    json_key(j, "block");
    if (w->fp8_scale == EST_FP8_BLOCK) {
        int64_t bo, bi;
        est_fp8_block(w, &bo, &bi);
        json_arr_begin(j);
        json_int(j, bo);
        json_int(j, bi);
        json_arr_end(j);
    } else {
        json_null(j);
    }
    json_key(j, "static_input_scales"); json_bool(j, w->fp8_static_act);
    json_key(j, "decompressed_at_first_forward"); json_bool(j, w->fp8_decompress);
    json_key(j, "fp8_params"); json_bytes(j, fp8);
    json_key(j, "scale_bytes"); json_bytes(j, scales);
    json_key(j, "kept_linear_params"); json_bytes(j, kept);
    json_obj_end(j);
}

/* A mixture of experts: the parameters one token passes through beside the
 * total the weights hold (est_active_params); unknown where nothing stated
 * the experts per token. */
static void print_experts(const struct est_model *m, const struct findings *f)
{
    if (m->experts < 2) return;
    if (f->active_params < 0)
        printf("experts    %lld, per token unknown (no num_experts_per_tok; the activations assume %lld): "
               "active params unknown; the weights hold all %lld\n",
               (long long)m->experts, (long long)m->experts_per_token, (long long)f->r.params);
    else
        printf("experts    %lld, %lld per token: %lld params active per token; the weights hold all %lld\n",
               (long long)m->experts, (long long)m->experts_per_token, (long long)f->active_params,
               (long long)f->r.params);
}

static void print_table(const struct opts *o, const struct est_model *m, const struct findings *f)
{
    const struct est_workload *w = &o->wl;
    printf("model      %s (%s): %lld params, %lld trainable\n", m->name, est_family_name(m->family),
           (long long)f->r.params, (long long)f->r.trainable_params);
    print_experts(m, f);
    if (gen_prompt(w)) /* the prompt, not --seq, is the length */
        printf("workload   infer, batch %lld x prompt %lld%s + %lld generated, %s", (long long)w->batch,
               (long long)gen_prompt(w), w->prompt_len ? "" : " (--seq)", (long long)w->gen_len,
               est_precision_name(w->precision));
    else
        printf("workload   %s, batch %lld x seq %lld, %s", est_mode_name(w->mode), (long long)w->batch,
               (long long)w->seq, est_precision_name(w->precision));
    const char *pname = est_precision_name(w->precision);
    bool mixed = strstr(pname, "-mixed") != NULL, autocast = strstr(pname, "-autocast") != NULL;
    if (w->mode == EST_MODE_INFER && (mixed || autocast)) /* "bf16-mixed" reads as fp32 weights: say */
        printf(" (inference: %s)", mixed && w->trainer == EST_TRAINER_LITGPT ? "fp32 weights, lit-gpt"
                                   : w->quant ? "16-bit unquantized parts"
                                              : "16-bit weights");
    if (w->autograd) printf(", autograd %s (no torch.no_grad, model.%s())", est_autograd_name(w->autograd),
                            w->autograd == EST_GRAD_TRAIN ? "train" : "eval");
    char pol[24];
    if (w->mode == EST_MODE_TRAIN)
        printf(", %s, grad-ckpt %s, attention %s", est_optimizer_name(w->optimizer),
               est_ckpt_describe(w, pol, sizeof pol), est_attn_name(w->attention));
    if (w->compiled) printf(", torch.compile%s", w->compile_torch1 ? " (functorch 1.13 rules)" : "");
    if (w->trainer != EST_TRAINER_HF) printf(", %s", est_trainer_name(w->trainer));
    if (w->lora_r) printf(", LoRA r%lld (dropout %g)", (long long)w->lora_r, est_lora_dropout(w));
    char fp8[48] = "";
    if (w->quant == EST_QUANT_FP8) fp8_layout(w, fp8, sizeof fp8);
    if (w->quant)
        printf(", %s%s%s%s%s", est_quant_name(w->quant), fp8, w->quant_kernel >= EST_QKERNEL_EXLLAMA ? " on " : "",
               w->quant_kernel >= EST_QKERNEL_EXLLAMA ? est_qkernel_name(w->quant_kernel) : "",
               o->quant < 0 ? " (config.json)" : "");
    if (w->gpus > 1 || w->shard) printf(", %lld GPU%s %s", (long long)w->gpus, w->gpus > 1 ? "s" : "",
                                        est_shard_name(w->shard));
    if (w->offload) printf(", %s offloaded to the CPU", est_offload_name(w->offload));
    if (w->act_offload) printf(", activations offloaded to the CPU");
    if (w->optim_in_bwd) printf(", optimizer step in backward");
    printf("\n");
    if (w->quant == EST_QUANT_FP8) print_fp8(m, w, &f->r);
    printf("card       %s\n\n", o->card[0] ? o->card : "unknown");
    print_components(o, f);
    print_figures(&f->r);
    print_verdict(o, m, f);
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
    json_key(&j, "active_params"); /* per token; null: experts per token unknown */
    if (f->active_params >= 0) json_int(&j, f->active_params); else json_null(&j);
    json_key(&j, "experts"); json_int(&j, m->experts);
    json_key(&j, "experts_per_token");
    if (m->experts && !m->experts_per_token_assumed) json_int(&j, m->experts_per_token); else json_null(&j);
    json_key(&j, "layers"); json_int(&j, m->layers);
    json_key(&j, "hidden"); json_int(&j, m->hidden);
    json_key(&j, "vocab"); json_int(&j, m->vocab);
    json_key(&j, "max_positions"); /* max_seq is by memory: the model may take fewer */
    if (m->max_positions > 0) json_int(&j, m->max_positions); else json_null(&j);
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
    json_key(&j, "act_offload"); json_bool(&j, o->wl.act_offload);
    json_key(&j, "optim_in_bwd"); json_bool(&j, o->wl.optim_in_bwd);
    json_key(&j, "lora_r"); json_int(&j, o->wl.lora_r);
    json_key(&j, "lora_dropout"); json_double(&j, est_lora_dropout(&o->wl));
    json_key(&j, "quant"); json_str(&j, est_quant_name(o->wl.quant));
    if (o->wl.quant == EST_QUANT_FP8) json_fp8(&j, m, &o->wl);
    json_key(&j, "prompt_len"); json_int(&j, gen_prompt(&o->wl) ? gen_prompt(&o->wl) : o->wl.prompt_len);
    json_key(&j, "gen_len"); json_int(&j, o->wl.gen_len);
    json_key(&j, "cache"); json_str(&j, est_cache_name(o->wl.cache));
    json_key(&j, "autograd"); json_str(&j, est_autograd_name(o->wl.autograd));
    json_obj_end(&j);
    json_key(&j, "assumed"); json_obj_begin(&j);
    json_key(&j, "checkpointing");
    if (o->wl.mode == EST_MODE_TRAIN) json_str(&j, est_ckpt_keeps(o->wl.ckpt)); else json_null(&j);
    json_key(&j, "loss_path"); json_str(&j, f->loss_path);
    if (f->hf_loss) { json_key(&j, "transformers_loss"); json_str(&j, f->hf_loss); }
    json_key(&j, "cache_model"); json_str(&j, f->cache_model);
    json_key(&j, "deepspeed");
    if (f->deepspeed[0]) json_str(&j, f->deepspeed); else json_null(&j);
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
    json_key(&j, "limits");
    char lim[1024];
    json_str(&j, est_limits(m, &o->wl, lim, sizeof lim)); /* NULL -> null */
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
    if (o.gpu_name && !gpus_find(o.gpu_name)) {
        char near[160];
        size_t found = gpu_candidates(o.gpu_name, near, sizeof near);
        if (found > 1) /* "a100": more than one card, not none */
            return cmd_usage_error(NAME, "--gpu '%s' names more than one card: %s (see --list-gpus)", o.gpu_name,
                                   near);
        if (found == 1)
            return cmd_usage_error(NAME, "--gpu: unknown card '%s'; did you mean %s? (see --list-gpus)", o.gpu_name,
                                   near);
        return cmd_usage_error(NAME, "--gpu: unknown card '%s' (see --list-gpus)", o.gpu_name);
    }
    struct hfconfig_quant q = {0};
    if (get_model(&o, &m, &q, &err)) return cmd_fail(NAME, &err, EXIT_USAGE);
    if (!o.attn_given) o.wl.attention = est_family_attention(m.family);
    if (o.quant < 0 && q.quant < 0)
        return cmd_usage_error(NAME, "%s: its quantization_config (%s) is not a quantization oomlab "
                                     "models; pass --quant (none: the 16-bit weights)", o.model_arg, q.desc);
    if (o.quant < 0 && q.quant > 0) o.wl.quant = (enum est_quant)q.quant;
    if (o.quant >= 0 && q.quant > 0 && o.quant != q.quant) /* was replaced without a word */
        fprintf(stderr, "oomlab %s: note: --quant %s replaces %s's own quantization_config (%s): the figures are "
                        "for %s weights, not the checkpoint's\n",
                NAME, est_quant_name((enum est_quant)o.quant), o.model_arg,
                q.desc[0] ? q.desc : est_quant_name((enum est_quant)q.quant),
                o.quant ? est_quant_name((enum est_quant)o.quant) : "16-bit");
    if (o.wl.quant == EST_QUANT_FP8 && q.quant == EST_QUANT_FP8) use_fp8_config(&o, &q);
    if (o.quant_group == -2 && q.group) o.wl.quant_group = q.group;
    if (o.wl.quant_kernel == EST_QKERNEL_AUTO && o.wl.quant == EST_QUANT_AWQ && q.quant == EST_QUANT_AWQ)
        o.wl.quant_kernel = (enum est_qkernel)q.kernel;
    get_card(&o, &err);
    /* huggingface/transformers:src/transformers/quantizers/quantizer_finegrained_fp8.py,
     * validate_environment: fp8 matmuls on CUDA need compute capability >= 8.9 */
    if (o.wl.quant == EST_QUANT_FP8 && o.card_sm > 0 && o.card_sm < 89)
        fprintf(stderr, "oomlab %s: note: the card is sm_%d: transformers' fine-grained fp8 quantizer asks for compute "
                        "capability 8.9 or later; the figures are the fp8 weights (--quant none: the 16-bit load)\n",
                NAME, o.card_sm);
    if ((o.torch || o.cuda) && !o.have_context) {
        /* lazy loading keeps the card's figure (-1: the estimator's default) */
        if (gpus_context(o.torch, o.cuda, o.wl.context_bytes, o.card_sm, &o.wl.context_bytes, &o.wl.context_why, &err))
            return cmd_fail(NAME, &err, EXIT_USAGE);
    }
    memset(&f, 0, sizeof f);
    if (est_compute(&m, &o.wl, &f.r, &err) || est_max_batch(&m, &o.wl, &f.max_batch, &err) ||
        est_max_seq(&m, &o.wl, &f.max_seq, &err) ||
        est_levers(&m, &o.wl, f.levers, N_LEVERS, &f.n_levers, &err) ||
        (f.max_batch == 0 && est_fit_combo(&m, &o.wl, &f.combo, &err)) ||
        !est_cache_describe(&m, &o.wl, f.cache_model, sizeof f.cache_model) ||
        est_active_params(&m, &o.wl, &f.active_params, &err))
        return cmd_fail(NAME, &err, EXIT_USAGE);
    if (o.capacity_unknown[0]) /* after the checks: a usage error is the one thing said */
        fprintf(stderr, "oomlab %s: capacity unknown: pass --gpu or --capacity (%s)\n", NAME, o.capacity_unknown);
    note_length(&o, &m);
    note_decimal_capacity(&o);
    note_train_only(&o);
    est_ds_describe(&m, &o.wl, f.deepspeed, sizeof f.deepspeed);
    f.loss_path = est_loss_path(&m, &o.wl);
    f.hf_loss = o.transformers ? est_hf_loss(&m, &o.wl) : NULL;
    f.precision_model = est_precision_model(&m, &o.wl);
    if (o.json) print_json(&o, &m, &f);
    else print_table(&o, &m, &f);
    return f.r.fits == 0 ? EXIT_FOUND : EXIT_OK; /* main checks what reached stdout */
}
