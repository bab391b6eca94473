/* echo: non-blocking live copy of the child's output (see echo.h). The
 * buffer is linear: pending bytes are buf[off, len), moved to the front
 * before new ones are added. */
#include "sys/echo.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void echo_off(struct echo *e)
{
    if (e->own_fd && e->fd >= 0) close(e->fd);
    e->fd = -1;
    e->own_fd = false;
    e->off = e->len = 0;
}

void echo_open(struct echo *e, int fd)
{
    struct stat st;
    memset(e, 0, sizeof *e);
    e->fd = -1;
    if (fd < 0 || fstat(fd, &st) < 0) return;
    if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) {
        e->fd = fd, e->blocking = true; /* never stuck on a reader */
        return;
    }
    e->buf = malloc(ECHO_MAX);
    if (S_ISSOCK(st.st_mode)) {
        e->fd = fd, e->sock = true;
    } else {
        /* A new file description of the same pipe or terminal: O_NONBLOCK on
         * it does not leak to the shell or the other writers of fd. */
        char path[40];
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        int own = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (own < 0 && errno == ENXIO) return; /* a FIFO that nobody reads */
        e->fd = own >= 0 ? own : fd;
        e->own_fd = own >= 0;
        e->blocking = own < 0; /* no /proc: write as before */
    }
    if (!e->buf) e->blocking = true;
}

/* Bytes written (0: would block), -1 when the echo ended (EPIPE...). */
static ssize_t write_some(struct echo *e, const char *p, size_t n, int64_t now)
{
    ssize_t w;
    if (n == 0) return 0; /* nothing to write is no failure */
    do w = e->sock ? send(e->fd, p, n, MSG_DONTWAIT | MSG_NOSIGNAL) : write(e->fd, p, n);
    while (w < 0 && errno == EINTR);
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && !e->blocking) return 0;
    if (w <= 0) {
        /* a write that took none of n bytes failed without an errno: said
         * as a full disk, as child.c's write_all and git's write_in_full
         * (git/git:wrapper.c) take it, not ended without a word */
        if (w == 0) e->error = ENOSPC;
        else if (errno != EPIPE && errno != ECONNRESET) e->error = errno;
        echo_off(e);
        return -1;
    }
    if (e->stalled_since) e->stalled_since = now;
    return w;
}

void echo_flush(struct echo *e, int64_t now)
{
    while (e->fd >= 0 && e->off < e->len) {
        ssize_t w = write_some(e, e->buf + e->off, e->len - e->off, now);
        if (w <= 0) return;
        e->off += (size_t)w;
    }
    if (e->fd >= 0) e->off = e->len = 0;
    e->stalled_since = 0;
}

static size_t pending(const struct echo *e)
{
    return e->len - e->off;
}

void echo_add(struct echo *e, const char *data, size_t n, int64_t now)
{
    size_t done = 0;
    if (e->fd < 0) return;
    if (e->blocking) {
        while (done < n && e->fd >= 0) {
            ssize_t w = write_some(e, data + done, n - done, now);
            if (w > 0) done += (size_t)w;
        }
        return;
    }
    echo_flush(e, now);
    if (pending(e) == 0) {
        ssize_t w = write_some(e, data, n, now);
        if (w < 0) return;
        done = (size_t)w;
    }
    if (e->off) {
        memmove(e->buf, e->buf + e->off, pending(e));
        e->len -= e->off, e->off = 0;
    }
    size_t take = n - done < ECHO_MAX - e->len ? n - done : ECHO_MAX - e->len;
    memcpy(e->buf + e->len, data + done, take);
    e->len += take;
    e->dropped += n - done - take;
    if (e->len == ECHO_MAX && !e->stalled_since) e->stalled_since = now;
}

short echo_events(const struct echo *e)
{
    return e->fd >= 0 && pending(e) > 0 ? POLLOUT : 0;
}

size_t echo_room(const struct echo *e, int64_t now)
{
    if (e->fd < 0 || e->blocking) return SIZE_MAX;
    size_t room = ECHO_MAX - pending(e);
    if (room == 0 && e->stalled_since && now - e->stalled_since >= ECHO_STALL_MS) return SIZE_MAX;
    return room;
}

int64_t echo_release_at(const struct echo *e)
{
    return e->fd >= 0 && pending(e) == ECHO_MAX && e->stalled_since
               ? e->stalled_since + ECHO_STALL_MS
               : 0;
}

void echo_close(struct echo *e)
{
    int64_t last = mono_ms();
    while (e->fd >= 0 && pending(e) > 0) {
        int64_t now = mono_ms();
        if (now - last >= ECHO_STALL_MS) break;
        struct pollfd pfd = {.fd = e->fd, .events = POLLOUT};
        if (poll(&pfd, 1, (int)(ECHO_STALL_MS - (now - last))) < 0 && errno != EINTR) break;
        size_t before = pending(e);
        echo_flush(e, now);
        if (pending(e) < before) last = mono_ms();
    }
    if (e->fd >= 0) e->dropped += pending(e);
    echo_off(e);
    free(e->buf);
    e->buf = NULL;
}
