/* textenc: a file that is text in UTF-16 or UTF-32 (PowerShell's `>` and
 * Notepad's "Unicode" write UTF-16LE with a byte order mark), named as such
 * for readers that take UTF-8 only (run configs, a model's config.json,
 * lint's files, the ledger), with the iconv line that converts it, instead
 * of "binary data" or "unexpected character" at 1:1. Nothing here
 * allocates. */
#ifndef OOMLAB_TEXTENC_H
#define OOMLAB_TEXTENC_H

#include <stdbool.h>
#include <stddef.h>

/* The bytes the sniff reads: a stream decides once it holds this many
 * (or the whole file), so that any cut of it into pieces says the same. */
#define TEXTENC_SNIFF 4096u

/* UTF-16 without a byte order mark: ASCII-looking text with a NUL in
 * (nearly) every odd byte and (almost) no even one is UTF-16LE (*be false),
 * the other way round UTF-16BE. Looks at the first TEXTENC_SNIFF bytes;
 * fewer than min_bytes (rounded down to whole units) are no answer. The
 * log reader (sys/logscan) and the config readers share it. */
bool textenc_nul_pattern(const void *bytes, size_t n, size_t min_bytes, bool *be);

/* UTF-16 with a byte order mark: bytes start with FF FE (little-endian,
 * *be false) or FE FF (*be true) AND UTF-16 text follows it: some unit in
 * U+0001..U+00FF (a NUL in its high byte, not in its low byte) within the
 * first TEXTENC_SNIFF bytes, as every line end is. 8-bit text that merely
 * starts with those two bytes holds no NUL, so the mark alone does not
 * decide; a mark with nothing after it does. The one rule for the log
 * reader (sys/logscan), the snapshot reader (lib/pickle) and every reader
 * of textenc_wide_message: run configs, a model's config.json, lint's
 * files, the ledger. */
bool textenc_utf16_bom(const void *bytes, size_t n, bool *be);

/* When text (len bytes, the start of a file is enough) is UTF-16 or UTF-32,
 * writes to out "UTF-16LE text (with a byte order mark), not UTF-8 as WHAT
 * must be; convert it: iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8 && mv FILE.utf8 FILE" (FILE
 * quoted for the shell where it needs to be; cut to fit, always
 * NUL-terminated) and returns true; false leaves out "". what names the
 * reader's kind of file ("a run config"); file NULL (standard input) gets
 * "... | iconv -f UTF-16 -t UTF-8 | oomlab ..." instead. A UTF-16 byte
 * order mark counts by textenc_utf16_bom's rule (UTF-32's is its own four
 * bytes). */
bool textenc_wide_message(const char *text, size_t len, const char *file, const char *what,
                          char *out, size_t out_size);

#endif
