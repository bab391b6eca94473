/* diagnose: the out-of-memory messages of frameworks other than PyTorch's
 * CUDA caching allocator, as their own code formats them (issue 12, helper
 * srcfam). Each row of tests/data/oom-families.tsv is one message, written
 * from the format string of the code that prints it (the source is on the
 * row: owner/repo:path@commit) and filled with realistic figures, and what
 * diagnose must say of it: the call (a GPU OOM, a look-alike event, or
 * nothing), the event's kind and framework, and every byte figure and the
 * device the message states. A figure the message does not state must stay
 * unknown. Every row is checked and every mismatch printed before the test
 * fails, so one run lists all that is wrong; FAMILIES_VERBOSE=1 prints
 * what diagnose said of every row. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "lib/scan.h"
#include "scan_fixture.h"

#define FAMILIES "tests/data/oom-families.tsv"

enum col {
    C_ID, C_SOURCE, C_CALL, C_KIND, C_FRAMEWORK, C_REQUESTED, C_CAPACITY, C_FREE,
    C_ALLOCATED, C_RESERVED, C_PROCESS, C_ALLOWED, C_GPU, C_TEXT, C_COUNT
};

static const char *const col_names[C_COUNT] = {
    "id", "source", "call", "kind", "framework", "requested", "capacity", "free",
    "allocated", "reserved", "process", "allowed", "gpu", "text"};

/* "\n", "\t" and "\\" in the text column; in place. */
static void unescape(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++) {
        if (r[0] == '\\' && r[1]) {
            r++;
            *w++ = *r == 'n' ? '\n' : *r == 't' ? '\t' : *r == 'r' ? '\r' : *r;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
}

/* Split a row on tabs; false when it has not C_COUNT columns. */
static bool split(char *line, char **cols)
{
    size_t n = strcspn(line, "\r\n");
    line[n] = '\0';
    int c = 0;
    cols[c++] = line;
    for (char *p = line; *p; p++) {
        if (*p != '\t') continue;
        *p = '\0';
        if (c == C_COUNT) return false;
        cols[c++] = p + 1;
    }
    return c == C_COUNT;
}

/* A figure column: "*" unchecked, "-" unknown (-1), else an exact integer. */
static bool figure_ok(const char *want, long long got, char *why, size_t cap, const char *name)
{
    if (strcmp(want, "*") == 0) return true;
    long long w = strcmp(want, "-") == 0 ? -1 : strtoll(want, NULL, 10);
    if (w == got) return true;
    size_t used = strlen(why);
    snprintf(why + used, cap - used, " %s=%lld (want %s)", name, got, want);
    return false;
}

static bool check_row(char **cols, char *why, size_t cap)
{
    unescape(cols[C_TEXT]);
    struct oom_report rep;
    scan_log(cols[C_TEXT], &rep);
    const struct oom_event *e = NULL;
    const char *call = "none";
    if (rep.primary >= 0) {
        e = &rep.events[rep.primary];
        call = "gpu";
    } else {
        for (size_t i = 0; i < rep.n_events; i++)
            if (!rep.events[i].gpu_oom) {
                e = &rep.events[i];
                call = "lookalike";
                break;
            }
    }
    if (getenv("FAMILIES_VERBOSE"))
        print_message("ROW %s: call=%s kind=%s framework=%s req=%lld cap=%lld free=%lld alloc=%lld "
                      "res=%lld proc=%lld allowed=%lld gpu=%d\n",
                      cols[C_ID], call, e ? e->kind : "", e ? e->framework : "",
                      e ? (long long)e->bytes.requested : 0, e ? (long long)e->bytes.capacity : 0,
                      e ? (long long)e->bytes.free : 0, e ? (long long)e->bytes.allocated : 0,
                      e ? (long long)e->bytes.reserved : 0, e ? (long long)e->bytes.process_in_use : 0,
                      e ? (long long)e->bytes.allowed : 0, e ? e->gpu : 0);
    bool ok = strcmp(call, cols[C_CALL]) == 0;
    if (!ok) snprintf(why, cap, " call=%s (want %s)", call, cols[C_CALL]);
    if (e && ok) {
        if (strcmp(cols[C_KIND], "*") && strcmp(cols[C_KIND], e->kind)) {
            size_t used = strlen(why);
            snprintf(why + used, cap - used, " kind=%s (want %s)", e->kind, cols[C_KIND]);
            ok = false;
        }
        if (strcmp(cols[C_FRAMEWORK], "*") && strcmp(cols[C_FRAMEWORK], e->framework)) {
            size_t used = strlen(why);
            snprintf(why + used, cap - used, " framework=%s (want %s)", e->framework,
                     cols[C_FRAMEWORK]);
            ok = false;
        }
        const long long got[] = {e->bytes.requested, e->bytes.capacity, e->bytes.free,
                                 e->bytes.allocated, e->bytes.reserved, e->bytes.process_in_use,
                                 e->bytes.allowed, e->gpu};
        for (int c = C_REQUESTED; c <= C_GPU; c++)
            ok &= figure_ok(cols[c], got[c - C_REQUESTED], why, cap, col_names[c]);
    }
    oom_report_release(&rep);
    return ok;
}

static void test_families(void **state)
{
    (void)state;
    FILE *f = fopen(FAMILIES, "r");
    if (!f) fail_msg("cannot open %s (run from the repository root)", FAMILIES);
    static char line[16384];
    int rows = 0, bad = 0;
    bool header = false;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        char *cols[C_COUNT];
        if (!split(line, cols)) fail_msg("%s: a row without %d columns: %.60s", FAMILIES, C_COUNT, line);
        if (!header) {
            for (int c = 0; c < C_COUNT; c++)
                if (strcmp(cols[c], col_names[c])) fail_msg("%s: column %d is not %s", FAMILIES, c, col_names[c]);
            header = true;
            continue;
        }
        if (strcmp(cols[C_CALL], "gpu") && strcmp(cols[C_CALL], "lookalike") && strcmp(cols[C_CALL], "none"))
            fail_msg("%s: row %s: call %s", FAMILIES, cols[C_ID], cols[C_CALL]);
        char why[512] = "";
        rows++;
        if (!check_row(cols, why, sizeof why)) {
            bad++;
            print_message("MISS %s:%s\n", cols[C_ID], why);
        }
    }
    fclose(f);
    print_message("%d rows, %d wrong\n", rows, bad);
    assert_true(rows >= 40);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_families),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
