/* The fuzz input as a file: a memfd holding exactly the bytes, named by its
 * /proc/self/fd path (for readers that take a path or an environment
 * variable). Returns the fd, or -1 (the input is then skipped); the caller
 * closes it. */
#ifndef OOMLAB_FUZZ_MEMFD_H
#define OOMLAB_FUZZ_MEMFD_H
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

static int fuzz_memfd(const uint8_t *data, size_t size, const char *name, char *path, size_t path_size)
{
    int fd = memfd_create(name, 0);
    if (fd < 0) return -1;
    if (write(fd, data, size) != (ssize_t)size) {
        close(fd);
        return -1;
    }
    snprintf(path, path_size, "/proc/self/fd/%d", fd);
    return fd;
}
#endif
