/* bench/rankdense.c: the rankstats API on one OOM-dense log of many ranks
 * (bench/rankdense makes it): the time of rankstats_line over every line,
 * of scan_text (the log engine's events) and of rankstats_finish, which
 * matches each kept event to its rank's entry. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/rankstats.h"
#include "lib/scan.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    FILE *f = argc == 2 ? fopen(argv[1], "rb") : NULL;
    if (!f) return fprintf(stderr, "usage: rankdense LOG\n"), 2;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (!text || fread(text, 1, (size_t)size, f) != (size_t)size) return fprintf(stderr, "cannot read\n"), 2;
    fclose(f);
    struct rankstats rs;
    struct oom_report rep;
    struct oomlab_err err;
    rankstats_init(&rs);
    double t0 = now();
    for (char *p = text, *end = text + size; p < end;) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) nl = end;
        rankstats_line(&rs, p, (size_t)(nl - p), NULL);
        p = nl + 1;
    }
    double t1 = now();
    if (scan_text(text, (size_t)size, &rep, &err)) return fprintf(stderr, "%s\n", err.msg), 1;
    double t2 = now();
    rankstats_finish(&rs, &rep);
    double t3 = now();
    int ooms = 0;
    for (size_t i = 0; i < rs.n; i++) ooms += rs.r[i].oom;
    printf("entries %zu events kept %zu dropped %zu ranks-with-oom %d | lines %.3fs scan %.3fs finish %.4fs "
           "finish/scan %.4f\n",
           rs.n, rep.n_events, rep.n_dropped, ooms, t1 - t0, t2 - t1, t3 - t2, (t3 - t2) / (t2 - t1));
    oom_report_release(&rep);
    rankstats_release(&rs);
    free(text);
    return 0;
}
