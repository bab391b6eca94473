/* color: ANSI colour for terminals only. Enabled when the stream is a TTY,
 * NO_COLOR is unset or empty, and TERM is not "dumb". No allocation. */
#ifndef OOMLAB_COLOR_H
#define OOMLAB_COLOR_H

#include <stdbool.h>
#include <stdio.h>

enum color { COLOR_RESET, COLOR_BOLD, COLOR_RED, COLOR_YELLOW, COLOR_GREEN, COLOR_DIM, COLOR_CYAN };

bool color_enabled(FILE *f);
/* The escape for c when on is true, "" otherwise. */
const char *color_code(bool on, enum color c);

#endif
