/* oomlab doctor: what this machine has for oomlab — NVML and the driver,
 * the GPUs, nvidia-smi, the python on PATH and whether it imports torch
 * (for `run --torch`), the hook's files, the ledger here — each as a line
 * ok / warn / fail with what to do. A table of checks, run in order. */
#include "cmd/cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/ledger_io.h"
#include "lib/allocconf.h"
#include "lib/units.h"
#include "render/json.h"
#include "sys/child.h"
#include "sys/ledgerfile.h"
#include "sys/nvml.h"
#include "sys/share.h"

enum level { OK, WARN, FAIL };
static const char *const level_names[] = {"ok", "warn", "fail"};

struct finding {
    const char *check;
    enum level level;
    char what[768];
    char todo[384];
};

struct report {
    struct finding f[32];
    size_t n;
    char torch_version[64]; /* of the python on PATH; "" unknown */
};

__attribute__((format(printf, 4, 5))) static struct finding *add(struct report *r, const char *check,
                                                                 enum level lv, const char *fmt, ...)
{
    if (r->n == sizeof r->f / sizeof r->f[0]) return &r->f[r->n - 1];
    struct finding *f = &r->f[r->n++];
    *f = (struct finding){.check = check, .level = lv};
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->what, sizeof f->what, fmt, ap);
    va_end(ap);
    return f;
}

static void check_nvml(struct report *r)
{
    struct nvml *nv;
    struct oomlab_err err = {{0}};
    if (nvml_open(&nv, &err) < 0) {
        struct finding *f = add(r, "nvml", WARN, "NVML not available: %s", err.msg);
        snprintf(f->todo, sizeof f->todo,
                 "ps/watch exit 4 and run records no device memory here; on a GPU node install the "
                 "NVIDIA driver, or set OOMLAB_NVML_LIBRARY to libnvidia-ml.so.1");
        return;
    }
    char driver[96], api[160];
    unsigned count = 0;
    nvml_driver(nv, driver, sizeof driver);
    /* a count that fails is not "no GPU" (ps and watch stop with the error, exit 3) */
    if (nvml_count(nv, &count, &err) < 0) {
        struct finding *f = add(r, "nvml", WARN, "NVML %s (%s), driver %s: %s", nvml_library(nv),
                                nvml_api(nv, api, sizeof api), driver[0] ? driver : "unknown", err.msg);
        snprintf(f->todo, sizeof f->todo, "ps and watch stop with this error; try nvidia-smi to see whether the "
                                          "driver answers");
        nvml_close(nv);
        return;
    }
    add(r, "nvml", OK, "NVML %s (%s), driver %s, %u GPU%s", nvml_library(nv),
        nvml_api(nv, api, sizeof api), driver[0] ? driver : "unknown", count, count == 1 ? "" : "s");
    for (unsigned i = 0; i < count; i++) {
        struct nvml_gpu g;
        char total[32], used[32];
        if (nvml_gpu(nv, i, &g, &err) < 0) {
            add(r, "gpu", WARN, "GPU %u: %s", i, err.msg);
            continue;
        }
        add(r, "gpu", OK, "GPU %u %s: %s total, %s used", i, g.name,
            units_format_bytes(g.total, total, sizeof total), units_format_bytes(g.used, used, sizeof used));
    }
    if (count == 0) add(r, "gpu", WARN, "NVML loaded but lists no GPU");
    nvml_close(nv);
}

static void check_nvidia_smi(struct report *r)
{
    char path[PATH_MAX];
    if (child_which("nvidia-smi", path, sizeof path)) add(r, "nvidia-smi", OK, "%s", path);
    else add(r, "nvidia-smi", WARN, "nvidia-smi is not on PATH (oomlab does not need it; the guides' checks quote it)");
}

/* Run argv with stdin from /dev/null, collect its stdout (bounded), give
 * up after timeout_ms. Returns the exit status, -1 on failure or timeout. */
static int capture(char *const argv[], char *out, size_t size, int timeout_ms)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0) return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) { dup2(null, 0); dup2(null, 2); }
        dup2(fds[1], 1);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    size_t len = 0;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long left = timeout_ms - ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000);
        struct pollfd p = {.fd = fds[0], .events = POLLIN};
        if (left <= 0 || poll(&p, 1, (int)left) <= 0) {
            kill(pid, SIGKILL);
            len = 0;
            break;
        }
        char tmp[512];
        ssize_t n = read(fds[0], tmp, sizeof tmp);
        if (n <= 0) break;
        size_t keep = (size_t)n < size - 1 - len ? (size_t)n : size - 1 - len;
        memcpy(out + len, tmp, keep);
        len += keep;
    }
    close(fds[0]);
    out[len] = '\0';
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    if (len == 0 && !(WIFEXITED(st) && WEXITSTATUS(st) != 0)) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r')) s[--n] = '\0';
}

static void check_python(struct report *r)
{
    char path[PATH_MAX];
    const char *py = child_which("python3", path, sizeof path)  ? "python3"
                     : child_which("python", path, sizeof path) ? "python"
                                                                : NULL;
    if (!py) {
        struct finding *f = add(r, "python", WARN, "no python3 or python on PATH");
        snprintf(f->todo, sizeof f->todo, "run --torch needs the python that runs your training");
        return;
    }
    char out[512];
    char *argv[] = {(char *)py, "-c",
                    "import torch; print(torch.__version__, torch.cuda.is_available(), torch.version.cuda or '-')",
                    NULL};
    int rc = capture(argv, out, sizeof out, 30000);
    chomp(out);
    char ver[64] = "", cuda[16] = "", cuda_ver[32] = "";
    if (rc != 0 || sscanf(out, "%63s %15s %31s", ver, cuda, cuda_ver) != 3) {
        struct finding *f = add(r, "torch", WARN, "%s cannot import torch%s", path, rc < 0 ? " (timed out after 30 s)" : "");
        snprintf(f->todo, sizeof f->todo,
                 "run --torch works with the python your command runs; activate its environment first");
        return;
    }
    snprintf(r->torch_version, sizeof r->torch_version, "%s", ver);
    add(r, "torch", OK, "%s: torch %s, CUDA build %s, GPU visible to torch: %s", path, ver, cuda_ver,
        strcmp(cuda, "True") ? "no" : "yes");
}

static void check_hook(struct report *r)
{
    char dir[PATH_MAX];
    struct oomlab_err err = {{0}};
    if (share_find("torch/sitecustomize.py", dir, sizeof dir, &err) == 0) {
        add(r, "hook", OK, "PyTorch hook for run --torch: %s/torch", dir);
        return;
    }
    struct finding *f = add(r, "hook", FAIL, "%s", err.msg);
    snprintf(f->todo, sizeof f->todo, "run --torch cannot work until the hook is found");
}

/* The path whose write permission decides whether run can keep its
 * records in dir: dir itself, or, where it does not exist yet (run makes
 * it), its nearest existing parent; *is_dir false when that is no
 * directory (run, table and the rest refuse it). */
static const char *writable_home(const char *dir, char *buf, size_t size, bool *is_dir)
{
    struct stat st;
    snprintf(buf, size, "%s", dir);
    *is_dir = true;
    for (;;) {
        if (stat(buf, &st) == 0) {
            *is_dir = S_ISDIR(st.st_mode);
            return buf;
        }
        char *slash = strrchr(buf, '/');
        if (!slash) return ".";
        if (slash == buf) return "/";
        *slash = '\0';
    }
}

/* What a path that is no directory is, in words. */
static const char *file_kind(const char *path)
{
    struct stat st;
    if (stat(path, &st) < 0) return "not a directory";
    return S_ISREG(st.st_mode)    ? "a regular file"
           : S_ISFIFO(st.st_mode) ? "a FIFO"
           : S_ISCHR(st.st_mode)  ? "a character device"
           : S_ISBLK(st.st_mode)  ? "a block device"
           : S_ISSOCK(st.st_mode) ? "a socket"
                                  : "not a directory";
}

/* DIR, or a parent of it, exists and is no directory: run cannot keep its
 * records there nor make DIR under it. */
static void ledger_not_dir(struct report *r, const char *dir, const char *where)
{
    struct finding *f;
    if (!strcmp(where, dir)) {
        f = add(r, "ledger", FAIL, "%s is %s, not a directory: run keeps its configs/, logs/ and "
                                   "runs.csv in --dir", dir, file_kind(where));
        snprintf(f->todo, sizeof f->todo, "give --dir a directory, or a new name (run makes it)");
    } else {
        f = add(r, "ledger", FAIL, "%s cannot be a directory: %s is %s, not a directory, so run "
                                   "cannot make it", dir, where, file_kind(where));
        snprintf(f->todo, sizeof f->todo, "give --dir a directory, or a new path under one");
    }
}

static void check_ledger(struct report *r, const char *dir)
{
    char home[PATH_MAX];
    bool is_dir;
    const char *where = writable_home(dir, home, sizeof home, &is_dir);
    if (!is_dir) {
        ledger_not_dir(r, dir, where);
        return;
    }
    int writable = access(where, W_OK) == 0 ? 0 : errno;
    struct ledger lg;
    char path[PATH_MAX];
    struct oomlab_err err = {{0}};
    char csv[PATH_MAX], shards[PATH_MAX];
    snprintf(csv, sizeof csv, "%s/runs.csv", dir);
    snprintf(shards, sizeof shards, "%s/" LEDGERFILE_SHARDS, dir);
    struct stat st;
    if (lstat(csv, &st) < 0 && lstat(shards, &st) < 0) { /* a ledger of shards only is one too */
        char near[300];
        ledgerfile_nearby(dir, NULL, near, sizeof near);
        /* "run creates it" only where run can: else the failure below says why not */
        if (!writable)
            add(r, "ledger", OK, "no ledger in %s yet (oomlab run creates %s)%s%s", dir, csv,
                near[0] ? "; there is one with " : "", near);
    } else if (ledger_io_load("doctor", dir, &lg, path, sizeof path, &err) < 0) {
        struct finding *f = add(r, "ledger", FAIL, "%s", err.msg);
        snprintf(f->todo, sizeof f->todo, "table/compare/run cannot use it; move it aside or fix it");
    } else {
        add(r, "ledger", OK, "%s: %zu run%s%s%s", path, lg.n, lg.n == 1 ? "" : "s",
            lg.n ? ", last " : "", lg.n ? lg.rows[lg.n - 1].cell[LEDGER_RUN_ID] : "");
        ledger_release(&lg);
    }
    if (writable) {
        struct finding *f = strcmp(where, dir)
                                ? add(r, "ledger", FAIL, "%s cannot be made: %s is not writable: %s", dir,
                                      where, strerror(writable))
                                : add(r, "ledger", FAIL, "%s is not writable: %s", where, strerror(writable));
        snprintf(f->todo, sizeof f->todo, "run needs to write configs/, logs/ and runs.csv: use --dir");
    }
}

/* A key PyTorch's allocator does not know is not ignored: the program
 * stops at its first CUDA allocation. */
static void check_alloc_conf(struct report *r, const char *var, const char *value)
{
    char says[400];
    const char *since = NULL, *key = allocconf_too_new(value, r->torch_version, &since);
    if (key) {
        struct finding *f = add(r, "env", WARN,
                                "%s: torch %s does not read %s (%s and later): it stops at the first CUDA "
                                "allocation (Unrecognized CachingAllocator option)",
                                var, r->torch_version, key, since);
        snprintf(f->todo, sizeof f->todo, "upgrade torch to %s or later, or drop %s from %s", since, key, var);
    }
    if (!allocconf_unknown_said(value, says, sizeof says)) return;
    struct finding *f = add(r, "env", WARN, "%s: %s", var, says);
    char near[200];
    if (allocconf_suggest(value, near, sizeof near))
        snprintf(f->todo, sizeof f->todo, "did you mean %s? (the keys: PyTorch's CUDA semantics notes)", near);
    else snprintf(f->todo, sizeof f->todo, "check the spelling against PyTorch's CUDA semantics notes");
}

static void check_env(struct report *r)
{
    static const struct {
        const char *name;
        bool alloc_conf;
    } vars[] = {{"PYTORCH_ALLOC_CONF", true},    {"PYTORCH_CUDA_ALLOC_CONF", true},
                {"PYTORCH_HIP_ALLOC_CONF", true}, {"CUDA_VISIBLE_DEVICES", false},
                {"CUDA_LAUNCH_BLOCKING", false}};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i].name);
        if (!v) continue;
        add(r, "env", OK, "%s=%s", vars[i].name, v);
        if (vars[i].alloc_conf) check_alloc_conf(r, vars[i].name, v);
    }
    const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
    if (cvd && (!*cvd || !strcmp(cvd, "-1"))) {
        struct finding *f = add(r, "env", WARN, "CUDA_VISIBLE_DEVICES=%s hides every GPU from CUDA programs", cvd);
        snprintf(f->todo, sizeof f->todo, "unset it or name the GPUs to use");
    }
}

static void render_text(const struct report *r)
{
    for (size_t i = 0; i < r->n; i++) {
        const struct finding *f = &r->f[i];
        printf("%-4s %-10s %s\n", level_names[f->level], f->check, f->what);
        if (f->todo[0]) printf("     %-10s -> %s\n", "", f->todo);
    }
}

static void render_json(const struct report *r)
{
    struct json j;
    json_init(&j, stdout, true);
    json_obj_begin(&j);
    json_key(&j, "schema");
    json_str(&j, "oomlab.doctor.v1");
    json_key(&j, "version");
    json_str(&j, OOMLAB_VERSION);
    json_key(&j, "checks");
    json_arr_begin(&j);
    for (size_t i = 0; i < r->n; i++) {
        json_obj_begin(&j);
        json_key(&j, "check");
        json_str(&j, r->f[i].check);
        json_key(&j, "level");
        json_str(&j, level_names[r->f[i].level]);
        json_key(&j, "message");
        json_str(&j, r->f[i].what);
        json_key(&j, "todo");
        json_str(&j, r->f[i].todo[0] ? r->f[i].todo : NULL);
        json_obj_end(&j);
    }
    json_arr_end(&j);
    json_obj_end(&j);
    json_finish(&j);
}

static const char usage_head[] =
    "usage: oomlab doctor [--json] [--dir DIR]\n\n"
    "What this machine has for oomlab: NVML and the driver, the GPUs, nvidia-smi,\n"
    "the python on PATH and whether it imports torch (for run --torch), the hook's\n"
    "files, the ledger in DIR (default .), memory-relevant environment variables.\n"
    "Each line: ok / warn / fail, the finding, and what to do.\n\n";
static const char usage_tail[] =
    "\nExit: 0 nothing stops a command here (warnings allowed), 1 something does,\n"
    "2 usage, 3 cannot write.\n";

struct doctor_cli {
    bool json;
    const char *dir;
};

static const struct opt_spec specs[] = {
    {.name = "json", .help = "schema oomlab.doctor.v1", OPT_FIELD(struct doctor_cli, json)},
    OPT_DIR_SPEC("where the ledger is (default .)", OPT_FIELD(struct doctor_cli, dir)),
    {0},
};
static const struct opt_table opt_table = {.command = "doctor", .usage = usage_head, .epilogue = usage_tail,
                                           .spec = specs};
CMD_OPTIONS(cmd_doctor_options, opt_table)

int cmd_doctor(int argc, char **argv)
{
    struct doctor_cli cli = {.dir = "."};
    int first, rc = cmd_options(&opt_table, argc, argv, &cli, &first);
    if (rc != CMD_CONTINUE) return rc;
    if (first < argc) return cmd_usage_error("doctor", "unexpected argument '%s'", argv[first]);
    const char *dir = cli.dir;
    bool json = cli.json;
    static struct report r;
    r.n = 0;
    add(&r, "oomlab", OK, "oomlab %s", OOMLAB_VERSION);
    check_nvml(&r);
    check_nvidia_smi(&r);
    check_python(&r);
    check_hook(&r);
    check_ledger(&r, dir);
    check_env(&r);
    if (json) render_json(&r);
    else render_text(&r);
    for (size_t i = 0; i < r.n; i++)
        if (r.f[i].level == FAIL) return EXIT_FOUND;
    return EXIT_OK;
}
