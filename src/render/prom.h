/* prom: Prometheus text exposition format (version 0.0.4), as read by
 * node_exporter's textfile collector. The writer checks metric and label
 * names, escapes label values and HELP text, and writes each family's HELP
 * and TYPE before its samples. The caller owns the FILE*; nothing is
 * allocated. Unknown values are simply not written (Prometheus has no null). */
#ifndef OOMLAB_PROM_H
#define OOMLAB_PROM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct prom {
    FILE *f;
    bool failed; /* a bad name, or a write error */
};

void prom_init(struct prom *p, FILE *f);
/* "# HELP name help" and "# TYPE name type" (gauge, counter, untyped). */
void prom_family(struct prom *p, const char *name, const char *type, const char *help);
/* One sample: labels is NULL or a NULL-terminated list of name, value pairs. */
void prom_sample(struct prom *p, const char *name, const char *const *labels, double value);
/* Whole numbers (bytes) without the rounding of a double's %g. */
void prom_sample_int(struct prom *p, const char *name, const char *const *labels, int64_t value);
/* 0, or -1 when anything failed (then discard the output). */
int prom_finish(struct prom *p);

bool prom_metric_name_ok(const char *s); /* [a-zA-Z_:][a-zA-Z0-9_:]* */
bool prom_label_name_ok(const char *s);  /* [a-zA-Z_][a-zA-Z0-9_]*, not "__" first */

#endif
