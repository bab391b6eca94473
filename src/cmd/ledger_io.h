/* ledger_io: shared by table, compare, report, doctor, diagnose — read the ledger into a
 * struct ledger, and the per-column value types used for JSON. Not a
 * subcommand; a helper of src/cmd. The caller releases the ledger. */
#ifndef OOMLAB_CMD_LEDGER_IO_H
#define OOMLAB_CMD_LEDGER_IO_H

#include <stddef.h>

#include "lib/ledger.h"
#include "render/json.h"

/* Read DIR/runs.csv and the shards DIR/runs.d/HOST.csv (sys/ledgerfile:
 * the one reader every command uses); path receives the ledger's name. One
 * row per run id, the ranks of a job folded (ledger_keep_latest); a `running` row whose oomlab is gone (its run lock
 * on DIR/logs/ID.log is free, or, on this host, its pid is gone) gets
 * exit_status LEDGER_IO_NO_FINAL. 0, or -1 with err (missing ledger,
 * unreadable, bad header). A runs.d entry that is no file (a directory or
 * FIFO named *.csv) is left out with a note on stderr as "oomlab WHO:
 * note: ..."; who NULL says nothing (diagnose's job lookup). */
int ledger_io_load(const char *who, const char *dir, struct ledger *lg, char *path, size_t size,
                   struct oomlab_err *err);
/* After ledger_io_load failed for want of DIR's ledger, or id is not in it:
 * when subdirectories of DIR hold run id's log, err says so instead ("no
 * ledger at ./runs.csv; run 'run007' is in --dir exp1"), in place of the
 * ledgers that lack it. err is left as it was otherwise. */
void ledger_io_where_is(const char *dir, const char *id, const char *path, struct oomlab_err *err);
/* The state of a `running` row whose oomlab is gone: the run's final row
 * never came, because oomlab was killed (kill -9, the kernel's OOM killer)
 * or because writing it failed (full disk, quota). The ledger on disk
 * holds `running`; this is only what readers say. */
#define LEDGER_IO_NO_FINAL "no final row"
/* What it means, in the words table's legend and diagnose RUN_ID use. */
#define LEDGER_IO_NO_FINAL_WHY                                                          \
    "the run's end was never recorded: oomlab was killed (kill -9?) or could not write " \
    "the row (full disk? it said so on stderr)"
/* "done", "running" or LEDGER_IO_NO_FINAL, from exit_status. */
const char *ledger_io_state(const struct ledger_row *row);
/* A cell as JSON: number, bool or string per column, null when empty or
 * not of the column's type. */
void ledger_io_json_cell(struct json *j, const struct ledger_row *row, enum ledger_col col);
/* One row as a JSON object keyed by the ledger's column names. */
void ledger_io_json_row(struct json *j, const struct ledger_row *row);

#endif
