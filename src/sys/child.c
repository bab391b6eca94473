/* child: fork/exec with a close-on-exec pipe for exec errors, one merged
 * output pipe pumped to the log (and our stdout), a self-pipe for signals,
 * and a poll loop whose timeout is the sampling interval. */
#include "sys/child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define CHILD_BUF (1u << 20)
#define CHILD_DRAIN_MS 300 /* after the child exits, how long its heirs may hold the pipe */
#define CHILD_GRACE_MS 20000

/* Signals we catch while a child runs: the first three interrupt the run
 * (forwarded, ledger row "interrupted"); USR1/USR2 (SLURM --signal) are
 * forwarded as they are. */
static const struct {
    int sig;
    bool interrupts;
} caught[] = {
    {SIGINT, true}, {SIGTERM, true}, {SIGHUP, true}, {SIGUSR1, false}, {SIGUSR2, false},
};
#define N_CAUGHT (sizeof caught / sizeof caught[0])

static int wake_pipe[2] = {-1, -1};
static volatile sig_atomic_t pending[N_CAUGHT];
static struct sigaction saved[N_CAUGHT + 1]; /* + SIGCHLD */

static void on_signal(int sig)
{
    int saved_errno = errno;
    for (size_t i = 0; i < N_CAUGHT; i++)
        if (caught[i].sig == sig) pending[i]++;
    if (wake_pipe[1] >= 0) {
        char b = 0;
        ssize_t n = write(wake_pipe[1], &b, 1); /* full pipe: a wake-up is already queued */
        (void)n;
    }
    errno = saved_errno;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const char *child_signal_name(int sig, char *buf, size_t size)
{
    static const struct {
        int sig;
        const char *name;
    } names[] = {
        {SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},
        {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},   {SIGKILL, "SIGKILL"},
        {SIGSEGV, "SIGSEGV"}, {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"},
        {SIGUSR1, "SIGUSR1"}, {SIGUSR2, "SIGUSR2"}, {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig) {
            snprintf(buf, size, "%s", names[i].name);
            return buf;
        }
    snprintf(buf, size, "signal %d", sig);
    return buf;
}

static void install_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < N_CAUGHT; i++) {
        pending[i] = 0;
        sigaction(caught[i].sig, &sa, &saved[i]);
    }
    sa.sa_flags = SA_NOCLDSTOP;
    sigaction(SIGCHLD, &sa, &saved[N_CAUGHT]);
}

static void restore_handlers(void)
{
    for (size_t i = 0; i < N_CAUGHT; i++) sigaction(caught[i].sig, &saved[i], NULL);
    sigaction(SIGCHLD, &saved[N_CAUGHT], NULL);
    for (int i = 0; i < 2; i++)
        if (wake_pipe[i] >= 0) close(wake_pipe[i]);
    wake_pipe[0] = wake_pipe[1] = -1;
}

/* environ without our two variables, then ours. Caller frees the array. */
static char **child_env(void)
{
    static char unbuffered[] = "PYTHONUNBUFFERED=1", faulthandler[] = "PYTHONFAULTHANDLER=1";
    size_t n = 0;
    while (environ && environ[n]) n++;
    char **env = calloc(n + 3, sizeof *env);
    if (!env) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "PYTHONUNBUFFERED=", 17) &&
            strncmp(environ[i], "PYTHONFAULTHANDLER=", 19))
            env[k++] = environ[i];
    env[k++] = unbuffered;
    env[k++] = faulthandler;
    return env;
}

/* In the forked child: only async-signal-safe calls until exec. */
static void exec_child(char *const *argv, char **env, int out_w, int err_w, bool stdin_null)
{
    setpgid(0, 0);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (size_t i = 0; i < N_CAUGHT; i++) sigaction(caught[i].sig, &dfl, NULL);
    sigaction(SIGCHLD, &dfl, NULL);
    sigaction(SIGPIPE, &dfl, NULL); /* main() ignores it; the child must not inherit that */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (stdin_null) {
        int fd = open("/dev/null", O_RDONLY);
        if (fd >= 0 && fd != 0) {
            dup2(fd, 0);
            close(fd);
        }
    }
    if (dup2(out_w, 1) < 0 || dup2(out_w, 2) < 0) _exit(127);
    close(out_w);
    execvpe(argv[0], argv, env);
    int e = errno;
    ssize_t n = write(err_w, &e, sizeof e);
    (void)n;
    _exit(e == ENOENT ? 127 : 126);
}

static void close_pair(int p[2])
{
    for (int i = 0; i < 2; i++)
        if (p[i] >= 0) close(p[i]);
    p[0] = p[1] = -1;
}

/* Did exec succeed? EOF on the close-on-exec pipe says yes. */
static int exec_status(int fd)
{
    int e = 0;
    ssize_t n;
    do n = read(fd, &e, sizeof e);
    while (n < 0 && errno == EINTR);
    return n == (ssize_t)sizeof e ? e : 0;
}

static void fill_exec_failure(struct child *c, struct child_result *res, int e)
{
    int status;
    while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR) {
    }
    res->exec_failed = true;
    res->exec_errno = e;
    res->exit_code = e == ENOENT ? 127 : 126;
    close(c->out_fd);
    c->out_fd = -1;
    restore_handlers();
}

int child_start(struct child *c, char *const *argv, struct child_result *res,
                struct oomlab_err *err)
{
    memset(res, 0, sizeof *res);
    c->pid = -1;
    c->out_fd = -1;
    int out[2] = {-1, -1}, ex[2] = {-1, -1};
    char **env = child_env();
    if (!env) return oomlab_err_set(err, "out of memory");
    if (pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK) < 0 || pipe2(out, O_CLOEXEC) < 0 ||
        pipe2(ex, O_CLOEXEC) < 0) {
        int e = errno;
        close_pair(out);
        close_pair(ex);
        close_pair(wake_pipe);
        free(env);
        return oomlab_err_set(err, "cannot create a pipe: %s", strerror(e));
    }
    (void)fcntl(out[0], F_SETPIPE_SZ, (int)CHILD_BUF); /* fewer wake-ups on floods */
    bool stdin_null = isatty(0); /* a background group reading the tty would stop */
    sigset_t block, old;
    sigemptyset(&block);
    for (size_t i = 0; i < N_CAUGHT; i++) sigaddset(&block, caught[i].sig);
    sigaddset(&block, SIGCHLD);
    sigprocmask(SIG_BLOCK, &block, &old);
    install_handlers();
    pid_t pid = fork();
    if (pid == 0) exec_child(argv, env, out[1], ex[1], stdin_null);
    int fork_errno = errno;
    free(env);
    if (pid > 0) setpgid(pid, pid); /* both sides set it: no race with our kill(-pid) */
    sigprocmask(SIG_SETMASK, &old, NULL);
    close(out[1]);
    close(ex[1]);
    if (pid < 0) {
        close(out[0]);
        close(ex[0]);
        restore_handlers();
        return oomlab_err_set(err, "cannot fork: %s", strerror(fork_errno));
    }
    c->pid = pid;
    c->out_fd = out[0];
    int e = exec_status(ex[0]);
    close(ex[0]);
    if (e) fill_exec_failure(c, res, e);
    return 0;
}

static int write_all(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return n < 0 ? errno : ENOSPC;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

struct pump {
    const struct child_opts *o;
    struct child_result *res;
    char *buf;
    bool echo, open;
};

/* Read what is there (a bounded burst) and pass it on. */
static void pump_output(struct pump *p, int fd)
{
    for (int burst = 0; burst < 16 && p->open; burst++) {
        ssize_t n = read(fd, p->buf, CHILD_BUF);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            if (errno != EAGAIN) p->open = false;
            return;
        }
        if (n == 0) {
            p->open = false;
            return;
        }
        p->res->bytes += (uint64_t)n;
        if (p->o->log_fd >= 0 && !p->res->log_errno) {
            int e = write_all(p->o->log_fd, p->buf, (size_t)n);
            if (e) p->res->log_errno = e;
            else p->res->log_bytes += (uint64_t)n;
        }
        if (p->echo && write_all(1, p->buf, (size_t)n)) p->echo = false;
        if ((size_t)n < CHILD_BUF) return;
    }
}

struct supervise {
    struct child *c;
    const struct child_opts *o;
    struct child_result *res;
    int64_t start, next_tick, deadline, kill_at, exited_at;
    bool exited;
    sig_atomic_t handled[N_CAUGHT];
    int status;
};

static void escalate(struct supervise *s, int sig, int64_t now)
{
    if (s->exited) return;
    kill(-s->c->pid, sig);
    if (sig == SIGKILL) {
        s->res->escalated = true;
        s->kill_at = 0;
    } else if (!s->kill_at) {
        s->kill_at = now + (s->o->grace_ms > 0 ? s->o->grace_ms : CHILD_GRACE_MS);
    }
}

/* Our own signals: the first interrupting one is forwarded, a second one
 * kills the group at once (the user means it). */
static void handle_signals(struct supervise *s, int64_t now)
{
    char drain[64];
    while (read(wake_pipe[0], drain, sizeof drain) > 0) {
    }
    for (size_t i = 0; i < N_CAUGHT; i++) {
        while (s->handled[i] < pending[i]) {
            s->handled[i]++;
            int sig = caught[i].sig;
            if (!caught[i].interrupts) {
                if (!s->exited) kill(-s->c->pid, sig);
            } else if (!s->res->forwarded_signal) {
                s->res->forwarded_signal = sig;
                escalate(s, sig, now);
            } else {
                escalate(s, SIGKILL, now);
            }
        }
    }
}

static void reap(struct supervise *s, int64_t now)
{
    if (s->exited) return;
    pid_t r;
    do r = waitpid(s->c->pid, &s->status, WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r != s->c->pid) return;
    s->exited = true;
    s->exited_at = now;
}

static int poll_timeout(const struct supervise *s, int64_t now, bool out_open)
{
    int64_t wait = 1000;
    int64_t marks[4] = {s->o->tick && s->o->interval_ms > 0 && !s->exited ? s->next_tick : 0,
                        s->exited ? 0 : s->deadline, s->kill_at,
                        s->exited && out_open ? s->exited_at + CHILD_DRAIN_MS : 0};
    for (int i = 0; i < 4; i++)
        if (marks[i] && marks[i] - now < wait) wait = marks[i] - now;
    return wait < 0 ? 0 : (int)wait;
}

static void timers(struct supervise *s, int64_t now)
{
    if (s->o->tick && s->o->interval_ms > 0 && !s->exited && now >= s->next_tick) {
        s->o->tick(s->o->tick_ctx);
        s->next_tick += s->o->interval_ms;
        if (s->next_tick <= now) s->next_tick = now + s->o->interval_ms;
    }
    if (s->deadline && !s->exited && !s->res->timed_out && now >= s->deadline) {
        s->res->timed_out = true;
        escalate(s, SIGTERM, now);
    }
    if (s->kill_at && now >= s->kill_at) escalate(s, SIGKILL, now);
}

static void finish(struct supervise *s)
{
    int st = s->status;
    if (WIFEXITED(st)) {
        s->res->exit_code = WEXITSTATUS(st);
    } else if (WIFSIGNALED(st)) {
        s->res->term_signal = WTERMSIG(st);
        s->res->exit_code = 128 + WTERMSIG(st);
    }
}

/* A caller with its own handler (probe stops between trials) still hears
 * of the interruption: raise it again once that handler is back. Default
 * and ignored dispositions are left alone (oomlab run exits like the child). */
static void redeliver(const struct supervise *s)
{
    for (size_t i = 0; i < N_CAUGHT; i++) {
        if (!caught[i].interrupts || !s->handled[i]) continue;
        bool has_fn = (saved[i].sa_flags & SA_SIGINFO) ||
                      (saved[i].sa_handler != SIG_DFL && saved[i].sa_handler != SIG_IGN);
        if (has_fn) raise(caught[i].sig);
    }
}

int child_supervise(struct child *c, const struct child_opts *o, struct child_result *res,
                    struct oomlab_err *err)
{
    if (res->exec_failed || c->pid < 0) return 0;
    struct supervise s = {.c = c, .o = o, .res = res};
    struct pump p = {.o = o, .res = res, .echo = o->echo, .open = true};
    p.buf = malloc(CHILD_BUF);
    if (!p.buf) return oomlab_err_set(err, "out of memory");
    fcntl(c->out_fd, F_SETFL, fcntl(c->out_fd, F_GETFL) | O_NONBLOCK);
    s.start = s.next_tick = now_ms();
    if (o->timeout_ms > 0) s.deadline = s.start + o->timeout_ms;
    int rc = 0;
    for (;;) {
        int64_t now = now_ms();
        handle_signals(&s, now);
        reap(&s, now);
        timers(&s, now);
        if (s.exited && (!p.open || now >= s.exited_at + CHILD_DRAIN_MS)) break;
        struct pollfd fds[2] = {{.fd = wake_pipe[0], .events = POLLIN},
                                {.fd = p.open ? c->out_fd : -1, .events = POLLIN}};
        int n = poll(fds, 2, poll_timeout(&s, now, p.open));
        if (n < 0 && errno != EINTR) {
            rc = oomlab_err_set(err, "poll: %s", strerror(errno));
            kill(-c->pid, SIGKILL);
            waitpid(c->pid, &s.status, 0);
            s.exited = true;
            break;
        }
        if (n > 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) pump_output(&p, c->out_fd);
    }
    finish(&s);
    free(p.buf);
    close(c->out_fd);
    c->out_fd = -1;
    restore_handlers();
    redeliver(&s);
    return rc;
}
