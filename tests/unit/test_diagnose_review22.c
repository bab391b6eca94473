/* Unit tests for review22's fixes to the nineteenth round's merges (open64,
 * labelconv): each case is a line where a rule fired wider than its
 * comment says, with a guard that the rule still fires where it should.
 * The pastes are written here in our own words, after the shapes named
 * beside them. */
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

#define OOM_LINE                                                                                             \
    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total " \
    "capacity; 13.10 GiB already allocated)\n"

/* engine-build-no-stage's agent noun 'builder' (labelconv, 2064b0ad) is a
 * word of a line about TensorRT's builder; a file or module named builder
 * is no engine build: MoCo's "moco/builder.py" frame (DianCh/AdaContrast#5
 * = heldout56 h56-74 has it), LLaVA's "from llava.model.builder import"
 * (haotian-liu/LLaVA's llava/model/builder.py), PyTorch's Windows build
 * path "pytorch\builder\windows\..." in c10's messages. */
static void test_builder_file_is_no_engine_build(void **state)
{
    (void)state;
    assert_false(stage_training_line("from llava.model.builder import load_pretrained_model", 53));
    const char *frame = "  File \"/code/moco/builder.py\", line 173, in forward";
    assert_false(stage_training_line(frame, strlen(frame)));
    const char *win = "C:\\actions-runner\\_work\\pytorch\\pytorch\\builder\\windows\\pytorch\\c10\\core\\impl\\alloc_cpu.cpp";
    assert_false(stage_training_line(win, strlen(win)));
    const char *llava = "Loading checkpoint shards for the vision tower\n"
                        "from llava.model.builder import load_pretrained_model\n" OOM_LINE;
    assert_string_equal(primary_stage(llava), "load");
    /* guards: TensorRT's builder lines still end the walk */
    const char *pass = "[TRT] [I] Global timing cache in use. Profiling results in this builder pass will be stored.";
    assert_true(stage_training_line(pass, strlen(pass)));
    const char *snap = "[04/11/2022-09:12:55] [I] [TRT] [MemUsageSnapshot] Builder begin: CPU 572 MiB, GPU 742 MiB";
    assert_true(stage_training_line(snap, strlen(snap)));
    const char *lib = "[TRT] [I] [MemUsageChange] Init builder kernel library: CPU +3255, GPU +420, now: CPU 4001";
    assert_true(stage_training_line(lib, strlen(lib)));
}

static int julia(const char *line, enum oom_stage *st)
{
    return stage_julia_frame(line, strlen(line), st);
}

/* open64's pre-1.0 Julia frame (" in f(args) at path:line", daafd516)
 * took any line that opens with "in " and holds " at ": a sentence under
 * the stack ("in my loop at epoch 3 I call train!(loss, ps, data, opt)")
 * was a frame, and named backward by the train! in it. The place after
 * " at " must be a frame's: file:line, "./<missing>:0", "no file". */
static void test_julia_old_frame_needs_a_place(void **state)
{
    (void)state;
    enum oom_stage st;
    assert_int_equal(julia("in my loop at epoch 3 I call train!(loss, ps, data, opt)", &st), 0);
    assert_int_equal(julia(" in short, it fails at step 3", &st), 0);
    assert_int_equal(julia(" in 2019 at 10:30 it still ran", &st), 0);
    /* nothing after the last " at " but blanks: the place is empty (the
     * fuzz target's find, "ERROR: Out of gpu memory\n in f at ", read
     * before the text under UBSan) */
    assert_int_equal(julia(" in f at ", &st), 0);
    assert_int_equal(julia(" in f at  \r", &st), 0);
    /* guards: Julia 0.5/0.6's own frames */
    assert_int_equal(julia(" in relu(::Knet.KnetArray{Float32,4}) at /home/u/.julia/v0.5/Knet/src/unary.jl:85", &st), 1);
    assert_int_equal(julia(" in relu(::AutoGrad.Rec{Knet.KnetArray{Float32,4}}) at ./<missing>:0", &st), 1);
    assert_int_equal(julia(" in macro expansion at ./REPL.jl:97 [inlined]", &st), 1);
    assert_int_equal(julia(" in anonymous at no file", &st), 1);
    assert_int_equal(julia(" in train!(::Function, ::Array{Any,1}) at /home/u/.julia/v0.6/Flux/src/optimise/train.jl:38", &st), 1);
    assert_int_equal(st, OOM_STAGE_BACKWARD);
}

/* open64's Cython constructor rule (a .pyx frame's __init__ names no
 * stage) and open58's container packages (cupy, cudf, ...) were two
 * checks on the same frames, both tested only on CuPy's, which either
 * alone passes; one table now (container_packages, ".pyx" a row). This
 * pins the .pyx row on a library outside the package list: cuML's
 * estimators are Cython classes (rapidsai/cuml: python/cuml/cluster/
 * kmeans.pyx); its __init__ under an evaluation is no load. */
static void test_pyx_constructor_outside_the_packages(void **state)
{
    (void)state;
    const char *log = "Traceback (most recent call last):\n"
                      "  File \"run.py\", line 9, in <module>\n"
                      "    evaluate(model, data)\n"
                      "  File \"run.py\", line 5, in evaluate\n"
                      "    km = KMeans(n_clusters=8)\n"
                      "  File \"cuml/cluster/kmeans.pyx\", line 300, in cuml.cluster.kmeans.KMeans.__init__\n"
                      "MemoryError: std::bad_alloc: out_of_memory: CUDA error (failed to allocate 8589934592 bytes) "
                      "at: /opt/rmm/include/rmm/mr/device/cuda_memory_resource.hpp:70\n";
    assert_string_equal(primary_stage(log), "eval");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builder_file_is_no_engine_build),
        cmocka_unit_test(test_julia_old_frame_needs_a_place),
        cmocka_unit_test(test_pyx_constructor_outside_the_packages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
