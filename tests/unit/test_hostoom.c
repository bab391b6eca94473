/* The cgroup OOM-kill counter's parser, on the files' real layouts
 * (cgroup v2 memory.events and v1 memory.oom_control as Linux 6.1 and 5.10
 * print them). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/kmsgoom.h"
#include "sys/hostoom.h"

static int64_t parse(const char *s) { return hostoom_parse(s, strlen(s)); }

static void test_layouts(void **state)
{
    (void)state;
    assert_int_equal(parse("low 0\nhigh 0\nmax 12\noom 2\noom_kill 3\noom_group_kill 0\n"), 3);
    assert_int_equal(parse("oom_kill_disable 0\nunder_oom 0\noom_kill 17\n"), 17);
    assert_int_equal(parse("oom_kill_disable 0\nunder_oom 0\n"), -1); /* before Linux 4.13 */
    assert_int_equal(parse("oom_kill 5"), 5);                         /* no final newline */
    assert_int_equal(parse(""), -1);
}

static void test_hostile(void **state)
{
    (void)state;
    assert_int_equal(parse("oom_kill \n"), -1);
    assert_int_equal(parse("oom_kill -1\n"), -1);
    assert_int_equal(parse("oom_kill 12x\n"), -1);
    assert_int_equal(parse("oom_kill 99999999999999999999999\n"), -1);
    assert_int_equal(parse("xoom_kill 4\noom_kill 9\n"), 9);
    static const char nul[] = "oom_kill 4\0oom_kill 9";
    assert_int_equal(hostoom_parse(nul, 10), 4);
}

/* The kernel's OOM-kill lines in /dev/kmsg's record format. The wording is
 * mm/oom_kill.c's pr_err in __oom_kill_process (torvalds/linux; the
 * "Kill process ... or sacrifice child" line is the one before 5.0). */
static bool kparse(const char *rec, struct kmsgoom_kill *k)
{
    return kmsgoom_parse(rec, strlen(rec), k);
}

static void test_kmsg_records(void **state)
{
    (void)state;
    struct kmsgoom_kill k;
    assert_true(kparse("3,1234,987654321,-;Out of memory: Killed process 4242 (python3) total-vm:52428800kB, "
                      "anon-rss:41943040kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:90000kB "
                      "oom_score_adj:0\n", &k));
    assert_int_equal(k.usec, 987654321);
    assert_int_equal(k.pid, 4242);
    assert_string_equal(k.comm, "python3");
    assert_true(kparse("3,77,5000000,-;Memory cgroup out of memory: Killed process 17 (pt_main_thread) "
                      "total-vm:1kB, anon-rss:1kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:1kB oom_score_adj:0", &k));
    assert_string_equal(k.comm, "pt_main_thread");
    assert_true(kparse("3,5,10,-;Killed process 99 (torchrun) total-vm:1kB, anon-rss:1kB, file-rss:0kB", &k));
    assert_int_equal(k.pid, 99);
    assert_true(kparse("3,4,9,-;Out of memory: Kill process 99 (torchrun) score 900 or sacrifice child", &k));
    /* a name with ')' in it (a process may call itself anything): the name
     * runs to the words after it, as the kernel prints "(%s) total-vm:" */
    assert_true(kparse("3,8,9,-;Out of memory: Killed process 7 (run) v2.sh) total-vm:1kB, anon-rss:1kB", &k));
    assert_string_equal(k.comm, "run) v2.sh");
    assert_true(kparse("3,8,9,-;Out of memory: Kill process 7 (a)b) score 900 or sacrifice child", &k));
    assert_string_equal(k.comm, "a)b");
    /* not OOM kills, or not records */
    assert_false(kparse("6,5,10,-;Killed process 99 (torchrun)", &k));       /* no total-vm: not the OOM killer */
    assert_false(kparse("6,5,10,-;Kill process 99 (x) score 1", &k));         /* no "Out of memory" */
    assert_false(kparse(" SUBSYSTEM=memory", &k));                           /* a continuation line */
    assert_false(kparse("Out of memory: Killed process 1 (x) total-vm:1kB", &k)); /* no record header */
    assert_false(kparse("3,1,2,-;oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),task=python3,pid=4242", &k));
    assert_false(kparse("3,1,-2,-;Out of memory: Killed process 1 (x) total-vm:1kB", &k));
    assert_false(kparse("3,1,2,-;Out of memory: Killed process x (x) total-vm:1kB", &k));
    assert_false(kparse("3,1,2,-;Out of memory: Killed process 5 (unterminated", &k));
    /* 19 digits would overflow: libFuzzer found it (tests/fuzz/seeds/kmsgoom/long-number) */
    assert_false(kparse("3,1,9999999999999999999,-;Out of memory: Killed process 1 (x) total-vm:1kB", &k));
    assert_false(kparse("3,1,2,-;Out of memory: Killed process 99999999999999999999 (x) total-vm:1kB", &k));
}

/* The kernel's log as a test's file ($OOMLAB_KMSG): its last record counts
 * without a final newline (fuzz14: it was left unread). */
static void test_kmsg_file_last_record(void **state)
{
    (void)state;
    char path[] = "/tmp/oomlab-test-kmsg-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static const char recs[] = "6,1,5,-;usb 1-1: new device\n"
                               "3,2,900,-;Out of memory: Killed process 4242 (python3) total-vm:1kB, anon-rss:1kB";
    assert_int_equal(write(fd, recs, sizeof recs - 1), (ssize_t)(sizeof recs - 1));
    close(fd);
    setenv("OOMLAB_KMSG", path, 1);
    assert_int_equal(hostoom_kmsg_killed(4242, "python3", 0), 1);
    assert_int_equal(hostoom_kmsg_killed(4242, "python3", 901), 0); /* stamped before the run */
    assert_int_equal(hostoom_kmsg_killed(4243, "python3", 0), 0);
    unlink(path);
    unsetenv("OOMLAB_KMSG");
}

/* $OOMLAB_KMSG's text in a temp file (the caller unlinks path). */
static void kmsg_file(char *path, const char *text, size_t len)
{
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
    setenv("OOMLAB_KMSG", path, 1);
}

/* A record longer than the reader's 16 KiB buffer (a file's line: a kill
 * record with a long tail) is read by its head, which holds the kill; it
 * was dropped whole, and run's kernel-log fallback said "no record". */
static void test_kmsg_file_long_record(void **state)
{
    (void)state;
    static const char head[] = "6,1,5,-;usb 1-1: new device\n"
                               "3,2,900,-;Out of memory: Killed process 4242 (python3) total-vm:1kB, anon-rss:1kB ";
    size_t tail = 20000, len = sizeof head - 1 + tail + 1;
    char *text = malloc(len);
    assert_non_null(text);
    memcpy(text, head, sizeof head - 1);
    memset(text + sizeof head - 1, 'x', tail);
    text[len - 1] = '\n';
    char path[] = "/tmp/oomlab-test-kmsg-XXXXXX";
    kmsg_file(path, text, len);
    assert_int_equal(hostoom_kmsg_killed(4242, "python3", 0), 1);
    assert_int_equal(hostoom_kmsg_killed(4243, "python3", 0), 0);
    unlink(path);
    free(text);
    unsetenv("OOMLAB_KMSG");
}

/* ... and the rest of such a line is no record of its own: a kill's words
 * that start just past the buffer's 16383 bytes, inside another record's
 * text, were read as a record (a kill the kernel never logged). */
static void test_kmsg_file_long_record_tail(void **state)
{
    (void)state;
    static const char lead[] = "6,1,5,-;a long line: ";
    static const char kill[] = "3,2,900,-;Out of memory: Killed process 4242 (python3) total-vm:1kB\n";
    size_t at = 16383, len = at + sizeof kill - 1;
    char *text = malloc(len);
    assert_non_null(text);
    memset(text, 'x', at);
    memcpy(text, lead, sizeof lead - 1);
    memcpy(text + at, kill, sizeof kill - 1);
    char path[] = "/tmp/oomlab-test-kmsg-XXXXXX";
    kmsg_file(path, text, len);
    assert_int_equal(hostoom_kmsg_killed(4242, "python3", 0), 0);
    unlink(path);
    free(text);
    unsetenv("OOMLAB_KMSG");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_kmsg_records),
        cmocka_unit_test(test_kmsg_file_last_record),
        cmocka_unit_test(test_kmsg_file_long_record),
        cmocka_unit_test(test_kmsg_file_long_record_tail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
