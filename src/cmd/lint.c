/* lint: the guides' review checklist on Python code and launch scripts.
 * Options -> each path (a file, a directory walked for *.py and launch
 * scripts, or - for stdin) -> lib/lint -> compiler-style lines, oomlab.lint.v1
 * JSON or SARIF 2.1.0. Exit 0 clean, 1 findings, 2 usage or unreadable. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h> /* optind */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "lib/lint.h"
#include "lib/pylex.h"
#include "lib/strbuf.h"
#include "lib/textenc.h"
#include "lib/units.h"
#include "render/json.h"
#include "sys/fsutil.h"

#define MAX_WALK_DEPTH 64
#define STDIN_NAME "<stdin>"

enum lint_format { FMT_TEXT, FMT_JSON, FMT_SARIF };

/* A per-directory answer, kept for the run (at most MAX_DIR_MEMO). */
struct dir_memo {
    struct dir_value {
        char *dir;
        int value;
    } *v;
    size_t n;
};

struct lint_cli {
    enum lint_format format;
    struct lint_opts opts;
    const char *stdin_name;
    unsigned char disabled[LR_COUNT];
    struct json j;
    size_t files, findings, suppressed;
    int unreadable;
    struct lint_input_error { /* kept for the JSON/SARIF tail */
        char *path, *msg;     /* the input as named; "path: why" */
    } *errors;
    size_t nerrors;
    int torch_given;   /* --torch-min was given: it wins over the project's files */
    bool json, sarif, list_rules; /* the options as given */
    struct dir_memo torch_dirs; /* directory -> the torch major its project allows */
    struct dir_memo gpu_dirs;   /* directory -> how many Python files in it mention cuda */
};

#define MAX_DIR_MEMO 1024
#define MAX_REQ_BYTES (1 << 20)
#define MAX_UP_LEVELS 32

static const char usage_head[] =
    "usage: oomlab lint [--json | --sarif] [--torch-min VER] [--ignore RULE,...]\n"
    "                   [--stdin-filename NAME] PATH... | -\n"
    "       oomlab lint --list-rules\n\n"
    "Check Python training code and launch scripts for the memory mistakes of the\n"
    "review checklist: losses accumulated with their graph, evaluation without\n"
    "no_grad, outputs kept on the GPU, zero_grad, torch.save/torch.load devices,\n"
    "empty_cache in the step loop, training tensors alive during evaluation,\n"
    "where PYTORCH_CUDA_ALLOC_CONF is set.\n"
    "Directories are walked for *.py, *.sh, *.slurm, *.sbatch and Dockerfiles;\n"
    "'-' reads Python from stdin. One line per finding:\n"
    "  FILE:LINE:COL: warning: MESSAGE [RULE]\n\n";
static const char usage_tail[] =
    "\nSilence one line with '# oomlab: ignore[RULE]' (or '# oomlab: ignore').\n"
    "Exit: 0 clean, 1 findings, 2 usage or a file that cannot be read or linted,\n"
    "3 cannot write.\n";

static void list_rules(void)
{
    for (size_t i = 0; i < lint_nrules; i++)
        printf("%-26s %s\n%-26s fix: %s\n", lint_rules[i].id, lint_rules[i].message, "",
               lint_rules[i].fix);
}

/* --torch-min VER: "1.13" or "2", the major version into an int. */
static int parse_torch(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    char buf[16];
    size_t n = strcspn(val, ".");
    long long v;
    if (n > 0 && n < sizeof buf) {
        memcpy(buf, val, n);
        buf[n] = '\0';
        if (units_parse_int(buf, 0, 99, &v) == 0) {
            *(int *)dst = (int)v;
            return 0;
        }
    }
    return oomlab_err_set(err, "--%s wants a version like 1.13 or 2, not '%s'", o->name, val);
}

/* --ignore RULE,...: each rule's slot in disabled[] set. */
static int parse_ignore(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    unsigned char *disabled = dst;
    for (const char *p = val; *p; p += *p == ',') {
        size_t n = strcspn(p, ",");
        char id[64];
        int k = -1;
        if (n < sizeof id) {
            memcpy(id, p, n);
            id[n] = '\0';
            k = lint_rule_index(id);
        }
        if (k < 0 || (size_t)k >= size)
            return oomlab_err_set(err, "--%s: no rule '%.*s' (see --list-rules)", o->name, (int)(n < 64 ? n : 64), p);
        disabled[k] = 1;
        p += n;
    }
    return 0;
}

#define AT(f) OPT_FIELD(struct lint_cli, f)
static const struct opt_spec specs[] = {
    {.name = "json", .help = "schema oomlab.lint.v1 (docs/lint.md)", AT(json)},
    {.name = "sarif", .help = "SARIF 2.1.0 for code-scanning UIs", AT(sarif)},
    {.name = "torch-min", .metavar = "VER", .parse = parse_torch, AT(opts.torch_major),
     .help = "oldest torch the code runs on; 2 or later turns\n"
             "zero-grad-not-none off (default: what\n"
             "requirements*.txt, pyproject.toml, setup.cfg,\n"
             "setup.py, environment.yml say, else on)"},
    {.name = "ignore", .metavar = "RULE,...", .parse = parse_ignore, AT(disabled), .help = "skip these rules"},
    {.name = "stdin-filename", .metavar = "NAME", .parse = opt_string, AT(stdin_name),
     .help = "name (and language, by suffix) for '-'"},
    {.name = "list-rules", .help = "print each rule's id, message and fix", AT(list_rules)},
    {0},
};
#undef AT
/* Options may follow the paths (`oomlab lint train.py --json`, as ruff and
 * flake8 take them); `--` ends them for a file named like one. */
static const struct opt_table opt_table = {.command = "lint", .usage = usage_head, .epilogue = usage_tail,
                                           .spec = specs};
CMD_OPTIONS(cmd_lint_options, opt_table)

/* Returns -1 to go on (the paths from optind), else an exit code. */
static int parse(int argc, char **argv, struct lint_cli *c)
{
    c->opts.torch_major = -1;
    int first, rc = cmd_options(&opt_table, argc, argv, c, &first);
    if (rc != CMD_CONTINUE) return rc;
    c->torch_given = c->opts.torch_major >= 0;
    if (!c->torch_given) c->opts.torch_major = 0;
    if (c->json && c->sarif) return cmd_usage_error("lint", "--json and --sarif: one at a time");
    c->format = c->sarif ? FMT_SARIF : c->json ? FMT_JSON : FMT_TEXT;
    if (c->list_rules) {
        list_rules();
        return EXIT_OK;
    }
    optind = first;
    if (optind >= argc) return cmd_usage_error("lint", "name a file, a directory or '-'");
    return -1;
}

/* One line naming the file once: named when why names it already (the
 * messages of fsutil_read do). */
static void keep_error(struct lint_cli *c, const char *path, const char *why, bool named)
{
    c->unreadable = 1;
    const char *sep = named ? "" : ": ", *shown = named ? "" : path;
    if (c->format == FMT_TEXT) {
        fprintf(stderr, "oomlab lint: %s%s%s\n", shown, sep, why);
        return;
    }
    struct lint_input_error *v = realloc(c->errors, (c->nerrors + 1) * sizeof *v);
    size_t n = strlen(shown) + strlen(why) + 3;
    char *msg = malloc(n), *p = strdup(path);
    if (!v || !msg || !p) {
        free(msg), free(p);
        if (v) c->errors = v;
        fprintf(stderr, "oomlab lint: %s%s%s\n", shown, sep, why);
        return;
    }
    snprintf(msg, n, "%s%s%s", shown, sep, why);
    c->errors = v;
    c->errors[c->nerrors++] = (struct lint_input_error){p, msg};
}

static void emit_json(struct lint_cli *c, const char *path, const struct lint_finding *f)
{
    const struct lint_rule *r = &lint_rules[f->rule];
    json_obj_begin(&c->j);
    json_key(&c->j, "file"), json_str(&c->j, path);
    json_key(&c->j, "line"), json_int(&c->j, f->line);
    json_key(&c->j, "col"), json_int(&c->j, f->col);
    json_key(&c->j, "rule"), json_str(&c->j, r->id);
    json_key(&c->j, "severity"), json_str(&c->j, "warning");
    json_key(&c->j, "message"), json_str(&c->j, r->message);
    json_key(&c->j, "fix"), json_str(&c->j, r->fix);
    json_obj_end(&c->j);
}

/* path as a URI reference (SARIF's artifactLocation.uri, RFC 3986): bytes
 * other than unreserved characters, '/' and the sub-delimiters that need
 * no escape in a path are %XX (a space, '#', '%', '"', non-ASCII); so is a
 * ':' before the first '/', which would make "a:b.py" the scheme "a"
 * (RFC 3986 section 4.2). */
static const char *sarif_uri(const char *path, char *buf, size_t size)
{
    static const char keep[] = "-._~/!$&'()*+,;=:@";
    static const char hex[] = "0123456789ABCDEF";
    size_t n = 0;
    bool first_segment = true;
    for (const unsigned char *p = (const unsigned char *)path; *p && n + 4 < size; p++) {
        if (*p == '/') first_segment = false;
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            (strchr(keep, *p) && !(*p == ':' && first_segment))) {
            buf[n++] = (char)*p;
        } else {
            buf[n++] = '%', buf[n++] = hex[*p >> 4], buf[n++] = hex[*p & 15];
        }
    }
    buf[n] = '\0';
    return buf;
}

static void emit_sarif(struct lint_cli *c, const char *path, const struct lint_finding *f)
{
    const struct lint_rule *r = &lint_rules[f->rule];
    char buf[3 * PATH_MAX + 1];
    const char *uri = sarif_uri(strncmp(path, "./", 2) ? path : path + 2, buf, sizeof buf);
    json_obj_begin(&c->j);
    json_key(&c->j, "ruleId"), json_str(&c->j, r->id);
    json_key(&c->j, "ruleIndex"), json_int(&c->j, f->rule);
    json_key(&c->j, "level"), json_str(&c->j, "warning");
    json_key(&c->j, "message"), json_obj_begin(&c->j);
    json_key(&c->j, "text"), json_str(&c->j, r->message);
    json_obj_end(&c->j);
    json_key(&c->j, "locations"), json_arr_begin(&c->j), json_obj_begin(&c->j);
    json_key(&c->j, "physicalLocation"), json_obj_begin(&c->j);
    json_key(&c->j, "artifactLocation"), json_obj_begin(&c->j);
    json_key(&c->j, "uri"), json_str(&c->j, uri);
    json_obj_end(&c->j);
    json_key(&c->j, "region"), json_obj_begin(&c->j);
    json_key(&c->j, "startLine"), json_int(&c->j, f->line);
    json_key(&c->j, "startColumn"), json_int(&c->j, f->col);
    json_obj_end(&c->j), json_obj_end(&c->j), json_obj_end(&c->j), json_arr_end(&c->j);
    json_obj_end(&c->j);
}

static void emit(struct lint_cli *c, const char *path, const struct lint_finding *f)
{
    if (c->disabled[f->rule]) return;
    c->findings++;
    if (c->format == FMT_JSON) emit_json(c, path, f);
    else if (c->format == FMT_SARIF) emit_sarif(c, path, f);
    else /* the finding as a compiler says it, then the checklist's fix indented under it */
        printf("%s:%u:%u: warning: %s [%s]\n    fix: %s\n", path, f->line, f->col, lint_rules[f->rule].message,
               lint_rules[f->rule].id, lint_rules[f->rule].fix);
}

/* The files beside the code that say which torch it runs on. */
static int is_req_file(const char *name)
{
    static const char *const names[] = {"pyproject.toml", "setup.cfg", "setup.py", "environment.yml",
                                        "environment.yaml"};
    size_t n = strlen(name);
    if (n > 16 && !strncmp(name, "requirements", 12) && !strcmp(name + n - 4, ".txt")) return 1;
    if (!strcmp(name, "requirements.txt")) return 1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(name, names[i])) return 1;
    return 0;
}

/* The smallest torch lower bound in dir's requirement files (0 none);
 * *root is set when dir is a project's root (it holds .git). */
static int dir_own_major(const char *dir, int *root)
{
    DIR *d = opendir(dir);
    int best = 0;
    if (!d) return 0;
    for (struct dirent *de; (de = readdir(d));) {
        char path[PATH_MAX];
        char *data = NULL;
        size_t len = 0;
        struct oomlab_err err;
        if (!strcmp(de->d_name, ".git")) *root = 1;
        if (!is_req_file(de->d_name) || fsutil_join(path, sizeof path, dir, de->d_name, &err) < 0 ||
            fsutil_read(path, MAX_REQ_BYTES, &data, &len, NULL, &err) < 0)
            continue;
        int m = lint_torch_major_of(data, len);
        if (m > 0 && (best == 0 || m < best)) best = m;
        free(data);
    }
    closedir(d);
    return best;
}

static const int *memo_find(const struct dir_memo *m, const char *dir)
{
    for (size_t i = 0; i < m->n; i++)
        if (!strcmp(m->v[i].dir, dir)) return &m->v[i].value;
    return NULL;
}

/* Remembers value for dir when there is room; a failed allocation only
 * means it is worked out again. */
static void memo_put(struct dir_memo *m, const char *dir, int value)
{
    if (m->n >= MAX_DIR_MEMO) return;
    struct dir_value *v = m->n % 64 ? m->v : realloc(m->v, (m->n + 64) * sizeof *v);
    char *copy = v ? strdup(dir) : NULL;
    if (v) m->v = v;
    if (copy) m->v[m->n++] = (struct dir_value){copy, value};
}

static void memo_release(struct dir_memo *m)
{
    for (size_t i = 0; i < m->n; i++) free(m->v[i].dir);
    free(m->v);
}

/* The torch major the project around absolute directory dir allows: its
 * own files, else its parent's, up to the directory holding .git (the
 * project's root) or /. Memoised per directory. */
static int dir_torch_major(struct lint_cli *c, const char *dir, int level)
{
    const int *known = memo_find(&c->torch_dirs, dir);
    if (known) return *known;
    int root = 0, major = dir_own_major(dir, &root);
    const char *slash = strrchr(dir, '/');
    if (major == 0 && !root && slash && slash != dir && level < MAX_UP_LEVELS) {
        char parent[PATH_MAX];
        size_t n = (size_t)(slash - dir);
        if (n < sizeof parent) {
            memcpy(parent, dir, n);
            parent[n] = '\0';
            major = dir_torch_major(c, parent, level + 1);
        }
    }
    memo_put(&c->torch_dirs, dir, major);
    return major;
}

/* How many *.py files in directory dir mention cuda (in their first
 * MAX_REQ_BYTES bytes, comments too)? Memoised per directory; asked only
 * for a file whose save-gpu-tensors finding waits on it
 * (lint_report.asks_project_gpu). */
static int dir_cuda_files(struct lint_cli *c, const char *dir)
{
    const int *known = memo_find(&c->gpu_dirs, dir);
    if (known) return *known;
    int gpu = 0;
    DIR *d = opendir(dir);
    for (struct dirent *de; d && gpu < 2 && (de = readdir(d));) {
        size_t n = strlen(de->d_name);
        char path[PATH_MAX];
        char *data = NULL;
        size_t len = 0;
        struct oomlab_err err;
        if (n < 4 || strcmp(de->d_name + n - 3, ".py") ||
            fsutil_join(path, sizeof path, dir, de->d_name, &err) < 0 ||
            fsutil_read(path, MAX_REQ_BYTES, &data, &len, NULL, &err) < 0)
            continue;
        gpu += memmem(data, len, "cuda", 4) != NULL;
        free(data);
    }
    if (d) closedir(d);
    memo_put(&c->gpu_dirs, dir, gpu);
    return gpu;
}

/* The directory of path as an absolute path into abs; 0, or -1. */
static int abs_dir(const char *path, char abs[PATH_MAX])
{
    if (!path || !realpath(path, abs)) return -1;
    char *slash = strrchr(abs, '/');
    if (!slash) return -1;
    if (slash == abs) slash[1] = '\0';
    else *slash = '\0';
    return 0;
}

/* The options for one file: --torch-min, else what the requirement files
 * around it say. */
static struct lint_opts file_opts(struct lint_cli *c, const char *path)
{
    struct lint_opts o = c->opts;
    char abs[PATH_MAX];
    if (c->torch_given || abs_dir(path, abs) < 0) return o;
    o.torch_major = dir_torch_major(c, abs, 0);
    return o;
}

/* nb: a notebook's code, whose findings are placed back in the .ipynb
 * (NULL for source files). */
static void lint_text(struct lint_cli *c, const char *path, enum lint_lang lang, const char *data,
                      size_t len, const char *file, const struct lint_nb *nb)
{
    struct lint_report r = {0};
    struct oomlab_err err = {{0}};
    struct lint_opts o = lang == LINT_PYTHON ? file_opts(c, file) : c->opts;
    c->files++;
    char wide[512]; /* UTF-16 (PowerShell's >, Notepad): said as such, not "binary data" */
    bool piped = path == c->stdin_name || !strcmp(path, STDIN_NAME);
    if (!nb && textenc_wide_message(data, len, piped ? NULL : path,
                                    lang == LINT_PYTHON ? "Python source" : "a script", wide, sizeof wide)) {
        keep_error(c, path, wide, false);
        return;
    }
    if (lint_source(lang, data, len, &o, &r, &err) < 0) {
        keep_error(c, path, err.msg, false);
        return;
    }
    /* the neighbours, not the file itself (a "# on cuda" comment is no use of it) */
    char dir[PATH_MAX];
    size_t fl = file ? strlen(file) : 0;
    int self = fl > 3 && !strcmp(file + fl - 3, ".py") && memmem(data, len, "cuda", 4);
    if (r.asks_project_gpu && abs_dir(file, dir) == 0 && dir_cuda_files(c, dir) > self) {
        lint_report_release(&r);
        r = (struct lint_report){0};
        o.project_gpu = 1;
        if (lint_source(lang, data, len, &o, &r, &err) < 0) {
            keep_error(c, path, err.msg, false);
            return;
        }
    }
    for (size_t i = 0; i < r.n; i++) {
        struct lint_finding f = r.v[i];
        if (nb && f.line >= 1 && f.line <= nb->n_lines) {
            /* exact unless the line has escapes before it */
            f.col = nb->col_exact[f.line] ? nb->col_at[f.line] + f.col - 1 : nb->col_at[f.line];
            f.line = nb->line_at[f.line];
        }
        emit(c, path, &f);
    }
    c->suppressed += r.suppressed;
    lint_report_release(&r);
}

static bool is_notebook(const char *path)
{
    size_t n = strlen(path);
    return n > 6 && !strcasecmp(path + n - 6, ".ipynb");
}

/* A notebook: its code cells linted as one Python file (lib/lintnb), each
 * finding placed at its line of the .ipynb. Read as Python text, its JSON
 * would lint clean whatever its cells hold. */
static void lint_notebook(struct lint_cli *c, const char *path, const char *data, size_t len)
{
    struct lint_nb nb;
    struct oomlab_err err = {{0}};
    char wide[512];
    if (textenc_wide_message(data, len, path, "a notebook", wide, sizeof wide)) {
        keep_error(c, path, wide, false);
        return;
    }
    if (lint_nb_extract(data, len, &nb, &err) < 0) {
        keep_error(c, path, err.msg, false);
        return;
    }
    lint_text(c, path, LINT_PYTHON, nb.py, nb.len, path, &nb);
    lint_nb_release(&nb);
}

/* Files a user may name that are not code: said and skipped, so an
 * accelerate YAML or a log is not passed as "clean" Python. */
static const struct {
    const char *suffix, *what, *hint;
} not_code[] = {
    {".yaml", "a YAML file", ""},  {".yml", "a YAML file", ""}, {".json", "a JSON file", ""},
    {".toml", "a TOML file", ""},  {".cfg", "a config file", ""}, {".ini", "a config file", ""},
    {".csv", "a data file", ""},   {".tsv", "a data file", ""}, {".md", "a Markdown file", ""},
    {".rst", "a text file", ""},   {".txt", "a text file", ""},
    {".log", "a log", " (oomlab diagnose reads logs)"},
    {".out", "a log", " (oomlab diagnose reads logs)"},
};

static bool skip_not_code(const char *path)
{
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof not_code / sizeof not_code[0]; i++) {
        size_t m = strlen(not_code[i].suffix);
        if (n > m && !strcasecmp(path + n - m, not_code[i].suffix)) {
            fprintf(stderr, "oomlab lint: %s: %s, not code: skipped%s\n", path, not_code[i].what, not_code[i].hint);
            return true;
        }
    }
    return false;
}

static void lint_file(struct lint_cli *c, const char *path, enum lint_lang lang)
{
    char *data = NULL;
    size_t len = 0;
    struct oomlab_err err = {{0}};
    if (fsutil_read_input(path, PYLEX_MAX_BYTES, &data, &len, &err) < 0) {
        keep_error(c, path, err.msg, true);
        return;
    }
    if (lang == LINT_NONE && is_notebook(path)) {
        lint_notebook(c, path, data, len);
        free(data);
        return;
    }
    if (lang == LINT_NONE) lang = lint_lang_of(path, data, len);
    if (lang == LINT_NONE) lang = LINT_PYTHON; /* named explicitly: take it as Python */
    lint_text(c, path, lang, data, len, path, NULL);
    free(data);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static void walk(struct lint_cli *c, const char *dir, int depth)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, by_name);
    if (n < 0) {
        keep_error(c, dir, strerror(errno), false);
        return;
    }
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        char path[4096];
        struct stat st;
        struct oomlab_err err;
        if (name[0] == '.' || !strcmp(name, "__pycache__") || !strcmp(name, "node_modules") ||
            fsutil_join(path, sizeof path, dir, name, &err) < 0 || lstat(path, &st) < 0) {
            free(names[i]);
            continue;
        }
        if (S_ISDIR(st.st_mode) && depth < MAX_WALK_DEPTH) walk(c, path, depth + 1);
        else if (S_ISREG(st.st_mode) && (lint_lang_of(path, "", 0) != LINT_NONE || is_notebook(path)))
            lint_file(c, path, LINT_NONE);
        free(names[i]);
    }
    free(names);
}

static void lint_stdin(struct lint_cli *c)
{
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    const char *name = c->stdin_name ? c->stdin_name : STDIN_NAME;
    while (buf) {
        if (len == cap) {
            char *b = strbuf_grow(buf, &cap, cap + 1, 1, PYLEX_MAX_BYTES);
            if (!b) break;
            buf = b;
        }
        size_t got = fread(buf + len, 1, cap - len, stdin);
        len += got;
        if (got == 0) break;
    }
    if (!buf || ferror(stdin) || len == cap) {
        keep_error(c, name, !buf || ferror(stdin) ? "cannot read standard input" : "input too large", false);
    } else {
        enum lint_lang lang = c->stdin_name ? lint_lang_of(name, buf, len) : LINT_PYTHON;
        lint_text(c, name, lang == LINT_NONE ? LINT_PYTHON : lang, buf, len, c->stdin_name, NULL);
    }
    free(buf);
}

static void begin(struct lint_cli *c)
{
    if (c->format == FMT_TEXT) return;
    json_init(&c->j, stdout, true);
    json_obj_begin(&c->j);
    if (c->format == FMT_JSON) {
        json_key(&c->j, "schema"), json_str(&c->j, "oomlab.lint.v1");
        json_key(&c->j, "findings"), json_arr_begin(&c->j);
        return;
    }
    json_key(&c->j, "$schema"), json_str(&c->j, "https://json.schemastore.org/sarif-2.1.0.json");
    json_key(&c->j, "version"), json_str(&c->j, "2.1.0");
    json_key(&c->j, "runs"), json_arr_begin(&c->j), json_obj_begin(&c->j);
    json_key(&c->j, "tool"), json_obj_begin(&c->j);
    json_key(&c->j, "driver"), json_obj_begin(&c->j);
    json_key(&c->j, "name"), json_str(&c->j, "oomlab");
    json_key(&c->j, "version"), json_str(&c->j, OOMLAB_VERSION);
    json_key(&c->j, "rules"), json_arr_begin(&c->j);
    for (size_t i = 0; i < lint_nrules; i++) {
        json_obj_begin(&c->j);
        json_key(&c->j, "id"), json_str(&c->j, lint_rules[i].id);
        json_key(&c->j, "shortDescription"), json_obj_begin(&c->j);
        json_key(&c->j, "text"), json_str(&c->j, lint_rules[i].message);
        json_obj_end(&c->j);
        json_key(&c->j, "help"), json_obj_begin(&c->j);
        json_key(&c->j, "text"), json_str(&c->j, lint_rules[i].fix);
        json_obj_end(&c->j);
        json_obj_end(&c->j);
    }
    json_arr_end(&c->j), json_obj_end(&c->j), json_obj_end(&c->j);
    json_key(&c->j, "results"), json_arr_begin(&c->j);
}

/* input_errors: each input that could not be read, as diagnose --json
 * gives them too ({"path", "error"}; docs/lint.md). */
static void json_input_errors(struct json *j, const struct lint_input_error *e, size_t n)
{
    json_key(j, "input_errors"), json_arr_begin(j);
    for (size_t i = 0; i < n; i++) {
        json_obj_begin(j);
        json_key(j, "path"), json_str(j, e[i].path);
        json_key(j, "error"), json_str(j, e[i].msg);
        json_obj_end(j);
    }
    json_arr_end(j);
}

static int finish(struct lint_cli *c)
{
    if (c->format == FMT_TEXT) return fflush(stdout) == 0 ? 0 : -1;
    json_arr_end(&c->j);
    if (c->format == FMT_JSON) {
        json_key(&c->j, "files_checked"), json_int(&c->j, (long long)c->files);
        json_key(&c->j, "suppressed"), json_int(&c->j, (long long)c->suppressed);
    } else {
        json_key(&c->j, "invocations"), json_arr_begin(&c->j), json_obj_begin(&c->j);
        json_key(&c->j, "executionSuccessful"), json_bool(&c->j, !c->unreadable);
        json_key(&c->j, "toolExecutionNotifications"), json_arr_begin(&c->j);
    }
    if (c->format == FMT_JSON) json_key(&c->j, "errors"), json_arr_begin(&c->j);
    for (size_t i = 0; i < c->nerrors; i++) {
        if (c->format == FMT_SARIF) {
            json_obj_begin(&c->j);
            json_key(&c->j, "level"), json_str(&c->j, "error");
            json_key(&c->j, "message"), json_obj_begin(&c->j);
            json_key(&c->j, "text"), json_str(&c->j, c->errors[i].msg);
            json_obj_end(&c->j), json_obj_end(&c->j);
        } else {
            json_str(&c->j, c->errors[i].msg);
        }
    }
    json_arr_end(&c->j);
    if (c->format == FMT_JSON) json_input_errors(&c->j, c->errors, c->nerrors);
    for (size_t i = 0; i < c->nerrors; i++) free(c->errors[i].path), free(c->errors[i].msg);
    free(c->errors);
    if (c->format == FMT_SARIF) json_obj_end(&c->j), json_arr_end(&c->j), json_obj_end(&c->j), json_arr_end(&c->j);
    json_obj_end(&c->j);
    return json_finish(&c->j);
}

int cmd_lint(int argc, char **argv)
{
    struct lint_cli c = {0};
    int rc = parse(argc, argv, &c);
    if (rc >= 0) return rc;
    begin(&c);
    for (int i = optind; i < argc; i++) {
        struct stat st;
        if (!strcmp(argv[i], "-")) lint_stdin(&c);
        else if (stat(argv[i], &st) < 0) keep_error(&c, argv[i], strerror(errno), false);
        else if (S_ISDIR(st.st_mode)) walk(&c, argv[i], 0);
        else if (!skip_not_code(argv[i])) lint_file(&c, argv[i], LINT_NONE);
    }
    memo_release(&c.torch_dirs);
    memo_release(&c.gpu_dirs);
    if (finish(&c) < 0 && !ferror(stdout)) {
        fprintf(stderr, "oomlab lint: cannot write the report: %s\n", strerror(errno));
        return EXIT_ERROR;
    } /* a failed stdout is main's to say (or a closed pipe's to end) */
    if (c.files == 0 && !c.unreadable) /* "clean" would be a claim about nothing */
        fprintf(stderr, "oomlab lint: no file to check (directories are walked for *.py, *.ipynb, *.sh, *.slurm, "
                        "*.sbatch and Dockerfiles)\n");
    return c.unreadable ? EXIT_USAGE : c.findings ? EXIT_FOUND : EXIT_OK;
}
