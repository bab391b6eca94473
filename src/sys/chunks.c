/* chunks: open non-blocking (a FIFO or a device is refused by fstat before
 * any read could block), read, hand on. */
#include "sys/chunks.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK (1u << 20)

int chunks_read(const char *path, int (*fn)(const char *data, size_t len, void *ctx, struct oomlab_err *err),
                void *ctx, bool *missing, struct oomlab_err *err)
{
    if (missing) *missing = false;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        if (missing) *missing = errno == ENOENT;
        return oomlab_err_set(err, "cannot open %s: %s", path, strerror(errno));
    }
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return oomlab_err_set(err, "%s is not a regular file", path);
    }
    char *buf = malloc(CHUNK);
    if (!buf) {
        close(fd);
        return oomlab_err_set(err, "out of memory");
    }
    int rc = 0;
    for (;;) {
        ssize_t n = read(fd, buf, CHUNK);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            rc = oomlab_err_set(err, "cannot read %s: %s", path, strerror(errno));
            break;
        }
        if (n == 0 || (rc = fn(buf, (size_t)n, ctx, err)) < 0) break;
    }
    free(buf);
    close(fd);
    return rc;
}
