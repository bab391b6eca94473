/* Unit tests for lib/gate (guard's verdict) and lib/onoom (run --on-oom's
 * next change). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/gate.h"
#include "lib/onoom.h"

#define GIB 1073741824LL

static struct gate_out judge(struct gate_in in)
{
    struct gate_out out;
    gate_judge(&in, &out);
    return out;
}

static void test_verdicts(void **state)
{
    (void)state;
    struct gate_in base = {.budget = 20 * GIB, .headroom = 0.15, .peak = 10 * GIB};
    struct gate_in in = base;
    assert_int_equal(judge(in).exit_code, 0);
    assert_null(judge(in).junit);
    in.peak = 17 * GIB; /* exactly on the line: still a pass */
    assert_string_equal(judge(in).name, "pass");
    assert_int_equal(judge(in).line, 17 * GIB);
    in.peak = 17 * GIB + 1;
    assert_int_equal(judge(in).exit_code, 11);
    assert_string_equal(judge(in).junit, "failure");
    in.peak = 20 * GIB; /* at the budget: edge, not over */
    assert_int_equal(judge(in).exit_code, 11);
    in.peak = 20 * GIB + 1;
    assert_int_equal(judge(in).exit_code, 10);
    assert_string_equal(judge(in).message, "peak 20.00 GiB is over the budget 20.00 GiB");
    in = base, in.oom = true, in.exit_code = 1, in.peak = 30 * GIB, in.peak_lower_bound = true;
    assert_int_equal(judge(in).exit_code, 12);
    assert_string_equal(judge(in).message, "the command ran out of GPU memory (peak >= 30.00 GiB)");
    in = base, in.exit_code = 3;
    assert_int_equal(judge(in).exit_code, 13);
    assert_string_equal(judge(in).junit, "error");
    in = base, in.timed_out = true, in.exit_code = 143;
    assert_int_equal(judge(in).exit_code, 13);
    in = base, in.stopped = true, in.exit_code = 143; /* guard ended a finished smoke */
    assert_int_equal(judge(in).exit_code, 0);
    in = base, in.exec_failed = true, in.exit_code = 127, in.peak = -1;
    assert_int_equal(judge(in).exit_code, 13);
    in = base, in.peak = -1; /* ran, nothing measured: never a pass */
    assert_int_equal(judge(in).exit_code, 14);
    in = base, in.headroom = 0, in.peak = 20 * GIB;
    assert_int_equal(judge(in).exit_code, 0);
    /* oomlab itself interrupted (a CI job cancelled: SIGTERM): not the
     * command's failure, nor a pass on what it had measured so far */
    in = base, in.interrupted_by = 15, in.exit_code = 143;
    assert_string_equal(judge(in).name, "interrupted");
    assert_int_equal(judge(in).exit_code, 143);
    assert_string_equal(judge(in).junit, "error");
    assert_string_equal(judge(in).message, "oomlab was interrupted (SIGTERM: a cancelled CI job or scancel?) before "
                                           "the smoke ended: the budget 20.00 GiB was not judged");
    in = base, in.interrupted_by = 2, in.exit_code = 0; /* the command caught it and exited 0 */
    assert_int_equal(judge(in).exit_code, 130);
    in = base, in.interrupted_by = 2, in.oom = true, in.exit_code = 130; /* an OOM found still wins */
    assert_int_equal(judge(in).exit_code, 12);
}

static struct runcfg cfg_of(long batch, long accum, long seq, int ckpt)
{
    struct runcfg c;
    runcfg_init(&c);
    c.device_batch_size = batch, c.grad_accum = accum, c.max_seq_len = seq, c.grad_ckpt = ckpt;
    return c;
}

static const struct onoom_keys keys = {"device_batch_size", "grad_accum", "max_seq_len", "gradient_checkpointing"};

static void test_onoom(void **state)
{
    (void)state;
    struct onoom_step st;
    struct oomlab_err err;
    enum onoom_policy p;
    assert_int_equal(onoom_parse("halve-batch", &p, &err), 0);
    assert_int_equal(p, ONOOM_HALVE_BATCH);
    assert_int_equal(onoom_parse("half", &p, &err), -1);
    struct runcfg c = cfg_of(16, 2, 1024, -1);
    assert_int_equal(onoom_next(ONOOM_HALVE_BATCH, &c, 1, &keys, &st, &err), 0);
    assert_int_equal(st.n_sets, 2);
    assert_string_equal(st.sets[0], "device_batch_size=8");
    assert_string_equal(st.sets[1], "grad_accum=4");
    c = cfg_of(15, -1, -1, -1); /* odd, accumulation unset (1) */
    assert_int_equal(onoom_next(ONOOM_HALVE_BATCH, &c, 1, &keys, &st, &err), 0);
    assert_string_equal(st.sets[0], "device_batch_size=5");
    assert_string_equal(st.sets[1], "grad_accum=3");
    c = cfg_of(7, 1, -1, -1); /* prime: 1 */
    assert_int_equal(onoom_next(ONOOM_HALVE_BATCH, &c, 1, &keys, &st, &err), 0);
    assert_string_equal(st.sets[0], "device_batch_size=1");
    assert_string_equal(st.sets[1], "grad_accum=7");
    c = cfg_of(1, 8, -1, -1);
    assert_int_equal(onoom_next(ONOOM_HALVE_BATCH, &c, 1, &keys, &st, &err), 1);
    c = cfg_of(8, 1, -1, -1);
    assert_int_equal(onoom_next(ONOOM_HALVE_BATCH, &c, 8, &keys, &st, &err), 1);
    assert_string_equal(st.what, "device_batch_size 8 cannot be halved above the floor 8");
    c = cfg_of(-1, -1, -1, -1);
    assert_int_equal(onoom_next(ONOOM_HALVE_BATCH, &c, 1, &keys, &st, &err), -1);
    c = cfg_of(8, 1, 4097, -1);
    assert_int_equal(onoom_next(ONOOM_HALVE_SEQ, &c, 1, &keys, &st, &err), 0);
    assert_string_equal(st.sets[0], "max_seq_len=2048");
    assert_int_equal(onoom_next(ONOOM_HALVE_SEQ, &c, 4096, &keys, &st, &err), 1);
    assert_int_equal(onoom_next(ONOOM_CKPT, &c, 1, &keys, &st, &err), 0);
    assert_string_equal(st.sets[0], "gradient_checkpointing=true");
    c.grad_ckpt = 1;
    assert_int_equal(onoom_next(ONOOM_CKPT, &c, 1, &keys, &st, &err), 1);
    c = cfg_of(2, (long)1 << 62, -1, -1); /* accumulation would overflow */
    assert_int_equal(onoom_next(ONOOM_HALVE_BATCH, &c, 1, &keys, &st, &err), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verdicts),
        cmocka_unit_test(test_onoom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
