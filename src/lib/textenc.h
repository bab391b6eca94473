/* textenc: a file that is text in UTF-16 or UTF-32 (PowerShell's `>` and
 * Notepad's "Unicode" write UTF-16LE with a byte order mark), named as such
 * for readers that take UTF-8 only (run configs, a model's config.json),
 * with the iconv line that converts it, instead of "binary data" or
 * "unexpected character" at 1:1. Nothing here allocates. */
#ifndef OOMLAB_TEXTENC_H
#define OOMLAB_TEXTENC_H

#include <stdbool.h>
#include <stddef.h>

/* The bytes the sniff reads: a stream decides once it holds this many
 * (or the whole file), so that any cut of it into pieces says the same. */
#define TEXTENC_SNIFF 4096u

/* When text (len bytes, the start of a file is enough) is UTF-16 or UTF-32,
 * writes to out "UTF-16LE text (with a byte order mark), not UTF-8 as WHAT
 * must be; convert it: iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8 && mv FILE.utf8 FILE" (FILE
 * quoted for the shell where it needs to be; cut to fit, always
 * NUL-terminated) and returns true; false leaves out "". what names the
 * reader's kind of file ("a run config"); file NULL (standard input) gets
 * "... | iconv -f UTF-16 -t UTF-8 | oomlab ..." instead. */
bool textenc_wide_message(const char *text, size_t len, const char *file, const char *what,
                          char *out, size_t out_size);

#endif
