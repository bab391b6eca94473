/* err: formatting of user-facing error messages (see err.h). */
#include "lib/err.h"

#include <stdarg.h>
#include <stdio.h>

int oomlab_err_set(struct oomlab_err *err, const char *fmt, ...)
{
    if (!err) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

int oomlab_err_at(struct oomlab_err *err, const char *file, long line, long col,
                  const char *fmt, ...)
{
    if (!err) return -1;
    int n = snprintf(err->msg, sizeof err->msg, "%s:%ld:%ld: ", file, line, col);
    if (n < 0 || (size_t)n >= sizeof err->msg) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}
