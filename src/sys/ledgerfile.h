/* ledgerfile: where the ledger lives on disk and the one reader of it.
 * A ledger is DIR/runs.csv (appended under flock, as always) and/or the
 * per-host shards DIR/runs.d/HOST.csv — for shared file systems (NFS,
 * Lustre) where flock cannot be trusted: each host appends only to its
 * own shard with O_APPEND and one write(2) per record, and every reader
 * merges runs.csv and all shards by start time. The caller releases the
 * ledger (ledger_release). */
#ifndef OOMLAB_LEDGERFILE_H
#define OOMLAB_LEDGERFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/err.h"
#include "lib/ledger.h"

#define LEDGERFILE_SHARDS "runs.d"

/* The most of a ledger file oomlab reads whole (table, compare, report):
 * some 280,000 runs as oomlab writes them. A ledger past it gets
 * ledgerfile_size_check's message, which says what to do; run still reads
 * it (ledgerfile_each) and appends to it (fsutil_append_locked holds only
 * its head). */
#define LEDGERFILE_MAX ((size_t)64 << 20)
/* 0, or -1 with "PATH is N MiB, more than the 64 MiB oomlab reads of a
 * ledger: ..." (how to start a new one) when path is larger than
 * LEDGERFILE_MAX. A missing or unreadable path is 0: the read says why. */
int ledgerfile_size_check(const char *path, struct oomlab_err *err);
/* The host name the shard is named after and the host column holds:
 * $OOMLAB_HOST when set (a cluster whose nodes share a hostname inside
 * containers; the tests' simulated hosts), else gethostname(2). */
#define LEDGERFILE_HOST_ENV "OOMLAB_HOST"
int ledgerfile_host(char *buf, size_t size);

/* DIR/runs.d/HOST.csv, HOST with anything but [A-Za-z0-9._-] as '_' and
 * no leading '.'. -1 with err when it does not fit. */
int ledgerfile_shard_path(const char *dir, char *buf, size_t size, struct oomlab_err *err);

/* Does dir itself hold a ledger (runs.csv or runs.d/)? */
bool ledgerfile_holds(const char *dir);

/* For a "not found" message: the subdirectories of dir (one level, names
 * not starting with '.') that hold a ledger (runs.csv or runs.d/), or with
 * id the log logs/ID.log, as "--dir exp, --dir b" (the first three by
 * name, then ", ..."); "" when none. */
void ledgerfile_nearby(const char *dir, const char *id, char *buf, size_t size);

/* Shards are used by the ranks of a job and wherever DIR/runs.d exists. */
bool ledgerfile_use_shards(const char *dir, bool ranks);

/* Append records (whole CSV lines in the canonical layout) to this host's
 * shard with one write(2): the shard is created with its header in place
 * (temp file + link, so racing ranks never see it headerless); a shard
 * whose last byte is not a newline (a writer that died mid-record) gets
 * one first. Never through a symlink or into a FIFO. 0 or -1 with err. */
int ledgerfile_append_shard(const char *dir, const char *records, size_t len, struct oomlab_err *err);

/* Read DIR/runs.csv and every DIR/runs.d/NAME.csv (in name order) into one
 * ledger, rows as written (not folded: ledger_keep_latest is the
 * caller's); with shards, rows in started_at order. lg's layout
 * (delimiter, columns) is runs.csv's. path receives DIR/runs.csv, or
 * DIR/runs.d when only shards exist. No ledger at all: -1 with *missing
 * set and err saying so. An entry of runs.d named *.csv that is no regular
 * file (a directory, a FIFO) holds no runs and is left out: skipped
 * receives a note naming it for the caller to say ("" when none). A
 * shard that is a file but unreadable, too large or no ledger (a NUL
 * byte, garbage, a foreign header) is left out too, its host's runs with
 * it, so one host's broken shard does not hide every other host's runs:
 * bad (when not NULL) receives the first such shard's path, why and a
 * count; the caller says it. Only when nothing else is left (no runs.csv,
 * no good shard) is a bad shard -1 with its err. runs.csv itself is never
 * left out: its error is -1. */
struct ledgerfile_bad {
    char path[4096]; /* the first shard left out ("" when none) */
    char why[4200];  /* its error, naming the path and what to do */
    size_t n;        /* shards left out */
};
int ledgerfile_load(const char *dir, struct ledger *lg, char *path, size_t size, bool *missing,
                    char *skipped, size_t skipped_size, struct ledgerfile_bad *bad, struct oomlab_err *err);

/* Every row of DIR/runs.csv, then of each shard (in name order), handed to
 * fn as it is read and released after (lib/ledger's stream), without a
 * size cap and in 1 MiB of memory: for `run`, which must record a run
 * whatever the size of its ledger. Rows come in file order, not merged by
 * start time. missing and skipped as ledgerfile_load; a file that cannot
 * be read, is no ledger or holds a NUL byte is -1 with err (fn's own -1
 * stops the read too). keep names the n_keep columns fn reads (the others
 * are read past, not stored: ledger_stream_keep); NULL, 0: every column. */
int ledgerfile_each(const char *dir, const enum ledger_col *keep, size_t n_keep, ledger_row_fn fn,
                    void *ctx, bool *missing, char *skipped, size_t skipped_size, struct oomlab_err *err);

#endif
