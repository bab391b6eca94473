/* Unit tests for diagstudy34 (issue 12): the mechanisms behind heldout34's
 * (a)-class misses, each with a case that must stay as it was. The pastes are
 * the corpus logs named beside them (tests/corpus-heldout34, opened for study;
 * tests/corpus-heldout28), copied line for line; the short lines marked
 * "constructed" follow the formats of the sources named there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/msg.h"
#include "lib/scan.h"
#include "scan_fixture.h"

/* samtecspg/articulate#282 = h34-47: a Rasa NLU trainer under docker-compose
 * and Twisted's log; cymem's Pool.alloc raises from the frame shown */
static const char articulate282[] =
    "training error\n"
    "\n"
    "```\n"
    "rasa_1      | 2018-07-26 21:11:36+0000 [-]   File \"preshed/maps.pyx\", line 205, in preshed.maps._resize (preshed/maps.cpp:4026)\n"
    "rasa_1      | 2018-07-26 21:11:36+0000 [-]     map_.cells = <Cell*>mem.alloc(new_size, sizeof(Cell))\n"
    "rasa_1      | 2018-07-26 21:11:36+0000 [-]   File \"cymem/cymem.pyx\", line 42, in cymem.cymem.Pool.alloc (cymem/cymem.cpp:1091)\n"
    "rasa_1      | 2018-07-26 21:11:36+0000 [-]     raise MemoryError(\"Error assigning %d bytes\" % number * elem_size)\n"
    "rasa_1      | 2018-07-26 21:11:36+0000 [-] MemoryError: Error assigning 262144 bytesError assigning 262144 bytesError assigning 262144 bytesError assigning 262144 bytesError assigning 262144 bytesError assigning 262144 bytesError assigning 262144 bytesError assigning 262144 bytesError assigning 262144 bytesError assigning 262144 bytesError assigning 262144 bytesError assigning 262144 bytesError assigning 262144 bytesError assigning 262144 bytesError assigning 262144 bytesError assigning 262144 bytes\n"
    "rasa_1      | 2018-07-26 21:11:36+0000 [-] 2018-07-26 21:11:36 ERROR    rasa_nlu.train  - Failed to train project 'Superdd'.\n"
    "rasa_1      | 2018-07-26 21:11:36+0000 [-] Traceback (most recent call last):\n"
    "rasa_1      | 2018-07-26 21:11:36+0000 [-]   File \"rasa_nlu/train.py\", line 120, in do_train_in_worker\n"
    "rasa_1      | 2018-07-26 21:11:36+0000 [-]     component_builder)\n"
    "rasa_1      | 2018-07-26 21:11:36+0000 [-]\n";

/* QwenLM/Qwen3#12 = h17-42: a flattened paste glues vLLM's raise line and its
 * exception on one line: that line is the message */
static const char qwen3_12[] =
    "raise ValueError(\"No available memory for the cache blocks. \" ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.\n"
    " python -m vllm.entrypoints.openai.api_server --model data/Qwen1.5-14B-Chat --host 0.0.0.0 --port 30005 --dtype half --gpu-memory-utilization 0.95\n"
    "\n"
    "![image](https://github.com/QwenLM/Qwen1.5/assets/46104689/6a0b2003-36c8-4c4f-9495-c89b52ef625f)\n"
    "\n"
    "报这个错是什么原因，用的是32GB显存V100\n"
    "\n"
    "JustinLin610 · comment · 2024-02-06\n"
    "Level up the --gpu-memory-utilization . vllm works differently as it will take a lot of memory of the device\n";

/* daswer123/xtts-finetune-webui#70 = h34-65: a reply's remedy names CUDA beside
 * system RAM */
static const char xtts70[] =
    "Keep getting OOM\n"
    "\n"
    "I have 12GB of Vram, using a conda environment with a python venv environment. I am using nvtop to monitor my vram using, and it's using between 35-40% vram til about epoch 2 or 3, then it jumps up to 100 and goes oom.\n"
    "\n"
    "Is there a memory leak? or am i doing something wrong that is causing this? I have lowered all the settings to the bare minimum.\n"
    "\n"
    "Epochs - 6\n"
    "Batch size - 2\n"
    "Grad accumulation steps - 2\n"
    "Seconds 7\n"
    "\n"
    "I'm using cudatoolkit with 11.8 and CUDNN 8.9.2.26\n"
    "\n"
    "Mycohl · comment · 2024-10-03\n"
    "I can't even run a single epoch with 8GB. Immediate OutOfMemoryError. I can run the regular xtts repo and RVC without issue.\n"
    "\n"
    "This repo, unlike the regular xtts repo, doesn't appear to support the --lowvram argument.\n"
    "\n"
    "My only next option is to get it set up on Windows, because the driver apparently allows CUDA to share system RAM.\n";

/* lllyasviel/ControlNet#247 = h34-68: the device a sentence before the OOM
 * words; a reply's thread list names RAM */
static const char controlnet247[] =
    "Small-Scale Training\n"
    "\n"
    "Hello! I have 12 GB GPU and I want  to train the network. But I am getting OOM. How to perform small scale training as mentioned in the paper\n"
    "\n"
    "geroldmeisinger · comment · 2023-09-17\n"
    "all duplicate concerning \"RAM and out of memory exceptions (OOM)\":\n"
    "https://github.com/lllyasviel/ControlNet/issues/21\n"
    "https://github.com/lllyasviel/ControlNet/issues/33\n"
    "https://github.com/lllyasviel/ControlNet/issues/191\n"
    "https://github.com/lllyasviel/ControlNet/issues/236\n"
    "https://github.com/lllyasviel/ControlNet/issues/241\n"
    "https://github.com/lllyasviel/ControlNet/issues/247\n"
    "https://github.com/lllyasviel/ControlNet/issues/294\n"
    "https://github.com/lllyasviel/ControlNet/issues/301\n"
    "\n";

/* LijunRio/Xrays_CT#12 = h34-108: a Chinese title naming loss.backward() */
static const char xrays12[] =
    "loss.backward()时发生OOM现象\n"
    "\n"
    "作者你好，我在使用V100训练自己的35个数据时，在loss.backward()时发生了OOM现象，这令我很疑惑，请问作者是怎么训练的？\n"
    "![f65ead8b18591953202c84e2460b5e9](https://user-images.githubusercontent.com/66004210/200867243-845f4b01-1ac5-4b64-a87b-8bb1f59af835.jpg)\n"
    "\n";

/* huggingface/accelerate#3182 = h28-96: a title naming accelerator.prepare() */
static const char accelerate3182[] =
    "accelerator.prepare() get OOM,but available in single GPU\n"
    "\n"
    "### System Info\n"
    "\n"
    "```Shell\n"
    "- `Accelerate` version: 1.0.1\n"
    "- Platform: Linux-5.4.0-169-generic-x86_64-with-glibc2.35\n"
    "- `accelerate` bash location: /opt/conda/bin/accelerate\n"
    "- Python version: 3.10.14\n"
    "- Numpy version: 1.26.4\n"
    "- PyTorch version (GPU?): 2.3.0+cu118 (True)\n"
    "- PyTorch XPU available: False\n"
    "- PyTorch NPU available: False\n"
    "- PyTorch MLU available: False\n";

/* axolotl-ai-cloud/axolotl#1813 = h34-02: a terminal hard-wrapped every line at
 * 99 columns */
static const char axolotl1813[] =
    "Mistral Nemo 12B training CUDA Out of memory only when enabling EVAL. On 2x3090Ti FSDP.\n"
    "\n"
    "```\n"
    "[rank1]:   File \"/home/owen/miniconda3/envs/axolotl/lib/python3.11/site-packages/torch/_tensor.py\",\n"
    " line 525, in backward\n"
    "[rank1]:     torch.autograd.backward(\n"
    "[rank1]:   File \"/home/owen/miniconda3/envs/axolotl/lib/python3.11/site-packages/torch/autograd/__i\n"
    "nit__.py\", line 267, in backward\n"
    "[rank1]:     _engine_run_backward(\n"
    "[rank1]:   File \"/home/owen/miniconda3/envs/axolotl/lib/python3.11/site-packages/torch/autograd/gra\n"
    "ph.py\", line 744, in _engine_run_backward\n"
    "[rank1]:     return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run th\n"
    "e backward pass\n"
    "[rank1]:            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
    "^^^^^^^^^^^^^^^\n"
    "[rank1]: torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU  has a to\n"
    "tal capacity of 23.67 GiB of which 1.59 GiB is free. Including non-PyTorch memory, this process has\n"
    " 22.06 GiB memory in use. Of the allocated memory 19.75 GiB is allocated by PyTorch, and 1.78 GiB i\n"
    "s reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTO\n"
    "RCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory \n"
    "Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n";

/* A GPU OOM named in words is found (or not) */
static void expect_mention(const char *log, bool found)
{
    struct oom_report rep;
    scan_log(log, &rep);
    assert_int_equal(rep.primary >= 0, found);
    if (found) assert_string_equal(rep.events[rep.primary].kind, "oom-mention");
    oom_report_release(&rep);
}

static void test_raise_line_is_code(void **state)
{
    (void)state;
    /* cymem's source lines (explosion/cymem:cymem/cymem.pyx@1cb1cf0e) */
    static const char alloc[] = "            raise MemoryError(\"Error assigning %d bytes\" % (number * elem_size))";
    static const char addr[] = "    raise MemoryError(\"Error assigning %d bytes\" % number * elem_size)";
    assert_true(msg_emitter_code(alloc, strlen(alloc)));
    assert_true(msg_emitter_code(addr, strlen(addr)));
    /* no string literal: the words are not the code's */
    static const char rethrow[] = "    raise torch.cuda.OutOfMemoryError(msg)";
    assert_false(msg_emitter_code(rethrow, strlen(rethrow)));
    /* the exception glued onto the raise line */
    assert_false(msg_emitter_code(qwen3_12, (size_t)(strchr(qwen3_12, '\n') - qwen3_12)));

    struct oom_report rep;
    scan_log(articulate282, &rep);
    assert_true(rep.primary < 0);
    assert_true(rep.n_events >= 1);
    assert_string_equal(rep.events[0].kind, "host-memory-error");
    assert_int_equal(rep.events[0].line, 8);
    assert_int_equal(rep.events[0].bytes.requested, 262144);
    oom_report_release(&rep);

    scan_log(qwen3_12, &rep);
    assert_true(rep.primary >= 0);
    assert_string_equal(rep.events[rep.primary].kind, "vllm-kv-cache");
    oom_report_release(&rep);
}

static void test_cymem_figures(void **state)
{
    (void)state;
    /* constructed: Pool.realloc's wording (explosion/cymem:cymem/cymem.pyx@1cb1cf0e) */
    static const char realloc_log[] = "MemoryError: Error reallocating to 1048576 bytes\n";
    struct oom_report rep;
    scan_log(realloc_log, &rep);
    assert_true(rep.primary < 0);
    assert_string_equal(rep.events[0].kind, "host-memory-error");
    assert_int_equal(rep.events[0].bytes.requested, 1048576);
    oom_report_release(&rep);
}

static void test_launcher_prefixes(void **state)
{
    (void)state;
    struct msg_prefix px;
    /* docker/compose:compose/cli/log_printer.py@0263d3ec's own example */
    static const char v1[] = "db_1  | Listening";
    msg_prefix_parse(v1, strlen(v1), &px);
    assert_string_equal(v1 + px.body, "Listening");
    /* constructed: Compose v2's replica name */
    static const char v2[] = "vllm-1  | INFO 03-19 07:27:53 engine.py:375] Started";
    msg_prefix_parse(v2, strlen(v2), &px);
    assert_string_equal(v2 + px.body, "Started");
    /* a table's row has no replica number */
    static const char table[] = "loss  | 0.5";
    msg_prefix_parse(table, strlen(table), &px);
    assert_int_equal(px.body, 0);
    /* Twisted's classic text, system "-" and "namespace#level" (twisted/twisted
     * src/twisted/logger/_format.py formatEventAsClassicLogText) */
    static const char tw[] = "rasa_1      | 2018-07-26 21:11:36+0000 [-] MemoryError: x";
    msg_prefix_parse(tw, strlen(tw), &px);
    assert_string_equal(tw + px.body, "MemoryError: x");
    static const char tw2[] = "2013-10-22T14:19:11-0700 [twisted.web#info] Starting";
    msg_prefix_parse(tw2, strlen(tw2), &px);
    assert_string_equal(tw2 + px.body, "Starting");
    /* a rank tag after a clock stays a rank */
    static const char rk[] = "2024-01-01 12:00:00 [rank3]: x";
    msg_prefix_parse(rk, strlen(rk), &px);
    assert_int_equal(px.rank, 3);
}

static void test_cuda_beside_system_ram(void **state)
{
    (void)state;
    expect_mention(xtts70, true);
    /* host memory said to be what is needed still guards (databrickslabs/dolly#38's
     * sentence under a constructed title) */
    expect_mention("Out of memory on my GPU\n\nI think you need an instance with more RAM (not GPU memory)\n",
                   false);
}

static void test_device_in_the_same_line(void **state)
{
    (void)state;
    expect_mention(controlnet247, true);
    /* constructed: host memory said to be full on the line guards it */
    expect_mention("I have an RTX 3090 but my CPU RAM is full. I am getting OOM.\n", false);
    /* without the reply's header the RAM words are the same post's: guarded */
    char same_post[sizeof controlnet247];
    const char *h = strstr(controlnet247, "geroldmeisinger");
    assert_non_null(h);
    size_t k = (size_t)(h - controlnet247);
    memcpy(same_post, controlnet247, k);
    const char *nl = strchr(h, '\n');
    strcpy(same_post + k, nl + 1);
    expect_mention(same_post, false);
}

static void test_title_naming_a_call(void **state)
{
    (void)state;
    expect_mention(xrays12, true);
    expect_mention(accelerate3182, true);
    /* constructed: a code line below the title is still code */
    expect_mention("Memory question on my RTX 3090\n\nmodel.generate(**inputs)  # OOM here\n", false);
}

static void test_hard_wrapped_traceback(void **state)
{
    (void)state;
    struct oom_report rep;
    scan_log(axolotl1813, &rep);
    assert_true(rep.primary >= 0);
    assert_int_equal(rep.events[rep.primary].stage, OOM_STAGE_BACKWARD);
    assert_int_equal(rep.events[rep.primary].rank, 1);
    oom_report_release(&rep);
    /* constructed: a short line of another writer between the frames and the
     * message still ends the traceback */
    scan_log("Traceback (most recent call last):\n  File \"train.py\", line 10, in <module>\n"
         "    loss.backward()\nsome log line from another writer\n"
         "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n",
         &rep);
    assert_true(rep.primary >= 0);
    assert_int_equal(rep.events[rep.primary].stage, OOM_STAGE_UNKNOWN);
    oom_report_release(&rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raise_line_is_code),
        cmocka_unit_test(test_cymem_figures),
        cmocka_unit_test(test_launcher_prefixes),
        cmocka_unit_test(test_cuda_beside_system_ram),
        cmocka_unit_test(test_device_in_the_same_line),
        cmocka_unit_test(test_title_naming_a_call),
        cmocka_unit_test(test_hard_wrapped_traceback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
