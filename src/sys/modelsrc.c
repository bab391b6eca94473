/* modelsrc: preset, config.json or its directory -> struct est_model (see
 * modelsrc.h). */
#include "sys/modelsrc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/hfconfig.h"
#include "lib/models.h"
#include "sys/fsutil.h"

static int not_found(const char *label, const char *arg, int e, struct oomlab_err *err)
{
    const struct model_preset *near = models_suggest(arg);
    if (near)
        return oomlab_err_set(err, "%s%s: not a preset and cannot open it: %s; did you mean the "
                                   "preset '%s' (%s)? (or give its config.json)",
                              label, arg, strerror(e), near->name, near->summary);
    return oomlab_err_set(err, "%s%s: not a preset (oomlab estimate --list-models) and cannot "
                               "open it: %s", label, arg, strerror(e));
}

int modelsrc_load(const char *arg, const char *label, bool allow_unknown_type, struct est_model *m,
                  bool *unknown_type, struct hfconfig_quant *q, struct oomlab_err *err)
{
    const struct model_preset *p = models_find(arg);
    char path[4096];
    struct stat st;
    memset(m, 0, sizeof *m);
    *unknown_type = false;
    if (q) memset(q, 0, sizeof *q);
    if (p) {
        *m = p->m;
        return 0;
    }
    if (stat(arg, &st) != 0) return not_found(label, arg, errno, err);
    snprintf(path, sizeof path, S_ISDIR(st.st_mode) ? "%s/config.json" : "%s", arg);
    if (S_ISDIR(st.st_mode) && stat(path, &st) != 0)
        return oomlab_err_set(err, "%s: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode)) /* a FIFO or a device would block or never end */
        return oomlab_err_set(err, "%s: not a regular file: give a config.json, its directory "
                                   "or a preset", path);
    char *text = NULL;
    size_t len = 0;
    if (fsutil_read(path, MODELSRC_CONFIG_MAX, &text, &len, NULL, err)) return -1;
    int rc = hfconfig_parse(text, len, path, m, q, err);
    free(text);
    *unknown_type = rc == HFCONFIG_UNKNOWN_TYPE; /* err says so, and how to pass --arch */
    if (rc == HFCONFIG_UNKNOWN_TYPE && allow_unknown_type) return 0;
    return rc == HFCONFIG_OK ? 0 : -1;
}
