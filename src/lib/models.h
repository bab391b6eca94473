/* models: built-in model presets, one table row each (shape only; the
 * workload comes from options). Rows are static; nothing is allocated. */
#ifndef OOMLAB_MODELS_H
#define OOMLAB_MODELS_H

#include <stddef.h>

#include "lib/est.h"

struct model_preset {
    const char *name;    /* "llama-2-7b" */
    const char *summary; /* "Llama 2 7B (MHA, 32k vocab)" */
    struct est_model m;
};

/* The whole table, in --list-models order. */
const struct model_preset *models_table(size_t *n);
/* Case-insensitive exact name match; NULL when unknown. */
const struct model_preset *models_find(const char *name);
/* The preset a name that is not one most likely means, for "did you mean":
 * a HuggingFace hub id ("meta-llama/Meta-Llama-3-8B" -> llama-3-8b: the
 * longest preset whose letters and digits appear in the id's last part), or
 * a near miss (edit distance at most a third of the name). NULL when none. */
const struct model_preset *models_suggest(const char *name);

#endif
