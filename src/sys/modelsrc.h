/* modelsrc: the MODEL argument of `estimate` and `probe --model`, one
 * resolver for both — a preset (lib/models), a HuggingFace config.json, or a
 * directory holding one. Anything else is refused before it is opened (a
 * FIFO or a device would block in open()), and a name that is neither a
 * preset nor a file gets "did you mean" the preset it most likely names
 * (models_suggest: "meta-llama/Meta-Llama-3-8B" -> llama-3-8b). The caller
 * owns *m; nothing is kept. */
#ifndef OOMLAB_MODELSRC_H
#define OOMLAB_MODELSRC_H

#include <stdbool.h>

#include "lib/err.h"
#include "lib/est.h"
#include "lib/hfconfig.h"

#define MODELSRC_CONFIG_MAX (4 << 20) /* a config.json larger than this is not one */

/* Fill *m from arg (not finished: the caller applies overrides, then
 * est_model_finish). A config whose model_type the estimator does not know
 * sets *unknown_type; it is an error unless allow_unknown_type (then the
 * generic dimensions found are filled in). label prefixes the message when
 * arg is neither a preset nor a file ("--model " for probe). q (may be NULL)
 * receives a config's quantization_config (none for a preset). 0 or -1 with err. */
int modelsrc_load(const char *arg, const char *label, bool allow_unknown_type, struct est_model *m,
                  bool *unknown_type, struct hfconfig_quant *q, struct oomlab_err *err);

#endif
