/* Unit tests for sys/proc against real processes: a child and a grandchild
 * of this test, their parents, tree membership, descendants, and a pid
 * /proc does not know. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sys/proc.h"
#include "wait_until.h"

static pid_t child, grandchild;
static int pipefd[2];

struct exec_wait {
    pid_t pid;
    const char *comm;
};

static bool has_exec(void *ctx)
{
    const struct exec_wait *w = ctx;
    char path[64], args[64], got[32] = "";
    snprintf(path, sizeof path, "/proc/%ld/comm", (long)w->pid);
    snprintf(args, sizeof args, "/proc/%ld/cmdline", (long)w->pid);
    FILE *f = fopen(path, "r");
    if (f && !fgets(got, sizeof got, f)) got[0] = '\0';
    if (f) fclose(f);
    /* the kernel renames the process before the new program's arguments
     * are in place: cmdline reads empty in between (seen under load:
     * "[sleep]" for "sleep 30"), so wait for both */
    f = fopen(args, "r");
    int arg0 = f ? fgetc(f) : EOF;
    if (f) fclose(f);
    size_t n = strlen(w->comm);
    return !strncmp(got, w->comm, n) && got[n] == '\n' && arg0 != EOF && arg0 != '\0';
}

/* Until pid has exec'd comm (wait_until: up to 10 s): a fixed 100 ms was
 * not always enough on a loaded machine, and the tests then read the
 * forked copy of this binary instead of sleep. */
static int wait_exec(pid_t pid, const char *comm)
{
    struct exec_wait w = {pid, comm};
    return wait_until(has_exec, &w) ? 0 : -1;
}

/* child: forks a grandchild that sleeps, reports its pid, then sleeps. */
static int setup(void **state)
{
    (void)state;
    if (pipe(pipefd) < 0) return -1;
    child = fork();
    if (child == 0) {
        /* never outlive the test, never hold the test runner's output pipe */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        pid_t g = fork();
        if (g == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            execlp("sleep", "sleep", "30", (char *)NULL);
            _exit(127);
        }
        if (write(pipefd[1], &g, sizeof g) != sizeof g) _exit(1);
        pause();
        _exit(0);
    }
    if (read(pipefd[0], &grandchild, sizeof grandchild) != sizeof grandchild) return -1;
    return wait_exec(grandchild, "sleep");
}

static int teardown(void **state)
{
    (void)state;
    kill(grandchild, SIGKILL);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    close(pipefd[0]);
    close(pipefd[1]);
    return 0;
}

struct state_wait {
    pid_t pid;
    struct proc_info pi;
    int rc; /* proc_read's last answer */
};

static bool read_asleep(void *ctx)
{
    struct state_wait *w = ctx;
    struct oomlab_err err;
    w->rc = proc_read(w->pid, &w->pi, &err);
    return w->rc != 0 || w->pi.state == 'S';
}

static void test_read_child(void **state)
{
    (void)state;
    /* Right after exec the new program may still be paging itself in
     * ('D') or running ('R'): CI on a loaded machine once read neither S
     * nor R. sleep settles in 'S' once it reaches nanosleep, so wait for
     * that (wait_until: up to 10 s) and check the letter read is the
     * kernel's. */
    struct state_wait w = {.pid = grandchild};
    wait_until(read_asleep, &w);
    assert_int_equal(w.rc, 0);
    struct proc_info pi = w.pi;
    assert_int_equal(pi.state, 'S');
    assert_int_equal(pi.ppid, child);
    assert_string_equal(pi.cmdline, "sleep 30");
    assert_string_equal(pi.comm, "sleep");
    assert_true(pi.uid_known);
    assert_int_equal(pi.uid, getuid());
    assert_true(pi.user[0] != '\0');
    assert_true(pi.elapsed_s >= 0 && pi.elapsed_s < 60);
    assert_true(pi.rss_bytes > 0);
    pid_t parent;
    unsigned long long start;
    assert_int_equal(proc_parent(grandchild, &parent, &start), 0);
    assert_int_equal(parent, child);
    assert_int_equal(start, pi.start_ticks);
}

static void test_tree(void **state)
{
    (void)state;
    assert_true(proc_in_tree(grandchild, getpid()));
    assert_true(proc_in_tree(grandchild, child));
    assert_true(proc_in_tree(child, child));
    assert_false(proc_in_tree(getpid(), child));
    assert_false(proc_in_tree(grandchild, 0));
    pid_t *d;
    size_t n;
    struct oomlab_err err;
    assert_int_equal(proc_descendants(child, &d, &n, &err), 0);
    assert_int_equal(n, 1);
    assert_int_equal(d[0], grandchild);
    free(d);
    assert_int_equal(proc_descendants(getpid(), &d, &n, &err), 0);
    bool both = false, c = false, g = false;
    for (size_t i = 0; i < n; i++)
        c |= d[i] == child, g |= d[i] == grandchild;
    both = c && g;
    assert_true(both);
    free(d);
}

/* CPU time: a sleeping process gains none; this test, spinning, gains some;
 * a wrong start time (a reused pid) reads as unknown, never as 0. */
static void test_cpu_time(void **state)
{
    (void)state;
    struct proc_info me, sleeper;
    struct oomlab_err err;
    assert_int_equal(proc_read(getpid(), &me, &err), 0);
    assert_int_equal(proc_read(grandchild, &sleeper, &err), 0);
    assert_true(me.cpu_ticks >= 0);
    double s0 = proc_cpu_s(grandchild, sleeper.start_ticks);
    double m0 = proc_cpu_s(getpid(), me.start_ticks);
    assert_true(s0 >= 0 && m0 >= 0);
    struct timespec t0, t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    volatile unsigned long spin = 0;
    do { /* 100 ms of CPU: ten clock ticks at 100 Hz. CPU time, not wall
          * time: on a loaded machine 100 ms of wall time can be a tick or less */
        for (int i = 0; i < 100000; i++)
            spin += (unsigned long)i;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    } while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < 100);
    assert_true(spin > 0);
    assert_true(proc_cpu_s(getpid(), me.start_ticks) > m0);
    assert_true(proc_cpu_s(grandchild, sleeper.start_ticks) == s0);
    assert_true(proc_cpu_s(grandchild, sleeper.start_ticks + 1) < 0);
    assert_true(proc_cpu_s(4194303, 0) < 0);
}

static void test_missing_pid(void **state)
{
    (void)state;
    struct proc_info pi;
    struct oomlab_err err;
    assert_int_equal(proc_read(0, &pi, &err), -1);
    assert_int_equal(proc_read(4194303, &pi, &err), -1); /* above any default pid_max use */
    assert_non_null(strstr(err.msg, "another PID namespace"));
    assert_true(pi.elapsed_s < 0);
    assert_true(pi.rss_bytes == -1);
    assert_true(proc_uptime() > 0);
}

/* A worker's rank and torchelastic attempt, from the environment its
 * launcher gave it (the variables torchrun sets: RANK, WORLD_SIZE,
 * TORCHELASTIC_RESTART_COUNT). */
static bool has_environ(void *ctx)
{
    char path[64], c;
    snprintf(path, sizeof path, "/proc/%ld/environ", (long)*(pid_t *)ctx);
    int fd = open(path, O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, &c, 1) : -1;
    if (fd >= 0) close(fd);
    return n == 1;
}

static pid_t spawn_env(char *const envp[])
{
    pid_t pid = fork();
    if (pid == 0) {
        execle("/bin/sleep", "sleep", "5", (char *)NULL, envp);
        _exit(127);
    }
    /* Until exec replaced the environment: comm changes first, and
     * /proc/PID/environ reads empty until the new stack is set up (the
     * kernel sets env_start after the name), so wait for both: with comm
     * alone a loaded machine read rank -1 here (1 run in 12 under nice 19). */
    if (wait_exec(pid, "sleep") < 0) return pid;
    wait_until(has_environ, &pid);
    return pid;
}

static void test_rank_from_environment(void **state)
{
    (void)state;
    long rank, restart;
    char *worker[] = {"PATH=/bin", "RANK=5", "LOCAL_RANK=1", "WORLD_SIZE=8", "TORCHELASTIC_RESTART_COUNT=2", NULL};
    char *task[] = {"SLURM_PROCID=3", "SLURM_NTASKS=4", NULL};
    char *alone[] = {"RANK=0", "WORLD_SIZE=1", NULL};
    char *const *envs[] = {worker, task, alone};
    const long want_rank[] = {5, 3, -1}, want_restart[] = {2, 0, 0};
    for (size_t i = 0; i < 3; i++) {
        pid_t pid = spawn_env(envs[i]);
        proc_rank(pid, &rank, &restart);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        assert_int_equal(rank, want_rank[i]);
        assert_int_equal(restart, want_restart[i]);
    }
    proc_rank(4194303, &rank, &restart); /* no such process */
    assert_int_equal(rank, -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_child),
        cmocka_unit_test(test_tree),
        cmocka_unit_test(test_cpu_time),
        cmocka_unit_test(test_missing_pid),
        cmocka_unit_test(test_rank_from_environment),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
