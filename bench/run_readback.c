/* Benchmark driver for `run`'s read-back of a finished log: the former two
 * passes (logscan_path, then an mmap(MAP_POPULATE) + memchr line loop into
 * the step parser — the scan_steps removed from sys/runexec.c, kept here
 * verbatim as the reference) against the one pass of logscan_path_lines.
 * Best of N rounds each, interleaved; CPU = user+sys of this process.
 * Also times the two halves of the old way, to show which dominates.
 * Built and run by bench/run-readback. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/steps.h"
#include "sys/logscan.h"

struct outcome {
    size_t events, points;
    int64_t peak_alloc, peak_reserved;
    const char *loss;
};

static double cpu_now(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static double wall_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void summarise(const struct steps_series *s, struct outcome *o)
{
    o->points = s->n;
    o->peak_alloc = steps_max_peak_alloc(s);
    o->peak_reserved = steps_max_peak_reserved(s);
    o->loss = steps_trend_name(steps_loss_trend(s), false);
}

static void oom_pass(const char *path, struct outcome *o)
{
    struct oom_report rep;
    struct oomlab_err e = {{0}};
    if (logscan_path(path, &rep, &e) < 0) return;
    o->events = rep.n_events;
    oom_report_release(&rep);
}

/* The removed scan_steps, as it was. */
static void mmap_steps_pass(const char *path, struct outcome *o)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0) return;
    if (fstat(fd, &st) < 0 || st.st_size == 0) {
        close(fd);
        return;
    }
    size_t size = (size_t)st.st_size;
    const char *text = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    close(fd);
    if (text == MAP_FAILED) return;
    struct steps_series series;
    steps_series_init(&series);
    for (size_t i = 0; i < size;) {
        const char *nl = memchr(text + i, '\n', size - i);
        size_t end = nl ? (size_t)(nl - text) : size;
        struct steps_point pt;
        if (steps_parse_line(text + i, end - i, &pt) && steps_series_add(&series, &pt) < 0) break;
        i = end + 1;
    }
    munmap((void *)text, size);
    summarise(&series, o);
    steps_series_release(&series);
}

static void two_pass(const char *path, struct outcome *o)
{
    oom_pass(path, o);
    mmap_steps_pass(path, o);
}

static int steps_line(const char *line, size_t len, void *ctx)
{
    struct steps_point pt;
    if (!steps_parse_line(line, len, &pt)) return 0;
    return steps_series_add(ctx, &pt) < 0 ? -1 : 0;
}

static void one_pass(const char *path, struct outcome *o)
{
    struct oom_report rep;
    struct oomlab_err e = {{0}};
    struct steps_series series;
    steps_series_init(&series);
    if (logscan_path_lines(path, &rep, steps_line, &series, &e) == 0) {
        o->events = rep.n_events;
        oom_report_release(&rep);
    }
    summarise(&series, o);
    steps_series_release(&series);
}

struct way {
    const char *name;
    void (*fn)(const char *, struct outcome *);
    double cpu, wall; /* best */
    struct outcome out;
};

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s LOG [ROUNDS]\n", argv[0]);
        return 2;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 3;
    struct way ways[] = {
        {"two passes (before)", two_pass, INFINITY, INFINITY, {0}},
        {"one pass (after)", one_pass, INFINITY, INFINITY, {0}},
        {"  old half: OOM scan only", oom_pass, INFINITY, INFINITY, {0}},
        {"  old half: mmap + steps loop only", mmap_steps_pass, INFINITY, INFINITY, {0}},
    };
    size_t n_ways = sizeof ways / sizeof ways[0];
    for (int r = 0; r < rounds; r++) {
        for (size_t w = 0; w < n_ways; w++) {
            struct outcome o = {0};
            double c0 = cpu_now(), t0 = wall_now();
            ways[w].fn(argv[1], &o);
            double cpu = cpu_now() - c0, wall = wall_now() - t0;
            if (cpu < ways[w].cpu) ways[w].cpu = cpu;
            if (wall < ways[w].wall) ways[w].wall = wall;
            ways[w].out = o;
        }
    }
    for (size_t w = 0; w < n_ways; w++)
        printf("%-36s CPU %.3f s  wall %.3f s\n", ways[w].name, ways[w].cpu, ways[w].wall);
    const struct outcome *a = &ways[0].out, *b = &ways[1].out;
    printf("result: %zu OOM events, %zu points, peak_alloc %lld, peak_reserved %lld, loss %s\n",
           b->events, b->points, (long long)b->peak_alloc, (long long)b->peak_reserved, b->loss);
    bool same = a->events == b->events && a->points == b->points &&
                a->peak_alloc == b->peak_alloc && a->peak_reserved == b->peak_reserved &&
                strcmp(a->loss, b->loss) == 0;
    printf("ratio before/after: CPU %.2fx, wall %.2fx (best of %d); results %s\n",
           ways[0].cpu / ways[1].cpu, ways[0].wall / ways[1].wall, rounds,
           same ? "identical" : "DIFFER");
    return same ? 0 : 1;
}
