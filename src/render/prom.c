/* prom: Prometheus text format writer (see prom.h). */
#include "render/prom.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool name_ok(const char *s, bool colon)
{
    if (!s || !*s) return false;
    for (const char *c = s; *c; c++) {
        bool alpha = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || *c == '_' ||
                     (colon && *c == ':');
        bool digit = *c >= '0' && *c <= '9';
        if (!alpha && !(digit && c != s)) return false;
    }
    return true;
}

bool prom_metric_name_ok(const char *s)
{
    return name_ok(s, true);
}

bool prom_label_name_ok(const char *s)
{
    return name_ok(s, false) && strncmp(s, "__", 2) != 0;
}

void prom_init(struct prom *p, FILE *f)
{
    p->f = f;
    p->failed = false;
}

/* Label values escape \, " and newline; HELP escapes \ and newline. */
static void escaped(struct prom *p, const char *s, bool quotes)
{
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\\\", p->f);
        else if (*s == '\n')
            fputs("\\n", p->f);
        else if (*s == '"' && quotes)
            fputs("\\\"", p->f);
        else
            fputc(*s, p->f);
    }
}

void prom_family(struct prom *p, const char *name, const char *type, const char *help)
{
    if (!prom_metric_name_ok(name)) {
        p->failed = true;
        return;
    }
    fprintf(p->f, "# HELP %s ", name);
    escaped(p, help, false);
    fprintf(p->f, "\n# TYPE %s %s\n", name, type);
}

static bool series(struct prom *p, const char *name, const char *const *labels)
{
    if (!prom_metric_name_ok(name)) return p->failed = true, false;
    fputs(name, p->f);
    if (!labels || !labels[0]) return true;
    fputc('{', p->f);
    for (size_t i = 0; labels[i] && labels[i + 1]; i += 2) {
        if (!prom_label_name_ok(labels[i])) return p->failed = true, false;
        fprintf(p->f, "%s%s=\"", i ? "," : "", labels[i]);
        escaped(p, labels[i + 1], true);
        fputc('"', p->f);
    }
    fputc('}', p->f);
    return true;
}

void prom_sample(struct prom *p, const char *name, const char *const *labels, double value)
{
    if (!series(p, name, labels)) return;
    if (isnan(value))
        fputs(" NaN\n", p->f);
    else if (isinf(value))
        fputs(value > 0 ? " +Inf\n" : " -Inf\n", p->f);
    else {
        /* the shortest form that reads back as the same double */
        char buf[40];
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(buf, sizeof buf, "%.*g", prec, value);
            if (strtod(buf, NULL) == value) break;
        }
        fprintf(p->f, " %s\n", buf);
    }
}

void prom_sample_int(struct prom *p, const char *name, const char *const *labels, int64_t value)
{
    if (series(p, name, labels)) fprintf(p->f, " %lld\n", (long long)value);
}

int prom_finish(struct prom *p)
{
    if (fflush(p->f) != 0 || ferror(p->f)) p->failed = true;
    return p->failed ? -1 : 0;
}
