/* argsubst: "{KEY}" placeholders in a command's arguments, shared by run
 * ({config} and {NAME} for each --set NAME) and probe ({config}, {steps},
 * its parameter). Only an exact {KEY} for a given key is replaced; other
 * braces (JSON on a command line) stay as written. Pure; results are
 * malloc'd and freed by the caller (argsubst_free for an argv). */
#ifndef OOMLAB_ARGSUBST_H
#define OOMLAB_ARGSUBST_H

#include <stdbool.h>
#include <stddef.h>

#define ARGSUBST_MAX ((size_t)1 << 17) /* one argument after substitution */

/* arg with every {keys[k]} replaced by vals[k]; NULL when longer than
 * ARGSUBST_MAX or out of memory. */
char *argsubst(const char *arg, const char *const *keys, const char *const *vals, size_t n);
/* A NULL-terminated copy of argv (argc words) substituted; NULL on failure. */
char **argsubst_argv(char *const *argv, size_t argc, const char *const *keys,
                     const char *const *vals, size_t n);
void argsubst_free(char **argv);
/* Does any of argc words hold "{key}"? */
bool argsubst_uses(char *const *argv, size_t argc, const char *key);

#endif
