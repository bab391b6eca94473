/* echo (src/sys/echo.c) when write(2) takes no bytes: linked with
 * -Wl,--wrap=write (Makefile WRAPWRITE_TESTS), so the library's writes reach
 * __wrap_write, which returns 0 on the fd the test names and passes the
 * rest on. A write of 0 for some bytes is a failure (git's write_in_full
 * takes it as ENOSPC): the echo ends and keeps the error for run to say,
 * as it does for /dev/full, not silently. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

#include <cmocka.h>

#include "sys/echo.h"

ssize_t __real_write(int fd, const void *buf, size_t n);
ssize_t __wrap_write(int fd, const void *buf, size_t n);

static int zero_fd = -1; /* writes to this fd take nothing */
static int zero_writes;  /* how many were answered 0 */

ssize_t __wrap_write(int fd, const void *buf, size_t n)
{
    if (fd == zero_fd && n > 0) {
        zero_writes++;
        return 0;
    }
    return __real_write(fd, buf, n);
}

/* stdout a regular file (the blocking path: `oomlab run ... > out.txt`) */
static void test_zero_write_file_is_an_error(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    struct echo e;
    echo_open(&e, fileno(f));
    assert_true(e.blocking);
    zero_fd = fileno(f), zero_writes = 0;
    echo_add(&e, "epoch 1\n", 8, 0);
    assert_int_equal(zero_writes, 1); /* not retried for ever */
    assert_int_equal(e.fd, -1);       /* the echo ended */
    assert_int_equal(e.error, ENOSPC); /* and run will say so */
    zero_fd = -1;
    echo_close(&e);
    fclose(f);
}

/* stdout a pipe (the non-blocking path, reopened through /proc) */
static void test_zero_write_pipe_is_an_error(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    struct echo e;
    echo_open(&e, p[1]);
    assert_false(e.blocking);
    zero_fd = e.fd, zero_writes = 0;
    echo_add(&e, "epoch 1\n", 8, 0);
    assert_int_equal(zero_writes, 1);
    assert_int_equal(e.fd, -1);
    assert_int_equal(e.error, ENOSPC);
    zero_fd = -1;
    echo_close(&e);
    close(p[0]);
    close(p[1]);
}

/* Nothing to write is no failure, and a reader that left stays quiet. */
static void test_empty_add_and_epipe_quiet(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    struct echo e;
    echo_open(&e, p[1]);
    echo_add(&e, "", 0, 0);
    assert_true(e.fd >= 0);
    assert_int_equal(e.error, 0);
    close(p[0]); /* the reader leaves: EPIPE (SIGPIPE ignored here) */
    echo_add(&e, "x\n", 2, 0);
    assert_int_equal(e.fd, -1);
    assert_int_equal(e.error, 0);
    echo_close(&e);
    close(p[1]);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_write_file_is_an_error),
        cmocka_unit_test(test_zero_write_pipe_is_an_error),
        cmocka_unit_test(test_empty_add_and_epipe_quiet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
