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

/* path as an annotation's file= wants it: relative to the repository
 * root, with no leading "./" or "/" (GitHub's examples are `file=app.js`;
 * a leading "/" or "../" keeps the annotation off the pull request's diff:
 * nearform/node-test-github-reporter#286, ammaraskar/sphinx-action#15).
 * workspace ($GITHUB_WORKSPACE, the checkout) and cwd (the directory path
 * is relative to) may be NULL: without them only "./"s are dropped; with
 * them a path inside the workspace is made relative to it, and one
 * outside it is left as it is. Into buf (size bytes); returns buf. */
const char *gha_file(const char *path, const char *workspace, const char *cwd, char *buf, size_t size);

#endif
