/* Fuzz target: lib/textenc's UTF-16/UTF-32 sniff and the message naming it
 * (configs, scripts, notebooks, ledgers). Input: one byte of options (bit 0:
 * standard input, no file name; the rest picks the output's size), the
 * file name up to the first NUL byte, then the file's text. Must never
 * over-read or overflow; the message is NUL-terminated inside the buffer,
 * "" when it returns false; a name that fits comes back whole in the iconv
 * line, as the shell reads the word (quoted where it needs to be). The
 * byte-order-mark rule (textenc_utf16_bom, shared with the log reader and
 * the snapshot reader): a mark counts only with UTF-16 after it, read from
 * the first TEXTENC_SNIFF bytes alone, and a mark that counts is said. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/textenc.h"

/* One shell word at *p (plain, or with single quotes and \' outside them),
 * unquoted into out; *p moves past it. */
static size_t shell_unword(const char **p, char *out, size_t size)
{
    size_t o = 0;
    bool quoted = false;
    for (const char *s = *p; *s; s++) {
        if (quoted) {
            if (*s == '\'') quoted = false;
            else if (o + 1 < size) out[o++] = *s;
        } else if (*s == '\'') {
            quoted = true;
        } else if (*s == '\\' && s[1]) {
            if (o + 1 < size) out[o++] = *++s;
        } else if (*s == ' ') {
            *p = s;
            break;
        } else if (o + 1 < size) {
            out[o++] = *s;
        }
    }
    out[o] = '\0';
    return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    bool piped = data[0] & 1;
    static const size_t sizes[] = {1024, 0, 1, 2, 16, 64, 100, 256};
    size_t out_size = sizes[(data[0] >> 1) & 7];
    const uint8_t *nul = memchr(data + 1, '\0', size - 1);
    size_t name_len = nul ? (size_t)(nul - data - 1) : 0;
    char *name = malloc(name_len + 1);
    if (!name) return 0;
    memcpy(name, data + 1, name_len);
    name[name_len] = '\0';
    size_t text_at = nul ? name_len + 2 : 1;
    size_t len = size - text_at;
    char *text = malloc(len ? len : 1); /* exact size: ASan catches any over-read */
    char *out = malloc(out_size ? out_size : 1);
    if (!text || !out) goto done;
    memcpy(text, data + text_at, len);
    if (out_size) memset(out, 'x', out_size);
    bool wide = textenc_wide_message(text, len, piped ? NULL : name, "a run config", out, out_size);
    bool be, bom = textenc_utf16_bom(text, len, &be);
    bool marked = len >= 2 && (((unsigned char)text[0] == 0xFF && (unsigned char)text[1] == 0xFE) ||
                               ((unsigned char)text[0] == 0xFE && (unsigned char)text[1] == 0xFF));
    if (bom != textenc_utf16_bom(text, len < TEXTENC_SNIFF ? len : TEXTENC_SNIFF, &be)) __builtin_trap();
    if (bom) {
        if (!marked || be != ((unsigned char)text[0] == 0xFE) || !wide) __builtin_trap();
        bool unit = len <= 2; /* a mark alone, or a unit U+0001..U+00FF after it */
        for (size_t i = 2; !unit && i + 1 < len && i + 1 < TEXTENC_SNIFF; i += 2)
            unit = be ? !text[i] && text[i + 1] : text[i] && !text[i + 1];
        if (!unit) __builtin_trap();
        if (out_size == 1024 && strncmp(out, "UTF-16", 6) && strncmp(out, "UTF-32", 6)) __builtin_trap();
    } else if (marked && len > 2 && wide && out_size == 1024 && !strncmp(out, "UTF-16", 6) &&
               strstr(out, " text (with a byte order mark)") == out + 8) { /* the name may hold the words */
        fprintf(stderr, "a mark without UTF-16 after it said as one: %s\n", out);
        __builtin_trap();
    }
    if (out_size) {
        if (!memchr(out, '\0', out_size)) __builtin_trap();
        if (!wide && out[0]) __builtin_trap();
    }
    if (wide && out_size == 1024 && !piped && name_len < 200) {
        const char *at = strstr(out, "-t UTF-8 ");
        if (!at) __builtin_trap();
        at += strlen("-t UTF-8 ");
        char back[1024];
        shell_unword(&at, back, sizeof back);
        if (strcmp(back, name)) {
            fprintf(stderr, "name '%s' came back as '%s' in: %s\n", name, back, out);
            __builtin_trap();
        }
    }
done:
    free(name);
    free(text);
    free(out);
    return 0;
}
