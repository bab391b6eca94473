/* html: the one escaper every report byte from outside goes through. */
#include "render/html.h"

#include <stdint.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (1-4), 0 when invalid. */
static size_t utf8_len(const unsigned char *s, size_t left)
{
    unsigned c = s[0];
    size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 0 || n > left) return 0;
    uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

void html_escape(FILE *f, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        unsigned c = p[i];
        switch (c) {
        case '&': fputs("&amp;", f); i++; continue;
        case '<': fputs("&lt;", f); i++; continue;
        case '>': fputs("&gt;", f); i++; continue;
        case '"': fputs("&quot;", f); i++; continue;
        case '\'': fputs("&#39;", f); i++; continue;
        case '\t': case '\n': fputc((int)c, f); i++; continue;
        default: break;
        }
        if (c < 0x20 || c == 0x7F) { /* U+2400 + c, U+2421 for DEL */
            fprintf(f, "&#x%X;", c == 0x7F ? 0x2421u : 0x2400u + c);
            i++;
            continue;
        }
        size_t n = utf8_len(p + i, len - i);
        if (n == 0) {
            fputs("&#xFFFD;", f);
            i++;
            continue;
        }
        fwrite(p + i, 1, n, f);
        i += n;
    }
}

void html_escapes(FILE *f, const char *s)
{
    if (s) html_escape(f, s, strlen(s));
}
