/* echo: the live copy of a child's output on our stdout (or stderr), which must never
 * stop the run. Whoever reads our stdout may stop (a stopped pager, Ctrl-S,
 * `| sleep`): writes are non-blocking (a pipe or terminal is reopened
 * through /proc/self/fd/1 with O_NONBLOCK, so the shared file description
 * keeps its flags; a socket gets MSG_DONTWAIT), and what cannot be written
 * waits in a buffer of at most ECHO_MAX bytes. A full buffer holds the child
 * back (echo_room), as a slow reader always did, but for ECHO_STALL_MS
 * without progress at most; then new output is dropped from the echo (never
 * from the log) and counted until the reader moves again. A regular file on
 * stdout is written plainly. A reader that leaves (EPIPE) ends the echo
 * quietly; any other failed write (a full disk behind `> out.txt`,
 * /dev/full, EIO, or a write that returns 0 for some bytes: ENOSPC) ends it
 * too and is kept in `error` for the caller to say.
 * A struct echo owns its buffer and fd: echo_close frees them. */
#ifndef OOMLAB_ECHO_H
#define OOMLAB_ECHO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ECHO_MAX ((size_t)1 << 20)
#define ECHO_STALL_MS 2000

struct echo {
    int fd;          /* -1: no echo */
    bool own_fd;     /* reopened by us */
    bool blocking;   /* a regular file: plain write(2) */
    bool sock;       /* send(MSG_DONTWAIT) */
    char *buf;       /* pending bytes buf[off, len) */
    size_t off, len;
    int64_t stalled_since; /* ms (monotonic) since the buffer is full without progress; 0 not */
    uint64_t dropped;      /* bytes never echoed */
    int error;             /* errno of the write that ended the echo; 0 none, or a reader that left (EPIPE) */
};

/* Echo to fd (1, or 2 for guard --json, whose stdout holds the JSON);
 * fd -1, or a closed fd: no echo (e->fd is -1). */
void echo_open(struct echo *e, int fd);
/* Pass n bytes on: written now, buffered, or (buffer full past the stall)
 * dropped and counted. now: monotonic ms. */
void echo_add(struct echo *e, const char *data, size_t n, int64_t now);
/* Write what is pending without blocking (call on POLLOUT). */
void echo_flush(struct echo *e, int64_t now);
/* poll(2) events to wait for on e->fd: POLLOUT while bytes are pending. */
short echo_events(const struct echo *e);
/* How many bytes echo_add takes now without dropping any: the caller reads
 * no more than that from its child (0: hold it back). Unbounded (SIZE_MAX)
 * without echo, on a regular file, and once the buffer has been full for
 * ECHO_STALL_MS without progress (then the overflow is dropped). */
size_t echo_room(const struct echo *e, int64_t now);
/* When a hold ends if nothing moves (monotonic ms); 0 when not holding. */
int64_t echo_release_at(const struct echo *e);
/* Last flush, waiting at most ECHO_STALL_MS without progress; the rest
 * counts as dropped. Frees the buffer, closes a reopened fd. */
void echo_close(struct echo *e);

#endif
