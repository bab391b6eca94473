/* spark: sparklines (see spark.h). Eight levels, value * 8 truncated; the
 * lowest level is still a visible bar, so only unknown values are blank. */
#include "render/spark.h"

#include <stdlib.h>
#include <string.h>

static const char *const blocks[8] = {"\u2581", "\u2582", "\u2583", "\u2584",
                                      "\u2585", "\u2586", "\u2587", "\u2588"};
static const char ascii[8] = {'_', '.', ':', '-', '=', '+', '*', '#'};

const char *spark_render(const double *values, size_t n, bool utf8, char *buf, size_t size)
{
    if (!size) return buf;
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        double v = values[i];
        const char *cell;
        char one[2] = {' ', '\0'};
        if (v < 0 || v != v) {
            cell = one;
        } else {
            int level = v >= 1 ? 7 : (int)(v * 8);
            if (level > 7) level = 7;
            one[0] = ascii[level];
            cell = utf8 ? blocks[level] : one;
        }
        size_t cl = strlen(cell);
        if (len + cl + 1 > size) break;
        memcpy(buf + len, cell, cl + 1);
        len += cl;
    }
    return buf;
}

bool spark_utf8_locale(void)
{
    static const char *const vars[] = {"LC_ALL", "LC_CTYPE", "LANG"};
    for (size_t i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        if (!v || !*v) continue;
        return strstr(v, "UTF-8") || strstr(v, "utf-8") || strstr(v, "UTF8") || strstr(v, "utf8");
    }
    return false;
}
