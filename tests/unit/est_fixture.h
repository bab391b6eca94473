/* est_fixture: the set-up tests/unit/test_est*.c share — a preset model,
 * finished, and a workload from est_workload_init with the three fields
 * nearly every test sets. Header-only (static functions: each test file is
 * its own program); include after <cmocka.h>. Nothing is allocated. */
#ifndef OOMLAB_TEST_EST_FIXTURE_H
#define OOMLAB_TEST_EST_FIXTURE_H

#include <stdint.h>

#include "lib/est.h"
#include "lib/models.h"

/* The preset NAME (lib/models), est_model_finish'ed; fails the test when
 * the preset is unknown or does not finish. */
static inline struct est_model fx_preset(const char *name)
{
    const struct model_preset *p = models_find(name);
    struct oomlab_err err;
    assert_non_null(p);
    struct est_model m = p->m;
    assert_int_equal(est_model_finish(&m, &err), 0);
    return m;
}

/* est_workload_init's workload with precision, micro-batch and sequence
 * length set (its defaults: EST_BF16_MIXED, 1, 512). */
static inline struct est_workload fx_workload(enum est_precision precision, int64_t batch, int64_t seq)
{
    struct est_workload wl;
    est_workload_init(&wl);
    wl.precision = precision;
    wl.batch = batch;
    wl.seq = seq;
    return wl;
}

#endif
