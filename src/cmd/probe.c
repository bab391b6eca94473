/* probe: placeholder until the subcommand lands (replaced by its owner). */
#include "cmd/cmd.h"

#include <stdio.h>

int cmd_probe(int argc, char **argv)
{
    (void)argc;
    fprintf(stderr, "oomlab %s: not built yet\n", argv[0]);
    return EXIT_ERROR;
}
