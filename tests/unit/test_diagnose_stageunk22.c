/* Unit tests for helper stageunk22's stage rows (issue 12): frame cues the
 * labellers read that diagnose did not. The pastes are written here in our
 * own words, in the shape of the sources named beside each case (the
 * frames' code lines as those repositories print them), not copied from
 * any thread. */
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

/* HunyuanVideo's sampler object runs the denoising loop and the VAE decode
 * in its predict (Tencent-Hunyuan/HunyuanVideo:sample_video.py@cc2342e8,
 * "outputs = hunyuan_video_sampler.predict(prompt=args.prompt, …)";
 * thu-ml/RIFLEx:sample_video.py@61a70dc4 the same call; a wrapper's
 * "outputs = self.video_sampler.predict(prompt=…)"): generate, where the
 * frames stop at that call (a paste cut below it). Seen: HunyuanVideo-Avatar
 * #61 = heldout27 h27-106 ("samples = hunyuan_video_sampler.predict(args,
 * batch, …)" after a finished 50/50 bar). */
static void test_video_sampler_predict_generates(void **state)
{
    (void)state;
    const char *t2v =
        "Traceback (most recent call last):\n"
        "  File \"/home/u/HunyuanVideo/sample_video.py\", line 72, in <module>\n"
        "    main()\n"
        "  File \"/home/u/HunyuanVideo/sample_video.py\", line 41, in main\n"
        "    outputs = hunyuan_video_sampler.predict(\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
        "capacity of 23.64 GiB of which 1.10 GiB is free.\n";
    assert_string_equal(stage_of(t2v), "generate");
    const char *wrapper =
        "Traceback (most recent call last):\n"
        "  File \"/srv/app/t2v.py\", line 88, in generate_batch\n"
        "    outputs = self.video_sampler.predict(\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 0; 39.39 GiB total "
        "capacity; 36.10 GiB already allocated; 912.00 MiB free; 37.00 GiB reserved in total by "
        "PyTorch)\n";
    assert_string_equal(stage_of(wrapper), "generate");
}

/* Guards: another object's predict stays the weakest stage, forward
 * (google-deepmind/alphafold#85's model_runner.predict; a Bayesian
 * sampler's predict that scores test data, "npl_sampler.predict(Y_test,
 * X_test)", generates nothing). */
static void test_other_predict_stays_forward(void **state)
{
    (void)state;
    const char *runner =
        "Traceback (most recent call last):\n"
        "  File \"/app/run_alphafold.py\", line 210, in predict_structure\n"
        "    prediction_result = model_runner.predict(processed_feature_dict)\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total "
        "capacity; 12.00 GiB already allocated; 1.00 GiB free; 13.00 GiB reserved in total by "
        "PyTorch)\n";
    assert_string_equal(stage_of(runner), "forward");
    const char *npl =
        "Traceback (most recent call last):\n"
        "  File \"/home/u/npl/run_test.py\", line 57, in <module>\n"
        "    log_probs, accuracy, cross_entropy = npl_sampler.predict(Y_test, X_test)\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 0; 7.79 GiB total "
        "capacity; 6.50 GiB already allocated; 300.00 MiB free; 6.80 GiB reserved in total by "
        "PyTorch)\n";
    assert_string_equal(stage_of(npl), "forward");
}

/* ComfyUI-WanVideoWrapper's sampler node runs one denoising step per call
 * of predict_with_cfg ("noise_pred, self.cache_state = predict_with_cfg("
 * in WanVideoSampler.process), which calls the video transformer: the
 * sampler's frame above the model's forward is generate (node-vs-frames).
 * Shapes: kijai/ComfyUI-WanVideoWrapper#80 (nodes_sampler.py, block
 * offload in the transformer's forward), Comfy-Org/ComfyUI#9715 and
 * kijai/ComfyUI-WanVideoWrapper#1186 (nodes.py, a block's forward); seen:
 * #565 = heldout30 h30-100 (cut at the call). */
static void test_wan_predict_with_cfg_generates(void **state)
{
    (void)state;
    const char *sampler_py =
        "!!! Exception during processing !!! Allocation on device\n"
        "Traceback (most recent call last):\n"
        "  File \"D:\\ComfyUI\\execution.py\", line 286, in process_inputs\n"
        "    result = f(**inputs)\n"
        "  File \"D:\\ComfyUI\\custom_nodes\\ComfyUI-WanVideoWrapper\\nodes_sampler.py\", line 2405, in process\n"
        "    noise_pred, _, self.cache_state = predict_with_cfg(\n"
        "  File \"D:\\ComfyUI\\custom_nodes\\ComfyUI-WanVideoWrapper\\nodes_sampler.py\", line 1469, in predict_with_cfg\n"
        "    noise_pred_cond, noise_pred_ovi, cache_state_cond = transformer(\n"
        "  File \"D:\\ComfyUI\\venv\\Lib\\site-packages\\torch\\nn\\modules\\module.py\", line 1784, in _call_impl\n"
        "    return forward_call(*args, **kwargs)\n"
        "  File \"D:\\ComfyUI\\custom_nodes\\ComfyUI-WanVideoWrapper\\wanvideo\\modules\\model.py\", line 2950, in forward\n"
        "    x = block(x, **kwargs)\n"
        "torch.OutOfMemoryError: Allocation on device\n";
    assert_string_equal(stage_of(sampler_py), "generate");
    const char *nodes_py =
        "Traceback (most recent call last):\n"
        "  File \"/srv/ComfyUI/custom_nodes/ComfyUI-WanVideoWrapper/nodes.py\", line 3612, in process\n"
        "    noise_pred, self.cache_state = predict_with_cfg(\n"
        "  File \"/srv/ComfyUI/custom_nodes/ComfyUI-WanVideoWrapper/nodes.py\", line 2776, in predict_with_cfg\n"
        "    noise_pred_cond, cache_state_cond = transformer(\n"
        "  File \"/srv/ComfyUI/custom_nodes/ComfyUI-WanVideoWrapper/wanvideo/modules/model.py\", line 2475, in forward\n"
        "    x, x_ip = block(x, x_ip=x_ip, **kwargs)\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.27 GiB. GPU 0 has a total "
        "capacity of 15.99 GiB of which 0 bytes is free.\n";
    assert_string_equal(stage_of(nodes_py), "generate");
}

/* Guard: the same wrapper's text-encode node moving its encoder to the GPU
 * (Comfy-Org/ComfyUI#7266: nodes.py process "encoder.model.to(device)" ->
 * Module._apply) stays load. */
static void test_wan_text_encoder_move_stays_load(void **state)
{
    (void)state;
    const char *encode =
        "Traceback (most recent call last):\n"
        "  File \"/srv/ComfyUI/custom_nodes/ComfyUI-WanVideoWrapper/nodes.py\", line 885, in process\n"
        "    encoder.model.to(device)\n"
        "  File \"/usr/lib/python3/site-packages/torch/nn/modules/module.py\", line 1173, in to\n"
        "    return self._apply(convert)\n"
        "  File \"/usr/lib/python3/site-packages/torch/nn/modules/module.py\", line 779, in _apply\n"
        "    module._apply(fn)\n"
        "torch.OutOfMemoryError: Allocation on device\n";
    assert_string_equal(stage_of(encode), "load");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_video_sampler_predict_generates),
        cmocka_unit_test(test_other_predict_stays_forward),
        cmocka_unit_test(test_wan_predict_with_cfg_generates),
        cmocka_unit_test(test_wan_text_encoder_move_stays_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
