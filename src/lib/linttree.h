/* linttree: the structure of a tokenised Python file, as the lint rules
 * need it: a flat array of statements in source order (simple statements
 * split at ';', compound headers up to their ':', decorators), each with
 * its parent block, its subtree's extent, the function and innermost loop it
 * runs in, and whether gradients are off there (inside `with torch.no_grad()`
 * or inference_mode, or a def decorated so). Tolerates bad Python: unknown
 * shapes become simple statements. The caller frees it with
 * linttree_release; it points into the pylex it was built from. */
#ifndef OOMLAB_LINTTREE_H
#define OOMLAB_LINTTREE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"
#include "lib/pylex.h"

enum lint_stmt_kind {
    LST_SIMPLE,
    LST_DECORATOR,
    LST_DEF,
    LST_CLASS,
    LST_FOR,
    LST_WHILE,
    LST_WITH,
    LST_IF,
    LST_ELIF,
    LST_ELSE,
    LST_TRY,
    LST_EXCEPT,
    LST_FINALLY,
    LST_MATCH,
    LST_CASE,
};

struct lint_stmt {
    uint32_t first, end; /* tokens [first, end): a simple statement, or a header
                            from its keyword up to (not including) the ':' */
    uint32_t body_end;   /* index of the first statement after this one's body */
    int32_t parent;      /* enclosing compound statement, -1 at module level */
    int32_t func;        /* enclosing def, -1 at module level */
    int32_t loop;        /* innermost for/while around it in the same def, -1 */
    uint8_t kind;        /* enum lint_stmt_kind */
    uint8_t no_grad;     /* gradients are off where it runs */
    uint8_t in_except;   /* inside an except handler (same def) */
    uint8_t periodic;    /* under an `if` whose test uses % (every N steps) */
};

struct lint_tree {
    const struct pylex *lx;
    struct lint_stmt *stmts;
    size_t n, cap;
};

/* 0, or -1 with err when memory runs out. */
int linttree_build(struct lint_tree *t, const struct pylex *lx, struct oomlab_err *err);
void linttree_release(struct lint_tree *t);

/* The name of a def or class statement (token index), or -1. */
long linttree_def_name(const struct lint_tree *t, size_t stmt);

#endif
