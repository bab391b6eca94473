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

/* p past any "./" (and the slashes after each) */
static const char *past_dots(const char *p)
{
    while (p[0] == '.' && p[1] == '/')
        for (p += 2; *p == '/';) p++;
    return p;
}

/* s inside dir: what follows dir's "/" in s (NULL when not inside) */
static const char *inside(const char *s, const char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') n--;
    if (n == 0 || strncmp(s, dir, n) || s[n] != '/') return NULL;
    for (s += n; *s == '/';) s++;
    return s;
}

const char *gha_file(const char *path, const char *workspace, const char *cwd, char *buf, size_t size)
{
    const char *p = past_dots(path);
    const char *rel;
    if (!workspace || workspace[0] != '/') {
        snprintf(buf, size, "%s", p);
    } else if (p[0] == '/') {
        rel = inside(p, workspace);
        snprintf(buf, size, "%s", rel ? rel : p);
    } else if (cwd && (rel = inside(cwd, workspace)) && *rel) {
        snprintf(buf, size, "%s/%s", rel, p); /* run from a subdirectory of the checkout */
    } else {
        snprintf(buf, size, "%s", p);
    }
    return buf;
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
