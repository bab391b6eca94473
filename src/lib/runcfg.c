/* runcfg: placeholder until the config parser lands (owned by the runcfg
 * engineer; take theirs on merge). Knows no aliases; parse refuses. */
#include "lib/runcfg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void runcfg_init(struct runcfg *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->device_batch_size = cfg->max_seq_len = cfg->grad_accum = -1;
    cfg->grad_ckpt = -1;
}
int runcfg_parse(struct runcfg *cfg, const char *text, size_t len, const char *name,
                 struct oomlab_err *err)
{
    return oomlab_err_set(err, "%s: config parsing is not built yet", name);
}
int runcfg_set(struct runcfg *cfg, const char *assignment, struct oomlab_err *err)
{
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment) return oomlab_err_set(err, "'%s': expected key=value", assignment);
    long v = strtol(eq + 1, NULL, 10);
    if (!strncmp(assignment, "device_batch_size=", 18)) cfg->device_batch_size = v;
    else if (!strncmp(assignment, "max_seq_len=", 12)) cfg->max_seq_len = v;
    else if (!strncmp(assignment, "grad_accum=", 11)) cfg->grad_accum = v;
    else return oomlab_err_set(err, "'%s': not known to the placeholder", assignment);
    return 0;
}
long runcfg_effective_batch(const struct runcfg *cfg)
{
    if (cfg->device_batch_size < 0) return -1;
    return cfg->device_batch_size * (cfg->grad_accum > 0 ? cfg->grad_accum : 1);
}
char *runcfg_to_yaml(const struct runcfg *cfg)
{
    char buf[256];
    snprintf(buf, sizeof buf, "device_batch_size: %ld\nmax_seq_len: %ld\ngrad_accum_steps: %ld\n",
             cfg->device_batch_size, cfg->max_seq_len, cfg->grad_accum);
    return strdup(buf);
}
void runcfg_release(struct runcfg *cfg) { runcfg_init(cfg); }
