/* call_fixture: whether diagnose calls each of a list of logs a GPU OOM, and
 * the primary event of one log, for the call tests (test_diagnose_prose.c,
 * test_diagnose_emitter.c, test_diagnose_call4..8.c).
 * Header-only (a static function: each test file is its own program);
 * include after <cmocka.h>. */
#ifndef OOMLAB_TEST_CALL_FIXTURE_H
#define OOMLAB_TEST_CALL_FIXTURE_H

#include <stdbool.h>
#include <string.h>

#include "lib/scan.h"
#include "scan_fixture.h"

struct call_case {
    const char *source;
    const char *log;
    bool oom; /* the log's primary event is a GPU OOM */
};

static void expect_calls(const struct call_case *logs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct oom_report rep;
        scan_log(logs[i].log, &rep);
        bool oom = rep.primary >= 0 && rep.events[rep.primary].gpu_oom;
        if (oom != logs[i].oom) fail_msg("%s: primary %ld", logs[i].source, rep.primary);
        oom_report_release(&rep);
    }
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
