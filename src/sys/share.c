/* share: find oomlab's shipped data directory at run time, so an installed
 * binary, a source-tree build and a moved tarball all find their hook. */
#include "sys/share.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int has(const char *dir, const char *rel)
{
    char path[PATH_MAX];
    int n = snprintf(path, sizeof path, "%s/%s", dir, rel);
    return n > 0 && (size_t)n < sizeof path && access(path, R_OK) == 0;
}

static int put(char *buf, size_t size, const char *dir)
{
    int n = snprintf(buf, size, "%s", dir);
    return n > 0 && (size_t)n < size ? 0 : -1;
}

int share_find(const char *rel, char *buf, size_t size, struct oomlab_err *err)
{
    const char *env = getenv("OOMLAB_SHARE");
    if (env && *env) {
        if (has(env, rel) && put(buf, size, env) == 0) return 0;
        return oomlab_err_set(err, "OOMLAB_SHARE=%s has no %s", env, rel);
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return oomlab_err_set(err, "cannot find oomlab's own path (/proc/self/exe) to locate share/oomlab; set OOMLAB_SHARE");
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) *slash = '\0';
    char dir[PATH_MAX];
    int k = snprintf(dir, sizeof dir, "%s/../share/oomlab", exe);
    if (k > 0 && (size_t)k < sizeof dir && has(dir, rel)) {
        char real[PATH_MAX];
        if (realpath(dir, real) && put(buf, size, real) == 0) return 0;
    }
    return oomlab_err_set(err, "oomlab's %s is not in %s/../share/oomlab (installed with `make install`?); set OOMLAB_SHARE to the directory that holds it", rel, exe);
}
