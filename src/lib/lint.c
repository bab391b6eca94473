/* lint: the rule table, the language of a path, suppression comments and
 * the entry that runs a rule module and orders its findings. */
#include "lib/lint.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/pylex.h"
#include "lib/strbuf.h"

const struct lint_rule lint_rules[] = {
    [LR_LOSS_ACCUMULATED] = {"loss-accumulated",
                             "a loss tensor accumulated across iterations keeps every iteration's "
                             "graph in GPU memory",
                             "accumulate loss.item() (or loss.detach()), not the tensor",
                             LINT_PYTHON},
    [LR_EVAL_WITHOUT_NO_GRAD] = {"eval-without-no-grad",
                                 "the model runs in evaluation code outside torch.no_grad(): "
                                 "activations are kept for a backward that never comes",
                                 "wrap it in 'with torch.no_grad():' or decorate the function "
                                 "with @torch.no_grad() (or torch.inference_mode())",
                                 LINT_PYTHON},
    [LR_EVAL_NEVER_TRAIN] = {"eval-never-train",
                             "model.eval() is never switched back with .train() in a file that "
                             "trains: training goes on in eval mode",
                             "call model.train() at the start of every training epoch (or right "
                             "after evaluation)",
                             LINT_PYTHON},
    [LR_OUTPUTS_ON_GPU] = {"outputs-on-gpu",
                           "model outputs kept across a loop stay on the GPU (with their graph, "
                           "outside no_grad) until the loop ends",
                           "keep .detach().cpu() (or .item()/.tolist()) of each batch's output",
                           LINT_PYTHON},
    [LR_RETAIN_GRAPH_IN_LOOP] = {"retain-graph-in-loop",
                                 "backward(retain_graph=True) on a graph built in the loop keeps "
                                 "its saved activations into the next iteration (up to twice the "
                                 "activation memory)",
                                 "drop retain_graph, or sum the losses and call backward() once",
                                 LINT_PYTHON},
    [LR_ZERO_GRAD_NOT_NONE] = {"zero-grad-not-none",
                               "zero_grad() without set_to_none=True keeps zero-filled gradient "
                               "tensors allocated on torch < 2.0",
                               "zero_grad(set_to_none=True) (the default from torch 2.0; "
                               "--torch-min 2 turns this rule off)",
                               LINT_PYTHON},
    [LR_MISSING_ZERO_GRAD] = {"missing-zero-grad",
                              "this loop calls backward() and optimizer.step() but never "
                              "zero_grad(): gradients pile up across iterations",
                              "call optimizer.zero_grad(set_to_none=True) once per optimizer step "
                              "inside the loop",
                              LINT_PYTHON},
    [LR_SAVE_GPU_TENSORS] = {"save-gpu-tensors",
                             "torch.save of a state dict still on the GPU: loading it puts every "
                             "tensor back on that GPU first",
                             "save {k: v.cpu() for k, v in model.state_dict().items()} (or load "
                             "with map_location=\"cpu\")",
                             LINT_PYTHON},
    [LR_LOAD_WITHOUT_MAP_LOCATION] = {"load-without-map-location",
                                      "torch.load without map_location restores tensors to the "
                                      "GPU they were saved from, next to the live model",
                                      "torch.load(path, map_location=\"cpu\"), then move what you "
                                      "need",
                                      LINT_PYTHON},
    [LR_EMPTY_CACHE_IN_LOOP] = {"empty-cache-in-loop",
                                "torch.cuda.empty_cache() every step slows training and frees "
                                "nothing that is still referenced",
                                "drop it from the step loop; free references (del, .item()) "
                                "instead, or call it between phases",
                                LINT_PYTHON},
    [LR_ALLOC_CONF_AFTER_CUDA] = {"alloc-conf-after-cuda",
                                  "PYTORCH_CUDA_ALLOC_CONF (or another allocator variable) set "
                                  "after CUDA is in use has no effect on the allocator",
                                  "set it in the launch script (export "
                                  "PYTORCH_CUDA_ALLOC_CONF=...) before Python starts",
                                  LINT_PYTHON},
    [LR_NO_GRAD_NOT_ENTERED] = {"no-grad-not-entered",
                                "torch.no_grad() called as a statement does nothing: gradients "
                                "stay on",
                                "use it as 'with torch.no_grad():' or as a decorator",
                                LINT_PYTHON},
    [LR_TRAIN_TENSORS_IN_EVAL] = {"train-tensors-in-eval",
                                  "evaluation runs while the training step's tensors (its batch, "
                                  "its outputs) are still referenced: their GPU memory adds to "
                                  "evaluation's peak",
                                  "del them before evaluating (del outputs, inputs), or move the "
                                  "training step into its own function",
                                  LINT_PYTHON},
    [LR_ALLOC_CONF_AFTER_LAUNCH] = {"alloc-conf-after-launch",
                                    "PYTORCH_CUDA_ALLOC_CONF (or another allocator variable) is "
                                    "set after the training command that needed it",
                                    "export it before the first python/torchrun line",
                                    LINT_SHELL},
    [LR_ALLOC_CONF_NOT_EXPORTED] = {"alloc-conf-not-exported",
                                    "PYTORCH_CUDA_ALLOC_CONF (or another allocator variable) is "
                                    "assigned but not exported: python never sees it",
                                    "export PYTORCH_CUDA_ALLOC_CONF=...",
                                    LINT_SHELL},
    [LR_ALLOC_CONF_DOCKER_RUN] = {"alloc-conf-docker-run",
                                  "PYTORCH_CUDA_ALLOC_CONF (or another allocator variable) set "
                                  "in a RUN step (or ARG) does not reach the container's "
                                  "processes",
                                  "ENV PYTORCH_CUDA_ALLOC_CONF=...",
                                  LINT_SHELL},
};
const size_t lint_nrules = sizeof lint_rules / sizeof lint_rules[0];

static const char *const alloc_vars[LINT_ALLOC_VARS] = {
    "PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF", "PYTORCH_HIP_ALLOC_CONF",
    "PYTORCH_NO_CUDA_MEMORY_CACHING"};

int lint_alloc_var(const char *name, size_t n)
{
    for (int k = 0; k < LINT_ALLOC_VARS; k++)
        if (strlen(alloc_vars[k]) == n && !memcmp(name, alloc_vars[k], n)) return k;
    return -1;
}

_Static_assert(sizeof lint_rules / sizeof lint_rules[0] == LR_COUNT, "one table row per rule");

int lint_rule_index(const char *id)
{
    for (size_t i = 0; i < lint_nrules; i++)
        if (!strcmp(lint_rules[i].id, id)) return (int)i;
    return -1;
}

int lint_report_add(struct lint_report *r, size_t rule, uint32_t line, uint32_t col)
{
    if (r->n == r->cap) {
        struct lint_finding *v = strbuf_grow(r->v, &r->cap, r->n + 1, sizeof *v, SIZE_MAX);
        if (!v) return -1;
        r->v = v;
    }
    r->v[r->n++] = (struct lint_finding){.rule = (uint32_t)rule, .line = line, .col = col};
    return 0;
}

void lint_report_release(struct lint_report *r)
{
    free(r->v);
    *r = (struct lint_report){0};
}

static const char *skip_blank(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t')) p++;
    return p;
}

int lint_comment_suppresses(const char *comment, size_t n, const char *rule_id)
{
    static const char tag[] = "oomlab:";
    const char *e = comment + n;
    for (const char *p = comment; p + sizeof tag - 1 <= e; p++) {
        if (memcmp(p, tag, sizeof tag - 1)) continue;
        const char *q = skip_blank(p + sizeof tag - 1, e);
        if (e - q < 6 || memcmp(q, "ignore", 6)) continue;
        q += 6;
        if (q == e || *q != '[') return q == e || *q == ' ' || *q == '\t' || *q == '#';
        size_t idn = strlen(rule_id);
        for (q++; q < e && *q != ']';) {
            q = skip_blank(q, e);
            const char *w = q;
            while (q < e && *q != ',' && *q != ']' && *q != ' ' && *q != '\t') q++;
            if ((size_t)(q - w) == idn && !memcmp(w, rule_id, idn)) return 1;
            q = skip_blank(q, e);
            if (q < e && *q == ',') q++;
        }
    }
    return 0;
}

static int by_position(const void *a, const void *b)
{
    const struct lint_finding *x = a, *y = b;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    if (x->col != y->col) return x->col < y->col ? -1 : 1;
    return (x->rule > y->rule) - (x->rule < y->rule);
}

/* Offsets of line starts are found by one scan; findings arrive sorted. */
static int line_suppresses(const char *src, size_t len, size_t *pos, uint32_t *at_line,
                           const struct lint_finding *f, enum lint_lang lang)
{
    while (*at_line < f->line && *pos < len) {
        const char *nl = memchr(src + *pos, '\n', len - *pos);
        *pos = nl ? (size_t)(nl - src) + 1 : len;
        (*at_line)++;
    }
    const char *s = src + *pos, *nl = memchr(s, '\n', len - *pos);
    size_t n = nl ? (size_t)(nl - s) : len - *pos;
    /* Python's comments are found by the tokenizer (a '#' in a string is no
     * comment); a shell line's comment is whatever follows its last " #". */
    const char *hash = NULL;
    if (lang == LINT_PYTHON) {
        struct pylex lx;
        if (pylex_run(&lx, s, n, NULL) == 0) {
            for (size_t i = 0; i < lx.ntoks && !hash; i++)
                if (lx.toks[i].kind == PYT_COMMENT) hash = s + lx.toks[i].off;
            pylex_release(&lx);
        }
    } else {
        hash = memchr(s, '#', n);
    }
    if (!hash) return 0;
    return lint_comment_suppresses(hash, n - (size_t)(hash - s), lint_rules[f->rule].id);
}

static void drop_suppressed(const char *src, size_t len, enum lint_lang lang,
                            struct lint_report *r, size_t from)
{
    size_t pos = 0, out = from;
    uint32_t at_line = 1;
    for (size_t i = from; i < r->n; i++) {
        if (line_suppresses(src, len, &pos, &at_line, &r->v[i], lang)) r->suppressed++;
        else r->v[out++] = r->v[i];
    }
    r->n = out;
}

int lint_source(enum lint_lang lang, const char *src, size_t len, const struct lint_opts *o,
                struct lint_report *r, struct oomlab_err *err)
{
    static const struct lint_opts defaults = {0};
    size_t from = r->n;
    if (memchr(src, '\0', len < 8192 ? len : 8192))
        return oomlab_err_set(err, "1:1: binary data (a NUL byte); not a source file");
    int rc = lang == LINT_PYTHON ? lintpy_check(src, len, o ? o : &defaults, r, err)
             : lang == LINT_NONE ? 0
                                 : lintsh_check(lang, src, len, r, err);
    if (rc < 0) {
        r->n = from;
        return -1;
    }
    if (r->n == from) return 0; /* r->v may still be NULL */
    qsort(r->v + from, r->n - from, sizeof *r->v, by_position);
    drop_suppressed(src, len, lang, r, from);
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

static const struct {
    const char *suffix;
    enum lint_lang lang;
} by_suffix[] = {
    {".py", LINT_PYTHON},     {".sh", LINT_SHELL},         {".bash", LINT_SHELL},
    {".slurm", LINT_SHELL},   {".sbatch", LINT_SHELL},     {".dockerfile", LINT_DOCKER},
    {"/Dockerfile", LINT_DOCKER}, {"/Containerfile", LINT_DOCKER},
};

enum lint_lang lint_lang_of(const char *path, const char *head, size_t n)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (!strncmp(base, "Dockerfile", 10) || !strcmp(base, "Containerfile")) return LINT_DOCKER;
    size_t bn = strlen(base); /* NAME.Dockerfile as well as NAME.dockerfile (cuda.Dockerfile) */
    if (bn > 11 && !strcasecmp(base + bn - 11, ".dockerfile")) return LINT_DOCKER;
    for (size_t i = 0; i < sizeof by_suffix / sizeof by_suffix[0]; i++)
        if (ends_with(path, by_suffix[i].suffix)) return by_suffix[i].lang;
    if (n < 3 || memcmp(head, "#!", 2)) return LINT_NONE;
    const char *nl = memchr(head, '\n', n);
    size_t m = nl ? (size_t)(nl - head) : n;
    for (size_t i = 2; i + 6 <= m; i++)
        if (!memcmp(head + i, "python", 6)) return LINT_PYTHON;
    static const char *const shells[] = {"/sh", "bash", "zsh", "dash", "ksh"};
    for (size_t k = 0; k < sizeof shells / sizeof shells[0]; k++)
        for (size_t i = 2; i + strlen(shells[k]) <= m; i++)
            if (!memcmp(head + i, shells[k], strlen(shells[k]))) return LINT_SHELL;
    return LINT_NONE;
}
