/* pylex: a Python tokenizer after CPython's tokenize: names, numbers,
 * strings of every kind (prefixes r/b/u/f/t in any legal mix, triple quotes,
 * f-strings with nested replacement fields and nested strings, PEP 701),
 * operators, comments, NEWLINE/INDENT/DEDENT with implicit joining inside
 * brackets and backslash continuations. It never fails on bad Python: what
 * it cannot read becomes a PYT_ERROR token and lexing goes on. Hard caps
 * (tokens, indentation depth) end it with an error instead. The token array
 * is malloc'd and freed by the caller with pylex_release. */
#ifndef OOMLAB_PYLEX_H
#define OOMLAB_PYLEX_H

#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"

enum pytok_kind {
    PYT_NAME,
    PYT_NUMBER,
    PYT_STRING,  /* the whole literal, prefix and quotes included */
    PYT_OP,
    PYT_NEWLINE, /* end of a logical line */
    PYT_INDENT,
    PYT_DEDENT,
    PYT_COMMENT, /* '#' to end of line; kept for suppression comments */
    PYT_ERROR,   /* a byte that starts no token, or an unterminated string */
    PYT_END,
};

struct pytok {
    uint32_t off, len;  /* bytes of the source */
    uint32_t line, col; /* 1-based; col counts bytes */
    uint8_t kind;       /* enum pytok_kind */
};

#define PYLEX_MAX_TOKENS (4u << 20) /* 4 Mi tokens: 80 MiB of array at most */
#define PYLEX_MAX_INDENT 100        /* CPython's own limit */
#define PYLEX_MAX_BYTES ((size_t)64 << 20)

struct pylex {
    const char *src;
    size_t len;
    struct pytok *toks;
    size_t ntoks, cap;
    size_t errors; /* PYT_ERROR tokens seen */
};

/* Tokenise src[0..len). 0 on success (possibly with PYT_ERROR tokens); -1
 * with "LINE:COL: why" in err when a hard cap is hit or memory runs out. The
 * array always ends with PYT_END when 0 is returned. */
int pylex_run(struct pylex *lx, const char *src, size_t len, struct oomlab_err *err);
void pylex_release(struct pylex *lx);

/* Token text equals the NUL-terminated s. Inline so that strlen of a
 * literal folds away: the rules call this on every token. */
static inline int pylex_is(const struct pylex *lx, size_t i, const char *s)
{
    const struct pytok *t = &lx->toks[i];
    if (t->len == 0 || lx->src[t->off] != s[0]) return 0; /* most calls end here */
    size_t n = __builtin_strlen(s);
    return t->len == n && !__builtin_memcmp(lx->src + t->off, s, n);
}

#endif
