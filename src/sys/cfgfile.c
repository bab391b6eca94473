/* cfgfile: open without blocking, refuse what is not a regular file, read
 * to EOF with a cap (st_size is not trusted: /proc reports 0). */
#include "sys/cfgfile.h"

#include "sys/fsutil.h"

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
    int rc = fsutil_read_fd(fd, path, CFGFILE_MAX, text, len, err); /* the one capped reader */
    close(fd);
    return rc;
}
