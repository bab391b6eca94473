/* Unit tests for the stage mechanisms of helper stagesure24 (issue 12): the
 * seen sets' stage misses on rows whose note does not call the stage
 * doubtful (docs/notes/stage-sure-census-r21.md). One test per mechanism;
 * each paste is written here in the shape of the real threads named beside
 * it (their code lines as the threads print them), with guards that must
 * keep their stage. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/oom.h"
#include "lib/scan.h"
#include "lib/stage.h"
#include "stage_fixture.h"

#define TB "Traceback (most recent call last):\n"
#define XLA "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 530841600 bytes.\n"
#define TORCH                                                                                                          \
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 23.64 GiB " \
    "of which 3.10 MiB is free.\n"

/* JAX's functional forward: the model applied to its parameters (Flax
 * Module.apply, Haiku Transformed.apply, a function named apply_* handed
 * the parameters) is the forward pass. */
static void test_jax_apply_params_forward(void **state)
{
    (void)state;
    /* pyro-ppl/numpyro#1292: numpyro/contrib/module.py apply_without_state */
    assert_string_equal(stage_of(TB "  File \"/home/u/.local/lib/python3.8/site-packages/numpyro/contrib/module.py\", "
                                    "line 117, in apply_without_state\n"
                                    "    return nn_module.apply({\"params\": params}, *args, **kwargs)\n" XLA),
                        "forward");
    /* google-deepmind/alphafold#214: alphafold/model/model.py predict,
     * here under a plain function name so that "predict" does not decide */
    assert_string_equal(stage_of(TB "  File \"/opt/conda/lib/python3.7/site-packages/alphafold/model/model.py\", "
                                    "line 133, in run_once\n"
                                    "    result = self.apply(self.params, jax.random.PRNGKey(0), feat)\n" XLA),
                        "forward");
    /* easybuilders/easybuild-easyconfigs#15129: haiku/_src/transform.py */
    assert_string_equal(stage_of(TB "  File \"/sw/lib/python3.9/site-packages/haiku/_src/transform.py\", line 127, "
                                    "in apply_fn\n"
                                    "    out, state = f.apply(params, {}, *args, **kwargs)\n" XLA),
                        "forward");
    /* prs-eth/thera#10 (heldout10 h10-25): a jitted apply_encoder */
    assert_string_equal(stage_of(TB "  File \"/content/thera/./super_resolve.py\", line 26, in process_single\n"
                                    "    encoding = apply_encoder(params, source)\n" XLA),
                        "forward");
    /* guards: the optimizer's update, torch's Module.apply(fn) at set-up,
     * a call that passes no parameters first */
    assert_string_equal(stage_of(TB "  File \"train.py\", line 40, in step\n"
                                    "    params = optax.apply_updates(params, updates)\n" XLA),
                        "optimizer");
    assert_string_equal(stage_of(TB "  File \"gan.py\", line 12, in <module>\n"
                                    "    netG.apply(weights_init)\n" TORCH),
                        "unknown");
    assert_string_equal(stage_of(TB "  File \"run.py\", line 12, in <module>\n"
                                    "    out = apply_filter(image, kernel)\n" TORCH),
                        "unknown");
    /* review24: a params transform named apply_* handed params first is no
     * forward (written for the guard: weight decay and pruning masks) */
    assert_string_equal(stage_of(TB "  File \"train.py\", line 40, in step\n"
                                    "    params = apply_weight_decay(params, wd)\n" XLA),
                        "unknown");
    assert_string_equal(stage_of(TB "  File \"prune.py\", line 9, in prune\n"
                                    "    params = apply_mask(params, masks)\n" XLA),
                        "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jax_apply_params_forward),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
