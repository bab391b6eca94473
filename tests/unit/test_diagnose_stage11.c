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
    assert_int_equal(line_stage(hdr), OOM_STAGE_DATA);
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

/* diffusers' pipelines package: a pipeline's own file one folder down
 * samples (generate); the package's plumbing (pipeline_utils.py: .to(),
 * from_pretrained) does not, so a node's load_model moving a pipeline is a
 * load (cubiq/ComfyUI_InstantID, h28-63). */
static void test_diffusers_plumbing_is_no_generation(void **state)
{
    (void)state;
    const char *plumb = "  File \"C:\\env\\Lib\\site-packages\\diffusers\\pipelines\\pipeline_utils.py\", line 418, in to";
    assert_false(stage_frame_bits(plumb, strlen(plumb)) & (1u << OOM_STAGE_GENERATE));
    /* guard: a pipeline's own file is generation */
    const char *own = "  File \"/env/site-packages/diffusers/pipelines/flux/pipeline_flux.py\", line 889, in __call__";
    assert_int_equal(line_stage(own), OOM_STAGE_GENERATE);
    const char *log =
        "!!! Exception during processing !!! Allocation on device\n"
        "Traceback (most recent call last):\n"
        "  File \"D:\\ComfyUI\\execution.py\", line 327, in execute\n"
        "    output_data, output_ui, has_subgraph = get_output_data(obj, input_data_all)\n"
        "  File \"D:\\ComfyUI\\custom_nodes\\SomeNode\\nodes.py\", line 164, in load_model\n"
        "    ).to(device)\n"
        "  File \"D:\\env\\Lib\\site-packages\\diffusers\\pipelines\\pipeline_utils.py\", line 418, in to\n"
        "    module.to(device, dtype)\n";
    assert_string_equal(stage_of(log), "load");
}

/* A pipeline called for what it makes ("images = pipeline(" in a
 * ComfyUI node, huanngzh/ComfyUI-MVAdapter, h28-21) generates; building
 * one ("pipe = pipeline(\"text-generation\"") does not (it loads). */
static void test_pipeline_called_for_output_is_generate(void **state)
{
    (void)state;
    const char *gen = "    images = pipeline(";
    assert_int_equal(line_stage(gen), OOM_STAGE_GENERATE);
    /* diagstage14: building one is no generation; it loads the model
     * (transformers' pipeline() factory calls from_pretrained): load, as
     * any model or engine object made and named so (constructor_bits) */
    const char *build = "    pipe = pipeline(\"text-generation\", model=model_id)";
    assert_int_equal(line_stage(build), OOM_STAGE_LOAD);
}

/* A Go stack after the message (ollama's runner in cgo, ollama/ollama#9568
 * style, h30-28): "goroutine N … [syscall]:" heads frames printed
 * innermost first; the function after the package path is read by its
 * parts (llama_decode: generate). */
static void test_go_stack_frames(void **state)
{
    (void)state;
    const char *hdr = "goroutine 7 gp=0xc000602e00 m=5 mp=0xc000100008 [syscall]:";
    assert_int_equal(stage_line_kind(hdr, strlen(hdr)), STAGE_LINE_HEADER);
    const char *fr = "github.com/ollama/ollama/llama.(*Context).Decode(0xc0000c1dd0?, 0x0?)";
    assert_int_equal(stage_line_kind(fr, strlen(fr)), STAGE_LINE_FRAME);
    /* guard: an unindented Python call is no Go frame */
    const char *py = "model.cuda()";
    assert_int_not_equal(stage_line_kind(py, strlen(py)), STAGE_LINE_FRAME);
    const char *log =
        "time=2025-03-07T08:41:43.913Z level=DEBUG source=cache.go:104 msg=\"loading cache slot\" id=0\n"
        "CUDA error: out of memory\n"
        "  current device: 1, in function alloc at ggml/src/ggml-cuda/ggml-cuda.cu:445\n"
        "  cuMemCreate(&handle, reserve_size, &prop, 0)\n"
        "ggml/src/ggml-cuda/ggml-cuda.cu:73: CUDA error\n"
        "SIGSEGV: segmentation violation\n"
        "goroutine 51 gp=0xc000602e00 m=5 mp=0xc000100008 [syscall]:\n"
        "runtime.cgocall(0x5dc31b3c8960, 0xc0000c1bc8)\n"
        "\truntime/cgocall.go:167 +0x4b fp=0xc0000c1ba0 sp=0xc0000c1b68 pc=0x5dc31a77658b\n"
        "github.com/ollama/ollama/llama._Cfunc_llama_decode(0x78abc4a8ef00, {0x200, 0x78abc4a9df80, 0x0})\n"
        "\t_cgo_gotypes.go:557 +0x4a fp=0xc0000c1bc8 sp=0xc0000c1ba0 pc=0x5dc31aafc34a\n";
    assert_string_equal(stage_of(log), "generate");
}

/* llama.cpp's context creation right above the compute buffer that failed
 * (llama_init_from_model, the PR thread of h19-23): load. */
static void test_llama_context_creation_is_load(void **state)
{
    (void)state;
    const char *log =
        "Without those options it tried to allocate a huge buffer:\n"
        "\n"
        "```\n"
        "llama_init_from_model: pipeline parallelism enabled (n_copies=4)\n"
        "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 9000.00 MiB on device 0: cudaMalloc failed: out of memory\n"
        "ggml_gallocr_reserve_n: failed to allocate CUDA0 buffer of size 9437184000\n"
        "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 4000.00 MiB on device 0: cudaMalloc failed: out of memory\n"
        "ggml_gallocr_rese\n";
    assert_string_equal(stage_of(log), "load");
}

/* A training script named for what it starts from trains: its "load" part
 * names no load (RVC's train_nsf_sim_cache_sid_load_pretrain.py, h29-75). */
static void test_training_script_is_no_load(void **state)
{
    (void)state;
    assert_int_equal(stage_pick(name_bits("train_nsf_sim_cache_sid_load_pretrain")), OOM_STAGE_UNKNOWN);
    /* guard */
    assert_int_equal(stage_pick(name_bits("load_pretrained")), OOM_STAGE_LOAD);
}

/* Code a sentence points at: on the line below ("… the following line:",
 * a blank line, "logits = unet(batch)": a call named as the network's
 * output, h25-49), or on the same line after the pointer ("results in the
 * code :   result = self.forward(*input, **kwargs)", h26-127). */
static void test_pointed_code_runs_the_network(void **state)
{
    (void)state;
    const char *below =
        "RuntimeError: CUDA out of memory.\n"
        "\n"
        "The error happens when running train.py and it reaches the following line:\n"
        "\n"
        "logits = unet(batch)\n";
    assert_string_equal(stage_of(below), "forward");
    const char *inline_code =
        "RuntimeError: cuda runtime error (2) : out of memory at /pytorch/torch/lib/THC/generic/THCStorage.cu:58\n"
        "results in the code :   result = self.forward(*input, **kwargs)\n";
    assert_string_equal(stage_of(inline_code), "forward");
    const char *line = "results in the code :   out = x";
    assert_true(stage_points_in_line(line, strlen(line)) > 0);
    /* guards: no pointer, no code; a call on another object names nothing */
    const char *plain = "Error: something failed";
    assert_int_equal(stage_points_in_line(plain, strlen(plain)), 0);
    const char *other = "`x = helper.compute(images)`";
    assert_int_equal(stage_prose_code(other, strlen(other)), OOM_STAGE_UNKNOWN);
    const char *net = "it runs out of memory in `tokens, idx = model.aggregator(images)`";
    assert_int_equal(stage_prose_code(net, strlen(net)), OOM_STAGE_FORWARD);
}

/* IPython 8.0-8.5's "Cell In [7], line 1" (a blank before the cell
 * number) is a frame, so the traceback walk goes on to the library frame
 * that ran the model ("--> 130 embeddings = model.encode(…)", h19-30). */
static void test_ipython_cell_with_blank_is_frame(void **state)
{
    (void)state;
    const char *cell = "Cell In [7], line 1";
    assert_int_equal(stage_line_kind(cell, strlen(cell)), STAGE_LINE_FRAME);
    const char *log =
        "CUDA out of memory @ `util.paraphrase_mining`\n"
        "\n"
        "RuntimeError                              Traceback (most recent call last)\n"
        "Cell In [7], line 1\n"
        "----> 1 paraphrases = util.paraphrase_mining(\n"
        "File ~/env/site-packages/sentence_transformers/util.py:130, in paraphrase_mining(model, sentences)\n"
        "--> 130 embeddings = model.encode(sentences, batch_size=8)\n";
    assert_string_equal(stage_of(log), "forward");
    /* guard: a training loop or a save called on the model is no forward */
    const char *fit = "`history = model.fit(x, y, epochs=5)`";
    assert_int_equal(stage_prose_code(fit, strlen(fit)), OOM_STAGE_UNKNOWN);
}

/* The message's own words before its error name what failed ("Could not
 * predict X. Not Enough GPU memory? RESOURCE_EXHAUSTED", ColabFold's batch
 * log, h29-39/-40): forward; a title's words do not. */
static void test_failed_action_on_the_message_line(void **state)
{
    (void)state;
    const char *log =
        "Memory resources for large complexes\n"
        "\n"
        "2022-07-18 12:38:21,607 Could not predict complexA. Not Enough GPU memory? RESOURCE_EXHAUSTED: Failed "
        "to allocate request for 36.06GiB (38718784536B) on device ordinal 0\n";
    assert_string_equal(stage_of(log), "forward");
    const char *t = "2023-03-20 17:54:52,116 Could not predict N_Repeat_C. ";
    assert_int_equal(stage_failed_action(t, strlen(t)), OOM_STAGE_FORWARD);
    const char *l = "Failed to load model: ";
    assert_int_equal(stage_failed_action(l, strlen(l)), OOM_STAGE_LOAD);
    /* guards: an allocation is no action of a stage */
    const char *a = "Unable to allocate ";
    assert_int_equal(stage_failed_action(a, strlen(a)), OOM_STAGE_UNKNOWN);
}

/* guard (passes on 3468578f; it failed in this branch before the fix): the
 * phase on the message's own line ("Error while evaluating MSMARCO:") is no
 * line below a title, so a later comment's lines at the paste's end do not
 * outrank it (h30-119). */
static void test_message_line_phase_is_not_from_below(void **state)
{
    (void)state;
    const char *log =
        "OOM Error when evaluating on ms-marco\n"
        "\n"
        "```\n"
        "Batches: 100%|##########| 3125/3125 [03:27<00:00, 15.07it/s]\n"
        "Error while evaluating MSMARCO: CUDA out of memory. Tried to allocate 93.68 GiB. ...\n"
        "```\n"
        "\n"
        "someone · comment · 2024-05-15\n"
        "A solution might be to ensure that the embeddings are offloaded to the CPU before moving on:\n"
        "\n"
        "```python\n"
        "from sentence_transformers import SentenceTransformer\n"
        "\n"
        "class SentenceTransformerWithCPUOffloading(SentenceTransformer):\n"
        "    de\n";
    assert_string_equal(stage_of(log), "eval");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_serving_line_means_generate),
        cmocka_unit_test(test_load_of_data_is_data),
        cmocka_unit_test(test_parameter_update_is_optimizer),
        cmocka_unit_test(test_colab_link_frame),
        cmocka_unit_test(test_diffusers_plumbing_is_no_generation),
        cmocka_unit_test(test_pipeline_called_for_output_is_generate),
        cmocka_unit_test(test_go_stack_frames),
        cmocka_unit_test(test_llama_context_creation_is_load),
        cmocka_unit_test(test_training_script_is_no_load),
        cmocka_unit_test(test_pointed_code_runs_the_network),
        cmocka_unit_test(test_ipython_cell_with_blank_is_frame),
        cmocka_unit_test(test_failed_action_on_the_message_line),
        cmocka_unit_test(test_message_line_phase_is_not_from_below),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
