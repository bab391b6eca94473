/* logscan: run the diagnose engine over a file path ("-" = stdin; .gz read
 * transparently). The caller frees the report with oom_report_release. */
#ifndef OOMLAB_LOGSCAN_H
#define OOMLAB_LOGSCAN_H

#include "lib/oom.h"

/* 0 on success (a report with zero events means "no OOM found"); -1 with
 * err filled when the input cannot be read (missing, directory, corrupt gz). */
int logscan_path(const char *path, struct oom_report *rep, struct oomlab_err *err);

#endif
