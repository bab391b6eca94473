/* Fuzz target: the diagnose engine over arbitrary bytes — one view, then a
 * stream of small windows, then verdicts and the plan — must never read out
 * of bounds, overflow, hang or leak. Every figure an event carries is a
 * count (>= 0) or the unknown -1, never another negative; the events, their
 * text and figures written with render/json (as diagnose --json writes them)
 * parse back as JSON. The line rewriters the scan calls, on the input's
 * first lines themselves: stage_unjson (a sysinfo JSON frame string made
 * Python's frame header) and stage_unjava (a JVM frame made one) write
 * within their cap, two bytes to spare, and leave what they made alone;
 * stage_logger_bits names generate or nothing; each line read alone (an
 * exact-size copy) by the readers the scan calls on one line:
 * stage_darknet_build (with the line above it as its table line) names load
 * or nothing, and load only for a line that holds darknet's error;
 * stage_julia_frame says frame or not and names a stage or unknown;
 * stage_code_shaped answers the same for the line opened by a markdown
 * backtick (one that opens with none); msg_classify answers for a line with
 * typographic apostrophes (U+2019) in its contractions what it answers for
 * the line with them made straight, each such apostrophe between letters
 * (the copy made here, not msg.c's); stage_convert_first_line ("return
 * t.to(" ending the line) holds that text and answers the same without the
 * blanks that end the line, and stage_torch_module_frame,
 * stage_train_loop_frame and stage_render_call read within it. An event's rank read from
 * torchelastic's Root Cause record (rank_from_table) is a rank. */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/msg.h"
#include "lib/plan.h"
#include "lib/stage.h"
#include "lib/scan.h"
#include "lib/verdict.h"
#include "render/json.h"

/* json-c's reader, declared here: its headers' json_bool is render/json's too */
struct json_object;
struct json_object *json_tokener_parse(const char *str);
size_t json_object_array_length(const struct json_object *obj);
int json_object_put(struct json_object *obj);

#define FIGURE(x) do { if ((x) < -1) { fprintf(stderr, "%s = %lld\n", #x, (long long)(x)); __builtin_trap(); } } while (0)

static void check_figures(const struct oom_report *rep)
{
    if (rep->n_events > OOM_MAX_EVENTS) __builtin_trap();
    if (rep->primary < -1 || rep->primary >= (long)rep->n_events) __builtin_trap();
    for (size_t i = 0; i < rep->n_events; i++) {
        const struct oom_event *e = &rep->events[i];
        const struct oom_bytes *b = &e->bytes;
        FIGURE(b->requested); FIGURE(b->capacity); FIGURE(b->free); FIGURE(b->allocated);
        FIGURE(b->reserved); FIGURE(b->reserved_unallocated); FIGURE(b->process_in_use);
        FIGURE(b->allowed); FIGURE(b->other_in_use); FIGURE(b->private_pools);
        FIGURE(e->gpu); FIGURE(e->rank); FIGURE(e->step); FIGURE(e->pid);
        FIGURE(e->line); FIGURE(e->mem.device);
        if (e->rank_from_table && e->rank < 0) __builtin_trap();
        if (e->n_procs > OOM_MAX_PROCS || e->repeats < 0) __builtin_trap();
        for (size_t k = 0; k < e->n_procs; k++) FIGURE(e->procs[k].bytes);
        if (e->mem.present) {
            const struct oom_memsummary *m = &e->mem;
            FIGURE(m->ooms); FIGURE(m->retries); FIGURE(m->allocated_cur); FIGURE(m->allocated_peak);
            FIGURE(m->reserved_cur); FIGURE(m->reserved_peak);
            FIGURE(m->nonreleasable_cur); FIGURE(m->nonreleasable_peak);
        }
        if (!memchr(e->text, '\0', sizeof e->text)) __builtin_trap();
        if (e->line > rep->lines) {
            fprintf(stderr, "event %zu at line %ld of %ld\n", i, e->line, rep->lines);
            __builtin_trap();
        }
    }
    /* the paste's context (the cut-title call among them): its evidence, by line */
    const struct oom_context *c = &rep->context;
    if (c->call > OOM_CONTEXT_CUT_TITLE || c->n > OOM_CONTEXT_EVIDENCE) __builtin_trap();
    for (size_t k = 0; k < c->n; k++)
        if (c->evidence[k].line < 1 || c->evidence[k].line > rep->lines || !c->evidence[k].what ||
            !memchr(c->evidence[k].text, '\0', sizeof c->evidence[k].text))
            __builtin_trap();
}

/* The events as diagnose --json's logs[].events[] carry them. */
static void check_json(const struct oom_report *rep)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return;
    struct json j;
    json_init(&j, f, false);
    json_arr_begin(&j);
    for (size_t i = 0; i < rep->n_events; i++) {
        const struct oom_event *e = &rep->events[i];
        json_obj_begin(&j);
        json_key(&j, "kind"); json_str(&j, e->kind);
        json_key(&j, "framework"); json_str(&j, e->framework);
        json_key(&j, "gpu_oom"); json_bool(&j, e->gpu_oom);
        json_key(&j, "line"); json_int(&j, e->line);
        json_key(&j, "stage"); json_str(&j, oom_stage_name(e->stage));
        json_key(&j, "requested"); json_bytes(&j, e->bytes.requested);
        json_key(&j, "capacity"); json_bytes(&j, e->bytes.capacity);
        json_key(&j, "free"); json_bytes(&j, e->bytes.free);
        json_key(&j, "text"); json_str(&j, e->text);
        json_obj_end(&j);
    }
    for (size_t k = 0; k < rep->context.n; k++) { /* logs[].context.evidence[] */
        json_obj_begin(&j);
        json_key(&j, "what"); json_str(&j, rep->context.evidence[k].what);
        json_key(&j, "text"); json_str(&j, rep->context.evidence[k].text);
        json_obj_end(&j);
    }
    json_arr_end(&j);
    json_finish(&j);
    fclose(f);
    struct json_object *o = json_tokener_parse(buf);
    if (!o || json_object_array_length(o) != rep->n_events + rep->context.n) {
        fprintf(stderr, "not JSON: %.300s\n", buf);
        __builtin_trap();
    }
    json_object_put(o);
    free(buf);
}

static void judge(const struct oom_report *rep)
{
    check_figures(rep);
    check_json(rep);
    struct verdicts v;
    struct plan p;
    verdict_compute(rep, &v);
    plan_build(rep, &v, NULL, &p);
}

/* stage_code_shaped with a markdown backtick before the line, and
 * msg_classify with the line's typographic apostrophes straight. line is
 * an exact-size copy. */
static void code_and_apostrophes(const char *line, size_t len)
{
    bool code = stage_code_shaped(line, len);
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    char *q = malloc(len + 1);
    if (!q) return;
    q[0] = '`';
    memcpy(q + 1, line, len);
    if ((i == len || line[i] != '`') && stage_code_shaped(q, len + 1) != code) {
        fprintf(stderr, "code_shaped %d, with a backtick %d: %.*s\n", code, !code, (int)len, line);
        __builtin_trap();
    }
    if (len >= 3 && memmem(line, len, "\xe2\x80\x99", 3)) {
        size_t k = 0;
        for (size_t j = 0; j < len;) {
            bool contraction = j > 0 && j + 3 < len && !memcmp(line + j, "\xe2\x80\x99", 3) &&
                               isalpha((unsigned char)line[j - 1]) && isalpha((unsigned char)line[j + 3]);
            q[k++] = contraction ? '\'' : line[j];
            j += contraction ? 3 : 1;
        }
        char *straight = malloc(k ? k : 1); /* exact size again */
        if (straight) {
            memcpy(straight, q, k);
            if (msg_classify(line, len) != msg_classify(straight, k)) {
                fprintf(stderr, "typographic apostrophes classify apart: %.*s\n", (int)len, line);
                __builtin_trap();
            }
            free(straight);
        }
    }
    free(q);
}

/* The one-line readers on an exact-size copy of a line (ASan catches a
 * read past it) and of the line above it. */
static void line_readers(const char *p, size_t len, const char *above, size_t an)
{
    char *line = malloc(len ? len : 1), *up = malloc(an ? an : 1);
    if (line && up) {
        memcpy(line, p, len);
        memcpy(up, above, an);
        enum oom_stage st = stage_darknet_build(line, len, up, an);
        if (st != OOM_STAGE_UNKNOWN && (st != OOM_STAGE_LOAD || !memmem(line, len, "Error", 5)))
            __builtin_trap();
        st = OOM_STAGE_COUNT;
        int frame = stage_julia_frame(line, len, &st);
        if (frame != 0 && (frame != 1 || (unsigned)st >= OOM_STAGE_COUNT)) __builtin_trap();
        code_and_apostrophes(line, len);
        /* the frame/code pairs' one-line readers (left25's convert line
         * under torch's nn.Module header, open38's renderer in a training
         * loop): a convert first line is one whatever blanks end it */
        if (stage_convert_first_line(line, len) && !memmem(line, len, "return t.to(", 12)) __builtin_trap();
        size_t t = len;
        while (t && (line[t - 1] == ' ' || line[t - 1] == '\r')) t--;
        if (stage_convert_first_line(line, len) != stage_convert_first_line(line, t)) __builtin_trap();
        (void)stage_torch_module_frame(line, len);
        (void)stage_train_loop_frame(line, len);
        (void)stage_render_call(line, len);
    }
    free(line);
    free(up);
}

static void rewriters(const char *text, size_t size)
{
    const char *p = text, *end = text + size, *above = text;
    size_t an = 0;
    for (int k = 0; k < 8 && p < end; k++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (len <= 1024 && an <= 1024) line_readers(p, len, above, an);
        above = p, an = len;
        if (len <= 1024) {
            unsigned bits = stage_logger_bits(p, len);
            if (bits && bits != 1u << OOM_STAGE_GENERATE) __builtin_trap();
            size_t cap = len + len % 41; /* at times too small for the header */
            char *line = malloc(cap ? cap : 1); /* exact size: ASan catches a write past cap */
            if (line) {
                memcpy(line, p, len);
                size_t n = stage_unjson(line, len, cap);
                if (n != len && n + 2 > cap) __builtin_trap();
                if (n != len && (n < 6 || memcmp(line, "File \"", 6) || stage_unjson(line, n, cap) != n))
                    __builtin_trap();
                /* the JVM's frame, through the same header builder */
                memcpy(line, p, len);
                n = stage_unjava(line, len, cap);
                if (n != len && n + 2 > cap) __builtin_trap();
                if (n != len && (n < 6 || memcmp(line, "File \"", 6) || stage_unjava(line, n, cap) != n))
                    __builtin_trap();
                free(line);
            }
        }
        p += len + 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1); /* exact size: ASan catches any over-read */
    if (!copy) return 0;
    memcpy(copy, data, size);
    rewriters(copy, size);
    struct oom_report rep;
    struct oomlab_err err;
    if (scan_text(copy, size, &rep, &err) == 0) {
        judge(&rep);
        oom_report_release(&rep);
    }
    /* The same bytes as a stream: windows of 97 bytes, 64 of history. */
    struct scan s;
    if (scan_init(&s, &rep, &err) == 0) {
        for (size_t off = 0; off < size; off += 97) {
            size_t lo = off > 64 ? off - 64 : 0;
            size_t upto = off + 97 < size ? off + 97 : size;
            size_t hi = upto + 32 < size ? upto + 32 : size;
            if (scan_block(&s, copy + lo, hi - lo, lo, off, upto) < 0) break;
        }
        scan_finish(&s, size == 0 || copy[size - 1] == '\n');
        scan_release(&s);
        judge(&rep);
        oom_report_release(&rep);
    }
    free(copy);
    return 0;
}
