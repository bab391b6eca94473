/* child: fork/exec with a close-on-exec pipe for exec errors, one merged
 * output pipe (or a pseudo-terminal) pumped to the log and to sys/echo, a
 * self-pipe for signals, a poll loop whose timeout is the next timer, and,
 * once the child has exited (seen with WNOWAIT, so its pid — the group id —
 * cannot be reused until we reap it), the wind-down of its group. */
#include "sys/child.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "lib/logidx.h"
#include "sys/echo.h"

extern char **environ;

#define CHILD_BUF (1u << 20)
#define CHILD_DRAIN_MS 300 /* after a signal that must end them, how long heirs may hold the pipe */
#define CHILD_RESCAN_MS 50 /* how often the group is looked at while it winds down */
#define CHILD_GRACE_MS 20000
#define CHILD_HINT_MS 1000 /* a command still running this long after Ctrl-C: say what comes next */

/* Signals we catch while a child runs: the first four interrupt the run
 * (forwarded, ledger row "interrupted"); USR1/USR2 (SLURM --signal) are
 * forwarded as they are; SIGTSTP (Ctrl-Z) stops the child's group and then
 * us, and continues the group when we are continued (the child has a group
 * of its own, so the terminal's Ctrl-Z reaches only us). A signal marked
 * keep_ignored that we were started with ignored stays ignored, for us and
 * the child: `nohup oomlab run ...` must outlive the logout that sends
 * SIGHUP. (SIGINT and SIGQUIT, which a script's `cmd &` ignores, are still
 * caught: `kill -INT` is how such a script stops a run.) */
static const struct {
    int sig;
    bool interrupts;
    bool keep_ignored;
    bool stops;
} caught[] = {
    {SIGINT, true, false, false},   {SIGTERM, true, false, false},  {SIGHUP, true, true, false},
    {SIGQUIT, true, false, false},  {SIGUSR1, false, false, false}, {SIGUSR2, false, false, false},
    {SIGTSTP, false, true, true},
};
#define N_CAUGHT (sizeof caught / sizeof caught[0])

static int wake_pipe[2] = {-1, -1};
static volatile sig_atomic_t pending[N_CAUGHT];
static struct sigaction saved[N_CAUGHT + 1]; /* + SIGCHLD */
static bool left_ignored[N_CAUGHT];          /* keep_ignored and ignored when we started */
static bool installed;                       /* ours are in place until child_end */

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
    sa.sa_flags = SA_RESTART; /* reads and writes of the records go on; poll wakes anyway */
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < N_CAUGHT; i++) {
        pending[i] = 0;
        sigaction(caught[i].sig, NULL, &saved[i]);
        left_ignored[i] = caught[i].keep_ignored && !(saved[i].sa_flags & SA_SIGINFO) &&
                          saved[i].sa_handler == SIG_IGN;
        if (!left_ignored[i]) sigaction(caught[i].sig, &sa, NULL);
    }
    sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    sigaction(SIGCHLD, &sa, &saved[N_CAUGHT]);
    installed = true;
}

static void restore_handlers(void)
{
    if (!installed) return;
    installed = false;
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

/* What the forked child needs before exec. */
struct exec_plan {
    char *const *argv;
    char **env;
    int out_w;        /* becomes stdout and stderr (pty: also stdin) */
    int err_w;        /* errno of a failed exec goes here */
    bool stdin_null;  /* our stdin is a terminal: give the child /dev/null */
    bool pty;         /* out_w is a terminal's slave side: a session of its own */
    pid_t parent;     /* our pid, to see whether we died before PR_SET_PDEATHSIG */
};

static void default_signals(void)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (size_t i = 0; i < N_CAUGHT; i++)
        if (!left_ignored[i]) sigaction(caught[i].sig, &dfl, NULL);
    sigaction(SIGCHLD, &dfl, NULL);
    sigaction(SIGPIPE, &dfl, NULL); /* main() ignores these two; the child must not inherit that */
    sigaction(SIGXFSZ, &dfl, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

static void child_stdin_null(void)
{
    int fd = open("/dev/null", O_RDONLY);
    if (fd >= 0 && fd != 0) {
        dup2(fd, 0);
        close(fd);
    }
}

/* In the forked child: only async-signal-safe calls until exec. */
static void exec_child(const struct exec_plan *x)
{
    /* Die with us, even of SIGKILL. A parent that died before this call
     * would never send it: then we have a new parent, and must not run. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != x->parent) _exit(127);
    if (x->pty) {
        if (setsid() < 0 || ioctl(x->out_w, TIOCSCTTY, 0) < 0 || dup2(x->out_w, 0) < 0) {
            int e = errno;
            ssize_t n = write(x->err_w, &e, sizeof e);
            (void)n;
            _exit(126);
        }
    } else {
        setpgid(0, 0);
    }
    default_signals();
    if (x->stdin_null && !x->pty) child_stdin_null();
    if (dup2(x->out_w, 1) < 0 || dup2(x->out_w, 2) < 0) _exit(127);
    if (x->out_w > 2) close(x->out_w);
    execvpe(x->argv[0], x->argv, x->env);
    int e = errno;
    ssize_t n = write(x->err_w, &e, sizeof e);
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

/* execvp's EACCES also means "a directory on PATH could not be searched",
 * even when the command is in none of them (a non-root user whose PATH
 * still names /root/..., after su or sudo): shells say "command not found"
 * and exit 127 then. So do we, unless a file by that name is on PATH (one
 * that is there but not executable is 126, as in the shell). */
static int exec_errno_like_shell(const char *cmd, int e)
{
    if (e != EACCES || !cmd || !*cmd || strchr(cmd, '/')) return e;
    const char *path = getenv("PATH");
    if (!path) path = "/bin:/usr/bin"; /* glibc's default when PATH is unset */
    for (const char *p = path;; p++) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char file[4096];
        struct stat st;
        int n = len ? snprintf(file, sizeof file, "%.*s/%s", (int)len, p, cmd)
                    : snprintf(file, sizeof file, "%s", cmd); /* empty: the current directory */
        if (n > 0 && (size_t)n < sizeof file && stat(file, &st) == 0) return e;
        if (!end) return ENOENT;
        p = end;
    }
}

bool child_which(const char *name, char *buf, size_t size)
{
    const char *path = getenv("PATH");
    if (!path) path = "/bin:/usr/bin";
    for (const char *p = path;; p++) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        struct stat st;
        int n = snprintf(buf, size, "%.*s/%s", (int)len, len ? p : ".", name);
        if (n > 0 && (size_t)n < size && stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
            return true;
        if (!end) return false;
        p = end;
    }
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

/* The terminal the child writes to, sized like ours (80x24 when we have
 * none). No output processing: the log gets "\n" as the child wrote it,
 * not the terminal's "\r\n"; no echo of input (nobody types into it). */
static int open_pty(int p[2])
{
    char name[128];
    p[0] = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (p[0] < 0) return -1;
    if (grantpt(p[0]) < 0 || unlockpt(p[0]) < 0 || ptsname_r(p[0], name, sizeof name) != 0 ||
        (p[1] = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0) {
        int e = errno;
        close_pair(p);
        errno = e;
        return -1;
    }
    struct termios t;
    if (tcgetattr(p[1], &t) == 0) {
        t.c_oflag &= ~(tcflag_t)OPOST;
        t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
        tcsetattr(p[1], TCSANOW, &t);
    }
    struct winsize ws = {.ws_row = 24, .ws_col = 80};
    if ((ioctl(1, TIOCGWINSZ, &ws) < 0 && ioctl(2, TIOCGWINSZ, &ws) < 0) || ws.ws_col == 0)
        ws = (struct winsize){.ws_row = 24, .ws_col = 80};
    ioctl(p[1], TIOCSWINSZ, &ws);
    return 0;
}

static int open_channels(bool pty, int out[2], int ex[2])
{
    if (pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK) < 0 || pipe2(ex, O_CLOEXEC) < 0 ||
        (pty ? open_pty(out) : pipe2(out, O_CLOEXEC)) < 0) {
        int e = errno;
        close_pair(out);
        close_pair(ex);
        close_pair(wake_pipe);
        errno = e;
        return -1;
    }
    if (!pty) (void)fcntl(out[0], F_SETPIPE_SZ, (int)CHILD_BUF); /* fewer wake-ups on floods */
    return 0;
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
    if (open_channels(c->pty, out, ex) < 0) {
        int e = errno;
        free(env);
        return oomlab_err_set(err, "cannot create a %s: %s", c->pty ? "pseudo-terminal" : "pipe",
                              strerror(e));
    }
    struct exec_plan x = {.argv = argv, .env = env, .out_w = out[1], .err_w = ex[1],
                          .stdin_null = isatty(0), /* a background group reading the tty would stop */
                          .pty = c->pty, .parent = getpid()};
    sigset_t block, old;
    sigemptyset(&block);
    for (size_t i = 0; i < N_CAUGHT; i++) sigaddset(&block, caught[i].sig);
    sigaddset(&block, SIGCHLD);
    sigprocmask(SIG_BLOCK, &block, &old);
    install_handlers();
    pid_t pid = fork();
    if (pid == 0) exec_child(&x);
    int fork_errno = errno;
    free(env);
    /* Both sides set the group: no race with our kill(-pid). A pty child
     * makes its own session instead (setsid refuses a group leader); it has
     * done so before exec, and we signal it only after exec_status. */
    if (pid > 0 && !c->pty) setpgid(pid, pid);
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
    if (e) fill_exec_failure(c, res, exec_errno_like_shell(argv[0], e));
    return 0;
}

/* Bytes of p written before a failure count too (a full disk takes part
 * of a write). 0, or the errno of the failure. */
static int write_all(int fd, const char *p, size_t len, uint64_t *written)
{
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return n < 0 ? errno : ENOSPC;
        *written += (uint64_t)n;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

struct pump {
    const struct child_opts *o;
    struct child_result *res;
    struct echo echo;
    char *buf;
    bool open;
    bool echo_said; /* the echo's write error was said */
    /* the offset -> time index: entries gathered here, written 4 KiB at a time */
    struct logidx_writer idx;
    int64_t start;
    char idx_buf[4096];
    size_t idx_len;
};

static void index_flush(struct pump *p)
{
    uint64_t ignore = 0;
    if (p->idx_len && !p->res->index_errno)
        p->res->index_errno = write_all(p->o->index_fd, p->idx_buf, p->idx_len, &ignore);
    p->idx_len = 0;
}

/* The log's bytes from offset arrived at now (ms since the start). */
static void index_note(struct pump *p, uint64_t offset, int64_t now, bool force)
{
    if (!p->o->index || p->o->log_fd < 0 || p->res->index_errno || p->res->log_errno) return;
    if (!logidx_due(&p->idx, now - p->start) && !force) return;
    struct logidx_entry e = {offset, now - p->start};
    if (p->idx_len + LOGIDX_LINE_MAX > sizeof p->idx_buf) index_flush(p);
    p->idx_len += logidx_entry_format(p->idx_buf + p->idx_len, sizeof p->idx_buf - p->idx_len, &e);
}

/* The header, with the wall clock at ms 0 (report lines it up with the
 * memory samples' timestamps). */
static void index_open(struct pump *p, int64_t start)
{
    p->start = start;
    if (!p->o->index) return;
    struct timespec ts;
    struct tm tm;
    char date[32], iso[40];
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(iso, sizeof iso, "%.20s.%03dZ", date, (int)(ts.tv_nsec / 1000000));
    p->idx_len = logidx_header(p->idx_buf, sizeof p->idx_buf, iso);
}

/* Said when it happens, not after hours of training: from here on the
 * output reaches only the terminal. */
static void log_failed(const struct pump *p)
{
    char msg[300];
    if (!p->o->notice) return;
    snprintf(msg, sizeof msg, "the log stops at %llu bytes: %s; the command goes on, its output %s",
             (unsigned long long)p->res->log_bytes, strerror(p->res->log_errno),
             !p->o->echo ? "no longer kept (-q)" : p->o->echo_stderr ? "only on stderr" : "only on stdout");
    p->o->notice(msg, p->o->notice_ctx);
}

/* Said once, when it happens: `oomlab run ... > out.txt` on a disk that
 * fills would otherwise leave out.txt cut short without a word. */
static void echo_check(struct pump *p)
{
    char msg[300];
    if (!p->echo.error || p->echo_said || !p->o->notice) return;
    p->echo_said = true;
    snprintf(msg, sizeof msg, "the command's output is no longer shown on %s: %s%s",
             p->o->echo_stderr ? "stderr" : "stdout", strerror(p->echo.error),
             p->o->log_fd >= 0 && !p->res->log_errno ? "; the log still gets all of it" : "");
    p->o->notice(msg, p->o->notice_ctx);
}

/* Read what is there (a bounded burst, no more than the echo takes without
 * dropping) and pass it on. EIO is how a terminal says no writer is left. */
static void pump_output(struct pump *p, int fd, int64_t now)
{
    for (int burst = 0; burst < 16 && p->open; burst++) {
        size_t want = echo_room(&p->echo, now);
        if (want == 0) return;
        if (want > CHILD_BUF) want = CHILD_BUF;
        ssize_t n = read(fd, p->buf, want);
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
        index_note(p, p->res->log_bytes, now, false);
        if (p->o->log_fd >= 0 && !p->res->log_errno) {
            p->res->log_errno = write_all(p->o->log_fd, p->buf, (size_t)n, &p->res->log_bytes);
            if (p->res->log_errno) log_failed(p);
        }
        echo_add(&p->echo, p->buf, (size_t)n, now);
        echo_check(p);
        if ((size_t)n < want) return;
    }
}

/* After the child exited: its group's members still running. */
struct winddown {
    int64_t term_at;   /* SIGTERM then, if any is left */
    int64_t termed_at; /* when they got SIGTERM; 0 not yet */
    int64_t killed_at; /* when they got SIGKILL; 0 not yet */
    int64_t cut_at;    /* nobody of the group left but the pipe open: stop reading then */
    int alive;         /* still there a grace period after SIGKILL (uninterruptible sleep) */
    bool announced;
};

struct supervise {
    struct child *c;
    const struct child_opts *o;
    struct child_result *res;
    int64_t start, next_tick, deadline, kill_at, exited_at, grace;
    int64_t hint_at; /* the interrupted command is still running then: say so (0: said or not due) */
    bool exited;
    sig_atomic_t handled[N_CAUGHT];
    struct winddown w;
};

/* include/linux/sched.h: PF_EXITING, field 9 (flags) of /proc/PID/stat */
#define PF_EXITING_FLAG 0x00000004UL

/* Live members of process group pgid other than its leader (zombies hold
 * no pipe and cannot be signalled out of existence): how many, and the
 * first one's pid and name for messages. 0 when /proc cannot be read. */
static int group_members(pid_t pgid, pid_t *first, char *comm, size_t size)
{
    DIR *d = opendir("/proc");
    int n = 0;
    if (!d) return 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!isdigit((unsigned char)e->d_name[0])) continue;
        char path[300], line[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        ssize_t len = read(fd, line, sizeof line - 1);
        close(fd);
        if (len <= 0) continue;
        line[len] = '\0';
        char *open_paren = strchr(line, '('), *close_paren = strrchr(line, ')');
        long pid, ppid, pgrp;
        unsigned long flags;
        char state;
        if (!open_paren || !close_paren || sscanf(line, "%ld", &pid) != 1 ||
            sscanf(close_paren + 1, " %c %ld %ld %*d %*d %*d %lu", &state, &ppid, &pgrp, &flags) != 4)
            continue;
        /* a zombie, or a process already in exit (PF_EXITING: set before it
         * closes its files, so one that just closed the pipe by exiting is
         * not a leftover however long a loaded machine takes to reap it) */
        if (pgrp != pgid || pid == pgid || state == 'Z' || state == 'X' || (flags & PF_EXITING_FLAG))
            continue;
        if (n++ == 0) {
            *first = (pid_t)pid;
            int cl = (int)(close_paren - open_paren - 1);
            snprintf(comm, size, "%.*s", cl < 0 ? 0 : cl, open_paren + 1);
            for (char *c = comm; *c; c++) /* a process names itself: keep it off the terminal */
                if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
        }
    }
    closedir(d);
    return n;
}

static void say(const struct supervise *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const struct supervise *s, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (s->o->notice) s->o->notice(msg, s->o->notice_ctx);
}

/* "20s", "500ms": the grace period as the user wrote it. */
static const char *grace_text(const struct supervise *s, char *buf, size_t size)
{
    if (s->grace % 1000 == 0) snprintf(buf, size, "%llds", (long long)(s->grace / 1000));
    else snprintf(buf, size, "%lldms", (long long)s->grace);
    return buf;
}

static void escalate(struct supervise *s, int sig, int64_t now)
{
    if (s->exited) return; /* the wind-down deals with what is left */
    kill(-s->c->pid, sig);
    if (sig == SIGKILL) {
        s->res->escalated = true;
        s->kill_at = 0;
    } else if (!s->kill_at) {
        s->kill_at = now + s->grace;
    }
}

/* Ctrl-Z: the child's group stops (SIGSTOP: a group of another session,
 * with --pty, would not get a SIGTSTP), then we do, as the shell expects of
 * a job; once continued (fg, bg), so is the group. The time stopped does
 * not count against --timeout or the grace period. */
static void stop_job(struct supervise *s)
{
    if (!s->exited) kill(-s->c->pid, SIGSTOP);
    int64_t before = now_ms();
    raise(SIGSTOP);
    int64_t stopped = now_ms() - before;
    if (!s->exited) kill(-s->c->pid, SIGCONT);
    if (s->deadline) s->deadline += stopped;
    if (s->kill_at) s->kill_at += stopped;
}

/* Our own signals: the first interrupting one is forwarded, a second one
 * kills the group at once (the user means it). After the child's exit
 * they hurry the wind-down the same way. */
static void handle_signals(struct supervise *s, int64_t now)
{
    char drain[64];
    while (read(wake_pipe[0], drain, sizeof drain) > 0) {
    }
    for (size_t i = 0; i < N_CAUGHT; i++) {
        while (s->handled[i] < pending[i]) {
            s->handled[i]++;
            int sig = caught[i].sig;
            if (caught[i].stops) {
                stop_job(s);
            } else if (!caught[i].interrupts) {
                if (!s->exited) kill(-s->c->pid, sig);
            } else if (!s->res->forwarded_signal) {
                s->res->forwarded_signal = sig;
                escalate(s, sig, now);
                if (!s->exited) s->hint_at = now + CHILD_HINT_MS;
                if (s->exited && now < s->w.term_at) s->w.term_at = now;
                if (s->exited && now + CHILD_DRAIN_MS < s->w.cut_at) s->w.cut_at = now + CHILD_DRAIN_MS;
            } else {
                if (!s->exited && !s->res->escalated) s->res->killed_at_once = true;
                escalate(s, SIGKILL, now);
                if (s->exited && s->w.termed_at && !s->w.killed_at) s->w.termed_at = now - s->grace;
                if (s->exited) s->w.term_at = now;
            }
        }
    }
}

/* Has the child exited? Seen without reaping it: while it is a zombie its
 * pid, the group's id, cannot go to another process. */
static bool child_exited(struct supervise *s, int64_t now)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    int r;
    do r = waitid(P_PID, (id_t)s->c->pid, &si, WEXITED | WNOHANG | WNOWAIT);
    while (r < 0 && errno == EINTR);
    if (r < 0 || si.si_pid != s->c->pid) return false;
    s->exited = true;
    s->exited_at = now;
    /* heirs of an interrupted or timed-out run already had our signal */
    bool signalled = s->res->forwarded_signal || s->res->timed_out || s->res->stopped ||
                     s->res->escalated;
    s->w.term_at = signalled ? now : now + s->grace;
    s->w.cut_at = now + (signalled ? CHILD_DRAIN_MS : s->grace);
    return true;
}

static void signal_leftovers(struct supervise *s, int sig, int n, pid_t first, const char *comm,
                             int64_t now)
{
    char grace[32];
    kill(-s->c->pid, sig);
    s->res->leftover_signal = sig;
    if (sig == SIGTERM) {
        s->w.termed_at = now;
        say(s, "the command exited but %d process%s of its group %s still running (pid %ld %s%s): "
               "SIGTERM, SIGKILL after %s",
            n, n > 1 ? "es" : "", n > 1 ? "are" : "is", (long)first, comm, n > 1 ? ", ..." : "",
            grace_text(s, grace, sizeof grace));
    } else {
        s->w.killed_at = now;
        say(s, "%d process%s of the command's group ignored SIGTERM (pid %ld %s): SIGKILL", n,
            n > 1 ? "es" : "", (long)first, comm);
    }
}

/* One look at what the child left. True when the run is over: nothing of
 * the group runs and the pipe is closed, or we stopped waiting. */
/* A holder of the output is announced only once it has kept the pipe open
 * this long after the command exited (before that, the pipe is draining). */
#define ANNOUNCE_AFTER_MS 300

static bool wind_down(struct supervise *s, bool open, int64_t now)
{
    pid_t first = 0;
    char comm[64] = "";
    int n = group_members(s->c->pid, &first, comm, sizeof comm);
    if (n > s->res->leftover) s->res->leftover = n;
    if (n == 0) {
        if (!open) return true;
        /* not at once: what is left in the pipe is still being read */
        if (!s->w.announced && now >= s->exited_at + ANNOUNCE_AFTER_MS && now + 1000 < s->w.cut_at) {
            char grace[32];
            s->w.announced = true;
            say(s, "the command exited; a process outside its group still holds its output: "
                   "read for up to %s",
                grace_text(s, grace, sizeof grace));
        }
        if (now < s->w.cut_at) return false;
        s->res->output_cut = true;
        return true;
    }
    if (!s->w.announced && open && !s->w.termed_at && now >= s->exited_at + ANNOUNCE_AFTER_MS &&
        now + 1000 < s->w.term_at) {
        char grace[32];
        s->w.announced = true;
        say(s, "the command exited; %d process%s of its group still hold%s its output (pid %ld %s): "
               "read for up to %s, then SIGTERM",
            n, n > 1 ? "es" : "", n > 1 ? "" : "s", (long)first, comm,
            grace_text(s, grace, sizeof grace));
    }
    if (s->res->escalated && !s->w.killed_at) {
        /* the whole group had SIGKILL (a second Ctrl-C, the grace period):
         * these are dying, not left over; only one that outlives the grace
         * period is said */
        kill(-s->c->pid, SIGKILL);
        s->w.termed_at = s->w.killed_at = now;
    } else if (!s->w.termed_at && (!open || now >= s->w.term_at)) {
        signal_leftovers(s, SIGTERM, n, first, comm, now);
    } else if (s->w.termed_at && !s->w.killed_at && now >= s->w.termed_at + s->grace) {
        signal_leftovers(s, SIGKILL, n, first, comm, now);
    } else if (s->w.killed_at && now >= s->w.killed_at + s->grace) {
        say(s, "%d process%s of the command's group did not die of SIGKILL (pid %ld %s): left running",
            n, n > 1 ? "es" : "", (long)first, comm);
        s->w.alive = n;
        return true;
    }
    if (s->w.termed_at) s->w.cut_at = now + CHILD_DRAIN_MS; /* the pipe's holders are dying */
    return false;
}

/* While running, the next sampling tick; once exited, the next look at
 * the group. */
static int64_t next_mark(const struct supervise *s, int64_t now)
{
    if (s->exited) return now + CHILD_RESCAN_MS;
    return s->o->tick && s->o->interval_ms > 0 ? s->next_tick : 0;
}

static int poll_timeout(const struct supervise *s, const struct pump *p, int64_t now)
{
    int64_t wait = 1000;
    int64_t marks[6] = {next_mark(s, now), s->exited || s->res->timed_out ? 0 : s->deadline, s->kill_at,
                        s->exited && p->open ? s->w.cut_at : 0, echo_release_at(&p->echo), s->hint_at};
    for (int i = 0; i < 6; i++)
        if (marks[i] && marks[i] - now < wait) wait = marks[i] - now;
    return wait < 0 ? 0 : (int)wait;
}

/* A command that does not stop at once on the forwarded signal (one that
 * ignores it, or a trainer saving or joining its workers) keeps printing
 * as if nothing happened: say what comes next and how to hurry it, as
 * docker compose does ("press Ctrl+C again to force"). */
static void still_running_hint(struct supervise *s, int64_t now)
{
    s->hint_at = 0;
    if (s->exited || !s->kill_at || s->res->escalated) return;
    char name[32], left[32];
    int sig = s->res->forwarded_signal;
    child_signal_name(sig, name, sizeof name);
    int64_t ms = s->kill_at - now;
    if (ms % 1000 == 0 || ms >= 10000) snprintf(left, sizeof left, "%llds", (long long)((ms + 999) / 1000));
    else snprintf(left, sizeof left, "%lldms", (long long)ms);
    say(s, "the command is still running after %s: SIGKILL to its group in %s (%s again kills it now)", name,
        left, sig == SIGINT ? "Ctrl-C" : name);
}

static void timers(struct supervise *s, int64_t now)
{
    if (s->o->tick && s->o->interval_ms > 0 && !s->exited && now >= s->next_tick) {
        s->o->tick(s->o->tick_ctx);
        s->next_tick += s->o->interval_ms;
        if (s->next_tick <= now) s->next_tick = now + s->o->interval_ms;
        if (s->o->stop && !s->exited && !s->res->stopped && s->o->stop(s->o->tick_ctx)) {
            s->res->stopped = true;
            escalate(s, SIGTERM, now);
        }
    }
    if (s->deadline && !s->exited && !s->res->timed_out && now >= s->deadline) {
        s->res->timed_out = true;
        escalate(s, SIGTERM, now);
    }
    if (s->kill_at && now >= s->kill_at) escalate(s, SIGKILL, now);
    if (s->hint_at && now >= s->hint_at) still_running_hint(s, now);
}

/* Reap the child (its status was only peeked at) and read the status. */
static void finish(struct supervise *s)
{
    int st = 0;
    while (waitpid(s->c->pid, &st, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(st)) {
        s->res->exit_code = WEXITSTATUS(st);
    } else if (WIFSIGNALED(st)) {
        s->res->term_signal = WTERMSIG(st);
        s->res->exit_code = 128 + WTERMSIG(st);
    }
}

static void add_note(struct child_result *res, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_note(struct child_result *res, const char *fmt, ...)
{
    size_t n = strlen(res->note);
    if (n + 3 >= sizeof res->note) return;
    if (n) n += (size_t)snprintf(res->note + n, sizeof res->note - n, "; ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->note + n, sizeof res->note - n, fmt, ap);
    va_end(ap);
}

static void write_notes(const struct supervise *s, struct child_result *res)
{
    res->note[0] = '\0';
    if (res->leftover && res->leftover_signal)
        add_note(res, "%d leftover process%s of the group: SIGTERM%s", res->leftover,
                 res->leftover > 1 ? "es" : "",
                 res->leftover_signal == SIGKILL ? ", then SIGKILL after the grace period" : "");
    if (s->w.alive)
        add_note(res, "%d still running after SIGKILL (uninterruptible)", s->w.alive);
    if (res->output_cut) {
        add_note(res, "output cut: the pipe was still held open by a process outside the group");
        say(s, "output cut: the command's pipe was still held open by a process outside its group");
    }
    if (res->echo_errno)
        add_note(res, "output no longer shown on %s: %s", s->o->echo_stderr ? "stderr" : "stdout",
                 strerror(res->echo_errno));
    if (res->echo_dropped) {
        add_note(res, "%llu bytes not echoed (stdout was not being read)",
                 (unsigned long long)res->echo_dropped);
        say(s, "%llu bytes of output not echoed: stdout was not being read (the log has them all)",
            (unsigned long long)res->echo_dropped);
    }
}

static int supervise_loop(struct supervise *s, struct pump *p, struct oomlab_err *err)
{
    for (;;) {
        int64_t now = now_ms();
        handle_signals(s, now);
        if (!s->exited && child_exited(s, now)) {
            if (s->o->tick) s->o->tick(s->o->tick_ctx); /* the last sample, before reaping */
            pump_output(p, s->c->out_fd, now);       /* EOF now means nobody holds the pipe */
        }
        timers(s, now);
        if (s->exited && wind_down(s, p->open, now)) return 0;
        bool read_child = p->open && echo_room(&p->echo, now) > 0;
        struct pollfd fds[3] = {{.fd = wake_pipe[0], .events = POLLIN},
                                {.fd = read_child ? s->c->out_fd : -1, .events = POLLIN},
                                {.fd = p->echo.fd, .events = echo_events(&p->echo)}};
        int n = poll(fds, 3, poll_timeout(s, p, now));
        if (n < 0 && errno != EINTR) {
            oomlab_err_set(err, "poll: %s", strerror(errno));
            kill(-s->c->pid, SIGKILL);
            return -1;
        }
        now = now_ms();
        if (n > 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
            echo_flush(&p->echo, now);
            echo_check(p);
        }
        if (n > 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) pump_output(p, s->c->out_fd, now);
    }
}

int child_supervise(struct child *c, const struct child_opts *o, struct child_result *res,
                    struct oomlab_err *err)
{
    if (res->exec_failed || c->pid < 0) return 0;
    struct supervise s = {.c = c, .o = o, .res = res};
    struct pump p = {.o = o, .res = res, .open = true};
    p.buf = malloc(CHILD_BUF);
    if (!p.buf) return oomlab_err_set(err, "out of memory");
    echo_open(&p.echo, !o->echo ? -1 : o->echo_stderr ? 2 : 1);
    fcntl(c->out_fd, F_SETFL, fcntl(c->out_fd, F_GETFL) | O_NONBLOCK);
    s.grace = o->grace_ms > 0 ? o->grace_ms : CHILD_GRACE_MS;
    s.start = now_ms();
    index_open(&p, s.start);
    s.next_tick = s.start + o->interval_ms;
    if (o->timeout_ms > 0) s.deadline = s.start + o->timeout_ms;
    if (o->tick) o->tick(o->tick_ctx); /* the first sample, however quick the child */
    int rc = supervise_loop(&s, &p, err);
    pump_output(&p, c->out_fd, now_ms()); /* what the last holders wrote as they went */
    index_note(&p, res->log_bytes, now_ms(), true); /* the log's final size */
    index_flush(&p);
    if (!p.open) res->output_cut = false;
    finish(&s);
    echo_close(&p.echo);
    echo_check(&p);
    res->echo_dropped = p.echo.dropped;
    res->echo_errno = p.echo.error;
    write_notes(&s, res);
    free(p.buf);
    close(c->out_fd);
    c->out_fd = -1;
    return rc;
}

/* A caller with its own handler (probe stops between trials) still hears
 * of the interruption: raise it again once that handler is back. Default
 * and ignored dispositions are left alone (oomlab run exits like the child). */
void child_end(void)
{
    if (!installed) return;
    bool again[N_CAUGHT];
    for (size_t i = 0; i < N_CAUGHT; i++) {
        bool has_fn = (saved[i].sa_flags & SA_SIGINFO) ||
                      (saved[i].sa_handler != SIG_DFL && saved[i].sa_handler != SIG_IGN);
        again[i] = caught[i].interrupts && pending[i] && has_fn;
    }
    restore_handlers();
    for (size_t i = 0; i < N_CAUGHT; i++)
        if (again[i]) raise(caught[i].sig);
}
