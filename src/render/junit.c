/* junit: JUnit XML writer and XML 1.0 escaping (see junit.h). */
#include "render/junit.h"
#include "lib/strbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */

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
        size_t n = strbuf_utf8_seq(p + i, len - i, &cp);
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
