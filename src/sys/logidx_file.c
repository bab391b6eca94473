/* logidx_file: the index's lines through stdio with a fixed line buffer;
 * a line longer than an entry can be makes the index unusable, not a
 * bigger buffer. A last line cut short (oomlab killed mid-write) is left
 * out. */
#include "sys/logidx_file.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool logidx_file_path(const char *log_path, char *buf, size_t size)
{
    size_t n = strlen(log_path);
    if (n < 4 || strcmp(log_path + n - 4, ".log") || n >= size) return false;
    memcpy(buf, log_path, n - 4);
    memcpy(buf + n - 4, ".idx", 5);
    return true;
}

static bool next_line(struct logidx_file *x)
{
    char line[LOGIDX_LINE_MAX + 2];
    if (!fgets(line, sizeof line, x->f)) {
        x->cur.eof = true;
        return false;
    }
    size_t n = strlen(line);
    if (n == 0 || line[n - 1] != '\n') { /* too long, or cut at the end of the file */
        if (n == sizeof line - 1) x->cur.bad = true;
        x->cur.eof = true;
        return false;
    }
    logidx_cursor_line(&x->cur, line, n - 1);
    return true;
}

bool logidx_file_open(struct logidx_file *x, const char *path)
{
    logidx_cursor_init(&x->cur);
    x->f = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    struct stat st;
    if (fd < 0) return false;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !(x->f = fdopen(fd, "r"))) {
        close(fd);
        return false;
    }
    if (!next_line(x) || x->cur.bad) {
        logidx_file_close(x);
        return false;
    }
    return true;
}

int64_t logidx_file_ms(struct logidx_file *x, uint64_t offset)
{
    while (x->f && logidx_cursor_wants(&x->cur, offset) && next_line(x)) {}
    return logidx_cursor_ms(&x->cur, offset);
}

void logidx_file_drain(struct logidx_file *x)
{
    while (x->f && !x->cur.bad && next_line(x)) {}
}

void logidx_file_close(struct logidx_file *x)
{
    if (x->f) fclose(x->f);
    x->f = NULL;
}
