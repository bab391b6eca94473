/* textenc: UTF-16/UTF-32 found from the first bytes (a byte order mark, or
 * ASCII-looking text with a NUL in nearly every other byte), said with the
 * conversion a user can paste. The log reader decodes UTF-16 itself
 * (sys/logscan); configs are read as UTF-8, as the training script's
 * yaml.safe_load(open(path)) and json.load read them. */
#include "lib/textenc.h"

#include <stdio.h>
#include <string.h>

#define SNIFF TEXTENC_SNIFF

struct wide {
    const char *name;  /* as said: "UTF-16LE" */
    const char *iconv; /* iconv's -f: "UTF-16" reads (and drops) a BOM */
    bool bom;
};

bool textenc_nul_pattern(const void *bytes, size_t n, size_t min_bytes, bool *be)
{
    const unsigned char *b = bytes;
    if (n > SNIFF) n = SNIFF;
    n &= ~(size_t)1;
    if (n < min_bytes) return false;
    size_t zero_even = 0, zero_odd = 0, units = n / 2;
    for (size_t i = 0; i < n; i += 2) {
        zero_even += b[i] == 0;
        zero_odd += b[i + 1] == 0;
    }
    if (zero_odd * 10 >= units * 9 && zero_even * 20 <= units) return *be = false, true;
    if (zero_even * 10 >= units * 9 && zero_odd * 20 <= units) return *be = true, true;
    return false;
}

bool textenc_utf16_bom(const void *bytes, size_t n, bool *be)
{
    const unsigned char *b = bytes;
    if (n < 2 || !((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF))) return false;
    bool le = b[0] == 0xFF;
    *be = !le;
    if (n > SNIFF) n = SNIFF;
    if (n <= 2) return true;
    for (size_t i = 2; i + 1 < n; i += 2) {
        unsigned char lo = le ? b[i] : b[i + 1], hi = le ? b[i + 1] : b[i];
        if (!hi && lo) return true;
    }
    return false;
}

static bool sniff(const unsigned char *b, size_t n, struct wide *w)
{
    static const struct {
        const char *bytes;
        size_t n;
        struct wide w;
    } boms[] = { /* UTF-32's first: FF FE 00 00 starts with UTF-16LE's BOM */
        {"\xff\xfe\0\0", 4, {"UTF-32LE", "UTF-32", true}},
        {"\0\0\xfe\xff", 4, {"UTF-32BE", "UTF-32", true}},
    };
    for (size_t i = 0; i < sizeof boms / sizeof boms[0]; i++)
        if (n >= boms[i].n && !memcmp(b, boms[i].bytes, boms[i].n)) {
            *w = boms[i].w;
            return true;
        }
    bool be;
    if (textenc_utf16_bom(b, n, &be)) {
        *w = be ? (struct wide){"UTF-16BE", "UTF-16", true} : (struct wide){"UTF-16LE", "UTF-16", true};
        return true;
    }
    /* short files need 2 units at least */
    if (!textenc_nul_pattern(b, n, 4, &be)) return false;
    *w = be ? (struct wide){"UTF-16BE", "UTF-16BE", false} : (struct wide){"UTF-16LE", "UTF-16LE", false};
    return true;
}

/* FILE as the shell takes it: as is when plain, else in single quotes. */
static void shell_word(const char *s, char *out, size_t size)
{
    if (!strpbrk(s, " \t\n'\"$\\`;&|<>()*?[]#~!{}")) {
        snprintf(out, size, "%s", s);
        return;
    }
    size_t o = 0;
    if (o + 1 < size) out[o++] = '\'';
    for (; *s && o + 5 < size; s++) {
        if (*s == '\'') {
            memcpy(out + o, "'\\''", 4);
            o += 4;
        } else {
            out[o++] = *s;
        }
    }
    if (o + 1 < size) out[o++] = '\'';
    out[o] = '\0';
}

bool textenc_wide_message(const char *text, size_t len, const char *file, const char *what,
                          char *out, size_t out_size)
{
    if (out_size) out[0] = '\0';
    struct wide w;
    if (!text || !sniff((const unsigned char *)text, len, &w)) return false;
    if (!file) { /* standard input: the conversion goes into the pipe */
        snprintf(out, out_size,
                 "%s text (%s), not UTF-8 as %s must be; convert it on the way in: "
                 "... | iconv -f %s -t UTF-8 | oomlab ...",
                 w.name, w.bom ? "with a byte order mark" : "no byte order mark", what, w.iconv);
        return true;
    }
    char q[1024];
    shell_word(file, q, sizeof q);
    snprintf(out, out_size,
             "%s text (%s), not UTF-8 as %s must be; convert it: "
             "iconv -f %s -t UTF-8 %s > %s.utf8 && mv %s.utf8 %s",
             w.name, w.bom ? "with a byte order mark" : "no byte order mark", what, w.iconv, q, q,
             q, q);
    return true;
}
