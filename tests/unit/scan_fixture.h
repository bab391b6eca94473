/* scan_fixture: scan one log in a unit test, failing the test when
 * scan_text refuses it; the caller releases the report with
 * oom_report_release. Header-only (each test file is its own program);
 * include after <cmocka.h>. */
#ifndef OOMLAB_TEST_SCAN_FIXTURE_H
#define OOMLAB_TEST_SCAN_FIXTURE_H

#include <string.h>

#include "lib/scan.h"

static inline void scan_log(const char *log, struct oom_report *rep)
{
    struct oomlab_err err = {{0}};
    assert_int_equal(scan_text(log, strlen(log), rep, &err), 0);
}

/* The log's primary event, which must be a GPU OOM. */
static inline const struct oom_event *scan_primary(const char *log, struct oom_report *rep)
{
    scan_log(log, rep);
    if (rep->primary < 0) fail_msg("no GPU OOM in: %.80s", log);
    return &rep->events[rep->primary];
}

/* The stage's name of the log's primary event (a GPU OOM). */
static inline const char *primary_stage(const char *log)
{
    struct oom_report rep;
    const struct oom_event *e = scan_primary(log, &rep);
    const char *name = oom_stage_name(e->stage);
    oom_report_release(&rep);
    return name;
}

/* The log holds no GPU OOM (no primary event). */
static inline void expect_no_gpu_oom(const char *log)
{
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.primary < 0);
    oom_report_release(&rep);
}

#endif
