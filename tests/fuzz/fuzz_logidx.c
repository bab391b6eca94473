/* Fuzz the line-time index reader (lib/logidx): lines fed in order, with
 * lookups at increasing offsets the input chooses between them. Checks
 * what the cursor promises: answers never go back in time for offsets
 * that go forward, and a bad index answers nothing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/logidx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct logidx_cursor c;
    logidx_cursor_init(&c);
    const char *text = (const char *)data;
    uint64_t offset = 0;
    int64_t last_ms = -1;
    for (size_t pos = 0; pos < size;) {
        const char *nl = memchr(text + pos, '\n', size - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : size - pos;
        if (n <= LOGIDX_LINE_MAX) logidx_cursor_line(&c, text + pos, n);
        else c.bad = true; /* as the file reader treats an overlong line */
        offset += (uint64_t)(n % 97) * 13; /* the next lookup, further on */
        pos += n + 1;
        if (logidx_cursor_wants(&c, offset)) continue;
        int64_t ms = logidx_cursor_ms(&c, offset);
        if (c.bad && ms != -1) __builtin_trap();
        if (ms >= 0 && ms < last_ms) __builtin_trap();
        if (ms >= 0) last_ms = ms;
    }
    c.eof = true;
    struct logidx_entry e;
    if (logidx_cursor_last(&c, &e) && c.bad) __builtin_trap();
    char buf[LOGIDX_LINE_MAX];
    if (logidx_cursor_last(&c, &e) && logidx_entry_format(buf, sizeof buf, &e) == 0) __builtin_trap();
    return 0;
}
