/* diagnose's stage on logs nobody here wrote, helper diagstage11 (issue 12):
 * mechanisms read from the seen sets' stage misses (heldout19..30). Each
 * case is a short synthetic paste in the style of the real thread named
 * beside it (the corpus row in brackets); each assertion failed on the
 * code before its mechanism (main 3468578f) unless it says it guards. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/scan.h"
#include "lib/stage.h"
#include "stage_fixture.h"

static unsigned name_bits(const char *name)
{
    return stage_name_bits(name, strlen(name));
}

/* A server that printed that it serves has loaded its model: what fails
 * next fails while it answers a request (mistral.rs "Serving on …",
 * EricLBuehler/mistral.rs#43, h19-96; uvicorn's lines under vLLM). */
static void test_serving_line_means_generate(void **state)
{
    (void)state;
    const char *log =
        "$ some-server --port 8000 mymodel\n"
        "Loading model on cuda:0...\n"
        "Model loaded.\n"
        "Serving on http://0.0.0.0:8000.\n"
        "thread '<unnamed>' panicked at src/pipeline/llama.rs:210:5:\n"
        "Model failed with error `DriverError(CUDA_ERROR_OUT_OF_MEMORY, \"out of memory\")`.\n";
    assert_string_equal(stage_of(log), "generate");
    const char *uv = "INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)";
    assert_int_equal(stage_context_line(uv, strlen(uv)), OOM_STAGE_GENERATE);
    /* guard: the server's loading lines alone stay load */
    const char *ld = "Loading model on cuda:0...";
    assert_int_equal(stage_context_line(ld, strlen(ld)), OOM_STAGE_LOAD);
}

/* load + a data noun last loads data, not a model (sam2's
 * load_video_frames, facebookresearch/sam2#264, h30-74). */
static void test_load_of_data_is_data(void **state)
{
    (void)state;
    assert_int_equal(stage_pick(name_bits("load_video_frames")), OOM_STAGE_DATA);
    assert_int_equal(stage_pick(name_bits("load_images")), OOM_STAGE_DATA);
    /* guards: a model part last stays load */
    assert_int_equal(stage_pick(name_bits("load_image_encoder")), OOM_STAGE_LOAD);
    assert_int_equal(stage_pick(name_bits("load_model")), OOM_STAGE_LOAD);
}

/* Updating parameters, or an optimizer's step by another name, is the
 * optimizer (MXNet _update_params_on_kvstore, h28-69; Plenoxels'
 * optim_background_step, h26-95). */
static void test_parameter_update_is_optimizer(void **state)
{
    (void)state;
    assert_int_equal(stage_pick(name_bits("_update_params_on_kvstore")), OOM_STAGE_OPTIMIZER);
    assert_int_equal(stage_pick(name_bits("optim_background_step")), OOM_STAGE_OPTIMIZER);
    /* guards: an optimizer's state or set-up names no stage */
    assert_int_equal(stage_pick(name_bits("optimizer_state")), OOM_STAGE_UNKNOWN);
    assert_int_equal(stage_pick(name_bits("update_lr")), OOM_STAGE_UNKNOWN);
    const char *log =
        "MXNetError: cudaMalloc failed: out of memory\n"
        "\n"
        "Traceback (most recent call last):\n"
        "  File \"train.py\", line 40, in <module>\n"
        "    mod.fit(train_iter, num_epoch=10)\n"
        "  File \"/usr/lib/python3/dist-packages/mxnet/module/base_module.py\", line 512, in fit\n"
        "    self.update()\n"
        "  File \"/usr/lib/python3/dist-packages/mxnet/model.py\", line 134, in _update_params_on_kvstore\n"
        "    kvstore.push(name, grad_list, priority=-index)\n"
        "  File \"/usr/lib/python3/dist-packages/mxnet/base.py\", line 149, in check_call\n"
        "    raise MXNetError(py_str(_LIB.MXGetLastError()))\n"
        "mxnet.base.MXNetError: [11:41:11] src/storage/./pooled_storage_manager.h:108: cudaMalloc failed: out of memory\n";
    assert_string_equal(stage_of(log), "optimizer");
}

/* Colab pastes an IPython frame header as a markdown link: it is a frame,
 * its function read as IPython's (facebookresearch/sam2#264, h30-74;
 * pyg-team/pytorch_geometric, h15-46). */
static void test_colab_link_frame(void **state)
{
    (void)state;
    const char *hdr = "[/content/proj/utils/misc.py](https://localhost:8080/#) in load_video_frames(video_path, "
                      "image_size, offload_video_to_cpu)";
    assert_int_equal(stage_line_kind(hdr, strlen(hdr)), STAGE_LINE_FRAME);
    assert_int_equal(stage_pick(stage_frame_bits(hdr, strlen(hdr))), OOM_STAGE_DATA);
    const char *log =
        "OutOfMemoryError                          Traceback (most recent call last)\n"
        "[<ipython-input-4-0a1b2c>](https://localhost:8080/#) in <cell line: 1>()\n"
        "----> 1 state = predictor.init_state(video_path=video_dir)\n"
        "\n"
        "[/content/proj/utils/misc.py](https://localhost:8080/#) in load_video_frames(video_path, image_size)\n"
        "    205         if not offload:\n"
        "--> 206             image = image.cuda()\n"
        "\n"
        "OutOfMemoryError: CUDA out of memory. Tried to allocate 18.53 GiB. GPU\n";
    assert_string_equal(stage_of(log), "data");
    const char *pyg =
        "GPU out of memory\n"
        "```\n"
        "[/usr/local/lib/python3.10/dist-packages/torch_geometric/nn/conv/gat_conv.py](https://localhost:8080/#) in "
        "message(self, x_j, alpha)\n"
        "--> 310         return alpha.unsqueeze(-1) * x_j\n"
        "```\n";
    assert_string_equal(stage_of(pyg), "forward");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_serving_line_means_generate),
        cmocka_unit_test(test_load_of_data_is_data),
        cmocka_unit_test(test_parameter_update_is_optimizer),
        cmocka_unit_test(test_colab_link_frame),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
