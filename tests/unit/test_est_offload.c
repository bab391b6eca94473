/* Unit tests for lib/est's activation offloading (--act-offload,
 * docs/estimate.md "CPU offload"): torchtune's OffloadActivations copies
 * every saved activation to pinned host memory in forward and brings it
 * back per autograd node in backward (pytorch/torchtune:
 * torchtune/training/_activation_offloading.py@bd2a0fc7). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "est_fixture.h"
#include "lib/est.h"
#include "lib/models.h"

/* Block checkpointing: the saved tensors are the L blocks' inputs, b x s x
 * h x 2 B each in bf16; all but the one in use live on the host, so host
 * memory rises by L - 1 of them. Under LoRA the peak is the loss's backward
 * with every input kept, so the activations term falls by the same; a full
 * fine-tune's first-block moment had freed those inputs anyway. */
static void test_act_offload_block_ckpt(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 2, 1024);
    struct est_result r0, r1;
    struct oomlab_err err;
    wl.ckpt = EST_CKPT_FULL;
    wl.lora_r = 16;
    assert_int_equal(est_compute(&m, &wl, &r0, &err), 0);
    wl.act_offload = true;
    assert_int_equal(est_compute(&m, &wl, &r1, &err), 0);
    int64_t ckpt = 2LL * 1024 * 4096 * 2; /* one block's input */
    assert_int_equal(r1.host_bytes - r0.host_bytes, (m.layers - 1) * ckpt);
    assert_int_equal(r0.comp[EST_C_ACTS].bytes - r1.comp[EST_C_ACTS].bytes, (m.layers - 1) * ckpt);
    assert_int_equal(est_kind_of(&wl), EST_KIND_OFFLOAD);
}

/* Without checkpointing every block's saved tensors but one block's go to
 * the host: the GPU keeps a 1/L share of the blocks' activations. */
static void test_act_offload_no_ckpt(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result r0, r1;
    struct oomlab_err err;
    assert_int_equal(est_compute(&m, &wl, &r0, &err), 0);
    wl.act_offload = true;
    assert_int_equal(est_compute(&m, &wl, &r1, &err), 0);
    int64_t moved = r1.host_bytes - r0.host_bytes;
    assert_true(moved > 0);
    assert_int_equal(r0.comp[EST_C_ACTS].bytes - r1.comp[EST_C_ACTS].bytes, moved);
    /* what stays is at least one block's share */
    assert_true(r1.comp[EST_C_ACTS].bytes * m.layers >= r0.comp[EST_C_ACTS].bytes - moved / (m.layers - 1));
}

/* Refused where it is not modelled: inference, selective checkpointing. */
static void test_act_offload_refused(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result r;
    struct oomlab_err err;
    wl.act_offload = true;
    wl.ckpt = EST_CKPT_SELECTIVE;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
    wl.ckpt = EST_CKPT_NONE;
    wl.mode = EST_MODE_INFER;
    assert_int_equal(est_compute(&m, &wl, &r, &err), -1);
}

/* torchtune's optimizer_in_bwd: each gradient is freed at its hook, so the
 * step moment (every gradient + the step's working copy) is gone; the
 * gradients term is the largest parameter's, the embedding's. */
static void test_optim_in_bwd(void **state)
{
    (void)state;
    struct est_model m = fx_preset("llama-2-7b");
    struct est_workload wl = fx_workload(EST_BF16, 1, 512);
    struct est_result r0, r1;
    struct oomlab_err err;
    wl.ckpt = EST_CKPT_FULL;
    assert_int_equal(est_compute(&m, &wl, &r0, &err), 0);
    assert_string_equal(r0.peak_phase, "optimizer step");
    wl.optim_in_bwd = true;
    assert_int_equal(est_compute(&m, &wl, &r1, &err), 0);
    assert_int_equal(r1.comp[EST_C_GRADS].bytes, 2LL * m.vocab * m.hidden);
    assert_true(r1.peak_allocated_bytes < r0.peak_allocated_bytes);
    assert_int_equal(r1.comp[EST_C_OPTIM].bytes, r0.comp[EST_C_OPTIM].bytes);
    /* the recipe refuses accumulation with it */
    wl.grad_accum = 2;
    assert_int_equal(est_compute(&m, &wl, &r1, &err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_act_offload_block_ckpt),
        cmocka_unit_test(test_act_offload_no_ckpt),
        cmocka_unit_test(test_act_offload_refused),
        cmocka_unit_test(test_optim_in_bwd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
