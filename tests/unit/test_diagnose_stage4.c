/* diagnose's stage on logs nobody here wrote: mechanisms that transfer
 * (issue 12, helper diagstage4). Each case is a real line from the public
 * thread named beside it; each assertion failed on the code before its
 * mechanism (face087). */
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


/* What the application logged, in its own case: a whole word or phrase one
 * or two words into a logged message names the action; the same words in a
 * sentence of prose do not. */
static void test_logged_action_any_case(void **state)
{
    (void)state;
    /* huggingface/peft#335: loguru line from the app's savemodel() */
    assert_string_equal(stage_of("2023-04-18 20:39:29.054 | INFO     | __main__:savemodel:34 - Error saving model: "
                                 "CUDA out of memory. Tried to allocate 16.00 MiB (GPU 0; 10.00 GiB total capacity; "
                                 "9.03 GiB already allocated; 0 bytes free; 9.27 GiB reserved in total by PyTorch)\n"),
                        "checkpoint");
    /* lovecambi/qebrain#11 (corpus-heldout14 h14-37) */
    assert_string_equal(stage_of("### External evaluation, global step 0\n"
                                 "2019-02-12 17:16:07.529296: W tensorflow/core/common_runtime/bfc_allocator.cc:267] "
                                 "Allocator (GPU_0_bfc) ran out of memory trying to allocate 9.25GiB.  Current "
                                 "allocation summary follows.\n"),
                        "eval");
    /* prose is no log line: junzhezhang/shape-inversion#12 */
    assert_string_equal(stage_of("Hi, I've successfully run the training process, but encountered a problem during "
                                 "evaluation. I'm not sure if it is just because I don't have a large nough GPU.\n"
                                 "RuntimeError: CUDA out of memory. Tried to allocate 4.69 GiB (GPU 0; 11.77 GiB "
                                 "total capacity; 29.38 MiB already allocated; 3.85 GiB free; 40.00 MiB reserved in "
                                 "total by PyTorch)\n"),
                        "unknown");
}

/* A served request above the traceback: OpenAI-compatible routes generate
 * (QwenLM/Qwen#1250). */
static void test_served_route_is_generation(void **state)
{
    (void)state;
    assert_string_equal(stage_of("[BUG] <title>torch.cuda.OutOfMemoryError: CUDA out of memory.\n"
                                 "INFO:     10.0.93.12:49903 - \"POST /v1/chat/completions HTTP/1.1\" 500 Internal "
                                 "Server Error\n"
                                 "ERROR:    Exception in ASGI application\n"
                                 "Traceback (most recent call last):\n"
                                 "  File \"/usr/local/lib/python3.8/dist-packages/uvicorn/protocols/http/"
                                 "httptools_impl.py\", line 426, in run_asgi\n"
                                 "    result = await app(  # type: ignore[func-returns-value]\n"),
                        "generate");
}

/* mmcv's ProgressBar before its first task: no rate, only "elapsed"
 * (lhoyer/HRDA#27). */
static void test_test_bar_without_rate(void **state)
{
    (void)state;
    assert_string_equal(stage_of("CUDA out of memory upon the start of validation\n"
                                 "[                                                  ] 0/500, elapsed: 0s, "
                                 "ETA:Traceback (most recent call last):\n"
                                 "  File \"run_experiments.py\", line 116, in <module>\n"
                                 "    train.main([config_files[i]])\n"),
                        "eval");
}

/* A frame's names by their word parts: the program's own file
 * ("eval_completion.py", "coco_eval.py") and any stack's function name (a
 * Lua stack's "in function 'forward'"). Library files are named by the cue
 * table, nouns name no action. */
static void test_frame_names_by_word_parts(void **state)
{
    (void)state;
    /* junzhezhang/shape-inversion#12 */
    assert_string_equal(stage_of("Traceback (most recent call last):\n"
                                 "  File \"eval_completion.py\", line 202, in <module>\n"
                                 "    eval_completion_with_gt(args.saved_results_path)\n"
                                 "  File \"eval_completion.py\", line 56, in compute_4_metrics\n"
                                 "    dist1, dist2 , _, _ = distChamfer(pcn_gt, pcn_output)\n"
                                 "  File \"/data2/xieyuqiu/shape-inversion/external/ChamferDistancePytorch/"
                                 "chamfer_python.py\", line 35, in distChamfer\n"
                                 "    zz = torch.bmm(x, y.transpose(2, 1))\n"
                                 "RuntimeError: CUDA out of memory. Tried to allocate 4.69 GiB (GPU 0; 11.77 GiB "
                                 "total capacity; 29.38 MiB already allocated; 3.85 GiB free; 40.00 MiB reserved in "
                                 "total by PyTorch)\n"),
                        "eval");
    /* lyuwenyu/RT-DETR#86: two frames pasted under the mention */
    assert_string_equal(stage_of("a CUDA OOM is thrown after training\n"
                                 "\n"
                                 " File \"/home/dev/RT-DETR/rtdetr_pytorch/tools/../src/data/coco/coco_eval.py\", "
                                 "line 175, in merge\n"
                                 "    all_eval_imgs = dist.all_gather(eval_imgs)\n"
                                 " File \"/home/dev/RT-DETR/rtdetr_pytorch/tools/../src/misc/dist.py\", line 168, "
                                 "in all_gather\n"
                                 "    tdist.all_gather_object(data_list, data)\n"),
                        "eval");
    /* torch/torch7#853: a Lua stack */
    assert_string_equal(stage_of("/home/jcc/torch/install/share/lua/5.1/torch/Tensor.lua:458: cuda runtime error (2) "
                                 ": out of memory at /home/jcc/torch/extra/cutorch/lib/THC/generic/THCStorage.cu:65\n"
                                 "stack traceback:\n"
                                 "\t[C]: in function 'set'\n"
                                 "\t/home/jcc/torch/install/share/lua/5.1/torch/Tensor.lua:458: in function 'view'\n"
                                 "\t/home/jcc/torch/install/share/lua/5.1/nn/Reshape.lua:46: in function 'func'\n"
                                 "\t/home/jcc/torch/install/share/lua/5.1/nngraph/gmodule.lua:345: in function "
                                 "'neteval'\n"
                                 "\t/home/jcc/torch/install/share/lua/5.1/nngraph/gmodule.lua:380: in function "
                                 "'forward'\n"),
                        "forward");
    /* a noun is no action: Lightning-AI/pytorch-lightning#11361 dumps a
     * checkpoint, optimizer_state is what it dumps */
    assert_string_not_equal(stage_of("CUDA Out of memory error during checkpoint saving when using DDPShardedPlugin\n"
                                 "  File \"/miniconda3/envs/cenv-39/lib/python3.9/site-packages/pytorch_lightning/"
                                 "trainer/connectors/checkpoint_connector.py\", line 385, in dump_checkpoint\n"
                                 "    optimizer_state = self.trainer.accelerator.optimizer_state(optimizer)\n"
                                 "  File \"/miniconda3/envs/cenv-39/lib/python3.9/site-packages/pytorch_lightning/"
                                 "accelerators/accelerator.py\", line 390, in optimizer_state\n"),
                            "optimizer");
    /* a library file's name is no stage: torch's _dynamo/eval_frame.py under
     * an FSDP2 forward (meta-pytorch/torchtune#2071) */
    assert_string_equal(stage_of("[rank6]:   File \"/usr/local/lib/python3.12/dist-packages/torch/_dynamo/"
                                 "eval_frame.py\", line 632, in _fn\n"
                                 "[rank6]:     return fn(*args, **kwargs)\n"
                                 "[rank6]:   File \"/usr/local/lib/python3.12/dist-packages/torch/distributed/"
                                 "_composable/fsdp/_fsdp_state.py\", line 232, in _pre_forward\n"
                                 "[rank6]:     args, kwargs = self._fsdp_param_group.pre_forward(module, args, "
                                 "kwargs)\n"
                                 "[rank6]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.96 GiB.\n"),
                        "forward");
    assert_int_equal(stage_name_bits("val_one_epoch", 13), 1u << OOM_STAGE_EVAL);
    assert_int_equal(stage_name_bits("BaseTrainer.validate", 20), 1u << OOM_STAGE_EVAL);
    assert_int_equal(stage_name_bits("interval", 8), 0);
}

static bool has_stage(const char *line, enum oom_stage st)
{
    return (stage_frame_bits(line, strlen(line)) >> st) & 1u;
}

/* Code that moves or fetches data: a data-named value moved to the device,
 * an iteration over a loader, a dataset's own method called by the
 * statement. Not a move inside a call that names another stage, not a
 * dataset method handed as an argument. */
static void test_data_moves_and_loaders(void **state)
{
    (void)state;
    /* eriklindernoren/PyTorch-YOLOv3#588 (heldout9 h9-99) */
    assert_string_equal(stage_of("RuntimeError: CUDA error: out of memory\n"
                                 "\n"
                                 "Performing object detection:\n"
                                 "Traceback (most recent call last):\n"
                                 "  File \"detect.py\", line 73, in <module>\n"
                                 "    input_imgs = Variable(input_imgs.type(Tensor))\n"),
                        "data");
    /* bmaltais/kohya_ss#1887, hollowstrawberry/kohya-colab#262 */
    assert_true(has_stage("    train_dataset_group.cache_latents(vae, args.vae_batch_size, args.cache_latents_to_disk, "
                          "accelerator.is_main_process)\n",
                          OOM_STAGE_DATA));
    assert_true(has_stage("    dataset.new_cache_latents(model, accelerator)\n", OOM_STAGE_DATA));
    /* ClementPinard/FlowNetPytorch#85 */
    assert_true(has_stage("    for i, (input, target) in enumerate(val_loader):\n", OOM_STAGE_DATA));
    /* thushv89/tutorials_deeplearninghero#1 (heldout5 h5-25): generate */
    assert_false(has_stage("---> 15 generated = model.generate(batch[\"input_ids\"].to(\"cuda\"), "
                           "max_length=n_input_tokens+25)\n",
                           OOM_STAGE_DATA));
    /* longcw/faster_rcnn_pytorch#69 (heldout14 h14-62): an argument */
    assert_false(has_stage("    train_output = current_model.train_model(dataloader.get_train_input_fn(), "
                           "classification_steps)\n",
                           OOM_STAGE_DATA));
    /* a dtype cast inside a forward is no move of data */
    assert_false(has_stage("        hidden_states = hidden_states.to(torch.float32)\n", OOM_STAGE_DATA));
}

/* A traceback flattened onto its header line (a paste that lost its line
 * breaks): each "File \"" segment is still a frame with its code
 * (unslothai/unsloth#1667, corpus-heldout9 h9-20: the issue title and the
 * quoted paste, cut by the thread before the message). */
static void test_flattened_traceback(void **state)
{
    (void)state;
    assert_string_equal(
        stage_of("OOM when using model.save_pretrained_merged\n"
                 "\n"
                 "> Traceback (most recent call last): File \"/mnt/c/Users/xxx/finetune/finetune.py\", line 128, in "
                 "model.save_pretrained_merged(\"gemma-3\", tokenizer,) File \"/home/xxx/.conda/envs/finetune/lib/"
                 "python3.11/site-packages/unsloth/save.py\", line 2357, in unsloth_generic_save_pretrained_merged "
                 "unsloth_generic_save(**arguments) File \"/home/xxx/.conda/envs/finetune/lib/python3.11/"
                 "site-packages/torch/utils/_contextlib.py\", line 116, in decorate_context return func(*args, "
                 "**kwargs) ^^^^^^^^^^^^^^^^^^^^^ File \"/home/xxx/.conda/envs/finetune/lib/python3.11/"
                 "site-packages/unsloth/save.py\", line 2304, in unsloth_generic_sav\n"),
        "checkpoint");
}

/* A TF 1.x variable's own initialiser ("<variable>/Assign") runs when the
 * variables are initialised: load, though the variable is an Adam slot
 * (iperov/DeepFaceLab#518, corpus-heldout9 h9-85); Keras' update
 * assignments in the optimizer's scope stay optimizer. */
static void test_tf_variable_initialiser(void **state)
{
    (void)state;
    assert_string_equal(
        stage_of("ResourceExhaustedError (see above for traceback): OOM when allocating tensor with "
                 "shape[3,3,512,2048] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by "
                 "allocator GPU_0_bfc\n"
                 "         [[node training/Adam/Variable_14/Assign (defined at C:\\Users\\jamie\\Desktop\\"
                 "DeepFaceLab_CUDA_9.2_SSE\\_internal\\python-3.6.8\\lib\\site-packages\\keras\\backend\\"
                 "tensorflow_backend.py:402)  = Assign[T=DT_FLOAT, _grappler_relax_allocator_constraints=true, "
                 "use_locking=true, validate_shape=true, _device=\"/job:localhost/replica:0/task:0/device:GPU:0\"]"
                 "(training/Adam/Variable_14, training/Adam/zeros_14)]]\n"),
        "load");
    /* a constructed guard, Keras K.update naming: no initialiser */
    assert_int_equal(stage_tf("[[node training/Adam/Assign_3 (defined at x.py:1) ]]", 51), OOM_STAGE_OPTIMIZER);
}

/* A translator decoding is generation: OpenNMT-py's translator.translate
 * (OpenNMT/OpenNMT-py#10, corpus-heldout16 h16-04) and the Lua stack's
 * Beam/BeamSearcher/Translator:translateBatch (OpenNMT/OpenNMT#214, h16-20;
 * both of the set-aside part, fixed after its last measurement). */
static void test_translator_decodes(void **state)
{
    (void)state;
    assert_string_equal(
        stage_of("THCudaCheck FAIL file=/data/users/soumith/miniconda2/conda-bld/pytorch-cuda80-0.1.10_1488756735684/"
                 "work/torch/lib/THC/generic/THCStorage.cu line=66 error=2 : out of memory\n"
                 "Traceback (most recent call last):\n"
                 "  File \"translate.py\", line 116, in <module>\n"
                 "    main()\n"
                 "  File \"translate.py\", line 77, in main\n"
                 "    predBatch, predScore, goldScore = translator.translate(srcBatch, tgtBatch)\n"),
        "generate");
    assert_string_equal(
        stage_of("> /torch/install/bin/lua: cuda runtime error (2) : out of memory at "
                 "/torch/extra/cutorch/lib/THC/generic/THCStorage.cu:66\n"
                 "> stack traceback:\n"
                 ">         [C]: in ?\n"
                 ">         [C]: in function 'div'\n"
                 ">         ...work/torch/install/share/lua/5.2/onmt/translate/Beam.lua:362: in function "
                 "'_normalizeScores'\n"
                 ">         ...ch/install/share/lua/5.2/onmt/translate/BeamSearcher.lua:68: in function 'search'\n"
                 ">         ...orch/install/share/lua/5.2/onmt/translate/Translator.lua:273: in function "
                 "'translateBatch'\n"),
        "generate");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_logged_action_any_case),
        cmocka_unit_test(test_served_route_is_generation),
        cmocka_unit_test(test_test_bar_without_rate),
        cmocka_unit_test(test_frame_names_by_word_parts),
        cmocka_unit_test(test_data_moves_and_loaders),
        cmocka_unit_test(test_flattened_traceback),
        cmocka_unit_test(test_tf_variable_initialiser),
        cmocka_unit_test(test_translator_decodes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
