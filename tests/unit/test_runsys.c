/* Unit tests for sys/child and sys/fsutil: exec failures, merged output,
 * exit codes and signals, redelivery to a caller's handler (held until
 * child_end), partial log writes counted, samples of a quick child, the
 * group's leftovers signalled, a terminal for the child; atomic writes,
 * locked appends that roll back, mkdir -p, no writing through symlinks. */
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
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "sys/child.h"
#include "sys/echo.h"
#include "sys/fsutil.h"
#include "wait_until.h"

static char dir[] = "/tmp/oomlab-unit-XXXXXX";

static int run_cmd(char *const *argv, struct child_result *res, const char *log)
{
    struct child c = {0};
    struct oomlab_err err;
    int fd = log ? open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
    if (child_start(&c, argv, res, &err) < 0) return -1;
    struct child_opts o = {.log_fd = fd, .echo = false, .interval_ms = 0};
    int rc = child_supervise(&c, &o, res, &err);
    child_end();
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

/* A directory on PATH that cannot be searched (a non-root user whose PATH
 * still names /root/...): a missing command is still 127, not found, as in
 * the shell; one that is there but not executable is still 126. Run as
 * nobody in a child when we are root (root searches any directory). */
static void test_exec_path_unsearchable(void **state)
{
    (void)state;
    char locked[] = "/tmp/oomlab-unit-locked-XXXXXX", open_dir[] = "/tmp/oomlab-unit-open-XXXXXX";
    assert_non_null(mkdtemp(locked));
    assert_non_null(mkdtemp(open_dir));
    char file[256], path[1024];
    snprintf(file, sizeof file, "%s/oomlab-notexec", open_dir);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs("#!/bin/sh\n", f);
    fclose(f);
    assert_int_equal(chmod(open_dir, 0755), 0);
    assert_int_equal(chmod(file, 0644), 0);
    assert_int_equal(chmod(locked, 0), 0);
    snprintf(path, sizeof path, "%s:%s:/usr/bin:/bin", locked, open_dir);
    pid_t pid = fork();
    if (pid == 0) {
        if (getuid() == 0 && (setgid(65534) < 0 || setuid(65534) < 0)) _exit(10);
        setenv("PATH", path, 1);
        struct child_result res;
        char *missing[] = {"oomlab-no-such-command", NULL}, *notexec[] = {"oomlab-notexec", NULL};
        if (run_cmd(missing, &res, NULL) != 0 || !res.exec_failed) _exit(11);
        if (res.exit_code != 127 || res.exec_errno != ENOENT) _exit(12);
        if (run_cmd(notexec, &res, NULL) != 0 || res.exit_code != 126) _exit(13);
        _exit(0);
    }
    int status = -1;
    waitpid(pid, &status, 0);
    chmod(locked, 0700);
    rmdir(locked);
    unlink(file);
    rmdir(open_dir);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
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
    struct child c = {0};
    struct child_result res;
    struct oomlab_err err;
    char *cmd[] = {"sh", "-c", "sleep 5", NULL};
    assert_int_equal(child_start(&c, cmd, &res, &err), 0);
    struct child_opts o = {.log_fd = -1, .interval_ms = 0, .timeout_ms = 200};
    assert_int_equal(child_supervise(&c, &o, &res, &err), 0);
    child_end();
    assert_true(res.timed_out);
    assert_int_equal(res.exit_code, 128 + SIGTERM);
    assert_int_equal(caller_saw, 0); /* a timeout is not the caller's signal */
    assert_int_equal(child_start(&c, cmd, &res, &err), 0);
    kill(getpid(), SIGTERM); /* arrives while we supervise */
    assert_int_equal(child_supervise(&c, &o, &res, &err), 0);
    assert_int_equal(res.forwarded_signal, SIGTERM);
    assert_int_equal(res.exit_code, 128 + SIGTERM);
    assert_int_equal(caller_saw, 0); /* held while the caller writes its records */
    child_end();
    assert_int_equal(caller_saw, SIGTERM);
    signal(SIGTERM, SIG_DFL);
}

/* A signal after the child is gone, while the caller reads the log back
 * and writes its row: still ours until child_end, then the caller's. */
static void test_signals_held_until_end(void **state)
{
    (void)state;
    signal(SIGTERM, caller_handler);
    signal(SIGQUIT, caller_handler);
    caller_saw = 0;
    struct child c = {0};
    struct child_result res;
    struct oomlab_err err;
    char *cmd[] = {"true", NULL};
    assert_int_equal(child_start(&c, cmd, &res, &err), 0);
    struct child_opts o = {.log_fd = -1};
    assert_int_equal(child_supervise(&c, &o, &res, &err), 0);
    raise(SIGQUIT);
    assert_int_equal(caller_saw, 0);
    child_end();
    assert_int_equal(caller_saw, SIGQUIT);
    signal(SIGTERM, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);
}

/* Past RLIMIT_FSIZE a write is short, then EFBIG: the bytes that made it
 * are counted (the disk-full message said 0 of them). */
static void test_partial_log_write_counted(void **state)
{
    (void)state;
    char log[256];
    snprintf(log, sizeof log, "%s/limited.log", dir);
    struct child_result res;
    char *cmd[] = {"sh", "-c", "head -c 3000 /dev/zero", NULL};
    struct rlimit old, lim;
    getrlimit(RLIMIT_FSIZE, &old);
    lim = old;
    lim.rlim_cur = 1000;
    signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    int rc = run_cmd(cmd, &res, log);
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, SIG_DFL);
    assert_int_equal(rc, 0);
    assert_int_equal(res.bytes, 3000);
    assert_int_equal(res.log_bytes, 1000);
    assert_int_equal(res.log_errno, EFBIG);
}

static void tick(void *ctx) { (*(int *)ctx)++; }

static void test_ticks_at_interval(void **state)
{
    (void)state;
    int ticks = 0;
    struct child c = {0};
    struct child_result res;
    struct oomlab_err err;
    char *cmd[] = {"sleep", "0.35", NULL};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(child_start(&c, cmd, &res, &err), 0);
    struct child_opts o2 = {.log_fd = -1, .interval_ms = 50, .tick = tick, .tick_ctx = &ticks};
    assert_int_equal(child_supervise(&c, &o2, &res, &err), 0);
    child_end();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    /* first and last samples plus one per 50 ms the child lived: 0.35 s on
     * an idle machine (at most 10), longer on a loaded one, where starting
     * sleep alone can take tenths of a second */
    long lived_ms = (long)(t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
    assert_true(ticks >= 4);
    assert_true(ticks <= 3 + lived_ms / 50);
}

/* A child quicker than the interval is sampled at start and after exit. */
static void test_quick_child_sampled(void **state)
{
    (void)state;
    int ticks = 0;
    struct child c = {0};
    struct child_result res;
    struct oomlab_err err;
    char *cmd[] = {"true", NULL};
    assert_int_equal(child_start(&c, cmd, &res, &err), 0);
    struct child_opts o = {.log_fd = -1, .interval_ms = 60000, .tick = tick, .tick_ctx = &ticks};
    assert_int_equal(child_supervise(&c, &o, &res, &err), 0);
    child_end();
    assert_int_equal(ticks, 2);
}

static char said[512];
static void keep_notice(const char *msg, void *ctx)
{
    (void)ctx;
    snprintf(said, sizeof said, "%s", msg);
}

/* no such process, or a zombie (init has not reaped it yet) */
static bool ended(void *ctx)
{
    char path[64], stat[256] = "";
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)*(pid_t *)ctx);
    FILE *f = fopen(path, "r");
    if (!f) return true;
    bool got = fgets(stat, sizeof stat, f) != NULL;
    fclose(f);
    const char *paren = strrchr(stat, ')');
    return !got || (paren && paren[2] == 'Z');
}

/* the process ends within wait_until's bound (10 s; was 3 s) */
static bool pid_gone(pid_t pid) { return wait_until(ended, &pid); }

/* What the child leaves in its group is signalled and said: one holding
 * the pipe after --grace, one that ignores SIGTERM killed after another. */
static void test_leftovers_signalled(void **state)
{
    (void)state;
    char log[256], buf[64] = {0};
    snprintf(log, sizeof log, "%s/left.log", dir);
    char *cmds[][4] = {{"sh", "-c", "sleep 30 & echo $!", NULL},
                       {"sh", "-c", "(trap '' TERM; exec sleep 30) & echo $!", NULL}};
    int want[] = {SIGTERM, SIGKILL};
    for (int i = 0; i < 2; i++) {
        struct child c = {0};
        struct child_result res;
        struct oomlab_err err;
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        assert_int_equal(child_start(&c, cmds[i], &res, &err), 0);
        struct child_opts o = {.log_fd = fd, .grace_ms = 200, .notice = keep_notice};
        said[0] = '\0';
        assert_int_equal(child_supervise(&c, &o, &res, &err), 0);
        child_end();
        close(fd);
        FILE *f = fopen(log, "r");
        assert_non_null(f);
        assert_non_null(fgets(buf, sizeof buf, f));
        fclose(f);
        pid_t left = (pid_t)strtol(buf, NULL, 10);
        assert_true(left > 0);
        bool dead = pid_gone(left);
        if (!dead) kill(left, SIGKILL);
        assert_true(dead);
        assert_int_equal(res.exit_code, 0);
        assert_int_equal(res.leftover, 1);
        assert_int_equal(res.leftover_signal, want[i]);
        assert_non_null(strstr(res.note, "1 leftover process of the group: SIGTERM"));
        assert_true(said[0] != '\0');
    }
}

/* --pty: the child's three standard streams are a terminal; output as
 * written (no "\r\n"), the exit code kept. */
static void test_pty(void **state)
{
    (void)state;
    char log[256], buf[64] = {0};
    snprintf(log, sizeof log, "%s/pty.log", dir);
    struct child c = {.pty = true};
    struct child_result res;
    struct oomlab_err err;
    char *cmd[] = {"sh", "-c", "test -t 0 && test -t 1 && test -t 2 && echo tty; exit 4", NULL};
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_int_equal(child_start(&c, cmd, &res, &err), 0);
    struct child_opts o = {.log_fd = fd};
    assert_int_equal(child_supervise(&c, &o, &res, &err), 0);
    child_end();
    close(fd);
    assert_int_equal(res.exit_code, 4);
    FILE *f = fopen(log, "r");
    assert_non_null(f);
    assert_int_equal(fread(buf, 1, sizeof buf - 1, f), 4);
    fclose(f);
    assert_string_equal(buf, "tty\n");
}

/* The echo into a pipe nobody reads: the pipe fills, then ECHO_MAX bytes
 * wait, the caller is held back (room 0) until the stall has lasted, then
 * what does not fit is dropped and counted, and what still waits at the
 * end counts as dropped too. Nothing here blocks. */
static void test_echo_unread_pipe(void **state)
{
    (void)state;
    int p[2], saved = dup(1);
    assert_int_equal(pipe(p), 0);
    assert_true(dup2(p[1], 1) >= 0);
    struct echo e;
    echo_open(&e, 1);
    static char chunk[1 << 16];
    memset(chunk, 'x', sizeof chunk);
    int64_t t = 1000000;
    size_t added = 0;
    while (echo_room(&e, t) > 0 && added < ((size_t)64 << 20)) {
        echo_add(&e, chunk, sizeof chunk, t);
        added += sizeof chunk;
    }
    assert_int_equal(echo_room(&e, t), 0);                   /* held back */
    assert_int_equal(echo_room(&e, t + ECHO_STALL_MS - 1), 0);
    assert_int_equal(echo_release_at(&e), t + ECHO_STALL_MS);
    assert_true(echo_room(&e, t + ECHO_STALL_MS) == SIZE_MAX); /* let go */
    assert_int_equal(e.dropped, 0);
    echo_add(&e, chunk, sizeof chunk, t + ECHO_STALL_MS);
    assert_int_equal(e.dropped, sizeof chunk);
    char drain[4096];
    fcntl(p[0], F_SETFL, O_NONBLOCK);
    size_t in_pipe = 0;
    for (ssize_t n; (n = read(p[0], drain, sizeof drain)) > 0;) in_pipe += (size_t)n;
    echo_close(&e); /* the pipe has room again: the buffer goes out */
    size_t after = 0;
    for (ssize_t n; (n = read(p[0], drain, sizeof drain)) > 0;) after += (size_t)n;
    dup2(saved, 1);
    close(saved);
    close(p[0]);
    close(p[1]);
    assert_true(after > 0);
    assert_int_equal(in_pipe + after + e.dropped, added + sizeof chunk);
}

static char *rec(const char *cur, size_t len, unsigned long long size, size_t *out_len, void *ctx,
                 struct oomlab_err *err)
{
    (void)cur;
    (void)len;
    (void)size;
    (void)err;
    *out_len = strlen(ctx);
    return strdup(ctx);
}

struct seen_file {
    char head[16];
    size_t scanned;
    unsigned long long size;
};

static int count_bytes(const char *piece, size_t len, void *ctx)
{
    (void)piece;
    ((struct seen_file *)ctx)->scanned += len;
    return 0;
}

static char *head_rec(const char *cur, size_t len, unsigned long long size, size_t *out_len, void *ctx,
                      struct oomlab_err *err)
{
    struct seen_file *sf = ctx;
    (void)err;
    snprintf(sf->head, sizeof sf->head, "%.*s", (int)len, cur);
    sf->size = size;
    *out_len = 3;
    return strdup("r3\n");
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
    assert_int_equal(fsutil_append_locked(path, 1000, NULL, rec, "r1\n", &err), 0);
    assert_int_equal(fsutil_append_locked(path, 1000, NULL, rec, "r2\n", &err), 0);
    assert_int_equal(fsutil_read(path, 100, &data, &len, &missing, &err), 0);
    assert_string_equal(data, "r1\nr2\n");
    free(data);
    /* a file past head_max: make_record gets its head, scan every byte */
    struct seen_file sf = {0};
    assert_int_equal(fsutil_append_locked(path, 3, count_bytes, head_rec, &sf, &err), 0);
    assert_string_equal(sf.head, "r1\n");
    assert_int_equal(sf.scanned, 6);
    assert_int_equal(sf.size, 6);
    assert_int_equal(fsutil_read(path, 100, &data, &len, &missing, &err), 0);
    assert_string_equal(data, "r1\nr2\nr3\n");
    free(data);
    char small[8];
    assert_int_equal(fsutil_join(small, sizeof small, "long-dir", "name", &err), -1);
    /* a directory that cannot take the file: the message names the file asked
     * for, not the temp name ("cannot write x.html.tmp.2539: ...") */
    snprintf(path, sizeof path, "%s/nodir/report.html", dir);
    assert_int_equal(fsutil_write_atomic(path, "x", 1, &err), -1);
    char want[700];
    snprintf(want, sizeof want, "cannot write %s: no directory %s/nodir (make it first", path, dir);
    assert_non_null(strstr(err.msg, want));
    assert_null(strstr(err.msg, ".tmp."));
    /* a directory that exists and takes no new files (/proc): told apart */
    assert_int_equal(fsutil_write_atomic("/proc/oomlab-x.html", "x", 1, &err), -1);
    assert_non_null(strstr(err.msg, "cannot write /proc/oomlab-x.html: /proc takes no new files"));
}

/* Leaves the stack below the caller's frame full of bytes that are neither
 * NUL nor '/', for the next call's locals. */
__attribute__((noinline)) static void dirty_stack(void)
{
    volatile char junk[3 * 4096];
    memset((char *)junk, 'a', sizeof junk);
}

/* fsutil_why names the part of a path in the way; a path it cannot walk
 * and a buffer it cannot write get strerror's words. The empty path walked
 * its copy from the byte after the terminator (uninitialized: valgrind and
 * MSan report it; fuzz_fsutil), and a 0-byte buffer came back unwritten as
 * the answer (not a string). */
static void test_fsutil_why(void **state)
{
    (void)state;
    char path[300], buf[400];
    snprintf(path, sizeof path, "%s/afile", dir);
    struct oomlab_err err;
    assert_int_equal(fsutil_write_atomic(path, "x", 1, &err), 0);
    snprintf(path, sizeof path, "%s/afile/sub/x", dir);
    const char *why = fsutil_why(path, ENOTDIR, buf, sizeof buf);
    assert_ptr_equal(why, buf);
    assert_non_null(strstr(buf, "/afile is a regular file, not a directory"));
    assert_string_equal(fsutil_why(path, ENOENT, buf, sizeof buf), strerror(ENOENT));
    dirty_stack();
    assert_string_equal(fsutil_why("", ENOTDIR, buf, sizeof buf), strerror(ENOTDIR));
    char none[1] = {'x'};
    why = fsutil_why(path, ENOTDIR, none, 0);
    assert_ptr_not_equal(why, none);
    assert_string_equal(why, strerror(ENOTDIR));
}

/* Files oomlab writes are never reached through a symlink, and never a
 * FIFO (which would block) or a device. */
static void test_fsutil_no_follow(void **state)
{
    (void)state;
    char target[256], link[256], fifo[256], *data;
    size_t len;
    struct oomlab_err err;
    snprintf(target, sizeof target, "%s/target", dir);
    snprintf(link, sizeof link, "%s/link", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    assert_int_equal(fsutil_write_atomic(target, "keep", 4, &err), 0);
    assert_int_equal(symlink(target, link), 0);
    assert_int_equal(mkfifo(fifo, 0644), 0);
    assert_int_equal(fsutil_append_locked(link, 1000, NULL, rec, "row\n", &err), -1);
    assert_non_null(strstr(err.msg, "symbolic link"));
    assert_int_equal(fsutil_open_write(link, O_WRONLY | O_CREAT | O_TRUNC, 0644, &err), -1);
    assert_int_equal(errno, ELOOP);
    assert_int_equal(fsutil_read(target, 100, &data, &len, NULL, &err), 0);
    assert_string_equal(data, "keep"); /* neither appended to nor truncated */
    free(data);
    assert_int_equal(fsutil_open_write(fifo, O_WRONLY | O_CREAT, 0644, &err), -1);
    assert_non_null(strstr(err.msg, "not a regular file"));
    assert_int_equal(fsutil_open_write(fifo, O_RDWR | O_CREAT | O_APPEND, 0644, &err), -1);
    assert_int_equal(fsutil_check_own(link, &err), -1);
    assert_int_equal(fsutil_check_own(fifo, &err), -1);
    assert_int_equal(fsutil_check_own(target, &err), 0);
    snprintf(fifo, sizeof fifo, "%s/absent", dir);
    assert_int_equal(fsutil_check_own(fifo, &err), 0);
    assert_int_equal(fsutil_open_nofollow(link, O_WRONLY | O_TRUNC, 0644, &err), -1);
    assert_int_equal(fsutil_open_write("/dev/null", O_WRONLY, 0644, &err), -1);
    int fd = fsutil_open_nofollow("/dev/null", O_WRONLY, 0644, &err);
    assert_true(fd >= 0);
    close(fd);
    /* an atomic write replaces a symlink itself, never its target */
    assert_int_equal(fsutil_write_atomic(link, "new", 3, &err), 0);
    assert_int_equal(fsutil_read(target, 100, &data, &len, NULL, &err), 0);
    assert_string_equal(data, "keep");
    free(data);
    /* ... and never renames over a FIFO, a device or a directory
     * (report -o /dev/full as root replaced the device with a file) */
    struct stat st;
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    assert_int_equal(fsutil_write_atomic(fifo, "new", 3, &err), -1);
    assert_non_null(strstr(err.msg, "a FIFO"));
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    snprintf(fifo, sizeof fifo, "%s/a", dir);
    assert_int_equal(fsutil_write_atomic(fifo, "new", 3, &err), -1);
    assert_non_null(strstr(err.msg, "a directory"));
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
}

int main(void)
{
    if (!mkdtemp(dir)) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exec_failures),
        cmocka_unit_test(test_exec_path_unsearchable),
        cmocka_unit_test(test_output_merged_and_codes),
        cmocka_unit_test(test_signal_forwarded_and_redelivered),
        cmocka_unit_test(test_signals_held_until_end),
        cmocka_unit_test(test_partial_log_write_counted),
        cmocka_unit_test(test_ticks_at_interval),
        cmocka_unit_test(test_quick_child_sampled),
        cmocka_unit_test(test_leftovers_signalled),
        cmocka_unit_test(test_pty),
        cmocka_unit_test(test_echo_unread_pipe),
        cmocka_unit_test(test_fsutil),
        cmocka_unit_test(test_fsutil_no_follow),
        cmocka_unit_test(test_fsutil_why),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) rc = rc ? rc : 1;
    return rc;
}
