/* Unit tests for lib/snapshot on the fixtures tests/snapshot/gen_snapshot.py
 * writes in PyTorch's own structure (2.1+ and 2.0 block history, a bare
 * segment list, two devices): totals, pools, the OOM against the largest
 * free block, stacks with user frames first, the trace's peak, leak
 * candidates, growth between two snapshots. The figures follow from the
 * generator's scenario: 3 x 13.5 GiB weights/AdamW segments, 120 x 20 MiB
 * activation segments (12 MiB live, 8 MiB free), one 2 MiB small-pool
 * segment with a 512-byte leak per step, an OOM of 2 GiB with 1126 MiB free. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/snapshot.h"

#define MiB (1024LL * 1024)

static struct snapshot snap, other;

static void load_file(const char *path, struct snapshot *s)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char data[1 << 20];
    size_t n = fread(data, 1, sizeof data, f);
    fclose(f);
    static struct pickle_buf b;
    b = (struct pickle_buf){(const unsigned char *)data, n, 0};
    struct pickle_opts o = {.read = pickle_buf_read, .rewind = pickle_buf_rewind, .src = &b};
    struct oomlab_err err = {{0}};
    if (snapshot_load(s, &o, &err) < 0) fail_msg("%s: %s", path, err.msg);
}

static const char adam[] = "/work/train.py:81 train_step\n/work/train.py:101 main\n"
                           "/work/train.py:120 <module>";
static const char leak[] = "/work/train.py:57 train_step\n/work/train.py:101 main\n"
                           "/work/train.py:120 <module>";

static void check_training_run(const struct snapshot *s, int dev, long steps)
{
    const struct snap_device *d = &s->dev[dev];
    assert_true(d->present);
    assert_int_equal(d->reserved, (3 * 13824 + 120 * 20 + 2) * MiB);
    assert_int_equal(d->allocated, (3 * 13824 + 120 * 12) * MiB + 512 * steps);
    assert_int_equal(d->segments, 124);
    assert_int_equal(d->largest_free, 8 * MiB);
    assert_int_equal(d->cached_free, 120 * 8 * MiB + 2 * MiB - 512 * steps);
    assert_int_equal(d->n_pools, 2);
    assert_string_equal(d->pools[0].name, "large");
    assert_string_equal(d->pools[1].name, "small");
    assert_int_equal(d->pools[1].allocated, 512 * steps);
    assert_int_equal(d->classes[0].segments, 1);
    assert_int_equal(d->classes[1].segments, 120);
    assert_int_equal(d->classes[4].segments, 3);
    struct snap_group top[8];
    size_t n = snapshot_top(s, dev, top, 8);
    assert_int_equal(n, 4);
    assert_string_equal(snapshot_stack(s, top[0].stack), adam); /* user frames first */
    assert_int_equal(snapshot_stack_library(s, top[0].stack), 2);
    assert_int_equal(top[0].bytes, 2 * 13824 * MiB);
    assert_int_equal(top[0].count, 2);
    assert_int_equal(top[2].count, 120);
    assert_string_equal(snapshot_stack(s, top[3].stack), leak);
    assert_int_equal(top[3].count, steps);
    /* the trace: 4 entries a step (+ the leak's alloc) and the OOM */
    assert_true(d->has_trace);
    assert_int_equal(d->n_leaks, 1);
    assert_string_equal(snapshot_stack(s, d->leaks[0].stack), leak);
    assert_int_equal(d->leaks[0].alive, steps);
    assert_int_equal(d->leaks[0].bytes, 512 * steps);
    /* peak: the baseline (allocated minus the leak the trace added) plus
     * the last step's 20 MiB activation and every leaked block: its third
     * entry (segment_alloc, alloc, the leak's alloc) */
    assert_int_equal(snapshot_trace_peak(d), d->allocated + 20 * MiB);
    assert_int_equal(d->peak_index, 5 * steps - 3);
}

static void test_oom_snapshot(void **state)
{
    (void)state;
    load_file("tests/snapshot/oom.pickle", &snap);
    assert_string_equal(snap.format, "2.1+");
    check_training_run(&snap, 0, 30);
    const struct snap_device *d = &snap.dev[0];
    assert_true(d->has_oom);
    assert_int_equal(d->oom_requested, 2048 * MiB);
    assert_int_equal(d->oom_device_free, 1126 * MiB);
    assert_int_equal(d->oom_index, 150);
    assert_int_equal(d->trace_entries, 151);
    assert_string_equal(snapshot_stack(&snap, d->oom_stack),
                        "/work/train.py:80 train_step\n/work/train.py:101 main");
    assert_int_equal(snapshot_stack_library(&snap, d->oom_stack), 3); /* C++ and torch frames */
    assert_non_null(strstr(snap.settings, "expandable_segments=False\n"));
    assert_non_null(strstr(snap.settings, "max_split_size=-1\n"));
    assert_false(snap.dev[1].present);
    assert_int_equal(snap.bad_entries, 0);
    snapshot_release(&snap);
}

static void test_formats(void **state)
{
    (void)state;
    load_file("tests/snapshot/history-2.0.pickle", &snap); /* protocol 2, BINPUT/BINGET */
    assert_string_equal(snap.format, "2.0 (block history)");
    check_training_run(&snap, 0, 30);
    assert_int_equal(snap.dev[0].peak_time_us, -1); /* 2.0 has no time_us: unknown, not 0 */
    assert_null(snap.settings);
    snapshot_release(&snap);
    load_file("tests/snapshot/segment-list.pickle", &snap);
    assert_string_equal(snap.format, "segment list");
    assert_int_equal(snap.dev[0].segments, 124);
    assert_false(snap.dev[0].has_trace);
    assert_int_equal(snapshot_trace_peak(&snap.dev[0]), -1);
    snapshot_release(&snap);
    load_file("tests/snapshot/two-devices.pickle", &snap);
    check_training_run(&snap, 0, 5);
    check_training_run(&snap, 1, 12);
    assert_false(snap.dev[0].has_oom);
    assert_true(snap.dev[1].has_oom);
    snapshot_release(&snap);
}

static void test_growth(void **state)
{
    (void)state;
    load_file("tests/snapshot/before.pickle", &snap);
    load_file("tests/snapshot/after.pickle", &other);
    struct snap_growth *g = NULL;
    long n = snapshot_growth(&snap, &other, &g);
    assert_int_equal(n, 1); /* only the leak changed */
    assert_string_equal(g[0].stack, leak);
    assert_int_equal(g[0].after - g[0].before, 30 * 512);
    assert_int_equal(g[0].before_count, 10);
    assert_int_equal(g[0].after_count, 40);
    free(g);
    n = snapshot_growth(&other, &snap, &g); /* the other way it shrank */
    assert_int_equal(n, 1);
    assert_int_equal(g[0].after - g[0].before, -30 * 512);
    free(g);
    snapshot_release(&snap);
    snapshot_release(&other);
}

static void expect_error(const char *path, const char *want)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char data[1 << 16];
    size_t n = fread(data, 1, sizeof data, f);
    fclose(f);
    struct pickle_buf b = {(const unsigned char *)data, n, 0};
    struct pickle_opts o = {.read = pickle_buf_read, .rewind = pickle_buf_rewind, .src = &b};
    struct oomlab_err err = {{0}};
    assert_int_equal(snapshot_load(&snap, &o, &err), -1);
    if (!strstr(err.msg, want)) fail_msg("%s: '%s' lacks '%s'", path, err.msg, want);
    assert_int_equal(snap.n_stacks, 0);
}

static void test_not_snapshots(void **state)
{
    (void)state;
    expect_error("tests/snapshot/not-a-snapshot.pickle", "not a memory snapshot");
    expect_error("tests/snapshot/reduce.pickle", "refused");
    expect_error("tests/snapshot/global.pickle", "GLOBAL");
    expect_error("tests/snapshot/truncated.pickle", "truncated");
    expect_error("tests/snapshot/deep.pickle", "nested deeper");
    expect_error("tests/snapshot/huge-length.pickle", "memory limit");
    expect_error("tests/snapshot/unknown-opcode.pickle", "unknown opcode");
    expect_error("tests/snapshot/memo-unset.pickle", "before it is stored");
    expect_error("tests/snapshot/protocol0.pickle", "protocol 2 or later");
    expect_error("tests/snapshot/empty.pickle", "truncated");
    /* torch.save instead of _dump_snapshot: said so, with what to run */
    expect_error("tests/snapshot/torch-save.pt", "torch.save");
    expect_error("tests/snapshot/torch-save-legacy.pt", "torch.save");
}

/* Sizes whose sums pass 2^63 (three 2^62-byte segments, blocks and trace
 * allocations) are held at INT64_MAX: no signed overflow, and the largest
 * free block stays within the cached free bytes. */
static void test_sums_past_int64(void **state)
{
    (void)state;
    load_file("tests/snapshot/past-int64.pickle", &snap);
    const struct snap_device *d = &snap.dev[0];
    assert_int_equal(d->segments, 3);
    assert_true(d->reserved == INT64_MAX && d->allocated == INT64_MAX && d->active == INT64_MAX);
    assert_true(d->pools[0].reserved == INT64_MAX && d->classes[4].reserved == INT64_MAX);
    assert_true(d->cached_free == INT64_MAX && d->largest_free == (int64_t)1 << 62);
    assert_true(d->trace_max_net == INT64_MAX && snapshot_trace_peak(d) == INT64_MAX);
    snapshot_release(&snap);
}

/* C++ frames as a context="all" dump records them: a frame with no source
 * file ("") is library code like "??" and "X.cpp", not the user's; the
 * caching allocator's frames, in every C++ stack, are left out. */
static void test_cpp_frames(void **state)
{
    (void)state;
    load_file("tests/snapshot/cpp-frames.pickle", &snap);
    struct snap_group top[2];
    assert_int_equal(snapshot_top(&snap, 0, top, 2), 2);
    assert_string_equal(snapshot_stack(&snap, top[0].stack),
                        "/work/train.py:41 main\n/work/train.py:120 <module>");
    assert_int_equal(snapshot_stack_library(&snap, top[0].stack), 4);
    /* C++ frames only: the two innermost past the caching allocator's own,
     * which every allocation passes through */
    assert_string_equal(snapshot_stack(&snap, top[1].stack),
                        "??:0 at::cuda::getNewWorkspace()\n"
                        "??:0 void at::cuda::blas::gemm<float>(char, char, long, long, long)");
    snapshot_release(&snap);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oom_snapshot),
        cmocka_unit_test(test_formats),
        cmocka_unit_test(test_growth),
        cmocka_unit_test(test_not_snapshots),
        cmocka_unit_test(test_cpp_frames),
        cmocka_unit_test(test_sums_past_int64),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
