/* wait_until: a bounded wait FOR a state in the unit tests that run real
 * processes (test_proc.c, test_runsys.c); tests/e2e/lib/wait.bash is the
 * shell side. CI runs the suites on two busy cores, where a child may take
 * well over 100 ms to exec, to settle in 'S' or to end: a fixed sleep that
 * assumes the state was not always enough there. The predicate is asked
 * every 10 ms until it says yes or 10 s of wall time (CLOCK_MONOTONIC) have
 * passed. Header-only; the predicate owns whatever ctx points to. */
#ifndef OOMLAB_TEST_WAIT_UNTIL_H
#define OOMLAB_TEST_WAIT_UNTIL_H

#include <stdbool.h>
#include <time.h>

#define WAIT_UNTIL_LIMIT_MS 10000

/* true once ready(ctx) is; false when it still is not after the limit */
static inline bool wait_until(bool (*ready)(void *ctx), void *ctx)
{
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        if (ready(ctx)) return true;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long long ms = (now.tv_sec - start.tv_sec) * 1000LL + (now.tv_nsec - start.tv_nsec) / 1000000;
        if (ms >= WAIT_UNTIL_LIMIT_MS) return ready(ctx);
        struct timespec t = {0, 10 * 1000000L};
        nanosleep(&t, NULL);
    }
}

#endif
