/* Fuzz target: the Python tokenizer, statement tree and every rule, and the
 * launch-script checker, and the requirement-file reader, must never crash,
 * leak, hang or read past len on arbitrary bytes (the first byte picks the
 * language, and its high bits the options). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;
    static const enum lint_lang langs[] = {LINT_PYTHON, LINT_PYTHON, LINT_SHELL, LINT_DOCKER};
    enum lint_lang lang = langs[data[0] & 3];
    char *copy = malloc(size - 1 ? size - 1 : 1);
    if (!copy) return 0;
    memcpy(copy, data + 1, size - 1);
    struct lint_report r = {0};
    struct lint_opts o = {.torch_major = data[0] >> 7, .project_gpu = (data[0] >> 6) & 1};
    struct oomlab_err err;
    lint_source(lang, copy, size - 1, &o, &r, &err);
    (void)lint_torch_major_of(copy, size - 1);
    struct lint_nb nb; /* the bytes as a notebook too (lintnb) */
    if (lint_nb_extract(copy, size - 1, &nb, &err) == 0) lint_nb_release(&nb);
    lint_report_release(&r);
    free(copy);
    return 0;
}
