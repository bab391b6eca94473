/* A number audit's machinery (test_diagnose_numsrc.c): each row is a
 * library's out-of-memory message as its source formats it, filled with
 * plausible values, and every figure a labeller following the corpus
 * conventions gives it (-1: the message states none). `--table` prints each
 * row with what diagnose reads; `--paste N` prints row N's text. The figures
 * are compared as test_corpus compares them: the current PyTorch form's
 * reserved figure is "reserved by PyTorch but unallocated". Include after
 * <cmocka.h>. */
#ifndef OOMLAB_TEST_NUMSRC_AUDIT_H
#define OOMLAB_TEST_NUMSRC_AUDIT_H

#include "lib/scan.h"
#include "scan_fixture.h"

#define NA (-1LL)

enum num_field { NF_TRIED, NF_TOTAL, NF_ALLOC, NF_FREE, NF_RESERVED, NF_GPU, NF_RANK, NF_STEP, NF_N };

static const char *const num_field_name[NF_N] = {"tried", "total", "allocated", "free", "reserved", "gpu", "rank", "step"};

struct num_row {
    const char *who, *source; /* the library; owner/repo:path@commit of the format string */
    const char *kind;         /* the family diagnose should name (NULL: not checked) */
    bool gpu_oom;             /* the call a labeller gives */
    long long want[NF_N];     /* tried total allocated free reserved gpu rank step; NA unstated */
    const char *text;         /* the message with the lines its library prints around it */
    const char *gap;          /* a known gap: why diagnose misses it (printed, not asserted) */
};

struct num_got {
    bool gpu_oom;
    char kind[32];
    long long got[NF_N];
};

static void num_read(const struct num_row *row, struct num_got *g)
{
    struct oom_report rep;
    scan_log(row->text, &rep);
    const struct oom_event *e = rep.primary >= 0 ? &rep.events[rep.primary] : rep.n_events ? &rep.events[0] : NULL;
    g->gpu_oom = rep.primary >= 0;
    snprintf(g->kind, sizeof g->kind, "%s", e ? e->kind : "(none)");
    for (int f = 0; f < NF_N; f++) g->got[f] = -1;
    if (e) {
        const struct oom_bytes *b = &e->bytes;
        bool new_form = !strcmp(e->kind, "pytorch-new") || (!strcmp(e->kind, "pytorch") && b->reserved < 0);
        g->got[NF_TRIED] = e->requested_from_shape && row->want[NF_TRIED] < 0 ? -1 : b->requested;
        g->got[NF_TOTAL] = b->capacity;
        g->got[NF_ALLOC] = b->allocated;
        g->got[NF_FREE] = b->free;
        g->got[NF_RESERVED] = new_form ? b->reserved_unallocated : b->reserved;
        g->got[NF_GPU] = e->gpu;
        g->got[NF_RANK] = e->rank;
        g->got[NF_STEP] = e->step;
    }
    oom_report_release(&rep);
}

struct num_score {
    int rows, call_ok, kind_ok, kinds, labelled, right, extra, row_misses;
};

/* Score every row; print: one line a row (and the missed figures). */
static struct num_score num_audit(const struct num_row *rows, size_t n, bool print)
{
    struct num_score s = {0};
    for (size_t i = 0; i < n; i++) {
        const struct num_row *r = &rows[i];
        struct num_got g;
        num_read(r, &g);
        char miss[512] = "", extra[256] = "";
        size_t ml = 0, el = 0;
        bool ok = g.gpu_oom == r->gpu_oom;
        for (int f = 0; f < NF_N; f++) {
            if (r->want[f] < 0) {
                if (g.got[f] >= 0 && el < sizeof extra)
                    el += (size_t)snprintf(extra + el, sizeof extra - el, " %s=%lld", num_field_name[f], g.got[f]);
                s.extra += g.got[f] >= 0;
                continue;
            }
            s.labelled++;
            if (g.got[f] == r->want[f]) {
                s.right++;
                continue;
            }
            ok = false;
            if (ml < sizeof miss)
                ml += (size_t)snprintf(miss + ml, sizeof miss - ml, " %s want %lld got %lld", num_field_name[f],
                                       r->want[f], g.got[f]);
        }
        bool kind_ok = !r->kind || !strcmp(r->kind, g.kind);
        s.rows++;
        s.call_ok += g.gpu_oom == r->gpu_oom;
        s.kinds += r->kind != NULL;
        s.kind_ok += r->kind && kind_ok;
        s.row_misses += !ok && !r->gap;
        if (print)
            printf("%zu\t%s\t%s\t%s%s\t%s\t%s%s%s%s\n", i + 1, r->who, g.kind, kind_ok ? "" : "KIND(want ",
                   kind_ok ? "" : r->kind, ok ? "ok" : r->gap ? "GAP" : "MISS",
                   g.gpu_oom == r->gpu_oom ? "" : " CALL", miss, *extra ? "  extra:" : "", extra);
        else if (!ok && !r->gap)
            fprintf(stderr, "row %zu %s (%s): call %d/%d%s\n", i + 1, r->who, r->source, g.gpu_oom, r->gpu_oom, miss);
    }
    return s;
}

static void num_print_score(const char *name, struct num_score s)
{
    fprintf(stderr, "%s: %d rows; call %d/%d; family %d/%d; figures %d/%d (%.1f%%); unlabelled figures read %d\n",
            name, s.rows, s.call_ok, s.rows, s.kind_ok, s.kinds, s.right, s.labelled,
            s.labelled ? 100.0 * s.right / s.labelled : 0.0, s.extra);
}

#endif
