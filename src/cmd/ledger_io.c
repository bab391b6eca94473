/* ledger_io: loading runs.csv for the table/compare subcommands and the
 * column -> JSON type table they share. */
#include "cmd/ledger_io.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <sys/file.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "sys/fsutil.h"
#include "sys/ledgerfile.h"

enum cell_type { CELL_STR, CELL_INT, CELL_NUM, CELL_BOOL };

static const enum cell_type col_types[LEDGER_NCOLS] = {
    [LEDGER_RUN_ID] = CELL_STR,           [LEDGER_DEVICE_BATCH_SIZE] = CELL_INT,
    [LEDGER_MAX_SEQ_LEN] = CELL_INT,      [LEDGER_DTYPE] = CELL_STR,
    [LEDGER_GRAD_ACCUM] = CELL_INT,       [LEDGER_GRAD_CKPT] = CELL_BOOL,
    [LEDGER_PEAK_ALLOC_GB] = CELL_NUM,    [LEDGER_PEAK_RESERVED_GB] = CELL_NUM,
    [LEDGER_OOM] = CELL_BOOL,             [LEDGER_OOM_STAGE] = CELL_STR,
    [LEDGER_LOSS_TREND] = CELL_STR,       [LEDGER_EFFECTIVE_BATCH] = CELL_INT,
    [LEDGER_PEAK_SOURCE] = CELL_STR,      [LEDGER_PEAK_PCT_CAPACITY] = CELL_NUM,
    [LEDGER_CAPACITY_GB] = CELL_NUM,      [LEDGER_STARTED_AT] = CELL_STR,
    [LEDGER_DURATION_S] = CELL_NUM,       [LEDGER_EXIT_STATUS] = CELL_INT,
    [LEDGER_COMMAND] = CELL_STR,          [LEDGER_NOTES] = CELL_STR,
    [LEDGER_PEAK_LOWER_BOUND] = CELL_BOOL, [LEDGER_MEM_TREND] = CELL_STR,
    [LEDGER_MEM_FIRST_GB] = CELL_NUM,     [LEDGER_MEM_LAST_GB] = CELL_NUM,
    [LEDGER_MEM_STEPS] = CELL_STR,        [LEDGER_MEM_GB_PER_100_STEPS] = CELL_NUM,
    [LEDGER_ENV] = CELL_STR,              [LEDGER_OOMLAB_PID] = CELL_INT,
    [LEDGER_HOST] = CELL_STR,             [LEDGER_JOB_ID] = CELL_STR,
    [LEDGER_RANK] = CELL_INT,             [LEDGER_LOCAL_RANK] = CELL_INT,
    [LEDGER_NODE_RANK] = CELL_INT,        [LEDGER_WORLD_SIZE] = CELL_INT,
    [LEDGER_RESTART] = CELL_INT,          [LEDGER_GPU] = CELL_INT,
    [LEDGER_RANKS] = CELL_INT,            [LEDGER_WORST_RANK] = CELL_INT,
    [LEDGER_DEVICE_PEAK_GB] = CELL_NUM,   [LEDGER_DEVICE_USED_START_GB] = CELL_NUM,
};

/* Is the oomlab that wrote this `running` row gone? Its lock on the log is
 * the answer (it survives pid reuse and works across hosts); without a
 * log to lock, a pid on this host that no longer exists. */
static bool recorder_gone(const char *dir, const struct ledger_row *row)
{
    char logs[4096], name[300], path[4096], stem[200];
    if (ledger_row_stem(stem, sizeof stem, row) < 0) return false;
    snprintf(name, sizeof name, "%s.log", stem);
    if (fsutil_join(logs, sizeof logs, dir, "logs", NULL) == 0 &&
        fsutil_join(path, sizeof path, logs, name, NULL) == 0 && !strchr(row->cell[LEDGER_RUN_ID], '/')) {
        int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd >= 0) {
            int rc = flock(fd, LOCK_SH | LOCK_NB);
            int e = errno;
            close(fd);
            if (rc == 0) return true;
            if (e == EWOULDBLOCK) return false;
        }
    }
    char host[256];
    double pid = ledger_num(row, LEDGER_OOMLAB_PID);
    if (isnan(pid) || pid < 1 || ledgerfile_host(host, sizeof host) < 0) return false;
    return !strcmp(host, row->cell[LEDGER_HOST]) && kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

const char *ledger_io_state(const struct ledger_row *row)
{
    const char *e = row->cell[LEDGER_EXIT_STATUS];
    return !strcmp(e, LEDGER_RUNNING) ? "running" : !strcmp(e, LEDGER_IO_NO_FINAL) ? LEDGER_IO_NO_FINAL : "done";
}

/* The last load's shards left out (ledgerfile_load's bad): a run asked
 * for by id and not found may be in one of them. */
static struct ledgerfile_bad left_out;

void ledger_io_where_is(const char *dir, const char *id, const char *path, struct oomlab_err *err)
{
    const char *d = dir && *dir ? dir : ".";
    char near[300];
    if (!id) return;
    if (left_out.n && err->msg[0]) {
        size_t len = strlen(err->msg);
        snprintf(err->msg + len, sizeof err->msg - len, " (it may be in %s%s, left out as unreadable: see the warning above)",
                 left_out.path, left_out.n > 1 ? " or another shard" : "");
        return;
    }
    ledgerfile_nearby(d, id, near, sizeof near);
    if (!near[0]) return;
    if (!ledgerfile_holds(d))
        oomlab_err_set(err, "no ledger at %s/runs.csv; run '%s' is in %s", d, id, near);
    else
        oomlab_err_set(err, "run '%s' is not in %s; it is in %s", id, path, near);
}

int ledger_io_load(const char *who, const char *dir, struct ledger *lg, char *path, size_t size,
                   struct oomlab_err *err)
{
    bool missing;
    const char *d = dir && *dir ? dir : ".";
    char skipped[4200];
    if (ledgerfile_load(d, lg, path, size, &missing, skipped, sizeof skipped, &left_out, err) < 0) return -1;
    if (who && skipped[0]) fprintf(stderr, "oomlab %s: note: %s\n", who, skipped);
    if (who && left_out.n)
        fprintf(stderr, "oomlab %s: warning: left out %s (its runs are not shown; the other shards are): %s", who,
                left_out.path, left_out.why);
    if (who && left_out.n > 1)
        fprintf(stderr, " (and %zu more shard%s left out, each named once this one is fixed)", left_out.n - 1,
                left_out.n == 2 ? "" : "s");
    if (who && left_out.n) fputc('\n', stderr);
    int rc = ledger_keep_latest_unfolded(lg, err);
    for (size_t i = 0; rc == 0 && i < lg->n; i++)
        if (ledger_is_running(&lg->rows[i]) && recorder_gone(d, &lg->rows[i]))
            rc = ledger_row_set(&lg->rows[i], LEDGER_EXIT_STATUS, LEDGER_IO_NO_FINAL) < 0
                     ? oomlab_err_set(err, "out of memory")
                     : 0;
    if (rc == 0) rc = ledger_fold_ranks(lg, err);
    if (rc < 0) ledger_release(lg);
    return rc;
}

void ledger_io_json_cell(struct json *j, const struct ledger_row *row, enum ledger_col col)
{
    const char *s = row->cell[col];
    double v = ledger_num(row, col);
    int flag = ledger_flag(row, col);
    switch (col_types[col]) {
    case CELL_INT:
        if (!isnan(v) && v == floor(v) && fabs(v) < 9e15) json_int(j, (long long)v);
        else json_null(j);
        break;
    case CELL_NUM:
        if (!isnan(v)) json_double(j, v);
        else json_null(j);
        break;
    case CELL_BOOL:
        if (flag >= 0) json_bool(j, flag == 1);
        else json_null(j);
        break;
    default:
        if (*s) json_str(j, s);
        else json_null(j);
    }
}

void ledger_io_json_row(struct json *j, const struct ledger_row *row)
{
    for (size_t c = 0; c < LEDGER_NCOLS; c++) {
        json_key(j, ledger_col_name((enum ledger_col)c));
        ledger_io_json_cell(j, row, (enum ledger_col)c);
    }
}
