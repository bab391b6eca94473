/* Unit tests for lib/probe_est: the estimator as the probe's start and
 * curve — the workload from a run config, and a probe on a card whose real
 * memory is the estimate off by 10% plus a context the model misses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/models.h"
#include "lib/probe.h"
#include "lib/probe_est.h"

static struct est_model gpt2(void)
{
    const struct model_preset *p = models_find("gpt2");
    assert_non_null(p);
    struct est_model m = p->m;
    assert_int_equal(est_model_finish(&m, NULL), 0);
    return m;
}

static void test_workload_from_the_config(void **state)
{
    (void)state;
    struct est_model m = gpt2();
    struct runcfg cfg;
    struct probe_est pe;
    struct oomlab_err err = {{0}};
    runcfg_init(&cfg);
    assert_int_equal(probe_est_init(&pe, &m, &cfg, "batch", &err), 0);
    assert_true(pe.seq_assumed);
    assert_int_equal(runcfg_set(&cfg, "max_seq_len=1024", &err), 0);
    assert_int_equal(runcfg_set(&cfg, "dtype=float32", &err), 0);
    assert_int_equal(probe_est_init(&pe, &m, &cfg, "batch", &err), 0);
    assert_false(pe.seq_assumed);
    assert_int_equal(pe.wl.seq, 1024);
    assert_int_equal(pe.wl.precision, EST_FP32);
    int64_t fp32 = probe_est_predict(&pe, 8);
    assert_int_equal(runcfg_set(&cfg, "gradient_checkpointing=true", &err), 0);
    assert_int_equal(probe_est_init(&pe, &m, &cfg, "batch", &err), 0);
    assert_true(probe_est_predict(&pe, 8) < fp32); /* checkpointing saves activations */
    /* memory grows with the probed value, whichever it is */
    assert_true(probe_est_predict(&pe, 16) > probe_est_predict(&pe, 8));
    assert_int_equal(probe_est_init(&pe, &m, &cfg, "seq", &err), 0);
    assert_true(probe_est_predict(&pe, 2048) > probe_est_predict(&pe, 1024));
    assert_int_equal(probe_est_init(&pe, &m, &cfg, "lr", &err), -1);
    assert_non_null(strstr(err.msg, "batch or seq"));
    assert_int_equal(probe_est_predict(&pe, (long)1 << 40), -1); /* refused, not overflowed */
    runcfg_release(&cfg);
}

/* A family transformers runs without SDPA (GPT-J: eager and
 * flash_attention_2 only) is predicted with eager attention, as estimate
 * predicts it without --attention; before, the workload kept SDPA, which
 * est_compute refuses for it, and every prediction was -1. */
static void test_family_without_sdpa(void **state)
{
    (void)state;
    struct est_model m = {0};
    m.family = EST_FAM_GPTJ;
    m.layers = 2;
    m.hidden = 256;
    m.heads = 4;
    m.ffn = 1024;
    m.vocab = 1000;
    assert_int_equal(est_model_finish(&m, NULL), 0);
    struct runcfg cfg;
    struct probe_est pe;
    runcfg_init(&cfg);
    assert_int_equal(runcfg_set(&cfg, "max_seq_len=256", NULL), 0);
    assert_int_equal(probe_est_init(&pe, &m, &cfg, "batch", NULL), 0);
    assert_int_equal(pe.wl.attention, EST_ATTN_EAGER);
    int64_t one = probe_est_predict(&pe, 1);
    assert_true(one > 0);
    assert_true(probe_est_predict(&pe, 8) > one);
    runcfg_release(&cfg);
}

/* The real card: the estimate 10% high or low, plus 700 MiB it does not know. */
struct card {
    struct probe_est *pe;
    double factor;
    int64_t cap;
};

static int64_t real_mem(const struct card *c, long v)
{
    return (int64_t)((double)probe_est_predict(c->pe, v) * c->factor) + 700 * 1048576LL;
}

static enum probe_outcome trial(void *ctx, long v, struct probe_trial *t)
{
    const struct card *c = ctx;
    t->capacity = c->cap;
    if (real_mem(c, v) > c->cap) return PROBE_OOM;
    t->peak = real_mem(c, v);
    return PROBE_FITS;
}

static void test_probe_starts_from_the_estimate(void **state)
{
    (void)state;
    struct est_model m = gpt2();
    struct runcfg cfg;
    struct probe_est pe;
    runcfg_init(&cfg);
    assert_int_equal(runcfg_set(&cfg, "max_seq_len=1024", NULL), 0);
    assert_int_equal(probe_est_init(&pe, &m, &cfg, "batch", NULL), 0);
    const double factors[] = {0.9, 1.0, 1.1};
    for (size_t i = 0; i < 3; i++) {
        struct card c = {&pe, factors[i], 80LL << 30};
        long truth = 0;
        while (real_mem(&c, truth + 1) <= c.cap) truth++;
        struct probe_opts o;
        probe_opts_init(&o);
        o.max = 4096;
        o.capacity = c.cap;
        o.trial = trial;
        o.trial_ctx = &c;
        o.predict = probe_est_predict;
        o.predict_ctx = &pe;
        static struct probe_result r;
        assert_int_equal(probe_run(&o, &r, NULL), 0);
        assert_int_equal(r.largest_fit, truth);
        assert_int_equal(r.trials[0].how, PROBE_HOW_MODEL);
        assert_true((int)r.n_trials < probe_trial_bound(1, 4096));
        assert_true(r.n_trials <= 6);
    }
    runcfg_release(&cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_family_without_sdpa),
        cmocka_unit_test(test_workload_from_the_config),
        cmocka_unit_test(test_probe_starts_from_the_estimate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
