/* runcfg_render: the generated configs/ID.yaml in the user's own schema.
 * YAML goes through libyaml's document model (load, edit nodes, dump), so
 * keys, nesting, order and scalar styles survive; JSON through json-c's
 * object model (insertion order kept, a replaced value keeps its slot).
 * Where a --set lands is decided by one lookup order (see runcfg.h). */
#include "lib/ledger.h"
#include "lib/strbuf.h"
#include "lib/runcfg.h"

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define MAX_PATH_DEPTH 32 /* parts of a --set key path */

struct split {
    char buf[128];
    char *part[MAX_PATH_DEPTH];
    size_t n;
};

/* "a.b.c" -> parts; -1 when empty parts, too deep or too long. */
static int split_path(const char *key, struct split *sp)
{
    if (snprintf(sp->buf, sizeof sp->buf, "%s", key) >= (int)sizeof sp->buf) return -1;
    sp->n = 0;
    for (char *p = sp->buf, *dot; p; p = dot ? dot + 1 : NULL) {
        dot = strchr(p, '.');
        if (dot) *dot = '\0';
        if (!*p || sp->n == MAX_PATH_DEPTH) return -1;
        sp->part[sp->n++] = p;
    }
    return 0;
}

/* Copy cand to out when the search keeps it (strbuf_near: within a third of
 * the key, at least 2 edits). Keys are case-sensitive and the distance is
 * not: a key that differs only in case (Learning_Rate) is 0 away and the
 * best suggestion, not the key. */
static void consider(struct strbuf_near *near, const char *cand, char *out, size_t size)
{
    if (strbuf_near_offer(near, cand)) snprintf(out, size, "%s", cand);
}

/* Then the other tools' spellings, for the key's last part alone; a table
 * header typed as a whole key is its key unless an exact-case match won. */
static void suggest_alias(struct strbuf_near *near, char *out, size_t size)
{
    const char *key = near->word;
    const char *leaf = strrchr(key, '.') ? strrchr(key, '.') + 1 : key;
    near->word = leaf;
    near->max_edits = strbuf_near_third(strlen(leaf));
    for (size_t i = 0; runcfg_alias_key(i); i++) consider(near, runcfg_alias_key(i), out, size);
    /* `oomlab table`'s short titles (lib/ledger), which a reader of the
     * table types as keys (--set batch=16): too far from their keys for a
     * typo, and not aliases (a config's own "batch" may be a global batch). */
    for (size_t i = 0; i < ledger_n_short_titles; i++)
        if (leaf == key && !strcmp(key, ledger_short_titles[i].title) && near->best > 0) {
            near->best = 0;
            snprintf(out, size, "%s", ledger_short_titles[i].key);
        }
}

/* Valid UTF-8 (YAML and JSON text must be)? */
static bool utf8_ok(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t left = strlen(s), n; left; u += n, left -= n)
        if (!(n = strbuf_utf8_seq(u, left, NULL))) return false;
    return true;
}

/* "key=value" -> trimmed key (into key) and trimmed value (into value);
 * -1 when there is no '=' or no key. */
static int split_set(const char *set, char *key, size_t ksize, char *value, size_t vsize)
{
    if (!utf8_ok(set)) return -2;
    const char *eq = strchr(set, '=');
    if (!eq) return -1;
    const char *k = set, *ke = eq, *v = eq + 1, *ve = v + strlen(v);
    while (k < ke && isspace((unsigned char)*k)) k++;
    while (ke > k && isspace((unsigned char)ke[-1])) ke--;
    while (v < ve && isspace((unsigned char)*v)) v++;
    while (ve > v && isspace((unsigned char)ve[-1])) ve--;
    if (ke == k || (size_t)(ke - k) >= ksize || (size_t)(ve - v) >= vsize) return -1;
    for (const char *c = k; c < ke; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) return -1;
    memcpy(key, k, (size_t)(ke - k));
    key[ke - k] = '\0';
    memcpy(value, v, (size_t)(ve - v));
    value[ve - v] = '\0';
    return 0;
}

/* split_set with the user's message: 0, or -1 with err. */
static int set_parse(const char *set, char *key, size_t ksize, char *value, size_t vsize,
                     struct oomlab_err *err)
{
    int bad = split_set(set, key, ksize, value, vsize);
    if (bad == -2) return oomlab_err_set(err, "--set: not UTF-8 text (a config holds text)");
    if (bad < 0)
        return oomlab_err_set(err, "--set expects key=value (a key under 128 bytes, no control "
                                   "characters), got '%s'", set);
    return 0;
}

/* ---- YAML ---------------------------------------------------------------- */

struct ydoc {
    yaml_document_t doc;
    int root;
};

static yaml_node_t *ynode(struct ydoc *d, int id)
{
    return yaml_document_get_node(&d->doc, id);
}

static bool yscalar_is(struct ydoc *d, int id, const char *s)
{
    yaml_node_t *n = ynode(d, id);
    return n && n->type == YAML_SCALAR_NODE && n->data.scalar.length == strlen(s) &&
           !memcmp(n->data.scalar.value, s, n->data.scalar.length);
}

static const char *yscalar(struct ydoc *d, int id)
{
    yaml_node_t *n = ynode(d, id);
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* The value id of key in mapping id; 0 when absent. */
static int ymap_get(struct ydoc *d, int map, const char *key)
{
    yaml_node_t *m = ynode(d, map);
    if (!m || m->type != YAML_MAPPING_NODE) return 0;
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++)
        if (yscalar_is(d, p->key, key)) return p->value;
    return 0;
}

/* Depth-first in document order (mappings only, as runcfg_parse reads):
 * the first scalar value whose key matches — by name (leaf != NULL) or by
 * ledger column (field >= 0). count gets the number of name matches. A node
 * met again is an alias (*a), which runcfg_parse does not follow — as a
 * value, or as a key, whose value it then does not read — and a node under
 * a sequence or a non-scalar key is not read either: seen marks every node
 * already passed, in the order the parser meets them. Every level a parsed
 * config can have is walked (RUNCFG_MAX_DEPTH), so no node the parser reads
 * is missed and no node it skips is met first through an alias. */
struct yfind {
    const char *leaf;
    int field;
    int found;
    size_t count;
    char path[128];
    unsigned char *seen; /* by node id - 1 */
};

/* Mark id and everything under it as passed (nodes runcfg_parse skips). */
static void ymark(struct ydoc *d, int id, unsigned char *seen, int depth)
{
    yaml_node_t *n = ynode(d, id);
    if (!n || seen[id - 1] || depth > RUNCFG_MAX_DEPTH) return;
    seen[id - 1] = 1;
    if (n->type == YAML_SEQUENCE_NODE)
        for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++)
            ymark(d, *it, seen, depth + 1);
    if (n->type == YAML_MAPPING_NODE)
        for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
            ymark(d, p->key, seen, depth + 1);
            ymark(d, p->value, seen, depth + 1);
        }
}

static void yfind_in(struct ydoc *d, int map, const char *prefix, struct yfind *f, int depth)
{
    yaml_node_t *m = ynode(d, map);
    if (!m || m->type != YAML_MAPPING_NODE || depth > RUNCFG_MAX_DEPTH) return;
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
        const char *k = yscalar(d, p->key);
        yaml_node_t *v = ynode(d, p->value);
        bool alias = (v && f->seen[p->value - 1]) || (k && f->seen[p->key - 1]);
        ymark(d, p->key, f->seen, depth + 1);
        if (!k || !v || alias || v->type == YAML_SEQUENCE_NODE) {
            ymark(d, p->value, f->seen, depth + 1);
            continue;
        }
        f->seen[p->value - 1] = 1;
        char path[128];
        snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", k);
        if (v->type == YAML_MAPPING_NODE) {
            yfind_in(d, p->value, path, f, depth + 1);
            continue;
        }
        bool hit = f->leaf ? !strcmp(k, f->leaf) : f->field >= 0 && runcfg_key_field(k) == f->field;
        if (!hit) continue;
        f->count++;
        if (!f->found) {
            f->found = p->value;
            snprintf(f->path, sizeof f->path, "%s", path);
        }
    }
}

/* One mark per node of the document, all clear (NULL: no memory). */
static unsigned char *yseen_new(struct ydoc *d)
{
    size_t nodes = (size_t)(d->doc.nodes.top - d->doc.nodes.start);
    return calloc(nodes ? nodes : 1, 1);
}

/* yfind_in over the whole document; -1 when out of memory. */
static int yfind(struct ydoc *d, struct yfind *f)
{
    f->seen = yseen_new(d);
    if (!f->seen) return -1;
    f->seen[d->root - 1] = 1;
    yfind_in(d, d->root, "", f, 0);
    free(f->seen);
    f->seen = NULL;
    return 0;
}

/* Every key under map, each mapping once: aliases can share a mapping
 * between many parents (and with it 2^n paths through n levels). */
static void ysuggest(struct ydoc *d, int map, const char *prefix, struct strbuf_near *near, char *out,
                     size_t size, unsigned char *seen, int depth)
{
    yaml_node_t *m = ynode(d, map);
    if (!m || m->type != YAML_MAPPING_NODE || seen[map - 1] || depth > RUNCFG_MAX_DEPTH) return;
    seen[map - 1] = 1;
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
        const char *k = yscalar(d, p->key);
        if (!k) continue;
        char path[128];
        snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", k);
        consider(near, path, out, size);
        consider(near, k, out, size);
        ysuggest(d, p->value, path, near, out, size, seen, depth + 1);
    }
}

static int yset_scalar(struct ydoc *d, int id, const char *value)
{
    yaml_node_t *n = ynode(d, id);
    yaml_char_t *copy = (yaml_char_t *)strdup(value);
    if (!copy) return -1;
    free(n->data.scalar.value);
    n->data.scalar.value = copy;
    n->data.scalar.length = strlen(value);
    if (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) n->data.scalar.style = YAML_ANY_SCALAR_STYLE;
    return 0;
}

/* Add path parts [from, n) under map, the last one holding value. */
static int yadd_path(struct ydoc *d, int map, const struct split *sp, size_t from, const char *value)
{
    for (size_t i = from; i < sp->n; i++) {
        int key = yaml_document_add_scalar(&d->doc, NULL, (yaml_char_t *)sp->part[i], -1,
                                           YAML_ANY_SCALAR_STYLE);
        int val = i + 1 == sp->n ? yaml_document_add_scalar(&d->doc, NULL, (yaml_char_t *)value, -1,
                                                            YAML_ANY_SCALAR_STYLE)
                                 : yaml_document_add_mapping(&d->doc, NULL, YAML_ANY_MAPPING_STYLE);
        if (!key || !val || !yaml_document_append_mapping_pair(&d->doc, map, key, val)) return -1;
        map = val;
    }
    return 0;
}

static int yapply(struct ydoc *d, const char *key, const char *value, struct runcfg_rendered *out,
                  size_t i, struct oomlab_err *err)
{
    struct split sp;
    if (split_path(key, &sp) < 0) return oomlab_err_set(err, "--set %s: not a key path", key);
    if (sp.n == 1 && runcfg_key_field(key) >= 0) { /* a ledger column: the key the ledger reads */
        struct yfind f = {.field = runcfg_key_field(key)};
        if (yfind(d, &f) < 0) return oomlab_err_set(err, "out of memory");
        if (f.found) {
            snprintf(out->target[i], sizeof out->target[i], "%s", f.path);
            return yset_scalar(d, f.found, value) < 0 ? oomlab_err_set(err, "out of memory") : 0;
        }
    }
    int map = d->root, at = 0;
    size_t depth = 0;
    for (; depth < sp.n; depth++) { /* the dotted path as far as it exists */
        at = ymap_get(d, map, sp.part[depth]);
        if (!at) break;
        if (depth + 1 < sp.n) map = at;
    }
    yaml_node_t *n = at ? ynode(d, at) : NULL;
    if (n && depth == sp.n && n->type != YAML_SCALAR_NODE)
        return oomlab_err_set(err, "--set %s: the config holds a mapping or a list there, not a value", key);
    if (n && depth == sp.n) {
        snprintf(out->target[i], sizeof out->target[i], "%s", key);
        return yset_scalar(d, at, value) < 0 ? oomlab_err_set(err, "out of memory") : 0;
    }
    if (sp.n == 1) { /* any other bare key: by name, when the config has it once */
        struct yfind f = {.leaf = key, .field = -1};
        if (yfind(d, &f) < 0) return oomlab_err_set(err, "out of memory");
        if (f.count == 1) {
            snprintf(out->target[i], sizeof out->target[i], "%s", f.path);
            return yset_scalar(d, f.found, value) < 0 ? oomlab_err_set(err, "out of memory") : 0;
        }
    }
    yaml_node_t *parent = ynode(d, map);
    if (!parent || parent->type != YAML_MAPPING_NODE)
        return oomlab_err_set(err, "--set %s: '%s' in the config is a value, not a mapping", key,
                              sp.part[depth ? depth - 1 : 0]);
    snprintf(out->target[i], sizeof out->target[i], "%s", key);
    if (runcfg_key_field(sp.part[sp.n - 1]) < 0) {
        struct strbuf_near near = STRBUF_NEAR_INIT(key, strbuf_near_third(strlen(key)));
        unsigned char *seen = yseen_new(d);
        if (!seen) return oomlab_err_set(err, "out of memory");
        out->unknown[i] = true;
        ysuggest(d, d->root, "", &near, out->suggestion[i], sizeof out->suggestion[i], seen, 0);
        free(seen);
        suggest_alias(&near, out->suggestion[i], sizeof out->suggestion[i]);
    }
    return yadd_path(d, map, &sp, depth, value) < 0 ? oomlab_err_set(err, "out of memory") : 0;
}

/* libyaml's write handler: 1 written, 0 failed. */
static int ywrite(void *ctx, unsigned char *data, size_t size)
{
    return strbuf_add(ctx, data, size);
}

/* "# text\n" with anything that could end or break a YAML comment (line
 * breaks of every kind, control characters, bytes that are not UTF-8)
 * shown as '?'. */
static void comment_line(struct strbuf *b, const char *text)
{
    ywrite(b, (unsigned char *)"# ", 2);
    const unsigned char *p = (const unsigned char *)text, *end = p + strlen(text);
    while (p < end) {
        uint32_t cp = 0;
        size_t n = strbuf_utf8_seq(p, (size_t)(end - p), &cp);
        /* NEL and the other C1 controls, LS/PS, BOM: YAML reads some as breaks */
        bool ok = n > 0 && ((cp >= 0x20 && cp < 0x7F) || cp == '\t' || cp > 0x9F) && cp != 0x2028 &&
                  cp != 0x2029 && cp != 0xFEFF;
        if (!ok) {
            ywrite(b, (unsigned char *)"?", 1);
            p++;
            continue;
        }
        ywrite(b, (unsigned char *)p, n);
        p += n;
    }
    ywrite(b, (unsigned char *)"\n", 1);
}

/* An empty plain scalar is null; libyaml's emitter would quote it ('') in
 * flow context, turning null into a string. "~" stays null everywhere. So
 * would it quote a base-60 int, its ':' a flow indicator ("{seq_len:
 * 5:04}" to '5:04', a string the parse back refuses as a length): written
 * in decimal, 304, it stays the int YAML 1.1 read. (fuzz23: fuzz_runcfg) */
static int ynulls(struct ydoc *d)
{
    for (yaml_node_t *n = d->doc.nodes.start; n < d->doc.nodes.top; n++) {
        if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) continue;
        long long v;
        if (n->data.scalar.length && memchr(n->data.scalar.value, ':', n->data.scalar.length) &&
            !memchr(n->data.scalar.value, '\0', n->data.scalar.length) &&
            runcfg_yaml11_int((const char *)n->data.scalar.value, &v) == 0 && v != LLONG_MAX && v != -LLONG_MAX) {
            char dec[24];
            snprintf(dec, sizeof dec, "%lld", v);
            yaml_char_t *copy = (yaml_char_t *)strdup(dec);
            if (!copy) return -1;
            free(n->data.scalar.value);
            n->data.scalar.value = copy;
            n->data.scalar.length = strlen(dec);
            continue;
        }
        if (n->data.scalar.length) continue;
        yaml_char_t *tilde = (yaml_char_t *)strdup("~");
        if (!tilde) return -1;
        free(n->data.scalar.value);
        n->data.scalar.value = tilde;
        n->data.scalar.length = 1;
    }
    return 0;
}

static int ydump(struct ydoc *d, const char *header, struct runcfg_rendered *out, struct oomlab_err *err)
{
    if (ynulls(d) < 0) {
        yaml_document_delete(&d->doc);
        return oomlab_err_set(err, "out of memory");
    }
    struct strbuf b = {0};
    if (header) comment_line(&b, header);
    yaml_emitter_t em;
    if (!yaml_emitter_initialize(&em)) return oomlab_err_set(err, "out of memory");
    yaml_emitter_set_output(&em, ywrite, &b);
    yaml_emitter_set_unicode(&em, 1);
    yaml_emitter_set_width(&em, -1);
    int ok = yaml_emitter_open(&em) && yaml_emitter_dump(&em, &d->doc) && yaml_emitter_close(&em) &&
             yaml_emitter_flush(&em);
    const char *problem = em.problem;
    yaml_emitter_delete(&em);
    if (!ok || b.failed) {
        free(b.s);
        return oomlab_err_set(err, "cannot write the config as YAML: %s", problem ? problem : "out of memory");
    }
    if (b.n && b.s[b.n - 1] != '\n') ywrite(&b, (unsigned char *)"\n", 1);
    if (b.failed) {
        free(b.s);
        return oomlab_err_set(err, "out of memory");
    }
    out->text = b.s;
    out->len = b.n;
    return 0;
}

static int yload(struct ydoc *d, const char *orig, size_t len, const char *name, struct oomlab_err *err)
{
    yaml_parser_t p;
    memset(d, 0, sizeof *d);
    if (!yaml_parser_initialize(&p)) return oomlab_err_set(err, "out of memory");
    yaml_parser_set_input_string(&p, (const unsigned char *)(orig ? orig : ""), orig ? len : 0);
    int ok = yaml_parser_load(&p, &d->doc);
    yaml_parser_delete(&p);
    if (!ok) return oomlab_err_set(err, "%s: invalid YAML", name);
    yaml_node_t *root = yaml_document_get_root_node(&d->doc);
    if (root && root->type == YAML_MAPPING_NODE) {
        d->root = 1 + (int)(root - d->doc.nodes.start);
        return 0;
    }
    if (root) {
        yaml_document_delete(&d->doc);
        return oomlab_err_set(err, "%s: a run config must be a mapping of keys to values", name);
    }
    yaml_document_delete(&d->doc); /* empty: a fresh document */
    if (!yaml_document_initialize(&d->doc, NULL, NULL, NULL, 1, 1)) return oomlab_err_set(err, "out of memory");
    d->root = yaml_document_add_mapping(&d->doc, NULL, YAML_BLOCK_MAPPING_STYLE);
    return d->root ? 0 : oomlab_err_set(err, "out of memory");
}

static int render_yaml(const char *orig, size_t len, const char *name, const char *header,
                       char *const *sets, size_t n_sets, struct runcfg_rendered *out,
                       struct oomlab_err *err)
{
    struct ydoc d;
    if (yload(&d, orig, len, name, err) < 0) return -1;
    int rc = 0;
    for (size_t i = 0; i < n_sets && rc == 0; i++) {
        char key[128], value[4096];
        rc = set_parse(sets[i], key, sizeof key, value, sizeof value, err);
        if (rc == 0) rc = yapply(&d, key, value, out, i, err);
    }
    if (rc == 0) rc = ydump(&d, header, out, err); /* dump frees the nodes */
    else yaml_document_delete(&d.doc);
    return rc;
}

/* ---- JSON ---------------------------------------------------------------- */

/* A --set value as JSON: the old value's type when it was a string, else
 * an integer, a finite number, true/false, null, or a string. */
static struct json_object *json_value(const char *v, struct json_object *old)
{
    if (old && json_object_is_type(old, json_type_string)) return json_object_new_string(v);
    char *end;
    errno = 0;
    long long i = strtoll(v, &end, 10);
    if (*v && !*end && !errno && !isspace((unsigned char)*v)) return json_object_new_int64(i);
    double x = strtod(v, &end);
    if (*v && !*end && isfinite(x) && !isspace((unsigned char)*v) && !strpbrk(v, "xXnN"))
        return json_object_new_double_s(x, v);
    if (!strcmp(v, "true") || !strcmp(v, "false")) return json_object_new_boolean(v[0] == 't');
    if (!strcmp(v, "null")) return NULL;
    return json_object_new_string(v);
}

struct jfind {
    const char *leaf;
    int field;
    struct json_object *parent;
    char key[128], path[128];
    size_t count;
};

static void jfind_in(struct json_object *obj, const char *prefix, struct jfind *f, int depth)
{
    if (depth > RUNCFG_MAX_DEPTH) return;
    json_object_object_foreach(obj, k, v)
    {
        char path[128];
        snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", k);
        if (json_object_is_type(v, json_type_object)) {
            jfind_in(v, path, f, depth + 1);
            continue;
        }
        if (json_object_is_type(v, json_type_array)) continue;
        bool hit = f->leaf ? !strcmp(k, f->leaf) : f->field >= 0 && runcfg_key_field(k) == f->field;
        if (!hit) continue;
        if (!f->count++) {
            f->parent = obj;
            snprintf(f->key, sizeof f->key, "%s", k);
            snprintf(f->path, sizeof f->path, "%s", path);
        }
    }
}

static void jsuggest(struct json_object *obj, const char *prefix, struct strbuf_near *near, char *out, size_t size,
                     int depth)
{
    if (depth > RUNCFG_MAX_DEPTH || !json_object_is_type(obj, json_type_object)) return;
    json_object_object_foreach(obj, k, v)
    {
        char path[128];
        snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", k);
        consider(near, path, out, size);
        consider(near, k, out, size);
        jsuggest(v, path, near, out, size, depth + 1);
    }
}

static int jput(struct json_object *parent, const char *key, const char *value)
{
    struct json_object *old = NULL;
    json_object_object_get_ex(parent, key, &old);
    return json_object_object_add(parent, key, json_value(value, old));
}

static int japply(struct json_object *root, const char *key, const char *value,
                  struct runcfg_rendered *out, size_t i, struct oomlab_err *err)
{
    struct split sp;
    if (split_path(key, &sp) < 0) return oomlab_err_set(err, "--set %s: not a key path", key);
    if (sp.n == 1 && runcfg_key_field(key) >= 0) { /* a ledger column: the key the ledger reads */
        struct jfind f = {.field = runcfg_key_field(key)};
        jfind_in(root, "", &f, 0);
        if (f.count) {
            snprintf(out->target[i], sizeof out->target[i], "%s", f.path);
            return jput(f.parent, f.key, value) < 0 ? oomlab_err_set(err, "out of memory") : 0;
        }
    }
    struct json_object *obj = root, *at = NULL;
    size_t depth = 0;
    for (; depth + 1 < sp.n && json_object_object_get_ex(obj, sp.part[depth], &at) &&
           json_object_is_type(at, json_type_object);
         depth++)
        obj = at;
    bool exists = json_object_object_get_ex(obj, sp.part[depth], &at);
    if (exists && depth + 1 == sp.n) {
        if (json_object_is_type(at, json_type_object) || json_object_is_type(at, json_type_array))
            return oomlab_err_set(err, "--set %s: the config holds a mapping or a list there, not a value", key);
        snprintf(out->target[i], sizeof out->target[i], "%s", key);
        return jput(obj, sp.part[depth], value) < 0 ? oomlab_err_set(err, "out of memory") : 0;
    }
    if (sp.n == 1) { /* any other bare key: by name, when the config has it once */
        struct jfind f = {.leaf = key, .field = -1};
        jfind_in(root, "", &f, 0);
        if (f.count == 1) {
            snprintf(out->target[i], sizeof out->target[i], "%s", f.path);
            return jput(f.parent, f.key, value) < 0 ? oomlab_err_set(err, "out of memory") : 0;
        }
    }
    if (depth + 1 < sp.n && exists)
        return oomlab_err_set(err, "--set %s: '%s' in the config is a value, not a mapping", key, sp.part[depth]);
    snprintf(out->target[i], sizeof out->target[i], "%s", key);
    if (runcfg_key_field(sp.part[sp.n - 1]) < 0) {
        struct strbuf_near near = STRBUF_NEAR_INIT(key, strbuf_near_third(strlen(key)));
        out->unknown[i] = true;
        jsuggest(root, "", &near, out->suggestion[i], sizeof out->suggestion[i], 0);
        suggest_alias(&near, out->suggestion[i], sizeof out->suggestion[i]);
    }
    for (; depth + 1 < sp.n; depth++) {
        struct json_object *m = json_object_new_object();
        if (!m || json_object_object_add(obj, sp.part[depth], m) < 0) return oomlab_err_set(err, "out of memory");
        obj = m;
    }
    return jput(obj, sp.part[depth], value) < 0 ? oomlab_err_set(err, "out of memory") : 0;
}

static int render_json(const char *orig, size_t len, const char *name, char *const *sets,
                       size_t n_sets, struct runcfg_rendered *out, struct oomlab_err *err)
{
    struct json_tokener *tok = json_tokener_new_ex(RUNCFG_MAX_DEPTH);
    if (!tok) return oomlab_err_set(err, "out of memory");
    struct json_object *root = json_tokener_parse_ex(tok, orig, (int)len);
    json_tokener_free(tok);
    if (!root || !json_object_is_type(root, json_type_object)) {
        json_object_put(root);
        return oomlab_err_set(err, "%s: a run config must be a mapping of keys to values", name);
    }
    int rc = 0;
    for (size_t i = 0; i < n_sets && rc == 0; i++) {
        char key[128], value[4096];
        rc = set_parse(sets[i], key, sizeof key, value, sizeof value, err);
        if (rc == 0) rc = japply(root, key, value, out, i, err);
    }
    if (rc == 0) {
        const char *s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
        size_t n = s ? strlen(s) : 0;
        out->text = s ? malloc(n + 2) : NULL;
        if (!out->text) rc = oomlab_err_set(err, "out of memory");
        else {
            memcpy(out->text, s, n);
            out->text[n] = '\n';
            out->text[n + 1] = '\0';
            out->len = n + 1;
            out->json = true;
        }
    }
    json_object_put(root);
    return rc;
}

/* ---- entry -------------------------------------------------------------- */

static bool is_json(const char *text, size_t len)
{
    size_t i = len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3) ? 3 : 0;
    while (i < len && isspace((unsigned char)text[i])) i++;
    if (i >= len || text[i] != '{') return false;
    struct json_tokener *tok = json_tokener_new_ex(RUNCFG_MAX_DEPTH);
    if (!tok) return false;
    struct json_object *o = json_tokener_parse_ex(tok, text + i, (int)(len - i));
    size_t end = i + json_tokener_get_parse_end(tok);
    while (end < len && isspace((unsigned char)text[end])) end++;
    /* as runcfg_parse decides: text after the object ("{'bs': 1} # c") is YAML */
    bool ok = o && json_tokener_get_error(tok) == json_tokener_success && end >= len;
    json_object_put(o);
    json_tokener_free(tok);
    return ok;
}

int runcfg_render(const char *orig, size_t orig_len, const char *name, const char *header,
                  char *const *sets, size_t n_sets, struct runcfg_rendered *out,
                  struct oomlab_err *err)
{
    memset(out, 0, sizeof *out);
    if (!name) name = "config";
    if (n_sets > RUNCFG_MAX_SETS) return oomlab_err_set(err, "too many --set (at most %d)", RUNCFG_MAX_SETS);
    if (orig && orig_len > (size_t)INT32_MAX) return oomlab_err_set(err, "%s: config too large", name);
    if (orig && is_json(orig, orig_len)) {
        size_t skip = orig_len >= 3 && !memcmp(orig, "\xef\xbb\xbf", 3) ? 3 : 0;
        return render_json(orig + skip, orig_len - skip, name, sets, n_sets, out, err);
    }
    return render_yaml(orig, orig_len, name, header, sets, n_sets, out, err);
}

void runcfg_rendered_release(struct runcfg_rendered *r)
{
    free(r->text);
    memset(r, 0, sizeof *r);
}
