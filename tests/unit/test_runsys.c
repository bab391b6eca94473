/* Unit tests for sys/child and sys/fsutil: exec failures, merged output,
 * exit codes and signals, redelivery to a caller's handler; atomic writes,
 * locked appends that roll back, mkdir -p. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "sys/child.h"
#include "sys/fsutil.h"

static char dir[] = "/tmp/oomlab-unit-XXXXXX";

static int run_cmd(char *const *argv, struct child_result *res, const char *log)
{
    struct child c;
    struct oomlab_err err;
    int fd = log ? open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
    if (child_start(&c, argv, res, &err) < 0) return -1;
    struct child_opts o = {.log_fd = fd, .echo = false, .interval_ms = 0};
    int rc = child_supervise(&c, &o, res, &err);
    if (fd >= 0) close(fd);
    return rc;
}

static void test_exec_failures(void **state)
{
    (void)state;
    struct child_result res;
    char *missing[] = {"oomlab-no-such-command", NULL};
    assert_int_equal(run_cmd(missing, &res, NULL), 0);
    assert_true(res.exec_failed);
    assert_int_equal(res.exit_code, 127);
    assert_int_equal(res.exec_errno, ENOENT);
    char file[256];
    snprintf(file, sizeof file, "%s/plain.txt", dir);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs("#!/bin/sh\n", f);
    fclose(f);
    char *notexec[] = {file, NULL};
    assert_int_equal(run_cmd(notexec, &res, NULL), 0);
    assert_true(res.exec_failed);
    assert_int_equal(res.exit_code, 126);
}

static void test_output_merged_and_codes(void **state)
{
    (void)state;
    char log[256], buf[64] = {0};
    snprintf(log, sizeof log, "%s/out.log", dir);
    struct child_result res;
    char *cmd[] = {"sh", "-c", "printf a; printf b >&2; printf c; exit 3", NULL};
    assert_int_equal(run_cmd(cmd, &res, log), 0);
    assert_false(res.exec_failed);
    assert_int_equal(res.exit_code, 3);
    assert_int_equal(res.term_signal, 0);
    assert_int_equal(res.bytes, 3);
    assert_int_equal(res.log_bytes, 3);
    FILE *f = fopen(log, "r");
    assert_non_null(f);
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "abc");
    char *killed[] = {"sh", "-c", "kill -SEGV $$", NULL};
    assert_int_equal(run_cmd(killed, &res, NULL), 0);
    assert_int_equal(res.term_signal, SIGSEGV);
    assert_int_equal(res.exit_code, 128 + SIGSEGV);
}

static volatile sig_atomic_t caller_saw;
static void caller_handler(int sig) { caller_saw = sig; }

static void test_signal_forwarded_and_redelivered(void **state)
{
    (void)state;
    signal(SIGTERM, caller_handler);
    caller_saw = 0;
    struct child c;
    struct child_result res;
    struct oomlab_err err;
    char *cmd[] = {"sh", "-c", "sleep 5", NULL};
    assert_int_equal(child_start(&c, cmd, &res, &err), 0);
    struct child_opts o = {.log_fd = -1, .interval_ms = 0, .timeout_ms = 200};
    assert_int_equal(child_supervise(&c, &o, &res, &err), 0);
    assert_true(res.timed_out);
    assert_int_equal(res.exit_code, 128 + SIGTERM);
    assert_int_equal(caller_saw, 0); /* a timeout is not the caller's signal */
    assert_int_equal(child_start(&c, cmd, &res, &err), 0);
    kill(getpid(), SIGTERM); /* arrives while we supervise */
    assert_int_equal(child_supervise(&c, &o, &res, &err), 0);
    assert_int_equal(res.forwarded_signal, SIGTERM);
    assert_int_equal(res.exit_code, 128 + SIGTERM);
    assert_int_equal(caller_saw, SIGTERM);
    signal(SIGTERM, SIG_DFL);
}

static void tick(void *ctx) { (*(int *)ctx)++; }

static void test_ticks_at_interval(void **state)
{
    (void)state;
    int ticks = 0;
    struct child c;
    struct child_result res;
    struct oomlab_err err;
    char *cmd[] = {"sleep", "0.35", NULL};
    assert_int_equal(child_start(&c, cmd, &res, &err), 0);
    struct child_opts o2 = {.log_fd = -1, .interval_ms = 50, .tick = tick, .tick_ctx = &ticks};
    assert_int_equal(child_supervise(&c, &o2, &res, &err), 0);
    assert_true(ticks >= 4 && ticks <= 10);
}

static char *rec(const char *cur, size_t len, size_t *out_len, void *ctx, struct oomlab_err *err)
{
    (void)cur;
    (void)len;
    (void)err;
    *out_len = strlen(ctx);
    return strdup(ctx);
}

static void test_fsutil(void **state)
{
    (void)state;
    char path[256], *data;
    size_t len;
    bool missing;
    struct oomlab_err err;
    snprintf(path, sizeof path, "%s/a/b/c", dir);
    assert_int_equal(fsutil_mkdir_p(path, &err), 0);
    assert_int_equal(fsutil_mkdir_p(path, &err), 0);
    snprintf(path, sizeof path, "%s/a/file", dir);
    assert_int_equal(fsutil_write_atomic(path, "one", 3, &err), 0);
    assert_int_equal(fsutil_write_atomic(path, "two!", 4, &err), 0);
    assert_int_equal(fsutil_read(path, 100, &data, &len, &missing, &err), 0);
    assert_string_equal(data, "two!");
    free(data);
    assert_int_equal(fsutil_read(path, 2, &data, &len, &missing, &err), -1); /* over max */
    snprintf(path, sizeof path, "%s/a/file/x", dir);
    assert_int_equal(fsutil_mkdir_p(path, &err), -1);
    assert_non_null(strstr(err.msg, "not a directory"));
    snprintf(path, sizeof path, "%s/none", dir);
    assert_int_equal(fsutil_read(path, 100, &data, &len, &missing, &err), -1);
    assert_true(missing);
    snprintf(path, sizeof path, "%s/ledger", dir);
    assert_int_equal(fsutil_append_locked(path, 1000, rec, "r1\n", &err), 0);
    assert_int_equal(fsutil_append_locked(path, 1000, rec, "r2\n", &err), 0);
    assert_int_equal(fsutil_read(path, 100, &data, &len, &missing, &err), 0);
    assert_string_equal(data, "r1\nr2\n");
    free(data);
    assert_int_equal(fsutil_append_locked(path, 3, rec, "r3\n", &err), -1); /* file over max */
    char small[8];
    assert_int_equal(fsutil_join(small, sizeof small, "long-dir", "name", &err), -1);
}

int main(void)
{
    if (!mkdtemp(dir)) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exec_failures),
        cmocka_unit_test(test_output_merged_and_codes),
        cmocka_unit_test(test_signal_forwarded_and_redelivered),
        cmocka_unit_test(test_ticks_at_interval),
        cmocka_unit_test(test_fsutil),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) rc = rc ? rc : 1;
    return rc;
}
