/* junit: JUnit XML writer and XML 1.0 escaping (see junit.h). */
#include "render/junit.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */

/* Length of the valid UTF-8 sequence at s (1-4), 0 when invalid; *cp gets
 * the code point. No overlongs, surrogates or values past U+10FFFF. */
static size_t utf8_seq(const unsigned char *s, size_t len, uint32_t *cp)
{
    unsigned char c = s[0];
    size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 0 || n > len) return 0;
    uint32_t v = n == 1 ? c : n == 2 ? c & 0x1Fu : n == 3 ? c & 0x0Fu : c & 0x07u;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        v = v << 6 | (s[i] & 0x3Fu);
    }
    static const uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < min[n] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    *cp = v;
    return n;
}

static const char *entity(unsigned char c, bool attribute)
{
    switch (c) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return "&apos;";
    case '\t': return attribute ? "&#9;" : NULL;
    case '\n': return attribute ? "&#10;" : NULL;
    case '\r': return "&#13;"; /* a raw CR would be folded into LF by the parser */
    default: return NULL;
    }
}

void junit_escape(struct strbuf *b, const char *s, size_t len, bool attribute)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        const char *e = entity(p[i], attribute);
        if (e) {
            strbuf_adds(b, e);
            i++;
            continue;
        }
        uint32_t cp = 0;
        size_t n = utf8_seq(p + i, len - i, &cp);
        bool allowed = n > 0 && (cp >= 0x20 || cp == '\t' || cp == '\n') && cp != 0xFFFE && cp != 0xFFFF;
        if (allowed) strbuf_add(b, p + i, n);
        else strbuf_adds(b, replacement);
        i += n ? n : 1;
    }
}

static void attr(struct strbuf *b, const char *name, const char *value)
{
    if (!value) return;
    strbuf_adds(b, " ");
    strbuf_adds(b, name);
    strbuf_adds(b, "=\"");
    junit_escape(b, value, strlen(value), true);
    strbuf_adds(b, "\"");
}

static void attr_num(struct strbuf *b, const char *name, double v, bool fraction)
{
    char num[48];
    snprintf(num, sizeof num, fraction ? "%.3f" : "%.0f", v < 0 ? 0 : v);
    attr(b, name, num);
}

static void text_element(struct strbuf *b, const char *indent, const char *name, const char *text)
{
    if (!text) return;
    strbuf_adds(b, indent);
    strbuf_adds(b, "<");
    strbuf_adds(b, name);
    strbuf_adds(b, ">");
    junit_escape(b, text, strlen(text), false);
    strbuf_adds(b, "</");
    strbuf_adds(b, name);
    strbuf_adds(b, ">\n");
}

static void write_case(struct strbuf *b, const struct junit_case *c)
{
    strbuf_adds(b, "    <testcase");
    attr(b, "name", c->name);
    attr(b, "classname", c->classname);
    attr_num(b, "time", c->seconds, true);
    strbuf_adds(b, ">\n");
    if (c->result) {
        strbuf_adds(b, "      <");
        strbuf_adds(b, c->result);
        attr(b, "type", c->type);
        attr(b, "message", c->message);
        strbuf_adds(b, ">");
        if (c->details) junit_escape(b, c->details, strlen(c->details), false);
        strbuf_adds(b, "</");
        strbuf_adds(b, c->result);
        strbuf_adds(b, ">\n");
    }
    text_element(b, "      ", "system-out", c->out);
    strbuf_adds(b, "    </testcase>\n");
}

void junit_write(struct strbuf *b, const struct junit_suite *s)
{
    size_t failures = 0, errors = 0;
    for (size_t i = 0; i < s->n_cases; i++) {
        const char *r = s->cases[i].result;
        failures += r && !strcmp(r, "failure");
        errors += r && !strcmp(r, "error");
    }
    strbuf_adds(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
    attr(b, "name", s->name);
    attr_num(b, "tests", (double)s->n_cases, false);
    attr_num(b, "failures", (double)failures, false);
    attr_num(b, "errors", (double)errors, false);
    attr_num(b, "time", s->seconds, true);
    strbuf_adds(b, ">\n  <testsuite");
    attr(b, "name", s->name);
    attr_num(b, "tests", (double)s->n_cases, false);
    attr_num(b, "failures", (double)failures, false);
    attr_num(b, "errors", (double)errors, false);
    attr_num(b, "skipped", 0, false);
    attr_num(b, "time", s->seconds, true);
    attr(b, "timestamp", s->timestamp);
    attr(b, "hostname", s->hostname);
    strbuf_adds(b, ">\n");
    if (s->n_props) {
        strbuf_adds(b, "    <properties>\n");
        for (size_t i = 0; i < s->n_props; i++) {
            strbuf_adds(b, "      <property");
            attr(b, "name", s->props[i].name);
            attr(b, "value", s->props[i].value ? s->props[i].value : "");
            strbuf_adds(b, "/>\n");
        }
        strbuf_adds(b, "    </properties>\n");
    }
    for (size_t i = 0; i < s->n_cases; i++) write_case(b, &s->cases[i]);
    strbuf_adds(b, "  </testsuite>\n</testsuites>\n");
}
