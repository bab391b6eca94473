/* Unit tests for the mechanisms read from the misses of heldout49
 * (document AI and OCR, subtitle and translation tools, hobbyist
 * integrations and assistants), opened for study after its blind figures
 * were recorded (at 5ed68a6d: 76/80 calls, 145/147 numbers, 11/20
 * stages). Each case has a guard that must stay as it was. The pastes are
 * written here, in the shape of the posts, not copied from them. */
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
#include "call_fixture.h"

/* Android's runtime refusing a Java heap allocation is host memory (an
 * app's heap limit), with its request in bytes; a title that says "OOM"
 * over it does not make it the GPU's. */
static void test_android_heap(void **state)
{
    (void)state;
    struct oom_event e = primary(
        "App crashes with OOM when transcribing\n\n"
        "Could not invoke Session.run. Failed to allocate a 12000008 byte allocation with 4194304 "
        "free bytes and 9MB until OOM, target footprint 201326592, growth limit 201326592\n");
    assert_false(e.gpu_oom);
    assert_string_equal(e.kind, "host-cpu-alloc");
    assert_int_equal(e.bytes.requested, 12000008);

    /* the older form, which stops after the free bytes */
    e = primary("java.lang.OutOfMemoryError: Failed to allocate a 4096016 byte allocation with "
                "1048576 free bytes\n");
    assert_false(e.gpu_oom);
    assert_int_equal(e.bytes.requested, 4096016);

    /* guard: a GPU allocator's own message stays the GPU's */
    e = primary("RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB "
                "total capacity; 6.10 GiB already allocated; 3.19 MiB free; 6.20 GiB reserved in "
                "total by PyTorch)\n");
    assert_true(e.gpu_oom);
}

/* OpenVINO's CPU plug-in ("Failed to allocate N bytes of memory" under
 * "Exception from src/plugins/intel_cpu/..."): host RAM, the request read. */
static void test_openvino_cpu_alloc(void **state)
{
    (void)state;
    struct oom_event e = primary(
        "[ INFO ] Device: CPU\n"
        "[ ERROR ] Error during model execution: Exception from src/inference/src/cpp/core.cpp:109:\n"
        "Exception from src/plugins/intel_cpu/src/cpu_memory.cpp:248:\n"
        "Failed to allocate 8589934592 bytes of memory\n");
    assert_false(e.gpu_oom);
    assert_string_equal(e.kind, "host-cpu-alloc");
    assert_int_equal(e.bytes.requested, 8589934592LL);

    /* guard: the same words naming a GPU are no host row's */
    struct seen s = look("W@00001 GPU[cuda(0)] Failed to allocate 79855878144 bytes of memory on "
                         "the GPU device: out of memory\n");
    assert_string_not_equal(s.kind, "host-cpu-alloc");
}

/* A tool that wraps the caught OOM in its own line and names a fallback
 * ("...; falling back to CV2 fill") went on: no failure of the run. */
static void test_fallback_on_own_line(void **state)
{
    (void)state;
    struct seen s = look(
        "Inpainting failed for region 2 (inpainting error: CUDA out of memory. Tried to allocate "
        "2.00 GiB. GPU 0 has a total capacity of 7.79 GiB of which 1.10 GiB is free.); falling "
        "back to OpenCV fill\n"
        "Inpainted 3 regions (model: 0, OpenCV: 3)\n"
        "Translating 3 bubbles\n");
    assert_false(s.gpu_oom);

    /* guard: a traceback after it is a failure after all */
    s = look("Inpainting failed (inpainting error: CUDA out of memory. Tried to allocate 2.00 GiB. "
             "GPU 0 has a total capacity of 7.79 GiB of which 1.10 GiB is free.); falling back to "
             "OpenCV fill\n"
             "Traceback (most recent call last):\n"
             "  File \"app.py\", line 10, in <module>\n"
             "    fill(img)\n"
             "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a "
             "total capacity of 7.79 GiB of which 0 bytes is free.\n");
    assert_true(s.gpu_oom);

    /* guard: the fallback words on another line do not catch the OOM */
    s = look("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a "
             "total capacity of 7.79 GiB of which 1.10 GiB is free.\n"
             "No GPU found, falling back to CPU\n");
    assert_true(s.gpu_oom);
}

/* A paste that keeps only the failing code line: accelerate's placement of
 * one weight ("new_value = value.to(device)") and a layer allocating its
 * parameter ("self.weight = Parameter(torch.empty(...))") are load. */
static void test_load_code_lines(void **state)
{
    (void)state;
    struct oom_event e = primary("```\n"
                                 "new_value = value.to(device)\n"
                                 "RuntimeError: CUDA error: out of memory\n");
    assert_true(e.gpu_oom);
    assert_int_equal(e.stage, OOM_STAGE_LOAD);

    e = primary("    self.weight = Parameter(torch.empty(self.out_features, self.in_features))\n"
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 0 "
                "has a total capacity of 7.69 GiB of which 13.94 MiB is free.\n");
    assert_int_equal(e.stage, OOM_STAGE_LOAD);

    /* guard: wrapping a computed tensor is no allocation of a weight; a
     * batch moved is data's, not load's */
    e = primary("    batch = batch.to(device)\n"
                "RuntimeError: CUDA error: out of memory\n");
    assert_int_not_equal(e.stage, OOM_STAGE_LOAD);
}

/* The action named right before "failed" on the message's own line
 * ("Stage preprocess failed for run 1, pages [5]: std::bad_alloc",
 * "Decoding failed: ..."), also on a repeat of an error a sentence named
 * first. */
static void test_stage_word_before_failed(void **state)
{
    (void)state;
    struct oom_event e = primary("Stage preprocess failed for run 2, pages [3]: std::bad_alloc\n");
    assert_false(e.gpu_oom);
    assert_int_equal(e.stage, OOM_STAGE_DATA);

    e = primary("Decoding failed: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total "
                "capacity of 7.79 GiB of which 0 bytes is free.\n");
    assert_true(e.gpu_oom);
    assert_int_equal(e.stage, OOM_STAGE_GENERATE);

    /* a repeat below a sentence that named the error first */
    e = primary("I always get the `std::bad_alloc`, faulthandler prints nothing\n\n"
                "```\n"
                "Stage preprocess failed for run 1, pages [7]: std::bad_alloc\n"
                "```\n");
    assert_int_equal(e.stage, OOM_STAGE_DATA);

    /* guards: a noun that names no action; a verb part inside a word */
    e = primary("Job 12 failed: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total "
                "capacity of 7.79 GiB of which 0 bytes is free.\n");
    assert_int_equal(e.stage, OOM_STAGE_UNKNOWN);
    e = primary("Upload failed: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total "
                "capacity of 7.79 GiB of which 0 bytes is free.\n");
    assert_int_equal(e.stage, OOM_STAGE_UNKNOWN);
    /* ... and a verb in a person's sentence */
    e = primary("CUDA out of memory\n\n"
                "the page opens, i pick an image then generate failed , CUDA out of memory. my card "
                "has 40G\n");
    assert_int_equal(e.stage, OOM_STAGE_UNKNOWN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_android_heap),
        cmocka_unit_test(test_openvino_cpu_alloc),
        cmocka_unit_test(test_fallback_on_own_line),
        cmocka_unit_test(test_load_code_lines),
        cmocka_unit_test(test_stage_word_before_failed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
