/* cfgfile: open without blocking, refuse what is not a regular file, read
 * to EOF with a cap (st_size is not trusted: /proc reports 0). */
#include "sys/cfgfile.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m)    ? "a directory"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

static int read_all(int fd, const char *path, char **text, size_t *len, struct oomlab_err *err)
{
    size_t cap = 4096, got = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        if (got == cap) {
            if (cap > CFGFILE_MAX) break;
            char *grown = realloc(buf, cap * 2 + 1);
            if (!grown) break;
            buf = grown;
            cap *= 2;
        }
        ssize_t n = read(fd, buf + got, cap - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int e = errno;
            free(buf);
            return oomlab_err_set(err, "cannot read %s: %s", path, strerror(e));
        }
        if (n == 0) {
            buf[got] = '\0';
            *text = buf;
            *len = got;
            return 0;
        }
        got += (size_t)n;
        if (got > CFGFILE_MAX) {
            free(buf);
            return oomlab_err_set(err, "%s: larger than %zu MiB: not a run config", path,
                                  CFGFILE_MAX >> 20);
        }
    }
    free(buf);
    return oomlab_err_set(err, "%s: out of memory", path);
}

int cfgfile_read(const char *path, char **text, size_t *len, struct oomlab_err *err)
{
    *text = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return oomlab_err_set(err, "cannot read %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        int e = errno;
        bool statted = fstat(fd, &st) == 0;
        close(fd);
        if (!statted) return oomlab_err_set(err, "cannot read %s: %s", path, strerror(e));
        return oomlab_err_set(err, "%s: %s, not a config file", path, kind_of(st.st_mode));
    }
    if ((unsigned long long)st.st_size > CFGFILE_MAX) {
        close(fd);
        return oomlab_err_set(err, "%s: larger than %zu MiB: not a run config", path, CFGFILE_MAX >> 20);
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    int rc = read_all(fd, path, text, len, err);
    close(fd);
    return rc;
}
