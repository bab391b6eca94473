/* Fuzz target: the diagnose engine over arbitrary bytes — one view, then a
 * stream of small windows, then verdicts and the plan — must never read
 * out of bounds, overflow, hang or leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plan.h"
#include "lib/scan.h"
#include "lib/verdict.h"

static void judge(const struct oom_report *rep)
{
    struct verdicts v;
    struct plan p;
    verdict_compute(rep, &v);
    plan_build(rep, &v, NULL, &p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1); /* exact size: ASan catches any over-read */
    if (!copy) return 0;
    memcpy(copy, data, size);
    struct oom_report rep;
    struct oomlab_err err;
    if (scan_text(copy, size, &rep, &err) == 0) {
        judge(&rep);
        oom_report_release(&rep);
    }
    /* The same bytes as a stream: windows of 97 bytes, 64 of history. */
    struct scan s;
    if (scan_init(&s, &rep, &err) == 0) {
        for (size_t off = 0; off < size; off += 97) {
            size_t lo = off > 64 ? off - 64 : 0;
            size_t upto = off + 97 < size ? off + 97 : size;
            size_t hi = upto + 32 < size ? upto + 32 : size;
            if (scan_block(&s, copy + lo, hi - lo, lo, off, upto) < 0) break;
        }
        scan_finish(&s, size == 0 || copy[size - 1] == '\n');
        scan_release(&s);
        judge(&rep);
        oom_report_release(&rep);
    }
    free(copy);
    return 0;
}
