/* Benchmark driver: time steps_parse_line + steps_series_add over every line
 * of a file (read whole into memory first, so only parsing is timed).
 * Prints MB/s, lines, points and the trends. Built by bench/steps-parse. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/steps.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s LOG\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)size + 1);
    if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) return 2;
    fclose(f);
    struct steps_series s;
    steps_series_init(&s);
    struct timespec t0, t1, c0, c1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    size_t lines = 0, hits = 0;
    for (size_t i = 0; i < (size_t)size;) {
        const char *nl = memchr(buf + i, '\n', (size_t)size - i);
        size_t end = nl ? (size_t)(nl - buf) : (size_t)size;
        struct steps_point pt;
        if (steps_parse_line(buf + i, end - i, &pt)) hits++;
        steps_series_add(&s, &pt);
        lines++;
        i = end + 1;
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    double cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) / 1e9;
    printf("steps_parse_line: %.1f MB, %.0f MB/s of CPU time (%.0f MB/s wall); %zu lines, %zu "
           "with progress, %zu points; loss %s, memory %s\n",
           (double)size / 1e6, (double)size / 1e6 / cpu, (double)size / 1e6 / secs, lines, hits,
           s.n,
           steps_trend_name(steps_loss_trend(&s), false),
           steps_trend_name(steps_memory_trend(&s), true));
    steps_series_release(&s);
    free(buf);
    return 0;
}
