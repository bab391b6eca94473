/* torchhook: hand the PyTorch hook its paths through the environment and
 * read what it wrote. The variables go into oomlab's environment only
 * between setup and unset (oomlab is single-threaded; the child copies
 * environ at fork), so nothing else in oomlab sees them. */
#include "sys/torchhook.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/chunks.h"
#include "sys/fsutil.h"
#include "sys/share.h"


static const struct {
    const char *name;
    enum torchhook_mode mode;
} modes[] = {{"steps", TORCHHOOK_STEPS}, {"snapshot", TORCHHOOK_SNAPSHOT}};

int torchhook_mode_parse(const char *s, enum torchhook_mode *mode, struct oomlab_err *err)
{
    if (!s || !*s) s = "steps";
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (!strcmp(s, modes[i].name)) {
            *mode = modes[i].mode;
            return 0;
        }
    return oomlab_err_set(err, "--torch=%s: want --torch, --torch=steps or --torch=snapshot", s);
}

/* DIR/IDSUFFIX, made absolute: the child may change directory (a launch
 * script's cd, Hydra's run directory) before the hook opens its files. */
static int path_of(char *buf, size_t size, const char *dir, const char *id, const char *suffix,
                   struct oomlab_err *err)
{
    char cwd[PATH_MAX] = "";
    if (dir[0] != '/' && !getcwd(cwd, sizeof cwd))
        return oomlab_err_set(err, "cannot name the current directory: %s", strerror(errno));
    int n = snprintf(buf, size, "%s%s%s/%s%s", cwd, *cwd ? "/" : "", dir, id, suffix);
    if (n < 0 || (size_t)n >= size) return oomlab_err_set(err, "path too long: %s/%s%s", dir, id, suffix);
    return 0;
}

/* The header, in a file we create (never through a symlink). */
static int write_header(const char *path, struct oomlab_err *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return oomlab_err_set(err, "cannot create %s: %s%s", path, strerror(errno),
                              errno == ELOOP ? " (a symlink: oomlab does not write through links)" : "");
    const char *h = TORCHSTEPS_HEADER;
    size_t len = strlen(h);
    ssize_t w = write(fd, h, len);
    int saved = errno;
    close(fd);
    if (w != (ssize_t)len) return oomlab_err_set(err, "cannot write %s: %s", path, strerror(w < 0 ? saved : ENOSPC));
    return 0;
}

static int set_pythonpath(struct torchhook *th, const char *hook_dir, struct oomlab_err *err)
{
    const char *old = getenv("PYTHONPATH");
    th->had_pythonpath = old != NULL;
    char value[sizeof th->old_pythonpath + PATH_MAX + 1];
    if (old) {
        if (strlen(old) >= sizeof th->old_pythonpath) return oomlab_err_set(err, "PYTHONPATH is too long to extend");
        snprintf(th->old_pythonpath, sizeof th->old_pythonpath, "%s", old);
        snprintf(value, sizeof value, "%s%s%s", hook_dir, *old ? ":" : "", old);
    } else {
        snprintf(value, sizeof value, "%s", hook_dir);
    }
    return setenv("PYTHONPATH", value, 1) == 0 ? 0 : oomlab_err_set(err, "setenv: %s", strerror(errno));
}

int torchhook_setup(struct torchhook *th, enum torchhook_mode mode, const char *log_dir,
                    const char *id, struct oomlab_err *err)
{
    memset(th, 0, sizeof *th);
    th->mode = mode;
    if (mode == TORCHHOOK_OFF) return 0;
    char share[PATH_MAX], hook_dir[PATH_MAX + 8];
    if (share_find("torch/sitecustomize.py", share, sizeof share, err) < 0) return -1;
    snprintf(hook_dir, sizeof hook_dir, "%s/torch", share);
    if (path_of(th->steps_path, sizeof th->steps_path, log_dir, id, "_steps.csv", err) < 0 ||
        path_of(th->oom_dir, sizeof th->oom_dir, log_dir, id, "_oom", err) < 0 ||
        path_of(th->errors_path, sizeof th->errors_path, log_dir, id, "_torch.err", err) < 0)
        return -1;
    if (write_header(th->steps_path, err) < 0) return -1;
    unlink(th->errors_path);
    if (set_pythonpath(th, hook_dir, err) < 0) return -1;
    th->env_set = true;
    if (setenv("OOMLAB_TORCH", mode == TORCHHOOK_SNAPSHOT ? "snapshot" : "steps", 1) ||
        setenv("OOMLAB_TORCH_STEPS", th->steps_path, 1) || setenv("OOMLAB_TORCH_OOM_DIR", th->oom_dir, 1) ||
        setenv("OOMLAB_TORCH_ERRORS", th->errors_path, 1)) {
        torchhook_unset(th);
        return oomlab_err_set(err, "setenv: %s", strerror(errno));
    }
    return 0;
}

void torchhook_unset(struct torchhook *th)
{
    if (!th->env_set) return;
    if (th->had_pythonpath) setenv("PYTHONPATH", th->old_pythonpath, 1);
    else unsetenv("PYTHONPATH");
    unsetenv("OOMLAB_TORCH");
    unsetenv("OOMLAB_TORCH_STEPS");
    unsetenv("OOMLAB_TORCH_OOM_DIR");
    unsetenv("OOMLAB_TORCH_ERRORS");
    th->env_set = false;
}

static int feed(const char *data, size_t len, void *ctx, struct oomlab_err *err)
{
    (void)err;
    torchsteps_stream_feed(ctx, data, len);
    return 0;
}

/* Read in chunks: memory stays the same whatever the file's size. */
int torchhook_read_file(const char *path, struct torchsteps *ts, struct oomlab_err *err)
{
    struct torchsteps_stream *st = torchsteps_stream_new(ts);
    if (st && chunks_read(path, feed, st, NULL, err) < 0) {
        struct oomlab_err ignored;
        if (torchsteps_stream_end(st, &ignored) == 0) torchsteps_release(ts);
        return -1;
    }
    return torchsteps_stream_end(st, err);
}

int torchhook_read(const struct torchhook *th, struct torchsteps *ts, struct oomlab_err *err)
{
    return torchhook_read_file(th->steps_path, ts, err);
}

int torchhook_oom_files(const struct torchhook *th)
{
    DIR *d = opendir(th->oom_dir);
    if (!d) return 0;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

bool torchhook_had_errors(const struct torchhook *th)
{
    struct stat st;
    return th->mode != TORCHHOOK_OFF && lstat(th->errors_path, &st) == 0 && st.st_size > 0;
}
