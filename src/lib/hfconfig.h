/* hfconfig: a HuggingFace config.json text -> struct est_model, with json-c.
 * Knows the model_type families of est.h (gpt2, gpt_neox, opt, llama,
 * mistral, qwen2, gemma, gemma2, mixtral, phi, phi3, falcon, bloom, bert,
 * roberta, t5/mt5, qwen (Qwen-1)). Nothing is kept after the call; the caller owns *m. */
#ifndef OOMLAB_HFCONFIG_H
#define OOMLAB_HFCONFIG_H

#include <stddef.h>

#include "lib/err.h"
#include "lib/est.h"

enum {
    HFCONFIG_OK = 0,
    HFCONFIG_BAD = -1,          /* malformed JSON (FILE:LINE:COL) or a bad value */
    HFCONFIG_UNKNOWN_TYPE = -2, /* valid JSON, model_type not known: the generic
                                   dimensions found are filled in, family is not */
};

/* Parse len bytes of text (no NUL needed); file names the source in messages.
 * Fields the config does not state stay 0 (est_model_finish fills defaults). */
int hfconfig_parse(const char *text, size_t len, const char *file, struct est_model *m,
                   struct oomlab_err *err);

#endif
