/* lint: the guides' review checklist as rules checked on source text before
 * it runs. Python files go through pylex + linttree and the rule table in
 * lintpy.c; launch scripts (shell, SLURM batch files, Dockerfiles) through
 * lintsh.c. One table, lint_rules, holds every rule's stable id, its
 * one-line message and its fix; findings name a rule by index into it.
 * Suppression comments (`# oomlab: ignore`, `# oomlab: ignore[rule,...]`)
 * on a finding's line drop it here, so every caller gets the same answer.
 * The report's array is malloc'd; the caller frees it with
 * lint_report_release. */
#ifndef OOMLAB_LINT_H
#define OOMLAB_LINT_H

#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"

enum lint_lang { LINT_PYTHON, LINT_SHELL, LINT_DOCKER, LINT_NONE };

struct lint_rule {
    const char *id;      /* stable: never renamed once released */
    const char *message; /* one line, what is wrong and what it costs */
    const char *fix;     /* one line, what to write instead */
    enum lint_lang lang; /* LINT_PYTHON or LINT_SHELL (shell and Dockerfiles) */
};

/* Indices into lint_rules, in the table's order. */
enum lint_rule_index {
    LR_LOSS_ACCUMULATED,
    LR_EVAL_WITHOUT_NO_GRAD,
    LR_EVAL_NEVER_TRAIN,
    LR_OUTPUTS_ON_GPU,
    LR_RETAIN_GRAPH_IN_LOOP,
    LR_ZERO_GRAD_NOT_NONE,
    LR_MISSING_ZERO_GRAD,
    LR_SAVE_GPU_TENSORS,
    LR_LOAD_WITHOUT_MAP_LOCATION,
    LR_EMPTY_CACHE_IN_LOOP,
    LR_ALLOC_CONF_AFTER_CUDA,
    LR_NO_GRAD_NOT_ENTERED,
    LR_TRAIN_TENSORS_IN_EVAL,
    LR_ALLOC_CONF_AFTER_LAUNCH,
    LR_ALLOC_CONF_NOT_EXPORTED,
    LR_ALLOC_CONF_DOCKER_RUN,
    LR_COUNT
};

extern const struct lint_rule lint_rules[];
extern const size_t lint_nrules;

struct lint_finding {
    uint32_t rule; /* index into lint_rules */
    uint32_t line, col;
};

struct lint_report {
    struct lint_finding *v;
    size_t n, cap;
    size_t suppressed; /* findings dropped by an ignore comment */
    int asks_project_gpu; /* a finding was held back only because this file never
                             mentions CUDA: lint it again with project_gpu set when
                             a file beside it does (lint_opts.project_gpu) */
};

struct lint_opts {
    int torch_major; /* the oldest torch major version the code runs on; 0 unknown.
                        >= 2 turns zero-grad-not-none off (set_to_none is the default) */
    int project_gpu; /* a Python file beside this one uses CUDA: a helper module
                        (utils.py's save_model(model, path)) saves models that
                        the training script put on the GPU */
};

/* Lint src[0..len) as lang, appending findings sorted by line and column.
 * 0, or -1 with "LINE:COL: why" in err when the file cannot be linted (a
 * hard cap of pylex hit, binary data, out of memory). */
int lint_source(enum lint_lang lang, const char *src, size_t len, const struct lint_opts *o,
                struct lint_report *r, struct oomlab_err *err);

/* What a path is by name (*.py, *.sh, *.bash, *.slurm, *.sbatch, Dockerfile*,
 * *.dockerfile in any case, Containerfile) or, failing that, by a #! line in head. */
enum lint_lang lint_lang_of(const char *path, const char *head, size_t n);

/* A Jupyter notebook (nbformat 4) as Python: its code cells in order, one
 * Python line per source line, IPython magics and shell escapes (%pip,
 * !nvidia-smi) and cells of other languages (%%bash) blank. line_at[L] and
 * col_at[L] place Python line L (from 1) in the .ipynb text: the line and
 * column where its text begins in its JSON string (inside one string too:
 * "source": "a\nb"). col_exact[L] is 0 where only the string's start is
 * known. In lintnb.c; the caller frees with
 * lint_nb_release. */
struct lint_nb {
    char *py;
    size_t len, n_lines;
    uint32_t *line_at, *col_at;
    unsigned char *col_exact;
};
int lint_nb_extract(const char *text, size_t len, struct lint_nb *nb, struct oomlab_err *err);
void lint_nb_release(struct lint_nb *nb);

/* Index of a rule id in lint_rules, or -1. */
int lint_rule_index(const char *id);

/* For the rule modules: record a finding (0, -1 out of memory). */
int lint_report_add(struct lint_report *r, size_t rule, uint32_t line, uint32_t col);
void lint_report_release(struct lint_report *r);

/* Does the comment text (from '#') suppress rule? `oomlab: ignore` alone
 * suppresses every rule, `oomlab: ignore[a, b]` those listed. */
int lint_comment_suppresses(const char *comment, size_t n, const char *rule_id);

/* The oldest torch major version a requirements-like text allows
 * (requirements*.txt, pyproject.toml, setup.cfg, setup.py, environment.yml): the
 * smallest lower bound of its `torch` / `pytorch` requirements (`>=2.1`,
 * `==1.13.1`, `~=2.0`, `^2.0`, conda's `=2.1`); 0 when it names no torch
 * with a lower bound. Pure text, in lintreq.c. */
int lint_torch_major_of(const char *text, size_t len);

/* The environment variables the CUDA caching allocator reads once, when
 * CUDA is first used: PYTORCH_CUDA_ALLOC_CONF, its newer name
 * PYTORCH_ALLOC_CONF (torch 2.9 calls the old one deprecated), ROCm's
 * PYTORCH_HIP_ALLOC_CONF and PYTORCH_NO_CUDA_MEMORY_CACHING. Its index
 * (0..) when name[0..n) is one of them exactly, else -1. In lint.c. */
int lint_alloc_var(const char *name, size_t n);
#define LINT_ALLOC_VARS 4

/* Rule modules (lintpy.c, lintsh.c): append findings unsorted, unsuppressed. */
int lintpy_check(const char *src, size_t len, const struct lint_opts *o, struct lint_report *r,
                 struct oomlab_err *err);
int lintsh_check(enum lint_lang lang, const char *src, size_t len, struct lint_report *r,
                 struct oomlab_err *err);

#endif
