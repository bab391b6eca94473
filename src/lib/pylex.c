/* pylex: Python source -> tokens. One pass over the bytes; strings are
 * scanned recursively only for f-string replacement fields (bounded depth),
 * everything else is a loop. Error recovery follows CPython's tokenize
 * module: an unterminated string becomes an error token, the rest goes on. */
#include "lib/pylex.h"

#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"

#define FSTRING_MAX_NEST 32

struct lexer {
    struct pylex *lx;
    const char *src;
    size_t len, pos, line_start;
    uint32_t line;
    long paren;
    int indents[PYLEX_MAX_INDENT + 1];
    int nindent;
    int line_has_tokens, at_bol, failed;
    struct oomlab_err *err;
};

static int push(struct lexer *L, enum pytok_kind kind, size_t start, size_t end, uint32_t line,
                size_t line_start)
{
    struct pylex *lx = L->lx;
    if (lx->ntoks == lx->cap) {
        if (lx->cap >= PYLEX_MAX_TOKENS) {
            L->failed = 1;
            return oomlab_err_set(L->err, "%u:1: more than %u tokens; file not linted", L->line,
                                  PYLEX_MAX_TOKENS);
        }
        struct pytok *t =
            strbuf_grow(lx->toks, &lx->cap, lx->ntoks + 1, sizeof *t, PYLEX_MAX_TOKENS);
        if (!t) {
            L->failed = 1;
            return oomlab_err_set(L->err, "out of memory");
        }
        lx->toks = t;
    }
    lx->toks[lx->ntoks++] = (struct pytok){.off = (uint32_t)start,
                                           .len = (uint32_t)(end - start),
                                           .line = line,
                                           .col = (uint32_t)(start - line_start + 1),
                                           .kind = (uint8_t)kind};
    if (kind == PYT_ERROR) lx->errors++;
    if (kind != PYT_COMMENT && kind != PYT_NEWLINE && kind != PYT_INDENT && kind != PYT_DEDENT)
        L->line_has_tokens = 1;
    return 0;
}

static int is_newline(char c)
{
    return c == '\n' || c == '\r';
}

static void advance_newline(struct lexer *L)
{
    if (L->src[L->pos] == '\r' && L->pos + 1 < L->len && L->src[L->pos + 1] == '\n') L->pos++;
    L->pos++;
    L->line++;
    L->line_start = L->pos;
}

static int name_start(unsigned char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

static int name_char(unsigned char c)
{
    return name_start(c) || (c >= '0' && c <= '9');
}

static char peek(const struct lexer *L, size_t ahead)
{
    return L->pos + ahead < L->len ? L->src[L->pos + ahead] : '\0';
}

/* Flags of a string prefix: 1 raw, 2 formatted (f or t); -1 not a prefix. */
static int string_prefix(const char *s, size_t n)
{
    int raw = 0, fmt = 0, bytes = 0, u = 0;
    if (n > 2) return -1;
    for (size_t i = 0; i < n; i++) {
        switch (s[i] | 0x20) {
        case 'r': raw++; break;
        case 'f':
        case 't': fmt++; break;
        case 'b': bytes++; break;
        case 'u': u++; break;
        default: return -1;
        }
    }
    if (raw > 1 || fmt > 1 || bytes > 1 || (fmt && bytes) || (u && n > 1)) return -1;
    return raw | (fmt << 1);
}

static int scan_string(struct lexer *L, int flags, int nest);

/* A replacement field of an f-string, after its '{': an expression (nested
 * strings, brackets), an optional !conversion and :format spec (which may
 * hold nested fields). Returns 0 after the closing '}', -1 if unterminated. */
static int scan_field(struct lexer *L, char quote, int triple, int nest)
{
    long depth = 0;
    int spec = 0;
    if (nest > FSTRING_MAX_NEST) return -1;
    while (L->pos < L->len) {
        unsigned char c = (unsigned char)L->src[L->pos];
        if (is_newline((char)c)) {
            if (!triple && spec) return -1;
            advance_newline(L);
        } else if (spec) {
            if (c == '{') {
                L->pos++;
                if (scan_field(L, quote, triple, nest + 1) < 0) return -1;
            } else if (c == '}') {
                L->pos++;
                return 0;
            } else if (c == (unsigned char)quote) {
                return -1;
            } else {
                L->pos++;
            }
        } else if (c == '\'' || c == '"') {
            if (scan_string(L, 0, nest + 1) < 0) return -1;
        } else if (name_start(c)) {
            size_t s = L->pos;
            while (L->pos < L->len && name_char((unsigned char)L->src[L->pos])) L->pos++;
            int fl = string_prefix(L->src + s, L->pos - s);
            if (fl >= 0 && (peek(L, 0) == '\'' || peek(L, 0) == '"') &&
                scan_string(L, fl, nest + 1) < 0)
                return -1;
        } else if (c == '(' || c == '[' || c == '{') {
            depth++;
            L->pos++;
        } else if (c == ')' || c == ']' || c == '}') {
            L->pos++;
            if (c == '}' && depth == 0) return 0;
            if (depth > 0) depth--;
        } else if (depth == 0 && c == ':') {
            spec = 1;
            L->pos++;
        } else if (c == '\\') {
            L->pos += L->pos + 1 < L->len ? 2 : 1;
        } else {
            L->pos++;
        }
    }
    return -1;
}

/* At an opening quote; flags from string_prefix. Advances past the closing
 * quote and returns 0, or returns -1 unterminated (a one-line string stops
 * at its line's end, a triple-quoted one at the end of input). */
static int scan_string(struct lexer *L, int flags, int nest)
{
    char q = L->src[L->pos];
    int triple = peek(L, 1) == q && peek(L, 2) == q;
    int raw = flags & 1, fmt = flags & 2;
    if (nest > FSTRING_MAX_NEST) return -1;
    L->pos += triple ? 3 : 1;
    while (L->pos < L->len) {
        char c = L->src[L->pos];
        if (c == '\\') {
            char n = peek(L, 1);
            L->pos++;
            if (n == q || n == '\\') {
                L->pos++;
            } else if (is_newline(n)) {
                advance_newline(L);
            } else if (!raw && fmt && n == 'N' && peek(L, 1) == '{') {
                while (L->pos < L->len && L->src[L->pos] != '}' && !is_newline(L->src[L->pos]))
                    L->pos++;
            }
        } else if (c == q) {
            if (!triple) {
                L->pos++;
                return 0;
            }
            if (peek(L, 1) == q && peek(L, 2) == q) {
                L->pos += 3;
                return 0;
            }
            L->pos++;
        } else if (is_newline(c)) {
            if (!triple) return -1;
            advance_newline(L);
        } else if (fmt && c == '{') {
            if (peek(L, 1) == '{') {
                L->pos += 2;
            } else {
                L->pos++;
                if (scan_field(L, q, triple, nest) < 0) return -1;
            }
        } else {
            L->pos++;
        }
    }
    return -1;
}

static int lex_string(struct lexer *L, size_t start, int flags)
{
    uint32_t line = L->line;
    size_t ls = L->line_start;
    int rc = scan_string(L, flags, 0);
    if (rc < 0 && L->pos == start) L->pos++; /* never stall */
    return push(L, rc < 0 ? PYT_ERROR : PYT_STRING, start, L->pos, line, ls);
}

static int lex_number(struct lexer *L)
{
    size_t start = L->pos;
    int hex = L->src[L->pos] == '0' && (peek(L, 1) | 0x20) == 'x';
    while (L->pos < L->len) {
        unsigned char c = (unsigned char)L->src[L->pos];
        if (!(name_char(c) || c == '.') || c >= 0x80) break;
        L->pos++;
        if (!hex && (c | 0x20) == 'e' && (peek(L, 0) == '+' || peek(L, 0) == '-')) L->pos++;
    }
    return push(L, PYT_NUMBER, start, L->pos, L->line, L->line_start);
}

/* Longest first, so "**=" wins over "**" and "*". */
static const struct {
    char text[4];
    uint8_t len;
} operators[] = {
    {"**=", 3}, {"//=", 3}, {">>=", 3}, {"<<=", 3}, {"...", 3}, {"!=", 2}, {"**", 2}, {"//", 2},
    {"==", 2},  {"<=", 2},  {">=", 2},  {"<<", 2},  {">>", 2},  {"+=", 2}, {"-=", 2}, {"*=", 2},
    {"/=", 2},  {"%=", 2},  {"&=", 2},  {"|=", 2},  {"^=", 2},  {"@=", 2}, {"->", 2}, {":=", 2},
};

static size_t operator_len(const struct lexer *L)
{
    const char *p = L->src + L->pos;
    size_t left = L->len - L->pos;
    for (size_t i = 0; i < sizeof operators / sizeof operators[0]; i++)
        if (operators[i].text[0] == p[0] && operators[i].len <= left &&
            !memcmp(p, operators[i].text, operators[i].len))
            return operators[i].len;
    return strchr("()[]{}:,;.+-*/%&|^~<>=@!", p[0]) && p[0] ? 1 : 0;
}

static int lex_operator(struct lexer *L)
{
    size_t start = L->pos, n = operator_len(L);
    if (n == 0) {
        L->pos++;
        return push(L, PYT_ERROR, start, L->pos, L->line, L->line_start);
    }
    char c = L->src[start];
    if (n == 1 && (c == '(' || c == '[' || c == '{')) L->paren++;
    if (n == 1 && (c == ')' || c == ']' || c == '}') && L->paren > 0) L->paren--;
    L->pos += n;
    return push(L, PYT_OP, start, L->pos, L->line, L->line_start);
}

static int lex_word(struct lexer *L)
{
    size_t start = L->pos;
    while (L->pos < L->len && name_char((unsigned char)L->src[L->pos])) L->pos++;
    int flags = string_prefix(L->src + start, L->pos - start);
    if (flags >= 0 && (peek(L, 0) == '\'' || peek(L, 0) == '"')) {
        size_t name_end = L->pos;
        L->pos = name_end;
        uint32_t line = L->line;
        size_t ls = L->line_start;
        int rc = scan_string(L, flags, 0);
        return push(L, rc < 0 ? PYT_ERROR : PYT_STRING, start, L->pos, line, ls);
    }
    return push(L, PYT_NAME, start, L->pos, L->line, L->line_start);
}

/* At the start of a physical line outside brackets: measure the indent
 * and emit INDENT/DEDENT. Blank and comment-only lines change nothing. */
static int lex_indent(struct lexer *L)
{
    int col = 0;
    size_t p = L->pos;
    for (; p < L->len; p++) {
        char c = L->src[p];
        if (c == ' ') col++;
        else if (c == '\t') col = (col / 8 + 1) * 8;
        else if (c == '\f') col = 0;
        else break;
        if (col > 1 << 20) col = 1 << 20;
    }
    L->pos = p;
    if (p >= L->len || is_newline(L->src[p]) || L->src[p] == '#' ||
        (L->src[p] == '\\' && p + 1 < L->len && is_newline(L->src[p + 1])))
        return 0;
    if (col > L->indents[L->nindent]) {
        if (L->nindent >= PYLEX_MAX_INDENT) {
            L->failed = 1;
            return oomlab_err_set(L->err, "%u:%d: more than %d indentation levels", L->line,
                                  col + 1, PYLEX_MAX_INDENT);
        }
        L->indents[++L->nindent] = col;
        return push(L, PYT_INDENT, p, p, L->line, L->line_start);
    }
    while (col < L->indents[L->nindent]) {
        L->nindent--;
        if (push(L, PYT_DEDENT, p, p, L->line, L->line_start) < 0) return -1;
    }
    if (col > L->indents[L->nindent]) L->indents[++L->nindent] = col; /* inconsistent */
    return 0;
}

/* Keywords that start a statement and never stand inside brackets (not
 * for/if/else/async/await/lambda/yield, which may). */
static const char *const statement_keywords[] = {
    "def", "class", "import", "return", "with", "try", "while", "except", "finally", "raise",
    "del", "pass", "break", "continue", "global", "nonlocal", "assert", "elif"};

/* At the start of a line inside brackets: does it open with one of
 * statement_keywords at column 0? Then a bracket above was never closed
 * (code being edited; CPython says "'(' was never closed"), and the
 * brackets are taken as closed so the rest of the file is read as
 * statements again. */
static int unclosed_bracket_ends(const struct lexer *L)
{
    const char *p = L->src + L->pos;
    size_t room = L->len - L->pos;
    for (size_t k = 0; k < sizeof statement_keywords / sizeof statement_keywords[0]; k++) {
        size_t n = strlen(statement_keywords[k]);
        if (room > n && !memcmp(p, statement_keywords[k], n) && !name_char((unsigned char)p[n]))
            return 1;
    }
    return 0;
}

static int lex_newline(struct lexer *L)
{
    size_t start = L->pos;
    uint32_t line = L->line;
    size_t ls = L->line_start;
    advance_newline(L);
    if (L->paren > 0 && unclosed_bracket_ends(L)) L->paren = 0;
    if (L->paren > 0) return 0;
    L->at_bol = 1;
    if (!L->line_has_tokens) return 0;
    L->line_has_tokens = 0;
    return push(L, PYT_NEWLINE, start, start, line, ls);
}

static int lex_comment(struct lexer *L)
{
    size_t start = L->pos;
    while (L->pos < L->len && !is_newline(L->src[L->pos])) L->pos++;
    return push(L, PYT_COMMENT, start, L->pos, L->line, L->line_start);
}

static int lex_one(struct lexer *L)
{
    unsigned char c = (unsigned char)L->src[L->pos];
    if (c == ' ' || c == '\t' || c == '\f') {
        L->pos++;
        return 0;
    }
    if (is_newline((char)c)) return lex_newline(L);
    if (c == '#') return lex_comment(L);
    if (c == '\\' && is_newline(peek(L, 1))) {
        L->pos++;
        advance_newline(L);
        return 0;
    }
    if (c == '\'' || c == '"') return lex_string(L, L->pos, 0);
    if ((c >= '0' && c <= '9') || (c == '.' && peek(L, 1) >= '0' && peek(L, 1) <= '9'))
        return lex_number(L);
    if (name_start(c)) return lex_word(L);
    return lex_operator(L);
}

int pylex_run(struct pylex *lx, const char *src, size_t len, struct oomlab_err *err)
{
    *lx = (struct pylex){.src = src, .len = len};
    if (len > PYLEX_MAX_BYTES)
        return oomlab_err_set(err, "1:1: larger than %zu MiB; file not linted",
                              PYLEX_MAX_BYTES >> 20);
    struct lexer L = {.lx = lx, .src = src, .len = len, .line = 1, .at_bol = 1, .err = err};
    while (L.pos < L.len && !L.failed) {
        if (L.at_bol) {
            L.at_bol = 0;
            if (lex_indent(&L) < 0) break;
            continue;
        }
        lex_one(&L);
    }
    if (!L.failed && L.line_has_tokens) push(&L, PYT_NEWLINE, L.pos, L.pos, L.line, L.line_start);
    while (!L.failed && L.nindent > 0) {
        L.nindent--;
        push(&L, PYT_DEDENT, L.pos, L.pos, L.line, L.line_start);
    }
    if (!L.failed) push(&L, PYT_END, L.pos, L.pos, L.line, L.line_start);
    if (L.failed) {
        pylex_release(lx);
        return -1;
    }
    return 0;
}

void pylex_release(struct pylex *lx)
{
    free(lx->toks);
    lx->toks = NULL;
    lx->ntoks = lx->cap = 0;
}
