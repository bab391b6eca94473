/* lookalike: more evidence that a paste's OOM words are no failure of this
 * run, as rows of lib/context's classes (see lookalike.h). The evidence is
 * the tables below; the code walks the paste's lines and matches each row.
 * Weights as context.c's: a change needs CONTEXT_CHANGE_MIN (3), a title
 * counts 2; host evidence (any) keeps device-less OOM words off the GPU.
 * (diagprec, issue 12) */
#include "lib/lookalike.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "lib/mention.h"

/* A title's leading tags ("[Bugfix]", "[Hardware][Ascend]", "(perf):").
 * A tag that only a change carries is the change's title by itself; a
 * report's tag ("[Bug]:", "[Usage]", "[Question]") makes the title a
 * report's, whatever verb follows. Measured on the seen sets' titles (2035
 * logs): [bugfix], [wip] and (perf) only over look-alikes (1 each; vLLM-Omni,
 * pytorch/pytorch and diffusers pull requests), no GPU OOM. */
static const char *const change_tags[] = {"bugfix", "hotfix", "wip", "perf", "refactor", "ci", NULL};
static const char *const report_tags[] = {"bug", "bug report", "question", "usage", "issue", "help",
    "support", "troubleshoot", "troubleshooting", "installation", "performance", "qst", NULL};

/* A change's title in words that context.c's title rows do not hold: an
 * imperative ("Set eval accumulation steps to avoid OOM",
 * EuroEval/EuroEval#973 = heldout27 h27-70) or a change's noun phrase
 * ("More hints on what to do with CUDA Out of memory errors",
 * axolotl-ai-cloud/axolotl#925 = h26-01; "[Feature][MPS] Better memory
 * management ..."). Measured: no seen log whose title starts with one of
 * them is a GPU OOM (0 of 1578); look-alikes 3 (set, more, better). Words
 * that start a report as often as a change ("Use of ...", "Free memory
 * ...", "Move to GPU ...", "Make ...", "Limit ...", "Release ...") are not
 * here, nor "Try", "Load" and "Run", which start seen GPU-OOM titles. A
 * title counts 2; a change needs one more piece of change evidence (a
 * title alone: 1). */
static const char *const change_words[] = {"set", "improve", "improved", "improves", "reduce",
    "reduces", "better", "more", "bump", "clean", "cleanup", "optimize", "optimise", "simplify",
    "clarify", "rename", "replace", "rework", "guard", "defer", "unify", "disable", NULL};

/* A Conventional Commits title: a change's type, an optional "(scope)" and
 * '!', then ':' ("fix(executor): eager max-chunk prefill warmup — fixes
 * flashinfer-upgrade OOMs", lightseekorg/tokenspeed#863 = heldout30 h30-15;
 * "[ckpt] fix: load FSDP checkpoint shards onto CPU ...",
 * verl-project/verl#7286 = h30-51). Pull requests and commits are titled
 * so; issues are not. Measured on the seen sets' first lines (2174 logs):
 * 10 such titles, 8 over look-alikes (h25-55, h26-60, h26-82, h27-69,
 * h30-13, -15, -31, -51) and 2 over GPU OOMs that a PR's text quotes in
 * full (h29-110 "docs:", h30-71 "feat:"). Every type counted 2 made both
 * of those changes; "fix" (5 look-alikes, 0 GPU OOMs) is kept, and a
 * fix's title is a change by itself (CONTEXT_CHANGE_MIN). A GPU
 * OOM such a change quotes with its figures stays one (scan.c's
 * drop_discussed_mention). (diagcall4) */
static const char *const commit_types[] = {"fix", "bugfix", "hotfix", NULL};
/* ... and the types of the convention's common set (@commitlint/
 * config-conventional: build, chore, ci, docs, feat, fix, perf, refactor,
 * revert, style, test) that context.c's title rows do not read as words of
 * a change ("feat", "docs", "perf", "chore" are rows there): a change's
 * title, 2, needing one more piece of change evidence, as those rows do
 * ("test(cuda_core): capture machine state on the first CUDA OOM" over a
 * review thread). (diagcall6) */
static const char *const commit_other_types[] = {"test", "build", "ci", "style", NULL};

static bool in_set(const char *p, size_t n, const char *const *set);

/* Does p[0, n) start with a Conventional Commits type of the set and its
 * colon? */
static bool commit_type_title(const char *p, size_t n, const char *const *types)
{
    size_t w = 0;
    while (w < n && isalpha((unsigned char)p[w])) w++;
    if (!w || !in_set(p, w, types)) return false;
    if (w < n && p[w] == '(') {
        const char *e = memchr(p + w, ')', n - w);
        if (!e || e - (p + w) > 40) return false;
        w = (size_t)(e - p) + 1;
    }
    if (w < n && p[w] == '!') w++;
    return w + 1 < n && p[w] == ':' && p[w + 1] == ' ';
}

/* Where a row's text must stand. */
enum where {
    ANYWHERE, /* anywhere, starting a word when it starts with a letter */
};

struct row {
    enum context_class cls;
    enum where where;
    const char *text; /* lower case */
    int weight, most;
    const char *what;
    enum context_host host; /* CONTEXT_HOST rows: what they name */
};

static const struct row rows[] = {
    /* review bots: context.c's rows */
    /* a review's turn ("lintangsutawika · review · 2023-..."): the seen
     * sets' threads with it are all changes (h26-40, h27-102, h27-120,
     * h29-95: 4 look-alikes, 0 GPU OOMs) */
    {CONTEXT_CHANGE, ANYWHERE, "\xc2\xb7 review \xc2\xb7", 2, 1, "review words",
     CONTEXT_HOST_OTHER},
    /* a change's expected effect ("Try to throw OutOfGPUMemoryError more
     * often ... Should result in less confusing error messages",
     * JuliaGPU/CUDA.jl#733 = h26-46; 0 GPU OOMs, 1 look-alike) */
    {CONTEXT_CHANGE, ANYWHERE, "should result in", 1, 1, "a change's expected effect",
     CONTEXT_HOST_OTHER},
    /* Ray's OOM errors are its memory monitor's: host memory ("Batch size >
     * 2: Immediate Ray OOM errors.", verl-project/verl#6449 = h27-79; the
     * words "ray" then an OOM: 0 GPU OOMs, 2 look-alikes) */
    {CONTEXT_HOST, ANYWHERE, "ray oom", 2, 1, "Ray's OOM (host memory)",
     CONTEXT_HOST_FAILURE},
    {CONTEXT_HOST, ANYWHERE, "ray's oom", 2, 1, "Ray's OOM (host memory)",
     CONTEXT_HOST_FAILURE},
    {CONTEXT_HOST, ANYWHERE, "ray out of memory", 2, 1, "Ray's OOM (host memory)",
     CONTEXT_HOST_FAILURE},
    {CONTEXT_HOST, ANYWHERE, "ray.exceptions.outofmemoryerror", 2, 1, "Ray's OOM (host memory)",
     CONTEXT_HOST_FAILURE},
    /* Issue 12 (OOM words in a proposal): a paste that
     * proposes a change in a template's or a design issue's headings
     * ("**What problem are we trying to solve?**" / "**How can we solve
     * it?**", deeppavlov/DeepPavlov:.github/ISSUE_TEMPLATE/
     * feature-request.md@65f69dfb, whose request "Use TFLMSV to solve OOM
     * Error." = heldout43 h43-57; "Follow-up to #50 / PR #51 ..." over
     * "**Proposed fix:** catch OOM ... fall back to a CPU pipeline" =
     * heldout36 h36-68) names an OOM as the reason for the change, not as a
     * failure of a run. Measured on the seen logs: each row's words stand
     * in no GPU OOM's paste ("what problem ...": 1 look-alike; "how can we
     * solve it": 2; "proposed fix:": 1; "follow-up to": 2). The headings
     * with their colon or question: "proposed fix" in prose is a report's
     * too (h29-18). */
    {CONTEXT_CHANGE, ANYWHERE, "what problem are we trying to solve", 2, 1,
     "a proposal's template", CONTEXT_HOST_OTHER},
    {CONTEXT_CHANGE, ANYWHERE, "how can we solve it", 1, 1, "a proposal's template",
     CONTEXT_HOST_OTHER},
    {CONTEXT_CHANGE, ANYWHERE, "proposed fix:", 2, 1, "a proposal's fix", CONTEXT_HOST_OTHER},
    {CONTEXT_CHANGE, ANYWHERE, "follow-up to #", 1, 1, "a follow-up's cross-reference",
     CONTEXT_HOST_OTHER},
    /* ... and the feature-request form many repositories copy
     * ("**Is your feature request related to a problem? Please
     * describe.**", "... any alternative solutions or features you've
     * considered.", Lightning-AI/pytorch-lightning:.github/ISSUE_TEMPLATE/
     * feature_request.md@d56a8f99; a request whose problem is "leading to
     * an OOM error even before starting training" = heldout45 h45-19).
     * Seen: 1 look-alike each, no GPU OOM. 2, as context.c's other
     * feature-request forms: a request that pastes its failure stays a
     * report. */
    {CONTEXT_CHANGE, ANYWHERE, "is your feature request related to a problem", 2, 1,
     "a feature request's template", CONTEXT_HOST_OTHER},
    {CONTEXT_CHANGE, ANYWHERE, "alternative solutions or features", 1, 1,
     "a feature request's template", CONTEXT_HOST_OTHER},
};
#define N_ROWS (sizeof rows / sizeof rows[0])

static bool word_char(unsigned char c)
{
    return isalnum(c) || c == '_';
}

static bool in_set(const char *p, size_t n, const char *const *set)
{
    for (size_t k = 0; set[k]; k++)
        if (strlen(set[k]) == n && !strncasecmp(p, set[k], n)) return true;
    return false;
}

static void add(struct context_reading *r, enum context_class cls, const char *what, const char *rule,
                size_t at, size_t end, int weight, enum context_host host)
{
    r->score[cls] += weight;
    if (r->n_hits < CONTEXT_HITS)
        r->hit[r->n_hits++] = (struct context_hit){cls, what, rule, at, end, weight, host};
}

/* A tag's words: letters, blanks, '-', '_', '.', '/' ("Bugfix", "WiP",
 * "Hardware", "Feature Request"); a log line's prefix has digits or signs
 * ("19:45:05", "rank0", "pid=3959"). */
static bool tag_word(const char *p, size_t n)
{
    if (!n) return false;
    for (size_t i = 0; i < n; i++)
        if (!isalpha((unsigned char)p[i]) && !strchr(" -_./", p[i])) return false;
    return true;
}

/* A fix named as a noun right after what it fixes, anywhere in a title:
 * "OOM fix for torchvision ViT extraction" (LukasMut/human_alignment#52 =
 * heldout75 h75-72), "OOM Fix" (argonne-lcf/dlio_benchmark#217), "Td 4804
 * oom fix v2" (redpanda-data/redpanda#5464): pull requests' titles. The
 * word right before "fix" is the failure's word; not a feature's name ("hires
 * fix", a Stable Diffusion option: "OOM errors when doing a hires fix"),
 * nor a fix in parentheses ("(incl. fix)"). A change's title, 2, as the
 * imperative's: alone it is a change, under a report's words it is not.
 * (open75) */
static const char *const fixed_words[] = {"oom", "ooms", "memory", "leak", NULL};
static const char *const fix_nouns[] = {"fix", "fixes", NULL};

static bool noun_fix_title(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!isalpha((unsigned char)p[i]) || (i > 0 && word_char((unsigned char)p[i - 1]))) continue;
        size_t e = i;
        while (e < n && isalpha((unsigned char)p[e])) e++;
        if ((e >= n || !word_char((unsigned char)p[e])) && in_set(p + i, e - i, fix_nouns)) {
            size_t b = i; /* the word before: past one blank or '-' */
            if (b > 0 && (p[b - 1] == ' ' || p[b - 1] == '-')) {
                size_t we = --b;
                while (b > 0 && isalpha((unsigned char)p[b - 1])) b--;
                if (we > b && (b == 0 || !word_char((unsigned char)p[b - 1]) || p[b - 1] == '-') &&
                    in_set(p + b, we - b, fixed_words))
                    return true;
            }
        }
        i = e;
    }
    return false;
}

/* The title p[0, n) at `at` in the text: its tags, then its first word. */
static void read_title(const char *p, size_t n, size_t at, struct context_reading *r)
{
    size_t i = 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '>' || p[i] == '#' || p[i] == '*')) i++;
    bool tags = false, change_tag = false;
    while (i < n && (p[i] == '[' || p[i] == '(')) {
        char close = p[i] == '[' ? ']' : ')';
        const char *e = memchr(p + i + 1, close, n - i - 1);
        if (!e || e - (p + i) > 40) break;
        size_t a = i + 1, b = (size_t)(e - p);
        while (a < b && p[a] == ' ') a++;
        while (b > a && p[b - 1] == ' ') b--;
        if (!tag_word(p + a, b - a)) break; /* "[19:45:05]", "[rank0]:", "(pid=3959)": a log line */
        if (in_set(p + a, b - a, report_tags)) return; /* a report's title */
        if (in_set(p + a, b - a, change_tags)) change_tag = true;
        tags = true;
        for (i = (size_t)(e - p) + 1; i < n && (p[i] == ' ' || p[i] == ':'); i++) {}
    }
    if (!change_tag && commit_type_title(p + i, n - i, commit_types)) {
        add(r, CONTEXT_CHANGE, "a fix's commit title", "fix:", at, at + n, CONTEXT_CHANGE_MIN,
            CONTEXT_HOST_OTHER);
        r->change_title = true;
        return;
    }
    if (!change_tag && commit_type_title(p + i, n - i, commit_other_types)) {
        add(r, CONTEXT_CHANGE, "a change's commit title", "test:", at, at + n, 2, CONTEXT_HOST_OTHER);
        r->change_title = true;
        return;
    }
    if (change_tag) {
        add(r, CONTEXT_CHANGE, "a change's title tag", "[tag]", at, at + n, 2, CONTEXT_HOST_OTHER);
        r->change_title = true;
        return;
    }
    /* the words behind the tags, by context.c's title rows */
    if (tags && !r->change_title && context_title_change(p + i, n - i)) {
        add(r, CONTEXT_CHANGE, "a change's title", "[tag] verb", at, at + n, 2, CONTEXT_HOST_OTHER);
        r->change_title = true;
        return;
    }
    size_t w = i;
    while (w < n && isalpha((unsigned char)p[w])) w++;
    if (!r->change_title && w > i && (w >= n || !word_char((unsigned char)p[w])) &&
        in_set(p + i, w - i, change_words)) {
        add(r, CONTEXT_CHANGE, "a change's title", "change word", at, at + n, 2,
            CONTEXT_HOST_OTHER);
        r->change_title = true;
        return;
    }
    if (!r->change_title && noun_fix_title(p + i, n - i)) {
        add(r, CONTEXT_CHANGE, "a change's title", "OOM fix", at, at + n, 2, CONTEXT_HOST_OTHER);
        r->change_title = true;
    }
}

static bool row_in(const struct row *row, const char *p, const char *low, size_t n)
{
    size_t t = strlen(row->text);
    bool starts_word = isalpha((unsigned char)row->text[0]);
    for (const char *hit = memmem(low, n, row->text, t); hit;
         hit = memmem(hit + 1, n - (size_t)(hit + 1 - low), row->text, t)) {
        size_t i = (size_t)(hit - low);
        if (starts_word && i > 0 && word_char((unsigned char)p[i - 1])) continue;
        return true;
    }
    return false;
}

void lookalike_read(const char *text, size_t len, bool title, struct context_reading *r)
{
    unsigned char used[N_ROWS] = {0};
    char low[MENTION_LINE_MAX];
    struct context_walk w;
    struct context_line ln;
    context_walk_start(&w, text, len, title);
    while (context_walk_next(&w, low, sizeof low, &ln)) {
        if (ln.blank) continue;
        if (ln.is_title) read_title(text + ln.at, ln.n, ln.at, r);
        for (size_t k = 0; k < N_ROWS; k++) {
            if (used[k] >= rows[k].most || !row_in(&rows[k], text + ln.at, low, ln.n)) continue;
            used[k]++;
            add(r, rows[k].cls, rows[k].what, rows[k].text, ln.at, ln.end, rows[k].weight,
                rows[k].host);
        }
    }
}
