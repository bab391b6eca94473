/* err: the one error type every library function fills.
 * A function that fails returns -1 (or a small enum) and writes a message a
 * user can act on into a caller-owned struct oomlab_err; nothing is allocated. */
#ifndef OOMLAB_ERR_H
#define OOMLAB_ERR_H

#include <stddef.h>

struct oomlab_err {
    char msg[512];
};

/* printf-style; truncates silently to fit. Returns -1 so callers can write
 * `return oomlab_err_set(err, ...)`. err may be NULL. */
int oomlab_err_set(struct oomlab_err *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Same, prefixed with "FILE:LINE:COL: " for bad input. */
int oomlab_err_at(struct oomlab_err *err, const char *file, long line, long col,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
