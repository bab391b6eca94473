/* Unit tests for lib/msg: prefixes, cleaning, rules and clause extraction
 * on the message forms diagnose recognises. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

#include <cmocka.h>

#include "lib/msg.h"
#include "lib/scan.h"
#include "scan_fixture.h"

static struct msg_prefix prefix_of(const char *line)
{
    struct msg_prefix px;
    msg_prefix_parse(line, strlen(line), &px);
    return px;
}

static void test_prefixes(void **state)
{
    (void)state;
    const char *r3 = "[rank3]: torch.OutOfMemoryError: CUDA out of memory.";
    struct msg_prefix px = prefix_of(r3);
    assert_int_equal(px.rank, 3);
    assert_string_equal(r3 + px.body, "torch.OutOfMemoryError: CUDA out of memory.");
    px = prefix_of("(VllmWorker rank=1 pid=2978) ERROR 03-19 07:27:53 [multiproc_executor.py:375] "
                   "torch.OutOfMemoryError: x");
    assert_int_equal(px.rank, 1);
    assert_int_equal(px.pid, 2978);
    px = prefix_of("rank:  3 | 2022-04-03 18:44:26,615 CRITICAL | Traceback");
    assert_int_equal(px.rank, 3);
    px = prefix_of("ng30903:3063028:3066152 [3] include/alloc.h:178 NCCL WARN Cuda failure");
    assert_int_equal(px.dev, 3);
    assert_int_equal(px.pid, 3063028);
    assert_int_equal(px.rank, -1);
    const char *l = "gpu-q-13: torch.cuda.OutOfMemoryError: CUDA out of memory.";
    px = prefix_of(l);
    assert_true(px.host != 0);
    assert_string_equal(l + px.body, "torch.cuda.OutOfMemoryError: CUDA out of memory.");
    l = "2022-08-20 23:35:25 | WARNING | metaseq.trainer | OOM: Ran out of memory";
    assert_string_equal(l + prefix_of(l).body, "OOM: Ran out of memory");
    l = "2022-10-25 21:52:08.138224: W external/tsl/framework/bfc_allocator.cc:479] Allocator";
    assert_string_equal(l + prefix_of(l).body, "Allocator");
    l = "[1,5]<stderr>:RuntimeError: CUDA out of memory.";
    assert_int_equal(prefix_of(l).rank, 5);
    /* A bare stamp: its one separating blank goes, the line's indentation
     * stays (a frame's code line under `kubectl logs --timestamps`); a level
     * padded right-aligned (tracing's "Z  INFO") is no indentation. */
    l = "2025-01-01T00:00:00.123Z     loss = model(x)";
    assert_string_equal(l + prefix_of(l).body, "    loss = model(x)");
    l = "2024-05-01T10:00:00.123456Z  INFO text_generation_launcher: Starting shard";
    assert_string_equal(l + prefix_of(l).body, "INFO text_generation_launcher: Starting shard");
    l = "2025-01-01 10:00:00 RuntimeError: CUDA out of memory.";
    assert_string_equal(l + prefix_of(l).body, "RuntimeError: CUDA out of memory.");
    /* the event's text leaves the kept indentation out */
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "2025-01-01T00:00:00.123Z     RuntimeError: CUDA out of memory. Tried to allocate 2.00 "
        "GiB (GPU 0; 15.78 GiB total capacity; 12.00 GiB already allocated)\n", &rep);
    assert_non_null(e);
    assert_true(e->text[0] == 'R');
    oom_report_release(&rep);
    /* An exception name is not a host. */
    l = "RuntimeError: CUDA out of memory.";
    px = prefix_of(l);
    assert_int_equal(px.body, 0);
    assert_int_equal(px.host, 0);
}

/* Serving engines name the process's parallel groups; the rank is known
 * only when one group (TP, or PP) is named (msg.c serving_groups). A name
 * made of groups is the engine's prefix whether or not it gives the rank; a
 * bracket with any other word in it is not. */
static void test_serving_prefixes(void **state)
{
    (void)state;
    static const struct {
        const char *line;
        int rank;
        const char *body;
    } cases[] = {
        {"(Worker_TP2 pid=1234) ERROR 05-01 10:00:00 [core.py:1] torch.OutOfMemoryError: x", 2,
         "torch.OutOfMemoryError: x"},
        {"(Worker_TP3_EP3 pid=9) torch.OutOfMemoryError: x", 3, "torch.OutOfMemoryError: x"},
        {"(Worker_PP1 pid=9) torch.OutOfMemoryError: x", 1, "torch.OutOfMemoryError: x"},
        {"(Worker_PP1_TP2 pid=9) torch.OutOfMemoryError: x", -1, "torch.OutOfMemoryError: x"},
        {"(Worker_DP1_TP0 pid=9) torch.OutOfMemoryError: x", -1, "torch.OutOfMemoryError: x"},
        {"(EngineCore_DP0 pid=9) torch.OutOfMemoryError: x", -1, "torch.OutOfMemoryError: x"},
        {"(Worker_TPx pid=9) torch.OutOfMemoryError: x", -1, "torch.OutOfMemoryError: x"},
        {"[2025-03-05 10:00:00 TP2] Scheduler hit an exception: x", 2,
         "Scheduler hit an exception: x"},
        {"[2025-03-05 10:00:00 TP1 EP1] Scheduler hit an exception: x", 1,
         "Scheduler hit an exception: x"},
        {"[2025-03-05 10:00:00 DP1 TP3] Scheduler hit an exception: x", -1,
         "Scheduler hit an exception: x"},
        {"[2025-03-05 10:00:00 PP0 TP1] Scheduler hit an exception: x", -1,
         "Scheduler hit an exception: x"},
        {"[2025-03-05 10:00:00] Scheduler hit an exception: x", -1,
         "Scheduler hit an exception: x"},
        /* groups without a rank: still the prefix, cut from the body */
        {"[2025-03-05 10:00:00 EP3] Scheduler hit an exception: x", -1,
         "Scheduler hit an exception: x"},
        {"[2025-03-05 10:00:00 ATTN_CP0 TP1] Scheduler hit an exception: x", -1,
         "Scheduler hit an exception: x"},
        {"[2025-03-05 10:00:00 MOE_DP1 TP0] Scheduler hit an exception: x", -1,
         "Scheduler hit an exception: x"},
        /* a group then a word that is none: not the engine's bracket */
        {"[2025-03-05 10:00:00 DP1 GPU0] Scheduler hit an exception: x", -1,
         "DP1 GPU0] Scheduler hit an exception: x"},
        {"[2025-03-05 10:00:00 TP1 X2] Scheduler hit an exception: x", -1,
         "TP1 X2] Scheduler hit an exception: x"},
        /* edges: a group's number is digits ("TP-1" is no group, so the
         * PP stage is not taken for the rank); tensor-parallel size 1
         * names no TP group, and "tp=1" is no engine's word; a group named
         * twice is no engine's name; group words inside a path are not a
         * name of groups */
        {"(Worker_TP-1 pid=9) torch.OutOfMemoryError: x", -1, "torch.OutOfMemoryError: x"},
        {"(Worker_PP1_TP-1 pid=9) torch.OutOfMemoryError: x", -1, "torch.OutOfMemoryError: x"},
        {"(Worker_tp=1 pid=9) torch.OutOfMemoryError: x", -1, "torch.OutOfMemoryError: x"},
        {"(Worker_TP1_TP2 pid=9) torch.OutOfMemoryError: x", -1, "torch.OutOfMemoryError: x"},
        {"(Worker_TP2_TP2 pid=9) torch.OutOfMemoryError: x", -1, "torch.OutOfMemoryError: x"},
        {"[2025-03-05 10:00:00 TP1 TP3] Scheduler hit an exception: x", -1,
         "TP1 TP3] Scheduler hit an exception: x"},
        {"[2025-03-05 10:00:00 PP0 PP1] Scheduler hit an exception: x", -1,
         "PP0 PP1] Scheduler hit an exception: x"},
        {"(Worker_TP2/ckpt pid=9) torch.OutOfMemoryError: x", -1, "torch.OutOfMemoryError: x"},
        {"[2025-03-05 10:00:00 /ckpt/TP2] Scheduler hit an exception: x", -1,
         "/ckpt/TP2] Scheduler hit an exception: x"},
        {"[2025-03-05 10:00:00 CKPT_TP2] Scheduler hit an exception: x", -1,
         "CKPT_TP2] Scheduler hit an exception: x"},
        /* not groups: a word, or a bracket that is no prefix */
        {"TPU] out of memory", -1, "TPU] out of memory"},
        {"E1] out of memory", -1, "E1] out of memory"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct msg_prefix px = prefix_of(cases[i].line);
        if (px.rank != cases[i].rank || strcmp(cases[i].line + px.body, cases[i].body))
            fail_msg("%s: rank %d body '%s'", cases[i].line, px.rank, cases[i].line + px.body);
    }
    /* and through the scan: the event's rank */
    struct oom_report rep;
    const struct oom_event *e = scan_primary(
        "[2025-03-05 10:00:00 TP1] Scheduler hit an exception: Traceback (most recent call last):\n"
        "  File \"/sgl/scheduler.py\", line 10, in run_scheduler_process\n"
        "    scheduler.event_loop_overlap()\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total "
        "capacity of 79.10 GiB of which 1.00 GiB is free.\n", &rep);
    assert_non_null(e);
    assert_int_equal(e->rank, 1);
    oom_report_release(&rep);
    e = scan_primary("(Worker_TP2 pid=77) ERROR 05-01 10:00:00 [multiproc_executor.py:1] "
                     "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 2 "
                     "has a total capacity of 79.10 GiB of which 1.00 GiB is free.\n", &rep);
    assert_non_null(e);
    assert_int_equal(e->rank, 2);
    oom_report_release(&rep);
}

static void test_clean(void **state)
{
    (void)state;
    char out[256];
    const char *s = "\033[31mRuntimeError\033[0m: boom";
    msg_clean(s, strlen(s), SIZE_MAX, out, sizeof out);
    assert_string_equal(out, "RuntimeError: boom");
    s = " 10%|#  | 1/10\r 20%|## | 2/10\rTraceback (most recent call last):\r";
    msg_clean(s, strlen(s), SIZE_MAX, out, sizeof out);
    assert_string_equal(out, "Traceback (most recent call last):");
    s = "CUDA out of memory. Tried\r 10%|";
    msg_clean(s, strlen(s), 3, out, sizeof out);
    assert_string_equal(out, "CUDA out of memory. Tried");
    msg_clean(s, strlen(s), SIZE_MAX, out, 5);
    assert_int_equal(strlen(out), 4);
}

static struct oom_event extract(const char *text)
{
    struct oom_event ev;
    oom_event_init(&ev);
    const struct msg_rule *r = msg_classify(text, strlen(text));
    if (r) {
        ev.kind = r->kind;
        ev.gpu_oom = r->gpu_oom;
        msg_extract(r, text, strlen(text), &ev);
    }
    return ev;
}

/* A figure a rule reads both on its message's own line and on the lines
 * near it is one row (near_own_line), not a clause table restating the
 * near table: no rule's clauses are all rows of its own near table
 * (exactfig; the XGBoost rule held the same six rows twice). NCCL's
 * clauses overlap its near rows only in part: they are shared with the
 * detail rule and read one wording more. */
static bool near_has(const struct msg_near *near, const struct msg_clause *c)
{
    for (const struct msg_near *nc = near; nc && nc->pattern; nc++)
        if (c->field == nc->field && !strcmp(c->pattern, nc->pattern)) return true;
    return false;
}

static void test_near_rows_not_repeated_as_clauses(void **state)
{
    (void)state;
    for (size_t i = 0; i < msg_rules_count(); i++) {
        const struct msg_rule *r = msg_rule_at(i);
        if (!r->clauses || !r->clauses[0].pattern) continue;
        bool all = true;
        for (const struct msg_clause *c = r->clauses; c->pattern && all; c++)
            all = near_has(r->near, c);
        if (all) fail_msg("rule %s: its clauses restate its near rows (near_own_line)", r->kind);
    }
    /* ... and the XGBoost rule still reads its figures on its own line
     * (a JSON log's "\n" escapes), through its near rows */
    const char *line = "xgboost.core.XGBoostError: [10:00:00] device_helpers.cu:44: Memory "
                       "allocation error on worker 0: std::bad_alloc\\n- Free memory: 1.50GB\\n"
                       "- Requested memory: 2.00GB\\n";
    const struct msg_rule *r = msg_classify(line, strlen(line));
    assert_non_null(r);
    assert_string_equal(r->kind, "xgboost");
    assert_true(msg_rule_reads_own_line(r));
    struct oom_event e = extract(line);
    assert_int_equal(e.bytes.requested, 2147483648);
    assert_int_equal(e.bytes.free, 1610612736);
}

/* tinygrad's row reads what Allocator.alloc prints ("Allocation of
 * {size} failed on {device}. Used: ...", tinygrad/tinygrad:tinygrad/
 * device.py@0000f37e): a size after "Allocation of", the device and then
 * "." or ":N"; other words around "Allocation of" and "failed on GPU" are
 * not tinygrad's (exactfig). */
static void test_tinygrad_row_is_its_message(void **state)
{
    (void)state;
    static const char *const yes[] = {
        "MemoryError: Allocation of 2.00 GB failed on CUDA. Used: 21.50 GB",
        "MemoryError: Allocation of 512.00 MB failed on AMD:1. Used: 15.00 GB",
        "Allocation of 8.00 GB failed on NV", /* a title cut after the device */
    };
    static const char *const no[] = {
        "Allocation of pinned host memory failed on GPU worker 3",
        "Allocation of 2.00 GB failed on GPU worker 3",
        "Allocation of pinned host memory failed on GPU.",
    };
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        const struct msg_rule *r = msg_classify(yes[i], strlen(yes[i]));
        if (!r || strcmp(r->kind, "tinygrad")) fail_msg("not tinygrad: %s", yes[i]);
    }
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        const struct msg_rule *r = msg_classify(no[i], strlen(no[i]));
        if (r && !strcmp(r->kind, "tinygrad")) fail_msg("tinygrad: %s", no[i]);
    }
    struct oom_event e = extract(yes[1]);
    assert_int_equal(e.bytes.requested, 536870912);
    assert_int_equal(e.gpu, 1);
    /* one clause ("failed on %w:%d") gives the index after any device the
     * rule takes, not only after the five it once listed */
    static const struct {
        const char *line;
        int gpu;
    } devices[] = {
        {"MemoryError: Allocation of 2.00 GB failed on CUDA:0. Used: 1.00 GB", 0},
        {"MemoryError: Allocation of 2.00 GB failed on NV:2. Used: 1.00 GB", 2},
        {"MemoryError: Allocation of 2.00 GB failed on GPU:3. Used: 1.00 GB", 3},
        {"MemoryError: Allocation of 2.00 GB failed on CL:1. Used: 1.00 GB", 1},
        {"MemoryError: Allocation of 2.00 GB failed on METAL:1. Used: 1.00 GB", 1},
        {"MemoryError: Allocation of 2.00 GB failed on HIP:5. Used: 1.00 GB", 5},
        {"MemoryError: Allocation of 2.00 GB failed on QCOM:1. Used: 1.00 GB", 1},
        {"MemoryError: Allocation of 2.00 GB failed on WEBGPU:1. Used: 1.00 GB", 1},
        {"MemoryError: Allocation of 2.00 GB failed on CUDA. Used: 1.00 GB", -1},
    };
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++) {
        e = extract(devices[i].line);
        if (e.gpu != devices[i].gpu) fail_msg("%s: gpu %d", devices[i].line, e.gpu);
    }
    /* %w is a word in capitals, whole */
    oom_event_init(&e);
    const char *t = "failed on Cuda:1";
    assert_false(msg_apply("failed on %w:%d", MSG_F_GPU, t, strlen(t), &e));
    t = "failed on CUDA2:1";
    assert_false(msg_apply("failed on %w:%d", MSG_F_GPU, t, strlen(t), &e));
    t = "failed on :1";
    assert_false(msg_apply("failed on %w:%d", MSG_F_GPU, t, strlen(t), &e));
    /* bounded: 16 capitals are a name, 17 are not read on */
    t = "failed on ABCDEFGHIJKLMNOP:3";
    assert_true(msg_apply("failed on %w:%d", MSG_F_GPU, t, strlen(t), &e));
    assert_int_equal(e.gpu, 3);
    oom_event_init(&e);
    t = "failed on ABCDEFGHIJKLMNOPQ:3";
    assert_false(msg_apply("failed on %w:%d", MSG_F_GPU, t, strlen(t), &e));
}

/* One event told in two parts, each stating the same figure: the exact one
 * stands, not the one rounded from it (exactfig). PyTorch's allocator
 * warning gives the request in bytes, the OutOfMemoryError after it the
 * same request rounded to "3.38 GiB" (3629247365); the event keeps
 * 3630170112. A figure that disagrees beyond the rounding stays the
 * error's. The same for XLA's message and its allocator's line. */
static void scan_requested(const char *text, int64_t *requested, int64_t *free_bytes)
{
    struct oom_report rep;
    struct oomlab_err err;
    assert_int_equal(scan_text(text, strlen(text), &rep, &err), 0);
    assert_int_equal(rep.n_events, 1);
    *requested = rep.events[0].bytes.requested;
    *free_bytes = rep.events[0].bytes.free;
    oom_report_release(&rep);
}

static void test_exact_figure_wins_in_one_event(void **state)
{
    (void)state;
    int64_t req, fr;
    scan_requested("[W1207 08:00:00.000000000 CUDACachingAllocator.cpp:1234] Warning: memory "
                   "allocation failed with OOM on device 0 while trying to allocate 3630170112 "
                   "bytes (free: 1073741824, total: 25769803776)\n"
                   "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.38 GiB. GPU 0 "
                   "has a total capacity of 24.00 GiB of which 1.00 GiB is free. Including "
                   "non-PyTorch memory, this process has 22.99 GiB memory in use. Of the "
                   "allocated memory 20.50 GiB is allocated by PyTorch, and 1.20 GiB is reserved "
                   "by PyTorch but unallocated.\n",
                   &req, &fr);
    assert_int_equal(req, 3630170112);
    assert_int_equal(fr, 1073741824);
    /* 3.40 GiB is not 3630170112 rounded: the error's own figure stands */
    scan_requested("[W1207 08:00:00.000000000 CUDACachingAllocator.cpp:1234] Warning: memory "
                   "allocation failed with OOM on device 0 while trying to allocate 3630170112 "
                   "bytes (free: 1073741824, total: 25769803776)\n"
                   "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.40 GiB. GPU 0 "
                   "has a total capacity of 24.00 GiB of which 1.00 GiB is free.\n",
                   &req, &fr);
    assert_int_equal(req, 3650722202);
    /* not only PyTorch's: XLA's error rounded, its BFC allocator's line
     * after it with the exact size (jax-ml/jax#27354's "(rounded to N)") */
    scan_requested("jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory "
                   "while trying to allocate 1.17GiB.\n"
                   "2026-01-01 10:00:00.000000: W external/xla/xla/tsl/framework/"
                   "bfc_allocator.cc:482] Allocator (GPU_0_bfc) ran out of memory trying to "
                   "allocate 1.17GiB (rounded to 1258291200)requested by op\n",
                   &req, &fr);
    assert_int_equal(req, 1258291200);
    /* TensorFlow's request from the tensor's shape x dtype is exact too
     * (1024*1024*300 floats = 1258291200 bytes): it wins over the BFC
     * allocator's "1.17GiB" (1256277934) in either order */
    static const char bfc[] = "2026-01-01 10:00:00.000000: W tensorflow/core/common_runtime/"
                              "bfc_allocator.cc:275] Allocator (GPU_0_bfc) ran out of memory trying "
                              "to allocate 1.17GiB.  Current allocation summary follows.\n";
    static const char tf[] = "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when "
                             "allocating tensor with shape[1024,1024,300] and type float on "
                             "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n";
    char text[sizeof bfc + sizeof tf];
    snprintf(text, sizeof text, "%s%s", bfc, tf);
    scan_requested(text, &req, &fr);
    assert_int_equal(req, 1258291200);
    snprintf(text, sizeof text, "%s%s", tf, bfc);
    scan_requested(text, &req, &fr);
    assert_int_equal(req, 1258291200);
    /* the message without its type first takes the BFC's rounded
     * "16.00MiB" (16777216); its repeat with the type gives 1024*4097
     * floats, 16781312 bytes, exact: that stands in the one event, and the
     * event says its request came from the shape */
    struct oom_report rep;
    struct oomlab_err err;
    static const char again[] =
        "2026-01-01 10:00:00.000000: W tensorflow/core/common_runtime/bfc_allocator.cc:275] "
        "Allocator (GPU_0_bfc) ran out of memory trying to allocate 16.00MiB.  Current allocation "
        "summary follows.\n"
        "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor "
        "with shape[1024,4097]\n"
        "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor "
        "with shape[1024,4097] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by "
        "allocator GPU_0_bfc\n";
    assert_int_equal(scan_text(again, sizeof again - 1, &rep, &err), 0);
    assert_int_equal(rep.n_events, 1);
    assert_int_equal(rep.events[0].bytes.requested, 16781312);
    assert_true(rep.events[0].requested_from_shape);
    oom_report_release(&rep);
    /* a type read from a node's attributes may be another message's tensor
     * (the node below the Coordinator's message, TF 1.x glog, as heldout8
     * h8-08): the repeat that borrowed it is no exact figure, the stated
     * 16.00MiB stays */
    static const char borrowed[] =
        "W tensorflow/core/common_runtime/bfc_allocator.cc:275] Ran out of memory trying to allocate "
        "16.00MiB.  See logs for memory state.\n"
        "W tensorflow/core/framework/op_kernel.cc:975] Resource exhausted: OOM when allocating tensor "
        "with shape[1024,4097]\n"
        "W tensorflow/core/common_runtime/bfc_allocator.cc:275] Ran out of memory trying to allocate "
        "16.00MiB.  See logs for memory state.\n"
        "W tensorflow/core/framework/op_kernel.cc:975] Resource exhausted: OOM when allocating tensor "
        "with shape[1024,4097]\n"
        "INFO:tensorflow:Error reported to Coordinator: <class 'tensorflow.python.framework.errors_impl."
        "ResourceExhaustedError'>, OOM when allocating tensor with shape[64,1000]\n"
        "   [[Node: dense/BiasAdd = BiasAdd[T=DT_FLOAT, data_format=\"NHWC\", "
        "_device=\"/job:localhost/replica:0/task:0/gpu:0\"](dense/MatMul, dense/bias/read)]]\n";
    assert_int_equal(scan_text(borrowed, sizeof borrowed - 1, &rep, &err), 0);
    assert_int_equal(rep.n_events, 2);
    assert_int_equal(rep.events[0].bytes.requested, 16777216);
    assert_int_equal(rep.events[1].bytes.requested, 256000);
    oom_report_release(&rep);
}

static void test_pytorch_forms(void **state)
{
    (void)state;
    struct oom_event e = extract("RuntimeError: CUDA out of memory. Tried to allocate 26.00 MiB "
                                 "(GPU 0; 1024.00 MiB total capacity; 435.61 MiB already allocated; "
                                 "24.17 MiB free; 26.39 MiB cached)");
    assert_string_equal(e.kind, "pytorch-old");
    assert_int_equal(e.bytes.requested, 27262976);
    assert_int_equal(e.bytes.capacity, 1073741824);
    assert_int_equal(e.bytes.reserved, 27671921);
    assert_int_equal(e.bytes.reserved_unallocated, -1);
    e = extract("torch.OutOfMemoryError: HIP out of memory. Tried to allocate 2.00 MiB. GPU 0 has a "
                "total capacity of 287.98 GiB of which 275.86 GiB is free. 1.05 GiB allowed; Of the "
                "allocated memory 1017.01 MiB is allocated by PyTorch, with 17.00 MiB allocated in "
                "private pools (e.g., HIP Graphs), and 54.99 MiB is reserved by PyTorch but "
                "unallocated.");
    assert_string_equal(e.kind, "pytorch-new");
    assert_int_equal(e.bytes.allowed, 1127428915);
    assert_int_equal(e.bytes.private_pools, 17825792);
    assert_int_equal(e.bytes.process_in_use, -1);
    assert_int_equal(e.bytes.reserved_unallocated, 57661194);
    e = extract("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 2 has a "
                "total capacty of 80.00 GiB of which 10.00 MiB is free. Process 11 has 40.00 GiB "
                "memory in use. Process 12 has 39.00 GiB memory in use. Of the allocated memory 0 "
                "bytes is allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated.");
    assert_int_equal(e.gpu, 2);
    assert_int_equal(e.n_procs, 2);
    assert_int_equal(e.procs[1].pid, 12);
    assert_int_equal(e.procs[1].bytes, 39LL << 30);
    assert_int_equal(e.bytes.allocated, 0); /* stated as 0 bytes: 0, not unknown */
    e = extract("RuntimeError: MPS backend out of memory (MPS allocated: 5.50 GB, other allocations: "
                "14.76 GB, max allowed: 20.40 GB). Tried to allocate 147.24 MB on private pool.");
    assert_string_equal(e.kind, "pytorch-mps");
    assert_int_equal(e.bytes.requested, 154392330);
    assert_int_equal(e.bytes.capacity, -1);
    assert_int_equal(e.bytes.allowed, 21904333210);
}

static void test_other_frameworks(void **state)
{
    (void)state;
    struct oom_event e = extract("ResourceExhaustedError: OOM when allocating tensor with "
                                 "shape[32,12,512,512] and type half on /job:localhost/replica:0/"
                                 "task:0/device:GPU:1 by allocator GPU_1_bfc");
    assert_string_equal(e.kind, "tensorflow");
    assert_int_equal(e.bytes.requested, 32LL * 12 * 512 * 512 * 2);
    assert_true(e.requested_from_shape);
    assert_true(e.attention_shape);
    assert_int_equal(e.gpu, 1);
    e = extract("jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Failed to allocate "
                "request for 1.00GiB (1073741823B) on device ordinal 3");
    assert_string_equal(e.kind, "jax");
    assert_int_equal(e.bytes.requested, 1073741823);
    assert_int_equal(e.gpu, 3);
    e = extract("RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`");
    assert_string_equal(e.kind, "cublas");
    assert_true(e.gpu_oom);
    e = extract("ng1:2:3 [3] include/alloc.h:178 NCCL WARN Cuda failure 'out of memory'");
    assert_string_equal(e.kind, "nccl-oom");
    /* Look-alikes: events, but not GPU OOMs. */
    const char *nots[] = {
        "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 1, Hardware limit: 0.",
        "Allocator (GPU_0_bfc) ran out of memory trying to allocate 45.53MiB with freed_by_count=0. The caller indicates that this is not a failure",
        "RuntimeError: DataLoader worker (pid 19597) is killed by signal: Killed.",
        "RuntimeError: [enforce fail at alloc_cpu.cpp:72] data. DefaultCPUAllocator: not enough memory: you tried to allocate 26214400 bytes.",
        "[Fri Nov 21 11:02:53 2026] Out of memory: Killed process 88214 (python)",
        "./run.sh: line 14: 88214 Killed                  python train.py",
        "[rank7]: torch.distributed.DistBackendError: NCCL error in: NCCLUtils.hpp:275, unhandled cuda error",
        "MemoryError: Unable to allocate 1.00 GiB for an array with shape (134217728,) and data type float64",
    };
    for (size_t i = 0; i < sizeof nots / sizeof nots[0]; i++) {
        const struct msg_rule *r = msg_classify(nots[i], strlen(nots[i]));
        assert_non_null(r);
        assert_false(r->gpu_oom);
    }
    e = extract(nots[1]);
    assert_int_equal(e.bytes.requested, 47741665);
    e = extract(nots[7]);
    assert_int_equal(e.bytes.requested, 1LL << 30);
    /* Not a message at all. */
    assert_null(msg_classify("Process finished with exit code 0", 33));
    /* The class name alone is the only OOM text of some real pastes (an
     * issue title "[Bug]: torch.OutOfMemoryError", A1111's "loading stable
     * diffusion model: OutOfMemoryError"; corpus-heldout13 h13-56, h13-11):
     * a message since 2026-12-05 (diagload). Code that catches it is not. */
    static const char *const bare_class[] = {"torch.OutOfMemoryError",
                                             "loading stable diffusion model: OutOfMemoryError"};
    for (size_t i = 0; i < 2; i++) {
        const struct msg_rule *r = msg_classify(bare_class[i], strlen(bare_class[i]));
        assert_non_null(r);
        assert_true(r->gpu_oom);
    }
    assert_null(msg_classify("except (RuntimeError, torch.cuda.OutOfMemoryError) as e:", 56));
    assert_null(msg_classify("    except torch.cuda.OutOfMemoryError:", 39));
    /* The exception raised with another text, or IPython's header alone. */
    static const char *const class_only[] = {
        "torch.OutOfMemoryError: Allocation on device ",
        "OutOfMemoryError                          Traceback (most recent call last)",
        "RuntimeError: CUDA out of", /* a paste cut there */
    };
    assert_null(msg_classify("RuntimeError: CUDA out of  memory", 33)); /* binary noise */
    assert_null(msg_classify("torch.OutOfMemoryError: Caught OutOfMemoryError in pin memory "
                             "thread for device 0.", 82));
    for (size_t i = 0; i < 3; i++) {
        const struct msg_rule *r = msg_classify(class_only[i], strlen(class_only[i]));
        assert_non_null(r);
        assert_true(r->gpu_oom);
    }
}

static void test_patterns(void **state)
{
    (void)state;
    struct oom_event e;
    oom_event_init(&e);
    /* Word start: "InUse:" must not match inside "MaxInUse:". */
    assert_false(msg_apply("InUse: %d", MSG_F_ALLOCATED, "MaxInUse: 7464792320", 20, &e));
    assert_true(msg_apply("InUse: %d", MSG_F_ALLOCATED, "InUse:     7350513920", 21, &e));
    assert_int_equal(e.bytes.allocated, 7350513920);
    /* Blanks in a pattern match any run, including none. */
    oom_event_init(&e);
    assert_true(msg_apply("rank : %d", MSG_F_RANK, "  rank      : 4 (local_rank: 0)", 31, &e));
    assert_int_equal(e.rank, 4);
    /* An absurd size saturates instead of wrapping. */
    oom_event_init(&e);
    const char *t = "Tried to allocate 99999999999999999999 GiB";
    assert_true(msg_apply("Tried to allocate %s", MSG_F_REQUESTED, t, strlen(t), &e));
    assert_int_equal(e.bytes.requested, INT64_MAX);
    /* A shape whose product overflows leaves the request unknown. */
    oom_event_init(&e);
    t = "shape[4294967296,4294967296,8] and type float";
    msg_apply("shape%S and type %t", MSG_F_SHAPE, t, strlen(t), &e);
    assert_int_equal(e.bytes.requested, -1);
    assert_int_equal(msg_dtype_size("bfloat16", 8), 2);
    assert_int_equal(msg_dtype_size("quux", 4), 0);
}

/* A line made of the rule's own strings: every need[] string, then any[i]. */
static size_t rule_text(const struct msg_rule *r, size_t any, bool sentence, char *buf, size_t cap)
{
    size_t n = 0;
    if (r->qualifier[0]) n += (size_t)snprintf(buf, cap, "%s ", r->qualifier[0]);
    /* a rule with a shape: the shape's words, a figure for each placeholder */
    for (const char *p = r->shape; p && *p && n + 8 < cap; p++) {
        if (*p == '%' && p[1] == '%') { /* "%%" is a literal '%' ("exceeded %i%% memory budget") */
            buf[n++] = *++p;
        } else if (*p == '%' && p[1]) {
            p++;
            n += (size_t)snprintf(buf + n, cap - n, "%s", *p == 's' || *p == 'z' || *p == 'u' ? "1 GB" : "1");
        } else {
            buf[n++] = *p;
        }
    }
    if (r->shape && n + 1 < cap) buf[n++] = ' '; /* a unit is a whole word: "1 GB", not "1 GBInvalid" */
    for (size_t i = 0; i < 3 && r->need[i]; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s\t1 ", r->need[i]);
    if (r->any[0]) {
        size_t at = n;
        n += (size_t)snprintf(buf + n, cap - n, "%s", r->any[any]);
        if (sentence) buf[at] = (char)toupper((unsigned char)buf[at]); /* its sentence form */
    }
    /* a rule that also needs what ran short near it ("not enough GPU memory") */
    if (r->also[0]) n += (size_t)snprintf(buf + n, cap - n, " %s", r->also[0]);
    n += (size_t)snprintf(buf + n, cap - n, "\n");
    return n;
}

static bool anchored(const char *text)
{
    const char *a[MSG_ANCHORS_MAX];
    size_t n = msg_anchors_build(a, MSG_ANCHORS_MAX);
    for (size_t i = 0; i < n; i++)
        if (strstr(text, a[i])) return true;
    return false;
}

/* Every rule fires: for each of its strings (and a sentence_case rule's
 * strings in capitals), the hot scan finds the line (an anchor hits) and
 * the rule, or a more specific one before it, takes it.
 * Before the anchors were derived from the rules, hipErrorOutOfMemory,
 * oom_reaper, ncclSystemError, ncclUnhandledCudaError and dmesg oom-kill
 * lines gave "no OOM found". */
static void test_every_rule_fires(void **state)
{
    (void)state;
    size_t nr = msg_rules_count();
    assert_true(nr > 20);
    for (size_t k = 0; k < nr; k++) {
        const struct msg_rule *r = msg_rule_at(k);
        size_t forms = 0;
        while (forms < MSG_ANY_MAX && r->any[forms]) forms++;
        for (size_t f = 0; f < 2 * (forms ? forms : 1); f++) {
            bool sentence = f % 2;
            const char *lit = r->any[0] ? r->any[f / 2] : "";
            if (sentence && !(r->sentence_case && islower((unsigned char)lit[0]))) continue;
            char text[512];
            size_t n = rule_text(r, f / 2, sentence, text, sizeof text);
            if (!anchored(text))
                fail_msg("rule %s (form %zu): no anchor finds: %s", r->kind, f, text);
            const struct msg_rule *got = msg_classify(text, n);
            assert_non_null(got);
            size_t at = 0;
            while (msg_rule_at(at) != got) at++;
            if (at > k) fail_msg("rule %zu (%s) lost its text to a later rule %s", k, r->kind,
                                 got->kind);
            struct oom_report rep;
            struct oomlab_err err;
            assert_int_equal(scan_text(text, n, &rep, &err), 0);
            /* an OOM named only in words is an event only above a
             * traceback or with its device (test_diagnose_recog); host
             * memory named in words makes no event of its own */
            bool seen = rep.expandable_set || rep.n_events > 0 || r->role == MSG_MENTION ||
                        r->role == MSG_HOST_WORDS;
            if (!seen) fail_msg("rule %s (form %zu): the scan found nothing in: %s", r->kind, f / 2,
                                text);
            if (rep.n_events) assert_string_equal(rep.events[0].kind, got->kind);
            oom_report_release(&rep);
        }
    }
}

static void test_issue10_rules_fire(void **state)
{
    (void)state;
    static const struct { const char *line, *kind; bool oom; } cases[] = {
        {"RuntimeError: HIP error: hipErrorOutOfMemory\n", "cuda-error", true},
        {"[2059991.491436] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null)\n",
         "host-oom-killer", false},
        {"[ 518.053407] oom_reaper: reaped process 15784 (python3), now anon-rss:0kB\n",
         "host-oom-killer", false},
        {"RuntimeError: NCCL Error 2: ncclSystemError: System call failed\n", "nccl-error",
         false},
        {"torch.distributed.DistBackendError: ncclUnhandledCudaError: Call to CUDA function "
         "failed.\n", "nccl-error", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct oom_report rep;
        scan_log(cases[i].line, &rep);
        assert_int_equal(rep.n_events, 1);
        assert_string_equal(rep.events[0].kind, cases[i].kind);
        assert_int_equal(rep.events[0].gpu_oom, cases[i].oom);
        oom_report_release(&rep);
    }
}

/* Anchors: none is a substring of another (the shorter finds both), and
 * each is a string of some rule. */
static void test_anchors_minimal(void **state)
{
    (void)state;
    /* built with room to spare: the rules must need fewer than the scan's
     * table holds, or the anchors past it would be dropped silently (two
     * branches that each stayed under the old 192 made 193 together) */
    const char *a[2 * MSG_ANCHORS_MAX];
    size_t n = msg_anchors_build(a, 2 * MSG_ANCHORS_MAX);
    assert_true(n > 10 && n < MSG_ANCHORS_MAX);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (i != j && strstr(a[i], a[j])) fail_msg("anchor '%s' covers '%s'", a[j], a[i]);
}

/* TF 1.x prints a TensorShape as protobuf text: "shape dim { size: 10 } dim
 * { size: 10 }" (the placeholder error asserted in tensorflow's own
 * tests); the dims are read like "shape[10,10]". */
static void test_protobuf_shape(void **state)
{
    (void)state;
    struct oom_event e;
    oom_event_init(&e);
    const char *t = "with dtype float and shape dim { size: 10 } dim { size: 10 }";
    assert_true(msg_apply("shape %S", MSG_F_SHAPE, t, strlen(t), &e));
    assert_int_equal(e.shape_rank, 2);
    assert_int_equal(e.shape[0], 10);
    assert_int_equal(e.shape[1], 10);
    oom_event_init(&e);
    t = "shape dim { size: 563354 } and type float";
    assert_true(msg_apply("shape %S and type %t", MSG_F_SHAPE, t, strlen(t), &e));
    assert_int_equal(e.shape_rank, 1);
    assert_int_equal(e.shape[0], 563354);
    oom_event_init(&e);
    t = "shape dim { size: x }";
    assert_false(msg_apply("shape %S", MSG_F_SHAPE, t, strlen(t), &e));
}

int main(int argc, char **argv)
{
    /* bench/diagnose greps for the same anchors: print them, one a line. */
    if (argc == 2 && !strcmp(argv[1], "--anchors")) {
        const char *a[MSG_ANCHORS_MAX];
        size_t n = msg_anchors_build(a, MSG_ANCHORS_MAX);
        for (size_t i = 0; i < n; i++) printf("%s\n", a[i]);
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prefixes),      cmocka_unit_test(test_clean),
        cmocka_unit_test(test_serving_prefixes),
        cmocka_unit_test(test_pytorch_forms), cmocka_unit_test(test_other_frameworks),
        cmocka_unit_test(test_near_rows_not_repeated_as_clauses),
        cmocka_unit_test(test_tinygrad_row_is_its_message),
        cmocka_unit_test(test_exact_figure_wins_in_one_event),
        cmocka_unit_test(test_patterns), cmocka_unit_test(test_protobuf_shape),      cmocka_unit_test(test_every_rule_fires),
        cmocka_unit_test(test_issue10_rules_fire), cmocka_unit_test(test_anchors_minimal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
