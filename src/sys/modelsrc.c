/* modelsrc: preset, config.json or its directory -> struct est_model (see
 * modelsrc.h). */
#include "sys/modelsrc.h"

#include <dirent.h>
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

/* A directory without config.json: the Hugging Face cache's own folder
 * (hub/models--org--name) keeps it under snapshots/REVISION/; name that. */
static int no_config(const char *dir, const char *path, int e, struct oomlab_err *err)
{
    char snaps[4096], cand[4096 + 256 + 16], main_rev[256] = ""; /* snaps, a revision, config.json */
    snprintf(snaps, sizeof snaps, "%s/snapshots", dir);
    snprintf(cand, sizeof cand, "%s/refs/main", dir);
    FILE *ref = e == ENOENT ? fopen(cand, "r") : NULL; /* the revision `main` names, first */
    if (ref) {
        if (!fgets(main_rev, sizeof main_rev, ref)) main_rev[0] = '\0';
        main_rev[strcspn(main_rev, "\r\n/")] = '\0';
        fclose(ref);
    }
    DIR *d = e == ENOENT ? opendir(snaps) : NULL;
    struct stat st;
    for (struct dirent *de; d && (main_rev[0] || (de = readdir(d)));) {
        char rev[256];
        snprintf(rev, sizeof rev, "%s", main_rev[0] ? main_rev : de->d_name);
        main_rev[0] = '\0'; /* tried once, then the folder's own entries */
        if (rev[0] == '.') continue;
        snprintf(cand, sizeof cand, "%s/%s/config.json", snaps, rev);
        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode)) {
            closedir(d);
            return oomlab_err_set(err, "%s: no config.json here; this is the Hugging Face cache's folder: "
                                       "give %s", dir, cand);
        }
    }
    if (d) closedir(d);
    if (e == ENOENT)
        return oomlab_err_set(err, "%s: no config.json in this directory (save_pretrained and a Hub download "
                                   "write one beside the weights)", dir);
    return oomlab_err_set(err, "%s: %s", path, strerror(e));
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
    if (S_ISDIR(st.st_mode) && stat(path, &st) != 0) return no_config(arg, path, errno, err);
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
