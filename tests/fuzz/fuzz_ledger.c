/* Fuzz target: any bytes parse as a ledger without over-reads, and every
 * parsed row survives format -> parse unchanged (round trip). The change
 * between two commands (report's and compare's ledger_command_change, over
 * two rows' commands and over the input's first two lines) is said iff the
 * words differ, whole in the size the header promises, and a cut to a
 * smaller buffer is marked "[...]" on a character's first byte. A new
 * run id's check (run --id, guard --id: ledger_id_check_new), on the
 * input's first line and on each row's id: it fails whatever
 * ledger_id_check fails, and where only the new id's character set
 * refuses it, the id its message offers ("use '...'") passes both. A
 * NUL byte's refusal, from the parser, the stream fed in pieces and the
 * append scan (ledger_tail, fed in pieces as run feeds it), names the
 * same command, "truncate -s N FILE", N the byte where the first NUL's
 * line starts. After the rows are folded, each job's rank rows found by
 * its id (an id no other row has) and through the read index (ledger_prepare_reads,
 * ledger_row_ranks) are the same, and report's page of the job
 * (ledger_job_page_rank) is one of them. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ledger.h"

static void round_trip(const struct ledger_row *row)
{
    size_t hl, rl;
    char *h = ledger_header(&hl), *r = ledger_format_row(row, &rl);
    char *text = h && r ? malloc(hl + rl) : NULL;
    if (text) {
        memcpy(text, h, hl);
        memcpy(text + hl, r, rl);
        struct ledger again;
        struct oomlab_err err;
        if (ledger_parse(&again, text, hl + rl, "fuzz", &err) == 0) {
            if (again.n != 1) abort();
            for (size_t c = 0; c < LEDGER_NCOLS; c++)
                if (strcmp(again.rows[0].cell[c], row->cell[c])) abort();
            ledger_release(&again);
        }
    }
    free(text);
    free(h);
    free(r);
}

/* The stream fed in pieces (run's id check) counts the rows and fails as
 * one whole parse does, wherever the pieces cut. */
static int count_row(const struct ledger_row *row, void *ctx, struct oomlab_err *err)
{
    (void)row, (void)err;
    ++*(size_t *)ctx;
    return 0;
}

/* With only run_id kept (completion's reader), the rows that have one:
 * their ids hashed in order, which a whole parse must match. */
struct ids {
    size_t n;
    unsigned long hash;
};

static int id_row(const struct ledger_row *row, void *ctx, struct oomlab_err *err)
{
    (void)err;
    struct ids *ids = ctx;
    const char *id = row->cell[LEDGER_RUN_ID];
    if (!id || !*id) return 0;
    ids->n++;
    for (; *id; id++) ids->hash = ids->hash * 31 + (unsigned char)*id;
    ids->hash = ids->hash * 31 + (unsigned long)row->line;
    return 0;
}

/* The offset a NUL refusal's "truncate -s N" names: N, else -1 (no NUL
 * refusal: "fuzz:LINE:COL: binary data (a NUL byte): ... truncate -s N
 * fuzz)"; another message may quote the input's words). */
static long long truncate_at(const char *msg)
{
    static const char head[] = "binary data (a NUL byte): ", cmd[] = "this line: truncate -s ";
    long line, col;
    int at = -1;
    if (sscanf(msg, "fuzz:%ld:%ld: %n", &line, &col, &at) != 2 || at < 0) return -1;
    const char *p = msg + at;
    if (strncmp(p, head, sizeof head - 1)) return -1;
    const char *t = strstr(p, cmd);
    if (!t) return -2; /* a NUL refusal without the command */
    char *end;
    long long n = strtoll(t + sizeof cmd - 1, &end, 10);
    return strcmp(end, " fuzz)") ? -2 : n;
}

/* Where the first NUL's line starts: the rows before it are kept. */
static long long nul_line_start(const char *text, size_t size)
{
    const char *nul = memchr(text, '\0', size);
    if (!nul) return -1;
    const char *nl = memrchr(text, '\n', (size_t)(nul - text));
    return nl ? nl + 1 - text : 0;
}

/* run's append scan over the file in pieces: a NUL is refused with the same command. */
static void tail_scan(const char *text, size_t size, long long want)
{
    struct ledger_tail t;
    size_t head = size < 64 ? size : 64;
    ledger_tail_init(&t, text, head);
    for (size_t at = 0, step = 1 + size % 23; at < size; at += step) {
        if (step > size - at) step = size - at;
        ledger_tail_feed(&t, text + at, step);
    }
    struct oomlab_err err = {{0}};
    int rc = ledger_tail_check(&t, "fuzz", &err);
    if ((rc < 0) != (want >= 0) || (rc < 0 && truncate_at(err.msg) != want)) {
        fprintf(stderr, "tail check %d, want truncate at %lld: %s\n", rc, want, err.msg);
        __builtin_trap();
    }
    (void)ledger_tail_end(&t);
}

static void in_pieces(const char *text, size_t size, int whole_rc, size_t whole_n, bool keep_id,
                      const struct ids *whole_ids, const char *whole_msg)
{
    static const enum ledger_col id_only[] = {LEDGER_RUN_ID};
    size_t first = size ? 1 + (size_t)(unsigned char)text[0] % 17 : 0, rows = 0;
    struct ids ids = {0, 0};
    struct ledger_stream *s = keep_id ? ledger_stream_new("fuzz", id_row, &ids)
                                      : ledger_stream_new("fuzz", count_row, &rows);
    struct oomlab_err err;
    if (!s) return;
    if (keep_id) ledger_stream_keep(s, id_only, 1);
    int rc = 0;
    for (size_t at = 0, step = first; at < size && rc == 0; at += step, step = 1 + (at * 7) % 13) {
        if (step > size - at) step = size - at;
        rc = ledger_stream_feed(s, text + at, step, &err);
    }
    if (rc == 0) rc = ledger_stream_end(s, &err);
    ledger_stream_free(s);
    if (rc != whole_rc) abort();
    /* both a NUL refusal (which error comes first may follow the pieces) */
    if (rc != 0 && truncate_at(whole_msg) != -1 && truncate_at(err.msg) != -1 && strcmp(err.msg, whole_msg)) {
        fprintf(stderr, "in pieces: %s\nwhole: %s\n", err.msg, whole_msg);
        __builtin_trap();
    }
    if (rc == 0 && !keep_id && rows != whole_n) abort();
    if (rc == 0 && keep_id && (ids.n != whole_ids->n || ids.hash != whole_ids->hash)) abort();
}

/* Do a and b hold the same words (split at spaces, any number of them)? */
static bool same_words(const char *a, const char *b)
{
    for (;;) {
        while (*a == ' ') a++;
        while (*b == ' ') b++;
        size_t na = strcspn(a, " "), nb = strcspn(b, " ");
        if (na != nb || memcmp(a, b, na)) return false;
        if (!na) return true;
        a += na, b += nb;
    }
}

static void command_change(const char *a, const char *b, size_t pick)
{
    static const char mark[] = "[...]";
    size_t size = strlen(a) + strlen(b) + LEDGER_CHANGE_SLACK, big_size = 2 * size + 64;
    char *whole = malloc(size), *big = malloc(big_size); /* exact sizes: ASan sees any overflow */
    if (!whole || !big) goto done;
    bool said = ledger_command_change(a, b, whole, size);
    if (said != !same_words(a, b)) {
        fprintf(stderr, "said %d for '%s' -> '%s'\n", said, a, b);
        __builtin_trap();
    }
    if (!memchr(whole, '\0', size) || (!said && whole[0])) __builtin_trap();
    if (ledger_command_change(a, b, big, big_size) != said || strcmp(whole, big)) __builtin_trap(); /* whole */
    if (!said) goto done;
    size_t len = strlen(big);
    const size_t sizes[] = {0, 1, sizeof mark - 1, sizeof mark, sizeof mark + 1, len, len + 1, pick % (len + 2)};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        char *out = malloc(n ? n : 1);
        if (!out) break;
        if (ledger_command_change(a, b, out, n) != said) __builtin_trap();
        if (n && !memchr(out, '\0', n)) __builtin_trap();
        if (n > len) {
            if (strcmp(out, big)) __builtin_trap(); /* fits: whole */
        } else if (n > sizeof mark) { /* cut: marked, on a character's first byte, the rest big's */
            size_t o = strlen(out);
            if (o < sizeof mark - 1 || strcmp(out + o - (sizeof mark - 1), mark)) __builtin_trap();
            size_t at = o - (sizeof mark - 1);
            if (memcmp(out, big, at) || (at > 0 && ((unsigned char)big[at] & 0xC0) == 0x80)) __builtin_trap();
        } else if (n && strncmp(out, big, strlen(out))) {
            __builtin_trap();
        }
        free(out);
    }
done:
    free(whole);
    free(big);
}

/* The input's first two lines (NUL-free: a cell holds none) as commands. */
static void command_change_lines(const char *text, size_t size)
{
    const char *nl = memchr(text, '\n', size);
    size_t la = nl ? (size_t)(nl - text) : size;
    const char *rest = nl ? nl + 1 : text + size;
    size_t left = size - (size_t)(rest - text);
    const char *nl2 = memchr(rest, '\n', left);
    size_t lb = nl2 ? (size_t)(nl2 - rest) : left;
    char *a = strndup(text, la), *b = strndup(rest, lb);
    if (a && b) command_change(a, b, size);
    free(a);
    free(b);
}

static void new_id(const char *id)
{
    struct oomlab_err err = {{0}}, old = {{0}};
    int rc = ledger_id_check_new(id, &err);
    if (ledger_id_check(id, &old) < 0) {
        if (rc == 0) __builtin_trap();
        return;
    }
    if (rc == 0) return;
    const char *use = NULL;
    for (const char *p = err.msg; (p = strstr(p, "use '")); p++) use = p + 5;
    size_t n = use ? strlen(use) : 0;
    if (!n || use[n - 1] != '\'') {
        fprintf(stderr, "no id offered: %s\n", err.msg);
        __builtin_trap();
    }
    char fixed[LEDGER_ID_MAX + 2];
    if (n - 1 >= sizeof fixed) __builtin_trap();
    memcpy(fixed, use, n - 1);
    fixed[n - 1] = '\0';
    if (ledger_id_check_new(fixed, &err) < 0) {
        fprintf(stderr, "offered '%s' fails: %s\n", fixed, err.msg);
        __builtin_trap();
    }
}

/* report's page of a job (ledger_job_page_rank): one of the job's rank
 * rows, NULL only when it has none, of an attempt that counts at least one
 * and at most all of them. */
static void page_rank(const struct ledger_row *rows, size_t n, const char *worst)
{
    long restart = -2;
    size_t count = SIZE_MAX;
    const struct ledger_row *p = ledger_job_page_rank(rows, n, worst, &restart, &count);
    if ((p == NULL) != (n == 0) || (p && (p < rows || p >= rows + n)) || restart < 0 || count > n ||
        (n && !count)) {
        fprintf(stderr, "page rank of %zu rows: %p (%ld, %zu)\n", n, (const void *)p, restart, count);
        __builtin_trap();
    }
    (void)ledger_job_page_rank(rows, n, NULL, NULL, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1); /* exact size: ASan catches any over-read */
    if (!copy) return 0;
    memcpy(copy, data, size);
    struct ledger lg;
    struct oomlab_err err;
    const char *nl = memchr(copy, '\n', size);
    size_t first = nl ? (size_t)(nl - copy) : size;
    if (first <= 2 * LEDGER_ID_MAX) { /* the input's first line as an id */
        char id[2 * LEDGER_ID_MAX + 1];
        memcpy(id, copy, first);
        id[first] = '\0';
        new_id(id);
    }
    command_change_lines(copy, size);
    ledger_tail_repair(copy, size);
    err.msg[0] = '\0';
    int rc = ledger_parse(&lg, copy, size, "fuzz", &err);
    long long nul_at = nul_line_start(copy, size);
    if (rc != 0 && truncate_at(err.msg) != -1 && truncate_at(err.msg) != nul_at) {
        fprintf(stderr, "first NUL's line at %lld: %s\n", nul_at, err.msg);
        __builtin_trap();
    }
    tail_scan(copy, size, nul_at);
    char whole_msg[sizeof err.msg];
    memcpy(whole_msg, err.msg, sizeof whole_msg);
    struct ids whole_ids = {0, 0};
    for (size_t i = 0; rc == 0 && i < lg.n; i++) id_row(&lg.rows[i], &whole_ids, &err);
    in_pieces(copy, size, rc, rc == 0 ? lg.n : 0, false, NULL, whole_msg);
    in_pieces(copy, size, rc, 0, true, &whole_ids, whole_msg);
    if (rc == 0) {
        ledger_prepare_reads(&lg);
        for (size_t i = 0; i < lg.n && i < 8; i++) {
            ledger_edges(&lg, i, 90.0);
            if (lg.rows[i].cell[LEDGER_RUN_ID][0]) round_trip(&lg.rows[i]);
        }
        for (size_t i = 0; i < lg.n && i < 4; i++) { /* the env cell and ids */
            const char *env = lg.rows[i].cell[LEDGER_ENV];
            char names[256];
            free(ledger_env_get(env, "PYTORCH_CUDA_ALLOC_CONF"));
            ledger_env_changed(env, lg.rows[lg.n - 1].cell[LEDGER_ENV], names, sizeof names);
            const char *id = lg.rows[i].cell[LEDGER_RUN_ID];
            if (ledger_utf8_invalid_at(id, strlen(id)) > strlen(id)) abort();
            new_id(id);
        }
        for (size_t i = 1; i < lg.n && i < 4; i++) /* report's and compare's pairs */
            command_change(lg.rows[i - 1].cell[LEDGER_COMMAND], lg.rows[i].cell[LEDGER_COMMAND], i);
        if (lg.n >= 2) {
            enum ledger_col out[LEDGER_NCOLS];
            ledger_changed(&lg.rows[0], &lg.rows[1], out, LEDGER_NCOLS);
        }
        ledger_sort_by_start(&lg); /* shards merged on read, then one row per run, ranks folded */
        if (ledger_keep_latest(&lg, &err) == 0) {
            ledger_prepare_reads(&lg); /* table's and report's reads through the index */
            for (size_t i = 0; i < lg.n && i < 8; i++) {
                const struct ledger_row *first, *indexed;
                char stem[128];
                const char *id = lg.rows[i].cell[LEDGER_RUN_ID];
                size_t n = ledger_rank_rows(&lg, id, &first);
                page_rank(first, n, lg.rows[i].cell[LEDGER_WORST_RANK]);
                size_t m = ledger_row_ranks(&lg, i, &indexed);
                size_t same = 0; /* a hostile ledger may keep an id twice (fuzz25: no started_at column) */
                for (size_t k = 0; k < lg.n; k++) same += !strcmp(lg.rows[k].cell[LEDGER_RUN_ID], id);
                if (*id && same == 1 && (m != n || (n && indexed != first))) {
                    fprintf(stderr, "row %zu (%s): %zu rank rows by id, %zu by the index\n", i, id, n, m);
                    __builtin_trap();
                }
                ledger_row_stem(stem, sizeof stem, &lg.rows[i]);
            }
        }
        ledger_release(&lg);
    }
    free(copy);
    return 0;
}
