/* stage_fixture: the stage diagnose gives a log's GPU OOM, for the stage
 * tests (test_diagnose_stage4.c .. test_diagnose_stage15.c, -open48.c). Header-only (a
 * static function: each test file is its own program); include after
 * <cmocka.h>. The name is kept in a static buffer until the next call. */
#ifndef OOMLAB_TEST_STAGE_FIXTURE_H
#define OOMLAB_TEST_STAGE_FIXTURE_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/scan.h"
#include "lib/stage.h"
#include "scan_fixture.h"

static inline const char *stage_of(const char *log)
{
    static char name[32];
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.primary >= 0);
    snprintf(name, sizeof name, "%s", oom_stage_name(rep.events[rep.primary].stage));
    oom_report_release(&rep);
    return name;
}

/* The first event of a log (a look-alike included): its stage; *gpu_oom
 * (when not NULL) says whether the log's call is a GPU OOM. */
static inline const char *first_stage_of(const char *log, bool *gpu_oom)
{
    static char name[32];
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.n_events > 0);
    snprintf(name, sizeof name, "%s", oom_stage_name(rep.events[0].stage));
    if (gpu_oom) *gpu_oom = rep.primary >= 0;
    oom_report_release(&rep);
    return name;
}

/* The stage a log's primary event (else its first) shows: its stage, else
 * its weaker reading (the tail of a paste cut before its error), as the
 * corpus scores it. */
static inline enum oom_stage shown_stage_of(const char *log)
{
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.n_events > 0);
    const struct oom_event *e = &rep.events[rep.primary >= 0 ? (size_t)rep.primary : 0];
    enum oom_stage st = e->stage != OOM_STAGE_UNKNOWN ? e->stage : e->weak_stage;
    oom_report_release(&rep);
    return st;
}

/* The same stage by name. */
static inline const char *shown_stage(const char *log)
{
    return oom_stage_name(shown_stage_of(log));
}

/* The stage one frame or code line names by itself (stage_frame_bits,
 * stage_pick): the unit the cue tables work on. */
static inline enum oom_stage line_stage(const char *line)
{
    return stage_pick(stage_frame_bits(line, strlen(line)));
}

#endif
