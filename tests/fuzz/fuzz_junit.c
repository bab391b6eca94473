/* Fuzz target: guard's report escaping (render/junit XML 1.0, render/gha
 * workflow commands) on arbitrary bytes. Beyond not crashing, the output
 * must be safe: no raw markup or forbidden control byte in XML, valid
 * UTF-8; no CR/LF (nor ':' ',' in a property) in an annotation. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/gha.h"
#include "render/junit.h"

static void check_xml(const struct strbuf *b, bool attribute)
{
    for (size_t i = 0; b->s && i < b->n; i++) {
        unsigned char c = (unsigned char)b->s[i];
        if (c == '<' || c == '>' || c == '"' || c == '\'' || c == '\r') abort();
        if (c < 0x20 && (attribute || (c != '\t' && c != '\n'))) abort();
        if (c == '&' && b->s[i + 1] != 'a' && b->s[i + 1] != 'l' && b->s[i + 1] != 'g' &&
            b->s[i + 1] != 'q' && b->s[i + 1] != '#')
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    for (int attr = 0; attr < 2; attr++) {
        struct strbuf b = {0};
        junit_escape(&b, s, size, attr);
        check_xml(&b, attr);
        strbuf_release(&b);
        struct strbuf g = {0};
        gha_escape(&g, s, size, attr);
        for (size_t i = 0; g.s && i < g.n; i++)
            if (g.s[i] == '\r' || g.s[i] == '\n' || (attr && (g.s[i] == ':' || g.s[i] == ','))) abort();
        strbuf_release(&g);
    }
    return 0;
}
