/* filerepl: temp file + rename (see filerepl.h). */
#include "sys/filerepl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int filerepl_write(const char *path, const char *data, size_t len, struct oomlab_err *err)
{
    char tmp[4096];
    int n = snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof tmp) return oomlab_err_set(err, "path too long: %s", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return oomlab_err_set(err, "cannot create %s: %s", tmp, strerror(errno));
    size_t off = 0;
    int saved = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            saved = w < 0 ? errno : ENOSPC;
            break;
        }
        off += (size_t)w;
    }
    if (close(fd) < 0 && !saved) saved = errno;
    if (!saved && rename(tmp, path) < 0) saved = errno;
    if (!saved) return 0;
    unlink(tmp);
    return oomlab_err_set(err, "cannot write %s: %s", path, strerror(saved));
}
