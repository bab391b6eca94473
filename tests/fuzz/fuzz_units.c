/* Fuzz target: size parsing must never read past len or misbehave on junk;
 * the duration parser (every --timeout/--interval/--grace/...) accepts only
 * its grammar, stays in range, and what units_format_duration_ms prints for
 * the result reads back to the same milliseconds; a combination of units
 * refused with its one-unit spelling ("one unit only: write 90m") is no
 * duration itself, and the spelling offered is one, within range. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"

static void durations(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1); /* the parser takes a C string, as argv gives */
    if (!text) return;
    memcpy(text, data, size);
    text[size] = '\0';
    int64_t ms = -1, again = -1;
    if (units_parse_duration_ms(text, &ms) == 0) {
        if (ms < 0 || ms > UNITS_DURATION_MAX_MS) abort();
        if (strchr(text, ' ') || strchr(text, '-') || strchr(text, 'e')) abort();
        char buf[40];
        if (units_parse_duration_ms(units_format_duration_ms(ms, buf, sizeof buf), &again) != 0 ||
            again != ms)
            abort();
    }
    struct oomlab_err err = {{0}};
    if (units_duration_arg("--interval", text, 10, 3600000, &ms, &err) < 0) {
        /* a combination's one-unit spelling (1h30m: "write 90m") is a duration itself */
        static const char say[] = "': one unit only: write ";
        size_t tl = strlen(text), head = sizeof "--interval '" - 1;
        const char *w = !strncmp(err.msg, "--interval '", head) && !strncmp(err.msg + head, text, tl) &&
                                !strncmp(err.msg + head + tl, say, sizeof say - 1)
                            ? err.msg + head + tl + sizeof say - 1
                            : NULL; /* (the message quotes the input: its own words are no offer) */
        if (w) {
            const char *end = strstr(w, " (see DURATIONS");
            char offer[48];
            size_t n = end ? (size_t)(end - w) : sizeof offer;
            int64_t v = -1;
            if (n >= sizeof offer) __builtin_trap();
            memcpy(offer, w, n);
            offer[n] = '\0';
            if (units_parse_duration_ms(text, &v) == 0 || units_parse_duration_ms(offer, &v) != 0 || v < 1 ||
                v > UNITS_DURATION_MAX_MS) {
                fprintf(stderr, "'%s' offered '%s'\n", text, offer);
                __builtin_trap();
            }
        }
    }
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int64_t b;
    bool sat;
    char *copy = malloc(size); /* exact size: ASan catches any over-read */
    if (!copy) return 0;
    memcpy(copy, data, size);
    units_parse_size(copy, size, UNITS_KB_IS_1024, &b, &sat);
    free(copy);
    durations(data, size);
    return 0;
}
