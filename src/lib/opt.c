/* opt: one table per command gives its getopt_long array, its --help and
 * the parse with the shared validators (see opt.h). */
#include "lib/opt.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "lib/runcfg.h"
#include "lib/strbuf.h"

#define KEY_BASE 256 /* getopt's val for spec i is KEY_BASE + i; -h is 'h' */

static size_t count(const struct opt_table *t)
{
    size_t n = 0;
    while (t->spec[n].name) n++;
    return n;
}

const struct option *opt_getopt(const struct opt_table *t, struct option *out, size_t cap,
                                char *shorts, size_t shorts_size)
{
    size_t n = count(t), k = 0;
    if (n + 2 > cap) return NULL;
    char s[3 * OPT_SPECS_MAX + 8];
    if (t->stop_at_arg) s[k++] = '+';
    s[k++] = ':'; /* a missing value is ':', not '?' */
    s[k++] = 'h';
    for (size_t i = 0; i < n; i++) {
        const struct opt_spec *o = &t->spec[i];
        int has = !o->parse ? no_argument : o->optional ? optional_argument : required_argument;
        out[i] = (struct option){o->name, has, NULL, KEY_BASE + (int)i};
        if (o->letter && k + 3 < sizeof s) {
            s[k++] = (char)o->letter;
            if (has != no_argument) s[k++] = ':';
            if (has == optional_argument) s[k++] = ':';
        }
    }
    out[n] = (struct option){"help", no_argument, NULL, 'h'};
    out[n + 1] = (struct option){0};
    s[k] = '\0';
    if (shorts) {
        if (k + 1 > shorts_size) return NULL;
        memcpy(shorts, s, k + 1);
    }
    return out;
}

/* The spec getopt's return value c means, or NULL. */
static const struct opt_spec *spec_of(const struct opt_table *t, size_t n, int c)
{
    if (c >= KEY_BASE && (size_t)(c - KEY_BASE) < n) return &t->spec[c - KEY_BASE];
    for (size_t i = 0; c > 0 && c < KEY_BASE && i < n; i++)
        if (t->spec[i].letter == c) return &t->spec[i];
    return NULL;
}

/* The option an unknown --word most likely meant: a near miss (edit
 * distance within a third of the word, at least 2: --jsn, --quite), or one
 * the word starts with before a '-' or '_' (--batch-size, --seq-len: other
 * tools' spellings). NULL when none. */
static const char *nearest(const struct opt_table *t, size_t n, const char *word, size_t len)
{
    char w[128];
    if (len >= sizeof w) return NULL;
    memcpy(w, word, len);
    w[len] = '\0';
    struct strbuf_near near = STRBUF_NEAR_INIT(w, strbuf_near_third(len));
    for (size_t i = 0; i < n; i++) {
        const char *name = t->spec[i].name;
        size_t nl = strlen(name);
        if (nl < len && !strncmp(w, name, nl) && (w[nl] == '-' || w[nl] == '_'))
            strbuf_near_offer_at(&near, name, 1);
        else
            strbuf_near_offer(&near, name);
    }
    return near.pick;
}

/* "'--t' is ambiguous (--timeout, --torch)" or "unknown option '--x'". */
static int unknown(const struct opt_table *t, size_t n, const char *word, int optopt_c,
                   struct oomlab_err *err)
{
    if (optopt_c > 0 && optopt_c < KEY_BASE && optopt_c != '?')
        return oomlab_err_set(err, "unknown option '-%c'", optopt_c);
    if (!word || strncmp(word, "--", 2)) return oomlab_err_set(err, "unknown option '%s'", word ? word : "");
    size_t len = strcspn(word + 2, "=");
    char names[256] = "";
    size_t matches = 0, used = 0;
    for (size_t i = 0; i <= n; i++) {
        const char *name = i < n ? t->spec[i].name : "help";
        if (strncmp(name, word + 2, len) || used >= sizeof names) continue;
        int w = snprintf(names + used, sizeof names - used, "%s--%s", matches ? ", " : "", name);
        if (w > 0) used += (size_t)w;
        matches++;
    }
    if (matches > 1) return oomlab_err_set(err, "'%.*s' is ambiguous (%s)", (int)(len + 2), word, names);
    for (const struct opt_hint *h = t->hints; h && h->word; h++)
        if (strlen(h->word) == len && !strncmp(h->word, word + 2, len))
            return oomlab_err_set(err, "unknown option '%.*s': %s", (int)(len + 2), word, h->say);
    const char *near = nearest(t, n, word + 2, len);
    if (near) return oomlab_err_set(err, "unknown option '%.*s'; did you mean --%s?", (int)(len + 2), word, near);
    return oomlab_err_set(err, "unknown option '%.*s'", (int)(len + 2), word);
}

/* word is "--NAME" or "--NAME=..." for an option of this table (or --help),
 * or "-X" for one of its letters. */
static bool is_option_word(const struct opt_table *t, size_t n, const char *word)
{
    if (word[0] != '-') return false;
    if (word[1] != '-') {
        if (!word[1] || word[2]) return false;
        if (word[1] == 'h') return true;
        for (size_t i = 0; i < n; i++)
            if (t->spec[i].letter == word[1]) return true;
        return false;
    }
    size_t len = strcspn(word + 2, "=");
    if (len == 0) return false; /* "--" itself */
    for (size_t i = 0; i <= n; i++) {
        const char *name = i < n ? t->spec[i].name : "help";
        if (strlen(name) == len && !strncmp(name, word + 2, len)) return true;
    }
    return false;
}

static int apply(const struct opt_spec *o, const char *val, void *cli, struct oomlab_err *err)
{
    void *dst = (char *)cli + o->offset;
    if (o->parse) return o->parse(o, val, dst, o->size, err);
    if (o->size == sizeof(int)) {
        memcpy(dst, &o->flag_value, sizeof(int));
        return 0;
    }
    if (o->size != sizeof(bool)) return oomlab_err_set(err, "--%s: flag is not a bool or int (opt table)", o->name);
    *(bool *)dst = true;
    return 0;
}

enum opt_result opt_parse(const struct opt_table *t, int argc, char **argv, void *cli,
                          int *first_arg, struct oomlab_err *err)
{
    struct option longopts[OPT_SPECS_MAX + 2];
    char shorts[3 * OPT_SPECS_MAX + 8];
    size_t n = count(t);
    if (!opt_getopt(t, longopts, OPT_SPECS_MAX + 2, shorts, sizeof shorts)) {
        oomlab_err_set(err, "too many options in the table (at most %d)", OPT_SPECS_MAX);
        return OPT_FAILED;
    }
    opterr = 0;
    optind = 0; /* 0, not 1: glibc starts afresh (a parse before may have stopped mid-word) */
    for (int c; (c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1;) {
        const char *word = optind > 0 && optind <= argc ? argv[optind - 1] : NULL;
        if (c == 'h') return OPT_HELP_ASKED;
        const struct opt_spec *o = spec_of(t, n, c == ':' || c == '?' ? optopt : c);
        if (c == ':') {
            oomlab_err_set(err, "--%s needs a value", o ? o->name : "?");
            if (o && o->letter && word && word[0] == '-' && word[1] != '-')
                oomlab_err_set(err, "-%c (--%s) needs a value", o->letter, o->name);
            return OPT_FAILED;
        }
        if (c == '?') {
            if (o && optopt >= KEY_BASE) oomlab_err_set(err, "--%s takes no value", o->name);
            else unknown(t, n, word, optopt, err);
            return OPT_FAILED;
        }
        if (!o) {
            unknown(t, n, word, 0, err);
            return OPT_FAILED;
        }
        if (optarg && optarg == word && is_option_word(t, n, optarg)) {
            /* `watch --csv --count 5`, `report -o --json`: the value forgotten
             * and the next option taken as a file name (getopt's rule). The
             * joined forms (--csv=--count, ./--count) still say so on purpose. */
            oomlab_err_set(err, "--%s needs a value, got the option '%s' (for a value of that name: --%s=%s)",
                           o->name, optarg, o->name, optarg);
            return OPT_FAILED;
        }
        if (apply(o, optarg, cli, err) < 0) return OPT_FAILED;
    }
    *first_arg = optind;
    return OPT_PARSED;
}

/* ---- --help ---------------------------------------------------------------- */

#define HELP_COL_MAX 24 /* a wider left part puts its help on the next line */
#define HELP_WIDTH 80   /* no line of --help is wider */

/* "-q, --quiet", "--gpu N", "--torch[=MODE]" */
static int left_part(const struct opt_spec *o, char *buf, size_t size)
{
    const char *mv = o->metavar ? o->metavar : o->parse ? "VALUE" : "";
    char letter[8] = "";
    if (o->letter) snprintf(letter, sizeof letter, "-%c, ", o->letter);
    const char *open = !*mv ? "" : o->optional ? "[=" : " ", *close = *mv && o->optional ? "]" : "";
    int w = snprintf(buf, size, "%s--%s%s%s%s", letter, o->name, open, mv, close);
    return w < 0 || (size_t)w >= size ? -1 : w;
}

struct out {
    char *buf;
    size_t size, used;
    bool full;
};

static void put(struct out *b, const char *s, size_t len)
{
    if (b->full || len >= b->size - b->used) {
        b->full = true;
        return;
    }
    memcpy(b->buf + b->used, s, len);
    b->used += len;
    b->buf[b->used] = '\0';
}

static void puts_(struct out *b, const char *s)
{
    if (s) put(b, s, strlen(s));
}

static void pad(struct out *b, size_t n)
{
    static const char spaces[] = "                                        ";
    while (n > 0) {
        size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
        put(b, spaces, k);
        n -= k;
    }
}

/* Whether every line of help fits in width columns. */
static bool help_fits(const char *h, size_t width)
{
    for (;;) {
        size_t len = strcspn(h, "\n");
        if (len > width) return false;
        if (!h[len]) return true;
        h += len + 1;
    }
}

/* How many bytes of h's next words fit in width columns (the first word
 * alone when it does not); a line break between them counts as a blank. */
static size_t fill_len(const char *h, size_t width)
{
    size_t len = 0;
    for (;;) {
        size_t next = len + strspn(h + len, " \n");
        if (!h[next]) return len;
        next += strcspn(h + next, " \n");
        if (next > width && len) return len;
        len = next;
    }
}

/* One option's help, its lines as written, each after indent spaces but the
 * first (already placed); where a line would pass HELP_WIDTH, the whole help
 * is refilled word by word to width columns instead. */
static void help_lines(struct out *b, const char *h, size_t indent, size_t width)
{
    bool refill = !help_fits(h, width);
    if (refill) h += strspn(h, " \n");
    for (bool first = true; first || *h; first = false) {
        size_t len = refill ? fill_len(h, width) : strcspn(h, "\n");
        if (!first) pad(b, indent);
        for (size_t i = 0; i < len; i++) put(b, h[i] == '\n' ? " " : h + i, 1);
        put(b, "\n", 1);
        h += len;
        if (refill) h += strspn(h, " \n");
        else if (*h) h++;
    }
}

int opt_help(const struct opt_table *t, char *buf, size_t size)
{
    if (!size) return -1;
    struct out b = {buf, size, 0, false};
    buf[0] = '\0';
    char left[128];
    size_t col = 0;
    for (const struct opt_spec *o = t->spec; o->name; o++) {
        int w = left_part(o, left, sizeof left);
        if (w > 0 && (size_t)w <= HELP_COL_MAX && (size_t)w > col) col = (size_t)w;
    }
    puts_(&b, t->usage);
    for (const struct opt_spec *o = t->spec; o->name; o++) {
        int w = left_part(o, left, sizeof left);
        if (w < 0) return -1;
        if (o->group) {
            puts_(&b, o->group);
            put(&b, "\n", 1);
        }
        pad(&b, 2);
        puts_(&b, left);
        const char *h = o->help ? o->help : "";
        if ((size_t)w > col) {
            put(&b, "\n", 1);
            pad(&b, 2 + col);
        } else {
            pad(&b, col - (size_t)w);
        }
        pad(&b, 2);
        help_lines(&b, h, 4 + col, HELP_WIDTH > 4 + col ? HELP_WIDTH - 4 - col : 20);
    }
    puts_(&b, t->epilogue);
    return b.full ? -1 : 0;
}

/* ---- validators -------------------------------------------------------------- */

/* Store v in an int, long or long long field; -1 when it does not fit. */
static int store_int(void *dst, size_t size, long long v)
{
    if (size == sizeof(int)) {
        if (v < INT_MIN || v > INT_MAX) return -1;
        *(int *)dst = (int)v;
    } else if (size == sizeof(long)) {
        *(long *)dst = (long)v;
    } else if (size == sizeof(long long)) {
        *(long long *)dst = v;
    } else {
        return -1;
    }
    return 0;
}

int opt_string(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    if (size != sizeof(const char *)) return oomlab_err_set(err, "--%s: not a string field (opt table)", o->name);
    *(const char **)dst = val;
    return 0;
}

/* The largest value a field of size bytes with table maximum max holds. */
static long long int_ceiling(long long max, size_t size)
{
    return size == sizeof(int) && max > INT_MAX ? INT_MAX : max;
}

/* A well-formed whole number above what the field takes: '--seq
 * 99999999999999999999' is not "expected a whole number of at least 1". */
static bool too_large(const char *val, long long max, size_t size)
{
    if (!val || !*val || *val == '-') return false;
    char *end;
    errno = 0;
    long long v = strtoll(val, &end, 10);
    if (end == val || *end != '\0') return false;
    return errno == ERANGE || v > int_ceiling(max, size);
}

int opt_int(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    long long v;
    if (units_parse_int(val ? val : "", o->min, o->max, &v) == 0 && store_int(dst, size, v) == 0) return 0;
    if (o->max >= LLONG_MAX / 8 && too_large(val, o->max, size))
        return oomlab_err_set(err, "--%s '%s': too large a number", o->name, val);
    if (o->max >= LLONG_MAX / 8)
        return oomlab_err_set(err, "--%s '%s': expected a whole number of at least %lld", o->name,
                              val ? val : "", o->min);
    return oomlab_err_set(err, "--%s '%s': expected a whole number from %lld to %lld", o->name,
                          val ? val : "", o->min, o->max);
}

int opt_gpu(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    long long v;
    if (units_parse_int(val ? val : "", 0, OPT_GPU_MAX, &v) == 0 && store_int(dst, size, v) == 0) return 0;
    return oomlab_err_set(err, "--%s '%s': expected a GPU index 0-%d",
                          o->name, val ? val : "", OPT_GPU_MAX);
}

int opt_duration(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    char flag[64];
    snprintf(flag, sizeof flag, "--%s", o->name);
    if (size != sizeof(int64_t)) return oomlab_err_set(err, "%s: not an int64_t field (opt table)", flag);
    int64_t ms;
    /* a written zero ("0", "0s", "0.0"), not a fraction rounded to 0 ms ("0.0001") */
    if (o->zero_say && o->min > 0 && val && !isdigit((unsigned char)val[strspn(val, "0.")]) &&
        units_parse_duration_ms(val, &ms) == 0 && ms == 0) {
        char lim[32];
        return oomlab_err_set(err, "%s '%s': at least %s; 0 is not \"no limit\" here: %s", flag, val,
                              units_format_duration_ms(o->min, lim, sizeof lim), o->zero_say);
    }
    if (units_duration_arg(flag, val ? val : "", o->min, o->max, &ms, err) < 0) return -1;
    size_t n = strlen(val);
    if (o->bare_max && ms > o->bare_max && n && (isdigit((unsigned char)val[n - 1]) || val[n - 1] == '.'))
        return oomlab_err_set(err,
                              "%s '%s': a bare number is seconds, so that is %s s between samples; "
                              "write %sms for milliseconds, or %ss if seconds are meant",
                              flag, val, val, val, val);
    memcpy(dst, &ms, sizeof ms);
    return 0;
}

int opt_set(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    struct opt_list *l = dst;
    if (size != sizeof *l) return oomlab_err_set(err, "--%s: not an opt_list field (opt table)", o->name);
    if (l->n == OPT_LIST_MAX) return oomlab_err_set(err, "at most %d --%s", OPT_LIST_MAX, o->name);
    /* checked as the alias table reads it (batch=abc is an error here), on a scratch config */
    struct runcfg scratch;
    runcfg_init(&scratch);
    int rc = runcfg_set(&scratch, val ? val : "", err);
    runcfg_release(&scratch);
    if (rc < 0) return -1;
    l->item[l->n++] = val;
    return 0;
}

/* A path option: not empty, and short enough that DIR/logs/ID_mem.csv (ids
 * are under 64 bytes) still fits PATH_MAX. */
static int path_arg(const struct opt_spec *o, const char *val, void *dst, size_t size, const char *what,
                    struct oomlab_err *err)
{
    if (!val || !*val) return oomlab_err_set(err, "--%s wants %s, got ''", o->name, what);
    if (strlen(val) > PATH_MAX - 128)
        return oomlab_err_set(err, "--%s '%.40s...': longer than %d bytes", o->name, val, PATH_MAX - 128);
    return opt_string(o, val, dst, size, err);
}

int opt_config(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    return path_arg(o, val, dst, size, "a file name", err);
}

int opt_dir(const struct opt_spec *o, const char *val, void *dst, size_t size, struct oomlab_err *err)
{
    return path_arg(o, val, dst, size, "a directory", err);
}
