/* Unit tests for the mechanisms read from the misses of heldout62, opened
 * for study after its blind figures were recorded at cba51dd1 (call 73/78,
 * numbers 58/58, stages 4/5). Each case has a guard that must stay as it
 * was. The pastes are written here in the shape of the posts named beside
 * them (the tools' own frames and wording, from their sources), not copied
 * from the threads. */
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
#include "scan_fixture.h"

#define BIT(s) (1u << (s))

static unsigned line_bits(const char *line)
{
    return stage_frame_bits(line, strlen(line));
}

/* A code line that calls a function named for a pass ("forward_" or
 * "backward_" and more parts) names that pass, as the frame's own name
 * would (stage_name_bits). */
static void test_pass_named_call_line(void **state)
{
    (void)state;
    assert_true(line_bits("    token_logprobs, _metrics, _ = forward_with_post_processing_fn(") &
                BIT(OOM_STAGE_FORWARD));
    assert_true(line_bits("    entropy, log_probs = self._forward_micro_batch(") & BIT(OOM_STAGE_FORWARD));
    assert_true(line_bits("    self.loop.run_until_complete(self._forward_loop())") & BIT(OOM_STAGE_FORWARD));
    assert_true(line_bits("    grads = backward_step(input_tensor, output_tensor, output_tensor_grad)") &
                BIT(OOM_STAGE_BACKWARD));
    /* guards: both passes (Megatron's forward_backward_func), a name that
     * only starts with the letters, a definition */
    assert_false(line_bits("    losses_reduced = forward_backward_func(") & BIT(OOM_STAGE_FORWARD));
    assert_false(line_bits("    losses_reduced = forward_backward_func(") & BIT(OOM_STAGE_BACKWARD));
    /* the other pass in any later word part, not only the next one */
    assert_false(line_bits("    loss = forward_and_backward(model, batch)") & BIT(OOM_STAGE_FORWARD));
    assert_false(line_bits("    loss = forward_and_backward(model, batch)") & BIT(OOM_STAGE_BACKWARD));
    assert_false(line_bits("    loss = backward_and_forward(model, batch)") & BIT(OOM_STAGE_BACKWARD));
    assert_false(line_bits("    loss = backward_and_forward(model, batch)") & BIT(OOM_STAGE_FORWARD));
    assert_false(line_bits("    loss = fwd_bwd(model, batch)") & (BIT(OOM_STAGE_FORWARD) | BIT(OOM_STAGE_BACKWARD)));
    /* a part that only starts with the letters is no pass */
    assert_true(line_bits("    out = forward_backwardsafe_hook(x)") & BIT(OOM_STAGE_FORWARD));
    assert_int_equal(line_bits("    reply = forwarding_rules(request)"), 0);
    assert_int_equal(line_bits("    def forward_step(self, batch):"), 0);
}

/* The whole paste: the innermost frame's code calls the pass. */
static void test_pass_named_call_stage(void **state)
{
    (void)state;
    /* Ray's re-raise with the remote frames under it, NeMo RL's policy
     * worker computing log-probabilities (NVIDIA-NeMo/RL#3793 = heldout62
     * h62-25; nemo_rl/models/policy/workers/dtensor_policy_worker_v2.py) */
    assert_string_equal(
        primary_stage("ray.exceptions.RayTaskError(OutOfMemoryError): ray::DTensorPolicyWorkerV2.get_logprobs() "
                      "(pid=4242, ip=10.0.0.2, actor_id=ab12, repr=DTensorPolicyWorkerV2[rank=0])\n"
                      "  File \"/usr/lib/python3.12/concurrent/futures/_base.py\", line 449, in result\n"
                      "    return self.__get_result()\n"
                      "  File \"/opt/nemo_rl/models/policy/workers/dtensor_policy_worker_v2.py\", line 640, in "
                      "get_logprobs\n"
                      "    token_logprobs, _metrics, _ = forward_with_post_processing_fn(\n"),
        "forward");
    /* verl's actor computing log-probabilities, the frames under it cut
     * (verl/workers/actor/dp_actor.py compute_log_prob ->
     * _forward_micro_batch, the frames of heldout50 h50-26) */
    assert_string_equal(
        primary_stage("Traceback (most recent call last):\n"
                      "  File \"/verl/verl/workers/fsdp_workers.py\", line 980, in compute_ref_log_prob\n"
                      "    output, _ = self.ref_policy.compute_log_prob(data=data, calculate_entropy=False)\n"
                      "  File \"/verl/verl/workers/actor/dp_actor.py\", line 330, in compute_log_prob\n"
                      "    entropy, log_probs = self._forward_micro_batch(\n"
                      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 9.28 GiB. GPU 0 has a total "
                      "capacity of 79.11 GiB of which 3.10 GiB is free.\n"),
        "forward");
    /* lmdeploy's vision engine thread running its forward loop
     * (InternLM/lmdeploy#1555 = heldout63 h63-23, lmdeploy/vl/engine.py) */
    assert_string_equal(
        primary_stage("Exception in thread Thread-1 (_work_thread):\n"
                      "Traceback (most recent call last):\n"
                      "  File \"/usr/lib/python3.10/threading.py\", line 953, in run\n"
                      "    self._target(*self._args, **self._kwargs)\n"
                      "  File \"/opt/lmdeploy/lmdeploy/vl/engine.py\", line 80, in _work_thread\n"
                      "    self.loop.run_until_complete(self._forward_loop())\n"
                      "  File \"/usr/lib/python3.10/asyncio/base_events.py\", line 649, in run_until_complete\n"
                      "    return future.result()\n"
                      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.53 GiB. GPU 1 has a "
                      "total capacity of 23.65 GiB of which 1.10 GiB is free.\n"),
        "forward");
    /* guards: Megatron's step over both passes names neither; a call
     * named for the pass and generation generates (EasyLM's
     * _forward_generate, heldout24 h24-65) */
    assert_string_equal(
        primary_stage("Traceback (most recent call last):\n"
                      "  File \"/workspace/Megatron-LM/megatron/training/training.py\", line 760, in train_step\n"
                      "    losses_reduced = forward_backward_func(\n"
                      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB. GPU 3 has a total "
                      "capacity of 79.11 GiB of which 1.02 GiB is free.\n"),
        "unknown");
    assert_string_equal(
        primary_stage("Traceback (most recent call last):\n"
                      "  File \"/EasyLM/EasyLM/models/llama/llama_serve.py\", line 220, in generate\n"
                      "    output, self.sharded_rng = self._forward_generate(\n"
                      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB. GPU 3 has a total "
                      "capacity of 79.11 GiB of which 1.02 GiB is free.\n"),
        "generate");
}

/* A person's sentence indented (a list item's continuation, a quote
 * that lost its mark) names a GPU OOM in words as the same sentence
 * unindented does. */
static void test_indented_sentence_is_prose(void **state)
{
    (void)state;
    /* meta-pytorch/torchtune#1694 = heldout62 h62-69: a numbered question
     * whose continuation is indented */
    struct oom_report rep;
    const char *torchtune =
        "Bug when I run on single GPU\n"
        "\n"
        "I'm currently fine-tuning LLAMA 3.1 on a single Nvidia RTX 4090.\n"
        "\n"
        "    Sequence Length and Memory: I've noticed that if I set the max sequence length to 2048, the program "
        "runs out of memory. Is there a recommended way to manage this on a single device setup?\n"
        "\n"
        "Thanks for the help!\n";
    assert_true(scan_primary(torchtune, &rep)->gpu_oom);
    oom_report_release(&rep);
    /* BearCleverProud/MoME#4 = heldout45 h45-24: the post's body indented
     * under a title that names no OOM */
    const char *mome =
        "Question about large WSI slices\n"
        "\n"
        "         First of all, thank you very much for open sourcing this excellent work! We encountered the "
        "problem of out of memory when using MoME for cancer survival prediction. During the training process, "
        "when processing certain WSI slices, the GPU memory would suddenly be full.\n";
    assert_true(scan_primary(mome, &rep)->gpu_oom);
    oom_report_release(&rep);
    /* guards: a letter's weaker words (issues with memory allocation,
     * heldout59 h59-15, a look-alike), indented code, a code comment */
    expect_no_gpu_oom("Question about AnimateDiff\n"
                      "\n"
                      "    Dear Developer, I am writing to seek further assistance. I continue to encounter CUDA-related "
                      "errors and issues with memory allocation when attempting to use AnimateDiff on my system.\n");
    expect_no_gpu_oom("Question about training\n"
                      "\n"
                      "    # I get out of memory here when the batch is large and the sequence is long\n");
    expect_no_gpu_oom("Question about training\n"
                      "\n"
                      "    out = model(batch)  # I get out of memory here when the batch is large, we think\n");
}

/* Loading back onto the device is loading: RL trainers offload a model
 * or an inference engine between phases and move it back with
 * "backload_to_gpu" (Open-Reasoner-Zero's LLMActor, michalgregor/Open-
 * Reasoner-Zero:orz/exp_engine/accelerators/inference/vllm_engine.py@
 * a3e0a3ba; SkyRL's policy workers' strategy.backload_to_gpu, "Reload
 * model weights back to GPU", zanderjiang/SkyRL-IsoExec:skyrl/backends/
 * skyrl_train/distributed/megatron/megatron_strategy.py@251e2d60 and
 * NovaSky-AI/SkyRL:skyrl-train/skyrl_train/workers/deepspeed/
 * deepspeed_worker.py). */
static void test_backload_is_load(void **state)
{
    (void)state;
    assert_true(stage_name_bits("backload_to_gpu", 15) & BIT(OOM_STAGE_LOAD));
    assert_true(stage_name_bits("_backload_vllm_engines", 22) & BIT(OOM_STAGE_LOAD));
    /* guard: a word that only starts so */
    assert_int_equal(stage_name_bits("backlog_size", 12), 0);
    /* Ray's re-raise naming the remote call (Open-Reasoner-Zero/
     * Open-Reasoner-Zero#21 = heldout42 h42-62) */
    assert_string_equal(
        primary_stage("Traceback (most recent call last):\n"
                      "  File \"/orz/ppo/trainer.py\", line 120, in _backload_vllm_engines\n"
                      "    await asyncio.gather(*[engine.backload_to_gpu.remote() for engine in self.vllm_engines])\n"
                      "ray.exceptions.RayTaskError(OutOfMemoryError): ray::LLMActor.backload_to_gpu() (pid=913, "
                      "ip=10.0.0.3, actor_id=9f1e)\n"),
        "load");
    /* a policy worker's frame by its name */
    assert_string_equal(
        primary_stage("Traceback (most recent call last):\n"
                      "  File \"/app/skyrl/workers/worker.py\", line 210, in backload_to_gpu\n"
                      "    self.strategy.backload_to_gpu(self.model, non_blocking)\n"
                      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.02 GiB. GPU 0 has a total "
                      "capacity of 79.11 GiB of which 512.00 MiB is free.\n"),
        "load");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pass_named_call_line),
        cmocka_unit_test(test_pass_named_call_stage),
        cmocka_unit_test(test_indented_sentence_is_prose),
        cmocka_unit_test(test_backload_is_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
