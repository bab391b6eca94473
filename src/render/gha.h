/* gha: GitHub Actions workflow commands (`::error file=F,line=N,title=T::
 * message`), escaped as the runner reads them (actions/toolkit
 * packages/core/src/command.ts): in the message %, CR and LF become %25,
 * %0D, %0A; in a property value also ':' and ',' become %3A and %2C.
 * Output goes to a strbuf; nothing else is allocated. */
#ifndef OOMLAB_GHA_H
#define OOMLAB_GHA_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strbuf.h"

void gha_escape(struct strbuf *b, const char *s, size_t len, bool property);

/* One command line with its newline: level "error", "warning" or
 * "notice"; file, title may be NULL and line <= 0 leaves line out. */
void gha_annotation(struct strbuf *b, const char *level, const char *file, long line,
                    const char *title, const char *message);

#endif
