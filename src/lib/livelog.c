/* livelog: a growing log read line by line (see livelog.h). */
#include "lib/livelog.h"

#include <stdlib.h>
#include <string.h>

#include "lib/msg.h"
#include "lib/steps.h"

int livelog_init(struct livelog *lv)
{
    memset(lv, 0, sizeof *lv);
    lv->step = -1;
    lv->peak_alloc = lv->peak_reserved = lv->peak_mem = -1;
    lv->line = malloc(LIVELOG_LINE_MAX);
    return lv->line ? 0 : -1;
}

void livelog_release(struct livelog *lv)
{
    free(lv->line);
    lv->line = NULL;
}

static void keep_max(int64_t *best, int64_t v)
{
    if (v > *best) *best = v;
}

/* A GPU OOM message is what diagnose calls a primary GPU-OOM event. */
static bool is_gpu_oom(const char *line, size_t len)
{
    static char clean[LIVELOG_LINE_MAX];
    size_t n = msg_clean(line, len, SIZE_MAX, clean, sizeof clean);
    const struct msg_rule *r = msg_classify(clean, n);
    return r && r->gpu_oom && r->role == MSG_PRIMARY;
}

static void judge(struct livelog *lv)
{
    if (lv->len == 0) return;
    struct steps_point pt;
    unsigned f = steps_parse_line(lv->line, lv->len, &pt);
    if ((f & STEPS_STEP) && pt.step > lv->step) lv->step = pt.step;
    if ((f & STEPS_LOSS) && !(f & STEPS_STEP)) lv->loss_lines++;
    if (f & STEPS_PEAK_ALLOC) keep_max(&lv->peak_alloc, pt.peak_alloc);
    if (f & STEPS_PEAK_RESERVED) keep_max(&lv->peak_reserved, pt.peak_reserved);
    if (f & STEPS_MEM) keep_max(&lv->peak_mem, pt.mem);
    if (is_gpu_oom(lv->line, lv->len)) lv->ooms++;
}

/* The next '\n' or '\r' at or after buf + i, each searched again only once
 * the reader has passed the last one found (searching both from every line
 * read the rest of the buffer for a '\r' a log of '\n' lines never has:
 * a 64 KiB read of 100-byte lines scanned 21 MB, fuzz18). */
struct next_byte {
    const char *at; /* the last one found; NULL with none: none to the buffer's end */
    bool searched;
};

static const char *next_of(struct next_byte *b, int c, const char *buf, size_t i, size_t n)
{
    if (!b->searched || (b->at && b->at < buf + i)) {
        b->at = memchr(buf + i, c, n - i);
        b->searched = true;
    }
    return b->at;
}

void livelog_feed(struct livelog *lv, const char *buf, size_t n)
{
    if (!lv->line) return;
    struct next_byte lf = {NULL, false}, cr = {NULL, false};
    for (size_t i = 0; i < n;) {
        const char *nl = next_of(&lf, '\n', buf, i, n), *ret = next_of(&cr, '\r', buf, i, n);
        const char *end = nl && (!ret || nl < ret) ? nl : ret;
        size_t take = (end ? (size_t)(end - buf) : n) - i;
        size_t room = LIVELOG_LINE_MAX - lv->len;
        if (take > room) lv->cut = true;
        memcpy(lv->line + lv->len, buf + i, take < room ? take : room);
        lv->len += take < room ? take : room;
        i += take;
        if (!end) break;
        judge(lv);
        lv->len = 0;
        lv->cut = false;
        i++; /* the '\n' or '\r' */
    }
}

void livelog_flush(struct livelog *lv)
{
    if (!lv->line) return;
    judge(lv);
    lv->len = 0;
    lv->cut = false;
}

long livelog_steps_seen(const struct livelog *lv)
{
    return lv->step > 0 ? lv->step : lv->loss_lines;
}

int64_t livelog_peak(const struct livelog *lv)
{
    return lv->peak_reserved >= 0 ? lv->peak_reserved
           : lv->peak_alloc >= 0  ? lv->peak_alloc
                                  : lv->peak_mem;
}
