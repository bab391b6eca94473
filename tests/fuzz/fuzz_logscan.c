/* Fuzz target: sys/logscan on any bytes — UTF-16 detection and decoding
 * (surrogates, odd lengths, a BOM alone), head/tail line delivery — must
 * never misbehave, every line handed out must lie in the delivered
 * window, and a reader that asks for no more lines gets none. The input is read from a memfd, as a file would be. The build
 * compiles lib/ and render/ only, so the module is included here, with
 * sys/fsutil.c, whose fsutil_open_input opens its input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_memfd.h"
#include "sys/fsutil.c"
#include "sys/logscan.c"
#include "lib/steps.h"

struct seen {
    size_t lines, stop_after; /* stop_after: ask for no more after that many (0 never) */
};

static int on_line(const char *line, size_t len, void *ctx)
{
    struct seen *seen = ctx;
    struct steps_point pt;
    volatile unsigned char sink = 0;
    for (size_t i = 0; i < len; i++) sink ^= (unsigned char)line[i]; /* touch every byte */
    (void)sink;
    steps_parse_line(line, len, &pt);
    if (seen->stop_after && seen->lines >= seen->stop_after) abort(); /* past a stop */
    return ++seen->lines == seen->stop_after;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_memfd(data, size, "fuzz-log", path, sizeof path);
    if (fd < 0) return 0;
    /* Every line with the engine's scan; then the head and tail only
     * (small limits: both phases) and a reader that stops after 3 lines,
     * lines only: the engine's scan does not depend on which lines are
     * delivered, and running it once, not three times, is most of the
     * target's time. */
    const struct { size_t head, tail, stop_after; bool lines_only; } modes[] = {
        {0, 0, 0, false}, {64, 128, 0, true}, {0, 32, 0, true}, {0, 0, 3, true}};
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        struct seen seen = {0, modes[m].stop_after};
        struct logscan_opts o = {.fn = on_line, .ctx = &seen, .head_bytes = modes[m].head,
                                 .tail_bytes = modes[m].tail, .lines_only = modes[m].lines_only};
        struct logscan_info info;
        struct oom_report rep;
        struct oomlab_err err = {{0}};
        if (logscan_path_opts(path, &rep, &o, &info, &err) == 0) oom_report_release(&rep);
    }
    close(fd);
    return 0;
}
