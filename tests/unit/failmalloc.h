/* failmalloc: make the Nth malloc from now return NULL, so a test can walk
 * every allocation failure path of a library call. Only for the test files
 * the Makefile lists in FAILMALLOC_TESTS: they link with -Wl,--wrap=malloc,
 * so liboomlab.a's calls to malloc reach __wrap_malloc here (libc's and the
 * shared libraries' own allocations do not). Header-only; include once. */
#ifndef OOMLAB_TEST_FAILMALLOC_H
#define OOMLAB_TEST_FAILMALLOC_H

#include <stdbool.h>
#include <stddef.h>

void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);

static long failmalloc_countdown = -1; /* mallocs left before the failure; -1: none armed */
static bool failmalloc_hit;            /* whether the armed failure happened */

/* Fail the malloc after `skip` more succeed; failmalloc_hit says later
 * whether the call under test got that far. */
static inline void failmalloc_arm(long skip)
{
    failmalloc_countdown = skip;
    failmalloc_hit = false;
}

static inline void failmalloc_disarm(void)
{
    failmalloc_countdown = -1;
}

void *__wrap_malloc(size_t size)
{
    if (failmalloc_countdown == 0) {
        failmalloc_countdown = -1;
        failmalloc_hit = true;
        return NULL;
    }
    if (failmalloc_countdown > 0) failmalloc_countdown--;
    return __real_malloc(size);
}

#endif
