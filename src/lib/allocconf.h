/* allocconf: a PyTorch allocator settings string (PYTORCH_ALLOC_CONF,
 * PYTORCH_CUDA_ALLOC_CONF, PYTORCH_HIP_ALLOC_CONF) checked against the keys
 * PyTorch's parser accepts. An unknown key is not ignored by PyTorch: it
 * stops the program at its first CUDA allocation. Nothing here allocates. */
#ifndef OOMLAB_ALLOCCONF_H
#define OOMLAB_ALLOCCONF_H

#include <stddef.h>

/* The keys of value (split at top-level commas; a key ends at ':') that
 * PyTorch does not know, written to out as "a, b" (cut to fit, always
 * NUL-terminated). Returns how many there are. */
size_t allocconf_unknown_keys(const char *value, char *out, size_t out_size);

/* What value's unknown keys do, as doctor and run say it: "'a, b' are not
 * keys PyTorch's allocator reads: torch stops at the first CUDA allocation
 * (Unrecognized CachingAllocator option)" (cut to fit, always
 * NUL-terminated). Returns how many keys are unknown; 0 leaves out "". */
size_t allocconf_unknown_said(const char *value, char *out, size_t out_size);

/* The known keys nearest to value's unknown keys (each at most 3 edits
 * away: a typo), written to out: "expandable_segments" for one, "a (for
 * x), b (for y)" for several (cut to fit, always NUL-terminated). Returns
 * how many keys have one; 0 leaves out "". */
size_t allocconf_suggest(const char *value, char *out, size_t out_size);

/* The first key value sets that the torch of version text ("1.13.1+cu117",
 * "2.0.1") does not read yet, with the first release that does in
 * *since ("2.1"); NULL when every key is read or the version is unknown. */
const char *allocconf_too_new(const char *value, const char *torch_version, const char **since);

#endif
