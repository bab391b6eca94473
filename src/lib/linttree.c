/* linttree: tokens -> statements. Logical lines come from pylex's NEWLINE,
 * blocks from INDENT/DEDENT, so the pass is one loop with a block stack
 * (bounded by pylex's indentation cap), then one forward pass that derives
 * each statement's context from its parent's. */
#include "lib/linttree.h"

#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"

#define BLOCK_STACK (PYLEX_MAX_INDENT + 2)

static const struct {
    const char *word;
    enum lint_stmt_kind kind;
} compound_words[] = {
    {"def", LST_DEF},     {"class", LST_CLASS},   {"for", LST_FOR},       {"while", LST_WHILE},
    {"with", LST_WITH},   {"if", LST_IF},         {"elif", LST_ELIF},     {"else", LST_ELSE},
    {"try", LST_TRY},     {"except", LST_EXCEPT}, {"finally", LST_FINALLY}, {"match", LST_MATCH},
    {"case", LST_CASE},
};

struct builder {
    struct lint_tree *t;
    const struct pylex *lx;
    struct oomlab_err *err;
};

static int add_stmt(struct builder *b, enum lint_stmt_kind kind, size_t first, size_t end,
                    int32_t parent)
{
    struct lint_tree *t = b->t;
    if (t->n == t->cap) {
        struct lint_stmt *s = strbuf_grow(t->stmts, &t->cap, t->n + 1, sizeof *s, SIZE_MAX);
        if (!s) return oomlab_err_set(b->err, "out of memory");
        t->stmts = s;
    }
    t->stmts[t->n] = (struct lint_stmt){.first = (uint32_t)first,
                                        .end = (uint32_t)end,
                                        .body_end = (uint32_t)(t->n + 1),
                                        .parent = parent,
                                        .kind = (uint8_t)kind};
    return (int)(t->n++ & 0x7fffffff);
}

static int depth_step(const struct pylex *lx, size_t i)
{
    if (lx->toks[i].kind != PYT_OP || lx->toks[i].len != 1) return 0;
    char c = lx->src[lx->toks[i].off];
    return (c == '(' || c == '[' || c == '{') ? 1 : (c == ')' || c == ']' || c == '}') ? -1 : 0;
}

/* First token index in [a, e) of op at bracket depth 0, or e. */
static size_t find_top(const struct pylex *lx, size_t a, size_t e, const char *op)
{
    long depth = 0;
    for (size_t i = a; i < e; i++) {
        if (depth == 0 && lx->toks[i].kind == PYT_OP && pylex_is(lx, i, op)) return i;
        depth += depth_step(lx, i);
        if (depth < 0) depth = 0;
    }
    return e;
}

static int only_comments(const struct pylex *lx, size_t a, size_t e)
{
    for (size_t i = a; i < e; i++)
        if (lx->toks[i].kind != PYT_COMMENT) return 0;
    return 1;
}

static int add_simple(struct builder *b, size_t a, size_t e, int32_t parent)
{
    while (a < e) {
        size_t semi = find_top(b->lx, a, e, ";");
        if (!only_comments(b->lx, a, semi) && add_stmt(b, LST_SIMPLE, a, semi, parent) < 0)
            return -1;
        a = semi + 1;
    }
    return 0;
}

static int compound_kind(const struct pylex *lx, size_t i, size_t e)
{
    if (lx->toks[i].kind != PYT_NAME) return -1;
    if (pylex_is(lx, i, "async") && i + 1 < e) i++;
    for (size_t k = 0; k < sizeof compound_words / sizeof compound_words[0]; k++) {
        if (!pylex_is(lx, i, compound_words[k].word)) continue;
        enum lint_stmt_kind kind = compound_words[k].kind;
        if ((kind == LST_MATCH || kind == LST_CASE) && i + 1 < e &&
            lx->toks[i + 1].kind == PYT_OP &&
            (pylex_is(lx, i + 1, "=") || pylex_is(lx, i + 1, ".") ||
             pylex_is(lx, i + 1, ":") || pylex_is(lx, i + 1, ",") ||
             pylex_is(lx, i + 1, ")") || lx->src[lx->toks[i + 1].off + lx->toks[i + 1].len - 1] == '='))
            return -1;
        return (int)kind;
    }
    return -1;
}

/* One logical line [i, e). Returns the header that waits for an indented
 * block, -1 if none, -2 on error. */
static int parse_line(struct builder *b, size_t i, size_t e, int32_t parent)
{
    const struct pylex *lx = b->lx;
    if (pylex_is(lx, i, "@") && lx->toks[i].kind == PYT_OP)
        return add_stmt(b, LST_DECORATOR, i, e, parent) < 0 ? -2 : -1;
    int kind = compound_kind(lx, i, e);
    size_t colon = kind >= 0 ? find_top(lx, i, e, ":") : e;
    if (kind < 0 || colon == e) return add_simple(b, i, e, parent) < 0 ? -2 : -1;
    int h = add_stmt(b, (enum lint_stmt_kind)kind, i, colon, parent);
    if (h < 0) return -2;
    if (only_comments(lx, colon + 1, e)) return h;
    if (add_simple(b, colon + 1, e, h) < 0) return -2;
    b->t->stmts[h].body_end = (uint32_t)b->t->n;
    return -1;
}

static int32_t current_parent(const int32_t *stack, size_t sp)
{
    while (sp > 0)
        if (stack[--sp] >= 0) return stack[sp];
    return -1;
}

static int build_blocks(struct builder *b)
{
    const struct pylex *lx = b->lx;
    int32_t stack[BLOCK_STACK];
    size_t sp = 0, overflow = 0;
    int pending = -1;
    for (size_t i = 0; i < lx->ntoks && lx->toks[i].kind != PYT_END;) {
        enum pytok_kind k = lx->toks[i].kind;
        if (k == PYT_COMMENT || k == PYT_NEWLINE) {
            i++;
        } else if (k == PYT_INDENT) {
            if (sp < BLOCK_STACK) stack[sp++] = pending;
            else overflow++;
            pending = -1;
            i++;
        } else if (k == PYT_DEDENT) {
            if (overflow) overflow--;
            else if (sp > 0 && stack[--sp] >= 0) b->t->stmts[stack[sp]].body_end = (uint32_t)b->t->n;
            pending = -1;
            i++;
        } else {
            size_t e = i;
            while (e < lx->ntoks && lx->toks[e].kind != PYT_NEWLINE && lx->toks[e].kind != PYT_END)
                e++;
            pending = parse_line(b, i, e, current_parent(stack, sp));
            if (pending == -2) return -1;
            i = e;
        }
    }
    while (sp > 0)
        if (stack[--sp] >= 0) b->t->stmts[stack[sp]].body_end = (uint32_t)b->t->n;
    return 0;
}

static int range_has_op(const struct pylex *lx, size_t a, size_t e, const char *op)
{
    for (size_t i = a; i < e; i++)
        if (lx->toks[i].kind == PYT_OP && pylex_is(lx, i, op)) return 1;
    return 0;
}

static int range_has_name(const struct pylex *lx, size_t a, size_t e, const char *name)
{
    for (size_t i = a; i < e; i++)
        if (lx->toks[i].kind == PYT_NAME && pylex_is(lx, i, name)) return 1;
    return 0;
}

/* `set_grad_enabled(False)` (want 0) / `(True)` (want 1) in [a, e). */
static int has_set_grad(const struct pylex *lx, size_t a, size_t e, const char *value)
{
    for (size_t i = a; i + 2 < e; i++)
        if (pylex_is(lx, i, "set_grad_enabled") && pylex_is(lx, i + 1, "(") &&
            pylex_is(lx, i + 2, value))
            return 1;
    return 0;
}

/* Names that turn gradients off, exactly or as the end of a project's own
 * wrapper after '_' (smart_inference_mode, maybe_no_grad). */
static const char *const grad_off_names[] = {"no_grad", "inference_mode"};

static int grad_off_name(const struct pylex *lx, size_t i)
{
    const struct pytok *t = &lx->toks[i];
    if (t->kind != PYT_NAME) return 0;
    for (size_t k = 0; k < sizeof grad_off_names / sizeof grad_off_names[0]; k++) {
        size_t n = strlen(grad_off_names[k]);
        if (t->len < n) continue;
        const char *end = lx->src + t->off + t->len - n;
        if ((t->len == n || (t->len > n && end[-1] == '_')) && !memcmp(end, grad_off_names[k], n))
            return 1;
    }
    return 0;
}

static int grad_off_in(const struct pylex *lx, size_t a, size_t e)
{
    for (size_t i = a; i < e; i++)
        if (grad_off_name(lx, i)) return 1;
    return has_set_grad(lx, a, e, "False");
}

static int decorated_no_grad(const struct lint_tree *t, size_t def)
{
    for (size_t j = def; j-- > 0;) {
        const struct lint_stmt *d = &t->stmts[j];
        if (d->kind != LST_DECORATOR || d->parent != t->stmts[def].parent) return 0;
        if (grad_off_in(t->lx, d->first, d->end)) return 1;
    }
    return 0;
}

static void annotate(struct lint_tree *t)
{
    const struct pylex *lx = t->lx;
    for (size_t s = 0; s < t->n; s++) {
        struct lint_stmt *st = &t->stmts[s];
        st->func = st->loop = -1;
        if (st->parent < 0) continue;
        const struct lint_stmt *p = &t->stmts[st->parent];
        if (p->kind == LST_DEF) {
            st->func = st->parent;
            st->no_grad = (uint8_t)decorated_no_grad(t, (size_t)st->parent);
            continue;
        }
        st->func = p->func;
        if (p->kind == LST_CLASS) continue;
        st->loop = (p->kind == LST_FOR || p->kind == LST_WHILE) ? st->parent : p->loop;
        st->no_grad = p->no_grad;
        if (p->kind == LST_WITH && grad_off_in(lx, p->first, p->end)) st->no_grad = 1;
        if (p->kind == LST_WITH && (range_has_name(lx, p->first, p->end, "enable_grad") ||
                                    has_set_grad(lx, p->first, p->end, "True")))
            st->no_grad = 0;
        st->in_except = p->in_except || p->kind == LST_EXCEPT;
        st->periodic = p->periodic || ((p->kind == LST_IF || p->kind == LST_ELIF) &&
                                       range_has_op(lx, p->first, p->end, "%"));
    }
}

int linttree_build(struct lint_tree *t, const struct pylex *lx, struct oomlab_err *err)
{
    *t = (struct lint_tree){.lx = lx};
    struct builder b = {.t = t, .lx = lx, .err = err};
    if (build_blocks(&b) < 0) {
        linttree_release(t);
        return -1;
    }
    annotate(t);
    return 0;
}

void linttree_release(struct lint_tree *t)
{
    free(t->stmts);
    t->stmts = NULL;
    t->n = t->cap = 0;
}

long linttree_def_name(const struct lint_tree *t, size_t stmt)
{
    const struct lint_stmt *s = &t->stmts[stmt];
    size_t i = s->first;
    if (s->kind != LST_DEF && s->kind != LST_CLASS) return -1;
    if (pylex_is(t->lx, i, "async")) i++;
    i++;
    return i < s->end && t->lx->toks[i].kind == PYT_NAME ? (long)i : -1;
}
