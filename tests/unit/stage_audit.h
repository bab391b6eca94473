/* A stage coverage audit's machinery, shared by test_diagnose_stage13.c
 * (frameworks' own paths and names) and test_diagnose_stage15.c (users'
 * research code): each row is a short synthetic paste, a traceback built
 * from frames plus the audit's OOM message, with the stage diagnose must
 * give. `--table` prints every row with diagnose's stage; `--paste N`
 * prints row N's paste (for `oomlab diagnose -`). Include after
 * stage_fixture.h. */
#ifndef OOMLAB_TEST_STAGE_AUDIT_H
#define OOMLAB_TEST_STAGE_AUDIT_H

struct audit_row {
    const char *who, *stage, *cue, *source; /* who: the framework or repository */
    /* frames, outermost first, joined by " @@ ", each "FILE | FUNCTION |
     * CODE" (FILE relative to site-packages unless it starts with '/');
     * or, after a leading '!', the paste itself */
    const char *frames;
    /* a known gap: why diagnose misses the row (printed, not asserted) */
    const char *gap;
};

struct audit {
    const struct audit_row *rows;
    size_t n;
    const char *oom_message; /* the message under every built traceback */
};

#define AUDIT_SITE "/usr/local/lib/python3.10/dist-packages/"

/* The paste a row stands for, in buf (size n). */
static const char *audit_paste(const struct audit *a, const struct audit_row *row, char *buf, size_t n)
{
    if (row->frames[0] == '!') return row->frames + 1;
    size_t len = (size_t)snprintf(buf, n, "Traceback (most recent call last):\n");
    const char *p = row->frames;
    while (*p) {
        const char *end = strstr(p, " @@ ");
        size_t flen = end ? (size_t)(end - p) : strlen(p);
        const char *bar1 = memchr(p, '|', flen);
        assert_non_null(bar1);
        const char *bar2 = memchr(bar1 + 1, '|', flen - (size_t)(bar1 + 1 - p));
        assert_non_null(bar2);
        int file_len = (int)(bar1 - 1 - p), fn_len = (int)(bar2 - 1 - (bar1 + 2));
        int code_len = (int)(flen - (size_t)(bar2 + 2 - p));
        len += (size_t)snprintf(buf + len, n - len, "  File \"%s%.*s\", line 123, in %.*s\n    %.*s\n",
                                p[0] == '/' ? "" : AUDIT_SITE, file_len, p, fn_len, bar1 + 2, code_len, bar2 + 2);
        assert_true(len < n);
        p = end ? end + 4 : p + flen;
    }
    len += (size_t)snprintf(buf + len, n - len, "%s", a->oom_message);
    assert_true(len < n);
    return buf;
}

/* Rows diagnose misses (known gaps not counted); print: the whole table. */
static int audit_misses(const struct audit *a, bool print)
{
    static char buf[16384];
    int misses = 0;
    for (size_t i = 0; i < a->n; i++) {
        const struct audit_row *row = &a->rows[i];
        const char *got = stage_of(audit_paste(a, row, buf, sizeof buf));
        bool ok = strcmp(got, row->stage) == 0;
        if (print)
            printf("%zu\t%s\t%s\t%s\t%s\t%s\t%s\n", i + 1, row->who, row->stage, row->cue, row->source, got,
                   ok ? "ok" : row->gap ? "GAP" : "MISS");
        else if (!ok && !row->gap)
            fprintf(stderr, "%s / %s (%s): diagnose says %s\n", row->who, row->stage, row->cue, got);
        misses += !ok && !row->gap;
    }
    return misses;
}

/* --table and --paste N; otherwise -1 (run the cmocka tests). */
static int audit_main(const struct audit *a, int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--table") == 0) {
        int misses = audit_misses(a, true);
        fprintf(stderr, "%d of %zu rows missed\n", misses, a->n);
        return 0;
    }
    if (argc > 2 && strcmp(argv[1], "--paste") == 0) {
        static char buf[16384];
        long i = strtol(argv[2], NULL, 10);
        if (i < 1 || (size_t)i > a->n) return 1;
        fputs(audit_paste(a, &a->rows[i - 1], buf, sizeof buf), stdout);
        return 0;
    }
    return -1;
}

#endif
