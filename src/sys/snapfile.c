/* snapfile: a snapshot file through zlib into the streaming pickle reader
 * (see snapfile.h). */
#include "sys/snapfile.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "lib/pickle.h"

struct gz_src {
    gzFile gz;
    const char *path;
};

static int gz_read(void *src, void *buf, size_t size, size_t *got, struct oomlab_err *err)
{
    struct gz_src *g = src;
    unsigned want = size > INT_MAX ? INT_MAX : (unsigned)size;
    int n = gzread(g->gz, buf, want);
    if (n < 0) {
        int zerr;
        const char *msg = gzerror(g->gz, &zerr);
        return oomlab_err_set(err, "%s: %s", g->path, zerr == Z_ERRNO ? strerror(errno) : msg);
    }
    *got = (size_t)n;
    return 0;
}

static int gz_rewind(void *src, struct oomlab_err *err)
{
    struct gz_src *g = src;
    return gzrewind(g->gz) == 0 ? 0 : oomlab_err_set(err, "%s: cannot read it again", g->path);
}

int snapfile_load(const char *path, size_t memory_limit, struct snapshot *s,
                  struct oomlab_err *err)
{
    struct stat st;
    if (!strcmp(path, "-")) /* diagnose and lint read '-': say why this does not */
        return oomlab_err_set(err, "-: a snapshot is not read from standard input (the reader "
                                   "passes over the file twice): give the file's name");
    if (stat(path, &st) != 0) return oomlab_err_set(err, "%s: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode)) return oomlab_err_set(err, "%s: not a regular file", path);
    if (st.st_size == 0) /* not "truncated": nothing was written (a dump that failed?) */
        return oomlab_err_set(err, "%s: empty file (0 bytes), not a snapshot", path);
    struct gz_src g = {gzopen(path, "rb"), path};
    if (!g.gz) return oomlab_err_set(err, "%s: %s", path, strerror(errno ? errno : ENOMEM));
    struct pickle_opts o = {.read = gz_read, .rewind = gz_rewind, .src = &g,
                            .memory_limit = memory_limit};
    int rc = snapshot_load(s, &o, err);
    int zerr = Z_OK;
    if (rc < 0) gzerror(g.gz, &zerr); /* Z_BUF_ERROR: the .gz ended inside its data */
    gzclose(g.gz);
    if (rc < 0) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        oomlab_err_set(err, "%s: %s%s", path, zerr == Z_BUF_ERROR ? "the compressed data ends early (cut off "
                       "while it was written or copied?), so the pickle does: " : "", msg);
    }
    return rc;
}

