/* stage_fixture: the stage diagnose gives a log's GPU OOM, for the stage
 * tests (test_diagnose_stage4.c, test_diagnose_stage5.c). Header-only (a
 * static function: each test file is its own program); include after
 * <cmocka.h>. The name is kept in a static buffer until the next call. */
#ifndef OOMLAB_TEST_STAGE_FIXTURE_H
#define OOMLAB_TEST_STAGE_FIXTURE_H

#include <stdio.h>
#include <string.h>

#include "lib/scan.h"
#include "lib/stage.h"

static const char *stage_of(const char *log)
{
    static char name[32];
    struct oom_report rep;
    struct oomlab_err err = {{0}};
    assert_int_equal(scan_text(log, strlen(log), &rep, &err), 0);
    assert_true(rep.primary >= 0);
    snprintf(name, sizeof name, "%s", oom_stage_name(rep.events[rep.primary].stage));
    oom_report_release(&rep);
    return name;
}

#endif
