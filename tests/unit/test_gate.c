/* Unit tests for lib/gate (guard's verdict) and lib/onoom (run --on-oom's
 * next change). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "lib/gate.h"
#include "lib/killcause.h"
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

/* A command that died of a signal: the verdict names it, and a SIGKILL
 * says what the cgroup's OOM-kill count says (never the OOM killer without
 * it). Before, every one of these read "failed with exit 137". */
static void test_killed(void **state)
{
    (void)state;
    struct gate_in base = {.budget = 20 * GIB, .headroom = 0.15, .peak = 10 * GIB};
    struct gate_in in = base;
    in.exit_code = 137, in.term_signal = 9, in.signal_name = "SIGKILL", in.host_oom_kills = 0;
    assert_int_equal(judge(in).exit_code, 13);
    assert_string_equal(judge(in).message,
                        "the command failed with exit 137 (no GPU OOM found): killed by SIGKILL, not by the "
                        "kernel's OOM killer (this cgroup's oom_kill count did not move): a scheduler's limit, "
                        "a watchdog or a user sent it");
    in.host_oom_kills = 1;
    assert_string_equal(judge(in).message,
                        "the command failed with exit 137 (no GPU OOM found): the kernel's OOM killer killed 1 "
                        "process(es) of this cgroup during the run: host memory (RAM) ran out, not GPU memory");
    in.host_oom_kills = -1;
    assert_non_null(strstr(judge(in).message, "killed by SIGKILL: the kernel's OOM killer sends it when host "
                                              "memory (RAM) runs out, and so do a scheduler's limit"));
    assert_null(strstr(judge(in).message, "process(es)"));
    in = base, in.exit_code = 137, in.host_oom_kills = -1; /* bash's "Killed": exit 137, no signal */
    assert_non_null(strstr(judge(in).message, "exit 137, how shells and launchers report a child killed by SIGKILL"));
    in = base, in.exit_code = 139, in.term_signal = 11, in.signal_name = "SIGSEGV", in.host_oom_kills = -1;
    assert_string_equal(judge(in).message, "the command failed with exit 139 (no GPU OOM found): killed by SIGSEGV");
    in = base, in.exit_code = 1, in.host_oom_kills = 2; /* a DataLoader worker killed, the command exits 1 */
    assert_non_null(strstr(judge(in).message, "exit 1 (no GPU OOM found): the kernel's OOM killer killed 2"));
    /* no count, but the kernel's log names the command's process */
    in = base, in.exit_code = 137, in.term_signal = 9, in.host_oom_kills = -1, in.host_oom_logged = true;
    assert_string_equal(judge(in).message,
                        "the command failed with exit 137 (no GPU OOM found): killed by SIGKILL, by the kernel's OOM "
                        "killer (the kernel's log has its \"Killed process\" line for the command's process "
                        "during the run): host memory (RAM) ran out, not GPU memory");
    in.host_oom_kills = 0; /* a count that did not move is the cgroup's answer */
    assert_non_null(strstr(judge(in).message, "not by the kernel's OOM killer"));
    in = base, in.exit_code = 3, in.host_oom_kills = -1;
    assert_string_equal(judge(in).message, "the command failed with exit 3 (no GPU OOM found)");
    in = base, in.timed_out = true, in.exit_code = 137, in.term_signal = 9, in.host_oom_kills = 0;
    assert_string_equal(judge(in).message, "the command timed out (no GPU OOM found)");
}

static void test_killcause(void **state)
{
    (void)state;
    assert_int_equal(killcause_of(0, 0, 0, false), KILLCAUSE_NONE);
    assert_int_equal(killcause_of(0, 1, -1, false), KILLCAUSE_NONE);
    assert_int_equal(killcause_of(15, 143, 0, false), KILLCAUSE_NONE);
    assert_int_equal(killcause_of(9, 137, 0, false), KILLCAUSE_NOT_OOM);
    assert_int_equal(killcause_of(0, 137, 0, false), KILLCAUSE_NOT_OOM);
    assert_int_equal(killcause_of(9, 137, -1, false), KILLCAUSE_UNKNOWN);
    assert_int_equal(killcause_of(9, 137, 3, false), KILLCAUSE_HOST_OOM);
    assert_int_equal(killcause_of(0, 0, 1, false), KILLCAUSE_HOST_OOM);
    assert_int_equal(killcause_of(9, 137, -1, true), KILLCAUSE_HOST_OOM_LOGGED);
    assert_string_equal(killcause_name(KILLCAUSE_HOST_OOM_LOGGED), "host-oom-killer");
    assert_string_equal(killcause_name(KILLCAUSE_HOST_OOM), "host-oom-killer");
    assert_string_equal(killcause_name(KILLCAUSE_NOT_OOM), "not-oom-killer");
    assert_string_equal(killcause_name(KILLCAUSE_UNKNOWN), "unknown");
    assert_null(killcause_name(KILLCAUSE_NONE));
    /* oomlab's own stop explains a SIGKILL, never the OOM killer's evidence */
    assert_int_equal(killcause_after_stop(KILLCAUSE_NOT_OOM, true), KILLCAUSE_NONE);
    assert_int_equal(killcause_after_stop(KILLCAUSE_UNKNOWN, true), KILLCAUSE_NONE);
    assert_int_equal(killcause_after_stop(KILLCAUSE_HOST_OOM, true), KILLCAUSE_HOST_OOM);
    assert_int_equal(killcause_after_stop(KILLCAUSE_HOST_OOM_LOGGED, true), KILLCAUSE_HOST_OOM_LOGGED);
    assert_int_equal(killcause_after_stop(KILLCAUSE_NOT_OOM, false), KILLCAUSE_NOT_OOM);
    assert_int_equal(killcause_after_stop(KILLCAUSE_NONE, false), KILLCAUSE_NONE);
    char buf[400] = "x";
    killcause_text(KILLCAUSE_NONE, 0, 0, buf, sizeof buf);
    assert_string_equal(buf, "");
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
    /* onoom_half_batch against the definition (the largest divisor at
     * most b/2), and a large prime in well under a second */
    for (long b = 2; b <= 1000; b++) {
        long want = 1;
        for (long d = b / 2; d > 1 && want == 1; d--)
            if (b % d == 0) want = d;
        assert_int_equal(onoom_half_batch(b), want);
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(onoom_half_batch(2147483647L), 1); /* 2^31-1, prime */
    assert_int_equal(onoom_half_batch(2147483646L), 1073741823L);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_true(t1.tv_sec - t0.tv_sec < 1);
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
        cmocka_unit_test(test_killed),
        cmocka_unit_test(test_killcause),
        cmocka_unit_test(test_onoom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
