/* stagejson: frames serialised as JSON strings, read as Python's own.
 * AUTOMATIC1111's web UI (and its forks, Forge among them) keeps each
 * exception it reports and dumps it in the "Sysinfo" JSON its bug form
 * asks for; the frames become string pairs, "path, line N, name" and the
 * code line, with JSON's doubled backslashes. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "lib/stage.h"

/* modules/errors.py format_traceback: [[f"{x.filename}, line {x.lineno},
 * {x.name}", x.line] for x in traceback.extract_tb(tb)] (AUTOMATIC1111/
 * stable-diffusion-webui:modules/errors.py; the same in lllyasviel/
 * stable-diffusion-webui-forge), dumped by modules/sysinfo.py with
 * json.dumps(indent=4): outermost first, as Python prints them. */
static bool name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '<' || c == '>' || c == '.';
}

/* the frame's file: a Python source ("x.py", "x.pyx") or a code object
 * of no file ("<string>", "<frozen runpy>"), not prose with a comma */
static bool python_file(const char *s, size_t n)
{
    static const char *const ends[] = {".py", ".pyx"};
    if (n >= 3 && s[0] == '<' && s[n - 1] == '>') return true;
    for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++) {
        size_t m = strlen(ends[k]);
        if (n > m && !strncasecmp(s + n - m, ends[k], m)) return true;
    }
    return false;
}

size_t stage_unjson(char *line, size_t len, size_t cap)
{
    size_t i = 0, e = len;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    while (e > i && (line[e - 1] == ' ' || line[e - 1] == '\t' || line[e - 1] == '\r' || line[e - 1] == '\n')) e--;
    if (e > i && line[e - 1] == ',') e--;
    if (e - i < 16 || line[i] != '"' || line[e - 1] != '"') return len;
    const char *s = line + i + 1;
    size_t n = e - i - 2;
    if (memchr(s, '"', n)) return len;
    /* the name: the text after the last ", " (an identifier, "<module>") */
    size_t b = n;
    while (b > 0 && name_char(s[b - 1])) b--;
    if (b == n || b < 2 || s[b - 1] != ' ' || s[b - 2] != ',') return len;
    /* the line number before it, and " line " before that */
    size_t d = b - 2;
    while (d > 0 && isdigit((unsigned char)s[d - 1])) d--;
    if (d == b - 2 || d < 7 || memcmp(s + d - 7, ", line ", 7)) return len;
    size_t path_n = d - 7;
    if (!python_file(s, path_n)) return len;
    struct stage_frame_parts f = {.file = s, .file_n = path_n, .lineno = s + d, .lineno_n = b - 2 - d,
                                  .name = s + b, .name_n = n - b, .json_escapes = true};
    return stage_frame_header(line, len, cap, &f);
}

/* modules/errors.py format_exception: {"exception": str(e), "traceback":
 * format_traceback(tb)}, one record per exception kept, newest first */
bool stage_json_record_head(const char *line, size_t len)
{
    static const char key[] = "\"exception\":";
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
    return len - i >= sizeof key - 1 && !memcmp(line + i, key, sizeof key - 1);
}
