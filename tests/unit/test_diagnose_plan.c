/* Unit tests for lib/verdict and lib/plan: judgements from the numbers and
 * the ranked fix plan, with and without a run config. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/plan.h"
#include "lib/units.h"
#include "lib/verdict.h"

#define GiB(x) ((int64_t)((x) * 1073741824.0))

static struct oom_report one(struct oom_event *ev)
{
    struct oom_report rep;
    oom_report_init(&rep);
    rep.events = ev;
    rep.n_events = 1;
    rep.primary = ev->gpu_oom ? 0 : -1;
    return rep;
}

static struct oom_event pytorch(double req, double cap, double free_, double alloc, double unalloc,
                                double proc)
{
    struct oom_event e;
    oom_event_init(&e);
    e.gpu_oom = true;
    e.kind = "pytorch-new";
    e.framework = "pytorch";
    e.gpu = 0;
    e.line = 10;
    e.stage = OOM_STAGE_BACKWARD;
    e.bytes.requested = GiB(req);
    e.bytes.capacity = GiB(cap);
    e.bytes.free = GiB(free_);
    e.bytes.allocated = GiB(alloc);
    e.bytes.reserved_unallocated = GiB(unalloc);
    e.bytes.process_in_use = proc < 0 ? -1 : GiB(proc);
    return e;
}

static size_t index_of(const struct plan *p, const char *id)
{
    for (size_t i = 0; i < p->n; i++)
        if (!strcmp(p->items[i].id, id)) return i;
    return SIZE_MAX;
}

static void test_verdicts(void **state)
{
    (void)state;
    struct oom_event e = pytorch(2, 80, 1, 70, 5, 78.5);
    struct oom_report rep = one(&e);
    struct verdicts v;
    verdict_compute(&rep, &v);
    assert_true(verdict_has(&v, VERDICT_SHORTFALL));
    assert_int_equal(v.shortfall, GiB(2) - GiB(1));
    assert_true(verdict_has(&v, VERDICT_FRAGMENTATION));
    assert_false(verdict_has(&v, VERDICT_OTHER_PROCESSES));
    assert_false(verdict_has(&v, VERDICT_EXCEEDS_CARD));
    /* Another process holds 40 GiB of the card. */
    e = pytorch(2, 80, 1, 30, 0.1, 38);
    verdict_compute(&rep, &v);
    assert_true(verdict_has(&v, VERDICT_OTHER_PROCESSES));
    assert_false(verdict_has(&v, VERDICT_FRAGMENTATION));
    assert_true(v.others > GiB(40));
    /* Larger than the card; absurd. */
    e = pytorch(355.43, 79.32, 18, 52, 8, 61);
    verdict_compute(&rep, &v);
    assert_true(verdict_has(&v, VERDICT_EXCEEDS_CARD));
    assert_false(verdict_has(&v, VERDICT_ABSURD));
    e = pytorch(538976288.13, 47.54, 43, 3, 0.4, -1);
    verdict_compute(&rep, &v);
    assert_true(verdict_has(&v, VERDICT_ABSURD));
    /* A cap hit with the card mostly free. */
    e = pytorch(0.002, 287.98, 275.86, 1, 0.05, -1);
    e.bytes.allowed = GiB(1.05);
    verdict_compute(&rep, &v);
    assert_true(verdict_has(&v, VERDICT_CAP));
    /* Unknown numbers judge nothing. */
    oom_event_init(&e);
    e.gpu_oom = true;
    e.framework = "cuda";
    verdict_compute(&rep, &v);
    assert_int_equal(v.set, 0);
    assert_int_equal(v.shortfall, -1);
    /* Early versus mid-run. */
    e = pytorch(2, 80, 1, 70, 0.1, 78.5);
    e.step = 3;
    verdict_compute(&rep, &v);
    assert_true(verdict_has(&v, VERDICT_EARLY));
    e.step = 4000;
    verdict_compute(&rep, &v);
    assert_true(verdict_has(&v, VERDICT_MID_RUN));
}

static void test_plan_order_and_values(void **state)
{
    (void)state;
    struct oom_event e = pytorch(2, 80, 1, 70, 5, 78.5);
    struct oom_report rep = one(&e);
    struct verdicts v;
    struct plan p;
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, NULL, &p);
    size_t frag = index_of(&p, "expandable-segments"), batch = index_of(&p, "batch"),
           seq = index_of(&p, "sequence-length"), ckpt = index_of(&p, "gradient-checkpointing");
    assert_true(frag < batch && batch < seq && seq < ckpt && ckpt < p.n);
    assert_non_null(strstr(p.items[frag].action, "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"));
    assert_non_null(strstr(p.items[frag].why, "5.00 GiB"));
    /* The run's own values. */
    struct runcfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.device_batch_size = 8;
    cfg.grad_accum = 2;
    cfg.max_seq_len = 2048;
    cfg.grad_ckpt = 1;
    snprintf(cfg.dtype, sizeof cfg.dtype, "bfloat16");
    plan_build(&rep, &v, &cfg, &p);
    batch = index_of(&p, "batch");
    assert_true(batch < p.n);
    assert_string_equal(p.items[batch].action,
                        "device_batch_size 8 -> 4, grad_accum 2 -> 4 keeps the effective batch at 16");
    seq = index_of(&p, "sequence-length");
    assert_non_null(strstr(p.items[seq].action, "max_seq_len 2048 -> 1024"));
    assert_int_equal(index_of(&p, "gradient-checkpointing"), SIZE_MAX); /* already on */
    assert_int_equal(index_of(&p, "bf16-autocast"), SIZE_MAX);          /* already bf16 */
    /* Batch 1: nothing to halve, the plan goes to sequence length. */
    cfg.device_batch_size = 1;
    plan_build(&rep, &v, &cfg, &p);
    assert_int_equal(index_of(&p, "batch"), SIZE_MAX);
    assert_non_null(strstr(p.items[index_of(&p, "sequence-length")].why, "already 1"));
    /* expandable_segments already set: not advised again. */
    rep.expandable_set = true;
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, NULL, &p);
    assert_int_equal(index_of(&p, "expandable-segments"), SIZE_MAX);
}

static void test_plan_stages_and_lookalikes(void **state)
{
    (void)state;
    struct oom_event e = pytorch(2, 80, 1, 70, 0.1, 78.5);
    e.stage = OOM_STAGE_EVAL;
    struct oom_report rep = one(&e);
    struct verdicts v;
    struct plan p;
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, NULL, &p);
    assert_string_equal(p.items[0].id, "eval-no-grad");
    e.stage = OOM_STAGE_CHECKPOINT;
    plan_build(&rep, &v, NULL, &p);
    assert_string_equal(p.items[0].id, "checkpoint-from-cpu");
    e = pytorch(355.43, 79.32, 18, 52, 0.1, 61);
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, NULL, &p);
    assert_string_equal(p.items[0].id, "exceeds-card");
    assert_int_equal(index_of(&p, "batch"), SIZE_MAX); /* no batch change helps */
    oom_event_init(&e);
    e.kind = "host-sigkill";
    e.framework = "host";
    rep = one(&e);
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, NULL, &p);
    assert_int_equal(p.n, 1);
    assert_string_equal(p.items[0].id, "host-memory");
    /* The catalogue is data the docs list. */
    assert_true(plan_catalogue_size() > 15);
    assert_string_equal(plan_catalogue_id(plan_catalogue_size() - 1), "fallbacks");
    assert_null(plan_catalogue_id(plan_catalogue_size()));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verdicts),
        cmocka_unit_test(test_plan_order_and_values),
        cmocka_unit_test(test_plan_stages_and_lookalikes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
