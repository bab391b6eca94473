/* lintnb: a Jupyter notebook (nbformat 4) as the Python lint reads — its
 * code cells in order, IPython's magics and shell escapes blanked — with
 * where each Python line sits in the .ipynb file, so that findings point
 * into the notebook itself (an editor, SARIF and `# oomlab: ignore` all
 * work on it unchanged). Pure: json-c for the structure; the positions from
 * the raw text, whose string tokens come in the order json-c keeps. */
#include "lib/lint.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json.h>

/* Offsets of every JSON string token (keys and values) in text, in order. */
static size_t string_tokens(const char *text, size_t len, size_t *at)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] != '"') continue;
        if (at) at[n] = i;
        n++;
        for (i++; i < len && text[i] != '"'; i++)
            if (text[i] == '\\') i++;
    }
    return n;
}

/* String tokens inside o, keys included (json-c keeps an object's keys in
 * the file's order). */
static size_t count_strings(json_object *o)
{
    size_t n = 0;
    switch (json_object_get_type(o)) {
    case json_type_string:
        return 1;
    case json_type_array:
        for (size_t i = 0; i < json_object_array_length(o); i++) n += count_strings(json_object_array_get_idx(o, i));
        return n;
    case json_type_object: {
        json_object_object_foreach(o, key, val)
        {
            (void)key;
            n += 1 + count_strings(val);
        }
        return n;
    }
    default:
        return 0;
    }
}

struct build {
    struct lint_nb *nb;
    const char *text;
    size_t text_len;
    const size_t *at; /* string token offsets */
    size_t n_at, tok;
    size_t pos, line, line_start; /* a cursor over text for offset -> line:col */
    bool python_cell;              /* false: a %%bash (etc.) cell, blanked */
};

static void place(struct build *b, size_t off, uint32_t *line, uint32_t *col)
{
    for (; b->pos < off; b->pos++)
        if (b->text[b->pos] == '\n') b->line++, b->line_start = b->pos + 1;
    *line = (uint32_t)b->line;
    *col = (uint32_t)(off - b->line_start + 2); /* the first character after the quote, from 1 */
}

/* IPython's own syntax, not Python: a line magic (%pip), a shell escape
 * (!nvidia-smi); blanked, keeping the line. */
static bool ipython_line(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    return i < n && (s[i] == '%' || s[i] == '!');
}

/* Cell magics whose body is Python run as usual. */
static bool python_cell_magic(const char *s, size_t n)
{
    static const char *const magics[] = {"%%time", "%%timeit", "%%capture", "%%prun"};
    for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++) {
        size_t m = strlen(magics[i]);
        if (n >= m && !memcmp(s, magics[i], m) && (n == m || s[m] == ' ' || s[m] == '\n' || s[m] == '\r'))
            return true;
    }
    return false;
}

/* In the raw JSON string whose text runs from raw (after its quote): where
 * the next decoded line begins, after a \n or \u000a escape (or a raw line
 * break, which json-c lets through); 0 at the string's end. */
static size_t next_line_raw(const char *text, size_t len, size_t raw)
{
    for (size_t i = raw; i + 1 < len && text[i] != '"'; i++) {
        if (text[i] == '\n') return i + 1; /* a raw one json-c let through */
        if (text[i] != '\\') continue;
        if (text[i + 1] == 'n') return i + 2;
        if (text[i + 1] == 'u' && i + 5 < len && !strncasecmp(text + i + 2, "000a", 4)) return i + 6;
        i++; /* the escaped character */
    }
    return 0;
}

/* One source string (one or more lines) appended; each line it holds is
 * placed where its text begins in the file (Colab's "source": "a\nb"
 * form: every line inside the one string). */
static void add_source(struct build *b, const char *s, size_t n, bool first_of_cell)
{
    struct lint_nb *nb = b->nb;
    uint32_t line = 0, col = 0;
    size_t raw = 0; /* the current line's first byte in the file; 0 unknown */
    if (b->tok < b->n_at) place(b, b->at[b->tok], &line, &col), raw = b->at[b->tok] + 1;
    if (first_of_cell && n >= 2 && !memcmp(s, "%%", 2)) b->python_cell = python_cell_magic(s, n);
    size_t i = 0;
    while (i < n) {
        const char *nl = memchr(s + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - s) : n;
        bool keep = b->python_cell && !ipython_line(s + i, end - i); /* %%time's own line too */
        if (keep) memcpy(nb->py + nb->len, s + i, end - i), nb->len += end - i;
        nb->py[nb->len++] = '\n';
        nb->line_at[nb->n_lines + 1] = line;
        nb->col_at[nb->n_lines + 1] = col;
        nb->col_exact[nb->n_lines + 1] = i == 0 || raw != 0; /* else its string's start only */
        nb->n_lines++;
        i = end + 1;
        if (raw && i < n && (raw = next_line_raw(b->text, b->text_len, raw)) != 0) place(b, raw - 1, &line, &col);
    }
    b->tok++;
}

static void add_cell(struct build *b, json_object *cell)
{
    json_object *type = NULL, *src = NULL;
    bool code = json_object_object_get_ex(cell, "cell_type", &type) &&
                !strcmp(json_object_get_string(type) ? json_object_get_string(type) : "", "code");
    json_object_object_get_ex(cell, "source", &src);
    json_object_object_foreach(cell, key, val)
    {
        b->tok++; /* the key */
        if (!code || val != src || strcmp(key, "source")) {
            b->tok += count_strings(val);
            continue;
        }
        b->python_cell = true;
        if (json_object_is_type(val, json_type_string)) {
            add_source(b, json_object_get_string(val), (size_t)json_object_get_string_len(val), true);
            continue;
        }
        size_t n = json_object_is_type(val, json_type_array) ? json_object_array_length(val) : 0;
        if (!n) b->tok += count_strings(val);
        for (size_t i = 0; i < n; i++) {
            json_object *line = json_object_array_get_idx(val, i);
            if (json_object_is_type(line, json_type_string))
                add_source(b, json_object_get_string(line), (size_t)json_object_get_string_len(line), i == 0);
            else
                b->tok += count_strings(line);
        }
    }
}

static int build(struct build *b, json_object *root, struct oomlab_err *err)
{
    json_object *cells = NULL, *fmt = NULL;
    if (json_object_object_get_ex(root, "nbformat", &fmt) && json_object_get_int(fmt) < 4)
        return oomlab_err_set(err, "nbformat %d notebook: lint reads nbformat 4 (jupyter nbconvert --to notebook "
                                   "upgrades it)", json_object_get_int(fmt));
    if (!json_object_object_get_ex(root, "cells", &cells) || !json_object_is_type(cells, json_type_array))
        return oomlab_err_set(err, "not a Jupyter notebook: no \"cells\" list");
    json_object_object_foreach(root, key, val)
    {
        b->tok++;
        if (val != cells || strcmp(key, "cells")) {
            b->tok += count_strings(val);
            continue;
        }
        for (size_t i = 0; i < json_object_array_length(val); i++) {
            json_object *cell = json_object_array_get_idx(val, i);
            if (json_object_is_type(cell, json_type_object)) add_cell(b, cell);
            else b->tok += count_strings(cell);
        }
    }
    if (b->tok != b->n_at) /* a duplicate key: json-c kept one, the file has both */
        return oomlab_err_set(err, "the notebook's JSON has a repeated key: its lines cannot be placed");
    return 0;
}

int lint_nb_extract(const char *text, size_t len, struct lint_nb *nb, struct oomlab_err *err)
{
    *nb = (struct lint_nb){0};
    if (len > (size_t)INT32_MAX) return oomlab_err_set(err, "too large for a notebook");
    json_tokener *tok = json_tokener_new();
    if (!tok) return oomlab_err_set(err, "out of memory");
    json_object *root = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error e = json_tokener_get_error(tok);
    json_tokener_free(tok);
    if (!root || e != json_tokener_success || !json_object_is_type(root, json_type_object)) {
        json_object_put(root);
        return oomlab_err_set(err, "not a Jupyter notebook: %s",
                              e == json_tokener_success    ? "JSON, but not an object"
                              : e == json_tokener_continue ? "the JSON ends early (cut off?)"
                                                           : json_tokener_error_desc(e));
    }
    /* Decoded text is no longer than its JSON, plus one '\n' per string;
     * its lines are at most the strings plus the newlines in them: a raw
     * one json-c let through, or an escape (\n, \u000a), and an escape
     * decodes to one character at most, so one line per backslash bounds
     * them all (counting "\n" alone let "\u000a" lines write past the
     * line tables: fuzz25's fuzz_lint find). */
    size_t n_at = string_tokens(text, len, NULL), lines = n_at + 2;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n' || text[i] == '\\') lines++;
    struct build b = {.nb = nb, .text = text, .text_len = len, .n_at = n_at, .line = 1};
    size_t *at = malloc((n_at ? n_at : 1) * sizeof *at);
    nb->py = malloc(len + n_at + 1);
    nb->line_at = calloc(lines, sizeof *nb->line_at);
    nb->col_at = calloc(lines, sizeof *nb->col_at);
    nb->col_exact = calloc(lines, sizeof *nb->col_exact);
    int rc = -1;
    if (!at || !nb->py || !nb->line_at || !nb->col_at || !nb->col_exact) {
        oomlab_err_set(err, "out of memory");
    } else {
        string_tokens(text, len, at);
        b.at = at;
        rc = build(&b, root, err);
    }
    free(at);
    json_object_put(root);
    if (rc < 0) lint_nb_release(nb);
    return rc;
}

void lint_nb_release(struct lint_nb *nb)
{
    free(nb->py);
    free(nb->line_at);
    free(nb->col_at);
    free(nb->col_exact);
    *nb = (struct lint_nb){0};
}
