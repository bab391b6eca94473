/* fsutil: the file operations whose failure would lose or mangle a record —
 * mkdir -p, atomic replace (temp file + fsync + rename), appending one
 * record to a shared file with a single write() under flock(2), a bounded
 * whole-file read, and the one open() for every file oomlab creates,
 * appends to or overwrites (never through a symbolic link, never into a
 * FIFO or device). Errors name the path and the errno text.
 * fsutil_read's buffer is malloc'd and freed by the caller. */
#ifndef OOMLAB_FSUTIL_H
#define OOMLAB_FSUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "lib/err.h"

/* Create path and its parents (mode 0777 & ~umask); an existing directory
 * is fine, an existing non-directory is an error. */
int fsutil_mkdir_p(const char *path, struct oomlab_err *err);

/* Replace path with data: write PATH.tmp.PID, fsync, rename over path,
 * fsync the directory. On failure the temp file is removed and path is
 * untouched (a full disk leaves the old file or no file, never half a file).
 * Only a regular file, a symbolic link (the link, not its target) or a new
 * name is replaced: a FIFO, device, socket or directory at path is refused
 * (checked before writing and again before the rename) and left as it was. */
int fsutil_write_atomic(const char *path, const void *data, size_t len, struct oomlab_err *err);

/* Read up to size-1 bytes of a small kernel file (/proc, /sys: their size
 * says 0) into buf, NUL-terminated, without allocating; its length, or -1
 * with errno. */
ssize_t fsutil_read_small(const char *path, char *buf, size_t size);

/* Read a whole regular file of at most max bytes into a malloc'd,
 * NUL-terminated buffer. A missing file is -1 with *missing set (when
 * missing is not NULL) so callers can treat "no ledger yet" as empty. */
int fsutil_read(const char *path, size_t max, char **data, size_t *len, bool *missing,
                struct oomlab_err *err);
/* The same from an open fd (read from offset 0 to its end, st_size not
 * trusted), for callers that open and check the file themselves. */
int fsutil_read_fd(int fd, const char *path, size_t max, char **data, size_t *len,
                   struct oomlab_err *err);

/* A write(2) that came up short says no reason: write the rest, whose
 * failure does (ENOSPC, EFBIG past `ulimit -f`, EDQUOT). 0 when the rest
 * went in after all, else that errno. */
int fsutil_write_rest(int fd, const char *rest, size_t len);

/* Open a file the user named on the command line (a log, a script) for
 * reading, as cat would but never waiting for ever: a regular file, a
 * pipe or a FIFO whose writer is there (diagnose <(zcat x.gz), /dev/stdin,
 * a producer started beside oomlab), or one whose writer came and went
 * (empty). A FIFO nobody has opened for writing gets FSUTIL_FIFO_WAIT_MS
 * for a writer to come, then -1 with "PATH: a FIFO nobody writes ...".
 * Returns the fd, blocking, or -1 with err (the caller closes the fd). */
#define FSUTIL_FIFO_WAIT_MS 1000
int fsutil_open_input(const char *path, struct oomlab_err *err);
/* fsutil_read for such a file (fsutil_open_input's rules): a regular file,
 * or a pipe read to its end, at most max bytes. */
int fsutil_read_input(const char *path, size_t max, char **data, size_t *len, struct oomlab_err *err);

/* Called under the lock with each piece of the file's current contents, in
 * order; -1 (out of memory) aborts without writing. */
typedef int (*fsutil_scan_fn)(const char *piece, size_t len, void *ctx);
/* Called under the lock with the file's first bytes (head: at most
 * head_max, NUL-terminated; head_len 0 for a new file) and its size;
 * returns a malloc'd record to append (its length in *out_len), or NULL
 * with err filled to abort without writing. */
typedef char *(*fsutil_record_fn)(const char *head, size_t head_len, unsigned long long size, size_t *out_len,
                                  void *ctx, struct oomlab_err *err);

/* Append one record to path (created 0666 & ~umask): open O_APPEND, take
 * flock(LOCK_EX), read the contents once in 1 MiB pieces (scan, when not
 * NULL, sees them all; only the first head_max bytes are kept, so a file of
 * any size costs the same memory), ask make_record for the bytes, write them
 * with ONE write(). A short write (disk full) is undone with ftruncate to
 * the old size, so concurrent writers never see half a record, and a crash
 * mid-write leaves at most one cut-short tail that the next record can
 * step over. */
int fsutil_append_locked(const char *path, size_t head_max, fsutil_scan_fn scan, fsutil_record_fn make_record,
                         void *ctx, struct oomlab_err *err);

/* Open path for writing as a file of ours: flags are O_WRONLY or O_RDWR
 * with any of O_CREAT, O_EXCL, O_APPEND, O_TRUNC (O_CLOEXEC is added).
 * A symbolic link in the last component is refused (ELOOP: writing through
 * it would append to or overwrite the link's target), and so is anything
 * but a regular file (EINVAL: a FIFO would block, a device is not ours) —
 * checked before O_TRUNC cuts anything. Returns the fd, or -1 with errno
 * set and err saying why in words. */
int fsutil_open_write(const char *path, int flags, mode_t mode, struct oomlab_err *err);

/* Only the symlink refusal, for a file the user names that may rightly be
 * a device or a FIFO (watch --csv /dev/full, a named pipe): open(2) with
 * O_NOFOLLOW | O_CLOEXEC added; -1 with errno and err. */
int fsutil_open_nofollow(const char *path, int flags, mode_t mode, struct oomlab_err *err);

/* The same refusal before anything is run: 0 when path is absent or a
 * regular file, -1 with err (and errno ELOOP/EINVAL) otherwise. */
int fsutil_check_own(const char *path, struct oomlab_err *err);

/* Standard input, output and error that were closed (a daemon, `>&-`)
 * are opened on /dev/null, as git does: else the first file we open takes
 * the number, and the echo of `run` or our messages land in the log or the
 * ledger. Call first thing in main. */
void fsutil_std_fds_open(void);

/* Whether fd is a pipe or socket whose reader has gone (`oomlab table |
 * head`): poll(2) answers POLLERR for the write end of a pipe nobody
 * reads. A file, a terminal or /dev/full: false. */
bool fsutil_reader_gone(int fd);

/* Whether we may write path (access(2), so as the real user): the file
 * when it exists, else the nearest existing directory above it. 0, or -1
 * with err ("cannot write runs.csv: Permission denied"). */
int fsutil_check_writable(const char *path, struct oomlab_err *err);

/* Why path could not be opened, for a message: for ENOTDIR the part of the
 * path that is no directory ("runs/x.csv" under a file runs: "runs is a
 * regular file, not a directory", written to buf), else strerror(errnum)
 * (also for an empty path or a 0-byte buf). */
const char *fsutil_why(const char *path, int errnum, char *buf, size_t size);

/* Join dir and name into buf ("dir/name", no second '/' after a dir that ends
 * in one); -1 with err when it does not fit. */
int fsutil_join(char *buf, size_t size, const char *dir, const char *name,
                struct oomlab_err *err);

#endif
