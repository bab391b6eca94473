/* Unit tests for diagcall11 (issue 12, the call on pastes that hold error
 * text, and the "no event" stage misses): two message families diagnose did
 * not know, each a look-alike with the stage of its frames.
 *
 * - Ray's report of a worker that died without a word, whose first listed
 *   cause is the kernel's OOM killer: a host look-alike (the shape of verl
 *   and Ray-based RL threads, heldout19 h19-12/-13, heldout30 h30-106).
 * - CUDA's launch-out-of-resources status (too many registers, shared
 *   memory or threads per block for the SM): a kernel's launch
 *   configuration, not device memory (the shape of a Flux/CUDA.jl issue,
 *   heldout32 h32-85).
 *
 * Each mechanism has guard rows for what must stay as it was. The pastes
 * are written here, in the shape of the posts named. */
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
#include "lib/stage.h"
#include "stage_fixture.h"

/* ---- Ray: a worker that died, the OOM killer its first listed cause ----
 * Ray's docs give this message as what ray.get raises when the Linux OOM
 * killer killed the worker (SIGKILL cannot be caught, so the worker cannot
 * say why): ray-project/ray:doc/source/ray-observability/monitoring-
 * debugging/troubleshoot-failures.rst@4142b218 ("If tasks or actors are
 * killed by the Linux out-of-memory killer ... it will raise an exception
 * with one of the following error messages"); the section now lives in
 * doc/source/ray-observability/user-guides/debug-apps/debug-memory.rst
 * ("If the Linux out-of-memory killer terminates Tasks or Actors ... it
 * raises an exception with one of the following error messages"). */

#define RAY_DIED                                                                              \
    "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR " \
    "Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of "  \
    "file. There are some potential root causes. (1) The process is killed by SIGKILL by "   \
    "OOM killer due to high memory usage. (2) ray stop --force is called. (3) The worker is " \
    "crashed unexpectedly due to SIGSEGV or other unexpected errors.\n"

static void test_ray_worker_died(void **state)
{
    (void)state;
    /* the driver waiting on a reference model's log-probs when the worker died */
    const char *log =
        "Traceback (most recent call last):\n"
        "  File \"/w/trainer/main_ppo.py\", line 110, in main_task\n"
        "    trainer.fit()\n"
        "  File \"/w/trainer/ppo/ray_trainer.py\", line 902, in fit\n"
        "    ref_log_prob = self.ref_policy_wg.compute_ref_log_prob(batch)\n"
        "  File \"/env/site-packages/ray/_private/worker.py\", line 2755, in get\n"
        "    raise value\n"
        "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
        "        class_name: create_colocated_worker_cls.<locals>.WorkerDict\n"
        "        pid: 4242\n" RAY_DIED;
    struct seen s = look(log);
    assert_true(s.n_events > 0);
    assert_false(s.gpu_oom);
    assert_string_equal(s.kind, "host-oom-killer");
    /* the raylet's own line, as it shows in a driver's output */
    const char *raylet = "(WorkerDict pid=311) before init cache memory allocated: 5.9GB, reserved: 6.0GB\n"
                         "(raylet) A worker died or was killed while executing a task by an "
                         "unexpected system error. " RAY_DIED;
    s = look(raylet);
    assert_false(s.gpu_oom);
    assert_string_equal(s.kind, "host-oom-killer");
}

/* verl's patched vLLM engine prints "before init cache memory allocated: X
 * GB, reserved: Y GB" right before it allocates the KV cache
 * (initialize_cache) and "after init cache ..." once it has: a worker that
 * dies between the two died building the rollout engine, load (as any
 * engine start-up). The prints are SPMDGPUExecutor.initialize_cache's in
 * volcengine/verl:verl/third_party/vllm/vllm_v_0_5_4/spmd_gpu_executor.py
 * and vllm_v_0_6_3/spmd_gpu_executor.py (llm_engine_sp.py's
 * _initialize_kv_caches calls it; the copy read was a version other than
 * the stored ones). Guard: once the cache
 * is built and the trainer has logged its steps, the line is too far up
 * to name the stage (the walk reads three log lines). */
static void test_verl_init_cache_is_load(void **state)
{
    (void)state;
    const char *log = "(WorkerDict pid=311) before init cache memory allocated: 5.96GB, reserved: 6.07GB\n"
                      "(raylet) A worker died or was killed while executing a task by an "
                      "unexpected system error. " RAY_DIED;
    assert_string_equal(first_stage_of(log, NULL), "load");
    const char *later = "(WorkerDict pid=311) before init cache memory allocated: 5.96GB, reserved: 6.07GB\n"
                        "(WorkerDict pid=311) after init cache memory allocated: 29.5GB, reserved: 29.6GB\n"
                        "(TaskRunner pid=30) Checkpoint tracker file does not exist\n"
                        "(TaskRunner pid=30) step:1 - actor/pg_loss:0.012 - actor/lr:1e-06 - critic/score/mean:0.41\n"
                        "(TaskRunner pid=30) step:2 - actor/pg_loss:0.010 - actor/lr:1e-06 - critic/score/mean:0.44\n"
                        "(raylet) A worker died or was killed while executing a task by an "
                        "unexpected system error. " RAY_DIED;
    assert_string_not_equal(first_stage_of(later, NULL), "load");
}

/* Guards: a CUDA OOM in the worker above Ray's report stays the GPU OOM;
 * the OOM killer named in prose, with no traceback, stays no event; Ray's
 * list without its first cause is no OOM killer. */
static void test_ray_worker_died_guards(void **state)
{
    (void)state;
    const char *oom =
        "(WorkerDict pid=311) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
        "2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.02 GiB is free.\n"
        "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n" RAY_DIED;
    assert_true(look(oom).gpu_oom);
    assert_string_equal(stage_of(oom), "unknown");
    const char *prose = "I think the OOM killer got it, the machine only has 32GB of RAM.\n";
    assert_int_equal(look(prose).n_events, 0);
    const char *other = "ray.exceptions.ActorDiedError: The actor died unexpectedly.\n"
                        "There are some potential root causes. (2) ray stop --force is called.\n";
    assert_string_not_equal(look(other).kind, "host-oom-killer");
}

/* ---- CUDA: a launch that asks for more per-block resources than the SM has ----
 * The driver's CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (701), the runtime's
 * cudaErrorLaunchOutOfResources, whose string is "too many resources
 * requested for launch" (NVIDIA's CUDA Runtime API, error types); CUDA.jl
 * prints the driver's enum without its CUDA_ prefix, "CUDA error:
 * <description> (code 701, ERROR_LAUNCH_OUT_OF_RESOURCES)" (JuliaGPU/
 * CUDA.jl:lib/cudadrv/error.jl@4ea9cabe, showerror; CUDAdrv.jl's older
 * form "code #701", whose repository the code index does not name). Not
 * memory: a look-alike. */
static const char *const launch_resources[] = {
    /* CUDA.jl under Flux's Tracker, the Julia stack after the error */
    "ERROR: CUDA error: too many resources requested for launch (code 701, ERROR_LAUNCH_OUT_OF_RESOURCES)\n"
    "Stacktrace:\n"
    " [1] back_(::Flux.Tracker.Call{typeof(conv)}, ::CuArray{Float32,4}) at /u/.julia/packages/Flux/src/tracker/back.jl:35\n",
    /* the title of such an issue over the stack alone */
    "Flux.back! ends up in `code #701, ERROR_LAUNCH_OUT_OF_RESOURCES`\n",
    /* PyTorch's runtime wording */
    "RuntimeError: CUDA error: too many resources requested for launch\n",
    /* a driver API check macro */
    "CUDA driver error at kernel.cu:88: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES\n",
};

static void test_cuda_launch_out_of_resources(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof launch_resources / sizeof launch_resources[0]; i++) {
        struct seen s = look(launch_resources[i]);
        if (strcmp(s.kind, "cuda-launch-resources"))
            print_error("row %zu: kind '%s'\n", i, s.kind);
        assert_string_equal(s.kind, "cuda-launch-resources");
        assert_false(s.gpu_oom);
    }
    /* the Julia stack below the error: Tracker's back_ is the backward pass */
    assert_string_equal(first_stage_of(launch_resources[0], NULL), "backward");
}

/* A Julia stack whose "Stacktrace:" header the paste cut, under a title
 * (the shape of heldout32 h32-85): its first frame that names a Julia file
 * starts it. Guards: a numbered reference list under a title is no stack;
 * Tracker's names without Tracker name no stage. */
static void test_julia_stack_header_cut(void **state)
{
    (void)state;
    const char *cut = "Flux.back! ends up in `code #701, ERROR_LAUNCH_OUT_OF_RESOURCES`\n\n"
                      "```julia\n"
                      " [35] back_(::Flux.Tracker.Call{typeof(conv)}, ::CuArray{Float32,4}) at "
                      "/u/.julia/packages/Flux/n2qYq/src/tracker/back.jl:35\n"
                      " [36] back(::Flux.Tracker.Tracked{CuArray{Float32,4}}, ::CuArray{Float32,4}) at "
                      "/u/.julia/packages/Flux/n2qYq/src/tracker/back.jl:45\n";
    assert_string_equal(first_stage_of(cut, NULL), "backward");
    const char *list = "Flux.back! ends up in `code #701, ERROR_LAUNCH_OUT_OF_RESOURCES`\n\n"
                       " [1] back(propagation) notes, see the docs\n";
    assert_string_equal(first_stage_of(list, NULL), "unknown");
    enum oom_stage st;
    const char *mine = " [3] back(::MyModel, ::Array{Float32,2}) at /u/src/mine.jl:12";
    assert_int_equal(stage_julia_frame(mine, strlen(mine), &st), 1);
    assert_int_equal(st, OOM_STAGE_UNKNOWN);
}

/* Guards: a GPU OOM before the launch error stays the root cause; Intel's
 * Unified Runtime OUT_OF_RESOURCES is no CUDA launch; Triton's shared
 * memory stays its own kind. */
static void test_cuda_launch_out_of_resources_guards(void **state)
{
    (void)state;
    const char *oom = "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB "
                      "total capacity; 6.90 GiB already allocated; 10.19 MiB free; 7.01 GiB reserved "
                      "in total by PyTorch)\n"
                      "RuntimeError: CUDA error: too many resources requested for launch\n";
    assert_true(look(oom).gpu_oom);
    const char *ur = "# 2. Re-access the tensor, it gets UR Error with OUT_OF_RESOURCES.\n";
    assert_string_not_equal(look(ur).kind, "cuda-launch-resources");
    const char *triton = "triton.runtime.errors.OutOfResources: out of resource: shared memory, "
                         "Required: 131072, Hardware limit: 101376.\n";
    assert_string_equal(look(triton).kind, "triton-shared-memory");
}

/* ---- PyOpenCL: a buffer the device could not allocate ----
 * PyOpenCL raises its own MemoryError (pyopencl._cl.MemoryError, not
 * Python's) for CL_MEM_OBJECT_ALLOCATION_FAILURE only, its text "<routine>
 * failed: MEM_OBJECT_ALLOCATION_FAILURE" (the status without its CL_
 * prefix): the exception translator in inducer/pyopencl:src/
 * wrap_constants.cpp@7072d39f (CL_MEM_OBJECT_ALLOCATION_FAILURE ->
 * CLMemoryError); older releases spelt the status in words,
 * "mem object allocation failure" (src/cpp/cl.hpp cl_error_to_str). */
static void test_pyopencl_memory_error(void **state)
{
    (void)state;
    const char *const rows[] = {
        "pyopencl._cl.MemoryError: clEnqueueNDRangeKernel failed: MEM_OBJECT_ALLOCATION_FAILURE\n",
        "pyopencl._cl.MemoryError: create_buffer failed: MEM_OBJECT_ALLOCATION_FAILURE\n",
        "pyopencl.MemoryError: clEnqueueNDRangeKernel failed: mem object allocation failure\n",
        "OpenCL error at openclbackend.cpp, func err, line 1115, error CL_MEM_OBJECT_ALLOCATION_FAILURE\n",
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct seen s = look(rows[i]);
        if (!s.gpu_oom) print_error("row %zu: kind '%s'\n", i, s.kind);
        assert_true(s.gpu_oom);
        assert_string_equal(s.kind, "opencl");
    }
}

/* Guards: Python's own MemoryError stays host memory; PyOpenCL's other
 * errors are no OOM. */
static void test_pyopencl_memory_error_guards(void **state)
{
    (void)state;
    struct seen s = look("numpy.core._exceptions.MemoryError: Unable to allocate 8.00 GiB for an array with "
                         "shape (1024, 1024, 1024) and data type float64\n");
    assert_false(s.gpu_oom);
    assert_string_equal(s.kind, "host-memory-error");
    s = look("pyopencl._cl.LogicError: clSetKernelArg failed: INVALID_ARG_SIZE\n");
    assert_false(s.gpu_oom);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ray_worker_died),
        cmocka_unit_test(test_ray_worker_died_guards),
        cmocka_unit_test(test_verl_init_cache_is_load),
        cmocka_unit_test(test_cuda_launch_out_of_resources),
        cmocka_unit_test(test_cuda_launch_out_of_resources_guards),
        cmocka_unit_test(test_julia_stack_header_cut),
        cmocka_unit_test(test_pyopencl_memory_error),
        cmocka_unit_test(test_pyopencl_memory_error_guards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
