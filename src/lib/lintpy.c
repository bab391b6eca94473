/* lintpy: the Python rules. Each rule is a row of `checks` walking the
 * statement tree from linttree; the vocabulary they share (what a model call,
 * a loss, a conversion off the graph, an optimizer step look like) is data
 * tables at the top. Rules are heuristics over names and structure, tuned
 * to stay silent on each rule's clean counterpart (docs/lint.md). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lint.h"
#include "lib/linttree.h"
#include "lib/pylex.h"

/* Calls that take a value off the graph and (most) off the GPU. */
static const char *const off_graph_methods[] = {"item", "detach", "cpu", "tolist", "numpy",
                                                "detach_", "data"};
static const char *const off_gpu_methods[] = {"item", "cpu", "tolist", "numpy"};
static const char *const scalar_calls[] = {"float", "int", "round", "bool", "str"};
/* What a model is called, exactly or as the end of a name (resnet, self.unet). */
static const char *const model_names[] = {
    "model",  "net",    "network", "module",   "encoder", "decoder",     "generator",
    "discriminator", "classifier", "backbone", "policy", "critic", "actor", "unet",
    "vae",    "transformer", "llm", "teacher", "student", "forward"};
static const char *const model_suffixes[] = {"model", "net"};
/* ...unless the name says it makes, loads, prepares, transforms or
 * inspects one: a verb then '_' or a capital (load_model, getInfoFromModel,
 * unwrap_model, reparameterize_model). */
static const char *const not_model_prefixes[] = {
    "load", "build", "get", "create", "make", "init", "save", "setup", "prepare", "wrap", "from",
    "to", "set", "is", "has", "find", "select", "export", "register", "print", "show", "log",
    "unwrap", "reparameterize", "convert", "fuse", "compile", "freeze", "unfreeze", "quantize",
    "copy", "count", "summarize", "describe"};
/* Names that hold model outputs in eval and training loops. */
static const char *const output_names[] = {
    "logits", "outputs", "output", "out", "preds", "pred", "predictions", "prediction", "probs",
    "scores", "embeddings", "embedding", "hidden_states", "features", "feats", "y_hat", "yhat",
    "y_pred", "generated", "samples", "recon", "reconstruction"};
/* Word parts of a function name that make it evaluation code. */
static const char *const eval_prefixes[] = {"eval", "valid", "pred", "infer"};
static const char *const eval_words[] = {"val", "test", "testing"};
/* Lightning runs these under no_grad itself. */
static const char *const lightning_hooks[] = {"validation_step", "test_step", "predict_step"};
/* A call whose name starts so asks about evaluation, it does not run it
 * (is_valid, check_val_every_n_epoch, get_eval_loader). */
static const char *const not_eval_verbs[] = {"is", "has", "check", "get", "should", "can",
                                             "set", "make", "build", "create", "load", "save"};
/* torch.cuda calls that do not initialise CUDA. */
static const char *const cuda_no_init[] = {"is_available", "device_count", "is_initialized"};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

struct py {
    const struct pylex *lx;
    const struct lint_tree *t;
    const struct lint_opts *o;
    struct lint_report *r;
    int gpu;      /* the file mentions cuda or a device */
    int pytest;   /* the file imports pytest or unittest */
    int trains;   /* the file calls backward() somewhere */
    int torchy;   /* the file names torch, cuda, a device, backward or no_grad */
    int torch_loss; /* a loss here can be a tensor: torch named, or a torch-style
                       backward (x.backward(), manual_backward, accelerator's) */
    int8_t *loop_memo; /* per statement: bit flags of loop contents, -1 unknown */
    size_t params[64]; /* receivers of x.parameters() (self left out): the trained models */
    size_t nparams;
    int failed;
};

/* ---- tokens ---- */

static inline __attribute__((always_inline)) const struct pytok *tk(const struct py *p, size_t i)
{
    return &p->lx->toks[i];
}

static inline __attribute__((always_inline)) int is(const struct py *p, size_t i, const char *s)
{
    return i < p->lx->ntoks && pylex_is(p->lx, i, s);
}

static inline __attribute__((always_inline)) int is_name(const struct py *p, size_t i)
{
    return i < p->lx->ntoks && tk(p, i)->kind == PYT_NAME;
}

static inline __attribute__((always_inline)) int is_op(const struct py *p, size_t i, const char *s)
{
    return i < p->lx->ntoks && tk(p, i)->kind == PYT_OP && pylex_is(p->lx, i, s);
}

static int in_list(const struct py *p, size_t i, const char *const *list, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (is(p, i, list[k])) return 1;
    return 0;
}

/* Lower-case copy of a name token into buf (truncated); its length. */
static size_t lower_name(const struct py *p, size_t i, char *buf, size_t size)
{
    size_t n = tk(p, i)->len < size - 1 ? tk(p, i)->len : size - 1;
    for (size_t k = 0; k < n; k++) buf[k] = (char)tolower((unsigned char)p->lx->src[tk(p, i)->off + k]);
    buf[n] = '\0';
    return n;
}

static int name_ends(const struct py *p, size_t i, const char *suffix)
{
    char buf[128];
    size_t n = lower_name(p, i, buf, sizeof buf), m = strlen(suffix);
    return n >= m && !strcmp(buf + n - m, suffix);
}

static int text_eq(const struct py *p, size_t a, size_t b)
{
    return tk(p, a)->len == tk(p, b)->len &&
           !memcmp(p->lx->src + tk(p, a)->off, p->lx->src + tk(p, b)->off, tk(p, a)->len);
}

/* The token after the bracket opened at i, matched within [i, e); e if open. */
static size_t close_of(const struct py *p, size_t i, size_t e)
{
    long depth = 0;
    for (size_t k = i; k < e; k++) {
        if (tk(p, k)->kind != PYT_OP || tk(p, k)->len != 1) continue;
        char c = p->lx->src[tk(p, k)->off];
        if (c == '(' || c == '[' || c == '{') depth++;
        if ((c == ')' || c == ']' || c == '}') && --depth == 0) return k;
    }
    return e;
}

/* `.name(` at i. */
static inline __attribute__((always_inline)) int method_at(const struct py *p, size_t i, const char *name)
{
    return i > 0 && is(p, i, name) && is_name(p, i) && is_op(p, i - 1, ".") && is_op(p, i + 1, "(");
}

static long find_method(const struct py *p, size_t a, size_t e, const char *name)
{
    for (size_t i = a; i < e; i++)
        if (method_at(p, i, name)) return (long)i;
    return -1;
}

static int has_name(const struct py *p, size_t a, size_t e, const char *name)
{
    for (size_t i = a; i < e; i++)
        if (is_name(p, i) && is(p, i, name)) return 1;
    return 0;
}

/* `name(` as a call (any receiver). */
static int has_call(const struct py *p, size_t a, size_t e, const char *name)
{
    for (size_t i = a; i + 1 < e; i++)
        if (is_name(p, i) && is(p, i, name) && is_op(p, i + 1, "(")) return 1;
    return 0;
}

/* Start of the dotted chain ending at name token i (self.model.encoder). */
static size_t chain_start(const struct py *p, size_t i)
{
    while (i >= 2 && is_op(p, i - 1, ".") && is_name(p, i - 2)) i -= 2;
    return i;
}

/* The receiver of the method name at i, through a chain of calls
 * (`x.m(`, `x.to(d).m(`, `self.x.m(`): its last name token, or -1. */
static long receiver_of(const struct py *p, size_t i)
{
    while (i >= 2 && is_op(p, i - 1, ".")) {
        if (is_name(p, i - 2)) return (long)(i - 2);
        if (!is_op(p, i - 2, ")")) return -1;
        size_t k = i - 2;
        for (long depth = 0;; k--) {
            if (is_op(p, k, ")")) depth++;
            else if (is_op(p, k, "(") && --depth == 0) break;
            if (k == 0) return -1;
        }
        if (k == 0 || !is_name(p, k - 1)) return -1;
        i = k - 1; /* the method called before: `to` in x.to(d) */
    }
    return -1;
}

/* The top-level `=` of an assignment statement, or e. */
static size_t assign_op(const struct py *p, size_t a, size_t e)
{
    long depth = 0;
    for (size_t i = a; i < e; i++) {
        if (tk(p, i)->kind != PYT_OP) continue;
        if (depth == 0 && is(p, i, "=")) return i;
        char c = p->lx->src[tk(p, i)->off];
        if (tk(p, i)->len == 1 && (c == '(' || c == '[' || c == '{')) depth++;
        if (tk(p, i)->len == 1 && (c == ')' || c == ']' || c == '}') && depth > 0) depth--;
    }
    return e;
}

static size_t last_code(const struct py *p, size_t a, size_t e)
{
    while (e > a && tk(p, e - 1)->kind == PYT_COMMENT) e--;
    return e;
}

/* ---- shared vocabulary ---- */

/* A name the file itself treats as a module: the receiver of some
 * x.parameters() (G_AB of itertools.chain(G_AB.parameters(), ...), a
 * layer of `for layer in layers: layer.parameters()`). */
static int learned_model(const struct py *p, size_t i)
{
    for (size_t k = 0; k < p->nparams; k++)
        if (text_eq(p, p->params[k], i)) return 1;
    return 0;
}

static int model_name_at(const struct py *p, size_t i);

/* x(...) for a model x; also x.encode(...) / x.decode(...): an autoencoder
 * or an encoder-decoder run through its own halves (a VAE's
 * vae.decode(latents), a transformer's model.encode(src, mask)). */
static int is_model_call(const struct py *p, size_t i)
{
    if (!is_name(p, i) || !is_op(p, i + 1, "(")) return 0;
    if (i > 0 && (is(p, i - 1, "def") || is(p, i - 1, "class"))) return 0;
    if (i >= 2 && is_op(p, i - 1, ".") && (is(p, i, "encode") || is(p, i, "decode"))) {
        long r = receiver_of(p, i);
        return r >= 0 && model_name_at(p, (size_t)r);
    }
    return model_name_at(p, i);
}

/* Does the name at i, called, run a model (model, netG, MODEL, G_AB whose
 * parameters() the file takes), rather than build one (MyModel)? */
static int model_name_at(const struct py *p, size_t i)
{
    const char *w = p->lx->src + tk(p, i)->off;
    size_t len = tk(p, i)->len;
    /* MyModel(cfg) builds one; MODEL(x), a module-level constant holding
     * one (a serving app's global), runs it: an all-capitals name is read
     * as its lower-case self. */
    int caps = 0;
    if (w[0] >= 'A' && w[0] <= 'Z') {
        for (size_t k = 0; k < len; k++)
            if (w[k] >= 'a' && w[k] <= 'z') return 0;
        caps = 1;
    }
    char buf[64];
    size_t n = lower_name(p, i, buf, sizeof buf);
    if (caps) w = buf, len = n;
    for (size_t k = 0; k < N_OF(not_model_prefixes); k++) {
        size_t m = strlen(not_model_prefixes[k]);
        if (len > m && !memcmp(w, not_model_prefixes[k], m) && (w[m] == '_' || (w[m] >= 'A' && w[m] <= 'Z')))
            return 0;
    }
    size_t s = chain_start(p, i);
    if (s < i && (is(p, s, "torch") || is(p, s, "nn") || is(p, s, "F"))) return 0;
    if (learned_model(p, i)) return 1;
    for (size_t k = 0; k < N_OF(model_names); k++)
        if (strlen(model_names[k]) == len && !memcmp(w, model_names[k], len)) return 1;
    if (len > 3 && !memcmp(w, "net", 3) && ((w[3] >= 'A' && w[3] <= 'Z') || w[3] == '_')) /* netG, net_d */
        return 1;
    for (size_t k = 0; k < N_OF(model_suffixes); k++) {
        size_t m = strlen(model_suffixes[k]);
        if (n > m + 1 && !strcmp(buf + n - m, model_suffixes[k])) return 1;
    }
    return 0;
}

static long find_model_call(const struct py *p, size_t a, size_t e)
{
    for (size_t i = a; i < e; i++)
        if (is_model_call(p, i)) return (long)i;
    return -1;
}

static int is_backward_call(const struct py *p, size_t i)
{
    return (is(p, i, "backward") || is(p, i, "manual_backward")) && is_name(p, i) &&
           is_op(p, i + 1, "(");
}

/* optimizer.step(), scaler.step(optimizer): a step whose receiver or
 * argument names an optimizer. */
static int is_optimizer_step(const struct py *p, size_t i, size_t e)
{
    if (!method_at(p, i, "step")) return 0;
    char buf[64];
    for (size_t k = chain_start(p, i - 2); k < i; k++)
        if (is_name(p, k) && (lower_name(p, k, buf, sizeof buf), strstr(buf, "opt"))) return 1;
    size_t close = close_of(p, i + 1, e);
    for (size_t k = i + 2; k < close; k++)
        if (is_name(p, k) && (lower_name(p, k, buf, sizeof buf), strstr(buf, "opt"))) return 1;
    return 0;
}

static int is_zero_grad(const struct py *p, size_t i)
{
    return (is(p, i, "zero_grad") && is_name(p, i)) ||
           (is(p, i, "grad") && is_op(p, i + 1, "=") && is(p, i + 2, "None"));
}

/* After a primary ending before j: does its trailer chain (.x, [..], (..))
 * reach one of methods? */
static int chain_converts(const struct py *p, size_t j, size_t e, const char *const *methods,
                          size_t nmethods)
{
    while (j + 1 < e && (is_op(p, j, "[") || is_op(p, j, "(") || is_op(p, j, "."))) {
        if (is_op(p, j, ".")) {
            if (in_list(p, j + 1, methods, nmethods)) return 1;
            j += 2;
        } else {
            j = close_of(p, j, e) + 1;
        }
    }
    return 0;
}

/* Is the name at i (a loss or output) taken off the graph where it stands:
 * followed by .item()/.detach()/..., inside float(...), or inside a call
 * whose result is (torch.stack(losses).mean().item())? */
static int occurrence_converted(const struct py *p, size_t i, size_t a, size_t e,
                                const char *const *methods, size_t nmethods)
{
    if (chain_converts(p, i + 1, e, methods, nmethods)) return 1;
    long depth = 0;
    for (size_t k = i; k-- > a;) {
        if (is_op(p, k, ")") || is_op(p, k, "]") || is_op(p, k, "}")) {
            depth++;
        } else if (is_op(p, k, "(") || is_op(p, k, "[") || is_op(p, k, "{")) {
            if (depth > 0) {
                depth--;
                continue;
            }
            if (is_op(p, k, "(") && k > a && in_list(p, k - 1, scalar_calls, N_OF(scalar_calls)))
                return 1;
            if (chain_converts(p, close_of(p, k, e) + 1, e, methods, nmethods)) return 1;
        }
    }
    return 0;
}

static int is_loss_name(const struct py *p, size_t i);

/* The last assignment to the plain name at token i in the same function
 * before statement s: is its value converted off the graph (a float), or
 * made only of losses that are (avg_loss = total_loss / n, total_loss = 0
 * summed with loss.item(): a notebook's training_losses.append(avg_loss))?
 * depth bounds the chain (a = b / 2; b = a * 2). */
static int assigned_scalar_at(const struct py *p, size_t s, size_t i, int depth)
{
    int32_t func = p->t->stmts[s].func;
    for (size_t k = s; k-- > 0;) {
        const struct lint_stmt *st = &p->t->stmts[k];
        if (st->func != func && (int32_t)k != func) continue;
        if ((int32_t)k == func) return 0;
        if (st->kind != LST_SIMPLE) continue;
        size_t eq = assign_op(p, st->first, st->end);
        if (eq == st->end || eq != st->first + 1 || !text_eq(p, st->first, i)) continue;
        size_t e = last_code(p, eq + 1, st->end);
        if (e == eq + 2 && tk(p, eq + 1)->kind == PYT_NUMBER) return 1;
        int losses = 0, scalars = 0;
        for (size_t m = eq + 1; m < e; m++) {
            if (is_name(p, m) && occurrence_converted(p, m, eq + 1, e, off_graph_methods,
                                                      N_OF(off_graph_methods)))
                return 1;
            if (depth < 3 && is_loss_name(p, m) && !is_op(p, m - 1, ".") && !is_op(p, m + 1, "(") &&
                !is_op(p, m + 1, ".") && !is_op(p, m + 1, "[")) {
                losses++;
                scalars += assigned_scalar_at(p, k, m, depth + 1);
            }
        }
        return losses > 0 && scalars == losses;
    }
    return 0;
}

static int assigned_scalar(const struct py *p, size_t s, size_t i)
{
    return assigned_scalar_at(p, s, i, 0);
}

/* The statement that last assigned the plain name at token i, in the same
 * function before statement s, or -1. */
static long last_assignment(const struct py *p, size_t s, size_t i)
{
    int32_t func = p->t->stmts[s].func;
    for (size_t k = s; k-- > 0;) {
        const struct lint_stmt *st = &p->t->stmts[k];
        if ((int32_t)k == func) return -1;
        if (st->func != func || st->kind != LST_SIMPLE) continue;
        size_t eq = assign_op(p, st->first, st->end);
        if (eq != st->end && eq == st->first + 1 && text_eq(p, st->first, i)) return (long)k;
    }
    return -1;
}

/* Was the name at token i made without a graph: last assigned under
 * no_grad, or read off (x.loss, x["loss"], x[0]) a name that was
 * (`with torch.no_grad(): outputs = model(b)` then `loss = outputs.loss`)? */
static int assigned_without_grad(const struct py *p, size_t s, size_t i)
{
    long k = last_assignment(p, s, i);
    if (k < 0) return 0;
    const struct lint_stmt *st = &p->t->stmts[k];
    if (st->no_grad) return 1;
    size_t v = st->first + 2; /* the value after `name =` */
    if (v + 1 >= st->end || !is_name(p, v) || !(is_op(p, v + 1, ".") || is_op(p, v + 1, "["))) return 0;
    long src = last_assignment(p, (size_t)k, v);
    return src >= 0 && p->t->stmts[src].no_grad;
}

static int is_loss_name(const struct py *p, size_t i)
{
    if (!is_name(p, i)) return 0;
    if (is(p, i, "criterion") || is(p, i, "loss_fn") || is(p, i, "loss_func")) return is_op(p, i + 1, "(");
    return name_ends(p, i, "loss") || name_ends(p, i, "losses");
}

/* A loss occurrence in [a, e) that carries a graph, or -1. */
static long graph_loss_in(const struct py *p, size_t s, size_t a, size_t e)
{
    for (size_t i = a; i < e; i++) {
        if (!is_loss_name(p, i)) continue;
        if (occurrence_converted(p, i, a, e, off_graph_methods, N_OF(off_graph_methods))) continue;
        if (!is_op(p, i + 1, "(") && !(i > 0 && is_op(p, i - 1, ".")) &&
            (assigned_scalar(p, s, i) || assigned_without_grad(p, s, i)))
            continue;
        return (long)i;
    }
    return -1;
}

/* ---- accumulation forms: T += E, T = T + E, T.append(E), T.extend(E) ---- */

struct accum {
    size_t ta, te, ea, ee;
    int append; /* 1: .append/.extend; 2: x = torch.cat((x, E)) */
};

/* x = torch.cat((x, E), 0): an append that copies (torch.cat, concat,
 * concatenate, vstack, hstack, stack with x among the joined tensors; the
 * tensor grows on the device every iteration, dispink/xpt
 * src/inference/inference.py). The accumulator is [ta, eq), E the call's
 * arguments. */
static int concat_accum(const struct py *p, size_t ta, size_t eq, size_t e, struct accum *ac)
{
    static const char *const joins[] = {"cat", "concat", "concatenate", "vstack", "hstack", "stack"};
    size_t n = eq - ta, c = eq + 3;
    if (c + 1 >= e || !is(p, eq + 1, "torch") || !is_op(p, eq + 2, ".") || !is_op(p, c + 1, "(") ||
        close_of(p, c + 1, e) != e - 1)
        return 0;
    int join = 0;
    for (size_t k = 0; k < N_OF(joins); k++) join |= is(p, c, joins[k]);
    if (!join || !(is_op(p, c + 2, "(") || is_op(p, c + 2, "["))) return 0;
    size_t list_end = close_of(p, c + 2, e);
    for (size_t i = c + 3; i + n <= list_end; i++) {
        if (!(is_op(p, i - 1, "(") || is_op(p, i - 1, "[") || is_op(p, i - 1, ","))) continue;
        size_t k = 0;
        while (k < n && text_eq(p, ta + k, i + k)) k++;
        if (k == n && (is_op(p, i + n, ",") || i + n == list_end)) {
            *ac = (struct accum){ta, eq, c + 2, e - 1, 2};
            return 1;
        }
    }
    return 0;
}

static int parse_accum(const struct py *p, const struct lint_stmt *st, struct accum *ac)
{
    size_t e = last_code(p, st->first, st->end);
    for (size_t i = st->first; i < e; i++) {
        if (tk(p, i)->kind == PYT_OP && is(p, i, "+=")) {
            *ac = (struct accum){st->first, i, i + 1, e, is_op(p, i + 1, "[")};
            return i > st->first;
        }
    }
    size_t eq = assign_op(p, st->first, e);
    if (eq < e && eq > st->first) {
        size_t n = eq - st->first;
        if (eq + 1 + n < e && is_op(p, eq + 1 + n, "+")) {
            for (size_t k = 0; k < n; k++)
                if (!text_eq(p, st->first + k, eq + 1 + k)) return 0;
            *ac = (struct accum){st->first, eq, eq + 2 + n, e, 0};
            return 1;
        }
        return concat_accum(p, st->first, eq, e, ac);
    }
    if (e < st->first + 4 || !is_op(p, e - 1, ")")) return 0;
    for (size_t i = st->first + 1; i + 1 < e; i++) {
        if ((method_at(p, i, "append") || method_at(p, i, "extend")) && close_of(p, i + 1, e) == e - 1) {
            *ac = (struct accum){st->first, i - 1, i + 2, e - 1, 1};
            return 1;
        }
    }
    return 0;
}

/* The name that identifies an accumulator: `losses` in self.losses[k]. */
static size_t target_name(const struct py *p, size_t a, size_t e)
{
    if (is(p, a, "self") && a + 2 < e && is_op(p, a + 1, ".")) return a + 2;
    return a;
}

/* The name a statement takes one element of the accumulator into:
 * `x = acc[i]` or `for x in acc:`; -1 when it does not. */
static long element_of(const struct py *p, const struct lint_stmt *st, size_t name)
{
    size_t a = st->first;
    if (st->kind == LST_SIMPLE && is_name(p, a) && is_op(p, a + 1, "=") && a + 3 < st->end &&
        text_eq(p, a + 2, name) && is_op(p, a + 3, "["))
        return (long)a;
    if (st->kind == LST_FOR && is_name(p, a + 1) && is(p, a + 2, "in") && a + 4 == st->end &&
        text_eq(p, a + 3, name))
        return (long)(a + 1);
    return -1;
}

/* Is the accumulator meant to carry the graph: backward() on it, or on
 * an element taken out of it (several forwards, then one backward each:
 * huggingface/accelerate test_sync.py test_distributed_sync_multiple_fwd,
 * `loss = losses[iteration]`, `accelerator.backward(loss)`), or returned
 * to a caller that does? */
static int accumulator_intended(const struct py *p, size_t s, size_t name, int returned_ok)
{
    int32_t func = p->t->stmts[s].func;
    size_t from = func < 0 ? 0 : (size_t)func + 1;
    size_t to = func < 0 ? p->t->n : p->t->stmts[func].body_end;
    /* an element's name, and where it stops being one. Eight names at a
     * time is more than one function takes out of one accumulator in the
     * code read (one or two: `loss = losses[i]`, `for l in losses:`); a
     * slot whose name has ended is reused, and a ninth live name makes no
     * claim: the accumulator is taken as intended (no warning), not
     * reported on a name that could not be followed. */
    size_t elems[8], elem_end[8], nelems = 0;
    for (size_t k = from; k < to; k++) {
        const struct lint_stmt *st = &p->t->stmts[k];
        if (st->func != func) continue;
        long el = element_of(p, st, name);
        /* `x = model(y)` rebinds an element's name: it is no element from
         * here on (a right side that reads x, `x = x * w`, keeps it one) */
        if (st->kind == LST_SIMPLE && is_name(p, st->first) && is_op(p, st->first + 1, "=") && el < 0)
            for (size_t j = 0; j < nelems; j++) {
                if (k >= elem_end[j] || !text_eq(p, st->first, elems[j])) continue;
                int reads = 0;
                for (size_t i = st->first + 2; i < st->end && !reads; i++)
                    reads = is_name(p, i) && !is_op(p, i - 1, ".") && text_eq(p, i, elems[j]);
                if (!reads) elem_end[j] = k;
            }
        if (el >= 0) {
            size_t slot = nelems;
            for (size_t j = 0; j < nelems && slot == nelems; j++)
                if (k >= elem_end[j]) slot = j;
            if (slot == N_OF(elems)) return 1;
            elems[slot] = (size_t)el;
            elem_end[slot] = st->kind == LST_FOR ? st->body_end : to; /* a for's name: its body */
            if (slot == nelems) nelems++;
        }
        int uses = 0, sink = returned_ok && (is(p, st->first, "return") || is(p, st->first, "yield"));
        for (size_t i = st->first; i < st->end; i++) {
            if (is_name(p, i) && text_eq(p, i, name)) uses = 1;
            for (size_t j = 0; j < nelems && !uses; j++)
                if (k < elem_end[j] && is_name(p, i) && text_eq(p, i, elems[j])) uses = 1;
            if (is_backward_call(p, i) || is(p, i, "scale")) sink = 1;
        }
        if (uses && sink) return 1;
    }
    return 0;
}

/* ---- loop contents, memoised per loop statement ---- */

static long def_named(const struct py *p, size_t i);
static int function_trains(const struct py *p, int32_t func);

/* f(loss, optimizer, ...): a helper handed the step's loss (not its
 * .item()) and the optimizer itself (a bare argument whose name says opt)
 * runs backward, step and zeroing (microsoft/LoRA examples/NLG/src/gpt2_ft.py:
 * optimizer_step(_lm_loss / grad_acc, optimizer, model, ...)). A function
 * of this file must call backward() or step() itself; an imported one is
 * taken at its arguments' word. */
static int is_step_helper_call(const struct py *p, size_t i, size_t e)
{
    if (!is_name(p, i) || !is_op(p, i + 1, "(") || (i > 0 && (is(p, i - 1, "def") || is_op(p, i - 1, "."))))
        return 0;
    size_t close = close_of(p, i + 1, e);
    int loss = 0, opt = 0;
    char buf[64];
    for (size_t k = i + 2; k < close; k++) {
        if (!is_name(p, k) || is_op(p, k - 1, ".")) continue;
        if (is_loss_name(p, k) && !is_op(p, k + 1, ".") && !is_op(p, k + 1, "(")) loss = 1;
        if ((is_op(p, k + 1, ",") || k + 1 == close) && (is_op(p, k - 1, ",") || k == i + 2) &&
            (lower_name(p, k, buf, sizeof buf), strstr(buf, "opt")))
            opt = 1;
    }
    if (!loss || !opt) return 0;
    long d = def_named(p, i);
    return d < 0 || function_trains(p, (int32_t)d);
}

/* HAS_LOOP: a loop inside that does work (runs the model or trains), so
 * this one runs once per epoch or pass; a loop inside that only prepares
 * prompts or saves images does not count. */
enum { HAS_BACKWARD = 1, HAS_STEP = 2, HAS_ZERO = 4, HAS_MODEL = 8, HAS_LOOP = 16, HAS_CHILD_TRAIN = 32 };

static int loop_contents(struct py *p, size_t loop)
{
    if (p->loop_memo[loop] >= 0) return p->loop_memo[loop];
    const struct lint_stmt *L = &p->t->stmts[loop];
    int f = 0;
    for (size_t k = loop + 1; k < L->body_end; k++) {
        const struct lint_stmt *st = &p->t->stmts[k];
        if (st->func != L->func) continue;
        if (st->kind == LST_FOR || st->kind == LST_WHILE) {
            int inner = loop_contents(p, k);
            if (inner & (HAS_BACKWARD | HAS_STEP | HAS_MODEL)) f |= HAS_LOOP;
            if ((inner & (HAS_BACKWARD | HAS_STEP)) == (HAS_BACKWARD | HAS_STEP)) f |= HAS_CHILD_TRAIN;
        }
        for (size_t i = st->first; i < st->end; i++) {
            if (is_backward_call(p, i)) f |= HAS_BACKWARD;
            if (is_optimizer_step(p, i, st->end)) f |= HAS_STEP;
            if (is_step_helper_call(p, i, st->end)) f |= HAS_BACKWARD | HAS_STEP | HAS_ZERO;
            if (is_zero_grad(p, i) || is(p, i, "set_to_none")) f |= HAS_ZERO;
            if (is_model_call(p, i)) f |= HAS_MODEL;
        }
    }
    p->loop_memo[loop] = (int8_t)f;
    return f;
}

static int report(struct py *p, size_t rule, size_t tok)
{
    if (lint_report_add(p->r, rule, tk(p, tok)->line, tk(p, tok)->col) < 0) p->failed = 1;
    return 0;
}

/* ---- rules ---- */

static void rule_loss_accumulated(struct py *p, size_t s)
{
    const struct lint_stmt *st = &p->t->stmts[s];
    struct accum ac;
    if (!p->torch_loss || st->kind != LST_SIMPLE || st->loop < 0 || st->no_grad || !parse_accum(p, st, &ac))
        return;
    int c = loop_contents(p, (size_t)st->loop);
    if (!(c & (HAS_BACKWARD | HAS_STEP | HAS_MODEL))) return;
    if (graph_loss_in(p, s, ac.ea, ac.ee) < 0) return;
    if (accumulator_intended(p, s, target_name(p, ac.ta, ac.te), !(c & HAS_BACKWARD))) return;
    report(p, LR_LOSS_ACCUMULATED, st->first);
}

static int is_output_name(const struct py *p, size_t s, size_t i)
{
    if (in_list(p, i, output_names, N_OF(output_names))) return 1;
    int32_t loop = p->t->stmts[s].loop;
    for (size_t k = (size_t)loop + 1; k < s; k++) {
        const struct lint_stmt *st = &p->t->stmts[k];
        size_t eq = assign_op(p, st->first, st->end);
        if (st->kind != LST_SIMPLE || eq == st->end) continue;
        for (size_t m = st->first; m < eq; m++)
            if (text_eq(p, m, i) && find_model_call(p, eq + 1, st->end) >= 0) return 1;
    }
    return 0;
}

/* Was the accumulator [ta, te) of a torch.cat last set, before loop, to a
 * tensor on a device (.to(...), .cuda(), device=...)? torch.cat keeps one
 * device, so one made on the CPU holds outputs taken off the GPU. */
static int concat_starts_on_device(const struct py *p, size_t loop, size_t ta, size_t te)
{
    int32_t func = p->t->stmts[loop].func;
    size_t from = func < 0 ? 0 : (size_t)func + 1;
    int on = 0;
    for (size_t k = from; k < loop; k++) {
        const struct lint_stmt *st = &p->t->stmts[k];
        size_t eq = st->func == func && st->kind == LST_SIMPLE ? assign_op(p, st->first, st->end) : st->end;
        if (eq != st->first + (te - ta) || eq == st->end) continue;
        size_t m = 0;
        while (m < te - ta && text_eq(p, st->first + m, ta + m)) m++;
        if (m < te - ta) continue;
        on = find_method(p, eq, st->end, "to") >= 0 || find_method(p, eq, st->end, "cuda") >= 0 ||
             has_name(p, eq, st->end, "device");
    }
    return on;
}

static void rule_outputs_on_gpu(struct py *p, size_t s)
{
    const struct lint_stmt *st = &p->t->stmts[s];
    struct accum ac;
    if (!p->gpu || st->kind != LST_SIMPLE || st->loop < 0 || !parse_accum(p, st, &ac) || !ac.append)
        return;
    if (ac.append == 2 && !concat_starts_on_device(p, (size_t)st->loop, ac.ta, ac.te)) return;
    /* a loop that runs the model, or trains (the forward may sit in a helper:
     * loss, outputs = run_batch(model, x)) */
    if (!(loop_contents(p, (size_t)st->loop) & (HAS_MODEL | HAS_BACKWARD))) return;
    for (size_t i = ac.ea; i < ac.ee; i++)
        if (is_loss_name(p, i)) return; /* a loss: loss-accumulated's business */
    for (size_t i = ac.ea; i < ac.ee; i++) {
        if (!is_name(p, i) || (i > ac.ea && is_op(p, i - 1, ".")) || is_op(p, i + 1, "(")) continue;
        if (!is_output_name(p, s, i)) continue;
        if (occurrence_converted(p, i, ac.ea, ac.ee, off_gpu_methods, N_OF(off_gpu_methods))) continue;
        report(p, LR_OUTPUTS_ON_GPU, st->first);
        return;
    }
}

static int assigned_in_loop(const struct py *p, size_t loop, size_t name)
{
    const struct lint_stmt *L = &p->t->stmts[loop];
    for (size_t k = loop + 1; k < L->body_end; k++) {
        const struct lint_stmt *st = &p->t->stmts[k];
        size_t eq = assign_op(p, st->first, st->end);
        if (eq == st->end) continue;
        for (size_t m = st->first; m < eq && st->kind == LST_SIMPLE; m++)
            if (text_eq(p, m, name)) return 1;
    }
    return 0;
}

static void rule_retain_graph(struct py *p, size_t s)
{
    const struct lint_stmt *st = &p->t->stmts[s];
    if (st->loop < 0) return;
    for (size_t i = st->first; i + 2 < st->end; i++) {
        if (!is(p, i, "retain_graph") || !is_op(p, i + 1, "=") || !is(p, i + 2, "True")) continue;
        long bw = find_method(p, st->first, i, "backward");
        size_t name;
        if (bw > 0 && is_op(p, (size_t)bw - 2, ")")) {
            report(p, LR_RETAIN_GRAPH_IN_LOOP, i); /* criterion(...).backward(...) */
            return;
        }
        if (bw > 0) name = chain_start(p, (size_t)bw - 2);
        else {
            long g = find_method(p, st->first, i, "grad");
            if (g < 0) g = find_method(p, st->first, i, "backward");
            if (g < 0 || !is_name(p, (size_t)g + 2)) return;
            name = (size_t)g + 2;
        }
        if (assigned_in_loop(p, (size_t)st->loop, name)) report(p, LR_RETAIN_GRAPH_IN_LOOP, i);
        return;
    }
}

static void rule_zero_grad(struct py *p, size_t s)
{
    const struct lint_stmt *st = &p->t->stmts[s];
    if (p->o->torch_major >= 2) return;
    for (size_t i = st->first; i < st->end; i++) {
        if (!method_at(p, i, "zero_grad")) continue;
        size_t close = close_of(p, i + 1, st->end);
        if (!has_name(p, i + 2, close, "set_to_none") && close == i + 2) report(p, LR_ZERO_GRAD_NOT_NONE, i);
    }
}

static long def_named(const struct py *p, size_t i);

/* Does the loop call a function of this file that zeroes gradients
 * (a reset_grad() helper)? */
static int zeroes_through_helper(const struct py *p, size_t loop)
{
    const struct lint_stmt *L = &p->t->stmts[loop];
    size_t a = p->t->stmts[loop + 1].first, e = p->t->stmts[L->body_end - 1].end;
    for (size_t i = a; i < e; i++) {
        if (!is_name(p, i) || !is_op(p, i + 1, "(") || (is_op(p, i - 1, ".") && !is(p, i - 2, "self")))
            continue;
        long d = def_named(p, i);
        if (d < 0 || p->t->stmts[d].body_end <= (size_t)d + 1) continue;
        for (size_t k = p->t->stmts[d].end; k < p->t->stmts[p->t->stmts[d].body_end - 1].end; k++)
            if (is_zero_grad(p, k) || is(p, k, "set_to_none")) return 1;
    }
    return 0;
}

static void rule_missing_zero_grad(struct py *p, size_t s)
{
    const struct lint_stmt *st = &p->t->stmts[s];
    if (st->kind != LST_FOR && st->kind != LST_WHILE) return;
    int c = loop_contents(p, s);
    if ((c & (HAS_BACKWARD | HAS_STEP)) != (HAS_BACKWARD | HAS_STEP)) return;
    if ((c & (HAS_ZERO | HAS_CHILD_TRAIN)) || zeroes_through_helper(p, s)) return;
    report(p, LR_MISSING_ZERO_GRAD, st->first);
}

/* torch.X( at i (not some_object.torch.X). */
static int torch_call(const struct py *p, size_t i, const char *name)
{
    return i >= 2 && method_at(p, i, name) && is(p, i - 2, "torch") &&
           !(i >= 3 && is_op(p, i - 3, "."));
}

/* Was the model named like token r last moved, before statement s of the
 * same function, to the CPU (x.cpu(), x.eval().cpu(), x.to("cpu"))? */
static int moved_to_cpu(const struct py *p, size_t s, size_t r)
{
    int32_t func = p->t->stmts[s].func;
    for (size_t k = s; k-- > 0 && (int32_t)k != func;) {
        const struct lint_stmt *st = &p->t->stmts[k];
        int where = -1; /* 1 cpu, 0 elsewhere, -1 not moved here */
        if (st->func != func) continue;
        for (size_t i = st->first; i < st->end; i++) {
            if (!method_at(p, i, "cpu") && !method_at(p, i, "to") && !method_at(p, i, "cuda")) continue;
            long recv = receiver_of(p, i);
            if (recv < 0 || !text_eq(p, (size_t)recv, r)) continue;
            size_t close = close_of(p, i + 1, st->end);
            where = is(p, i, "cpu") || (is(p, i, "to") && (has_name(p, i + 1, close, "cpu") ||
                                                              (is(p, i + 2, "\"cpu\"") || is(p, i + 2, "'cpu'"))));
        }
        if (where >= 0) return where;
    }
    return 0;
}

static int saves_state_dict(const struct py *p, size_t s, size_t a, size_t e)
{
    if (has_name(p, a, e, "cpu") || has_name(p, a, e, "to")) return 0;
    long m = find_method(p, a, e, "state_dict");
    if (m >= 0) {
        long r = receiver_of(p, (size_t)m);
        return !(r >= 0 && moved_to_cpu(p, s, (size_t)r));
    }
    if (e != a + 1 || !is_name(p, a)) return 0;
    int32_t func = p->t->stmts[s].func;
    for (size_t k = s; k-- > 0 && (int32_t)k != func;) {
        const struct lint_stmt *st = &p->t->stmts[k];
        size_t eq = assign_op(p, st->first, st->end);
        if (st->func != func || st->kind != LST_SIMPLE || eq == st->end || !text_eq(p, st->first, a))
            continue;
        if (has_name(p, eq, st->end, "cpu")) return 0;
        if (find_method(p, eq, st->end, "state_dict") >= 0) return 1;
    }
    return 0;
}

/* End of the first argument of the call whose '(' is at open. */
static size_t first_arg_end(const struct py *p, size_t open, size_t close)
{
    long depth = 0;
    for (size_t i = open + 1; i < close; i++) {
        if (depth == 0 && is_op(p, i, ",")) return i;
        if (is_op(p, i, "(") || is_op(p, i, "[") || is_op(p, i, "{")) depth++;
        if (is_op(p, i, ")") || is_op(p, i, "]") || is_op(p, i, "}")) depth--;
    }
    return close;
}

static void rule_save_gpu(struct py *p, size_t s)
{
    const struct lint_stmt *st = &p->t->stmts[s];
    for (size_t i = st->first; i < st->end; i++) {
        if (!torch_call(p, i, "save")) continue;
        size_t close = close_of(p, i + 1, st->end);
        if (!saves_state_dict(p, s, i + 2, first_arg_end(p, i + 1, close))) continue;
        if (p->gpu || p->o->project_gpu) report(p, LR_SAVE_GPU_TENSORS, i - 2);
        else p->r->asks_project_gpu = 1; /* the caller may know the project uses CUDA */
    }
}

/* Is map_location given: by keyword, as the second positional argument,
 * or possibly inside **kwargs? */
static int load_maps_location(const struct py *p, size_t open, size_t close)
{
    if (has_name(p, open + 1, close, "map_location")) return 1;
    for (size_t i = open + 1; i < close; i++)
        if (is_op(p, i, "**")) return 1;
    size_t second = first_arg_end(p, open, close) + 1;
    return second < close && !(is_name(p, second) && is_op(p, second + 1, "="));
}

static void rule_load_map_location(struct py *p, size_t s)
{
    const struct lint_stmt *st = &p->t->stmts[s];
    for (size_t i = st->first; i < st->end; i++) {
        if (!torch_call(p, i, "load")) continue;
        size_t close = close_of(p, i + 1, st->end);
        if (close < st->end && !load_maps_location(p, i + 1, close))
            report(p, LR_LOAD_WITHOUT_MAP_LOCATION, i - 2);
    }
}

/* A function the training loop calls once per step (HF Trainer's and
 * Lightning's training_step, the common train_step). */
static int step_function(const struct py *p, int32_t func)
{
    long n = func < 0 ? -1 : linttree_def_name(p->t, (size_t)func);
    return n >= 0 && (is(p, (size_t)n, "training_step") || is(p, (size_t)n, "train_step"));
}

static void rule_empty_cache(struct py *p, size_t s)
{
    const struct lint_stmt *st = &p->t->stmts[s];
    if (st->in_except || st->periodic || (st->loop < 0 && !step_function(p, st->func))) return;
    long i = find_method(p, st->first, st->end, "empty_cache");
    if (i < 2 || !is(p, (size_t)i - 2, "cuda")) return;
    if (st->loop < 0) {
        report(p, LR_EMPTY_CACHE_IN_LOOP, chain_start(p, (size_t)i)); /* every step, from its caller's loop */
        return;
    }
    int c = loop_contents(p, (size_t)st->loop);
    if ((c & HAS_LOOP) || !(c & (HAS_BACKWARD | HAS_STEP | HAS_MODEL))) return;
    report(p, LR_EMPTY_CACHE_IN_LOOP, chain_start(p, (size_t)i));
}

/* Does statement k initialise CUDA: x.cuda(), torch.cuda.fn() other than
 * the queries, .to("cuda"), device="cuda" as a call's keyword? */
static int inits_cuda(const struct py *p, size_t k)
{
    const struct lint_stmt *st = &p->t->stmts[k];
    for (size_t i = st->first; i < st->end; i++) {
        const struct pytok *t = tk(p, i);
        if (method_at(p, i, "cuda")) return 1;
        if (i >= 2 && is(p, i - 2, "cuda") && is_op(p, i - 1, ".") && is_op(p, i + 1, "(") &&
            !in_list(p, i, cuda_no_init, N_OF(cuda_no_init)))
            return 1;
        if (t->kind == PYT_STRING && i > 0 && t->len > 5 &&
            memmem(p->lx->src + t->off, t->len, "cuda", 4) &&
            ((is_op(p, i - 1, "(") && i >= 2 && is(p, i - 2, "to")) ||
             (is_op(p, i - 1, "=") && i >= 3 && is(p, i - 2, "device") &&
              (is_op(p, i - 3, "(") || is_op(p, i - 3, ",")))))
            return 1;
    }
    return 0;
}

/* import torch, import torch.x, from torch import ..., from torch.x import ... */
static int imports_torch(const struct py *p, size_t k)
{
    const struct lint_stmt *st = &p->t->stmts[k];
    if (st->kind != LST_SIMPLE || st->first + 1 >= st->end) return 0;
    if (!is(p, st->first, "import") && !is(p, st->first, "from")) return 0;
    for (size_t i = st->first + 1; i < st->end; i++)
        if (is(p, i, "torch") && (is(p, i - 1, "import") || is(p, i - 1, "from") || is_op(p, i - 1, ",")))
            return 1;
    return 0;
}

/* A string literal whose text is an allocator variable's name: 'NAME',
 * "NAME", r'NAME' (prefix letters, then one quote on each side). */
static int string_is_alloc_var(const char *t, size_t n)
{
    size_t a = 0;
    while (a < n && t[a] != '\'' && t[a] != '"') a++;
    if (n < a + 2 || t[n - 1] != t[a]) return 0;
    return lint_alloc_var(t + a + 1, n - a - 2) >= 0;
}

static void rule_alloc_conf(struct py *p, size_t s)
{
    const struct lint_stmt *st = &p->t->stmts[s];
    long at = -1;
    for (size_t i = st->first; i < st->end && at < 0; i++) {
        const struct pytok *t = tk(p, i);
        if (t->kind == PYT_STRING && string_is_alloc_var(p->lx->src + t->off, t->len)) at = (long)i;
    }
    if (at < 0 || !(has_name(p, st->first, st->end, "environ") || has_name(p, st->first, st->end, "putenv")))
        return;
    int sets = assign_op(p, st->first, st->end) > (size_t)at ||
               find_method(p, st->first, st->end, "setdefault") >= 0 ||
               find_method(p, st->first, st->end, "update") >= 0 ||
               has_call(p, st->first, st->end, "putenv");
    if (!sets || (assign_op(p, st->first, st->end) == st->end && st->kind != LST_SIMPLE)) return;
    /* The allocator backend (backend:cudaMallocAsync) is read when torch
     * is imported, so for it `import torch` is already too late
     * (pytorch/pytorch#104801: "Allocator backend parsed at runtime !=
     * allocator backend parsed at load time"). */
    int backend = 0;
    for (size_t i = st->first; i < st->end; i++)
        if (tk(p, i)->kind == PYT_STRING && memmem(p->lx->src + tk(p, i)->off, tk(p, i)->len, "backend:", 8))
            backend = 1;
    int32_t func = st->func;
    for (size_t k = 0; k < s; k++) {
        const struct lint_stmt *o = &p->t->stmts[k];
        if ((o->func == -1 || o->func == func) && (inits_cuda(p, k) || (backend && imports_torch(p, k)))) {
            report(p, LR_ALLOC_CONF_AFTER_CUDA, (size_t)at);
            return;
        }
    }
}

static void rule_no_grad_statement(struct py *p, size_t s)
{
    const struct lint_stmt *st = &p->t->stmts[s];
    size_t e = last_code(p, st->first, st->end);
    if (st->kind != LST_SIMPLE || e < st->first + 3 || !is_op(p, e - 1, ")") || !is_op(p, e - 2, "("))
        return;
    size_t name = e - 3;
    if (!(is(p, name, "no_grad") || is(p, name, "inference_mode") || is(p, name, "enable_grad")))
        return;
    if (chain_start(p, name) == st->first) report(p, LR_NO_GRAD_NOT_ENTERED, st->first);
}

/* ---- function-level rules: evaluation regions ---- */

/* A unit test, not evaluation: test_* as a method or beside pytest/unittest. */
static int unit_test(const struct py *p, int32_t def)
{
    if (def < 0) return 0;
    long n = linttree_def_name(p->t, (size_t)def);
    if (n < 0) return 0;
    const char *name = p->lx->src + tk(p, (size_t)n)->off;
    size_t len = tk(p, (size_t)n)->len;
    if (!(len > 5 && !memcmp(name, "test_", 5)) && !(len > 6 && !memcmp(name, "_test_", 6))) return 0;
    if (p->pytest) return 1;
    for (int32_t a = p->t->stmts[def].parent; a >= 0; a = p->t->stmts[a].parent)
        if (p->t->stmts[a].kind == LST_CLASS) return 1;
    return 0;
}

/* Does a lower-case name (changed in place) have a word of evaluation code? */
static int has_eval_word(char *buf)
{
    char *save = NULL;
    for (char *w = strtok_r(buf, "_", &save); w; w = strtok_r(NULL, "_", &save)) {
        for (size_t k = 0; k < N_OF(eval_prefixes); k++)
            if (!strncmp(w, eval_prefixes[k], strlen(eval_prefixes[k]))) return 1;
        for (size_t k = 0; k < N_OF(eval_words); k++)
            if (!strcmp(w, eval_words[k])) return 1;
    }
    return 0;
}

/* Calls that write images: a function that runs a model to write its
 * output as pictures is sampling, whatever its name (the GAN
 * implementations' sample_image(n_row, batches_done) of
 * eriklindernoren/PyTorch-GAN). */
static const char *const image_writers[] = {"save_image", "make_grid", "imsave", "imwrite"};

static int writes_images(const struct py *p, size_t def)
{
    for (size_t k = def + 1; k < p->t->stmts[def].body_end; k++)
        for (size_t i = p->t->stmts[k].first; i < p->t->stmts[k].end; i++)
            if (in_list(p, i, image_writers, N_OF(image_writers)) && is_op(p, i + 1, "(")) return 1;
    return 0;
}

static int eval_function(const struct py *p, size_t def)
{
    long n = linttree_def_name(p->t, def);
    if (n < 0 || in_list(p, (size_t)n, lightning_hooks, N_OF(lightning_hooks))) return 0;
    char buf[128];
    lower_name(p, (size_t)n, buf, sizeof buf);
    if (unit_test(p, def)) return 0;
    if (!strcmp(buf, "generate")) return 1;
    return has_eval_word(buf) || writes_images(p, def);
}

static int function_trains(const struct py *p, int32_t func)
{
    size_t from = func < 0 ? 0 : (size_t)func + 1;
    size_t to = func < 0 ? p->t->n : p->t->stmts[func].body_end;
    for (size_t k = from; k < to; k++)
        for (size_t i = p->t->stmts[k].first; i < p->t->stmts[k].end; i++)
            if (is_backward_call(p, i) || is_optimizer_step(p, i, p->t->stmts[k].end)) return 1;
    return 0;
}

/* x.train() / x.train(True) / x.train(mode=True), not x.train(False). */
static int is_train_call(const struct py *p, size_t i)
{
    return method_at(p, i, "train") && !is(p, i + 2, "False") && !is(p, i + 4, "False");
}

static int is_eval_call(const struct py *p, size_t i)
{
    return (method_at(p, i, "eval") && is_op(p, i + 2, ")")) ||
           (method_at(p, i, "train") && (is(p, i + 2, "False") || is(p, i + 4, "False")));
}

/* Walk the statements of one function (or the module, func -1) in order:
 * the region after x.eval() (or the whole body of an evaluation function)
 * up to x.train(); the first model call there with gradients on. */
/* Can the model whose eval()/train() name is at i be one the file trains?
 * When the file hands some models' parameters() to an optimizer, only those
 * (a frozen feature extractor's eval() is not evaluation); else any. */
static int trained_model(const struct py *p, size_t i)
{
    long r = receiver_of(p, i);
    if (p->nparams == 0) return 1;
    if (r < 0) return 0;
    for (size_t k = 0; k < p->nparams; k++)
        if (text_eq(p, p->params[k], (size_t)r)) return 1;
    return 0;
}

/* f(...) or self.f(...) where f is a def of this file that trains
 * (backward() or step() in its body): a training step through a helper
 * (accelerate's test_sync.py step_model(model, input, target, accelerator):
 * model.train(), model(input), backward). */
static int training_helper_call(const struct py *p, size_t i)
{
    if (!is_name(p, i) || !is_op(p, i + 1, "(") || (i > 0 && (is(p, i - 1, "def") || is(p, i - 1, "class"))))
        return 0;
    if (i > 0 && is_op(p, i - 1, ".") && !(i > 1 && is(p, i - 2, "self") && !(i > 2 && is_op(p, i - 3, "."))))
        return 0;
    long d = def_named(p, i);
    return d >= 0 && function_trains(p, (int32_t)d);
}

static int stmt_backward(const struct py *p, size_t k)
{
    for (size_t i = p->t->stmts[k].first; i < p->t->stmts[k].end; i++)
        if (is_backward_call(p, i) || training_helper_call(p, i)) return 1;
    return 0;
}

/* Does a statement of func's own body train through a helper of this file? */
static int trains_through_helper(const struct py *p, int32_t func)
{
    for (size_t k = (size_t)func + 1; k < p->t->stmts[func].body_end; k++)
        if (p->t->stmts[k].func == func && stmt_backward(p, k)) return 1;
    return 0;
}

/* Does the loop's own body (not a loop nested in it) call backward()? */
static int loop_steps_back(const struct py *p, size_t loop)
{
    for (size_t k = loop + 1; k < p->t->stmts[loop].body_end; k++)
        if (p->t->stmts[k].loop == (int32_t)loop && stmt_backward(p, k)) return 1;
    return 0;
}

static long stmt_at(const struct py *p, size_t i);

/* self.NAME( at i inside a class that defines a method NAME: that method
 * (same-named methods of different classes are not one function), else -1
 * (no self call, or the class has no such method: it may be inherited,
 * and is matched by name). */
static long self_method_def(const struct py *p, size_t i)
{
    if (i < 2 || !is_op(p, i - 1, ".") || !is(p, i - 2, "self") || (i > 2 && is_op(p, i - 3, "."))) return -1;
    long s = stmt_at(p, i);
    int32_t c = s < 0 ? -1 : p->t->stmts[s].parent;
    while (c >= 0 && p->t->stmts[c].kind != LST_CLASS) c = p->t->stmts[c].parent;
    if (c < 0) return -1;
    for (size_t k = (size_t)c + 1; k < p->t->stmts[c].body_end; k++) {
        if (p->t->stmts[k].kind != LST_DEF || p->t->stmts[k].parent != c) continue;
        long n = linttree_def_name(p->t, k);
        if (n >= 0 && text_eq(p, (size_t)n, i)) return (long)k;
    }
    return -1;
}

/* Does every use of the function def (a def of this file) call it where
 * gradients are off: `f(...)` or `self.f(...)` in a no_grad statement, in a
 * Lightning hook that runs without them, or in a function that is itself
 * called only so (depth levels up)? Any other use (x.f(...), f passed as a
 * value) is a caller we cannot see: no. A helper of validation_step and
 * test_step (Lightning's imagenet.py eval_step(batch, batch_idx, prefix))
 * runs without gradients, as they do. */
static int called_only_without_grad(const struct py *p, size_t def, int depth)
{
    long n = linttree_def_name(p->t, def);
    if (n < 0) return 0;
    size_t calls = 0;
    for (size_t i = 0; i + 1 < p->lx->ntoks; i++) {
        if (i == (size_t)n || !is_name(p, i) || !text_eq(p, i, (size_t)n)) continue;
        if (i > 0 && (is(p, i - 1, "def") || is(p, i - 1, "class"))) continue;
        if (!is_op(p, i + 1, "(")) return 0;
        if (i > 0 && is_op(p, i - 1, ".") && !(i > 1 && is(p, i - 2, "self") && !(i > 2 && is_op(p, i - 3, "."))))
            return 0;
        long m = self_method_def(p, i);
        if (m >= 0 && (size_t)m != def) continue; /* another class's method of the name */
        long s = stmt_at(p, i);
        if (s < 0) return 0;
        const struct lint_stmt *st = &p->t->stmts[s];
        calls++;
        if (st->no_grad) continue;
        if (st->func < 0) return 0;
        long h = linttree_def_name(p->t, (size_t)st->func);
        if (h >= 0 && in_list(p, (size_t)h, lightning_hooks, N_OF(lightning_hooks))) continue;
        if (depth > 0 && (size_t)st->func != def && called_only_without_grad(p, (size_t)st->func, depth - 1))
            continue;
        return 0;
    }
    return calls > 0;
}

static void rule_eval_region(struct py *p, int32_t func)
{
    size_t from = func < 0 ? 0 : (size_t)func + 1;
    size_t to = func < 0 ? p->t->n : p->t->stmts[func].body_end;
    if (!p->torchy || unit_test(p, func)) return;
    int whole = func >= 0 && eval_function(p, (size_t)func) && !function_trains(p, func) &&
                !trains_through_helper(p, func);
    int in_eval = whole, grad_off = 0;
    for (size_t k = from; k < to; k++) {
        const struct lint_stmt *st = &p->t->stmts[k];
        if (st->func != func || st->kind == LST_DEF || st->kind == LST_CLASS || st->kind == LST_DECORATOR)
            continue;
        for (size_t i = st->first; i < st->end; i++) {
            if (is_eval_call(p, i) && trained_model(p, i)) in_eval = 1;
            else if (is_train_call(p, i)) in_eval = 0;
            if (st->kind == LST_SIMPLE && is(p, i, "set_grad_enabled") && is_op(p, i + 1, "("))
                grad_off = is(p, i + 2, "False");
        }
        if (!in_eval || st->no_grad || grad_off) continue;
        /* a step that calls backward() (itself, or its innermost loop) is
         * training, in eval mode or not: eval-never-train's business */
        if (st->loop >= 0 ? loop_steps_back(p, (size_t)st->loop) : stmt_backward(p, k)) continue;
        long call = find_model_call(p, st->first, st->end);
        if (call >= 0) {
            if (func < 0 || !called_only_without_grad(p, (size_t)func, 2))
                report(p, LR_EVAL_WITHOUT_NO_GRAD, (size_t)call);
            return;
        }
    }
}

#define MAX_RECEIVERS 256

/* The statement holding token i (binary search: statements are in token
 * order), -1 before the first. */
static long stmt_at(const struct py *p, size_t i)
{
    size_t lo = 0, hi = p->t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->t->stmts[mid].first <= i) lo = mid + 1;
        else hi = mid;
    }
    return (long)lo - 1;
}

/* The def whose statement holds token i, -1 at module level. */
static int32_t enclosing_def(const struct py *p, size_t i)
{
    long s = stmt_at(p, i);
    return s < 0 ? -1 : p->t->stmts[s].func;
}

/* Does a statement of func's own body in [from, to) train (backward(), step())? */
static int scope_trains(const struct py *p, int32_t func, size_t from, size_t to)
{
    for (size_t k = from; k < to; k++) {
        const struct lint_stmt *st = &p->t->stmts[k];
        if (st->func != func) continue;
        for (size_t i = st->first; i < st->end; i++)
            if (is_backward_call(p, i) || is_optimizer_step(p, i, st->end)) return 1;
    }
    return 0;
}

/* x.eval() outside any loop, after its scope's training and with none after
 * it: training has finished (a tutorial's test after its training loop). */
static int after_training(const struct py *p, size_t i)
{
    long s = stmt_at(p, i);
    if (s < 0) return 0;
    const struct lint_stmt *st = &p->t->stmts[s];
    size_t from = st->func < 0 ? 0 : (size_t)st->func + 1;
    size_t to = st->func < 0 ? p->t->n : p->t->stmts[st->func].body_end;
    return st->loop < 0 && scope_trains(p, st->func, from, (size_t)s) &&
           !scope_trains(p, st->func, (size_t)s + 1, to);
}

static int seen_receiver(const struct py *p, const size_t *list, size_t n, size_t tok)
{
    for (size_t k = 0; k < n; k++)
        if (text_eq(p, list[k], tok)) return 1;
    return 0;
}

static int eval_call_at(const struct py *p, size_t i, size_t e);

/* x.eval() set on purpose for training: in a function that trains, before
 * its first backward()/step() and outside its loops, with no evaluation in
 * between (no no_grad block, no evaluation call). Each run of that function
 * trains in eval mode by choice: the linear-probe protocol keeps a frozen
 * backbone's BatchNorm statistics (facebookresearch/simsiam main_lincls.py
 * train(): "Switch to eval mode"). A baseline evaluation before training
 * (no_grad or an evaluate() call between) is not this. */
static int eval_for_training(const struct py *p, size_t i)
{
    long s = stmt_at(p, i);
    if (s < 0) return 0;
    const struct lint_stmt *st = &p->t->stmts[s];
    if (st->func < 0 || st->loop >= 0) return 0;
    size_t to = p->t->stmts[st->func].body_end;
    if (scope_trains(p, st->func, (size_t)st->func + 1, (size_t)s)) return 0;
    for (size_t k = (size_t)s + 1; k < to; k = p->t->stmts[k].body_end) { /* s's siblings, whole */
        const struct lint_stmt *b = &p->t->stmts[k];
        if (b->parent != st->parent) return 0;
        if (scope_trains(p, st->func, k, b->body_end)) return 1;
        for (size_t m = k; m < b->body_end; m++) {
            if (p->t->stmts[m].no_grad) return 0;
            for (size_t j = p->t->stmts[m].first; j < p->t->stmts[m].end; j++)
                if (eval_call_at(p, j, p->t->stmts[m].end)) return 0;
        }
    }
    return 0;
}

/* The parameter of def d named like token r: its position (self counted),
 * or -1. */
static long param_index(const struct py *p, size_t d, size_t r)
{
    long name = linttree_def_name(p->t, d);
    if (name < 0 || !is_op(p, (size_t)name + 1, "(")) return -1;
    size_t e = p->t->stmts[d].end, close = close_of(p, (size_t)name + 1, e);
    long k = 0;
    int at_start = 1;
    for (size_t i = (size_t)name + 2; i < close; i++) {
        if (is_op(p, i, "(") || is_op(p, i, "[") || is_op(p, i, "{")) {
            i = close_of(p, i, close);
            continue;
        }
        if (is_op(p, i, ",")) k++, at_start = 1;
        else if (at_start && is_name(p, i)) {
            if (text_eq(p, i, r)) return k;
            at_start = 0;
        } else if (!is_op(p, i, "*") && !is_op(p, i, "**")) at_start = 0;
    }
    return -1;
}

/* The argument given for parameter k (named pname) of a call whose name is
 * at c: its last name token when it is a name or a dotted chain, else -1.
 * shift 1: a method called as x.f(...) (self is parameter 0). */
static long call_arg(const struct py *p, size_t c, long k, size_t pname, long shift)
{
    size_t close = close_of(p, c + 1, p->lx->ntoks);
    long pos = 0;
    for (size_t a = c + 2; a < close;) {
        size_t e = a;
        while (e < close && !is_op(p, e, ",")) e = is_op(p, e, "(") || is_op(p, e, "[") || is_op(p, e, "{") ? close_of(p, e, close) + 1 : e + 1;
        size_t v = a;
        int keyword = e > a + 2 && is_name(p, a) && is_op(p, a + 1, "=");
        if (keyword) v = a + 2;
        int chain = v < e && is_name(p, v);
        for (size_t j = v + 1; j < e && chain; j += 2) chain = is_op(p, j, ".") && j + 1 < e && is_name(p, j + 1);
        if (keyword ? text_eq(p, a, pname) : pos + shift == k) return chain ? (long)e - 1 : -1;
        if (!keyword) pos++;
        a = e + 1;
    }
    return -1;
}

/* x.train() on a parameter of its function switches back what the callers
 * pass there: train(model, reglog, ...) with reglog.train() inside, called
 * as train(model, linear_classifier, ...) (facebookresearch/swav
 * eval_linear.py). Adds those arguments to trained. */
static void trained_through_param(const struct py *p, size_t r, size_t *trained, size_t *nt)
{
    int32_t d = enclosing_def(p, r);
    long k = chain_start(p, r) == r && d >= 0 ? param_index(p, (size_t)d, r) : -1;
    long name = k >= 0 ? linttree_def_name(p->t, (size_t)d) : -1;
    if (name < 0) return;
    long self = is(p, (size_t)name + 2, "self");
    for (size_t c = 0; c + 1 < p->lx->ntoks && *nt < MAX_RECEIVERS; c++) {
        if ((long)c == name || !is_name(p, c) || !text_eq(p, c, (size_t)name) || !is_op(p, c + 1, "(")) continue;
        if (c > 0 && is(p, c - 1, "def")) continue;
        long arg = call_arg(p, c, k, r, c > 0 && is_op(p, c - 1, ".") && self ? 1 : 0);
        if (arg >= 0) trained[(*nt)++] = (size_t)arg;
    }
}

/* x.eval() in a file that trains, with no x.train() anywhere: reported at
 * the first x.eval(). Receivers compare by their last name (self.model and
 * model are both `model`; x.to(d).train() is x's). Not reported for a model
 * the file does not train (trained_model), once training has finished, for
 * one switched back through a function's parameter (trained_through_param)
 * or set to eval mode for training on purpose (eval_for_training). */
static void rule_eval_never_train(struct py *p)
{
    size_t trained[MAX_RECEIVERS], evaled[MAX_RECEIVERS], nt = 0, ne = 0;
    if (!p->trains) return;
    for (size_t i = 2; i < p->lx->ntoks && nt < MAX_RECEIVERS; i++) {
        long r = is_train_call(p, i) ? receiver_of(p, i) : -1;
        if (r >= 0) trained[nt++] = (size_t)r;
        if (r >= 0) trained_through_param(p, (size_t)r, trained, &nt);
        if (nt < MAX_RECEIVERS && method_at(p, i, "eval") && is_op(p, i + 2, ")") && is_name(p, i - 2) &&
            eval_for_training(p, i))
            trained[nt++] = i - 2;
    }
    for (size_t i = 2; i < p->lx->ntoks && ne < MAX_RECEIVERS; i++) {
        if (!method_at(p, i, "eval") || !is_op(p, i + 2, ")") || !is_name(p, i - 2)) continue;
        size_t recv = i - 2;
        if (is(p, recv, "self") || unit_test(p, enclosing_def(p, i)) || seen_receiver(p, evaled, ne, recv))
            continue;
        evaled[ne++] = recv;
        if (!seen_receiver(p, trained, nt, recv) && trained_model(p, i) && !after_training(p, i))
            report(p, LR_EVAL_NEVER_TRAIN, chain_start(p, recv));
    }
}


static int already_reported(const struct py *p, size_t rule, size_t tok);

/* ---- eval-never-train, second form: evaluation inside the training loop ---- */

/* The def named like the name token at i (a call of f() or self.f()), -1. */
static long def_named(const struct py *p, size_t i)
{
    long m = self_method_def(p, i);
    if (m >= 0) return m;
    for (size_t k = 0; k < p->t->n; k++) {
        if (p->t->stmts[k].kind != LST_DEF) continue;
        long n = linttree_def_name(p->t, k);
        if (n >= 0 && text_eq(p, (size_t)n, i)) return (long)k;
    }
    return -1;
}

/* In tokens [a, e): with want < 0, the receiver of the first x.eval()
 * into *eval_recv; with want a receiver token, whether x.train() is called
 * on a receiver of that name (*trains). */
static void modes_in(const struct py *p, size_t a, size_t e, long *eval_recv, int *trains, long want)
{
    for (size_t i = a; i < e; i++) {
        long r = method_at(p, i, "eval") || method_at(p, i, "train") ? receiver_of(p, i) : -1;
        if (r < 0) continue;
        if (want < 0 && *eval_recv < 0 && method_at(p, i, "eval") && is_op(p, i + 2, ")") &&
            !is(p, (size_t)r, "self"))
            *eval_recv = r;
        if (want >= 0 && is_train_call(p, i) && text_eq(p, (size_t)r, (size_t)want)) *trains = 1;
    }
}

/* A training loop (backward() in it) that switches a model to eval mode --
 * x.eval() in it, or a call of a function of this file that does -- with no
 * x.train() in it or in the functions it calls: every step after the first
 * evaluation trains in eval mode (tk-rusch/coRNN#1, fartashf/vsepp#4).
 * Reported at the call (or the x.eval()) in the loop. */
static void rule_eval_in_train_loop(struct py *p, size_t s)
{
    const struct lint_stmt *L = &p->t->stmts[s];
    if ((L->kind != LST_FOR && L->kind != LST_WHILE) || L->body_end <= s + 1 ||
        !(loop_contents(p, s) & HAS_BACKWARD))
        return;
    size_t a = p->t->stmts[s + 1].first, e = p->t->stmts[L->body_end - 1].end;
    long recv = -1, at = -1;
    for (size_t i = a; i < e && recv < 0; i++) {
        if (i >= 2 && method_at(p, i, "eval") && is_op(p, i + 2, ")") && is_name(p, i - 2) &&
            !is(p, i - 2, "self")) {
            recv = (long)(i - 2), at = (long)chain_start(p, i - 2);
        } else if (is_name(p, i) && is_op(p, i + 1, "(") && !(i > 0 && is_op(p, i - 1, ".") && !is(p, i - 2, "self"))) {
            long d = def_named(p, i);
            if (d < 0 || (size_t)d == s || (d <= (long)s && p->t->stmts[d].body_end > s)) continue;
            size_t da = p->t->stmts[d].end, de = p->t->stmts[p->t->stmts[d].body_end - 1].end;
            modes_in(p, da, de, &recv, NULL, -1);
            if (recv >= 0) at = (long)chain_start(p, i);
        }
    }
    if (recv < 0 || unit_test(p, L->func)) return;
    int anywhere = 0; /* no x.train() in the file at all: the first form reports it */
    modes_in(p, 2, p->lx->ntoks, &recv, &anywhere, recv);
    if (!anywhere) return;
    int trains = 0;
    modes_in(p, a, e, &recv, &trains, recv);
    for (size_t i = a; i < e && !trains; i++) {
        if (!is_name(p, i) || !is_op(p, i + 1, "(")) continue;
        long d = def_named(p, i);
        if (d < 0 || (d <= (long)s && p->t->stmts[d].body_end > s)) continue;
        modes_in(p, p->t->stmts[d].end, p->t->stmts[p->t->stmts[d].body_end - 1].end, &recv, &trains, recv);
    }
    if (!trains && !already_reported(p, LR_EVAL_NEVER_TRAIN, (size_t)at)) report(p, LR_EVAL_NEVER_TRAIN, (size_t)at);
}

/* ---- train-tensors-in-eval: a training step's tensors alive while evaluation runs ---- */

#define MAX_STEP_NAMES 32

/* Does the value [a, e) hold a GPU tensor of the step: a model call or a
 * move to a device (.to(...), .cuda()), not taken back off it? */
static int step_tensor_value(const struct py *p, size_t a, size_t e)
{
    if (find_model_call(p, a, e) < 0 && find_method(p, a, e, "to") < 0 && find_method(p, a, e, "cuda") < 0)
        return 0;
    for (size_t i = a; i < e; i++) {
        if (i > a && is_op(p, i - 1, ".") && in_list(p, i, off_gpu_methods, N_OF(off_gpu_methods))) return 0;
        if (tk(p, i)->kind == PYT_STRING && memmem(p->lx->src + tk(p, i)->off, tk(p, i)->len, "cpu", 3))
            return 0;
    }
    return 1;
}

/* A call at i that runs evaluation: valid(model, loader), self.evaluate(),
 * run_validation(...): its name has an evaluation word, it is not a
 * question (is_valid), and it is given a model or a loader or called on
 * self or a trainer. Not x.eval() and not the builtin eval(). */
static int function_trains(const struct py *p, int32_t func);

/* A call of a function of this file (f() or self.f()) that switches a model
 * to eval mode and does not train: evaluation, whatever its name and
 * arguments (nanoGPT's estimate_loss(): model.eval(), the val batches,
 * model.train()). */
static int evaluates_through_helper(const struct py *p, size_t i)
{
    if (i > 0 && is_op(p, i - 1, ".") && !(i > 1 && is(p, i - 2, "self"))) return 0;
    long d = def_named(p, i);
    if (d < 0 || function_trains(p, (int32_t)d)) return 0;
    for (size_t k = (size_t)d + 1; k < p->t->stmts[d].body_end; k++)
        for (size_t j = p->t->stmts[k].first; j < p->t->stmts[k].end; j++)
            if (is_eval_call(p, j)) return 1;
    return 0;
}

static int eval_call_at(const struct py *p, size_t i, size_t e)
{
    if (!is_name(p, i) || !is_op(p, i + 1, "(") || is(p, i, "eval")) return 0;
    if (i > 0 && (is(p, i - 1, "def") || is(p, i - 1, "class"))) return 0;
    char buf[128], first[128];
    lower_name(p, i, buf, sizeof buf);
    memcpy(first, buf, sizeof first);
    first[strcspn(first, "_")] = '\0';
    for (size_t k = 0; k < N_OF(not_eval_verbs); k++)
        if (!strcmp(first, not_eval_verbs[k])) return 0;
    if (!has_eval_word(buf)) return evaluates_through_helper(p, i);
    size_t s = chain_start(p, i), close = close_of(p, i + 1, e);
    if (s < i && (is(p, s, "self") || is(p, s, "trainer"))) return 1;
    for (size_t k = i + 2; k < close; k++) {
        if (!is_name(p, k) || is_op(p, k - 1, ".")) continue;
        char arg[128];
        size_t n = lower_name(p, k, arg, sizeof arg);
        if (in_list(p, k, model_names, N_OF(model_names)) || (n > 5 && name_ends(p, k, "model")) ||
            strstr(arg, "loader"))
            return 1;
    }
    return 0;
}

/* Is the name at token name deleted (`del name`, `name = None`) by a
 * statement of the same function in (from, to)? */
static int freed_between(const struct py *p, size_t name, size_t from, size_t to)
{
    int32_t func = p->t->stmts[from].func;
    for (size_t k = from + 1; k < to; k++) {
        const struct lint_stmt *st = &p->t->stmts[k];
        if (st->func != func || st->kind != LST_SIMPLE) continue;
        if (is(p, st->first, "del")) {
            for (size_t i = st->first + 1; i < st->end; i++)
                if (is_name(p, i) && text_eq(p, i, name) && !is_op(p, i - 1, ".")) return 1;
        } else if (st->end >= st->first + 3 && text_eq(p, st->first, name) && is_op(p, st->first + 1, "=") &&
                   is(p, st->first + 2, "None")) {
            return 1;
        }
    }
    return 0;
}

static int already_reported(const struct py *p, size_t rule, size_t tok)
{
    for (size_t i = 0; i < p->r->n; i++)
        if (p->r->v[i].rule == rule && p->r->v[i].line == tk(p, tok)->line && p->r->v[i].col == tk(p, tok)->col)
            return 1;
    return 0;
}

/* A loop that trains (calls backward()) binds names to the step's GPU
 * tensors (plain-name targets of an assignment directly in it whose value
 * runs the model or moves something to a device; losses, a scalar, are
 * left out). Reported at the first evaluation call later in the same
 * function -- in the loop (validation every N steps) or after it (the last
 * step's tensors) -- while one of them has not been deleted. */
static void rule_train_tensors(struct py *p, size_t s)
{
    const struct lint_stmt *L = &p->t->stmts[s];
    if ((L->kind != LST_FOR && L->kind != LST_WHILE) || !(loop_contents(p, s) & HAS_BACKWARD)) return;
    size_t names[MAX_STEP_NAMES], at[MAX_STEP_NAMES], n = 0;
    for (size_t k = s + 1; k < L->body_end && n < MAX_STEP_NAMES; k++) {
        const struct lint_stmt *st = &p->t->stmts[k];
        if (st->loop != (int32_t)s || st->kind != LST_SIMPLE) continue;
        size_t eq = assign_op(p, st->first, st->end);
        if (eq == st->end || eq == st->first || !step_tensor_value(p, eq + 1, last_code(p, eq + 1, st->end)))
            continue;
        for (size_t m = st->first; m < eq && n < MAX_STEP_NAMES; m++) {
            if (!is_name(p, m) || is(p, m, "self") || is_loss_name(p, m)) continue;
            if ((m > st->first && is_op(p, m - 1, ".")) || is_op(p, m + 1, ".") || is_op(p, m + 1, "[") ||
                is_op(p, m + 1, "("))
                continue;
            if (!seen_receiver(p, names, n, m)) names[n] = m, at[n++] = k;
        }
    }
    if (n == 0) return;
    /* an enclosing loop runs its statements before this one again, while
     * the last step's names are still bound (nanoGPT: estimate_loss() at the
     * top of the while loop, the forward in its micro-step loop) */
    for (int32_t o = L->loop; o >= 0; o = p->t->stmts[o].loop) {
        const struct lint_stmt *O = &p->t->stmts[o];
        for (size_t m = (size_t)o + 1; m < s; m++) {
            const struct lint_stmt *st = &p->t->stmts[m];
            long call = -1;
            if (st->func != L->func || st->kind == LST_DEF || st->kind == LST_CLASS) continue;
            for (size_t i = st->first; i < st->end && call < 0; i++)
                if (eval_call_at(p, i, st->end)) call = (long)i;
            if (call < 0) continue;
            for (size_t c = 0; c < n; c++) {
                if (freed_between(p, names[c], at[c], O->body_end) || freed_between(p, names[c], (size_t)o, m))
                    continue;
                if (!already_reported(p, LR_TRAIN_TENSORS_IN_EVAL, (size_t)call))
                    report(p, LR_TRAIN_TENSORS_IN_EVAL, (size_t)call);
                return;
            }
        }
    }
    int32_t func = L->func;
    size_t to = func < 0 ? p->t->n : p->t->stmts[func].body_end;
    for (size_t m = at[0] + 1; m < to; m++) {
        const struct lint_stmt *st = &p->t->stmts[m];
        long call = -1;
        if (st->func != func || st->kind == LST_DEF || st->kind == LST_CLASS) continue;
        for (size_t i = st->first; i < st->end && call < 0; i++)
            if (eval_call_at(p, i, st->end)) call = (long)i;
        if (call < 0) continue;
        for (size_t c = 0; c < n; c++) {
            if (at[c] >= m || freed_between(p, names[c], at[c], m)) continue;
            if (!already_reported(p, LR_TRAIN_TENSORS_IN_EVAL, (size_t)call))
                report(p, LR_TRAIN_TENSORS_IN_EVAL, (size_t)call);
            return;
        }
    }
}

/* ---- the table ---- */

static void (*const stmt_checks[])(struct py *, size_t) = {
    rule_loss_accumulated, rule_outputs_on_gpu, rule_retain_graph, rule_zero_grad,
    rule_missing_zero_grad, rule_save_gpu, rule_load_map_location, rule_empty_cache,
    rule_alloc_conf, rule_no_grad_statement, rule_train_tensors, rule_eval_in_train_loop,
};

/* backward() as torch spells it: on a tensor with no argument or keywords
 * only (loss.backward(), .backward(retain_graph=True)), Lightning's
 * manual_backward, or a wrapper handed the loss (accelerator, fabric,
 * DeepSpeed's engine). A numpy network's nn.backward(X, Y) is none of them. */
static int torch_backward(const struct py *p, size_t i)
{
    static const char *const wrappers[] = {"accelerator", "fabric", "engine"};
    if (!is_backward_call(p, i)) return 0;
    if (is(p, i, "manual_backward")) return 1;
    if (is_op(p, i + 2, ")") || (is_name(p, i + 2) && is_op(p, i + 3, "="))) return 1;
    long r = receiver_of(p, i);
    char buf[64];
    if (r < 0) return 0;
    lower_name(p, (size_t)r, buf, sizeof buf);
    for (size_t k = 0; k < N_OF(wrappers); k++)
        if (strstr(buf, wrappers[k])) return 1;
    return 0;
}

static void file_facts(struct py *p)
{
    for (size_t i = 0; i < p->lx->ntoks; i++) {
        const struct pytok *t = tk(p, i);
        if (t->kind == PYT_NAME && (is(p, i, "cuda") || is(p, i, "device"))) p->gpu = 1;
        if (t->kind == PYT_NAME && (is(p, i, "torch") || is(p, i, "cuda") || is(p, i, "device") ||
                                    is(p, i, "backward") || is(p, i, "no_grad")))
            p->torchy = 1;
        if (t->kind == PYT_STRING && memmem(p->lx->src + t->off, t->len, "cuda", 4)) p->gpu = 1;
        if (t->kind == PYT_NAME && (is(p, i, "pytest") || is(p, i, "unittest"))) p->pytest = 1;
        if (is_backward_call(p, i)) p->trains = 1;
        if (is(p, i, "torch") || torch_backward(p, i)) p->torch_loss = 1;
        long r = method_at(p, i, "parameters") ? receiver_of(p, i) : -1;
        if (r >= 0 && !is(p, (size_t)r, "self") && p->nparams < N_OF(p->params)) p->params[p->nparams++] = (size_t)r;
    }
}

int lintpy_check(const char *src, size_t len, const struct lint_opts *o, struct lint_report *r,
                 struct oomlab_err *err)
{
    struct pylex lx;
    struct lint_tree t;
    if (pylex_run(&lx, src, len, err) < 0) return -1;
    if (linttree_build(&t, &lx, err) < 0) {
        pylex_release(&lx);
        return -1;
    }
    struct py p = {.lx = &lx, .t = &t, .o = o, .r = r, .loop_memo = malloc(t.n + 1)};
    if (!p.loop_memo) p.failed = 1;
    else memset(p.loop_memo, -1, t.n + 1);
    file_facts(&p);
    for (size_t s = 0; s < t.n && !p.failed; s++) {
        for (size_t k = 0; k < N_OF(stmt_checks); k++) stmt_checks[k](&p, s);
        if (t.stmts[s].kind == LST_DEF) rule_eval_region(&p, (int32_t)s);
    }
    if (!p.failed) rule_eval_region(&p, -1);
    if (!p.failed) rule_eval_never_train(&p);
    free(p.loop_memo);
    linttree_release(&t);
    pylex_release(&lx);
    if (p.failed) return oomlab_err_set(err, "out of memory");
    return 0;
}
