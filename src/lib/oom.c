/* oom: lifecycle of OOM events and reports, and the stage names shared by
 * diagnose, run, probe and the ledger. Lives in lib so fuzz targets and unit
 * tests can use it without the sys layer. */
#include "lib/oom.h"

#include <stdlib.h>
#include <string.h>

void oom_event_init(struct oom_event *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->kind = "unknown";
    ev->framework = "unknown";
    ev->line = -1;
    ev->gpu = ev->rank = -1;
    ev->step = -1;
    ev->pid = -1;
    ev->stage = OOM_STAGE_UNKNOWN;
    ev->weak_stage = OOM_STAGE_UNKNOWN;
    int64_t *b[] = {&ev->bytes.requested, &ev->bytes.capacity, &ev->bytes.free,
                    &ev->bytes.allocated, &ev->bytes.reserved, &ev->bytes.reserved_unallocated,
                    &ev->bytes.process_in_use, &ev->bytes.allowed, &ev->bytes.other_in_use,
                    &ev->bytes.private_pools};
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) *b[i] = -1;
    oom_memsummary_init(&ev->mem);
}

void oom_memsummary_init(struct oom_memsummary *m)
{
    memset(m, 0, sizeof *m);
    m->device = -1;
    m->ooms = m->retries = -1;
    m->allocated_cur = m->allocated_peak = m->reserved_cur = m->reserved_peak = -1;
    m->nonreleasable_cur = m->nonreleasable_peak = -1;
}

void oom_report_init(struct oom_report *rep)
{
    memset(rep, 0, sizeof *rep);
    rep->primary = -1;
}

void oom_report_note_program(struct oom_report *rep, const char *framework, bool mixed)
{
    if (mixed) rep->program_mixed = true;
    if (!framework) return;
    if (!rep->program_framework) rep->program_framework = framework;
    else if (strcmp(rep->program_framework, framework)) rep->program_mixed = true;
}

const char *oom_report_program(const struct oom_report *rep)
{
    return rep->program_mixed ? NULL : rep->program_framework;
}

void oom_report_release(struct oom_report *rep)
{
    if (!rep) return;
    free(rep->events);
    oom_report_init(rep);
}

const char *oom_stage_name(enum oom_stage stage)
{
    static const char *names[OOM_STAGE_COUNT] = {"unknown", "data", "load", "forward",
        "backward", "optimizer", "eval", "generate", "checkpoint"};
    return (unsigned)stage < OOM_STAGE_COUNT ? names[stage] : "unknown";
}
