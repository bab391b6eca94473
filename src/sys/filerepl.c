/* filerepl: temp file + rename (see filerepl.h). */
#include "sys/filerepl.h"
#include "sys/fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What an lstat mode is, in words, for everything we refuse to replace. */
static const struct {
    mode_t type;
    const char *words;
} refused[] = {
    {S_IFLNK, "a symbolic link"}, /* never written through, never replaced */
    {S_IFIFO, "a FIFO"},          {S_IFCHR, "a character device"}, {S_IFBLK, "a block device"},
    {S_IFDIR, "a directory"},     {S_IFSOCK, "a socket"},
};

int filerepl_check(const char *path, const char *what, struct oomlab_err *err)
{
    struct stat st;
    if (lstat(path, &st) < 0) {
        if (errno == ENOENT) return 0; /* a new file */
        char why[4200];
        return oomlab_err_set(err, "%s %s: %s", what, path, fsutil_why(path, errno, why, sizeof why));
    }
    if (S_ISREG(st.st_mode)) return 0;
    const char *words = "not a regular file";
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if ((st.st_mode & S_IFMT) == refused[i].type) words = refused[i].words;
    return oomlab_err_set(err,
                          "%s %s: is %s; refusing to replace it: give a regular file or a new name",
                          what, path, words);
}

static int write_all(int fd, const char *data, size_t len)
{
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return w < 0 ? errno : ENOSPC;
        off += (size_t)w;
    }
    return 0;
}

int filerepl_write(const char *path, const char *data, size_t len, struct oomlab_err *err)
{
    if (filerepl_check(path, "cannot write", err) < 0) return -1;
    char tmp[4096];
    int n = snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
    if (n < 0 || (size_t)n >= sizeof tmp) return oomlab_err_set(err, "path too long: %s", path);
    int fd = mkostemp(tmp, O_CLOEXEC); /* O_EXCL: never opens what someone else put there */
    if (fd < 0) /* name what the user asked for, not our temporary's name */
        return oomlab_err_set(err, "cannot write %s: %s", path, strerror(errno));
    mode_t mask = umask(022);
    umask(mask);
    int saved = fchmod(fd, 0644 & ~mask) < 0 ? errno : 0; /* readable by the collector */
    if (!saved) saved = write_all(fd, data, len);
    if (close(fd) < 0 && !saved) saved = errno;
    if (!saved && filerepl_check(path, "cannot write", err) < 0) {
        unlink(tmp); /* replaced by something else meanwhile: leave it */
        return -1;
    }
    if (!saved && rename(tmp, path) < 0) saved = errno;
    if (!saved) return 0;
    unlink(tmp);
    return oomlab_err_set(err, "cannot write %s: %s", path, strerror(saved));
}
