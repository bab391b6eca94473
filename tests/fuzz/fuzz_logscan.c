/* Fuzz target: sys/logscan on any bytes — UTF-16 detection and decoding
 * (surrogates, odd lengths, a BOM alone), head/tail line delivery — must
 * never misbehave, and every line handed out must lie in the delivered
 * window. The input is read from a memfd, as a file would be. The build
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

static int on_line(const char *line, size_t len, void *ctx)
{
    struct steps_point pt;
    volatile unsigned char sink = 0;
    for (size_t i = 0; i < len; i++) sink ^= (unsigned char)line[i]; /* touch every byte */
    (void)sink;
    steps_parse_line(line, len, &pt);
    (*(size_t *)ctx)++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_memfd(data, size, "fuzz-log", path, sizeof path);
    if (fd < 0) return 0;
    /* Every line, then the head and tail only (small limits: both phases). */
    const struct { size_t head, tail; } modes[] = {{0, 0}, {64, 128}, {0, 32}};
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        size_t lines = 0;
        struct logscan_opts o = {.fn = on_line, .ctx = &lines, .head_bytes = modes[m].head,
                                 .tail_bytes = modes[m].tail};
        struct logscan_info info;
        struct oom_report rep;
        struct oomlab_err err = {{0}};
        if (logscan_path_opts(path, &rep, &o, &info, &err) == 0) oom_report_release(&rep);
    }
    close(fd);
    return 0;
}
