/* logscan: placeholder until the diagnose engine lands: finds nothing. */
#include "sys/logscan.h"

#include <stdlib.h>
#include <string.h>

int logscan_path(const char *path, struct oom_report *rep, struct oomlab_err *err)
{
    memset(rep, 0, sizeof *rep);
    rep->primary = -1;
    return 0;
}

void oom_report_release(struct oom_report *rep)
{
    free(rep->events);
    memset(rep, 0, sizeof *rep);
    rep->primary = -1;
}

const char *oom_stage_name(enum oom_stage stage)
{
    static const char *names[OOM_STAGE_COUNT] = {"unknown", "data", "load", "forward",
        "backward", "optimizer", "eval", "generate", "checkpoint"};
    return (unsigned)stage < OOM_STAGE_COUNT ? names[stage] : "unknown";
}
