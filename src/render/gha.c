/* gha: GitHub Actions annotations (see gha.h). */
#include "render/gha.h"

#include <stdio.h>
#include <string.h>

void gha_escape(struct strbuf *b, const char *s, size_t len, bool property)
{
    for (size_t i = 0; i < len; i++) {
        const char *e = s[i] == '%' ? "%25" : s[i] == '\r' ? "%0D" : s[i] == '\n' ? "%0A"
                      : property && s[i] == ':' ? "%3A" : property && s[i] == ',' ? "%2C" : NULL;
        if (e) strbuf_adds(b, e);
        else strbuf_add(b, s + i, 1);
    }
}

static void property(struct strbuf *b, bool *first, const char *name, const char *value)
{
    strbuf_adds(b, *first ? " " : ",");
    *first = false;
    strbuf_adds(b, name);
    strbuf_adds(b, "=");
    gha_escape(b, value, strlen(value), true);
}

void gha_annotation(struct strbuf *b, const char *level, const char *file, long line,
                    const char *title, const char *message)
{
    bool first = true;
    strbuf_adds(b, "::");
    strbuf_adds(b, level);
    if (file && *file) property(b, &first, "file", file);
    if (line > 0) {
        char num[24];
        snprintf(num, sizeof num, "%ld", line);
        property(b, &first, "line", num);
    }
    if (title && *title) property(b, &first, "title", title);
    strbuf_adds(b, "::");
    gha_escape(b, message, strlen(message), false);
    strbuf_adds(b, "\n");
}
