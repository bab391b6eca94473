/* logidx: the offset -> time index's text form and its reading cursor.
 * Entries are checked as they come: offsets and times never go back. */
#include "lib/logidx.h"

#include <stdio.h>
#include <string.h>

#include "lib/memcsv.h"

size_t logidx_header(char *buf, size_t size, const char *start_iso)
{
    int n = snprintf(buf, size, "%s\n# start: %s\n# resolution_ms: %d\n", LOGIDX_MAGIC, start_iso,
                     LOGIDX_RESOLUTION_MS);
    return n > 0 && (size_t)n < size ? (size_t)n : 0;
}

size_t logidx_entry_format(char *buf, size_t size, const struct logidx_entry *e)
{
    int n = snprintf(buf, size, "%llu %lld\n", (unsigned long long)e->offset, (long long)e->ms);
    return n > 0 && (size_t)n < size ? (size_t)n : 0;
}

bool logidx_due(struct logidx_writer *w, int64_t ms)
{
    if (w->any && ms - w->last_ms < LOGIDX_RESOLUTION_MS) return false;
    w->any = true;
    w->last_ms = ms;
    return true;
}

void logidx_cursor_init(struct logidx_cursor *c)
{
    *c = (struct logidx_cursor){.start_ms = -1, .resolution_ms = LOGIDX_RESOLUTION_MS};
}

/* Digits only, at most 19 of them (no sign, no overflow). */
static bool digits(const char *s, size_t len, uint64_t *out)
{
    if (len == 0 || len > 19) return false;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return true;
}

static bool prefixed(const char *line, size_t len, const char *prefix, const char **rest, size_t *rest_len)
{
    size_t n = strlen(prefix);
    if (len < n || memcmp(line, prefix, n)) return false;
    *rest = line + n, *rest_len = len - n;
    return true;
}

static void comment(struct logidx_cursor *c, const char *line, size_t len)
{
    const char *v;
    size_t vl;
    uint64_t res;
    if (prefixed(line, len, "# start: ", &v, &vl)) c->start_ms = memcsv_iso_ms(v, vl);
    else if (prefixed(line, len, "# resolution_ms: ", &v, &vl) && digits(v, vl, &res) && res > 0 && res <= 60000)
        c->resolution_ms = (int64_t)res;
}

void logidx_cursor_line(struct logidx_cursor *c, const char *line, size_t len)
{
    if (c->bad) return;
    if (len && line[len - 1] == '\r') len--;
    if (c->lines++ == 0) {
        c->magic = len == strlen(LOGIDX_MAGIC) && !memcmp(line, LOGIDX_MAGIC, len);
        c->bad = !c->magic;
        return;
    }
    if (len && line[0] == '#') {
        comment(c, line, len);
        return;
    }
    const char *sp = memchr(line, ' ', len);
    struct logidx_entry e;
    uint64_t ms;
    if (!sp || !digits(line, (size_t)(sp - line), &e.offset) || !digits(sp + 1, len - (size_t)(sp - line) - 1, &ms) ||
        ms > INT64_MAX / 2) {
        c->bad = true;
        return;
    }
    e.ms = (int64_t)ms;
    const struct logidx_entry *last = c->have_next ? &c->next : NULL;
    if (last && (e.offset < last->offset || e.ms < last->ms)) {
        c->bad = true;
        return;
    }
    if (c->have_next) c->cur = c->next, c->have_cur = true;
    c->next = e, c->have_next = true;
    c->entries++;
}

bool logidx_cursor_wants(const struct logidx_cursor *c, uint64_t offset)
{
    return !c->bad && !c->eof && (!c->have_next || c->next.offset <= offset);
}

int64_t logidx_cursor_ms(const struct logidx_cursor *c, uint64_t offset)
{
    if (c->bad) return -1;
    if (c->have_next && c->next.offset <= offset) return c->next.ms;
    if (c->have_cur && c->cur.offset <= offset) return c->cur.ms;
    return -1;
}

bool logidx_cursor_last(const struct logidx_cursor *c, struct logidx_entry *e)
{
    if (c->bad || !c->have_next) return false;
    *e = c->next;
    return true;
}
