/* Fuzz target: lib/livelog on any bytes, as a growing run log arrives —
 * all at once, then in pieces cut at a point the input's first byte picks
 * and in 7-byte pieces. How the bytes arrive must not change what is read
 * (steps, loss lines, peaks, OOM messages), and nothing may misbehave. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/livelog.h"

static int read_in_pieces(struct livelog *lv, const uint8_t *data, size_t size, size_t cut,
                          size_t piece)
{
    if (livelog_init(lv) < 0) return -1;
    const char *p = (const char *)data;
    livelog_feed(lv, p, cut);
    for (size_t off = cut; off < size; off += piece)
        livelog_feed(lv, p + off, size - off < piece ? size - off : piece);
    livelog_flush(lv);
    return 0;
}

static void same(const struct livelog *a, const struct livelog *b)
{
    if (a->step != b->step || a->loss_lines != b->loss_lines || a->ooms != b->ooms ||
        a->peak_alloc != b->peak_alloc || a->peak_reserved != b->peak_reserved ||
        a->peak_mem != b->peak_mem || livelog_steps_seen(a) != livelog_steps_seen(b) ||
        livelog_peak(a) != livelog_peak(b))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct livelog whole, cut, small;
    if (read_in_pieces(&whole, data, size, size, 1) < 0) return 0;
    size_t at = size ? data[0] % (size + 1) : 0;
    if (read_in_pieces(&cut, data, size, at, size ? size : 1) == 0) {
        same(&whole, &cut);
        livelog_release(&cut);
    }
    if (read_in_pieces(&small, data, size, 0, 7) == 0) {
        same(&whole, &small);
        livelog_release(&small);
    }
    livelog_release(&whole);
    return 0;
}
