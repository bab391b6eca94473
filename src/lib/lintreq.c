/* lintreq: the oldest torch a project's requirement files allow, for the
 * rules whose cost depends on the torch version (zero-grad-not-none: torch
 * 2.0 made set_to_none=True the default). One scanner reads every format
 * (requirements*.txt, pyproject.toml in PEP 621 or Poetry form, setup.cfg,
 * setup.py's quoted requirement strings, extras_require's too, environment.yml), because each writes a requirement as the name, then
 * clauses of an operator and a version: `torch>=1.13,<3`,
 * `"torch>=2.1"`, `torch = "^2.0"`, `torch = {version = "~2.1"}`,
 * `- pytorch=2.1.0=py3.10_cuda12.1`, `- torch==2.2.1`. */
#include <stddef.h>
#include <string.h>

#include "lib/lint.h"

/* Characters that continue a distribution name: torchvision, torch-tb-profiler,
 * pytorch_lightning, download.pytorch.org are other things. */
static int name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-' || c == '.';
}

static int digit(char c) { return c >= '0' && c <= '9'; }

/* The lower bound's major version of the clauses after a name at p, up to
 * the end of the line, a ';' (environment marker) or a '#'; 0 if none. */
static int clauses_major(const char *p, const char *e)
{
    int best = 0;
    for (;;) {
        /* separators between the name and a clause, and between clauses;
         * '=' is here too, so `torch = "^2"` and conda's `pytorch=2.1` read
         * as a bare version (an exact or minimum one) */
        while (p < e && strchr(" \t\"'{}[],:=", *p)) p++;
        if (e - p >= 7 && !memcmp(p, "version", 7)) {
            p += 7;
            continue;
        }
        const char *op = p;
        while (p < e && strchr("<>!~^", *p)) p++;
        while (p < e && *p == '=') p++;
        size_t oplen = (size_t)(p - op);
        while (p < e && (*p == ' ' || *p == '\t' || *p == '"' || *p == '\'')) p++;
        if (p == e || !digit(*p)) return best;
        int major = 0;
        for (; p < e && digit(*p) && major < 1000; p++) major = major * 10 + (*p - '0');
        while (p < e && (digit(*p) || *p == '.' || *p == '*' || *p == '+' || (*p >= 'a' && *p <= 'z')))
            p++;
        /* <, <=, != give no lower bound; >, >=, ==, ~=, ^, ~, = and a bare
         * version do (>1.13 still lets 1.x run: its major is the bound) */
        int lower = oplen == 0 || op[0] == '>' || op[0] == '=' || op[0] == '~' || op[0] == '^';
        if (lower && major > best) best = major;
    }
}

int lint_torch_major_of(const char *text, size_t len)
{
    int result = 0;
    const char *e = text + len;
    for (const char *line = text; line < e;) {
        const char *nl = memchr(line, '\n', (size_t)(e - line));
        const char *end = nl ? nl : e;
        const char *hash = memchr(line, '#', (size_t)(end - line));
        const char *semi = memchr(line, ';', (size_t)(end - line));
        if (hash) end = hash;
        if (semi && semi < end) end = semi;
        for (const char *p = line; p + 5 <= end; p++) {
            if (memcmp(p, "torch", 5)) continue;
            const char *start = p >= line + 2 && !memcmp(p - 2, "py", 2) ? p - 2 : p;
            if ((start > line && name_char(start[-1])) || (p + 5 < end && name_char(p[5]))) continue;
            int major = clauses_major(p + 5, end);
            if (major > 0 && (result == 0 || major < result)) result = major;
        }
        line = nl ? nl + 1 : e;
    }
    return result;
}
