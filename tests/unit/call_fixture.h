/* call_fixture: whether diagnose calls each of a list of logs a GPU OOM, and
 * the primary event of one log, for the call tests (test_diagnose_prose.c,
 * test_diagnose_emitter.c, test_diagnose_call4..15.c, -open48.c).
 * Header-only (a static function: each test file is its own program);
 * include after <cmocka.h>. */
#ifndef OOMLAB_TEST_CALL_FIXTURE_H
#define OOMLAB_TEST_CALL_FIXTURE_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/scan.h"
#include "scan_fixture.h"

struct call_case {
    const char *source;
    const char *log;
    bool oom; /* the log's primary event is a GPU OOM */
};

static inline void expect_calls(const struct call_case *logs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct oom_report rep;
        scan_log(logs[i].log, &rep);
        bool oom = rep.primary >= 0 && rep.events[rep.primary].gpu_oom;
        if (oom != logs[i].oom) fail_msg("%s: primary %ld", logs[i].source, rep.primary);
        oom_report_release(&rep);
    }
}

/* What diagnose makes of a log: the primary event's kind and stage (the
 * first event's when none is primary; "" when there is none), the call and
 * the number of events. */
struct seen {
    char kind[64];
    char stage[32];
    bool gpu_oom;
    size_t n_events;
};

static inline struct seen look(const char *log)
{
    struct seen s = {{0}, {0}, false, 0};
    struct oom_report rep;
    scan_log(log, &rep);
    s.n_events = rep.n_events;
    if (rep.n_events > 0) {
        const struct oom_event *e = &rep.events[rep.primary >= 0 ? (size_t)rep.primary : 0];
        snprintf(s.kind, sizeof s.kind, "%s", e->kind);
        snprintf(s.stage, sizeof s.stage, "%s", oom_stage_name(e->stage));
    }
    s.gpu_oom = rep.primary >= 0 && rep.events[rep.primary].gpu_oom;
    oom_report_release(&rep);
    return s;
}

/* The primary event of a log (the first event when none is primary); the
 * log must give at least one. Inline: not every includer reads one event. */
static inline struct oom_event primary(const char *text)
{
    struct oom_report rep;
    scan_log(text, &rep);
    assert_true(rep.n_events > 0);
    struct oom_event e = rep.events[rep.primary >= 0 ? (size_t)rep.primary : 0];
    oom_report_release(&rep);
    return e;
}

#endif
