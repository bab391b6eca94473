/* html: the one escaper every report byte from outside goes through. */
#include "render/html.h"
#include "lib/strbuf.h"

#include <stdint.h>
#include <string.h>

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
        size_t n = strbuf_utf8_seq(p + i, len - i, NULL);
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
