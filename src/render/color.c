/* color: decides once per stream whether to colour (see color.h). */
#include "render/color.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool color_enabled(FILE *f)
{
    const char *no = getenv("NO_COLOR");
    if (no && *no) return false;
    const char *term = getenv("TERM");
    if (term && strcmp(term, "dumb") == 0) return false;
    return isatty(fileno(f));
}

const char *color_code(bool on, enum color c)
{
    static const char *codes[] = {"\033[0m", "\033[1m", "\033[31m", "\033[33m",
                                  "\033[32m", "\033[2m", "\033[36m"};
    return on ? codes[c] : "";
}
