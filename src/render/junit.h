/* junit: JUnit XML as Jenkins, GitLab and GitHub test reporters read it
 * (the testsuites/testsuite/testcase shape of jenkinsci/xunit-plugin's
 * junit-10.xsd): a writer for one suite of test cases, and the escaping
 * under it. Text is escaped for XML 1.0: & < > " ' as entities, tab/LF/CR
 * as character references inside attributes, other control characters,
 * U+FFFE/U+FFFF and invalid UTF-8 replaced by U+FFFD (XML 1.0 cannot carry
 * them at all, not even as references). Output goes to a strbuf; nothing
 * else is allocated. */
#ifndef OOMLAB_JUNIT_H
#define OOMLAB_JUNIT_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strbuf.h"

/* Append s[0..len) escaped; attribute: also tab, LF and CR as references. */
void junit_escape(struct strbuf *b, const char *s, size_t len, bool attribute);

struct junit_property {
    const char *name, *value;
};

struct junit_case {
    const char *name, *classname;
    double seconds;
    const char *result;   /* NULL passed, "failure" or "error" */
    const char *type;     /* the result's type attribute (e.g. "over-budget") */
    const char *message;  /* the result's message attribute */
    const char *details;  /* the result's text (may be NULL) */
    const char *out;      /* system-out (may be NULL) */
};

struct junit_suite {
    const char *name, *timestamp, *hostname; /* timestamp ISO 8601, may be NULL */
    double seconds;
    const struct junit_property *props;
    size_t n_props;
    const struct junit_case *cases;
    size_t n_cases;
};

/* The whole document, from the XML declaration on. */
void junit_write(struct strbuf *b, const struct junit_suite *s);

#endif
