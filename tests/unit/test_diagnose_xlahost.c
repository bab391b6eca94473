/* Unit tests for XLA's host platform (diagcall, issue 12): a jax/XLA
 * RESOURCE_EXHAUSTED on the host platform is host RAM, not a GPU OOM
 * (msg.c: near_jax's host lines, clauses_jax's 0-byte request). Every line
 * is real, from the source named beside it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/scan.h"
#include "scan_fixture.h"

/* google-deepmind/weathernext#44 (heldout20 h20-101): the words right above
 * the error say where it runs */
static const char weathernext44[] =
    "Can the pre-trained model work with CPU devices?\n"
    "I want to use  CPU platform with 40 GB memory to run the graphcast, but the program arise "
    "the message:\n"
    "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory allocating "
    "124867611608 bytes.\n"
    "\n"
    "I was wondering if the pretrain model can work with CPU devices?\n";

/* The same error without the words about the platform stays a GPU OOM. */
static const char weathernext44_error_only[] =
    "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory allocating "
    "124867611608 bytes.\n";

/* XLA's host allocator's wording (openxla/xla:xla/pjrt/cpu/
 * tracked_cpu_device_buffer.cc@640910a, AlignedAllocator::Allocate:
 * ResourceExhausted("Out of memory allocating %d bytes.", size_bytes)) for a
 * request of 0 bytes, in jaxlib's exception */
static const char zero_bytes[] =
    "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory allocating 0 "
    "bytes.\n";

static void expect(const char *log, bool gpu_oom, const char *kind)
{
    struct oom_report rep;
    scan_log(log, &rep);
    assert_int_equal(rep.primary >= 0, gpu_oom);
    assert_true(rep.n_events >= 1);
    assert_string_equal(rep.events[0].kind, kind);
    oom_report_release(&rep);
}

static void test_xla_cpu_platform_words(void **state)
{
    (void)state;
    expect(weathernext44, false, "xla-host-memory");
    expect(weathernext44_error_only, true, "jax");
}

static void test_xla_zero_byte_request(void **state)
{
    (void)state;
    expect(zero_bytes, false, "xla-host-memory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xla_cpu_platform_words),
        cmocka_unit_test(test_xla_zero_byte_request),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
