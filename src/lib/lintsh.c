/* lintsh: where a launch script sets PYTORCH_CUDA_ALLOC_CONF (or another
 * allocator variable, lint_alloc_var). Shell text
 * (scripts, SLURM batch files, a Dockerfile's RUN steps) is split into
 * words and simple commands with quotes, backslash continuations and
 * comments honoured; each command is then classed as an assignment, an
 * export, or a launch (python, torchrun, accelerate, deepspeed, behind
 * srun/env/exec/...). The rules compare their order. */
#include <stdlib.h>
#include <string.h>

#include "lib/lint.h"

#define MAX_WORDS 64

struct word {
    size_t off, len;
    uint32_t line, col;
};

struct cmd {
    struct word w[MAX_WORDS];
    size_t n;
};

struct sh {
    const char *src;
    size_t len, pos, line_start;
    uint32_t line;
    enum lint_lang lang;
    struct lint_report *r;
    uint32_t launch_line; /* first launch command, 0 none */
    int allexport, failed;
    unsigned exported;       /* bit k: allocator variable k is exported somewhere */
    struct word pending[16]; /* plain assignments waiting for an export */
    int pending_var[16];     /* ...and which variable each sets */
    size_t npending;
};

/* Wrappers that run the next word as the command. */
static const char *const wrappers[] = {"srun", "exec", "env", "nohup", "time", "nice", "stdbuf",
                                       "numactl", "mpirun", "mpiexec", "xargs", "sudo", "command"};
static const char *const launchers[] = {"python", "python3", "torchrun", "accelerate",
                                        "deepspeed", "lightning", "composer", "llamafactory-cli"};

static int word_is(const struct sh *s, const struct word *w, const char *text)
{
    return w->len == strlen(text) && !memcmp(s->src + w->off, text, w->len);
}

/* NAME=... ; *ours is 1 + the allocator variable's index when NAME is
 * one (lint_alloc_var), else 0. */
static int is_assignment(const struct sh *s, const struct word *w, int *ours)
{
    const char *p = s->src + w->off;
    size_t i = 0;
    while (i < w->len && (p[i] == '_' || (p[i] >= 'A' && p[i] <= 'Z') || (p[i] >= 'a' && p[i] <= 'z') ||
                          (i > 0 && p[i] >= '0' && p[i] <= '9')))
        i++;
    if (i == 0 || i >= w->len || p[i] != '=') return 0;
    *ours = lint_alloc_var(p, i) + 1;
    return 1;
}

static int is_launcher(const struct sh *s, const struct word *w)
{
    const char *p = s->src + w->off, *base = p;
    for (size_t i = 0; i < w->len; i++)
        if (p[i] == '/') base = p + i + 1;
    size_t n = w->len - (size_t)(base - p);
    for (size_t k = 0; k < sizeof launchers / sizeof launchers[0]; k++) {
        size_t m = strlen(launchers[k]);
        if (n >= m && !memcmp(base, launchers[k], m) &&
            (n == m || (k < 2 && ((base[m] >= '0' && base[m] <= '9') || base[m] == '.'))))
            return 1;
    }
    return 0;
}

static void add(struct sh *s, size_t rule, const struct word *w)
{
    if (lint_report_add(s->r, rule, w->line, w->col) < 0) s->failed = 1;
}

/* One simple command of a shell script. */
static void shell_command(struct sh *s, struct cmd *c)
{
    size_t i = 0;
    int ours, prefix_ours = 0;
    for (; i < c->n && is_assignment(s, &c->w[i], &ours); i++)
        if (ours) prefix_ours = 1;
    if (i == c->n) { /* assignments only */
        for (size_t k = 0; k < c->n; k++) {
            if (!is_assignment(s, &c->w[k], &ours) || !ours) continue;
            if (s->launch_line) add(s, LR_ALLOC_CONF_AFTER_LAUNCH, &c->w[k]);
            else if (!s->allexport && s->npending < 16) {
                s->pending_var[s->npending] = ours - 1;
                s->pending[s->npending++] = c->w[k];
            }
        }
        return;
    }
    const struct word *cw = &c->w[i];
    if (word_is(s, cw, "set") && i + 1 < c->n && word_is(s, &c->w[i + 1], "-a")) s->allexport = 1;
    if (word_is(s, cw, "export") || word_is(s, cw, "declare") || word_is(s, cw, "typeset")) {
        for (size_t k = i + 1; k < c->n; k++) {
            int v = lint_alloc_var(s->src + c->w[k].off, c->w[k].len);
            if (v >= 0) s->exported |= 1u << v;
            if (is_assignment(s, &c->w[k], &ours) && ours && s->launch_line)
                add(s, LR_ALLOC_CONF_AFTER_LAUNCH, &c->w[k]);
        }
        return;
    }
    (void)prefix_ours; /* VAR=... python train.py: scoped to that command, fine */
    for (; i < c->n; i++) {
        const struct word *w = &c->w[i];
        if (is_assignment(s, w, &ours) || (s->src[w->off] == '-')) continue;
        int wrapped = 0;
        for (size_t k = 0; k < sizeof wrappers / sizeof wrappers[0]; k++)
            if (word_is(s, w, wrappers[k])) wrapped = 1;
        if (wrapped) continue;
        if (is_launcher(s, w) && !s->launch_line) s->launch_line = w->line;
        return;
    }
}

/* One Dockerfile instruction: RUN's shell or ARG setting the variable. */
static void docker_command(struct sh *s, struct cmd *c, int first_of_line)
{
    size_t i = 0;
    int ours;
    if (first_of_line && c->n > 0) {
        if (word_is(s, &c->w[0], "ARG")) {
            for (size_t k = 1; k < c->n; k++)
                if (is_assignment(s, &c->w[k], &ours) && ours) add(s, LR_ALLOC_CONF_DOCKER_RUN, &c->w[k]);
            return;
        }
        if (!word_is(s, &c->w[0], "RUN")) return;
        i = 1;
    }
    size_t start = i;
    for (; i < c->n && is_assignment(s, &c->w[i], &ours); i++)
        if (ours && i + 1 == c->n) add(s, LR_ALLOC_CONF_DOCKER_RUN, &c->w[i]);
    if (i > start || i >= c->n || !word_is(s, &c->w[i], "export")) return;
    for (size_t k = i + 1; k < c->n; k++)
        if (is_assignment(s, &c->w[k], &ours) && ours) add(s, LR_ALLOC_CONF_DOCKER_RUN, &c->w[k]);
}

static char at(const struct sh *s, size_t k)
{
    return k < s->len ? s->src[k] : '\0';
}

static void newline(struct sh *s)
{
    s->pos++;
    s->line++;
    s->line_start = s->pos;
}

/* Scan one word; quotes and $(...) are kept inside it. */
static void scan_word(struct sh *s, struct cmd *c)
{
    struct word w = {.off = s->pos, .line = s->line, .col = (uint32_t)(s->pos - s->line_start + 1)};
    while (s->pos < s->len) {
        char ch = s->src[s->pos];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == ';' || ch == '&' || ch == '|' ||
            ch == '(' || ch == ')')
            break;
        if (ch == '\\') {
            if (at(s, s->pos + 1) == '\n') break;
            s->pos += 2;
        } else if (ch == '\'' || ch == '"') {
            s->pos++;
            while (s->pos < s->len && s->src[s->pos] != ch) {
                if (ch == '"' && s->src[s->pos] == '\\') s->pos++;
                if (s->pos < s->len && s->src[s->pos] == '\n') newline(s);
                else s->pos++;
            }
            s->pos++;
        } else {
            s->pos++;
        }
    }
    if (s->pos > s->len) s->pos = s->len;
    w.len = s->pos - w.off;
    if (c->n < MAX_WORDS) c->w[c->n++] = w;
}

static void end_command(struct sh *s, struct cmd *c, int *first_of_line)
{
    if (c->n > 0) {
        if (s->lang == LINT_DOCKER) docker_command(s, c, *first_of_line);
        else shell_command(s, c);
        *first_of_line = 0;
    }
    c->n = 0;
}

int lintsh_check(enum lint_lang lang, const char *src, size_t len, struct lint_report *r,
                 struct oomlab_err *err)
{
    struct sh s = {.src = src, .len = len, .line = 1, .lang = lang, .r = r};
    struct cmd *c = calloc(1, sizeof *c);
    if (!c) return oomlab_err_set(err, "out of memory");
    int first_of_line = 1;
    while (s.pos < s.len && !s.failed) {
        char ch = src[s.pos];
        if (ch == ' ' || ch == '\t' || ch == '\r') {
            s.pos++;
        } else if (ch == '\\' && at(&s, s.pos + 1) == '\n') {
            s.pos++;
            newline(&s);
        } else if (ch == '\n') {
            end_command(&s, c, &first_of_line);
            first_of_line = 1;
            newline(&s);
        } else if (ch == '#') {
            while (s.pos < s.len && src[s.pos] != '\n') s.pos++;
        } else if (ch == ';' || ch == '&' || ch == '|' || ch == '(' || ch == ')') {
            end_command(&s, c, &first_of_line);
            s.pos++;
        } else {
            scan_word(&s, c);
        }
    }
    end_command(&s, c, &first_of_line);
    for (size_t k = 0; k < s.npending; k++)
        if (!(s.exported & (1u << s.pending_var[k]))) add(&s, LR_ALLOC_CONF_NOT_EXPORTED, &s.pending[k]);
    free(c);
    if (s.failed) return oomlab_err_set(err, "out of memory");
    return 0;
}
