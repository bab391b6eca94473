/* fsutil_append_locked (the ledger's append, src/sys/fsutil.c) when write(2)
 * takes only part of the record: linked with -Wl,--wrap=write (Makefile
 * WRAPWRITE_TESTS), so the library's writes reach __wrap_write, which
 * writes a prefix and returns its length, then fails the next write with
 * ENOSPC (a disk that filled mid-record) or lets it through. gcov showed
 * fsutil_write_rest, the path after a short write, never ran. The header
 * promises: a short write that cannot be finished is undone (ftruncate to
 * the old size), so no reader sees half a record. */
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

#include "sys/fsutil.h"

ssize_t __real_write(int fd, const void *buf, size_t n);
ssize_t __wrap_write(int fd, const void *buf, size_t n);

static size_t short_len;  /* >0: the next write to a file fd takes this many bytes */
static int then_errno;    /* and the write after it fails with this (0: passes) */
static int armed_second;  /* the short write happened; the next one is judged */
static int writes_seen;

ssize_t __wrap_write(int fd, const void *buf, size_t n)
{
    if (fd <= 2) return __real_write(fd, buf, n); /* cmocka's own output */
    writes_seen++;
    if (short_len && n > short_len) {
        size_t k = short_len;
        short_len = 0;
        armed_second = 1;
        return __real_write(fd, buf, k);
    }
    if (armed_second) {
        armed_second = 0;
        if (then_errno) {
            errno = then_errno;
            return -1;
        }
    }
    return __real_write(fd, buf, n);
}

static char *rec(const char *head, size_t head_len, unsigned long long size, size_t *out_len, void *ctx,
                 struct oomlab_err *err)
{
    (void)head, (void)head_len, (void)size, (void)err;
    *out_len = strlen(ctx);
    return strdup(ctx);
}

static char path[256];

static const char *slurp(void)
{
    static char buf[4096];
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static int setup(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "%s/oomlab-fsutil-write-%ld.csv", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (long)getpid());
    unlink(path);
    short_len = 0, then_errno = 0, armed_second = 0, writes_seen = 0;
    struct oomlab_err err = {{0}};
    assert_int_equal(fsutil_append_locked(path, 1000, NULL, rec, "id,peak\n", &err), 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(path);
    return 0;
}

/* The disk fills after 5 bytes of the row: the append fails, says so, and
 * the file is as it was (no "run01" fragment for the next reader). */
static void test_short_write_then_full_is_undone(void **state)
{
    (void)state;
    struct oomlab_err err = {{0}};
    short_len = 5, then_errno = ENOSPC;
    assert_int_equal(fsutil_append_locked(path, 1000, NULL, rec, "run01,12.5\n", &err), -1);
    assert_non_null(strstr(err.msg, "cannot append to"));
    assert_non_null(strstr(err.msg, strerror(ENOSPC)));
    assert_string_equal(slurp(), "id,peak\n");
    /* the next append, with room again, lands whole after the header */
    assert_int_equal(fsutil_append_locked(path, 1000, NULL, rec, "run02,3\n", &err), 0);
    assert_string_equal(slurp(), "id,peak\nrun02,3\n");
}

/* A short write the next write finishes (a signal cut it, the disk had room
 * again): the rest is written, the record is whole, once. */
static void test_short_write_is_finished(void **state)
{
    (void)state;
    struct oomlab_err err = {{0}};
    short_len = 4, then_errno = 0;
    writes_seen = 0;
    assert_int_equal(fsutil_append_locked(path, 1000, NULL, rec, "run01,12.5\n", &err), 0);
    assert_int_equal(writes_seen, 2);
    assert_string_equal(slurp(), "id,peak\nrun01,12.5\n");
}

/* fsutil_write_rest on its own: all of it, or the errno of the write that failed. */
static void test_write_rest_whole_or_errno(void **state)
{
    (void)state;
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    assert_int_equal(fsutil_write_rest(fd[1], "abc", 3), 0);
    char got[4] = {0};
    assert_int_equal(read(fd[0], got, 3), 3);
    assert_string_equal(got, "abc");
    close(fd[0]);
    /* the reader gone: EPIPE comes back (SIGPIPE ignored here) */
    signal(SIGPIPE, SIG_IGN);
    assert_int_equal(fsutil_write_rest(fd[1], "abc", 3), EPIPE);
    close(fd[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_short_write_then_full_is_undone, setup, teardown),
        cmocka_unit_test_setup_teardown(test_short_write_is_finished, setup, teardown),
        cmocka_unit_test(test_write_rest_whole_or_errno),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
