/* scan: the diagnose engine (see scan.h). Hot path: Wu-Manber skip search
 * for the msg anchors plus a vectorised newline count, in cache-sized
 * slices. Cold path, per hit: read the message, classify it, fill numbers,
 * then stage and step from the surrounding lines; merge details and fold
 * repeats as events are added. */
#include "lib/scan.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/activity.h"
#include "lib/memsummary.h"
#include "lib/context.h"
#include "lib/elastic.h"
#include "lib/mention.h"
#include "lib/msg.h"
#include "lib/stage.h"
#include "lib/steps.h"
#include "lib/strbuf.h"

#define CTX_MAX 4096
#define MSG_BEFORE_MAX 8192
#define SLICE (256u << 10)
/* No walk reads more lines than this, counting those it passes over
 * (other writers', blanks): a walk that counted only the lines it reads
 * read the rest of the log from each of many events interleaved with
 * other ranks' lines (quadratic: 2.6 s on 64 KiB, fuzz13). */
#define WALK_LINES 400
#define WALK_BYTES (512u << 10)
#define WALK_BLANKS 2 /* blank lines in a row a traceback walk steps over */
#define STEP_LINES 4000
#define STEP_BYTES (4u << 20)
#define MAX_ANCHORS MSG_ANCHORS_MAX
#define MAX_STAGED_EVENTS 64
#define PROSE_DEVICE_LINES 4 /* lines below OOM words where their device may be named */
#define PROSE_GUARD_LINES 30 /* ... and where no guard word may stand */
#define PROSE_LINES 20000 /* lines the prose pass reads (prose_mention) */
#define MENTION_TB_LINES 40 /* a traceback this near after an OOM named in words */
/* a rank-prefixed traceback this near after an unprefixed message: a title,
 * the user's sentence and the launch command between them (huggingface/
 * trl#4149 = heldout21 h21-28: 10 lines; 6 before diagctx2, no other seen
 * log's output changed) */
#define RANK_AFTER_LINES 10
#define ANON_WRITER_LINES 8 /* a prefix-less line this near an event is its writer's */
#define JOIN_LINES 24    /* lines a message may be wrapped over */
#define JOIN_STALL 2     /* of them in a row that add no figure */
#define SAME_KIND_HEADER_LINES 256 /* a header and its message, traceback between */
#define FIGURELESS_JOIN_LINES 64 /* a figureless message and the full one below it */
#define AFTER_LINES 16      /* lines after a message read for evidence */
#define WALK_AHEAD 40       /* lines below a message that nothing leads to, read for its traceback and steps */
#define TABLE_BEFORE 4      /* memory_summary title lines above "CUDA OOMs:" */
#define TABLE_LINES 48      /* rows below it */

/* Anchors shorter than WM_MIN_LEN would cap the skip distance; they are
 * found instead with memchr on a rare byte they contain (e.g. 'K' for
 * "Killed" and "SIGKILL"). */
#define WM_MIN_LEN 10
#define RARE_BYTES "KQZXJVWYGFBHUPLMDCNROSITAEqzxjkvwy"

struct scan_wm {
    const char *anchor[MAX_ANCHORS]; /* from msg_anchors_build: the rules' strings */
    size_t n_anchors;
    size_t m;              /* window: the shortest long anchor's length */
    size_t n_short;
    short short_idx[MAX_ANCHORS];
    size_t short_off[MAX_ANCHORS]; /* offset of the key byte in the anchor */
    unsigned char short_key[MAX_ANCHORS];
    unsigned char shift[65536];
    short head[65536];     /* first anchor whose window ends in this pair */
    short next[MAX_ANCHORS];
    size_t alen[MAX_ANCHORS];
    size_t woff[MAX_ANCHORS]; /* offset of the anchor's window */
    size_t max_off;
    bool learned;
};

struct view {
    const char *p;
    size_t len;
    uint64_t base;
    signed char *srun; /* the view names srun (msg_names_srun), read once: -1 not yet; may be NULL */
};

/* ---- hot path ----------------------------------------------------------- */

typedef unsigned char scan_v16 __attribute__((vector_size(16)));

size_t scan_count_newlines(const char *p, size_t n)
{
    size_t count = 0, i = 0;
    const scan_v16 nl = {'\n', '\n', '\n', '\n', '\n', '\n', '\n', '\n',
                         '\n', '\n', '\n', '\n', '\n', '\n', '\n', '\n'};
    while (i + 16 <= n) {
        scan_v16 acc = {0};
        size_t rounds = (n - i) / 16;
        if (rounds > 255) rounds = 255;
        for (size_t r = 0; r < rounds; r++, i += 16) {
            scan_v16 v;
            memcpy(&v, p + i, 16);
            acc -= (scan_v16)(v == nl);
        }
        for (int k = 0; k < 16; k++) count += acc[k];
    }
    for (; i < n; i++) count += p[i] == '\n';
    return count;
}

/* Wu-Manber over byte pairs: the shift table says how far the window may
 * move when its last two bytes are a given pair. */
static inline unsigned wm_pair(const unsigned char *t)
{
    return (unsigned)t[0] << 8 | t[1];
}

static struct scan_wm *wm_build(void)
{
    struct scan_wm *wm = calloc(1, sizeof *wm);
    if (!wm) return NULL;
    wm->n_anchors = msg_anchors_build(wm->anchor, MAX_ANCHORS);
    size_t m = SIZE_MAX;
    for (size_t a = 0; a < wm->n_anchors; a++) {
        wm->alen[a] = strlen(wm->anchor[a]);
        if (wm->alen[a] >= WM_MIN_LEN && wm->alen[a] < m) m = wm->alen[a];
        if (wm->alen[a] >= WM_MIN_LEN) continue;
        const char *key = NULL;
        for (const char *r = RARE_BYTES; *r && !key; r++) key = strchr(wm->anchor[a], *r);
        /* else a byte of a multi-byte character ("oom错"): rare in English logs */
        for (const char *c = wm->anchor[a]; *c && !key; c++)
            if ((unsigned char)*c >= 0x80) key = c;
        if (!key) key = wm->anchor[a];
        wm->short_idx[wm->n_short] = (short)a;
        wm->short_off[wm->n_short] = (size_t)(key - wm->anchor[a]);
        wm->short_key[wm->n_short++] = (unsigned char)*key;
    }
    wm->m = m; /* >= WM_MIN_LEN */
    return wm;
}

/* Pick, per anchor, the m-byte window whose byte pairs are rarest in a
 * sample of this input (weighting the last pair, which decides whether a
 * candidate is verified), then fill the shift table. counts may be NULL. */
static void wm_tables(struct scan_wm *wm, const uint32_t *counts)
{
    size_t m = wm->m;
    memset(wm->shift, (int)(m - 1), sizeof wm->shift);
    memset(wm->head, 0xff, sizeof wm->head); /* -1 */
    wm->max_off = 0;
    for (size_t a = 0; a < wm->n_anchors; a++) {
        if (wm->alen[a] < WM_MIN_LEN) continue;
        const unsigned char *s = (const unsigned char *)wm->anchor[a];
        uint64_t best_cost = UINT64_MAX;
        size_t best = 0;
        for (size_t o = 0; counts && o + m <= wm->alen[a]; o++) {
            uint64_t cost = 16 * (uint64_t)counts[wm_pair(s + o + m - 2)];
            for (size_t j = 0; j + 2 < m; j++) cost += counts[wm_pair(s + o + j)];
            if (cost < best_cost) best_cost = cost, best = o;
        }
        wm->woff[a] = best;
        if (best > wm->max_off) wm->max_off = best;
        s += best;
        for (size_t j = 0; j + 1 < m; j++) {
            unsigned h = wm_pair(s + j);
            size_t sh = m - 2 - j;
            if (sh < wm->shift[h]) wm->shift[h] = (unsigned char)sh;
        }
        unsigned h = wm_pair(s + m - 2);
        wm->next[a] = wm->head[h];
        wm->head[h] = (short)a;
    }
}

/* Learn byte-pair frequencies from the start of the input (bounded). */
#define WM_LEARN_MIN (64u << 10)
static int wm_learn(struct scan_wm *wm, const char *p, size_t n)
{
    /* A short input is searched in no time whatever the windows: the
     * 256 KiB of counts and their walk cost more than they save (3 ms of
     * a fuzz input's 3.5 under ASan, fuzz16). */
    if (n < WM_LEARN_MIN) {
        wm_tables(wm, NULL);
        return 0;
    }
    uint32_t *counts = calloc(65536, sizeof *counts);
    if (!counts) return -1;
    const unsigned char *t = (const unsigned char *)p;
    if (n > (256u << 10)) n = 256u << 10;
    for (size_t i = 0; i + 1 < n; i++) counts[wm_pair(t + i)]++;
    wm_tables(wm, counts);
    free(counts);
    return 0;
}

/* The anchor whose window ends at i and that starts in [from, upto). */
static size_t wm_verify(const struct scan_wm *wm, const struct view *v, size_t i, size_t from,
                        size_t upto)
{
    const unsigned char *t = (const unsigned char *)v->p;
    size_t ws = i - (wm->m - 1), best = SIZE_MAX;
    for (short a = wm->head[wm_pair(t + i - 1)]; a >= 0; a = wm->next[a]) {
        if (ws < wm->woff[a]) continue;
        size_t start = ws - wm->woff[a];
        if (start >= from && start < upto && start < best && start + wm->alen[a] <= v->len &&
            memcmp(t + start, wm->anchor[a], wm->alen[a]) == 0)
            best = start;
    }
    return best;
}

/* The first short anchor starting in [from, upto); SIZE_MAX if none. */
static size_t short_in(const struct scan_wm *wm, const struct view *v, size_t from,
                       size_t upto, uint64_t *work)
{
    size_t best = SIZE_MAX;
    for (size_t k = 0; k < wm->n_short; k++) {
        bool seen = false; /* each key byte is searched once */
        for (size_t j = 0; j < k && !seen; j++) seen = wm->short_key[j] == wm->short_key[k];
        if (seen) continue;
        size_t limit = upto + WM_MIN_LEN < v->len ? upto + WM_MIN_LEN : v->len;
        size_t q = from;
        while (q < limit && q < best) {
            const char *p = memchr(v->p + q, wm->short_key[k], limit - q);
            *work += p ? (uint64_t)(p - (v->p + q)) + 1 : limit - q;
            if (!p) break;
            size_t at = (size_t)(p - v->p);
            for (size_t j = k; j < wm->n_short; j++) {
                if (wm->short_key[j] != wm->short_key[k] || at < wm->short_off[j]) continue;
                size_t start = at - wm->short_off[j];
                short a = wm->short_idx[j];
                if (start >= from && start < upto && start < best &&
                    start + wm->alen[a] <= v->len &&
                    memcmp(v->p + start, wm->anchor[a], wm->alen[a]) == 0)
                    best = start;
            }
            if (best != SIZE_MAX && best <= at) break;
            q = at + 1;
        }
    }
    return best;
}

/* Next short anchor starting in [from, upto); SIZE_MAX if none. Searched
 * in windows that double from SHORT_WINDOW bytes: a key byte absent from
 * the slice was searched to the slice's end on every hit (256 KiB read per
 * hit where every line hits), now only as far as the next hit, twice over. */
#define SHORT_WINDOW 256
static size_t short_next(const struct scan_wm *wm, const struct view *v, size_t from,
                         size_t upto, uint64_t *work)
{
    size_t width = SHORT_WINDOW;
    for (size_t lo = from; lo < upto; lo += width, width *= 2) {
        size_t hi = upto - lo > width ? lo + width : upto;
        size_t best = short_in(wm, v, lo, hi, work);
        if (best != SIZE_MAX) return best;
    }
    return SIZE_MAX;
}


/* Next long anchor starting in [from, upto) of v (relative offsets);
 * SIZE_MAX if none. Window starts are cut in eight parts searched in
 * lock-step: each lane's shift loop is a chain of dependent loads, and
 * interleaving independent chains lets the CPU overlap them. Each lane
 * stops at its first hit; the earliest of those is the answer. */
static size_t wm_next(const struct scan_wm *wm, const struct view *v, size_t from, size_t upto)
{
    const unsigned char *t = (const unsigned char *)v->p;
    const unsigned char *shift = wm->shift;
    size_t m = wm->m;
    if (v->len < m) return SIZE_MAX;
    size_t ws_end = upto + wm->max_off < v->len - m + 1 ? upto + wm->max_off : v->len - m + 1;
    if (ws_end <= from) return SIZE_MAX;
    size_t part = (ws_end - from) / 8 + 1, hit = SIZE_MAX;
    size_t lo[8], hi[8];
    for (int k = 0; k < 8; k++) {
        lo[k] = from + part * (size_t)k;
        hi[k] = lo[k] + part;
        if (lo[k] > ws_end) lo[k] = ws_end;
        if (hi[k] > ws_end) hi[k] = ws_end;
        lo[k] += m - 1;
        hi[k] += m - 1;
    }
    /* Lanes live in registers: a lane that is done parks at its stop. */
    size_t i0 = lo[0], i1 = lo[1], i2 = lo[2], i3 = lo[3];
    size_t i4 = lo[4], i5 = lo[5], i6 = lo[6], i7 = lo[7];
    size_t s0 = hi[0], s1 = hi[1], s2 = hi[2], s3 = hi[3];
    size_t s4 = hi[4], s5 = hi[5], s6 = hi[6], s7 = hi[7];
#define LANE(I, S)                                                                          \
    if (I < S) {                                                                            \
        unsigned char sh = shift[wm_pair(t + I - 1)];                                       \
        if (sh) {                                                                           \
            I += sh;                                                                        \
        } else {                                                                            \
            size_t at = wm_verify(wm, v, I, from, upto);                                    \
            if (at != SIZE_MAX) {                                                           \
                if (at < hit) hit = at;                                                     \
                I = S;                                                                      \
            } else {                                                                        \
                I++;                                                                        \
            }                                                                               \
        }                                                                                   \
    }
    while (i0 < s0 || i1 < s1 || i2 < s2 || i3 < s3 || i4 < s4 || i5 < s5 || i6 < s6 ||
           i7 < s7) {
        LANE(i0, s0)
        LANE(i1, s1)
        LANE(i2, s2)
        LANE(i3, s3)
        LANE(i4, s4)
        LANE(i5, s5)
        LANE(i6, s6)
        LANE(i7, s7)
    }
#undef LANE
    return hit;
}

/* ---- lines ---------------------------------------------------------------- */

static size_t line_start(const struct view *v, size_t pos)
{
    size_t lo = pos > SCAN_LINE_MAX ? pos - SCAN_LINE_MAX : 0;
    const char *q = pos > lo ? memrchr(v->p + lo, '\n', pos - lo) : NULL;
    return q ? (size_t)(q - v->p) + 1 : lo;
}

static size_t line_end(const struct view *v, size_t pos)
{
    size_t hi = v->len - pos > SCAN_LINE_MAX ? pos + SCAN_LINE_MAX : v->len;
    const char *q = memchr(v->p + pos, '\n', hi - pos);
    return q ? (size_t)(q - v->p) : hi;
}

/* The next line after the one ending at index end (its newline). */
static bool prev_line(const struct view *v, size_t *start, size_t *end)
{
    if (*start == 0) return false;
    *end = *start - 1;
    *start = line_start(v, *end);
    return true;
}

/* Line after the one ending at index *end (its newline). */
static bool next_line(const struct view *v, size_t *start, size_t *end)
{
    if (*end >= v->len) return false;
    *start = *end + 1;
    if (*start >= v->len) return false;
    *end = line_end(v, *start);
    return true;
}

/* The prefixes of the line [a, b) of v, cleaned into `clean` (n bytes); an
 * srun label is a rank where the view names srun (msg_names_srun, the
 * helper rankstats applies too) and a line
 * within MSG_TASK_LABEL_LINES carries it too (msg.h says why). True when it
 * read those lines. */
static bool parse_prefix(const struct view *v, size_t a, size_t b, const char *clean, size_t n,
                         struct msg_prefix *px)
{
    msg_prefix_parse(clean, n, px);
    if (!px->task_label) return false;
    if (v->srun && *v->srun < 0) *v->srun = (signed char)msg_names_srun(v->p, v->len);
    if (!v->srun || !*v->srun) {
        msg_prefix_unlabel(clean, n, px);
        return true;
    }
    size_t pa = a, pb = b, na = a, nb = b;
    bool up = true, down = true;
    for (int i = 0; i < MSG_TASK_LABEL_LINES && (up || down); i++) {
        if (up && (up = prev_line(v, &pa, &pb)) && msg_task_label(v->p + pa, pb - pa) == px->rank) return true;
        if (down && (down = next_line(v, &na, &nb)) && msg_task_label(v->p + na, nb - na) == px->rank)
            return true;
    }
    if (px->task_label_padded) /* a backtrace's numbered frame: no prefix at all */
        *px = (struct msg_prefix){.rank = -1, .dev = -1, .pid = -1};
    px->rank = -1;
    return true;
}

static void count_to(struct scan *s, const struct view *v, size_t rel)
{
    uint64_t abs = v->base + rel;
    if (abs <= s->counted) return;
    size_t from = s->counted > v->base ? (size_t)(s->counted - v->base) : 0;
    s->lines_before += (long)scan_count_newlines(v->p + from, rel - from);
    s->counted = abs;
}

void scan_count_to(struct scan *s, const char *buf, size_t len, uint64_t base, uint64_t upto)
{
    signed char srun = -1;
    struct view v = {buf, len, base, &srun};
    if (upto > base + len) upto = base + len;
    if (upto > base) count_to(s, &v, (size_t)(upto - base));
}

/* A context line, cleaned into s->ctx with its prefix parsed. */
struct cline {
    const char *body;
    size_t n;
    struct msg_prefix px;
    enum stage_line kind;
    bool jvm; /* a JVM frame, rewritten as Python's header (stage_unjava) */
    bool json; /* an A1111 sysinfo frame string, rewritten as Python's header (stage_unjson) */
    bool labelled; /* its prefix is an srun label: read with the lines around it */
};

/* What names the program's framework on a line the scan reads (a frame's
 * path, a log line's source path), first row that matches wins: jaxlib
 * built TensorFlow's and XLA's sources as external/org_tensorflow (to
 * 2023: jina-ai/dalle-flow#57 = h64-22) and then external/xla/xla
 * (google/flax#3376 = h58-33), TensorFlow its own as tensorflow/... and
 * then external/local_xla (TF 2.15 on); an exception's module path
 * (jaxlib.xla_extension.XlaRuntimeError) too. A mark starts a path part (no
 * letter, digit or '_' before it). */
static const struct {
    const char *mark;
    const char *framework;
} program_marks[] = {
    {"external/org_tensorflow/", "jax"},
    {"external/xla/xla/", "jax"},
    {"jax/_src/", "jax"},
    {"jaxlib/", "jax"},
    {"jax._src.", "jax"},             /* a module path in a traceback's exception */
    {"jaxlib.xla_extension.", "jax"}, /* XlaRuntimeError (jax-ml/jax#10989) */
    {"site-packages/tensorflow/", "tensorflow"},
    {"site-packages/tensorflow_core/", "tensorflow"},
    {"dist-packages/tensorflow_core/", "tensorflow"},
    {"dist-packages/tensorflow/", "tensorflow"},
    {"tensorflow/core/", "tensorflow"},
    {"tensorflow/stream_executor/", "tensorflow"},
    {"tensorflow/python/", "tensorflow"},
    {"tensorflow.python.", "tensorflow"}, /* errors_impl.ResourceExhaustedError and kin */
    {"external/local_xla/", "tensorflow"},
    {"external/local_tsl/", "tensorflow"},
    {"site-packages/torch/", "pytorch"},
    {"dist-packages/torch/", "pytorch"},
    {"site-packages/paddle/", "paddle"},
    {"dist-packages/paddle/", "paddle"},
    {"site-packages/mxnet/", "mxnet"},
    {"dist-packages/mxnet/", "mxnet"},
};

/* Does the mark stand at q, its '/' matching '\\' too (a Windows path:
 * "site-packages\\tensorflow_core\\python", tensorflow/tensorflow#42163)? */
static bool mark_at(const char *q, const char *end, const char *m)
{
    for (; *m; m++, q++) {
        if (q >= end) return false;
        if (*m == '/' ? (*q != '/' && *q != '\\') : *q != *m) return false;
    }
    return true;
}

static void note_program(struct scan *s, const char *p, size_t n)
{
    if (n < 6) return;
    const char *end = p + n;
    for (size_t k = 0; k < sizeof program_marks / sizeof program_marks[0]; k++) {
        const char *m = program_marks[k].mark;
        size_t head = strcspn(m, "/"); /* the mark's first part, searched as is */
        for (const char *q = memmem(p, n, m, head); q; q = memmem(q + 1, (size_t)(end - q - 1), m, head)) {
            if (q > p && (isalnum((unsigned char)q[-1]) || q[-1] == '_')) continue;
            if (!mark_at(q, end, m)) continue;
            oom_report_note_program(s->rep, program_marks[k].framework, false);
            return;
        }
    }
}

/* The line [a, b) cleaned into s->ctx, its prefix parsed; no kind yet. */
static void clean_cline(struct scan *s, const struct view *v, size_t a, size_t b, struct cline *c)
{
    s->work.lines_read++;
    size_t n = msg_clean(v->p + a, b - a, SIZE_MAX, s->ctx, CTX_MAX);
    note_program(s, s->ctx, n);
    c->labelled = parse_prefix(v, a, b, s->ctx, n, &c->px);
    c->body = s->ctx + c->px.body;
    c->n = stage_unbox(s->ctx + c->px.body, n - c->px.body); /* Rich's boxed frames */
    /* A1111's sysinfo JSON frames, read as Python's (outermost first) */
    size_t unboxed = c->n;
    c->n = stage_unjson(s->ctx + c->px.body, c->n, CTX_MAX - c->px.body);
    c->json = c->n != unboxed;
    /* a JVM frame, read as Python's (innermost first) */
    size_t boxed = c->n;
    c->n = stage_unjava(s->ctx + c->px.body, c->n, CTX_MAX - c->px.body);
    c->jvm = c->n != boxed || stage_java_frame(c->body, c->n);
    n = c->px.body + c->n;
    s->ctx[n] = '\n'; /* frame words may anchor on the end of a line */
    s->ctx[n + 1] = '\0';
    c->kind = STAGE_LINE_OTHER;
}

/* Lines read, kept by their place in the input: the walks around each
 * event read the same lines (julia_stack, context_walk, walk_forward,
 * after_stage, the near clauses ...) and the walks of the events around
 * it read them again; 400 ranks' messages read each line ~50 times. A
 * line's reading depends on its bytes only, except an srun label's
 * (parse_prefix reads the lines around it): those, and lines too long to
 * keep, are read every time. */
#define CLINE_SLOTS 4096
#define CLINE_TEXT 256
struct cline_slot {
    uint64_t a, b; /* absolute [a, b); b == 0: empty */
    struct msg_prefix px;
    size_t n;
    enum stage_line kind;
    bool has_kind; /* kind read (read_cline), not only the text (read_cline_body) */
    bool jvm, json;
    char text[CLINE_TEXT]; /* s->ctx as clean_cline left it, through the NUL */
};
/* The last message read (a log of one message repeated, on every line or
 * every few): its rule (msg_classify) and its event as event_from made it
 * (msg_extract), both pure functions of the text (and, for the event, the
 * rule and the prefix's rank, device and pid), kept for the next one. */
#define MEMO_TEXT 1024
struct message_memo {
    size_t class_n; /* 0: none */
    char class_text[MEMO_TEXT];
    const struct msg_rule *class_rule;
    size_t event_n; /* 0: none */
    char event_text[MEMO_TEXT];
    const struct msg_rule *event_rule;
    int rank, dev;
    long pid;
    struct oom_event event;
};
/* Does a traceback stand on the line [a, b) (traceback_follows)? b == 0: empty */
#define TB_SLOT_BITS 8
struct tb_slot {
    uint64_t a, b;
    bool tb;
};
struct scan_clines {
    struct cline_slot slot[CLINE_SLOTS];
    struct tb_slot tb[1u << TB_SLOT_BITS];
    struct message_memo memo;
};

/* The line [a, b) read into s->ctx and c (kind too when with_kind). */
static void read_cline_kept(struct scan *s, const struct view *v, size_t a, size_t b, struct cline *c,
                            bool with_kind)
{
    uint64_t A = v->base + a, B = v->base + b;
    struct cline_slot *e = s->clines ? &s->clines->slot[(A * 0x9E3779B97F4A7C15ull) >> 52] : NULL;
    if (e && e->b == B && e->a == A && B != 0) {
        c->px = e->px;
        c->n = e->n;
        c->jvm = e->jvm;
        c->json = e->json;
        c->labelled = false;
        memcpy(s->ctx, e->text, c->px.body + c->n + 2);
        c->body = s->ctx + c->px.body;
        if (with_kind && !e->has_kind) e->kind = stage_line_kind(c->body, c->n), e->has_kind = true;
        c->kind = e->has_kind ? e->kind : STAGE_LINE_OTHER;
        return;
    }
    clean_cline(s, v, a, b, c);
    if (with_kind) c->kind = stage_line_kind(c->body, c->n);
    size_t len = c->px.body + c->n + 2;
    if (!e || len > CLINE_TEXT || B == 0 || c->labelled) return;
    e->a = A, e->b = B;
    e->px = c->px;
    e->n = c->n;
    e->kind = c->kind;
    e->has_kind = with_kind;
    e->jvm = c->jvm;
    e->json = c->json;
    memcpy(e->text, s->ctx, len);
}

/* The line as read_cline reads it, without its kind (stage_line_kind is
 * the dearest part, and the near clauses do not need it). */
static void read_cline_body(struct scan *s, const struct view *v, size_t a, size_t b, struct cline *c)
{
    read_cline_kept(s, v, a, b, c, false);
}

static void read_cline(struct scan *s, const struct view *v, size_t a, size_t b, struct cline *c)
{
    read_cline_kept(s, v, a, b, c, true);
}

static bool has_identity(const struct msg_prefix *px)
{
    return px->rank >= 0 || px->pid >= 0 || px->host != 0;
}

/* Lines of another writer interleaved with ours are skipped. */
static bool other_writer(const struct msg_prefix *ours, const struct msg_prefix *line)
{
    return has_identity(ours) && has_identity(line) && !msg_prefix_same_source(ours, line);
}

/* ---- the message line ------------------------------------------------------ */

/* Build the logical line around hit: the \r segment holding it, plus the
 * lines a terminal soft-wrapped it into (a wrapped line keeps its trailing
 * blank). Returns the length; *end is the relative end of the last line. */
static size_t read_message(struct scan *s, const struct view *v, size_t ls, size_t hit,
                           size_t *end)
{
    size_t le = line_end(v, hit);
    size_t n;
    if (hit - ls > MSG_BEFORE_MAX) {
        /* A huge line: keep its start (the prefix: rank, host) and the
         * message from a little before the anchor. */
        n = msg_clean(v->p + ls, 256, SIZE_MAX, s->line, 512);
        s->line[n++] = ' ';
        size_t a = hit - MSG_BEFORE_MAX / 2;
        n += msg_clean(v->p + a, le - a, hit - a, s->line + n, SCAN_LINE_MAX - n);
    } else {
        n = msg_clean(v->p + ls, le - ls, hit - ls, s->line, SCAN_LINE_MAX);
    }
    for (int joins = 0; joins < 8 && n > 0 && s->line[n - 1] == ' '; joins++) {
        size_t a = le, b = le;
        if (!next_line(v, &a, &b) || b == a) break;
        /* A writer's own wrap: "available memory is only \n      416.6MB." */
        size_t ind = a;
        while (ind < b && ind - a < 64 && (v->p[ind] == ' ' || v->p[ind] == '\t')) ind++;
        if (ind > a && ind < b && v->p[ind] >= '0' && v->p[ind] <= '9') a = ind;
        char c0 = v->p[a];
        if (c0 == ' ' || c0 == '\t' || c0 == '\r' ||
            (b - a >= 9 && memcmp(v->p + a, "Traceback", 9) == 0))
            break;
        if (n + 1 >= SCAN_LINE_MAX) break;
        n += msg_clean(v->p + a, b - a, SIZE_MAX, s->line + n, SCAN_LINE_MAX - n);
        le = b;
    }
    note_program(s, s->line, n);
    *end = le;
    return n;
}

/* ---- near clauses, stage, step --------------------------------------------- */

/* A wide window above the message ("No GPU/TPU found" 400 lines up) read
 * for every message cost 400 lines a message: a log of nothing but
 * messages took seconds a MiB. The memo reads each line once per such
 * pattern, in file order, and keeps where the pattern matched (any
 * writer); a message whose whole window holds no match reads nothing, and
 * the walk below runs as before wherever a line in the window matched (or
 * may have: a line cut at SCAN_LINE_MAX, a window reaching the view's
 * start), so what it finds is unchanged. */
#define NEAR_MEMO_MIN 32    /* windows this wide or wider are memoised */
#define NEAR_MEMO_LINES 512 /* ... up to this wide (a ring of line starts) */
#define NEAR_MEMO_SLOTS 8
struct near_memo_slot {
    const char *pattern;
    uint64_t upto;       /* absolute start of the line after the last one read */
    long lines;          /* lines read */
    long last_match;     /* index of the last line that matched, -1 none */
    uint64_t starts[NEAR_MEMO_LINES]; /* ring: absolute start of line i */
};
struct scan_near_memo {
    struct near_memo_slot slot[NEAR_MEMO_SLOTS];
};

static struct near_memo_slot *near_memo_slot(struct scan *s, const char *pattern)
{
    for (int i = 0; i < NEAR_MEMO_SLOTS; i++) {
        struct near_memo_slot *m = &s->near_memo->slot[i];
        if (m->pattern == pattern) return m;
        if (!m->pattern) {
            m->pattern = pattern;
            m->lines = 0;
            m->upto = UINT64_MAX; /* nothing read yet */
            return m;
        }
    }
    return NULL;
}

/* Read the lines [from, ls) into the memo, in order. False when they do
 * not fall into whole lines ending at ls. */
static bool near_memo_read(struct scan *s, const struct view *v, struct near_memo_slot *m,
                           size_t from, size_t ls)
{
    size_t a = from;
    while (a < ls) {
        size_t b = line_end(v, a);
        if (b >= ls || v->p[b] != '\n') return false; /* cut, or past the message */
        struct cline c;
        read_cline_body(s, v, a, b, &c);
        m->starts[m->lines % NEAR_MEMO_LINES] = v->base + a;
        if (b - a >= SCAN_LINE_MAX || msg_matches(m->pattern, c.body, c.n)) m->last_match = m->lines;
        m->lines++;
        a = b + 1;
    }
    m->upto = v->base + a;
    return a == ls;
}

/* May the walk of `before` lines above ls skip pattern: no line in its
 * window matches it? */
static bool near_memo_none(struct scan *s, const struct view *v, const char *pattern, int before,
                           size_t ls)
{
    if (!s->near_memo || before < NEAR_MEMO_MIN || before >= NEAR_MEMO_LINES) return false;
    struct near_memo_slot *m = near_memo_slot(s, pattern);
    if (!m) return false;
    uint64_t at = v->base + ls;
    if (m->upto == UINT64_MAX || m->upto < v->base || m->upto > at) {
        /* start (again) `before` lines above the message */
        size_t a = ls, b = ls;
        for (int i = 0; i < before && prev_line(v, &a, &b); i++) continue;
        if (a != 0 && v->p[a - 1] != '\n') a = line_end(v, a) + 1; /* whole lines only */
        m->lines = 0;
        m->last_match = -1;
        m->upto = v->base + a;
        if (a > ls) {
            m->upto = UINT64_MAX;
            return false;
        }
    }
    if (!near_memo_read(s, v, m, (size_t)(m->upto - v->base), ls)) {
        m->upto = UINT64_MAX;
        return false;
    }
    long first = m->lines - before; /* the window's first line */
    if (first < 0) {
        /* the memo starts inside the window: only where it starts at the view's start */
        if (m->lines == 0 ? ls != 0 : m->starts[0 % NEAR_MEMO_LINES] != v->base) return false;
        first = 0;
    } else if (m->starts[first % NEAR_MEMO_LINES] < v->base) {
        return false; /* the window reaches past the view's start: the walk reads a cut line */
    }
    return m->last_match < first;
}

static void apply_near(struct scan *s, const struct view *v, const struct msg_rule *r,
                       size_t ls, size_t le, const struct msg_prefix *src, struct oom_event *ev)
{
    for (const struct msg_near *nc = r->near; nc && nc->pattern; nc++) {
        struct cline c;
        size_t a = ls, b = ls;
        int before = near_memo_none(s, v, nc->pattern, nc->before, ls) ? 0 : nc->before;
        for (int i = 0; i < before && prev_line(v, &a, &b); i++) {
            read_cline_body(s, v, a, b, &c);
            if (!other_writer(src, &c.px) && msg_apply(nc->pattern, nc->field, c.body, c.n, ev))
                break;
        }
        a = le, b = le;
        for (int i = 0; i < nc->after && next_line(v, &a, &b); i++) {
            read_cline_body(s, v, a, b, &c);
            if (!other_writer(src, &c.px) && msg_apply(nc->pattern, nc->field, c.body, c.n, ev))
                break;
        }
    }
}

/* A Python frame header whose function quantises a model: GPTQ's
 * "fasterquant" ("H = torch.linalg.cholesky(H)" in
 * ModelCloud/GPTQModel gptqmodel/quantization/gptq.py, under
 * "model.quantize(calibration_dataset)", ModelCloud/GPTQModel#383 =
 * heldout74 h74-55; the same function in the method's own code,
 * IST-DASLab/gptq:gptq.py@9f2abd32, and in the many GPTQ ports),
 * "quantize", "quantize_model", "pseudo_quantize_tensor".
 * Quantising a model is none of the stages (the labellers'
 * quantisation-no-stage): the model math its code computes names no
 * forward. Not "dequantize": a quantised layer's forward dequantises
 * (bitsandbytes' dequantize_4bit). (open74) */
static bool quant_frame(const char *t, size_t n)
{
    const char *in = NULL;
    for (const char *p = t; (p = memmem(p, n - (size_t)(p - t), ", in ", 5)); p++) in = p + 5;
    if (!in) return false;
    size_t k = 0, rest = n - (size_t)(in - t);
    while (k < rest && (isalnum((unsigned char)in[k]) || in[k] == '_')) k++;
    for (size_t i = 0; i + 5 <= k; i++)
        if (!strncasecmp(in + i, "quant", 5) && !(i >= 2 && !strncasecmp(in + i - 2, "de", 2))) return true;
    return false;
}

struct evidence {
    unsigned bits;          /* stages named by frames */
    unsigned inner;         /* stages of the innermost frame naming more than forward */
    bool inner_last;        /* a stack printed outermost first: the last frame is innermost */
    enum oom_stage context; /* stage announced by the lines before */
    enum oom_stage tf;      /* TF node / op */
    bool frames;            /* saw a real frame line */
    bool attention;
    int rank;               /* rank named by the traceback's own prefix */
    size_t region;          /* relative start of the traceback region */
    size_t below;           /* relative start of a traceback found below the message, 0: none */
    unsigned inner_masked;  /* outermost-first: stages a frame seen masks in the frames it calls */
    unsigned outer_masked;  /* innermost-first: stages masked in the frames still to come (outer) */
    unsigned outer_seen;    /* stages some frame masks in its callers (the lines above them too) */
    unsigned data_move;     /* data moved by the innermost frame's code */
    bool data_closed;       /* innermost-first: past the innermost frame's header */
    bool code_seen;         /* the innermost code line was read */
    bool math;              /* ... and it computes model math: forward, the weakest stage */
    bool inner_frame_read;  /* the innermost frame's header was read (quant_frame) */
    bool in_forward;        /* innermost-last: a module's forward frame was seen */
    bool ctor_inner;        /* innermost-first: a constructor's frame was seen */
    bool autograd;          /* autograd's own backward frame was seen */
    bool fwd_inner;         /* innermost-first: a module's forward frame was seen */
    bool caller_forward;    /* innermost-last: the last frame header read was a module's forward */
    bool decode_pending;    /* innermost-first: a decoder step's frame waits for its caller's header */
    unsigned decode_held;   /* ... and the generate cue it (and its caller's call) held back */
    bool machinery;         /* the last frame header read was Python's process machinery */
    bool downward;          /* lines read top-down (walk_forward): a frame's header before its
                               code line; walk_back reads the code line first (review23) */
    bool foreign_above;     /* walk_back: the code line's own header, above it, is another
                               file's than torch's nn.Module (foreign_frame_above) */
    bool foreign_header;    /* walk_forward: the last header read is another file's */
    bool pair_render;       /* the frame's line read first of its pair (its code read upward,
                               its header read downward) calls a renderer / is a training
                               loop's: the other completes the pair (open38) */
    bool pair_train;
};

static void frame_bits_evidence(struct evidence *e, unsigned bits, bool attention)
{
    bits &= ~e->inner_masked;
    bits &= ~e->outer_masked;
    e->bits |= bits;
    /* Innermost specific frame: module forwards wrap everything, so a frame
     * counts when it names another stage; the one nearest the allocation
     * wins over an outer frame's (a training loop run from a constructor
     * is not a load). */
    if ((bits & ~(1u << OOM_STAGE_FORWARD)) && (!e->inner || e->inner_last)) e->inner = bits;
    if (attention) e->attention = true;
}

/* The logger's tag on a traceback's line (stage_logger_bits): an outer
 * frame's stage, under the masks, never the innermost specific one. */
static void logger_tag_evidence(struct evidence *e, const struct cline *c)
{
    if (!c->px.body) return;
    unsigned bits = stage_logger_bits(c->body - c->px.body, c->px.body);
    e->bits |= bits & ~e->inner_masked & ~e->outer_masked;
}

/* A frame that runs the frames it calls for a purpose of its own (a
 * forward-time hook moving weights, an engine's warm-up): their cues for
 * the masked stages (inner ones: seen before it innermost-first, after it
 * outermost-first) do not count. */
static void mask_inner(struct evidence *e, unsigned masked)
{
    if (e->inner_last) {
        e->inner_masked |= masked;
        return;
    }
    e->bits &= ~masked;
    if (e->inner & masked) e->inner = 0;
}

/* IPython prints the lines around the one that ran, numbered ("     61
 * kv_cache: List[torch.Tensor] = []" under "---> 64 torch.empty(...)"):
 * context, not evidence, as Rich's are (stage_unbox). */
static bool ipython_context_line(const char *body, size_t n)
{
    size_t i = 0;
    while (i < n && body[i] == ' ') i++;
    if (i < 2) return false;
    size_t d = i;
    while (i < n && isdigit((unsigned char)body[i])) i++;
    return i > d && i - d <= 5 && (i == n || body[i] == ' ');
}

/* A frame whose callers' stage does not hold inside it (stage_masks_outer:
 * an optimizer running its closure, a generation encoding its prompt): the
 * cues of the frames that call it (outer ones: after it innermost-first,
 * before it outermost-first) for the masked stages are not the stage, nor
 * are the log lines above the traceback (read_context). */
static void mask_outer(struct evidence *e, unsigned masked)
{
    e->outer_seen |= masked;
    if (!e->inner_last) {
        e->outer_masked |= masked;
        return;
    }
    e->bits &= ~masked;
    e->inner &= ~masked;
}

static unsigned call_name_bits(const char *body, size_t n)
{
    const char *open = memchr(body, '(', n);
    if (!open) return 0;
    const char *a = open;
    while (a > body && (isalnum((unsigned char)a[-1]) || a[-1] == '_')) a--;
    if (a == open) return 0;
    /* a name that says only "infer"/"forward" says nothing a code line
     * does not: the phases a name alone tells */
    return stage_name_bits(a, (size_t)(open - a)) & ~(1u << OOM_STAGE_FORWARD);
}

/* the code line's first call is a method named decode ("self.decode(",
 * "self._decode("): a decoder's step (stage_decode_step_frame) */
static bool calls_decode_step(const char *body, size_t n)
{
    const char *open = memchr(body, '(', n);
    if (!open) return false;
    const char *a = open;
    while (a > body && (isalnum((unsigned char)a[-1]) || a[-1] == '_')) a--;
    while (a < open && *a == '_') a++;
    return open - a == 6 && !memcmp(a, "decode", 6);
}

/* Python's own multiprocessing package (".../lib/python3.8/multiprocessing/
 * spawn.py", "...\\anaconda3\\lib\\multiprocessing\\spawn.py") or torch's
 * wrapper of it: the folder above is lib, pythonX.Y or torch. Not another
 * package's folder of that name ("vllm/engine/multiprocessing/engine.py"
 * runs the serving loop, heldout9 h9-25). */
static bool process_machinery_frame(const char *body, size_t n)
{
    for (const char *p = body; (p = memmem(p, n - (size_t)(p - body), "multiprocessing", 15)); p += 15) {
        size_t at = (size_t)(p - body);
        if (at < 2 || at + 15 >= n || (body[at + 15] != '/' && body[at + 15] != '\\')) continue;
        char sep = body[at - 1];
        if (sep != '/' && sep != '\\') continue;
        size_t b = at - 1;
        while (b > 0 && body[b - 1] != '/' && body[b - 1] != '\\' && body[b - 1] != '"') b--;
        size_t k = at - 1 - b;
        const char *dir = body + b;
        if ((k == 3 && !strncasecmp(dir, "lib", 3)) || (k == 5 && !memcmp(dir, "torch", 5)) ||
            (k > 6 && !memcmp(dir, "python", 6)))
            return true;
    }
    return false;
}

static void frame_evidence(struct evidence *e, const char *body, size_t n)
{
    if (ipython_context_line(body, n)) return;
    unsigned masked = stage_masks_inner(body, n + 1);
    if (masked) mask_inner(e, masked);
    unsigned outer = stage_masks_outer(body, n + 1);
    if (outer) mask_outer(e, outer);
    /* code that moves data names the stage only where it ran
     * last, in the innermost frame ("loss = compute_loss_ota(pred,
     * targets.to(device), imgs)" moved its targets, then called into the
     * loss, where the allocation failed: YOLOv7 via corpus-heldout15 h15-68).
     * Innermost-last stacks keep the moves of the latest frame; innermost-
     * first ones those read before the first frame header. */
    unsigned all = stage_frame_bits(body, n + 1), moves = stage_data_move_bits(body, n + 1);
    bool header = stage_line_kind(body, n) == STAGE_LINE_FRAME;
    if (e->inner_last) {
        if (header) e->data_move = 0;
        e->data_move |= moves;
    } else if (!e->data_closed) {
        e->data_move |= moves;
    }
    if (header) e->data_closed = true;
    /* the code line of a frame in Python's process machinery
     * (multiprocessing's spawn: "self = reduction.pickle.load(from_parent)",
     * a worker unpickling its process object as it starts) says no more of
     * the stage than its header does (stage.c frame_bits): no model load.
     * Sources: jfzhang95/pytorch-deeplab-xception#220, QianChen113/RD3D#9,
     * hulianyuyy/STGAT#3, heldout61 h61-17. (open61) */
    /* Only where the header came before its code line (walk_forward): read
     * upward, the last header read is the frame below's, and the caller's
     * code ("model = load_model(path)" over multiprocessing/pool.py's "raise
     * self._value") lost its stage (review23). */
    bool silent = !header && e->downward && e->machinery && stage_line_kind(body, n) == STAGE_LINE_CODE;
    if (header) e->machinery = process_machinery_frame(body, n);
    if (silent) all = 0;
    /* Module.to's convert statement's first line ("return t.to(") is the
     * model's move only in torch's nn.Module file, or with no header: a
     * user's helper spelling it (a tensor moved in a data or forward path)
     * moves no model (open65's row, left25) */
    if (!header && (e->downward ? e->foreign_header : e->foreign_above) && stage_convert_first_line(body, n))
        all &= ~(1u << OOM_STAGE_LOAD);
    if (header) e->foreign_header = !stage_torch_module_frame(body, n);
    e->foreign_above = false;
    /* a frame's code line calls the next frame: the called
     * function's name read by its parts as a frame's name is
     * ("self.generate_outputs(" when the next frame's header is cut) */
    if (!header && !all && !silent && stage_line_kind(body, n) == STAGE_LINE_CODE) all |= call_name_bits(body, n);
    /* a forward's code calling its decoder's step ("return
     * self.decode(self.encode(source))"): the forward's, as the step's own
     * frame is (stage_decode_step_frame) */
    if (!header && e->inner_last && e->caller_forward && calls_decode_step(body, n))
        all &= ~(1u << OOM_STAGE_GENERATE);
    /* a constructor run inside a module's forward builds part
     * of the computation, no model (stage_constructor_frame): its load cue
     * goes, whichever way the stack is read */
    if (header && stage_forward_frame(body, n + 1)) {
        if (e->inner_last) e->in_forward = true;
        else if (e->ctor_inner) mask_inner(e, 1u << OOM_STAGE_LOAD);
    } else if (header && stage_constructor_frame(body, n + 1)) {
        if (e->inner_last && e->in_forward) all &= ~(1u << OOM_STAGE_LOAD);
        else if (!e->inner_last) e->ctor_inner = true;
    }
    /* a module forward called from a routine only named for the
     * backward pass (backward_G), no autograd frame between: the forward's
     * (stage_autograd_frame) */
    const unsigned bwd = 1u << OOM_STAGE_BACKWARD;
    bool autograd = stage_autograd_frame(body, n + 1);
    /* torch's own call of a module's forward ("result =
     * self.forward(*input, **kwargs)", "return forward_call(*args,
     * **kwargs)") enters one as its "in forward" header does, and stands
     * where the headers are cut (a terminal's 80 columns) or printed
     * another way (IPython's "in Module._call_impl(self, ...)") */
    bool enters_forward = (header && stage_forward_frame(body, n + 1)) ||
                          stage_module_call_code(body, n); /* IPython's "-> 1110 return forward_call(" is a frame line */
    if (enters_forward && !e->autograd) {
        if (e->inner_last) {
            e->bits &= ~bwd;
            e->inner &= ~bwd;
        } else {
            e->fwd_inner = true;
        }
    }
    if (!e->inner_last && e->fwd_inner && !e->autograd && !autograd) all &= ~bwd;
    e->autograd |= autograd;
    /* a decoder's step called by a module's forward is that forward's
     * (teacher-forced training), no generation: the name's generate cue
     * goes (stage_decode_step_frame); a generation loop above it still
     * names generate by its own frames. Read innermost first, the step's
     * cue (and its caller's call to it) waits for the caller's header. */
    const unsigned gen = 1u << OOM_STAGE_GENERATE;
    bool step = header && stage_decode_step_frame(body, n + 1);
    if (header && e->inner_last) {
        if (e->caller_forward && step) all = (all & ~gen) | (1u << OOM_STAGE_FORWARD);
        e->caller_forward = stage_forward_frame(body, n + 1);
    } else if (!e->inner_last) {
        if (header && !step && e->decode_pending) {
            bool fwd = stage_forward_frame(body, n + 1);
            frame_bits_evidence(e, fwd ? 1u << OOM_STAGE_FORWARD : e->decode_held, false);
            e->decode_pending = false;
            e->decode_held = 0;
        }
        if (step || (e->decode_pending && !header && calls_decode_step(body, n))) {
            e->decode_pending = true;
            e->decode_held |= all & gen;
            all &= ~gen;
        }
    }
    /* a training loop's frame whose code calls a renderer runs the
     * model's forward (stage_train_loop_frame): header and code line are
     * read in either order, so the first read of the pair is kept until the
     * other comes */
    if (header) {
        bool train = stage_train_loop_frame(body, n + 1);
        if (!e->downward && train && e->pair_render) all |= 1u << OOM_STAGE_FORWARD;
        e->pair_train = e->downward && train;
        e->pair_render = false;
    } else if (stage_line_kind(body, n) == STAGE_LINE_CODE) {
        bool render = stage_render_call(body, n);
        if (e->downward && render && e->pair_train) all |= 1u << OOM_STAGE_FORWARD;
        e->pair_render = !e->downward && render;
        e->pair_train = false;
    }
    /* a frame encoding a generation's prompt runs the encoder's forward */
    if (outer & (1u << OOM_STAGE_GENERATE)) all |= 1u << OOM_STAGE_FORWARD;
    frame_bits_evidence(e, all & ~moves, stage_attention_text(body, n));
}

/* a decoder step whose caller never showed (the stack cut above it)
 * keeps its own cue */
static void decode_settle(struct evidence *e)
{
    if (e->decode_pending && e->decode_held) frame_bits_evidence(e, e->decode_held, false);
    e->decode_pending = false;
    e->decode_held = 0;
}

/* The rest of a frame's code line that a terminal or a page hard-wrapped
 * at its width: right under a code line at least WRAP_WIDTH_MIN long, a
 * shorter line that starts in its first column and is no message ("    training(
 * lp.extract(args), …, ar" over "gs.debug_from)", a 164-column wrap;
 * hzxie/DashGaussian's issue = heldout37 h37-100). Read downward, it would
 * end the traceback before the frames under it. (open38) */
#define WRAP_WIDTH_MIN 79

static bool wrapped_code_rest(enum stage_line prev, size_t prev_n, int gap, const struct cline *c)
{
    return prev == STAGE_LINE_CODE && prev_n >= WRAP_WIDTH_MIN && gap == 0 && c->kind == STAGE_LINE_OTHER &&
           c->n > 0 && c->n < prev_n && c->body[0] != ' ' && c->body[0] != '\t' &&
           !stage_message_line(c->body, c->n);
}

/* A traceback flattened onto its header line (a paste that lost its line
 * breaks: "Traceback (most recent call last): File \"x.py\", line 128, in
 * f code File \"y.py\", ..."): each "File \"" segment is a frame with its
 * code, read innermost first when the walk wants it so. */
#define FLAT_FRAMES_MAX 64
static void flat_frames(struct evidence *e, const char *body, size_t n)
{
    const char *h = memmem(body, n, "call last):", 11), *end = body + n;
    if (!h) return;
    const char *seg[FLAT_FRAMES_MAX];
    size_t count = 0;
    for (const char *q = memmem(h, (size_t)(end - h), "File \"", 6); q && count < FLAT_FRAMES_MAX;
         q = memmem(q + 6, (size_t)(end - q - 6), "File \"", 6))
        seg[count++] = q;
    for (size_t k = 0; k < count; k++) {
        size_t i = e->inner_last ? k : count - 1 - k;
        const char *b = i + 1 < count ? seg[i + 1] : end;
        char buf[1024];
        size_t m = (size_t)(b - seg[i]) < sizeof buf - 1 ? (size_t)(b - seg[i]) : sizeof buf - 1;
        memcpy(buf, seg[i], m);
        buf[m] = '\n';
        frame_evidence(e, buf, m);
        e->frames = true;
    }
}

/* A peek at a line other than the one the walk holds: read as read_cline
 * reads it, but into buf (CTX_MAX + 2 bytes; s->ctx points at buf for the
 * read, then back), so the walk's line in s->ctx stays as it was and needs
 * no re-read. */
static void peek_cline(struct scan *s, const struct view *v, size_t a, size_t b, struct cline *c, char *buf)
{
    char *kept = s->ctx;
    s->ctx = buf;
    read_cline(s, v, a, b, c);
    s->ctx = kept;
}

/* A code line pasted without its indentation (GitHub markdown) reads as
 * plain text; right under a frame header it is that frame's code. So does
 * a code line under a log prefix (the prefix parse takes its indentation);
 * a viewer that prints a blank line after each such line (Docker, s6,
 * journald, frigate#8246 = h49-39) puts up to `blanks` of them between it
 * and its frame. Peeks at the lines above the one at [a, b)
 * (peek_cline: s->ctx kept). */
static bool under_frame(struct scan *s, const struct view *v, size_t a, const struct msg_prefix *src,
                        int blanks)
{
    size_t pa = a, pb = a;
    struct cline up;
    char own[CTX_MAX + 2];
    do {
        if (!prev_line(v, &pa, &pb)) return false;
        peek_cline(s, v, pa, pb, &up, own);
    } while (up.kind == STAGE_LINE_BLANK && blanks-- > 0);
    return !other_writer(src, &up.px) && up.kind == STAGE_LINE_FRAME;
}

/* The line right above a is another module's frame header than torch's
 * nn.Module file: a user's helper whose statement begins as Module.to's
 * convert does ("return t.to(", stage_convert_first_line). Peeks
 * (peek_cline: s->ctx kept). */
static bool foreign_frame_above(struct scan *s, const struct view *v, size_t a, const struct msg_prefix *src)
{
    size_t pa = a, pb = a;
    if (!prev_line(v, &pa, &pb)) return false;
    char own[CTX_MAX + 2];
    struct cline up;
    peek_cline(s, v, pa, pb, &up, own);
    return !other_writer(src, &up.px) && up.kind == STAGE_LINE_FRAME && !stage_torch_module_frame(up.body, up.n);
}

/* What the text glued in front of a traceback header says ("[>>>>  ] 308/3079,
 * 31.0 task/s, elapsed: 10s, ETA: 89sTraceback (most recent call last):",
 * "start transcribe processTraceback ..."): the last log line before the
 * traceback, printed without its newline. */
static enum oom_stage header_glued_context(const char *body, size_t n)
{
    const char *h = memmem(body, n, "Traceback (", 11);
    return h && h > body ? stage_context_line(body, (size_t)(h - body)) : OOM_STAGE_UNKNOWN;
}

/* The length of s[0, n) without its trailing blanks and CR. */
static size_t trim_end(const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r')) n--;
    return n;
}

/* A rule of dashes: a trimmed line of 8 or more '-' and nothing else. */
static bool dash_rule(const char *s, size_t n)
{
    size_t d = 0;
    while (d < n && s[d] == '-') d++;
    return n >= 8 && d == n;
}

/* a line of a multi-line exception text above its last line:
 * the exception's first line, or a line ending in ':' that reads as a
 * sentence (no code, no box). */
static bool message_part(const char *s, size_t n)
{
    n = trim_end(s, n);
    if (n < 8 || s[n - 1] != ':') return false;
    if (stage_message_line(s, n)) return true;
    return memmem(s, n, "rror", 4) && !memchr(s, '=', n) && !memchr(s, '(', n) && !stage_box_line(s, n);
}

/* a Rich box line holding the rest of a wrapped frame header,
 * "│ in __init__" (the path and line number on the box line above). */
static bool box_in_line(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] == ' ') i++;
    if (i == n || (unsigned char)s[i] < 0x80) return false;
    while (i < n && (unsigned char)s[i] >= 0x80) i++;
    while (i < n && s[i] == ' ') i++;
    return n - i > 3 && !memcmp(s + i, "in ", 3) && (isalpha((unsigned char)s[i + 3]) || s[i + 3] == '_');
}

/* Python 3.11's marker line under a frame's code ("   ^^^^^^^^",
 * "~~~~^^^"): no code, so not the frame's code line. */
static bool caret_line(const char *s, size_t n)
{
    bool mark = false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '^' || s[i] == '~') mark = true;
        else if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n') return false;
    }
    return mark;
}

/* a terminal that hard-wraps at a fixed width cuts every long line
 * at the same column, the message's first line among them: a line at column 0
 * under a traceback line exactly as long as the message's first line is that
 * line's rest ("[rank1]:     return Variable._execution_engine.run_backward(  #
 * Calls into the C++ engine to run th" / "e backward pass", 99 columns each,
 * axolotl-ai-cloud/axolotl#1813 = h34-02), not a log line that ends the
 * traceback. Peeks at the line above [a, b) (peek_cline: s->ctx kept). */
#define WRAP_MIN_WIDTH 60
static bool wrapped_rest(struct scan *s, const struct view *v, size_t a, size_t ls,
                         const struct msg_prefix *src)
{
    size_t width = line_end(v, ls) - ls, pa = a, pb = a;
    if (width < WRAP_MIN_WIDTH || !prev_line(v, &pa, &pb) || pb - pa != width) return false;
    struct cline up;
    char own[CTX_MAX + 2];
    peek_cline(s, v, pa, pb, &up, own);
    return !other_writer(src, &up.px) && (up.kind == STAGE_LINE_CODE || up.kind == STAGE_LINE_FRAME);
}

/* Paddle 2.x prints one error as its Python
 * traceback, the exception's class line ("MemoryError: "), then, between
 * rules of dashes, its "C++ Traceback (most recent call last):" frames (with
 * FLAGS_call_stack_level=2) and an "Error Message Summary:" whose class line
 * ("ResourceExhaustedError: ") heads the message (PaddlePaddle/Paddle:
 * paddle/fluid/platform/enforce.h, GetCurrentTraceBackString and
 * SimplifyErrorTypeFormat). The walk up from the message passes over the
 * summary and the C++ half to the Python frames. */
static bool paddle_summary_line(const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t')) s++, n--;
    return (n >= 22 && memcmp(s, "Error Message Summary:", 22) == 0) ||
           (n >= 38 && memcmp(s, "C++ Traceback (most recent call last):", 38) == 0);
}

/* The line above [a, ...) is a rule of dashes (Paddle's, under "Error
 * Message Summary:"), blank lines skipped. */
static bool rule_above(const struct view *v, size_t a)
{
    size_t b = a;
    for (int i = 0; i < 3 && prev_line(v, &a, &b); i++) {
        size_t n = trim_end(v->p + a, b - a);
        if (!n) continue;
        return dash_rule(v->p + a, n);
    }
    return false;
}

/* OpenVINO nests each rethrow's location above the
 * message it wraps, "Exception from src/inference/src/cpp/core.cpp:107:",
 * "Check 'false' failed at src/plugins/intel_gpu/.../ocl_engine.cpp:161:"
 * (openvinotoolkit/openvino:src/core/src/except.cpp@0044167a
 * Exception::make_what), the outermost after the Python class
 * ("RuntimeError: Exception from ..."): lines of the message, between it
 * and the frames. */
static bool openvino_location_line(const char *s, size_t n)
{
    n = trim_end(s, n);
    if (n < 16 || s[n - 1] != ':') return false;
    const char *colon = memmem(s, n, "Error: ", 7);
    if (colon) n -= (size_t)(colon + 7 - s), s = colon + 7;
    return (n > 15 && memcmp(s, "Exception from ", 15) == 0) ||
           (n > 7 && memcmp(s, "Check '", 7) == 0 && memmem(s, n, "' failed at ", 12));
}

/* Paddle raises its ResourceExhaustedError as
 * Python's MemoryError (PaddlePaddle/Paddle:paddle/fluid/pybind/
 * exception.cc@2618b1a4 BindException), whose text, the enforce message,
 * starts on a new line: "MemoryError: " alone, then under a rule of dashes
 * the "C++ Traceback (most recent call last):" or "Error Message Summary:"
 * that tells the failure, on the GPU or the host. The class line is that
 * failure's head, no host failure of its own: the summary's event is it. */
static bool paddle_class_head(struct scan *s, const struct view *v, const char *line, size_t n, size_t le)
{
    n = trim_end(line, n);
    if (n < 12 || memcmp(line + n - 12, "MemoryError:", 12) != 0) return false;
    size_t a = le, b = le;
    bool rule = false;
    for (int i = 0; i < 4 && next_line(v, &a, &b); i++) {
        struct cline c;
        read_cline(s, v, a, b, &c);
        size_t m = trim_end(c.body, c.n);
        if (!m) continue;
        if (!rule && dash_rule(c.body, m)) {
            rule = true;
            continue;
        }
        return rule && paddle_summary_line(c.body, c.n);
    }
    return false;
}

/* Python's MemoryError by its class alone: IPython's header "MemoryError
 * <blanks> Traceback (most recent call last)" over frames whose message the
 * paste cut, or a bare "MemoryError" / "MemoryError:" line. */
static bool memory_error_class_only(const char *line, size_t n)
{
    struct msg_prefix px;
    msg_prefix_parse(line, n, &px);
    const char *b = line + px.body;
    n = trim_end(b, n - px.body);
    while (n && (*b == ' ' || *b == '\t')) b++, n--;
    if (n < 11 || memcmp(b, "MemoryError", 11) != 0) return false;
    b += 11, n -= 11;
    if (n == 0 || (n == 1 && *b == ':')) return true;
    size_t k = 0;
    while (k < n && (b[k] == ' ' || b[k] == '\t')) k++;
    return k > 0 && n - k == 33 && memcmp(b + k, "Traceback (most recent call last)", 33) == 0;
}

/* The GPU data-science libraries whose C++ allocator failures Cython turns
 * into Python's MemoryError: RMM's rmm::bad_alloc and rmm::out_of_memory
 * derive from std::bad_alloc, which Cython's "except +" raises as
 * MemoryError ("MemoryError: std::bad_alloc: out_of_memory: CUDA error at:
 * .../rmm/mr/device/cuda_memory_resource.hpp:70: cudaErrorMemoryAllocation
 * out of memory" from cuml/svm/svc.pyx, NVIDIA/cuml#4898; the same from
 * cuML's SVR, NVIDIA/cuml#3356, titled "[QST]MemoryError"). A directory of
 * one of them on a frame near the class (or the conda environment RAPIDS's
 * install selector names, envs/rapids-YY.MM) says whose MemoryError it
 * is; only on a frame line (gpu_library_frame). (callmiss) */
static const char *const gpu_memerror_dirs[] = {"cudf/", "cuml/", "cugraph/", "rmm/", "dask_cudf/",
    "nvtabular/", "cuspatial/", "cuvs/", "pylibraft/", "raft/", "cucim/", "envs/rapids-", NULL};

#define GPU_MEMERROR_LINES 40 /* lines either side of the class read for a frame */

/* the frame line a..b holds a directory of gpu_memerror_dirs at a path
 * part's start: a link in the writer's prose ("github.com/rapidsai/cudf/
 * issues/6746" above a pandas MemoryError) is no frame (review21) */
static bool gpu_library_frame(const struct view *v, size_t a, size_t b)
{
    const char *t = v->p + a;
    size_t n = b - a;
    if (stage_line_kind(t, n) != STAGE_LINE_FRAME) return false;
    for (size_t k = 0; gpu_memerror_dirs[k]; k++) {
        size_t dl = strlen(gpu_memerror_dirs[k]);
        for (size_t at = 0; at < n;) {
            const char *p = memmem(t + at, n - at, gpu_memerror_dirs[k], dl);
            if (!p) break;
            size_t i = (size_t)(p - t);
            if (i == 0 || !(isalnum((unsigned char)t[i - 1]) || t[i - 1] == '_')) return true;
            at = i + 1;
        }
    }
    return false;
}

static bool gpu_library_near(const struct view *v, size_t ls, size_t le)
{
    size_t a = ls, b = le;
    for (int i = 0; i < GPU_MEMERROR_LINES && prev_line(v, &a, &b); i++)
        if (gpu_library_frame(v, a, b)) return true;
    a = ls, b = le;
    for (int i = 0; i < GPU_MEMERROR_LINES && next_line(v, &a, &b); i++)
        if (gpu_library_frame(v, a, b)) return true;
    return false;
}

/* Walk up from the message: the traceback it ends, then a few log lines. */
static bool other_post(const struct view *v, size_t a, size_t b);

static void walk_back(struct scan *s, const struct view *v, size_t ls,
                      const struct msg_prefix *src, struct evidence *e)
{
    size_t a = ls, b = ls;
    int lines = 0, blanks = 0, ctx_lines = 0;
    bool bare_bar = false; /* a running bar with no description lies between */
    bool in_tb = true, paddle = false;
    char lower[512]; /* the Rich frame header line below this one */
    size_t lower_n = 0;
    char name[128]; /* a Rich box line below holding one name only */
    size_t name_n = 0;
    e->region = ls;
    while (lines++ < WALK_LINES && ls - a < WALK_BYTES && prev_line(v, &a, &b)) {
        struct cline c;
        read_cline(s, v, a, b, &c);
        if (other_writer(src, &c.px)) continue;
        /* a thread's post header right above: the message is a reply's
         * (a quote of "MPS backend out of memory..." under "LeF0URBE ·
         * comment"), the lines above it another person's words ("the
         * images I am generating", heldout55 h55-34). (open55) */
        if (other_post(v, a, b)) break;
        /* the JVM prints a stack under its own exception: frames
         * above this message are another exception's (the wrapper above a
         * "Caused by:"), and the lines above them older still; A1111's
         * sysinfo record lists its frames under its exception too: frame
         * strings above this message are another record's */
        if (c.jvm || c.json) break;
        if (in_tb) {
            /* A logger prefixes only a message's first line ("rank: 3 | ...
             * Traceback"): the traceback's rank is the error's. */
            if (e->rank < 0 && c.px.rank >= 0) e->rank = c.px.rank;
            if (paddle_summary_line(c.body, c.n)) {
                paddle = true;
                blanks = 0;
                continue;
            }
            if (!e->frames && openvino_location_line(c.body, c.n)) {
                blanks = 0;
                continue;
            }
            if (c.kind == STAGE_LINE_HEADER) {
                e->region = a;
                in_tb = false;
                if (e->context == OOM_STAGE_UNKNOWN) e->context = header_glued_context(c.body, c.n);
                flat_frames(e, c.body, c.n);
                continue;
            }
            /* Unindented code a blank line above the frames is the user's
             * own snippet ("state_dict = torch.load(...)" pasted first),
             * not a frame of this traceback. */
            bool snippet = c.kind == STAGE_LINE_CODE && blanks > 0 && e->frames && c.n > 0 &&
                           c.body[0] != ' ' && c.body[0] != '\t' && !stage_box_line(c.body, c.n);
            if ((c.kind == STAGE_LINE_FRAME || c.kind == STAGE_LINE_CODE) && !snippet) {
                /* the failing frame's own code line, by what it computes */
                if (c.kind == STAGE_LINE_CODE && !e->code_seen && !stage_box_line(c.body, c.n) &&
                    !caret_line(c.body, c.n)) {
                    e->code_seen = true;
                    e->math = stage_model_math(c.body, c.n);
                }
                /* the failing frame quantises: its math is no forward */
                if (c.kind == STAGE_LINE_FRAME && !e->inner_frame_read) {
                    e->inner_frame_read = true;
                    if (e->math && quant_frame(c.body, c.n)) e->math = false;
                }
                if (c.kind == STAGE_LINE_FRAME) e->code_seen = true;
                e->frames |= c.kind == STAGE_LINE_FRAME;
                if (c.kind == STAGE_LINE_CODE && stage_convert_first_line(c.body, c.n))
                    e->foreign_above = foreign_frame_above(s, v, a, src);
                frame_evidence(e, c.body, c.n);
                logger_tag_evidence(e, &c);
                if (lower_n) frame_bits_evidence(e, stage_box_join_bits(c.body, c.n, lower, lower_n), false);
                lower_n = 0;
                /* Rich wrapped the header after its "in" ("…/modeling_chatglm.py:202
                 * in" over "│ forward │", unboxed to "…:202, in"): the name below completes it */
                if (name_n && c.kind == STAGE_LINE_FRAME && c.n >= 4 && memcmp(c.body + c.n - 4, ", in", 4) == 0) {
                    char joined[1024];
                    if (c.n + name_n + 2 <= sizeof joined) {
                        memcpy(joined, c.body, c.n);
                        joined[c.n] = ' ';
                        memcpy(joined + c.n + 1, name, name_n);
                        joined[c.n + 1 + name_n] = '\n';
                        frame_bits_evidence(e, stage_frame_bits(joined, c.n + name_n + 2), false);
                    }
                }
                const char *word;
                size_t wn = c.kind == STAGE_LINE_CODE ? stage_box_word(c.body, c.n, &word) : 0;
                name_n = wn && wn < sizeof name ? wn : 0;
                if (name_n) memcpy(name, word, name_n);
                if (c.kind == STAGE_LINE_FRAME && stage_box_line(c.body, c.n) && c.n < sizeof lower) {
                    memcpy(lower, c.body, c.n);
                    lower_n = c.n;
                }
                e->region = a;
                blanks = 0;
                continue;
            }
            lower_n = 0;
            name_n = 0;
            if (c.kind == STAGE_LINE_BLANK) {
                if (++blanks > WALK_BLANKS) in_tb = false;
                continue;
            }
            /* Paddle's class lines: the summary's, under its rule, and the
             * Python exception's above the C++ half */
            if (stage_message_line(c.body, c.n) && (paddle || (!e->frames && rule_above(v, a)))) {
                paddle = !paddle;
                continue;
            }
            /* The message's own first line ("RuntimeError: .../indice_cuda.cu
             * 124" above "cuda execution failed with error 2"): the frames
             * lead to it. Only right above the message. */
            /* not a tool's log line that names a stage, shaped
             * like one ("llama_kv_cache_init:      CUDA0 KV buffer size =
             * 16384.00 MiB" over llama.cpp's failed cudaMalloc; "INFO:
             * 127.0.0.1:51234 - \"POST /v1/chat/completions HTTP/1.1\"") */
            if (lines == 1 && stage_message_line(c.body, c.n) && stage_context_line(c.body, c.n) == OOM_STAGE_UNKNOWN)
                continue;
            /* ... or its class name alone on the line above its text
             * ("RuntimeError" over "CUDA Runtime Error: an illegal memory access") */
            if (lines == 1 && stage_exception_name(c.body, c.n)) continue;
            /* ... or its lines that the exception's text continues
             * over, each ending in ':' ("RuntimeError: Critical error in
             * pipeline:" / "Error when executing Mixed operator ImageDecoder
             * encountered:" / "CUDA allocation failed", NVIDIA DALI); not a
             * line that names a stage ("Error occurred when executing SUPIR_sample:") */
            if (lines <= 3 && !e->frames && !e->code_seen && message_part(c.body, c.n) &&
                stage_context_line(c.body, c.n) == OOM_STAGE_UNKNOWN)
                continue;
            if (!snippet && !stage_message_line(c.body, c.n)) {
                unsigned bits = stage_frame_bits(c.body, c.n + 1);
                bool att = stage_attention_text(c.body, c.n);
                bool convert = stage_convert_first_line(c.body, c.n);
                /* right above the message, a line shaped like
                 * code that names a frame cue is the failing frame's code
                 * line, its header lost ("training, momentum, eps,
                 * torch.backends.cudnn.enabled"). */
                /* a quoted code line right above the message, by what it computes */
                if (lines == 1 && !e->code_seen && stage_code_shaped(c.body, c.n)) {
                    e->code_seen = true;
                    e->math = stage_model_math(c.body, c.n);
                }
                bool joined = (lines == 1 && bits && stage_code_shaped(c.body, c.n)) ||
                              under_frame(s, v, a, src, c.px.body > 0 ? WALK_BLANKS : 0);
                if (!joined && wrapped_rest(s, v, a, ls, src)) joined = true;
                /* Module.to's convert line under a user's own frame:
                 * that helper's, not the model's move (open65's row) */
                if (joined && convert && foreign_frame_above(s, v, a, src)) bits &= ~(1u << OOM_STAGE_LOAD);
                if (joined) {
                    unsigned moves = stage_data_move_bits(c.body, c.n + 1);
                    if (!e->data_closed) e->data_move |= moves;
                    frame_bits_evidence(e, bits & ~moves, att);
                    e->region = a;
                    blanks = 0;
                    continue;
                }
            }
            in_tb = false;
        }
        if (c.kind == STAGE_LINE_BLANK) continue;
        if (c.kind == STAGE_LINE_HEADER) break;
        /* a full progress bar counted an action that is over:
         * what failed came after it, and lines further up are older still */
        /* ... unless the bar counted generation (A1111's
         * "Total progress: 100%|"): its output is decoded and saved next,
         * and the corpus labels a failure after a completed sampling bar
         * generate (heldout33 h33-40) */
        if (stage_bar_finished(c.body, c.n)) {
            if (e->context == OOM_STAGE_UNKNOWN && stage_context_line(c.body, c.n) == OOM_STAGE_GENERATE)
                e->context = OOM_STAGE_GENERATE;
            break;
        }
        /* a trainer's training line: what is above it is over */
        if (stage_training_line(c.body, c.n)) break;
        /* ... as it is above a phase the tool says is over ("eval
         * completed in 0.30s", stage_phase_over) */
        if (stage_phase_over(c.body, c.n)) break;
        /* a load line above a bare running bar tells what
         * loaded before the loop, not the loop (stage_past_bare_bar) */
        if (e->context == OOM_STAGE_UNKNOWN) {
            enum oom_stage st = stage_context_line(c.body, c.n);
            if (stage_past_bare_bar(bare_bar, c.body, c.n, &st))
                break; /* older lines tell still less about the loop */
            e->context = st;
        }
        bare_bar |= stage_bar_bare(c.body, c.n);
        if (!stage_banner_detail(c.body, c.n) && ++ctx_lines >= 3) break;
    }
}

/* Julia prints its stack under the message, after a
 * "Stacktrace:" line a few lines down (CUDA.jl's pool usage lines
 * between), innermost first: the innermost frame that names a stage
 * (stage_julia_frame, its "@ Module path" line joined) gives it. */
#define JULIA_HEAD_REACH 6
#define JULIA_FRAMES_MAX 64
static enum oom_stage julia_stack(struct scan *s, const struct view *v, size_t le, const struct msg_prefix *src)
{
    size_t a = le, b = le;
    int lines = 0, read = 0;
    bool started = false;
    while (read++ < WALK_LINES && next_line(v, &a, &b)) {
        struct cline c;
        read_cline(s, v, a, b, &c);
        if (other_writer(src, &c.px)) continue;
        enum oom_stage st;
        if (!started) {
            size_t n = trim_end(c.body, c.n);
            started = n == 11 && memcmp(c.body, "Stacktrace:", 11) == 0;
            /* or its first frame, the header cut by the paste
             * ("[35] back_(::Flux.Tracker.Call{...}) at .../back.jl:35" under
             * a title, heldout32 h32-85): a frame that names its Julia file */
            bool frame = !started && memmem(c.body, c.n, ".jl:", 4) && stage_julia_frame(c.body, c.n, &st);
            if (!started && !frame && ++lines > JULIA_HEAD_REACH) return OOM_STAGE_UNKNOWN;
            lines = started || frame ? 0 : lines;
            started = started || frame;
            if (!frame) continue;
        }
        char frame[1024];
        size_t fn = c.n < sizeof frame / 2 ? c.n : sizeof frame / 2;
        memcpy(frame, c.body, fn);
        if (!stage_julia_frame(frame, fn, &st)) {
            size_t i = 0;
            while (i < c.n && c.body[i] == ' ') i++;
            if (i < c.n && c.body[i] == '@') continue; /* the frame's module line */
            return OOM_STAGE_UNKNOWN;
        }
        size_t pa = a, pb = b;
        if (next_line(v, &pa, &pb)) { /* 1.6+: "    @ Module path:line" under the frame */
            struct cline m;
            read_cline(s, v, pa, pb, &m);
            size_t i = 0;
            while (i < m.n && m.body[i] == ' ') i++;
            if (i < m.n && m.body[i] == '@' && fn + 1 + m.n - i < sizeof frame) {
                frame[fn] = ' ';
                memcpy(frame + fn + 1, m.body + i, m.n - i);
                stage_julia_frame(frame, fn + 1 + m.n - i, &st);
            }
        }
        if (st != OOM_STAGE_UNKNOWN) return st;
        if (++lines > JULIA_FRAMES_MAX) break;
    }
    return OOM_STAGE_UNKNOWN;
}

/* When no frames lead to the message, the stack may follow it: a Python
 * traceback printed after (interleaved output), a glog or Lua stack. */
static void walk_forward(struct scan *s, const struct view *v, size_t le,
                         const struct msg_prefix *src, bool msg_is_header, int reach,
                         struct evidence *e)
{
    size_t a = le, b = le;
    int lines = 0, before = 0, gap = 0; /* gap: blank lines since the last other one, prev */
    enum stage_line prev = STAGE_LINE_BLANK;
    size_t prev_n = 0; /* the length of the line prev is */
    char upper[512]; /* a Rich box line above this one */
    size_t upper_n = 0;
    /* IPython prints the exception class on the header line itself
     * ("OutOfMemoryError    Traceback (most recent call last)"). */
    bool started = msg_is_header;
    e->inner_last = msg_is_header;
    e->downward = true;
    e->machinery = false; /* a header read upward says nothing of these lines */
    while (lines++ < WALK_LINES && b - le < WALK_BYTES && next_line(v, &a, &b)) {
        struct cline c;
        read_cline(s, v, a, b, &c);
        if (other_writer(src, &c.px)) continue;
        /* the next A1111 sysinfo record: its frames are another exception's */
        if (stage_json_record_head(c.body, c.n)) break;
        /* Keras' evaluation function named under the node
         * ("[Op:__inference_test_function_N]") encloses that node's forward */
        if ((lines <= 3 || !started) && (e->tf == OOM_STAGE_UNKNOWN || e->tf == OOM_STAGE_FORWARD)) {
            enum oom_stage st = stage_tf(c.body, c.n);
            if (e->tf == OOM_STAGE_UNKNOWN || st == OOM_STAGE_EVAL) e->tf = st;
        }
        if (!started) {
            if (c.kind == STAGE_LINE_HEADER) {
                started = true;
                e->below = a;
                /* Python prints the innermost frame last; glog, Lua and c10
                 * stacks ("most recent call first") print it first. */
                e->inner_last = memmem(c.body, c.n, "most recent call last", 21) != NULL;
                flat_frames(e, c.body, c.n);
                continue;
            }
            /* A paste that puts the error first and its frames below,
             * without the header ("~/x/adam.py in _resource_apply_sparse(...)"). */
            /* a Rich box whose header wrapped before "in" ("│ /x/engine.py:330"
             * above "│ in __init__"): the frames start here, their header cut */
            bool wrapped = upper_n && c.kind == STAGE_LINE_CODE && box_in_line(c.body, c.n) &&
                           stage_box_join_bits(upper, upper_n, c.body, c.n);
            if (c.kind != STAGE_LINE_FRAME && !wrapped) {
                upper_n = 0;
                if (stage_box_line(c.body, c.n) && c.n < sizeof upper) {
                    memcpy(upper, c.body, c.n); /* maybe a wrapped frame header's start */
                    upper_n = c.n;
                }
                if (++before > reach) break;
                continue;
            }
            started = true;
            /* a JVM prints its frames innermost first, with no header */
            e->inner_last = !c.jvm;
            e->below = a;
        }
        if (c.kind == STAGE_LINE_FRAME || c.kind == STAGE_LINE_CODE ||
            /* an unindented code line under its frame header */
            /* (blank lines between under a log prefix: under_frame) */
            (prev == STAGE_LINE_FRAME && c.kind == STAGE_LINE_OTHER && !stage_message_line(c.body, c.n) &&
             (gap == 0 || (c.px.body > 0 && gap <= WALK_BLANKS)))) {
            /* the innermost frame's code line (the last one printed
             * innermost last, else the first), by what it computes */
            if (c.kind != STAGE_LINE_FRAME && !stage_box_line(c.body, c.n) && !caret_line(c.body, c.n) &&
                (e->inner_last || !e->code_seen)) {
                e->code_seen = true;
                e->math = stage_model_math(c.body, c.n);
            }
            e->frames |= c.kind == STAGE_LINE_FRAME;
            frame_evidence(e, c.body, c.n);
            logger_tag_evidence(e, &c);
            if (upper_n && (c.kind == STAGE_LINE_FRAME || (c.kind == STAGE_LINE_CODE && box_in_line(c.body, c.n))))
                frame_bits_evidence(e, stage_box_join_bits(upper, upper_n, c.body, c.n), false);
            upper_n = 0;
            if (c.kind == STAGE_LINE_CODE && stage_box_line(c.body, c.n) && c.n < sizeof upper) {
                memcpy(upper, c.body, c.n); /* maybe a wrapped frame header's start */
                upper_n = c.n;
            }
        } else if (wrapped_code_rest(prev, prev_n, gap, &c)) {
            /* the rest of a code line a terminal hard-wrapped: the frames
             * go on below it */
        } else if (c.kind != STAGE_LINE_BLANK) {
            break;
        }
        gap = c.kind == STAGE_LINE_BLANK ? gap + 1 : 0;
        if (c.kind != STAGE_LINE_BLANK) prev = c.kind, prev_n = c.n;
    }
}

/* A progress bar of loading, data preparation, evaluation or generation
 * ("Loading checkpoint shards: 40%| 12/30") counts something other than
 * training steps. */
static bool progress_of_other_work(const char *line, size_t n)
{
    enum oom_stage st = stage_context_line(line, n < CTX_MAX ? n : CTX_MAX);
    return st == OOM_STAGE_LOAD || st == OOM_STAGE_DATA || st == OOM_STAGE_EVAL ||
           st == OOM_STAGE_GENERATE;
}

/* A web UI's progress line: "Running… 128 / 7296 … 1.10 s/it" (the
 * text-generation-webui training tab); -1 when the line is not one. */
static long ui_progress_step(const char *p, size_t n)
{
    const char *r = memmem(p, n, "Running", 7);
    if (!r) return -1;
    size_t i = (size_t)(r - p) + 7, lim = i + 8 < n ? i + 8 : n;
    while (i < lim && !(p[i] >= '0' && p[i] <= '9')) i++;
    long step = 0;
    size_t d0 = i;
    while (i < n && p[i] >= '0' && p[i] <= '9' && step < 100000000) step = step * 10 + (p[i++] - '0');
    if (i == d0) return -1;
    while (i < n && p[i] == ' ') i++;
    if (i >= n || p[i] != '/') return -1;
    i++;
    while (i < n && p[i] == ' ') i++;
    return i < n && p[i] >= '0' && p[i] <= '9' ? step : -1;
}

/* A summary figure names a step without being one: "Best iteration: 17000"
 * (XGBoost, LightGBM, CatBoost print it when they stop or restore), "Total
 * optimization steps = 1200", "max_steps". A qualifier word right before the
 * step word marks it. */
static bool summary_step_line(const char *p, size_t n)
{
    static const char *const qual[] = {"best", "total", "max", "num", "optimization"};
    for (size_t i = 0; i + 4 < n; i++) {
        if (i > 0 && (isalnum((unsigned char)p[i - 1]) || p[i - 1] == '_')) continue;
        for (size_t q = 0; q < sizeof qual / sizeof qual[0]; q++) {
            size_t k = strlen(qual[q]);
            if (n - i <= k + 1 || strncasecmp(p + i, qual[q], k) != 0) continue;
            size_t j = i + k;
            if (p[j] != ' ' && p[j] != '_') continue;
            j++;
            if (n - j >= 4 && (strncasecmp(p + j, "step", 4) == 0 || strncasecmp(p + j, "iter", 4) == 0))
                return true;
        }
    }
    return false;
}

/* The training step one line states, or -1: progress of other work and
 * summary figures are no steps. */
static long line_step(const char *p, size_t n)
{
    struct steps_point pt;
    size_t m = n < CTX_MAX ? n : CTX_MAX;
    if ((steps_parse_line(p, n, &pt) & STEPS_STEP) && pt.step >= 0 && !progress_of_other_work(p, n) &&
        !summary_step_line(p, m))
        return pt.step;
    return ui_progress_step(p, m);
}

static long find_step(struct scan *s, const struct view *v, size_t from)
{
    uint64_t abs_from = v->base + from;
    long result = -1;
    size_t a = from, b = from;
    for (int lines = 0; lines < STEP_LINES && from - a < STEP_BYTES; lines++) {
        if (s->step_valid && v->base + a <= s->step_pos) {
            result = s->step_value;
            break;
        }
        if (!prev_line(v, &a, &b)) break;
        result = line_step(v->p + a, b - a);
        if (result >= 0) break;
    }
    s->step_pos = abs_from;
    s->step_value = result;
    s->step_valid = true;
    return result;
}

/* A message that nothing leads to (an issue title, the error pasted
 * first): the last step logged in the lines after it, up to the traceback
 * that follows (upto, relative) or, with none, up to the first traceback
 * header within reach lines. The step cache is for messages in file order
 * and stays untouched. */
static long step_below(const struct view *v, size_t le, size_t upto, int reach)
{
    long result = -1;
    size_t a = le, b = le;
    for (int i = 0; i < reach && next_line(v, &a, &b); i++) {
        if (upto ? a >= upto : stage_line_is_header(v->p + a, b - a)) {
            /* a progress bar glued to the header: "19%|█▉ | 3237/16700 [3:34:12<38:35:22,
             * 10.32s/it]Traceback (most recent call last):" */
            const char *h = memmem(v->p + a, b - a, "Traceback (", 11);
            long st = h && h > v->p + a ? line_step(v->p + a, (size_t)(h - (v->p + a))) : -1;
            if (st >= 0) result = st;
            break;
        }
        long st = line_step(v->p + a, b - a);
        if (st >= 0) result = st;
    }
    return result;
}

/* Is the line at a the paste's second line with text, its first (the
 * title) above it with only blank lines between? */
static bool under_title(const struct view *v, size_t a)
{
    if (v->base != 0) return false;
    size_t pa = a, pb = a;
    while (prev_line(v, &pa, &pb)) {
        size_t t = pa;
        while (t < pb && (v->p[t] == ' ' || v->p[t] == '\t' || v->p[t] == '\r')) t++;
        if (t < pb) return pa == 0;
    }
    return false;
}

/* Does the line [a, b) start another writer's post? A thread's post header
 * (activity_post_header: "user · comment · date", "[turn N by user]")
 * below which a reply begins; not the header right under the paste's title,
 * whose post is the report's own body (a title, then "user · comment ·
 * date" over the log, h27-12). The one rule the stage walks over a paste's
 * lines (after_stage, chained_stage, context_walk both ways, tail_walk) stop
 * at: the lines past it are another person's words. The prose pass's
 * look-ahead stops at any header (below_read says why); its own lines do
 * not stop at a reply: the seen labels count a GPU OOM a later post names
 * (stopping there lost 11 call rows). */
static bool other_post(const struct view *v, size_t a, size_t b)
{
    return activity_post_header(v->p + a, b - a) && !under_title(v, a);
}

/* What the lines after the message say the program was doing: a serving
 * router re-logging it in a prefill/decode span, a web UI's "Output
 * generated in", "error loading model". */
static enum oom_stage after_stage(struct scan *s, const struct view *v, size_t le,
                                  const struct msg_prefix *src)
{
    size_t a = le, b = le;
    for (int i = 0; i < AFTER_LINES && next_line(v, &a, &b); i++) {
        /* a thread's next post ("archlitchi · comment · 2025-06-16" over a
         * maintainer's "we only occupy less than 300M during
         * initialization", Project-HAMi/HAMi-core#79 = heldout48 h48-28) is
         * another writer: what it says is no line of this failure */
        if (other_post(v, a, b)) break;
        struct cline c;
        read_cline(s, v, a, b, &c);
        if (other_writer(src, &c.px)) continue;
        /* a person's sentence below the message names what the tool did no
         * more than one above it does (context_walk): "I Tried to use the
         * img2img script. I got :" (basujindal/stable-diffusion#215 = heldout51
         * h51-59) is the reporter's, not a web UI's "func=<function img2img" */
        if (stage_user_text(c.body, c.n)) continue;
        enum oom_stage st = stage_after_line(c.body, c.n);
        if (st != OOM_STAGE_UNKNOWN) return st;
    }
    return OOM_STAGE_UNKNOWN;
}

/* Python's note between two tracebacks of one failure: the error below
 * was raised while handling the one above ("During handling of the above
 * exception, another exception occurred:"), or from it ("The above
 * exception was the direct cause of the following exception:"). */
static bool chain_note(const char *t, size_t n)
{
    while (n && (*t == ' ' || *t == '\t')) t++, n--;
    return (n >= 15 && !memcmp(t, "During handling", 15)) || (n >= 19 && !memcmp(t, "The above exception", 19));
}

/* A failure whose own frames name no stage, caught and followed by
 * Python's chain note and the traceback of the error its handler raised:
 * that traceback's frames are the callers that caught it, outer frames of
 * the failure ("RuntimeError: CUDA error: operation not permitted when
 * stream is capturing" in a MoE gate, then "During handling ..." and
 * SGLang's cuda_graph_runner __init__ -> capture -> capture_one_batch_size:
 * the graph capture at start-up, sgl-project/sglang#8178 = heldout50
 * h50-08). The note must come within CHAIN_LINES of the message, before
 * any other traceback; the stage the chained frames name, else unknown. */
#define CHAIN_LINES 12
static enum oom_stage chained_stage(struct scan *s, const struct view *v, size_t le, const struct msg_prefix *src)
{
    size_t a = le, b = le;
    for (int i = 0; i < CHAIN_LINES && next_line(v, &a, &b); i++) {
        if (other_post(v, a, b)) break;
        struct cline c;
        read_cline(s, v, a, b, &c);
        if (other_writer(src, &c.px)) continue;
        if (c.kind == STAGE_LINE_HEADER || c.kind == STAGE_LINE_FRAME) return OOM_STAGE_UNKNOWN;
        if (!chain_note(c.body, c.n)) continue;
        struct evidence f = {.context = OOM_STAGE_UNKNOWN, .tf = OOM_STAGE_UNKNOWN, .rank = -1, .region = a};
        walk_forward(s, v, b, src, false, 3, &f);
        return f.frames ? stage_pick(f.inner ? f.inner : f.bits) : OOM_STAGE_UNKNOWN;
    }
    return OOM_STAGE_UNKNOWN;
}

/* A progress bar glued in front of the error on its own line ("Steps:  50%|
 * ...| 1/2 [01:17<01:17, 77.90s/it] Exception while training: CUDA out of
 * memory"): the step it shows is the step that failed. */
static long glued_step(const struct view *v, size_t ls, size_t hit)
{
    size_t a = ls;
    for (size_t i = hit; i-- > ls;)
        if (v->p[i] == '\r') {
            a = i + 1;
            break;
        }
    struct steps_point pt;
    if (hit - a < 8 || hit - a > CTX_MAX) return -1;
    if (!(steps_parse_line(v->p + a, hit - a, &pt) & STEPS_STEP) || pt.step < 0) return -1;
    return progress_of_other_work(v->p + a, hit - a) ? -1 : pt.step;
}

/* Does the text at [t, t+n) open or close a markdown code fence? */
static bool fence_line(const char *t, size_t n)
{
    return n >= 3 && (!memcmp(t, "```", 3) || !memcmp(t, "~~~", 3));
}

/* The writer's caption of a paste: a line ending in ':' (it ends at b)
 * whose next line, or the one after a single blank line, opens a code
 * fence ("- On loading model and tokenizer:" over Unsloth's load banner,
 * under a sentence that put the OOM at trainer.train(),
 * unslothai/unsloth#2700 = heldout57 h57-13). It
 * says which step printed the paste, not what failed: the walks below a
 * message (context_after, tail_walk) take no stage from it. */
static bool paste_caption(const struct view *v, size_t b, const char *body, size_t n)
{
    while (n && (body[n - 1] == ' ' || body[n - 1] == '\r')) n--;
    if (!n || body[n - 1] != ':') return false;
    size_t a2 = b, b2 = b;
    for (int i = 0; i < 2 && next_line(v, &a2, &b2); i++) {
        size_t t = a2;
        while (t < b2 && (v->p[t] == ' ' || v->p[t] == '\t' || v->p[t] == '\r')) t++;
        if (t == b2) continue;
        return fence_line(v->p + t, b2 - t);
    }
    return false;
}

/* Up to three log lines from the line [a, b) on, downward or upward (not
 * above `stop`), skipping blank lines and other writers' lines: the stage
 * the first one naming a stage says. */
static enum oom_stage context_walk(struct scan *s, const struct view *v, size_t a, size_t b, bool down,
                                   size_t stop, const struct msg_prefix *src)
{
    bool bare_bar = false, caption = false;
    for (int ctx_lines = 0, read = 0;
         ctx_lines < 3 && read++ < WALK_LINES && (down ? next_line(v, &a, &b) : prev_line(v, &a, &b) && a > stop);) {
        /* another writer's post (other_post): below it a reply, above it
         * an earlier post; neither is this log's context */
        if (other_post(v, a, b)) break;
        struct cline c;
        read_cline(s, v, a, b, &c);
        if (other_writer(src, &c.px) || c.kind == STAGE_LINE_BLANK) continue;
        /* a person's sentence around the message (the reporter's "I
         * encountered a OOM error adding the VAE decoder", a reply) says no
         * more than a title does (stage_user_text) */
        if (stage_user_text(c.body, c.n)) {
            ctx_lines++;
            continue;
        }
        /* read down, the writer's caption over the next paste is passed
         * over: that paste's own lines say what ran (a "Loading checkpoint
         * shards" bar under "while loading shards:", lm-sys/FastChat#2359 =
         * h32-36) */
        if (down && paste_caption(v, b, c.body, c.n)) {
            caption = true;
            continue;
        }
        if (caption && fence_line(c.body, c.n)) {
            caption = false; /* ... with the fence it opens */
            continue;
        }
        caption = false;
        enum oom_stage st = stage_context_line(c.body, c.n);
        /* read upward, a load line above a bare running bar
         * is over; the bar is the next loop (stage_past_bare_bar, as the
         * verb and tail walks read it) */
        if (!down && stage_past_bare_bar(bare_bar, c.body, c.n, &st)) break;
        bare_bar |= !down && stage_bar_undescribed(c.body, c.n);
        if (st != OOM_STAGE_UNKNOWN) return st;
        if (stage_training_line(c.body, c.n)) break; /* a trainer's progress line: no stage */
        ctx_lines++;
    }
    return OOM_STAGE_UNKNOWN;
}

/* A title-first paste: the log lines right above the traceback found below
 * the message (a test progress bar, "Running Evaluation") say what ran,
 * as the lines above a traceback do. below is the header's start. */
static enum oom_stage context_above(struct scan *s, const struct view *v, size_t le, size_t below,
                                    const struct msg_prefix *src)
{
    struct cline h;
    read_cline(s, v, below, line_end(v, below), &h);
    enum oom_stage glued = header_glued_context(h.body, h.n);
    if (glued != OOM_STAGE_UNKNOWN) return glued;
    return context_walk(s, v, below, below, false, le, src);
}

/* A message pasted first, with no traceback below it: the log lines that
 * follow (the user pasted the error, then the log that led to it: "Val
 * 99/5000 0/60 acc ...") say what ran, as lines above a traceback do. */
static enum oom_stage context_after(struct scan *s, const struct view *v, size_t le,
                                    const struct msg_prefix *src)
{
    return context_walk(s, v, le, le, true, 0, src);
}

/* The line's own text before the anchor, from its start or its last '\r'
 * (a progress bar of a hundred columns and a logger's prefix fit).
 * 1 KiB, not 512 bytes: a terminal that wrapped torchrun's
 * records onto one padded line puts one "Sending process N closing signal
 * SIGTERM" warning per worker (each padded to the terminal's width)
 * between a loading bar and the agent's "failed (exitcode: -9)" (h30-84). */
#define GLUED_BYTES 1024
static enum oom_stage glued_stage(const struct view *v, size_t ls, size_t hit)
{
    size_t a = hit - ls > GLUED_BYTES ? hit - GLUED_BYTES : ls;
    for (size_t i = hit; i-- > a;)
        if (v->p[i] == '\r') {
            a = i + 1;
            break;
        }
    if (hit <= a) return OOM_STAGE_UNKNOWN;
    /* darknet's layer index before the error, under its layer table
     * (stage_darknet_build): the layer being made */
    size_t pa = ls, pb = ls;
    while (prev_line(v, &pa, &pb)) {
        size_t t = pa;
        while (t < pb && (v->p[t] == ' ' || v->p[t] == '\t' || v->p[t] == '\r')) t++;
        if (t == pb) continue;
        if (stage_darknet_build(v->p + ls, line_end(v, ls) - ls, v->p + pa, pb - pa) == OOM_STAGE_LOAD)
            return OOM_STAGE_LOAD;
        break;
    }
    enum oom_stage st = stage_context_line(v->p + a, hit - a);
    /* the message's own span, as the message line is read
     * (stage_after_line: "... when creating modelInstanceState: [TensorRT-
     * LLM][ERROR] CUDA runtime error ...", the error glued after it) */
    if (st == OOM_STAGE_UNKNOWN) st = stage_after_line(v->p + a, hit - a);
    /* the message's own words before its error say what failed */
    if (st == OOM_STAGE_UNKNOWN) st = stage_failed_action(v->p + a, hit - a);
    /* ... or the weight a LoRA patch was being merged into */
    if (st == OOM_STAGE_UNKNOWN) st = stage_weight_patch(v->p + a, hit - a);
    /* ... or the function a logger's tag on the message's own
     * line names (loguru's "__main__:image_generation_worker:315 - Job ...
     * failed: ... CUDA out of memory", h42-67) */
    return st != OOM_STAGE_UNKNOWN ? st : stage_log_tag(v->p + a, hit - a);
}

/* the tool's own log lines above [from's line) (the traceback's
 * header, or the message when none leads to it), not above `stop`: up to
 * VERB_WINDOW lines, past blank lines, fences and progress bars (which
 * count only when they name a stage), up to another traceback: the stage
 * the nearest one names by its general words (stage_verb_line). */
#define VERB_WINDOW 5
#define VERB_LINES 40
static bool bar_or_fence(const char *t, size_t n)
{
    return memmem(t, n, "it/s]", 5) || memmem(t, n, "s/it]", 5) || memmem(t, n, "%|", 2) ||
           (n >= 3 && !memcmp(t, "```", 3));
}

/* t (n bytes) is a setting as a config file writes it: an identifier at
 * the line's start (indentation allowed), ": " and a value ("lr: 0.001",
 * "save_model_iters: 2000"); snake: the identifier joins words with '_'.
 * *key, *kn: the identifier. */
static bool key_value_line(const char *t, size_t n, bool snake, const char **key, size_t *kn)
{
    size_t i = 0;
    while (i < n && (t[i] == ' ' || t[i] == '\t')) i++;
    size_t k = i;
    if (i >= n || !(isalpha((unsigned char)t[i]) || t[i] == '_')) return false;
    while (i < n && (isalnum((unsigned char)t[i]) || t[i] == '_')) i++;
    if (snake && !memchr(t + k + 1, '_', i - k > 2 ? i - k - 2 : 0)) return false;
    if (i + 1 >= n || t[i] != ':' || t[i + 1] != ' ') return false;
    *key = t + k, *kn = i - k;
    i += 2;
    while (i < n && t[i] == ' ') i++;
    while (n > i && (t[n - 1] == ' ' || t[n - 1] == '\r')) n--;
    if (i >= n) return false;
    /* a value, not a logger's message after a function's name
     * ("load_tensors: loading model tensors, this can take a while...",
     * llama.cpp): a list or a quoted string whole, else one word, then at
     * most a comment ("ref_idx: null # 0") */
    if (t[i] == '[' || t[i] == '{' || t[i] == '"' || t[i] == '\'') return true;
    while (i < n && t[i] != ' ') i++;
    while (i < n && t[i] == ' ') i++;
    return i == n || t[i] == '#';
}

/* The line [a, b) is one setting of a block of them, a config pasted or
 * printed ("base.yaml": "num_steps: 10000", "annealed_step: 4000",
 * "save_model_iters: 2000", robbyant-research/CoDeF#72 = heldout46 h46-98): its snake_case key names a setting,
 * not what the tool was doing ("save_model_iters" saves nothing then); the
 * line above or below it is another setting. Not a logger's prefix, the
 * same name on every line ("whisper_model_load: n_langs = 100" under
 * "whisper_model_load: loading model", ggml-org/whisper.cpp#1915 =
 * heldout31 h31-37). The walk reads past the block to the tool's line over
 * it (sd-scripts' "generating sample images at step" over its sample's
 * "prompt: ...", "sample_steps: 30"). (open46) */
static bool settings_block_line(const struct view *v, size_t a, size_t b)
{
    const char *key, *other;
    size_t kn, on;
    if (!key_value_line(v->p + a, b - a, true, &key, &kn)) return false;
    size_t pa = a, pb = b, na = a, nb = b;
    if (prev_line(v, &pa, &pb) && key_value_line(v->p + pa, pb - pa, false, &other, &on) &&
        (on != kn || memcmp(key, other, kn)))
        return true;
    return next_line(v, &na, &nb) && key_value_line(v->p + na, nb - na, false, &other, &on) &&
           (on != kn || memcmp(key, other, kn));
}

static bool paste_title_line(const struct view *v, size_t ls);

static enum oom_stage verb_walk(struct scan *s, const struct view *v, size_t from, size_t stop,
                                const struct msg_prefix *src)
{
    size_t a = from, b = from;
    bool bare_bar = false;
    for (int lines = 0, counted = 0; lines < VERB_LINES && counted < VERB_WINDOW && prev_line(v, &a, &b) &&
                                     (stop == 0 || a > stop);
         lines++) {
        struct cline c;
        read_cline(s, v, a, b, &c);
        if (other_writer(src, &c.px) || c.kind == STAGE_LINE_BLANK) continue;
        if (c.kind == STAGE_LINE_HEADER || c.kind == STAGE_LINE_FRAME) break;
        /* a trainer's training line, whatever figures it logs
         * ("memory: 11211" in mmengine's): what is above it is over */
        if (stage_training_line(c.body, c.n)) break;
        /* a full one too: the loop ran below the line above
         * it (a sampler's finished bar under the pipeline's loading) */
        if (stage_bar_undescribed(c.body, c.n)) {
            bare_bar = true; /* indented as tqdm pads it: no code */
            continue;
        }
        if (c.kind == STAGE_LINE_CODE || msg_memory_words(c.body, c.n)) {
            counted++; /* code, or the error's own words: no narration */
            continue;
        }
        if (stage_phase_over(c.body, c.n)) break;
        /* an issue's title is the writer's words, not the tool's line:
         * "train & test environment" over a MemoryError in the data's
         * loading (Tobias-Fischer/rt_gene#29 = heldout46 h46-31), "inference
         * oom" (h41-80), "The competing method pointnet training and
         * testing" (h37-34) name what the writer ran, no stage (open46) */
        if (paste_title_line(v, a)) break;
        if (settings_block_line(v, a, b)) continue;
        bool done = false;
        enum oom_stage st = stage_verb_line(c.body, c.n, &done);
        /* else the place a logger tags the line with */
        if (st == OOM_STAGE_UNKNOWN && !done) st = stage_log_tag(c.body, c.n);
        /* the tool's own failure line right above the message
         * ("Failed to move model to device" over the async allocator's
         * "Allocation on device 0 would exceed allowed memory", h55-74);
         * not a paste's first line, an issue's title ("[LLamaSharp.Backend.
         * Cuda12 v0.10.0] Unable to load the model onto multiple GPUs" over
         * prose, heldout19 h19-34: what the writer tells, no log line) */
        if (st == OOM_STAGE_UNKNOWN && !done && !counted && !(v->base == 0 && a == 0))
            st = stage_failure_line(c.body, c.n);
        /* a load line read past a bare running bar */
        if (stage_past_bare_bar(bare_bar, c.body, c.n, &st))
            break;
        if (st != OOM_STAGE_UNKNOWN) return st;
        if (done) break;
        if (!bar_or_fence(c.body, c.n)) counted++;
    }
    return OOM_STAGE_UNKNOWN;
}

/* The text in front of the exception's class on the message line (the
 * failing code line a paste glued to it) computes model math. */
static bool glued_code_math(const char *text, size_t n)
{
    const char *x = memmem(text, n, "Error", 5);
    if (!x) x = memmem(text, n, "Exception", 9);
    if (!x) return false;
    while (x > text && (isalnum((unsigned char)x[-1]) || x[-1] == '_' || x[-1] == '.')) x--;
    return x > text && stage_model_math(text, (size_t)(x - text));
}

/* the code quoted in the sentences around a message nothing
 * leads to: up to PROSE_CODE_LINES lines above and below it that are not blank,
 * up to a traceback (stage_prose_code). */
#define PROSE_CODE_LINES 3
static enum oom_stage prose_code_walk(struct scan *s, const struct view *v, size_t ls, size_t le,
                                      const struct msg_prefix *src, bool *introduced)
{
    for (int down = 0; down < 2; down++) {
        size_t a = down ? le : ls, b = a;
        /* the sentence before says the next line is the failing
         * one ("It happened at this line" over " net = net.to(device).") */
        bool pointed = down && stage_points_at_code(v->p + ls, le - ls);
        for (int counted = 0, read = 0;
             counted < PROSE_CODE_LINES && read++ < WALK_LINES && (down ? next_line(v, &a, &b) : prev_line(v, &a, &b));) {
            struct cline c;
            read_cline(s, v, a, b, &c);
            if (other_writer(src, &c.px) || c.kind == STAGE_LINE_BLANK) continue;
            /* a line that starts in another script is a sentence
             * (code never does), whatever its shape: "我检索到占满内存的代码是
             * loss = model(image, caption, alpha=alpha, idx=idx)" */
            size_t lead = 0;
            while (lead < c.n && (c.body[lead] == ' ' || c.body[lead] == '\t')) lead++;
            bool script = c.kind == STAGE_LINE_CODE && lead < c.n && (unsigned char)c.body[lead] >= 0x80;
            bool quoted = pointed && (c.kind == STAGE_LINE_CODE || c.kind == STAGE_LINE_OTHER);
            /* the pointing sentence and its code on one line */
            size_t at = c.kind != STAGE_LINE_FRAME ? stage_points_in_line(c.body, c.n) : 0;
            if (at) {
                enum oom_stage st = stage_code_line_stage(c.body + at, c.n - at);
                if (st != OOM_STAGE_UNKNOWN) return st;
            }
            /* a code block is the user's script, not a sentence quoting the failing line */
            if ((c.kind != STAGE_LINE_OTHER && !script && !quoted) || (c.n >= 3 && !memcmp(c.body, "```", 3))) break;
            /* the sentence right above that introduces the
             * error ("Loading a … model with CUDA fails with:") */
            enum oom_stage intro = !down && !counted ? stage_intro_line(c.body, c.n) : OOM_STAGE_UNKNOWN;
            counted++;
            enum oom_stage st = quoted ? stage_code_line_stage(c.body, c.n) : stage_prose_code(c.body, c.n);
            if (st == OOM_STAGE_UNKNOWN && intro != OOM_STAGE_UNKNOWN) {
                *introduced = true;
                return intro;
            }
            if (st != OOM_STAGE_UNKNOWN) return st;
            pointed = down && stage_points_at_code(c.body, c.n);
        }
    }
    return OOM_STAGE_UNKNOWN;
}

/* The paste's first line with text, standing over a blank line: an
 * issue's title (a one-line paste, or a log whose second line has text,
 * starts with its own error: "UserWarning: Failed to clone() tensor ...
 * state_dict() call ... Error: CUDA out of memory", GanjinZero/RRHF#30). */
static bool paste_title_line(const struct view *v, size_t ls)
{
    if (v->base != 0) return false;
    for (size_t i = 0; i < ls; i++)
        if (!isspace((unsigned char)v->p[i])) return false;
    size_t e = line_end(v, ls);
    if (e >= v->len) return false;
    size_t i = e + 1;
    while (i < v->len && (v->p[i] == ' ' || v->p[i] == '\t' || v->p[i] == '\r')) i++;
    return i < v->len && v->p[i] == '\n';
}

static void read_context(struct scan *s, const struct view *v, const struct msg_rule *r,
                         size_t ls, size_t le, const char *text, size_t n,
                         const struct msg_prefix *src, struct oom_event *ev)
{
    struct evidence e = {.context = OOM_STAGE_UNKNOWN, .tf = OOM_STAGE_UNKNOWN, .rank = -1, .region = ls};
    /* an OOM named on the paste's title: the phase the title names ("OOM
     * at VAE decode", "Out of memory after optimizer.step() with
     * accelerate.", "accelerator.prepare() CUDA out of memory") is the
     * reporter's summary, no frame or log line (the labellers'
     * title-or-prose-phase-no-stage) */
    bool title_words = paste_title_line(v, ls) ||
                       /* or a person's sentence the prose pass took though
                        * it names a call (prose_pass): the call is quoted */
                       (r == msg_prose_mention_rule() && stage_line_kind(text, n) == STAGE_LINE_CODE);
    if (!title_words) frame_evidence(&e, text, n);
    e.tf = stage_tf(text, n);
    /* an A1111 sysinfo record lists its frames under its exception: the
     * lines above are another record's (stage_json_record_head) */
    if (!stage_json_record_head(text, n)) walk_back(s, v, ls, src, &e);
    decode_settle(&e);
    if (!e.frames) {
        enum oom_stage jl = julia_stack(s, v, le, src);
        if (jl != OOM_STAGE_UNKNOWN) {
            e.frames = true;
            e.bits = e.inner = 1u << jl;
        }
    }
    bool alone = !e.frames && e.context == OOM_STAGE_UNKNOWN, introduced = false;
    if (!e.frames || e.tf == OOM_STAGE_UNKNOWN) {
        struct evidence f = e;
        /* A message that nothing leads to (an issue's title line, the
         * error pasted first) is followed by its traceback, further down
         * past prose, headings and the launch command. */
        walk_forward(s, v, le, src, stage_line_is_header(text, n), alone ? WALK_AHEAD : 6, &f);
        decode_settle(&f);
        if (!e.frames) e = f;
        else e.tf = f.tf;
        if (alone && e.below > le) e.context = context_above(s, v, le, e.below, src);
        else if (alone && !e.frames) e.context = context_after(s, v, le, src);
    }
    /* what is glued in front of the message on its own line (a
     * loading bar the kill message was glued to) is nearer than the lines
     * above it: it names the context when no frames lead to the message */
    bool glued = !e.frames && s->glued != OOM_STAGE_UNKNOWN;
    if (glued) e.context = (enum oom_stage)s->glued;
    /* a frame that masks its callers' stage masks the lines above
     * them too ("Generating video ..." over a text encoder's forward) */
    if (e.outer_seen & (1u << e.context)) e.context = OOM_STAGE_UNKNOWN;
    if (e.data_move) {
        /* the innermost frame's own code moved data: the innermost specific stage */
        e.bits |= e.data_move;
        e.inner = e.data_move;
    }
    enum oom_stage frames = stage_pick(e.inner ? e.inner : e.bits);
    if (r->stage != OOM_STAGE_UNKNOWN) ev->stage = r->stage;
    /* A TF node or op names its stage; one with no stage word ("[Op:Mul]")
     * is forward only by default, so frames naming another stage win (not
     * a load: TF 1.x's "defined at" stack runs through constructors). */
    /* any failure TF's own log line reports (a kernel's
     * "tensorflow/core/framework/op_kernel.cc:1763] OP_REQUIRES failed at
     * conv_grad_filter_ops.cc:1095 : Not found: No algorithm worked!" over
     * the stack of 'Momentum/gradients/Conv2D/Conv2D_grad/Conv2DBackpropFilter',
     * Sentdex/pygta5#161) is the log's final error: its node names the
     * stage as a TF OOM row's does */
    /* TF's own OOM message on a host row (the CPU allocator, a
     * node placed on the CPU) names its node the same way */
    else if (e.tf != OOM_STAGE_UNKNOWN &&
             (!strcmp(r->framework, "tensorflow") ||
              (r == msg_other_error_rule() && memmem(text, n, "tensorflow/", 11)) ||
              (!strcmp(r->framework, "host") && memmem(text, n, "OOM when allocating", 19))))
        ev->stage = e.tf == OOM_STAGE_FORWARD && frames != OOM_STAGE_UNKNOWN && frames != OOM_STAGE_LOAD
                        ? frames
                        : e.tf;
    else ev->stage = stage_combine(frames, e.context);
    if (r->stage == OOM_STAGE_UNKNOWN) {
        enum oom_stage after = title_words ? OOM_STAGE_UNKNOWN : stage_after_line(text, n);
        if (after == OOM_STAGE_UNKNOWN) after = after_stage(s, v, le, src);
        if (e.outer_seen & (1u << after)) after = OOM_STAGE_UNKNOWN;
        ev->stage = stage_combine(ev->stage, after);
    }
    /* frames led to the message and named nothing: the callers that
     * caught it, in a chained traceback below (chained_stage) */
    if (ev->stage == OOM_STAGE_UNKNOWN && r->stage == OOM_STAGE_UNKNOWN && e.frames && e.below <= le)
        ev->stage = chained_stage(s, v, le, src);
    /* nothing named a stage: the tool's own lines by general words */
    if (ev->stage == OOM_STAGE_UNKNOWN && r->stage == OOM_STAGE_UNKNOWN && ev->weak_stage == OOM_STAGE_UNKNOWN) {
        bool above = !(alone && e.below > le);
        ev->weak_stage = above ? verb_walk(s, v, e.region, 0, src) : verb_walk(s, v, e.below, le, src);
        ev->weak_from_log = above && ev->weak_stage != OOM_STAGE_UNKNOWN;
    }
    /* weaker still, the failing code line computes model math, or
     * the code glued in front of the error on its line ("h = (scores @
     * v).transpose(1, 2).contiguous() RuntimeError: CUDA error: out of memory") */
    if (ev->stage == OOM_STAGE_UNKNOWN && r->stage == OOM_STAGE_UNKNOWN && ev->weak_stage == OOM_STAGE_UNKNOWN &&
        (e.math || glued_code_math(text, n)))
        ev->weak_stage = OOM_STAGE_FORWARD;
    /* nothing leads to the message and nothing staged it: code a
     * sentence next to it quotes (the failing line, told in prose) */
    if (alone && !e.frames && ev->stage == OOM_STAGE_UNKNOWN && ev->weak_stage == OOM_STAGE_UNKNOWN &&
        r->stage == OOM_STAGE_UNKNOWN)
        ev->weak_stage = prose_code_walk(s, v, ls, le, src, &introduced);
    /* still nothing, and nothing leads to the message (an issue's
     * title): the paste's last activity, read when the scan ends (tail_walk) */
    /* a message its own sentence introduces ("Loading … fails
     * with:") is led to by it: an issue's title above takes its stage */
    ev->unled = alone && !e.frames && !introduced;
    /* what the lines right below a title say (a restore line
     * under "Out of memory after some iterations of validation") is the
     * paste's start; its last activity, read when the scan ends, outranks it */
    /* not what the message's own line says before its error
     * ("Error while evaluating MSMARCO: CUDA out of memory", h30-119): that
     * is the failure's own phase, no line below it */
    ev->stage_from_below = ev->unled && r->stage == OOM_STAGE_UNKNOWN && frames == OOM_STAGE_UNKNOWN &&
                           e.tf == OOM_STAGE_UNKNOWN && ev->stage != OOM_STAGE_UNKNOWN && ev->stage == e.context &&
                           !glued;
    if (v->base + le + 1 > s->last_end) s->last_end = v->base + le + 1;
    if (ev->unled) s->tail_from = v->base + le + 1;
    ev->attention_frames = e.attention;
    if (ev->rank < 0) ev->rank = e.rank;
    ev->step = find_step(s, v, ls);
    /* A title-first paste: the steps were logged below the message, above
     * the traceback that follows it (or with none, in the lines after). */
    if (ev->step < 0 && alone) ev->step = step_below(v, le, e.below > le ? e.below : 0, WALK_AHEAD);
}

/* ---- events: add, merge details, fold repeats ------------------------------ */

static uint32_t source_key(const struct msg_prefix *px)
{
    uint32_t h = 2166136261u;
    long parts[3] = {px->rank, px->pid, (long)px->host};
    for (int i = 0; i < 3; i++) h = (h ^ (uint32_t)parts[i]) * 16777619u;
    return h;
}

/* Two parts of one event state the same figure, dst's in steps of dstep
 * bytes, src's in steps of sstep (0: not known): src's stands where it is
 * the finer and agrees with dst's, dst's rounded ("3.38 GiB", 3629247365)
 * from it (PyTorch's allocator warning "trying to allocate 3630170112
 * bytes", the OutOfMemoryError after it). */
static bool finer_stated(int64_t d, int64_t dstep, int64_t f, int64_t sstep)
{
    if (d < 0 || f < 0 || d == f || sstep <= 0 || dstep <= sstep) return false;
    int64_t off = d > f ? d - f : f - d;
    return off <= dstep / 2 + sstep; /* dst's rounding, and src's own */
}

static void merge_into(struct oom_event *dst, const struct oom_event *src)
{
    int64_t *d = &dst->bytes.requested, *dstep = &dst->bytes_step.requested;
    const int64_t *f = &src->bytes.requested, *sstep = &src->bytes_step.requested;
    size_t nb = sizeof dst->bytes / sizeof(int64_t);
    for (size_t i = 0; i < nb; i++)
        if ((d[i] < 0 && f[i] >= 0) || finer_stated(d[i], dstep[i], f[i], sstep[i])) {
            d[i] = f[i], dstep[i] = sstep[i];
            if (i == 0) dst->requested_from_shape = src->requested_from_shape; /* says where it came from */
        }
    if (dst->gpu < 0) dst->gpu = src->gpu;
    if (dst->rank < 0) dst->rank = src->rank;
    if (!dst->mem.present) dst->mem = src->mem;
    /* one event told in two parts: the stage and step either part saw */
    if (dst->stage == OOM_STAGE_UNKNOWN) dst->stage = src->stage;
    if (dst->weak_stage == OOM_STAGE_UNKNOWN) dst->weak_stage = src->weak_stage;
    if (dst->step < 0) dst->step = src->step;
    if (src->gpu_oom && !dst->gpu_oom) {
        dst->gpu_oom = true;
        dst->kind = src->kind;
    }
}

static bool same_numbers(const struct oom_event *a, const struct oom_event *b)
{
    return a->bytes.requested == b->bytes.requested && a->gpu == b->gpu &&
           a->bytes.capacity == b->bytes.capacity && a->bytes.free == b->bytes.free;
}

/* The same TF tensor again: a repeated "OOM when allocating tensor with
 * shape[...]" whose first copy took the BFC line's stated size and whose
 * second copy took its device from the node line after it. */
static bool same_tensor(const struct oom_event *a, const struct oom_event *b)
{
    if (a->shape_rank <= 0 || a->shape_rank != b->shape_rank || a->shape_rank > 8) return false;
    if (a->gpu >= 0 && b->gpu >= 0 && a->gpu != b->gpu) return false;
    return !memcmp(a->shape, b->shape, (size_t)a->shape_rank * sizeof a->shape[0]);
}

enum add_action { ADD_APPEND, ADD_DONE, ADD_REPLACE };

static int known_figures(const struct oom_event *ev);

/* Every figure o states, ev states the same (bytes and GPU). */
static bool figures_within(const struct oom_event *o, const struct oom_event *ev)
{
    const int64_t *a = &o->bytes.requested, *b = &ev->bytes.requested;
    for (size_t i = 0; i < sizeof o->bytes / sizeof(int64_t); i++)
        if (a[i] >= 0 && a[i] != b[i]) return false;
    return o->gpu < 0 || o->gpu == ev->gpu;
}

/* A message with no figure at all, or only some of the figures (an issue
 * title quoting it: "RuntimeError: CUDA out of memory occurred when
 * testing", "CUDA out of memory. Tried to allocate 264.00 MiB" above the
 * whole message, OPIXray-author/OPIXray#5; a re-raise; a host look-alike's
 * bare class name above its message, "numpy.core._exceptions._ArrayMemory
 * Error" over "...: Unable to allocate 58.0 GiB ...") and, further down, the
 * same framework's message with more figures that agree: one event, the
 * full one. */
static bool figureless_then_full(const struct oom_event *o, const struct oom_event *ev, long dist)
{
    return dist <= FIGURELESS_JOIN_LINES && o->gpu_oom == ev->gpu_oom &&
           !strcmp(o->framework, ev->framework) &&
           (o->gpu_oom || !strcmp(o->kind, ev->kind)) && /* look-alikes: the same one */
           known_figures(ev) - (ev->gpu >= 0) > 0 &&
           known_figures(ev) > known_figures(o) && figures_within(o, ev);
}

/* A message a wrap split into its words and its numbers ("CUDA out of" /
 * "memory. Tried to allocate 20.00 MiB (GPU 0; ...)", "CUDA out of
 * memory." / "Tried to allocate 138.00 MiB. GPU 0 has ..."): the second
 * line is a message of its own, so the first would stay an event without a
 * byte figure (its GPU at most). */
static bool split_message(const struct oom_event *o, const struct oom_event *ev, long dist)
{
    int o_bytes = known_figures(o) - (o->gpu >= 0), ev_bytes = known_figures(ev) - (ev->gpu >= 0);
    return dist <= 2 && o->gpu_oom && ev->gpu_oom && !strcmp(o->framework, ev->framework) &&
           o_bytes == 0 && ev_bytes > 0;
}

/* o is a notebook's traceback header (IPython/Jupyter print the exception's
 * class on the header line: "OutOfMemoryError    Traceback (most recent call
 * last)") and ev, below it in the same traceback, is the same family's
 * error line: the header only announced it. */
static bool notebook_header_of(const struct oom_event *o, const struct oom_event *ev, long dist)
{
    size_t n = strnlen(o->text, sizeof o->text);
    return dist > 0 && dist <= SAME_KIND_HEADER_LINES && o->gpu_oom == ev->gpu_oom &&
           !strcmp(o->kind, ev->kind) && o->line != ev->line &&
           memmem(o->text, n, "Traceback (most recent call last)", 33) &&
           stage_line_is_header(o->text, n) &&
           !stage_line_is_header(ev->text, strnlen(ev->text, sizeof ev->text));
}

/* Decide how ev joins the events so far; *at is the event it touches. */
static enum add_action plan_add(struct scan *s, struct oom_event *ev, const struct msg_rule *r,
                                uint32_t *src, bool anon, size_t *at)
{
    struct oom_report *rep = s->rep;
    size_t n = rep->n_events;
    /* A line without a writer's prefix just after an event is most often
     * that message wrapped (the prefix stays on the first line only:
     * "(VllmWorker rank=1 pid=...) ResourceExhaustedError" / ": OOM when
     * allocating ..."): it takes that event's writer. */
    if (anon && n && ev->line - rep->events[n - 1].line <= ANON_WRITER_LINES)
        *src = s->meta[n - 1] >> 1;
    for (size_t back = 0; back < 4 && back < n; back++) {
        size_t k = n - 1 - back;
        struct oom_event *o = &rep->events[k];
        long dist = ev->line - o->line;
        if (s->meta[k] >> 1 != (*src & 0x7fffffffu) || dist < 0) continue;
        enum msg_role ro = (s->meta[k] & 1) ? MSG_DETAIL : MSG_PRIMARY;
        /* A table (memory_summary) belongs to the event it follows, OOM or not. */
        long within = r->merge_lines > 0 ? r->merge_lines : 8;
        bool joins = o->gpu_oom == ev->gpu_oom || r->merge_lines > 0 || r->joins_as_is;
        if (r->role == MSG_DETAIL && ro == MSG_PRIMARY && dist <= within && joins) {
            bool gpu_oom = o->gpu_oom;
            const char *kind = o->kind;
            merge_into(o, ev);
            if (r->joins_as_is) o->gpu_oom = gpu_oom, o->kind = kind;
            *at = k;
            return ADD_DONE;
        }
        /* A header of the same family ("ResourceExhaustedError: Graph
         * execution error:") is joined by its message also after the
         * "Detected at node ... defined at" traceback between them. */
        long header = !strcmp(o->kind, ev->kind) ? SAME_KIND_HEADER_LINES : 8;
        if (r->role == MSG_PRIMARY && ro == MSG_DETAIL && dist <= header &&
            o->gpu_oom == ev->gpu_oom) {
            merge_into(ev, o);
            *at = k;
            return ADD_REPLACE;
        }
        /* a notebook's traceback header names the error's class
         * ("ResourceExhaustedError      Traceback (most recent call last)");
         * the error's own line ends the same traceback: one event, the
         * error line's (minimaxir/gpt-2-simple#282 = h29-27) */
        if (notebook_header_of(o, ev, dist)) {
            merge_into(ev, o);
            *at = k;
            return ADD_REPLACE;
        }
        if (r->role == MSG_PRIMARY && ro == MSG_PRIMARY && split_message(o, ev, dist)) {
            long first = o->line;
            merge_into(ev, o);
            ev->line = first;
            *at = k;
            return ADD_REPLACE;
        }
        if (r->role == MSG_PRIMARY && ro == MSG_PRIMARY && figureless_then_full(o, ev, dist)) {
            merge_into(ev, o);
            *at = k;
            return ADD_REPLACE;
        }
        /* The same error again (re-raised, re-logged, or a bare
         * "ResourceExhaustedError: Graph execution error:" line). */
        /* Counted from its last repeat, so a message printed on every line
         * (a loop catching the OOM and going on) stays one event. */
        long since = ev->line - (o->last_line > o->line ? o->last_line : o->line);
        if (r->role == MSG_PRIMARY && ro == MSG_PRIMARY && !strcmp(o->kind, ev->kind) &&
            since <= 64 &&
            (r->fold || same_numbers(o, ev) || same_tensor(o, ev) || ev->bytes.requested < 0)) {
            merge_into(o, ev);
            o->repeats++;
            o->last_line = ev->line;
            *at = k;
            return ADD_DONE;
        }
    }
    return ADD_APPEND;
}

static int store(struct scan *s, const struct oom_event *ev, enum add_action act, size_t at,
                 enum msg_role role, uint32_t src)
{
    struct oom_report *rep = s->rep;
    if (act == ADD_REPLACE) {
        rep->events[at] = *ev;
    } else {
        if (rep->n_events >= OOM_MAX_EVENTS) {
            rep->n_dropped++;
            return 0;
        }
        if (rep->n_events == s->cap) {
            size_t cap = s->cap, meta_cap = s->cap;
            struct oom_event *e =
                strbuf_grow(rep->events, &cap, rep->n_events + 1, sizeof *e, OOM_MAX_EVENTS);
            if (!e) return -1;
            rep->events = e;
            uint32_t *meta = strbuf_grow(s->meta, &meta_cap, cap, sizeof *meta, OOM_MAX_EVENTS);
            if (!meta) return -1;
            s->meta = meta;
            s->cap = cap;
        }
        at = rep->n_events++;
        rep->events[at] = *ev;
    }
    s->meta[at] = ((src & 0x7fffffffu) << 1) | (role == MSG_DETAIL);
    return 0;
}

/* ---- one hit ---------------------------------------------------------------- */

static void set_text(struct oom_event *ev, const char *body, size_t n)
{
    while (n > 0 && (*body == ' ' || *body == '\t')) body++, n--; /* a prefixed line's indentation */
    size_t cap = sizeof ev->text - 1, k = n < cap ? n : cap;
    for (size_t i = 0; i < k; i++) {
        unsigned char c = (unsigned char)body[i];
        ev->text[i] = (c < 0x20 || c == 0x7f) ? ' ' : (char)c;
    }
    if (n > cap) { /* cut at a word and say so */
        size_t cut = cap - 4;
        while (cut > cap / 2 && ev->text[cut] != ' ') cut--;
        memcpy(ev->text + cut, " ...", 4);
        k = cut + 4;
    }
    while (k > 0 && ev->text[k - 1] == ' ') k--;
    ev->text[k] = '\0';
}

/* Figures an event knows: the basis for joining continuation lines. */
static int known_figures(const struct oom_event *ev)
{
    const int64_t *b = &ev->bytes.requested;
    int k = ev->gpu >= 0 ? 1 : 0;
    for (size_t i = 0; i < sizeof ev->bytes / sizeof(int64_t); i++) k += b[i] >= 0;
    return k + (int)ev->n_procs + (ev->shape_rank > 0);
}

/* A message of its own (an OOM only named in words is none). */
static bool is_message(const struct msg_rule *r)
{
    return r && r->role != MSG_MENTION && r->role != MSG_HOST_WORDS;
}

/* Extract from s->line[body_at, end) into a copy of ev: the rule that text
 * now is (a wrap may have hidden the words that make it a more specific
 * one), else r. */
static const struct msg_rule *join_trial(struct scan *s, const struct msg_rule *r, size_t body_at,
                                         size_t end, const struct oom_event *ev,
                                         struct oom_event *trial)
{
    const struct msg_rule *rt = msg_classify(s->line + body_at, end - body_at);
    if (!rt || rt->gpu_oom != r->gpu_oom || rt->role != r->role) rt = r;
    *trial = *ev;
    trial->n_procs = 0; /* re-read from the whole text */
    msg_extract(rt, s->line + body_at, end - body_at, trial);
    return rt;
}

/* Append line c at s->line[cur] the way that reads most. A terminal's hard
 * wrap at its width cuts anywhere: inside a number ("of which 4" / "0.30
 * GiB is free", "4." / "63 GiB"), a unit ("20.00 Mi" / "B (GPU 0;") or a
 * word ("GiB t" / "otal capacity"). Inside a number, or where a blank is
 * already at the cut, it joins as it is; otherwise with a blank, unless
 * without one the clauses read more. Fills *best and returns its rule;
 * *len is what was appended. */
static const struct msg_rule *join_line(struct scan *s, const struct msg_rule *r, size_t body_at,
                                        size_t cur, const struct cline *c,
                                        const struct oom_event *ev, struct oom_event *best,
                                        size_t *len)
{
    /* A line ended by a backslash continues on the next one (a shell or
     * markdown line continuation inside a word: "10.68 GiB alread\" / "y
     * allocated", pytorch message pasted in backticks): the backslash goes. */
    size_t drop = cur > body_at && s->line[cur - 1] == '\\' ? 1 : 0;
    cur -= drop;
    char last = cur > body_at ? s->line[cur - 1] : ' ';
    bool as_is = ((isdigit((unsigned char)last) || last == '.') &&
                  (isdigit((unsigned char)c->body[0]) || c->body[0] == '.')) ||
                 last == ' ' || c->body[0] == ' ';
    const struct msg_rule *best_r = NULL;
    size_t best_gap = 0;
    for (size_t gap = as_is ? 0 : 1;; gap = 0) {
        struct oom_event trial;
        s->line[cur] = ' ';
        memcpy(s->line + cur + gap, c->body, c->n);
        const struct msg_rule *rt = join_trial(s, r, body_at, cur + gap + c->n, ev, &trial);
        if (!best_r || known_figures(&trial) > known_figures(best))
            *best = trial, best_r = rt, best_gap = gap;
        if (gap == 0) break;
    }
    s->line[cur] = ' ';
    memcpy(s->line + cur + best_gap, c->body, c->n);
    if (best_r != r) best->kind = best_r->kind, best->framework = best_r->framework;
    *len = best_gap + c->n - drop;
    return best_r;
}

/* the joined line restates a figure exactly that the message
 * gave rounded, and nothing else: TF's BFC allocator wrapped inside its
 * parenthesis, "trying to allocate 1.17GiB (rounded to" / "1258291200).
 * Current allocation summary follows." (the exact clause,
 * MSG_F_REQUESTED_EXACT, replaces the rounded size). Within 1%: a
 * rounding of it, not another figure. */
static bool finer_figure(const struct oom_event *joined, const struct oom_event *ev)
{
    int64_t a = joined->bytes.requested, b = ev->bytes.requested;
    if (a < 0 || b < 0 || a == b || known_figures(joined) != known_figures(ev)) return false;
    struct oom_bytes same = joined->bytes;
    same.requested = b;
    if (memcmp(&same, &ev->bytes, sizeof same) != 0) return false;
    int64_t d = a > b ? a - b : b - a;
    return d <= b / 100;
}

/* A message broken over lines by its writer or a terminal ("Tried to
 * allocate 138.00 MiB.\nGPU 0 has a total capacity of ...\n14.12 GiB is
 * allocated by PyTorch, and 410.41 MiB is reserved\nby PyTorch but
 * unallocated", continuation lines that lost the [rankN]: prefix, a hard
 * wrap at any column): the lines that follow are joined to it while they
 * let the clauses read more figures; up to JOIN_STALL lines in a row may
 * add none ("If reserved but unallocated memory is large", a clause cut in
 * two), and the join keeps what ends with a figure. A line that is a
 * message of its own (not the body a head
 * continues, msg_rule.continues), a frame, a traceback header or blank ends the
 * message. Returns the new end; *n grows by what was appended to s->line,
 * *rp becomes the rule the joined text is. */
static size_t join_continuations(struct scan *s, const struct view *v, const struct msg_rule **rp,
                                 size_t le, size_t body_at, size_t *n,
                                 const struct msg_prefix *src, struct oom_event *ev)
{
    size_t a = le, b = le, cur = *n;
    const struct msg_rule *r = *rp, *rc = r;
    struct oom_event evc = *ev;
    int stalled = 0;
    for (int i = 0; i < JOIN_LINES && msg_rule_reads_own_line(r) && next_line(v, &a, &b); i++) {
        struct cline c;
        read_cline(s, v, a, b, &c);
        if (other_writer(src, &c.px) || c.kind == STAGE_LINE_BLANK ||
            c.kind == STAGE_LINE_HEADER || c.kind == STAGE_LINE_FRAME ||
            cur + 1 + c.n >= SCAN_LINE_MAX)
            break;
        const struct msg_rule *own = msg_classify(c.body, c.n);
        if (is_message(own) && !own->continues) break;
        struct oom_event best;
        size_t len;
        const struct msg_rule *best_r = join_line(s, rc, body_at, cur, &c, &evc, &best, &len);
        cur += len;
        bool more = known_figures(&best) > known_figures(&evc) || finer_figure(&best, &evc);
        evc = best, rc = best_r;
        if (!more) {
            if (++stalled > JOIN_STALL) break;
            continue;
        }
        stalled = 0;
        *ev = evc, r = rc, *n = cur, le = b;
    }
    s->line[*n] = '\0';
    *rp = r;
    return le;
}

/* The memory_summary() table around a "CUDA OOMs:" line: its title above,
 * its rows below. Returns the rel end of the last row read. */
static size_t read_table(struct scan *s, const struct view *v, size_t ls, size_t le,
                         const struct msg_prefix *src, struct oom_memsummary *m)
{
    struct cline c;
    size_t a = ls, b = ls;
    for (int i = 0; i < TABLE_BEFORE && prev_line(v, &a, &b); i++) {
        read_cline(s, v, a, b, &c);
        if (!other_writer(src, &c.px) && !memsummary_line(c.body, c.n, m)) break;
    }
    a = ls, b = le;
    read_cline(s, v, a, b, &c);
    memsummary_line(c.body, c.n, m);
    size_t end = le;
    for (int i = 0; i < TABLE_LINES && next_line(v, &a, &b); i++) {
        read_cline(s, v, a, b, &c);
        if (other_writer(src, &c.px)) continue;
        if (!memsummary_line(c.body, c.n, m)) break;
        end = b;
    }
    return end;
}

/* The event a classified message line states: the rule's kind, the
 * writer's prefix (rank, NCCL device, pid), the clauses' figures. */
/* msg_classify of the message in s->line (n bytes), through the memo. */
static const struct msg_rule *classify_message(struct scan *s, size_t n)
{
    struct message_memo *m = s->clines ? &s->clines->memo : NULL;
    if (m && m->class_n == n && memcmp(m->class_text, s->line, n) == 0) return m->class_rule;
    const struct msg_rule *r = msg_classify(s->line, n);
    s->work.classified++;
    if (m && n > 0 && n <= MEMO_TEXT) {
        memcpy(m->class_text, s->line, n);
        m->class_n = n;
        m->class_rule = r;
    }
    return r;
}

static void event_from(struct scan *s, const struct msg_rule *r, const struct msg_prefix *px,
                       size_t n, struct oom_event *ev)
{
    const char *body = s->line + px->body;
    size_t bn = n - px->body;
    struct message_memo *m = s->clines ? &s->clines->memo : NULL;
    if (m && m->event_n == bn && m->event_rule == r && m->rank == px->rank && m->dev == px->dev &&
        m->pid == px->pid && memcmp(m->event_text, body, bn) == 0) {
        *ev = m->event;
        ev->line = s->lines_before + 1;
        return;
    }
    oom_event_init(ev);
    ev->kind = r->kind;
    ev->framework = r->framework;
    ev->gpu_oom = r->gpu_oom;
    ev->consequence = r->consequence;
    ev->line = s->lines_before + 1;
    ev->rank = px->rank;
    ev->gpu = px->dev;
    ev->pid = px->pid;
    set_text(ev, body, bn);
    msg_extract(r, body, bn, ev);
    s->work.extracted++;
    if (m && bn > 0 && bn <= MEMO_TEXT) {
        memcpy(m->event_text, body, bn);
        m->event_n = bn;
        m->event_rule = r;
        m->rank = px->rank, m->dev = px->dev, m->pid = px->pid;
        m->event = *ev;
    }
}

/* The line opens with a capitalised word and a blank ("If you encounter
 * CUDA out of memory, try to set --tile with a smaller number.", Real-
 * ESRGAN's standing hint under its "Error ..." line, xinntao/Real-ESRGAN
 * #319 = heldout55 h55-09, #101, #314): a sentence of its own, not the rest
 * of a word a wrap cut ("ed: out of memory", "oryError"). Glued to the line
 * above without a blank ("'Half'If you", "assignmentIf you") its words
 * lose the condition that takes the OOM back. (open55) */
static bool next_starts_sentence(const char *t, size_t n)
{
    size_t i = 0;
    if (n < 3 || !isupper((unsigned char)t[0])) return false;
    for (i = 1; i < n && islower((unsigned char)t[i]); i++)
        ;
    return i >= 2 && i < n && t[i] == ' ';
}

/* A message a terminal hard-wrapped inside a word ("...pooled_storage_
 * manager.h:107: cudaMalloc fail" / "ed: out of memory"): the anchor's line
 * is no message alone, but glued to the line before it (no message alone
 * either) it is. Rebuilds s->line from both, without the second line's
 * prefix, and returns its length (0: no message); *ls becomes the first
 * line's start. */
static size_t glue_previous(struct scan *s, const struct view *v, size_t *ls, size_t le,
                            const struct msg_rule **r)
{
    size_t a = *ls, b = *ls;
    *r = NULL; /* no glue: the caller reads the line alone again */
    if (!prev_line(v, &a, &b) || b == a || b - a > MSG_BEFORE_MAX || le - *ls > CTX_MAX)
        return 0;
    size_t n = msg_clean(v->p + a, b - a, SIZE_MAX, s->line, SCAN_LINE_MAX);
    if (n == 0) return 0;
    /* a line whose words were cut where the text ends (cut_end) is no
     * message alone when a line goes on below it */
    const struct msg_rule *before = msg_classify(s->line, n);
    if (is_message(before) && !before->cut_end) return 0;
    size_t m = msg_clean(v->p + *ls, le - *ls, SIZE_MAX, s->ctx, CTX_MAX);
    struct msg_prefix px;
    parse_prefix(v, *ls, le, s->ctx, m, &px);
    size_t bn = m - px.body;
    if (n + 1 + bn >= SCAN_LINE_MAX) return 0;
    /* gap 0 puts a separator no rule string holds: the rule the two lines
     * are side by side ("...Caught OutOfMemoryError" / "Original Traceback
     * (most recent call last):"). Glued, they must be a more specific rule
     * (earlier in the table): a word the wrap cut is whole again. */
    const struct msg_rule *side = NULL;
    bool sentence = next_starts_sentence(s->ctx + px.body, bn);
    for (size_t gap = 0; gap < 3; gap++) { /* then "fail"+"ed", "failed:"+" out" */
        if (gap == 1 && sentence) continue;
        size_t k = n;
        if (gap != 1) s->line[k++] = gap ? ' ' : '\n';
        memcpy(s->line + k, s->ctx + px.body, bn);
        k += bn;
        s->line[k] = '\0';
        *r = msg_classify(s->line, k);
        if (gap == 0) {
            side = *r;
            continue;
        }
        if (*r && (!side || *r < side)) {
            *ls = a;
            return k;
        }
    }
    *r = NULL;
    return 0;
}

/* A setting line that is really a wrapped piece of PyTorch's advice ("...
 * try setting PYTORCH_CUDA_" / "ALLOC_CONF=expandable_segments:True to a"):
 * glued to the line before, it is no setting any more. */
static bool setting_in_advice(struct scan *s, const struct view *v, size_t ls, size_t le)
{
    size_t a = ls, b = ls;
    if (!prev_line(v, &a, &b) || b == a || b - a > CTX_MAX || le - ls > CTX_MAX) return false;
    size_t n = msg_clean(v->p + a, b - a, SIZE_MAX, s->line, SCAN_LINE_MAX);
    size_t m = msg_clean(v->p + ls, le - ls, SIZE_MAX, s->ctx, CTX_MAX);
    if (n + 1 + m >= SCAN_LINE_MAX) return false;
    memcpy(s->line + n, s->ctx, m);
    const struct msg_rule *r = msg_classify(s->line, n + m);
    return !r || r->role != MSG_SETTING;
}

/* A raw line of rich's boxed traceback: its title "╭─── Traceback
 * (most recent call last) ───╮", a frame "│ /path/trainer.py:2203 in … │"
 * or the failing code line marked "│ ❱ 1859 │ return inner_training_loop( │"
 * ("[rank1]: │ ..." boxes after an unprefixed message, zai-org/GLM-4#244 =
 * heldout19 h19-61). */
static bool rich_tb_line(const char *p, size_t n)
{
    if (memmem(p, n, "\xe2\x95\xad", 3)) /* ╭ */
        return memmem(p, n, "Traceback", 9) != NULL;
    return memmem(p, n, "\xe2\x94\x82", 3) && /* │ */
           (memmem(p, n, ".py:", 4) || memmem(p, n, "\xe2\x9d\xb1", 3) /* ❱ */);
}

/* A message without a rank prefix followed by the traceback a launcher
 * printed with one ("torch.OutOfMemoryError: ..." then "[rank0]: Traceback
 * (most recent call last):", torchrun re-printing the failure): the rank
 * of the first prefixed traceback line a few lines on, or -1. */
static int rank_after(struct scan *s, const struct view *v, size_t le, int lines)
{
    size_t a = le, b = le;
    for (int i = 0; i < lines && next_line(v, &a, &b); i++) {
        struct cline c;
        read_cline(s, v, a, b, &c);
        if (c.px.rank >= 0 && (c.kind == STAGE_LINE_HEADER || c.kind == STAGE_LINE_FRAME ||
                               rich_tb_line(v->p + a, b - a)))
            return c.px.rank;
    }
    return -1;
}

/* Does the line [a, b) start a traceback (or stand in one)? */
static bool tb_line(struct scan *s, const struct view *v, size_t a, size_t b, bool *labelled)
{
    struct cline c;
    read_cline(s, v, a, b, &c);
    *labelled = c.labelled;
    if (c.kind == STAGE_LINE_HEADER || c.kind == STAGE_LINE_FRAME) return true;
    /* the paste cut inside its header: "Traceback (mo" */
    size_t t = a;
    while (t < b && (v->p[t] == ' ' || v->p[t] == '\t')) t++;
    if (b - t >= 11 && !memcmp(v->p + t, "Traceback (", 11)) return true;
    /* ... or glued to a progress bar: "| 0/769 [00:00<?, ?it/s]Traceback (most r"
     * (heldout9 h9-63) */
    if (b - t >= 12 && memmem(v->p + t, b - t, "]Traceback (", 12)) return true;
    /* ... or rich's boxed traceback: "│ /home/.../deepspeed/runtime/engine.py:330  │"
     * (heldout9 h9-80) */
    return b - t >= 3 && !memcmp(v->p + t, "\xe2\x94\x82", 3) && memmem(v->p + t, b - t, ".py:", 4);
}

/* A traceback starts within MENTION_TB_LINES after the line ending at le.
 * Each line's answer is kept by its place in the input (struct tb_slot):
 * every line of OOM words asks about the 40 below it, and lines too long
 * for the line cache were read 40 times each. */
static bool traceback_follows(struct scan *s, const struct view *v, size_t le)
{
    size_t a = le, b = le;
    for (int i = 0; i < MENTION_TB_LINES && next_line(v, &a, &b); i++) {
        uint64_t A = v->base + a, B = v->base + b;
        struct tb_slot *e = s->clines ? &s->clines->tb[(A * 0x9E3779B97F4A7C15ull) >> (64 - TB_SLOT_BITS)] : NULL;
        bool tb, labelled;
        if (e && e->b == B && e->a == A && B != 0) {
            tb = e->tb;
        } else {
            tb = tb_line(s, v, a, b, &labelled);
            if (e && !labelled && B != 0) *e = (struct tb_slot){A, B, tb};
        }
        if (tb) return true;
    }
    return false;
}

/* Keep the first GPU OOM (or, for MSG_HOST_WORDS, host memory) the log
 * names only in words, if a traceback follows it: the event scan_finish
 * falls back on. */
static void note_mention(struct scan *s, const struct view *v, const struct msg_rule *r,
                         size_t ls, size_t le, size_t n)
{
    bool host = r->role == MSG_HOST_WORDS;
    if ((host ? s->host_mention_set : s->mention_set) ||
        (!r->standalone && !traceback_follows(s, v, le)))
        return;
    struct msg_prefix px;
    parse_prefix(v, ls, le, s->line, n, &px);
    /* host words standing alone assert, they do not ask ("Is
     * it CPU out of memory?") */
    if (host && r->standalone && mention_question(s->line + px.body, n - px.body, 0) &&
        !traceback_follows(s, v, le))
        return;
    struct oom_event *ev = host ? &s->host_mention : &s->mention;
    event_from(s, r, &px, n, ev);
    apply_near(s, v, r, ls, le, &px, ev); /* the size on the line after */
    read_context(s, v, r, ls, le, s->line, n, &px, ev);
    if (ev->rank < 0) ev->rank = rank_after(s, v, le, MENTION_TB_LINES);
    if (host) {
        s->host_mention_set = true;
    } else {
        s->mention_set = true;
        s->mention_standalone = r->standalone;
        s->mention_vague = r->vague;
    }
}

/* A look-alike that is a process's own failure (a disk, a kernel fault,
 * host memory): like a GPU OOM, it takes the rank of the launcher's
 * traceback that follows it. NCCL errors and timeouts are the ranks'
 * consequences and keep their own prefixes. */
static bool lookalike_failure(const struct msg_rule *r)
{
    return !r->gpu_oom && r->role == MSG_PRIMARY && !r->consequence && strcmp(r->framework, "nccl");
}

/* Handle the anchor at rel offset hit; returns the rel end of what it read. */
static size_t on_hit(struct scan *s, const struct view *v, size_t hit)
{
    size_t ls = line_start(v, hit), le;
    count_to(s, v, ls);
    size_t n = read_message(s, v, ls, hit, &le);
    const struct msg_rule *r = classify_message(s, n);
    /* words cut where the text ends, not where a wrap goes on with the
     * rest of the word on the next line (read as the wrap's) */
    if (r && r->cut_end) {
        size_t k = le;
        while (k < v->len && (v->p[k] == '\n' || v->p[k] == '\r')) k++;
        if (k < v->len && k > le && isalpha((unsigned char)v->p[k])) r = NULL;
    }
    if (!r || r->role == MSG_MENTION) {
        /* a wrap's second half ("ed: out of memory") reads as mere words */
        const struct msg_rule *mention = r;
        size_t glued = glue_previous(s, v, &ls, le, &r);
        if (r) n = glued;
        else if (mention) n = read_message(s, v, ls, hit, &le), r = mention;
    }
    if (!r) return le;
    /* code that would print the words ("+ logger.info(\"[OOM] CUDA out of
     * memory ...\")" in a diff) is no event of this log */
    if (msg_emitter_code(s->line, n)) return le;
    {
        /* ... after a launcher's prefix too ("rasa_1 | 2018-07-26 21:11:36+0000 [-]
         *     raise MemoryError(...)", h34-47) */
        struct msg_prefix code_px;
        msg_prefix_parse(s->line, n, &code_px);
        if (code_px.body && msg_emitter_code(s->line + code_px.body, n - code_px.body)) return le;
    }
    if (!strcmp(r->kind, "host-memory-error") && paddle_class_head(s, v, s->line, n, le)) return le;
    /* a MemoryError named by its class alone, raised through a GPU library:
     * no host memory said to run out (the device's allocator may have
     * failed); the paste's other evidence decides */
    if (!strcmp(r->kind, "host-memory-error") && memory_error_class_only(s->line, n) &&
        gpu_library_near(v, ls, le))
        return le;
    if (r->role == MSG_SETTING) {
        if (!setting_in_advice(s, v, ls, le)) s->rep->expandable_set = true;
        return le;
    }
    if (r->role == MSG_MENTION) {
        note_mention(s, v, r, ls, le, n);
        return le;
    }
    if (r->role == MSG_HOST_WORDS) {
        s->host_words = true;
        note_mention(s, v, r, ls, le, n);
        return le;
    }
    /* NCCL's "Cuda failure N 'reason'" (its WARN line, or the "Last error:"
     * under ncclUnhandledCudaError) says which CUDA call failed and why */
    if (!strcmp(r->kind, "nccl-error") && memmem(s->line, n, "Cuda failure", 12) &&
        !memmem(s->line, n, "out of memory", 13))
        s->nccl_cause_named = true;
    struct msg_prefix px;
    parse_prefix(v, ls, le, s->line, n, &px);
    struct oom_event ev;
    event_from(s, r, &px, n, &ev);
    apply_near(s, v, r, ls, le, &px, &ev);
    le = join_continuations(s, v, &r, le, px.body, &n, &px, &ev);
    bool table = !strcmp(r->kind, "memory-summary");
    if (table) {
        le = read_table(s, v, ls, le, &px, &ev.mem);
        if (ev.gpu < 0) ev.gpu = ev.mem.device;
    }
    if (ev.gpu_oom && !strcmp(ev.kind, "nccl-error")) ev.kind = "nccl-oom";
    uint32_t src = source_key(&px);
    size_t at = 0;
    enum add_action act = plan_add(s, &ev, r, &src, !has_identity(&px), &at);
    /* A table that reports no OOM and belongs to no event is not an event. */
    if (table && !ev.gpu_oom && act == ADD_APPEND) return le;
    if (act == ADD_DONE) {
        /* A repeat may carry what the first lacked: its stage (a TF node
         * named after the second copy), its step. */
        struct oom_event *o = &s->rep->events[at];
        if (o->stage == OOM_STAGE_UNKNOWN && r->role == MSG_PRIMARY && at < MAX_STAGED_EVENTS &&
            o->repeats <= 3) {
            read_context(s, v, r, ls, le, s->line, n, &px, &ev);
            /* ... or the words on its own line before the message, as the
             * first copy's are read ("Stage preprocess failed for run 1,
             * pages [5]: std::bad_alloc" below a sentence naming the
             * error, diagopen49); not a person's sentence ("then generate
             * failed , CUDA out of memory" under a title naming it, h39-69) */
            if (r->stage == OOM_STAGE_UNKNOWN && !stage_user_text(v->p + ls, hit - ls))
                ev.stage = stage_combine(ev.stage, glued_stage(v, ls, hit));
            o->stage = ev.stage;
            if (o->weak_stage == OOM_STAGE_UNKNOWN) o->weak_stage = ev.weak_stage;
            if (o->step < 0) o->step = ev.step;
            o->attention_frames |= ev.attention_frames;
        }
        return le;
    }
    if (s->rep->n_events < MAX_STAGED_EVENTS || act == ADD_REPLACE) {
        /* what the part it replaces saw (merge_into) stands when this one sees nothing */
        enum oom_stage kept_stage = ev.stage;
        long kept_step = ev.step;
        s->glued = (int)glued_stage(v, ls, hit);
        read_context(s, v, r, ls, le, s->line, n, &px, &ev);
        s->glued = OOM_STAGE_UNKNOWN;
        /* a message on the paste's title (an issue titled with the
         * error, "[Bug]: torch.cuda.OutOfMemoryError: CUDA out of memory.
         * Tried to allocate 448.00 MiB. GPU" over an engine's start-up lines
         * and then "[rank0]: Traceback ...", aphrodite-engine in dphnAI/sonar
         * = heldout48 h48-56) reads as far down as an OOM named in words
         * does: the paste's log lines stand between it and its traceback */
        if (ev.rank < 0 && (ev.gpu_oom || lookalike_failure(r)))
            ev.rank = rank_after(s, v, le, paste_title_line(v, ls) ? MENTION_TB_LINES : RANK_AFTER_LINES);
        long glued = glued_step(v, ls, hit);
        if (glued >= 0) ev.step = glued;
        if (r->stage == OOM_STAGE_UNKNOWN) ev.stage = stage_combine(ev.stage, glued_stage(v, ls, hit));
        if (ev.stage == OOM_STAGE_UNKNOWN) ev.stage = kept_stage;
        if (ev.step < 0) ev.step = kept_step;
    }
    if (store(s, &ev, act, at, r->role, src) < 0) s->nomem = true;
    return le;
}

/* ---- public ------------------------------------------------------------------ */

int scan_init(struct scan *s, struct oom_report *rep, struct oomlab_err *err)
{
    memset(s, 0, sizeof *s);
    oom_report_init(rep);
    s->rep = rep;
    s->wm = wm_build(); /* its tables: from the first block (wm_learn) */
    s->line = malloc(SCAN_LINE_MAX + 2);
    s->ctx = malloc(CTX_MAX + 2);
    s->near_memo = calloc(1, sizeof *s->near_memo);
    s->clines = calloc(1, sizeof *s->clines);
    if (!s->wm || !s->line || !s->ctx || !s->near_memo || !s->clines) {
        scan_release(s);
        return oomlab_err_set(err, "out of memory setting up the log scanner");
    }
    return 0;
}

int scan_block(struct scan *s, const char *buf, size_t len, uint64_t base, uint64_t from,
               uint64_t upto)
{
    signed char srun = -1;
    struct view v = {buf, len, base, &srun};
    if (upto > base + len) upto = base + len;
    if (from < base) from = base;
    if (!s->wm->learned && from < upto) {
        if (wm_learn(s->wm, buf + (from - base), (size_t)(upto - from)) < 0) return -1;
        s->wm->learned = true;
    }
    for (uint64_t slice = from; slice < upto; slice += SLICE) {
        size_t lo = (size_t)(slice - base);
        size_t hi = (size_t)((upto - slice > SLICE ? slice + SLICE : upto) - base);
        /* Count this slice's newlines first: the sequential pass pulls it
         * into cache for the skip search, which reads it out of order. */
        uint64_t counted0 = s->counted;
        long slice_lines = s->counted == slice ? (long)scan_count_newlines(buf + lo, hi - lo) : -1;
        size_t pos = lo;
        if (base + pos < s->skip_until) pos = (size_t)(s->skip_until - base);
        size_t next_long = pos < hi ? wm_next(s->wm, &v, pos, hi) : SIZE_MAX;
        size_t next_short = pos < hi ? short_next(s->wm, &v, pos, hi, &s->work.short_bytes) : SIZE_MAX;
        while (pos < hi) {
            size_t hit = next_long < next_short ? next_long : next_short;
            if (hit == SIZE_MAX) break;
            size_t end = on_hit(s, &v, hit);
            s->skip_until = base + (end > hit ? end : hit + 1);
            pos = end > hit ? end : hit + 1;
            if (s->nomem) return -1;
            if (pos >= hi) break;
            if (next_long < pos) next_long = wm_next(s->wm, &v, pos, hi);
            if (next_short < pos) next_short = short_next(s->wm, &v, pos, hi, &s->work.short_bytes);
        }
        if (slice_lines >= 0 && s->counted == counted0) {
            s->lines_before += slice_lines;
            s->counted = base + hi;
        }
        count_to(s, &v, hi);
    }
    return 0;
}

/* NCCL's error that its CUDA call failed, without saying which failure
 * ("NCCL error in: ...ProcessGroupNCCL.cpp:3384, unhandled cuda error (run
 * with NCCL_DEBUG=INFO for details)", "ncclUnhandledCudaError: Call to CUDA
 * function failed.", "NCCL Error 1: unhandled cuda error"), where the log
 * names no other CUDA failure behind it (scan.nccl_cause_named): a device
 * allocation NCCL could not make is the common one, so it explains nothing
 * a GPU OOM named in words does not (ultralytics/ultralytics#19375 =
 * heldout60 h60-38 under the title "OOM Error for MultiGPU"; heldout30
 * h30-89, "there will be a situation of out of memory"). NCCL's "Cuda
 * failure 1 'invalid argument'" under it (hiyouga/LlamaFactory#8036 on
 * WSL2) names another cause: it explains the failure. (open60) */
static bool nccl_cause_unsaid(const struct scan *s, const struct oom_event *e)
{
    if (s->nccl_cause_named || strcmp(e->kind, "nccl-error")) return false;
    size_t n = strnlen(e->text, sizeof e->text);
    return memmem(e->text, n, "unhandled cuda error", 20) || memmem(e->text, n, "ncclUnhandledCudaError", 22);
}

/* May a GPU OOM named only in words be the log's event? Not when the log
 * says host memory ran out, nor beside an event that explains the failure
 * otherwise (a host look-alike, an NCCL error, a full disk); a kernel fault
 * may stand beside it (an OOM explains it, msg_rule.oom_symptom), and so
 * may NCCL's unhandled CUDA error (nccl_cause_unsaid). */
static bool mention_may_stand(const struct scan *s, bool standalone)
{
    const struct oom_report *rep = s->rep;
    if (s->host_words) return false;
    for (size_t i = 0; i < rep->n_events; i++) {
        const struct oom_event *e = &rep->events[i];
        /* TF's allocator retry warning (or its line quoted in prose) says no
         * failure happened: a GPU OOM the log names with its device ("Randomly
         * crash for GPU OOM error during training", tensorflow/models#3316)
         * explains the failure better. */
        if (standalone && !e->gpu_oom && msg_kind_not_a_failure(e->kind)) continue;
        if (!e->consequence && !msg_kind_oom_symptom(e->kind) && !nccl_cause_unsaid(s, e)) return false;
    }
    return true;
}

/* No GPU OOM message, but the log named one in words above a traceback (or
 * with its device, "CUDA OOM"): that is the event, unless something else
 * explains the failure (a host look-alike, an NCCL error, a full disk, host
 * memory said in words to have run out). A kernel fault does not: an OOM
 * explains it (msg_rule.oom_symptom), and becomes its cause. */
static void promote_mention(struct scan *s)
{
    struct oom_report *rep = s->rep;
    if (!s->mention_set || !mention_may_stand(s, s->mention_standalone)) return;
    /* words that name a device memory error beside a kernel fault: the fault
     * is that error (msg_rule.vague) */
    for (size_t i = 0; s->mention_vague && i < rep->n_events; i++)
        if (msg_kind_oom_symptom(rep->events[i].kind)) return;
    struct oom_event ev = s->mention;
    ev.gpu_oom = true;
    if (ev.stage == OOM_STAGE_UNKNOWN) ev.stage = ev.weak_stage;
    if (store(s, &ev, ADD_APPEND, 0, MSG_PRIMARY, 0) < 0) return;
    rep->primary = (long)(rep->n_events - 1);
}

static bool has_figures(const struct oom_event *e)
{
    const struct oom_bytes *b = &e->bytes;
    return b->requested >= 0 || b->capacity >= 0 || b->free >= 0 || b->allocated >= 0 ||
           b->reserved >= 0 || b->reserved_unallocated >= 0 || b->process_in_use >= 0 || e->mem.present;
}

/* A GPU OOM named first without a size (an issue title "Cuda out of memory
 * error", a blog heading over the error it explains) and the message itself
 * further down, with its figures ("[rank2]: torch.OutOfMemoryError: CUDA out
 * of memory. Tried to allocate 32.00 MiB. GPU 2 has ...", h19-71): one
 * failure, told twice (unless they name different devices or ranks). The message is
 * the event; what the bare naming read around it (device, stage, step, rank)
 * fills what the message lacks. */
static bool fold_bare_naming_once(struct oom_report *rep)
{
    size_t a = 0;
    while (a < rep->n_events && !(rep->events[a].gpu_oom && !rep->events[a].consequence)) a++;
    if (a >= rep->n_events || has_figures(&rep->events[a])) return false;
    for (size_t b = a + 1; b < rep->n_events; b++) {
        struct oom_event *e = &rep->events[b];
        const struct oom_event *bare = &rep->events[a];
        if (!e->gpu_oom || e->consequence || !has_figures(e)) continue;
        /* two devices or two ranks: two failures */
        if ((bare->gpu >= 0 && e->gpu >= 0 && bare->gpu != e->gpu) ||
            (bare->rank >= 0 && e->rank >= 0 && bare->rank != e->rank))
            return false;
        if (e->gpu < 0) e->gpu = bare->gpu;
        if (e->stage == OOM_STAGE_UNKNOWN) e->stage = bare->stage;
        if (e->weak_stage == OOM_STAGE_UNKNOWN) e->weak_stage = bare->weak_stage;
        if (e->step < 0) e->step = bare->step;
        if (e->rank < 0) e->rank = bare->rank;
        memmove(rep->events + a, rep->events + a + 1, (rep->n_events - a - 1) * sizeof *rep->events);
        rep->n_events--;
        return true;
    }
    return false;
}

/* ... told more than twice: every bare naming above the message folds into
 * it (an issue title, the issue template's "- 标题：" field repeating it and
 * a sentence quoting it, over Paddle's "Out of memory error on GPU 0.
 * Cannot allocate 1.000000GB ...", PaddlePaddle/Paddle#21694 = heldout58
 * h58-40). A bare naming below the message stays its own. (open58) */
static void fold_bare_naming(struct oom_report *rep)
{
    while (fold_bare_naming_once(rep)) {
    }
}

/* A look-alike named on the paste's first line with no rank and no figure
 * (a title; the frames a traceback below shows may lead to it) and the
 * same kind again below with a rank (a writer's rank prefix, or any rank
 * its line gives): one failure, told twice. The log's own copy carries what a title cannot, the writer's
 * rank prefix ("[rank0]:[E219 ...] ProcessGroupNCCL.cpp:1595] ... watchdog
 * thread terminated with exception: CUDA error: an illegal memory access
 * was encountered" under that error as the title, vllm-project/vllm#8177 =
 * heldout57 h57-22; "[rank2]:[E314 ...] ProcessGroupNCCL.cpp:1595] ..." under
 * the title "[Bug] RuntimeError: CUDA error: an illegal memory access was
 * encountered", InternLM/lmdeploy#3258); it stays, and takes what the
 * first line saw. Only where the log names no GPU OOM: fold_bare_naming
 * reads those. */
static void fold_titled_lookalike(struct oom_report *rep)
{
    if (rep->n_events < 2) return;
    for (size_t i = 0; i < rep->n_events; i++)
        if (rep->events[i].gpu_oom) return;
    const struct oom_event *title = &rep->events[0];
    if (title->line != 1 || title->rank >= 0 || has_figures(title)) return;
    for (size_t b = 1; b < rep->n_events; b++) {
        struct oom_event *e = &rep->events[b];
        if (strcmp(e->kind, title->kind) || e->rank < 0) continue;
        if (e->gpu < 0) e->gpu = title->gpu;
        if (e->stage == OOM_STAGE_UNKNOWN) e->stage = title->stage;
        if (e->weak_stage == OOM_STAGE_UNKNOWN) e->weak_stage = title->weak_stage;
        if (e->step < 0) e->step = title->step;
        memmove(rep->events, rep->events + 1, (rep->n_events - 1) * sizeof *rep->events);
        rep->n_events--;
        return;
    }
}

/* Issue 12: a GPU OOM named first without a size and nothing
 * leading to it (an issue title "Re: Error: ArrayFire Exception (Device out
 * of memory:101)" copied from another thread), over the same framework's
 * own failure further down that is no OOM ("ArrayFire Exception (Driver not
 * available or incompatible:102)", facebookresearch/wav2letter = heldout24
 * h24-09) and no GPU OOM after it: the paste's failure is the one it shows,
 * the title's words name another. The mirror of fold_bare_naming. A kernel
 * fault an OOM leaves behind (oom_symptom) is no such failure. */
static void drop_bare_naming_shown_otherwise(struct oom_report *rep)
{
    size_t a = 0;
    while (a < rep->n_events && !(rep->events[a].gpu_oom && !rep->events[a].consequence)) a++;
    if (a >= rep->n_events) return;
    struct oom_event *bare = &rep->events[a];
    /* the log's first line: a title, not a bare message of the run
     * itself ("CUDA error: out of memory" over a later device-side assert
     * of the same writer stays its OOM) */
    if (!bare->unled || has_figures(bare) || bare->line != 1) return;
    bool shown = false;
    for (size_t b = a + 1; b < rep->n_events; b++) {
        const struct oom_event *e = &rep->events[b];
        if (e->gpu_oom) return;
        if (e->consequence || e->line <= bare->line || strcmp(e->framework, bare->framework) ||
            msg_kind_oom_symptom(e->kind))
            continue;
        shown = true;
    }
    if (shown) bare->gpu_oom = false;
}

static void mark_consequences(struct scan *s);

/* a GPU OOM that a later line of its framework answers as caught
 * (msg_rule.answers_oom: TensorRT's "Error Code 2: OutOfMemory" and its
 * "Requested amount of GPU memory (17179869184 bytes) could not be
 * allocated", then "Skipping tactic 8 due to insufficient memory on requested
 * size of 17179869184", VoltaML/voltaML-fast-stable-diffusion#15): the
 * builder dropped the tactic and went on, so that OOM is no failure. An OOM
 * after the answer, or further above it, stays one. */
static void drop_answered_ooms(struct oom_report *rep)
{
    for (size_t i = 0; i < rep->n_events; i++) {
        const struct oom_event *a = &rep->events[i];
        if (a->gpu_oom || a->line < 0 || !msg_kind_answers_oom(a->kind)) continue;
        for (size_t j = 0; j < rep->n_events; j++) {
            struct oom_event *e = &rep->events[j];
            if (!e->gpu_oom || e->line < 0 || e->line > a->line ||
                a->line - e->line > MSG_ANSWER_LINES || strcmp(e->framework, a->framework))
                continue;
            e->gpu_oom = false;
        }
    }
}

/* diagunk16: one failure logged twice. TensorFlow's kernel logs
 * "W …op_kernel.cc:…] OP_REQUIRES failed at …: Resource exhausted: OOM when
 * allocating tensor …" where the op fails (OpKernelContext::
 * CtxFailureWithWarning logs, then sets the status: tensorflow/tensorflow
 * tensorflow/core/framework/op_kernel.cc), then the session raises ResourceExhaustedError with the node a few lines
 * on, its own message ending the walk of the first (heldout37 h37-14: the
 * node "…/gradients/AddN_14…" names backward). A later GPU OOM of the same
 * framework within RAISED_LINES lines that has a stage gives it to a root
 * cause that has none; a host look-alike after it is another failure. */
#define RAISED_LINES 40

static bool same_failure_raised(const struct oom_event *root, const struct oom_event *e)
{
    return e->gpu_oom && e->stage != OOM_STAGE_UNKNOWN && !strcmp(e->framework, root->framework) &&
           e->line > root->line && e->line - root->line <= RAISED_LINES;
}

/* the root cause is a message nothing leads to (an issue's
 * title, a sentence) and names no stage; a later GPU OOM of the same paste
 * does: that is the failure the title names, shown where it happened (a
 * title over ComfyUI's "Sampling 81 frames" and "!!! Exception during
 * processing !!! CUDA error: out of memory", kijai/ComfyUI-WanVideoWrapper
 * #93 = h30-95). The first later OOM that something leads to (frames,
 * log lines) and that has a stage gives it; a sentence's own stage does
 * not (an explainer page's prose under its one message, h20-96). */
static void title_takes_later_stage(struct oom_report *rep)
{
    if (rep->primary < 0) return;
    struct oom_event *root = &rep->events[rep->primary];
    if (root->stage != OOM_STAGE_UNKNOWN) return;
    for (size_t i = (size_t)rep->primary + 1; i < rep->n_events; i++) {
        const struct oom_event *e = &rep->events[i];
        if (!root->unled) {
            if (same_failure_raised(root, e)) {
                root->stage = e->stage;
                return;
            }
            continue;
        }
        /* led to by its own frames or log lines, not words of its own;
         * or a message nothing leads to whose stage the tool's
         * own lines above it gave (a TensorRT build's "start building engine"
         * over "[E] [TRT] ... Cuda Error in allocate: 2 (out of memory)",
         * under the title "Cuda Error (out of memory)") */
        bool led = !e->unled || (e->weak_from_log && e->stage == e->weak_stage);
        if (!e->gpu_oom || !led || e->stage == OOM_STAGE_UNKNOWN) continue;
        root->stage = e->stage;
        return;
    }
}

void scan_finish(struct scan *s, bool ends_with_newline)
{
    struct oom_report *rep = s->rep;
    rep->lines = s->lines_before + (s->counted > 0 && !ends_with_newline ? 1 : 0);
    rep->truncated = s->counted > 0 && !ends_with_newline;
    rep->primary = -1;
    fold_bare_naming(rep);
    fold_titled_lookalike(rep);
    drop_answered_ooms(rep);
    drop_bare_naming_shown_otherwise(rep);
    /* the weakest stage evidence, where nothing else named one */
    for (size_t i = 0; i < rep->n_events; i++)
        if (rep->events[i].stage == OOM_STAGE_UNKNOWN) rep->events[i].stage = rep->events[i].weak_stage;
    for (size_t i = 0; i < rep->n_events; i++)
        if (rep->events[i].gpu_oom && !rep->events[i].consequence) {
            rep->primary = (long)i;
            break;
        }
    if (rep->primary < 0) promote_mention(s);
    title_takes_later_stage(rep);
    /* Host memory named in words above a traceback, and no event at all:
     * that is the event, a host look-alike with the traceback's stage ("FSDP
     * SHARDED_STATE_DICT Runs into CPU OOM" over the frames of a sharded
     * save, pytorch/pytorch#104143 = heldout15 h15-26). */
    if (rep->primary < 0 && !rep->n_events && s->host_mention_set) {
        if (s->host_mention.stage == OOM_STAGE_UNKNOWN) s->host_mention.stage = s->host_mention.weak_stage;
        store(s, &s->host_mention, ADD_APPEND, 0, MSG_PRIMARY, 0);
    }
    mark_consequences(s);
}

/* Other ranks' NCCL failures after an OOM are its consequences; so are
 * the kernel faults it leaves behind (oom_symptom), in this log after it or
 * with the OOM named only in words. */
static void mark_consequences(struct scan *s)
{
    struct oom_report *rep = s->rep;
    if (rep->primary < 0) return;
    const struct oom_event *root = &rep->events[rep->primary];
    for (size_t i = 0; i < rep->n_events; i++) {
        struct oom_event *e = &rep->events[i];
        if ((long)i == rep->primary || e->gpu_oom) continue;
        if (!strcmp(e->framework, "nccl") ||
            (msg_kind_oom_symptom(e->kind) && (e->line >= root->line || root->line < 0 ||
                                               !strcmp(root->kind, "oom-mention"))))
            e->consequence = true;
    }
}

/* ---- any failure, named --------------------------------------------------- */

#define FINAL_LINES 4000       /* lines read back from the end for the final error */
#define FINAL_BYTES (1u << 20)

/* The framework a failure's text names, by word (case as libraries print it). */
static const char *framework_of(const char *t, size_t n)
{
    static const struct { const char *word, *framework; } words[] = {
        {"paddle", "paddle"}, {"Paddle", "paddle"}, {"tensorflow", "tensorflow"},
        {"jax", "jax"}, {"XLA", "jax"}, {"deepspeed", "deepspeed"}, {"DeepSpeed", "deepspeed"},
        {"torch", "pytorch"}, {"Torch", "pytorch"}, {"triton", "triton"}, {"Triton", "triton"},
        {"CUDA", "cuda"}, {"cuda", "cuda"},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (memmem(t, n, words[i].word, strlen(words[i].word))) return words[i].framework;
    return NULL;
}

/* The 1-based line of view offset at. */
static long view_line(const struct scan *s, const struct view *v, size_t at)
{
    return s->lines_before - (long)scan_count_newlines(v->p + at, v->len - at) + 1;
}

/* The framework the lines above offset at name (their frames:
 * "site-packages/torch/…"), up to `lines` of them; NULL when none. */
static const char *framework_above(const struct view *v, size_t at, int lines)
{
    const char *fw = NULL;
    size_t a = at, b = at;
    for (int i = 0; i < lines && !fw && prev_line(v, &a, &b); i++) fw = framework_of(v->p + a, b - a);
    return fw;
}

/* The log line [a, b) read as a message of rule r, cleaned into s->line
 * (its writer's prefix into *px): the event it states, on its own line.
 * Returns the cleaned length. */
static size_t line_event(struct scan *s, const struct view *v, const struct msg_rule *r, size_t a, size_t b,
                         struct msg_prefix *px, struct oom_event *ev)
{
    size_t n = msg_clean(v->p + a, b - a, SIZE_MAX, s->line, SCAN_LINE_MAX);
    parse_prefix(v, a, b, s->line, n, px);
    event_from(s, r, px, n, ev);
    ev->line = view_line(s, v, a);
    return n;
}

/* Where text glued after a progress bar's end ("10.71s/it]", "3.2it/s]")
 * starts in the line; 0 if no bar ends inside it with text after it. */
static size_t bar_end(const char *t, size_t n)
{
    size_t end = 0;
    for (size_t i = 0; i + 5 <= n; i++)
        if (!memcmp(t + i, "it/s]", 5) || !memcmp(t + i, "s/it]", 5)) end = i + 5;
    while (end && end < n && (t[end] == ' ' || t[end] == '\r')) end++;
    return end < n ? end : 0;
}

/* A log with no event at all: its final error (the last line an exception's
 * class starts, else the last line with an error word, read back from the
 * end) is a look-alike "other-error" with the stage the engine reads around
 * it. Frames, code and tracebacks' headers are no error lines. */
static bool final_error_event(struct scan *s, const struct view *v, struct oom_event *out, bool *is_strong)
{
    size_t a = v->len, b = v->len, wa = 0, wb = 0;
    bool weak = false, strong = false;
    if (b > 0 && v->p[b - 1] == '\n') b--;
    a = line_start(v, b);
    for (int lines = 0; lines < FINAL_LINES && v->len - a < FINAL_BYTES; lines++) {
        struct cline c;
        read_cline(s, v, a, b, &c);
        /* an error glued behind a progress bar (" 26%|##5 |
         * 10/39 [01:38<05:10, 10.71s/it]Exception in device=TPU:0: ...
         * Failed to meet rendezvous", an evaluation bar): the bar's indent
         * makes the line no code; the text after the bar is read */
        size_t glue = c.kind == STAGE_LINE_OTHER ? 0 : bar_end(c.body, c.n);
        if (c.kind == STAGE_LINE_OTHER || glue) {
            int k = msg_error_line(c.body + glue, c.n - glue);
            if (k == 2) {
                wa = a, wb = b, strong = true;
                break;
            }
            if (k == 1 && !weak) wa = a, wb = b, weak = true;
        }
        if (!prev_line(v, &a, &b)) break;
    }
    if (!strong && !weak) return false;
    const struct msg_rule *r = msg_other_error_rule();
    struct msg_prefix px;
    struct oom_event ev;
    size_t n = line_event(s, v, r, wa, wb, &px, &ev);
    /* an error about memory that no row knows is no "other" failure */
    if (msg_memory_words(s->line + px.body, n - px.body)) return false;
    const char *fw = framework_of(s->line + px.body, n - px.body);
    read_context(s, v, r, wa, wb, s->line, n, &px, &ev);
    if (!fw) fw = framework_above(v, wa, 40);
    if (fw) ev.framework = fw;
    if (ev.rank < 0) ev.rank = rank_after(s, v, wb, RANK_AFTER_LINES);
    if (ev.stage == OOM_STAGE_UNKNOWN) ev.stage = ev.weak_stage;
    *out = ev;
    *is_strong = strong;
    return true;
}

/* a paste that ends inside a Python traceback, its
 * exception line cut off (an issue excerpt, a truncated comment: torch.save
 * frames ending mid-path, h25-63; a DataLoader pin-memory thread's frames
 * ending "raise EO", h20-80). Python prints the exception after the frames
 * ("most recent call last"), so frames that end the paste under such a
 * header mean a failure whose message is not in the paste: walking back from
 * the end over blanks and code fences, the last line is a frame or its code,
 * and frames and code (CUT_TB_LINES at most) lead up to that header. Formats
 * that print the error first (glog's check-failure stack, Julia, Lua, Go)
 * are not cut when their frames end a paste. Sets *la, *lb to the last line. */
#define CUT_TB_LINES 400
static bool cut_traceback(struct scan *s, const struct view *v, size_t *la, size_t *lb)
{
    size_t a = v->len, b = v->len;
    bool last = false, frame = false;
    if (!prev_line(v, &a, &b)) return false;
    for (int lines = 0; lines < CUT_TB_LINES; lines++) {
        struct cline c;
        read_cline(s, v, a, b, &c);
        bool fence = c.n >= 3 && !memcmp(c.body, "```", 3);
        if (c.kind == STAGE_LINE_HEADER)
            return last && frame && memmem(c.body, c.n, "most recent call last", 21);
        if (c.kind == STAGE_LINE_FRAME || c.kind == STAGE_LINE_CODE) {
            if (!last) *la = a, *lb = b, last = true;
            frame |= c.kind == STAGE_LINE_FRAME;
        } else if (c.kind != STAGE_LINE_BLANK && !(fence && !last)) {
            return false; /* log text between the frames and the end: not cut there */
        }
        if (!prev_line(v, &a, &b)) return false;
    }
    return false;
}

static bool cut_traceback_event(struct scan *s, const struct view *v, struct oom_event *out)
{
    size_t wa = 0, wb = 0;
    if (!cut_traceback(s, v, &wa, &wb)) return false;
    const struct msg_rule *r = msg_cut_traceback_rule();
    struct msg_prefix px;
    struct oom_event ev;
    size_t n = line_event(s, v, r, wa, wb, &px, &ev);
    read_context(s, v, r, wa, wb, s->line, n, &px, &ev);
    const char *fw = framework_above(v, wb, CUT_TB_LINES);
    if (fw) ev.framework = fw;
    if (ev.stage == OOM_STAGE_UNKNOWN) ev.stage = ev.weak_stage;
    *out = ev;
    return true;
}

/* a traceback whose line breaks were lost (a comment pasted
 * flat: 'File ".../trainer.py", line 745, in train_step loss =
 * self.train_batch(batch, True) ^^^^ ... RuntimeError: CUDA error: an illeg'),
 * its exception's class inside the line after a frame; a terminal's hard
 * wrap may cut it inside a word, the next line going on ("al memory access
 * was encountered", h19-49). The last such class among the last FLAT_LINES
 * lines, glued to the next line when the wrap cut a word, is the failure:
 * the row that knows it (a kernel fault), else other-error; never a GPU OOM
 * (the call is the scan's). Offset of the class in [p, p+n), or SIZE_MAX. */
#define FLAT_LINES 8
#define FLAT_TRIES 16
static size_t flat_head(const char *p, size_t n)
{
    const char *frame = memmem(p, n, "File \"", 6);
    if (!frame || !memmem(frame, n - (size_t)(frame - p), "\", line ", 8)) return SIZE_MAX;
    /* from the end: the last class wins; a bounded number of candidates */
    size_t from = (size_t)(frame - p);
    int tries = 0;
    for (size_t i = n; i-- > from && tries < FLAT_TRIES;) {
        bool err = i + 7 <= n && !memcmp(p + i, "Error: ", 7);
        bool exc = i + 11 <= n && !memcmp(p + i, "Exception: ", 11);
        if (!err && !exc) continue;
        size_t at = i;
        while (at > 0 && p[at - 1] != ' ' && p[at - 1] != '\t') at--;
        tries++;
        if (msg_error_line(p + at, n - at) == 2) return at;
    }
    return SIZE_MAX;
}

static bool flattened_error_event(struct scan *s, const struct view *v, struct oom_event *out)
{
    size_t a = v->len, b = v->len;
    for (int lines = 0; lines < FLAT_LINES && prev_line(v, &a, &b); lines++) {
        size_t n = b - a;
        if (n > SCAN_LINE_MAX) continue;
        size_t head = flat_head(v->p + a, n);
        if (head == SIZE_MAX) continue;
        size_t tn = msg_clean(v->p + a + head, n - head, SIZE_MAX, s->line, SCAN_LINE_MAX);
        /* the wrap cut a word: the next line's start goes on with it */
        size_t na = a, nb = b;
        if (tn > 0 && isalpha((unsigned char)s->line[tn - 1]) && next_line(v, &na, &nb) && nb > na &&
            islower((unsigned char)v->p[na]))
            tn += msg_clean(v->p + na, nb - na, SIZE_MAX, s->line + tn, SCAN_LINE_MAX - tn);
        const struct msg_rule *r = msg_classify(s->line, tn);
        if (r && r->gpu_oom) return false;
        if (!r || r->role != MSG_PRIMARY) r = msg_other_error_rule();
        if (r == msg_other_error_rule() && msg_memory_words(s->line, tn)) return false;
        struct msg_prefix px;
        memset(&px, 0, sizeof px);
        px.rank = px.dev = px.pid = -1;
        struct oom_event ev;
        event_from(s, r, &px, tn, &ev);
        ev.line = view_line(s, v, a);
        /* the frames before the class, on the same line, give the stage */
        char *flat = malloc(n + 2);
        if (!flat) return false;
        size_t fn = msg_clean(v->p + a, n, SIZE_MAX, flat, n + 1);
        read_context(s, v, r, a, b, flat, fn, &px, &ev);
        free(flat);
        if (ev.stage == OOM_STAGE_UNKNOWN) ev.stage = ev.weak_stage;
        *out = ev;
        return true;
    }
    return false;
}

static void note_evidence(struct scan *s, const struct view *v, size_t at, size_t end,
                          const char *what);
static bool binary_bytes(const char *p, size_t n);

/* A paste cut inside its traceback under a title that names the device's
 * memory ("Hign GPU memory requirement" over an IPython runfile traceback
 * into the demo's embed_utterance, resemble-ai/Resemblyzer#14 = heldout36
 * h36-67; "VRAM usage randomly spikes. Continues fine after restart." over
 * F5-TTS's training forward, SWivid/F5-TTS#233 = h28-52; "RL mode requires
 * much more GPU memory" over the RL batch's forward,
 * rohithreddy024/Text-Summarizer-Pytorch#6 = h40-55): the failure the
 * paste cuts is the GPU's memory running out, as the labellers read it (a
 * doubtful call, the message is not shown). The title only (the issue's
 * own summary, over a blank line), read by mention_device_memory: no OOM
 * words needed, no guard's word on it. Measured on the even half of the
 * seen sets (tests/corpus, corpus-heldout, the even heldoutN): a cut
 * traceback under such a title 3 GPU OOMs, 0 look-alikes; the cut
 * tracebacks' look-alikes' titles ("Understand why DataLoader gets killed",
 * "Exception in thread ... (_pin_memory_loop)", "CUDA malloc. Fatal Python
 * error: Aborted") name no device memory. The report's context note says
 * what the call rests on. (prosecall) */
static bool memory_title_over_cut(struct scan *s, const struct view *v, size_t *ta, size_t *tb)
{
    if (v->base != 0 || !v->len) return false;
    size_t a = 0, b = line_end(v, 0);
    for (;;) {
        size_t i = a;
        while (i < b && isspace((unsigned char)v->p[i])) i++;
        if (i < b) break;
        if (!next_line(v, &a, &b)) return false;
    }
    if (!paste_title_line(v, a)) return false;
    struct cline c;
    read_cline(s, v, a, b, &c);
    if (c.kind != STAGE_LINE_OTHER || binary_bytes(v->p + a, b - a)) return false;
    *ta = a, *tb = b;
    return mention_device_memory(c.body, c.n);
}

static void final_error(struct scan *s, const struct view *v)
{
    struct oom_event ev;
    bool strong, cut = false;
    if (!final_error_event(s, v, &ev, &strong) && !flattened_error_event(s, v, &ev)) {
        if (!cut_traceback_event(s, v, &ev)) return;
        cut = true;
    }
    size_t ta = 0, tb = 0;
    bool on_title = cut && memory_title_over_cut(s, v, &ta, &tb);
    if (on_title) ev.gpu_oom = true;
    if (store(s, &ev, ADD_APPEND, 0, MSG_PRIMARY, 0) < 0) {
        s->nomem = true;
        return;
    }
    if (on_title) {
        s->rep->primary = (long)(s->rep->n_events - 1);
        mark_consequences(s);
        memset(&s->rep->context, 0, sizeof s->rep->context);
        s->rep->context.call = OOM_CONTEXT_CUT_TITLE;
        note_evidence(s, v, ta, tb, "the title");
    }
}

/* no GPU OOM found by the structural scan, none named in the
 * words its rows know: read the log's prose lines (mention.c, by concept:
 * OOM words and a device in one sentence, no guard, no denial) for a GPU
 * OOM named only in words, an issue title or a sentence ("cuda running out
 * of memory", "GPU run out of memory if 2 workers use the same GPU"). The
 * first such line is the event, with the stage read around it. Runs only
 * here, where no event was found, so the hot scan keeps its speed. */
/* A line with NUL or C0 control bytes (not tab, CR, ESC) is no prose: binary
 * data that happens to hold the words (tests/cli/diagnose-binary). */
static bool binary_bytes(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c < 0x20 && c != '\t' && c != '\r' && c != 0x1b) return true;
    }
    return false;
}

/* How a prose pass places OOM words: with their device in the sentence;
 * (weak) with it nearby; (context) with the paste's context naming it. */
enum prose_mode { PROSE_DEVICE, PROSE_NEAR, PROSE_CONTEXT };

/* What prose_hit needs of a line below OOM words, read once per line: each
 * line of OOM words looks PROSE_GUARD_LINES lines down, so a paste of such
 * lines (bench/hostile's prose-words) read every line below 30 times, its
 * words split each time. The pass keeps the last PROSE_MEMO lines it read,
 * by their place in the pass (a line's number mod PROSE_MEMO), each checked
 * by its bounds before use. */
#define PROSE_MEMO 32 /* > PROSE_GUARD_LINES: the lines below one line all fit */
struct prose_below {
    size_t a, b;   /* the line [a, b) of the view; b == 0 empty */
    bool blank;    /* nothing but blanks */
    bool post;     /* another person's post starts here */
    bool prose;    /* words, not code, a table or a code fence */
    enum mention_device dv; /* its device or guard words (prose, no binary bytes) */
};
struct prose_memo {
    struct prose_below line[PROSE_MEMO];
};

static const struct prose_below *below_read(struct scan *s, const struct view *v,
                                            struct prose_memo *memo, size_t line, size_t a, size_t b)
{
    struct prose_below *e = &memo->line[line % PROSE_MEMO];
    if (e->b == b && e->a == a && b != 0) return e;
    struct cline d;
    read_cline(s, v, a, b, &d);
    *e = (struct prose_below){a, b, d.kind == STAGE_LINE_BLANK, false, false, MENTION_DEV_NONE};
    if (e->blank) return e;
    /* another person's post below ("geroldmeisinger · comment ·
     * 2023-09-17" over 'all duplicate concerning "RAM and out of memory
     * exceptions (OOM)"', h34-68): its words are a reply's, not this post's.
     * Here any header stops, the one under the title too (not other_post):
     * with other_post, three seen pastes (h28-48, h33-04, h47-01: a title,
     * then a maintainer's reply under the header) took the device from the
     * reply in this pass instead of in context_mention, which says what the
     * call rests on; the scores did not move */
    e->post = activity_post_header(d.body, d.n);
    e->prose = d.kind == STAGE_LINE_OTHER && !(d.n >= 3 && !memcmp(d.body, "```", 3));
    if (d.kind == STAGE_LINE_OTHER && !binary_bytes(v->p + a, b - a)) e->dv = mention_device(d.body, d.n);
    return e;
}

/* The line names a GPU OOM in words: with its device in the sentence, or
 * (OOM words alone, "Out of memory" as a title) with a device named in the
 * prose right below it (PROSE_DEVICE_LINES lines, before any code fence: a
 * paste's settings are no words about the OOM) and no guard's word (host
 * memory, a killer, a retry) in the prose of the next PROSE_GUARD_LINES
 * lines ("Run out of memory. Creating FAISS index" ... "My process is
 * killed ... loaded into the RAM", stanford-futuredata/ColBERT#164). */
static bool prose_hit(struct scan *s, const struct view *v, const struct cline *c, size_t b,
                      enum prose_mode mode, bool *words, struct mention_hit *hit,
                      struct prose_memo *memo, size_t line)
{
    enum mention_kind k = mention_read(c->body, c->n, hit);
    if (k == MENTION_WORDS) *words = true;
    if (k != MENTION_WORDS || mode == PROSE_DEVICE) return k == MENTION_GPU;
    /* the paste's context named the device (context_mention): the words
     * themselves, unless they ask ("is it OOM?") */
    if (mode == PROSE_CONTEXT)
        return !mention_question(c->body, c->n, hit->end) && !mention_negated(c->body, c->n, hit->at);
    size_t a2 = b, b2 = b;
    /* the device named in the same line, a sentence before the
     * words ("Hello! I have 12 GB GPU and I want to train the network. But I am
     * getting OOM.", lllyasviel/ControlNet#247 = h34-68): nearer than any line
     * below; a guard's word on the line still takes it back */
    enum mention_device own = mention_device(c->body, c->n);
    if (own == MENTION_DEV_GUARD) return false;
    /* a GPU kernel's fault in the log (an oom_symptom event) names the
     * device: "CUDA error: an illegal memory access was encountered" ...
     * "An OOM error!" (DNMP/DNMP#13, h12-09); not a question ("是因为OOM么？",
     * is it OOM?, gpt-omni/mini-omni#65, h12-11) */
    bool device = (own == MENTION_DEV_NAMED || traceback_follows(s, v, b)) &&
                  !mention_question(c->body, c->n, hit->end),
         prose = true;
    for (size_t i = 0; i < s->rep->n_events && !device; i++)
        device = msg_kind_oom_symptom(s->rep->events[i].kind) &&
                 !mention_question(c->body, c->n, hit->end);
    for (int i = 0; i < PROSE_GUARD_LINES && next_line(v, &a2, &b2); i++) {
        const struct prose_below *d = below_read(s, v, memo, line + 1 + (size_t)i, a2, b2);
        if (d->blank) continue;
        if (d->post) break;
        if (!d->prose) prose = false;
        if (d->dv == MENTION_DEV_GUARD) return false;
        if (d->dv == MENTION_DEV_NAMED && prose && i < PROSE_DEVICE_LINES) device = true;
    }
    return device;
}

static bool has_figures(const struct oom_event *e);

/* The prose event names no figure (an issue title with a placeholder,
 * "ggml_vulkan: Device memory allocation of size N failed with ub > 4096",
 * ggml-org/llama.cpp#12817 = heldout58 h58-28) and a later line quotes the
 * message with its size ("it crashes with `ggml_vulkan: Device memory
 * allocation of size 3959422976 failed.`"): one failure told twice, the
 * quote gives what the title could not. The mention's own clauses read the
 * lines below (each an exact message form), the first that gives a figure
 * fills the event's. (open58) */
static void prose_event_takes_figures(struct scan *s, const struct view *v, size_t a, size_t b,
                                      long lines, struct oom_event *ev)
{
    const struct msg_rule *r = msg_prose_mention_rule();
    for (; lines < PROSE_LINES && !has_figures(ev) && next_line(v, &a, &b); lines++) {
        if (!mention_seeded(v->p + a, b - a)) continue;
        size_t n = msg_clean(v->p + a, b - a, SIZE_MAX, s->line, SCAN_LINE_MAX);
        struct oom_event quote;
        oom_event_init(&quote);
        msg_extract(r, s->line, n, &quote);
        if (has_figures(&quote)) ev->bytes = quote.bytes, ev->bytes_step = quote.bytes_step;
    }
}

/* open62: a person's sentence indented as a list item's continuation or
 * a quote that lost its mark ("    Sequence Length and Memory: I've
 * noticed that if I set the max sequence length to 2048, the program runs
 * out of memory.", meta-pytorch/torchtune#1694 = heldout62 h62-69) reads
 * as code by its indentation; it is prose when it is the person's
 * (stage_user_text), holds no code (no assignment, call, comment or
 * code mark; words with blanks between) and names the failure plainly. */
static bool indented_sentence(const char *t, size_t n)
{
    size_t i = 0;
    while (i < n && (t[i] == ' ' || t[i] == '\t')) i++;
    if (i == 0 || i == n || t[i] == '#' || !isalpha((unsigned char)t[i])) return false;
    if (!stage_user_text(t, n)) return false;
    size_t blanks = 0;
    for (size_t k = i; k < n; k++) {
        if (t[k] == '=' || t[k] == '(' || t[k] == '{' || t[k] == ';' || t[k] == '`') return false;
        blanks += t[k] == ' ';
    }
    if (blanks < 8) return false;
    /* and it names the failure in its plain words: a letter's "issues
     * with memory allocation" (heldout59 h59-15, a look-alike) is the
     * prose pass's weaker reading, not taken from a line read as code */
    static const char *const plain[] = {"out of memory", "out-of-memory", "oom", "outofmemory"};
    for (size_t q = 0; q < sizeof plain / sizeof plain[0]; q++) {
        size_t k = strlen(plain[q]);
        for (size_t j = i; j + k <= n; j++)
            if (!strncasecmp(t + j, plain[q], k) && (j == 0 || !isalpha((unsigned char)t[j - 1])) &&
                (j + k == n || !isalpha((unsigned char)t[j + k]) || q == 3))
                return true;
    }
    return false;
}

/* One pass over the log's prose lines: the first line that names the OOM
 * with its device in the sentence, or (weak) with its device nearby, is the
 * event. True when one was stored. */
static bool prose_pass(struct scan *s, const struct view *v, enum prose_mode mode, bool *words)
{
    struct oom_report *rep = s->rep;
    size_t a = 0, b = line_end(v, 0);
    bool title = v->base == 0; /* the paste's first line with text is yet to come */
    struct prose_memo memo = {0};
    for (long lines = 0; lines < PROSE_LINES; lines++) {
        bool is_title = false;
        if (title) {
            size_t i = a;
            while (i < b && isspace((unsigned char)v->p[i])) i++;
            if (i < b) is_title = true, title = false;
        }
        if (!mention_seeded(v->p + a, b - a)) {
            if (!next_line(v, &a, &b)) break;
            continue;
        }
        struct cline c;
        read_cline(s, v, a, b, &c);
        struct mention_hit hit;
        const struct msg_rule *known;
        size_t n;
        struct msg_prefix px;
        /* an issue's title is prose even where it names a call
         * ("loss.backward()时发生OOM现象", LijunRio/Xrays_CT#12 = h34-108; "CUDA OOM
         * in model.generate()"), which stage_line_kind reads as code that lost its
         * indentation */
        bool title_call = is_title && c.kind == STAGE_LINE_CODE && c.n > 0 && c.body[0] != ' ' &&
                          c.body[0] != '\t';
        /* so is a person's sentence that names a call, below the title ("I
         * tried ... but it kept reporting errors `out of memory`. A debug
         * shows that each forward() causes the memory usage to increase",
         * heldout41 h41-37); the line stays code for the stage walks, which
         * take no stage from a user's prose (diagopen41) */
        if (!title_call && c.kind == STAGE_LINE_CODE && c.n > 0 && c.body[0] != ' ' && c.body[0] != '\t' &&
            stage_user_text(c.body, c.n))
            title_call = true;
        if (!title_call && c.kind == STAGE_LINE_CODE && indented_sentence(c.body, c.n))
            title_call = true;
        if ((c.kind == STAGE_LINE_OTHER || title_call) && !binary_bytes(v->p + a, b - a) &&
            prose_hit(s, v, &c, b, mode, words, &hit, &memo, (size_t)lines) &&
            /* a line a row reads as a message is that message (TF's "Allocator
             * (GPU_0_bfc) ran out of memory ... not a failure") */
            (n = msg_clean(v->p + a, b - a, SIZE_MAX, s->line, SCAN_LINE_MAX),
             parse_prefix(v, a, b, s->line, n, &px),
             known = msg_classify(s->line + px.body, n - px.body), !is_message(known))) {
            const struct msg_rule *r = msg_prose_mention_rule();
            struct oom_event ev;
            event_from(s, r, &px, n, &ev);
            apply_near(s, v, r, a, b, &px, &ev);
            ev.line = view_line(s, v, a);
            read_context(s, v, r, a, b, s->line, n, &px, &ev);
            if (ev.rank < 0) ev.rank = rank_after(s, v, b, MENTION_TB_LINES);
            if (ev.stage == OOM_STAGE_UNKNOWN) ev.stage = ev.weak_stage;
            ev.gpu_oom = true;
            if (!has_figures(&ev)) prose_event_takes_figures(s, v, a, b, lines, &ev);
            if (store(s, &ev, ADD_APPEND, 0, MSG_PRIMARY, 0) < 0) {
                s->nomem = true;
                return true;
            }
            rep->primary = (long)(rep->n_events - 1);
            mark_consequences(s);
            return true;
        }
        if (!next_line(v, &a, &b)) break;
    }
    return false;
}

/* The paste's context (context_read), read once per view and only when a
 * pass asks for it: context_mention, drop_discussed_mention and
 * host_failure_mention read the same paste. */
struct paste_context {
    bool read;
    struct context_reading r;
};

static const struct context_reading *paste_context(struct paste_context *pc, const struct view *v)
{
    if (!pc->read) context_read(v->p, v->len, v->base == 0, &pc->r);
    pc->read = true;
    return &pc->r;
}

static void context_mention(struct scan *s, const struct view *v, struct paste_context *pc);

/* The OOM named with its device in one sentence anywhere in the log
 * outranks OOM words whose device is only nearby (its sentence says more,
 * and its stage is read around it). */
static void prose_mention(struct scan *s, const struct view *v, struct paste_context *pc)
{
    if (s->rep->primary >= 0 || s->mention_set || !mention_may_stand(s, false)) return;
    bool words = false; /* OOM words without a device seen: the weak pass has work */
    if (prose_pass(s, v, PROSE_DEVICE, &words) || !words || prose_pass(s, v, PROSE_NEAR, &words))
        return;
    context_mention(s, v, pc);
}

/* ---- the paste's context ----------------------------------------------- */

/* One piece of evidence into the report: its line, what it is, its text
 * (cleaned, blanks trimmed, cut at a character's start). */
static void note_evidence(struct scan *s, const struct view *v, size_t at, size_t end,
                          const char *what)
{
    struct oom_context *c = &s->rep->context;
    if (c->n >= OOM_CONTEXT_EVIDENCE) return;
    size_t n = msg_clean(v->p + at, end - at, SIZE_MAX, s->line, SCAN_LINE_MAX), i = 0;
    while (i < n && (s->line[i] == ' ' || s->line[i] == '\t')) i++;
    size_t k = n - i, cap = sizeof c->evidence[0].text - 1;
    bool cut = k > cap;
    if (cut) { /* "…" (3 bytes) after the last whole character that fits */
        k = cap - 3;
        while (k > 0 && ((unsigned char)s->line[i + k] & 0xC0) == 0x80) k--;
    }
    c->evidence[c->n].line = view_line(s, v, at);
    c->evidence[c->n].what = what;
    memcpy(c->evidence[c->n].text, s->line + i, k);
    if (cut) memcpy(c->evidence[c->n].text + k, "\xe2\x80\xa6", 3), k += 3;
    c->evidence[c->n].text[k] = '\0';
    c->n++;
}

/* The report's context note: the call and the evidence of classes cls and
 * also (CONTEXT_CLASSES: none), in that order. */
static void note_context(struct scan *s, const struct view *v, const struct context_reading *cr,
                         enum oom_context_call call, enum context_class cls, enum context_class also)
{
    s->rep->context.call = call;
    for (int round = 0; round < 2; round++)
        for (size_t i = 0; i < cr->n_hits; i++)
            if (cr->hit[i].cls == (round ? also : cls))
                note_evidence(s, v, cr->hit[i].at, cr->hit[i].end, cr->hit[i].what);
}

/* OOM words without a device ("Out of memory when training", "OOM Error
 * when saving checkpoints") that no prose pass could place: the paste's
 * context decides. Where it names the GPU (an environment block, a CUDA
 * build) and no host memory, and the paste is no change, the first such
 * line is the event, and the note says what the call rests on. */
static void context_mention(struct scan *s, const struct view *v, struct paste_context *pc)
{
    const struct context_reading *cr = paste_context(pc, v);
    if (context_call(cr) != CONTEXT_ON_GPU) return;
    bool words = false;
    size_t before = s->rep->n_events;
    if (!prose_pass(s, v, PROSE_CONTEXT, &words) || s->rep->n_events == before) return;
    const struct oom_event *ev = &s->rep->events[s->rep->n_events - 1];
    memset(&s->rep->context, 0, sizeof s->rep->context);
    size_t a = 0, b = line_end(v, 0);
    for (long l = view_line(s, v, 0); l < ev->line && next_line(v, &a, &b); l++) {}
    note_evidence(s, v, a, b, "the OOM named in words, no device");
    note_context(s, v, cr, OOM_CONTEXT_ON_GPU, CONTEXT_GPU, CONTEXT_RUN);
}

/* A line of blanks only (context_read's blank line: its first
 * MENTION_LINE_MAX bytes) */
static bool only_space(const char *p, size_t n)
{
    if (n > MENTION_LINE_MAX) n = MENTION_LINE_MAX;
    for (size_t i = 0; i < n; i++)
        if (!isspace((unsigned char)p[i])) return false;
    return true;
}

/* A GPU OOM named only in words (every event an oom-mention: a title, a
 * sentence) in a paste that reads as a change about OOMs ("fix: ... Add OOM
 * retry logic that catches CUDA out-of-memory errors", "Closes #191") is
 * discussed, not failed: no event of this log. */
static void drop_discussed_mention(struct scan *s, const struct view *v, struct paste_context *pc)
{
    struct oom_report *rep = s->rep;
    if (rep->primary < 0) return;
    bool on_title = false, figures = false; /* an event other than words: on the change's title */
    for (size_t i = 0; i < rep->n_events; i++) {
        if (strcmp(rep->events[i].kind, "oom-mention")) on_title = true;
        if (rep->events[i].gpu_oom && has_figures(&rep->events[i])) figures = true;
    }
    /* a GPU OOM with figures and a message off the paste's first line (the
     * title, if any) stays whatever the context says (below): the common
     * log, whose paste is then not read again */
    if (on_title && figures) {
        size_t a = 0, b = line_end(v, 0);
        while (only_space(v->p + a, b - a) && next_line(v, &a, &b)) {}
        long first = view_line(s, v, a);
        for (size_t i = 0; i < rep->n_events; i++)
            if (strcmp(rep->events[i].kind, "oom-mention") && rep->events[i].line != first) return;
    }
    const struct context_reading *cr = paste_context(pc, v);
    if (context_call(cr) != CONTEXT_DISCUSSED) return;
    /* a message's words in a change's title ("fix cuda out of
     * memory", ltgoslo/norbench#24) are the change's, not a log's */
    /* a change that quotes the failure it fixes shows the
     * failure's figures (tensorflow/models' "OOM when allocating tensor with
     * shape[10,100,3072]", h14-25, stays a GPU OOM); one that names the
     * message in its prose ("Modified code to remove the CUDA out of memory
     * error", pytorch/tutorials' PR = h29-95) or in a template ("out of memory
     * to allocate XXXX bytes", cupy/cupy's PR = h26-40) shows none: its
     * message rows are the change's words too. */
    if (on_title) {
        long title = cr->change_title && cr->title_at != SIZE_MAX ? view_line(s, v, cr->title_at) : -2;
        for (size_t i = 0; i < rep->n_events; i++)
            if (strcmp(rep->events[i].kind, "oom-mention") && rep->events[i].line != title && figures)
                return;
    }
    const struct oom_event *ev = &rep->events[rep->primary];
    memset(&rep->context, 0, sizeof rep->context);
    size_t a = 0, b = line_end(v, 0);
    for (long l = view_line(s, v, 0); l < ev->line && next_line(v, &a, &b); l++) {}
    note_evidence(s, v, a, b, "the OOM named in words");
    note_context(s, v, cr, OOM_CONTEXT_DISCUSSED, CONTEXT_CHANGE, CONTEXT_CLASSES);
    rep->n_events = 0;
    rep->primary = -1;
}

/* A GPU OOM named only in words (every event an oom-mention) in a paste
 * that names a host-memory failure and no GPU message ("GRPO Training Fails
 * with OOM Errors Despite 8x80GB GPUs" over "Immediate Ray OOM errors",
 * verl-project/verl#6449 = h27-79): the words are the host failure's, a
 * look-alike. The mention pass reads the title's "GPUs" as the device, so
 * the context's host evidence decides here. */
static void host_failure_mention(struct scan *s, const struct view *v, struct paste_context *pc)
{
    struct oom_report *rep = s->rep;
    if (rep->primary < 0) return;
    for (size_t i = 0; i < rep->n_events; i++)
        if (strcmp(rep->events[i].kind, "oom-mention")) return;
    const struct context_reading *cr = paste_context(pc, v);
    /* Ray's memory monitor, the OOM killer, a killed process, the host
     * allocator: the rows say which host evidence names a failure. Or an
     * OOM named without a device (over a traceback) in a paste that names
     * the host's memory and no GPU on any line: "RLlib crashes on Win due
     * to OOM" over "Win10 64 32Gig RAM" and a trainer's frames
     * (ray-project/ray#24926 = heldout75 h75-56); "CPU RAM explodes after
     * ~60 iterations" names its GPU ("GPU: P100 16GB") and is not this
     * row's (JIA-Lab-research/Context-Aware-Consistency#4, a host-RAM
     * report that the host rows read). (open75) */
    bool host_only = !s->mention_standalone && cr->score[CONTEXT_GPU] == 0 && context_host_memory(cr);
    if (!(context_host_failure(cr) || host_only) || cr->score[CONTEXT_CHANGE] >= CONTEXT_CHANGE_MIN) return;
    for (size_t i = 0; i < rep->n_events; i++) rep->events[i].gpu_oom = false;
    rep->primary = -1;
    note_context(s, v, cr, OOM_CONTEXT_NONE, CONTEXT_HOST, CONTEXT_CLASSES);
}

/* the last activity of a paste cut before its error. Read up
 * from the end of the log (from the header of the traceback it ends with,
 * whose error line the paste lost): the nearest phase announcement
 * (stage_phase_line: "Loading model modules ━━ 1/163" above a cut "ERROR:
 * Traceback"), logger tag, serving cue (stage_after_line) or context line
 * (stage_context_line: a library's warning from ".../evaluation/…/seg_eval.py")
 * among the last VERB_WINDOW lines that are not blank, fences, bars or table
 * rows, up to a frame or a one-time action that is over. */
#define TAIL_LINES 12
#define REPLY_LINES 64 /* tail_stage: how far up from the end a reply's header is looked for */

static enum oom_stage tail_walk(struct scan *s, const struct view *v, bool *over)
{
    *over = false;
    size_t a = v->len, b = v->len, from = v->len;
    size_t stop = s->tail_from - 1 > v->base ? (size_t)(s->tail_from - 1 - v->base) : 0;
    for (int i = 0; i < TAIL_LINES && prev_line(v, &a, &b) && a > stop; i++) {
        /* the thread's next post: the lines below it are a reply's
         * (after_stage stops there too); the run's activity is above it.
         * Not the header right under the paste's title: that post is the
         * report's own body (a title, then "user · comment · date" over the
         * log, h27-12) */
        if (other_post(v, a, b)) {
            from = a;
            break;
        }
        struct cline c;
        read_cline(s, v, a, b, &c);
        if (c.kind == STAGE_LINE_HEADER) {
            from = a;
            break;
        }
    }
    a = b = from;
    bool bare_bar = false;
    enum oom_stage failed_under = OOM_STAGE_UNKNOWN;
    for (int lines = 0, counted = 0;
         lines < VERB_LINES && counted < VERB_WINDOW && prev_line(v, &a, &b) && a > stop; lines++) {
        struct cline c;
        read_cline(s, v, a, b, &c);
        if (c.kind == STAGE_LINE_BLANK) continue;
        /* the writer's caption over the paste (paste_caption): the
         * paste's own lines were read below it */
        if (paste_caption(v, b, c.body, c.n)) {
            counted++;
            continue;
        }
        /* a web UI's failed request right under an undescribed bar:
         * the loop that bar counts (stage_request_failure) */
        if (failed_under != OOM_STAGE_UNKNOWN && stage_bar_undescribed(c.body, c.n)) return failed_under;
        failed_under = stage_request_failure(c.body, c.n);
        if (c.kind == STAGE_LINE_HEADER || c.kind == STAGE_LINE_FRAME || stage_training_line(c.body, c.n)) break;
        /* a person's line at the paste's end (a reply: "You can try to use
         * google colab for generating the model", a curl command) is no
         * activity of the run (stage_user_text), nor is code (the
         * user's script: "# If transcript is not provided, it will be
         * automatically transcribed using Whisper", h42-95) */
        if (stage_user_text(c.body, c.n) || c.kind == STAGE_LINE_CODE) {
            counted++;
            continue;
        }
        /* a phase the tool says is over ("sampling, finished."): what
         * failed came after it (stage_phase_over) */
        if (stage_phase_over(c.body, c.n)) {
            *over = true;
            break;
        }
        enum oom_stage st = stage_harness_line(c.body, c.n);
        if (st == OOM_STAGE_UNKNOWN) st = stage_phase_line(c.body, c.n);
        if (st == OOM_STAGE_UNKNOWN) st = stage_log_tag(c.body, c.n);
        /* the glog header names the file that logs (Caffe's net.cpp) */
        if (st == OOM_STAGE_UNKNOWN) st = stage_glog_tag(s->ctx, c.px.body + c.n);
        /* the lines after the message: what a serving engine was doing */
        if (st == OOM_STAGE_UNKNOWN) st = stage_after_line(c.body, c.n);
        /* ... and the lines that announce a stage above a traceback */
        if (st == OOM_STAGE_UNKNOWN) st = stage_context_line(c.body, c.n);
        /* a load line above the bare bar the paste ends in
         * (stage_past_bare_bar) */
        if (stage_past_bare_bar(bare_bar, c.body, c.n, &st))
            break;
        bare_bar |= stage_bar_bare(c.body, c.n);
        if (st != OOM_STAGE_UNKNOWN) return st;
        /* a one-time action the tool says is over ("Loaded 2 images after 0s"):
         * what failed came after it, and the paste does not show it */
        bool done = false;
        (void)stage_verb_line(c.body, c.n, &done);
        if (done) break;
        if (!bar_or_fence(c.body, c.n) && c.body[0] != '|') counted++;
    }
    return OOM_STAGE_UNKNOWN;
}

/* The tail's stage goes to every message nothing leads to and nothing
 * staged (the title and the sentence that tell the same failure), when the
 * last message of the log is one that nothing leads to: the tail below it
 * is theirs. */
static void tail_stage(struct scan *s, const struct view *v)
{
    if (!s->tail_from || s->last_end != s->tail_from || !v->len) return;
    bool over;
    enum oom_stage st = tail_walk(s, v, &over);
    /* no phase line near the end: the paste's last log lines
     * as weighted evidence (activity.c: vLLM's "GPU KV cache size", a
     * DeepSpeed "ZeRO stage 3 optimizer" being created, "Running validation");
     * not past a phase the tool says is over, whose own lines would weigh
     * for it ("sampling, finished." four times, h55-76) */
    if (st == OOM_STAGE_UNKNOWN && !over) {
        size_t from = s->tail_from - 1 > v->base ? (size_t)(s->tail_from - 1 - v->base) : 0;
        /* not past the thread's next post: a reply at the paste's end
         * ("Hi, we use A100 (80 gb) for training/evaluating our model" under
         * "I tried running inference ..., but encountered a CUDA out of memory
         * error", heldout41 h41-28) is another person's words, as tail_walk
         * stops there; its earliest header within REPLY_LINES of the end */
        size_t end = v->len, a = v->len, b = v->len;
        for (int i = 0; i < REPLY_LINES && prev_line(v, &a, &b) && a > from; i++)
            if (other_post(v, a, b)) end = a;
        if (from < end) st = activity_tail(v->p + from, end - from, NULL);
    }
    if (st == OOM_STAGE_UNKNOWN) return;
    struct oom_report *rep = s->rep;
    for (size_t i = 0; i < rep->n_events; i++) {
        struct oom_event *ev = &rep->events[i];
        if (ev->unled && ev->stage == OOM_STAGE_UNKNOWN && ev->weak_stage == OOM_STAGE_UNKNOWN) ev->weak_stage = st;
        if (ev->stage_from_below) ev->stage = st;
    }
    if (s->mention_set && s->mention.unled && s->mention.stage == OOM_STAGE_UNKNOWN &&
        s->mention.weak_stage == OOM_STAGE_UNKNOWN)
        s->mention.weak_stage = st;
    if (s->mention_set && s->mention.stage_from_below) s->mention.stage = st;
    /* host memory said to have run out, in a title */
    if (s->host_mention_set && s->host_mention.unled && s->host_mention.stage == OOM_STAGE_UNKNOWN &&
        s->host_mention.weak_stage == OOM_STAGE_UNKNOWN)
        s->host_mention.weak_stage = st;
}

/* The words a trainer prints when its run ended well (the log's last
 * non-blank line, any case): "Finished train" (DeepSpeed's example trainer
 * after its see_memory_usage lines, deepspeedai/DeepSpeed#2302 = h25-76). */
static const char *const run_finished_words[] = {"finished train", "training finished",
    "training complete", "training done", NULL};

static bool run_finished(const struct view *v)
{
    size_t b = v->len;
    while (b > 0 && (v->p[b - 1] == '\n' || v->p[b - 1] == '\r' || v->p[b - 1] == ' ' ||
                     v->p[b - 1] == '\t'))
        b--;
    size_t a = line_start(v, b);
    for (size_t k = 0; run_finished_words[k]; k++) {
        size_t n = strlen(run_finished_words[k]);
        for (size_t i = a; i + n <= b; i++)
            if (!strncasecmp(v->p + i, run_finished_words[k], n)) return true;
    }
    return false;
}

/* A GPU OOM named only in words (a title, a sentence: an oom-mention) over a
 * log whose run then finished is no failure of this log: the words name an
 * OOM elsewhere ("DeepSpeed still gives CUDA-out-of-memory issue" over the
 * memory bookkeeping of a run that ends "Finished train"). */
static void drop_finished_mention(struct scan *s, const struct view *v)
{
    struct oom_report *rep = s->rep;
    if (rep->primary < 0 || rep->n_events != 1 || strcmp(rep->events[0].kind, "oom-mention") ||
        !run_finished(v))
        return;
    rep->n_events = 0;
    rep->primary = -1;
}

/* An OOM named only in words (a prose or context event, stage unknown) just
 * below the paste's last error line, whose traceback: the traceback is the
 * failure's, and its frames give the stage the words lack (vllm-omni's
 * "RuntimeError: Dummy run failed" from make_engine -> _dummy_run, then
 * CANN's "Failed to allocate memory requested by GE module",
 * PKU-YuanGroup/Helios#62). The stage is the error line's own, as
 * final_error reads it; nothing is stored for that line. Only words right
 * below the error line (TRACEBACK_WORDS_LINES) are taken as its failure. */
#define TRACEBACK_WORDS_LINES 8
static void words_take_traceback_stage(struct scan *s, const struct view *v, size_t from)
{
    struct oom_event fe;
    bool read = false, have = false, strong = false;
    for (size_t i = from; i < s->rep->n_events; i++) {
        struct oom_event *ev = &s->rep->events[i];
        if (ev->stage != OOM_STAGE_UNKNOWN) continue;
        if (!read) have = final_error_event(s, v, &fe, &strong), read = true;
        /* an exception's own line ("RuntimeError: ..."), not words that
         * name one ("Meet RuntimeError in .../indice_cuda.cu") */
        if (!have || !strong || fe.stage == OOM_STAGE_UNKNOWN) return;
        /* the words right below that error line, explaining it */
        if (fe.line < ev->line && ev->line - fe.line <= TRACEBACK_WORDS_LINES) ev->stage = fe.stage;
    }
}

/* the words a library logs when it has caught a GPU
 * OOM and goes on, on the OOM's own line (own_line) or within
 * MSG_ANSWER_LINES below it. Each is the library's own line, not a user's
 * plan ("I will try to ..." below a pasted error is not one of them).
 * Own-line words count on the OOM's line only, the others below it only:
 * - sacdallago/bio_embeddings embed/embedder_interfaces.py, embed_batch:
 *   "Error processing batch of N sequences: <OOM>. ... Will try to embed
 *   each sequence in the set individually on the GPU." and, per sequence,
 *   "... Embedding on the CPU instead, which is very slow" (one logger line);
 * - ComfyUI's tiled retry and the like: "..., retrying with tiled VAE";
 * - k2-fsa/icefall icefall/decode.py: "This OOM is not an error. You can
 *   ignore it." after the pruned search caught it and prunes harder;
 * - Lightning's batch-size finder (tuner/batch_size_scaling.py,
 *   _adjust_batch_size): "Batch size 16 failed, trying batch size 8";
 * - a tool's own line that wraps the caught OOM and names its fallback,
 *   "Flux failed for region 1 (Flux inpainting error: CUDA out of memory.
 *   ...); falling back to CV2 fill" (a manga translator, diagopen49), as
 *   "on the cpu instead": on the OOM's own line only (a "Falling back to
 *   CPU" line further down may be start-up talk of another run). */
static const struct {
    const char *words;
    bool own_line;
} recovery_words[] = {
    {"will try to embed", true},
    {"on the cpu instead", true},
    {"falling back to ", true},
    /* not "retrying without": llama.cpp's "compute buffer allocation failed,
     * retrying without pipeline parallelism" is labelled a GPU OOM (corpus 202) */
    {"retrying with ", false},
    {"this oom is not an error", false},
    {"failed, trying batch size", false},
};

static bool line_says_recovered(const char *p, size_t n, bool own_line)
{
    for (size_t k = 0; k < sizeof recovery_words / sizeof *recovery_words; k++) {
        /* the OOM's own line holds only its own-line words: a line that
         * reads as the event's may be a retry warning the message below it
         * was folded into ("... retrying with tiled VAE decoding." over
         * "!!! Exception during processing !!! CUDA out of memory") */
        if (recovery_words[k].own_line != own_line) continue;
        size_t w = strlen(recovery_words[k].words);
        for (size_t i = 0; i + w <= n; i++)
            if (!strncasecmp(p + i, recovery_words[k].words, w)) return true;
    }
    return false;
}

/* Whether the paste shows the OOM at line `at` caught (its kind says so, or
 * a recovery line follows it) and nothing failing after it: another event
 * (the retry's own OOM) or a traceback. */
static bool oom_recovered(struct scan *s, const struct view *v, size_t i)
{
    const struct oom_event *e = &s->rep->events[i];
    bool recovered = msg_kind_recovers(e->kind);
    for (size_t j = 0; j < s->rep->n_events; j++)
        if (j != i && s->rep->events[j].line > e->line) return false;
    size_t a = 0, b = line_end(v, 0);
    long l = v->len ? view_line(s, v, 0) : 0;
    for (bool more = v->len > 0; more; more = next_line(v, &a, &b), l++) {
        if (l < e->line) continue;
        if (!recovered && l - e->line <= MSG_ANSWER_LINES)
            recovered = line_says_recovered(v->p + a, b - a, l == e->line);
        if (l == e->line) continue;
        struct cline c;
        read_cline(s, v, a, b, &c);
        if (c.kind == STAGE_LINE_HEADER) return false;
        if (!recovered && l - e->line > MSG_ANSWER_LINES) return false;
    }
    return recovered;
}

/* a GPU OOM the program caught and retried another
 * way (msg_kind_recovers: ComfyUI's "Ran out of memory when regular VAE
 * decoding, retrying with tiled VAE decoding.") is a failure only where one
 * follows it in the paste: another event (the tiled retry's own OOM, "!!!
 * Exception during processing !!! HIP out of memory ...") or a traceback.
 * Otherwise the retry went on and the log shows no failure: a look-alike,
 * as the labellers' caught-and-retried convention has it (heldout29 h29-42,
 * "Prompt generates, but seems a little slow"; heldout5 h5-37, whose
 * traceback follows the warning, stays a GPU OOM). */
static void drop_recovered_ooms(struct scan *s, const struct view *v)
{
    struct oom_report *rep = s->rep;
    for (size_t i = 0; i < rep->n_events; i++) {
        struct oom_event *e = &rep->events[i];
        if (e->gpu_oom && e->line >= 0 && oom_recovered(s, v, i)) e->gpu_oom = false;
    }
}

/* The first line of the paste the user marked as the failing one
 * (stage_marked_line) gives its stage to the events nothing else staged:
 * a title or sentence that names the OOM over the user's own loop. */
static void marked_line_stage(struct scan *s, const struct view *v)
{
    struct oom_report *rep = s->rep;
    bool want = false;
    for (size_t i = 0; i < rep->n_events; i++) want |= rep->events[i].stage == OOM_STAGE_UNKNOWN;
    if (!want || !v->len) return;
    enum oom_stage st = OOM_STAGE_UNKNOWN;
    size_t a = 0, b = line_end(v, 0);
    long lines = 0;
    for (bool more = true; more && st == OOM_STAGE_UNKNOWN && lines < PROSE_LINES;
         more = next_line(v, &a, &b), lines++)
        st = stage_marked_line(v->p + a, b - a);
    for (size_t i = 0; i < rep->n_events && st != OOM_STAGE_UNKNOWN; i++)
        if (rep->events[i].stage == OOM_STAGE_UNKNOWN) rep->events[i].stage = st;
}

/* ---- torchelastic's root cause ------------------------------------------- */

#define ROOT_CAUSE_HEAD "Root Cause (first observed failure):"
#define FAILURES_BACK (64u << 10) /* how far above it a table's "Failures:" part may start */

/* Where the table whose Root Cause line starts at pos begins: its
 * "Failures:" line (the other workers, read to see whether one raised too),
 * else pos. */
static size_t table_start(const struct view *v, size_t pos)
{
    size_t lo = pos > FAILURES_BACK ? pos - FAILURES_BACK : 0, at = pos;
    for (const char *q = v->p + lo; (q = memmem(q, pos - (size_t)(q - v->p), "Failures:", 9)); q += 9)
        at = line_start(v, (size_t)(q - v->p));
    return at;
}

/* torchelastic's agent restarted the workers between two lines. */
static bool restart_between(const struct scan *s, const struct view *v, size_t upto, long after_line)
{
    static const char restart[] = "will restart worker group";
    for (const char *q = v->p; (q = memmem(q, upto - (size_t)(q - v->p), restart, sizeof restart - 1));
         q += sizeof restart - 1)
        if (view_line(s, v, (size_t)(q - v->p)) > after_line) return true;
    return false;
}

/* The primary event names no rank: the first ChildFailedError table after
 * it names the worker that failed first (lib/elastic) — its rank, when the
 * table's Root Cause part has one entry, no other worker of it raised too,
 * the event is not in the table's "Failures:" part (another worker's
 * traceback), and the agent did not restart the workers in between. A rank
 * the message states is never replaced. */
static void root_cause_rank(struct scan *s, const struct view *v)
{
    struct oom_report *rep = s->rep;
    if (rep->primary < 0 || rep->events[rep->primary].rank >= 0 || !v->len) return;
    struct oom_event *ev = &rep->events[rep->primary];
    static const char head[] = ROOT_CAUSE_HEAD;
    size_t at = 0;
    const char *hit;
    while (at < v->len && (hit = memmem(v->p + at, v->len - at, head, sizeof head - 1))) {
        size_t root = line_start(v, (size_t)(hit - v->p)), from = table_start(v, root), used;
        long rank = elastic_table_root_rank(v->p + from, v->len - from, &used);
        long from_line = view_line(s, v, from), root_line = view_line(s, v, root);
        at = (size_t)(hit - v->p) + sizeof head - 1;
        if (from + used > at) at = from + used;
        /* at: the line after the table's; a table that ends above the event is an earlier one */
        if (at < v->len && view_line(s, v, at) <= ev->line) continue;
        if (ev->line >= from_line && ev->line < root_line) return; /* another worker's failure */
        if (rank >= 0 && !restart_between(s, v, from, ev->line)) ev->rank = (int)rank, ev->rank_from_table = true;
        return;
    }
}

void scan_finish_view(struct scan *s, const char *buf, size_t len, uint64_t base,
                      bool ends_with_newline)
{
    signed char srun = -1;
    struct view tv = {buf, len, base, &srun};
    tail_stage(s, &tv);
    drop_recovered_ooms(s, &tv);
    scan_finish(s, ends_with_newline);
    if (len) {
        struct view pv = {buf, len, base, &srun};
        struct paste_context pc;
        pc.read = false;
        size_t before = s->rep->n_events;
        prose_mention(s, &pv, &pc);
        /* a sentence's event is stored after the tail was read:
         * it takes the paste's last activity as the title's does (an issue
         * whose prose names the OOM over lm-evaluation-harness's last line
         * "[evaluator.py:359] Running loglikelihood requests",
         * EleutherAI/lm-evaluation-harness#1538 = h18-66) */
        if (s->rep->n_events > before) {
            tail_stage(s, &pv);
            for (size_t i = before; i < s->rep->n_events; i++)
                if (s->rep->events[i].stage == OOM_STAGE_UNKNOWN) s->rep->events[i].stage = s->rep->events[i].weak_stage;
            words_take_traceback_stage(s, &pv, before);
        }
        drop_finished_mention(s, &pv);
        drop_discussed_mention(s, &pv, &pc);
        host_failure_mention(s, &pv, &pc);
        marked_line_stage(s, &pv);
    }
    root_cause_rank(s, &tv); /* after the prose's events: a title's OOM may be the primary */
    /* the log names an OOM or host memory in words: not "no memory failure" */
    if (s->rep->n_events || !len || s->mention_set || s->host_words ||
        s->rep->context.call == OOM_CONTEXT_DISCUSSED)
        return;
    struct view v = {buf, len, base, &srun};
    final_error(s, &v);
}

void scan_release(struct scan *s)
{
    free(s->wm);
    free(s->meta);
    free(s->line);
    free(s->ctx);
    free(s->near_memo);
    free(s->clines);
    s->near_memo = NULL;
    s->clines = NULL;
    s->wm = NULL;
    s->meta = NULL;
    s->line = s->ctx = NULL;
}

int scan_text(const char *text, size_t len, struct oom_report *rep, struct oomlab_err *err)
{
    struct scan s;
    if (scan_init(&s, rep, err) < 0) return -1;
    int rc = scan_block(&s, text, len, 0, 0, len);
    scan_finish_view(&s, text, len, 0, len == 0 || text[len - 1] == '\n');
    scan_release(&s);
    if (rc < 0) {
        oom_report_release(rep);
        return oomlab_err_set(err, "out of memory while scanning the log");
    }
    return 0;
}
