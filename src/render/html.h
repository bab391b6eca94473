/* html: text from logs, configs and command lines made safe for an HTML or
 * SVG document: & < > " ' escaped, invalid UTF-8 shown as U+FFFD, control
 * characters (but tab and newline) as their Unicode "control pictures", so
 * a log holding <script>, </svg> or terminal escapes renders as text. */
#ifndef OOMLAB_HTML_H
#define OOMLAB_HTML_H

#include <stddef.h>
#include <stdio.h>

/* Escape len bytes of s to f (valid in element content and in quoted
 * attribute values). */
void html_escape(FILE *f, const char *s, size_t len);
/* Same for a NUL-terminated string (NULL writes nothing). */
void html_escapes(FILE *f, const char *s);

#endif
