/* Unit tests for lib/pickle: the opcodes Python's pickle writes for plain
 * data (bytes below are what pickle.dumps gives, protocol in the name),
 * memo re-use across both passes, streaming consumption, and hostile
 * input: refused opcodes, every truncation of a real snapshot, deep
 * nesting, huge lengths, the memory cap, cycles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/pickle.h"

static struct pickle_doc doc;
static struct oomlab_err err;

static int load_opts(const void *data, size_t len, struct pickle_opts *o)
{
    static struct pickle_buf b;
    b = (struct pickle_buf){data, len, 0};
    o->read = pickle_buf_read;
    o->rewind = pickle_buf_rewind;
    o->src = &b;
    memset(&err, 0, sizeof err);
    return pickle_load(o, &doc, &err);
}

static int load(const void *data, size_t len)
{
    struct pickle_opts o = {0};
    return load_opts(data, len, &o);
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)n + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return data;
}

/* pickle.dumps({'a': [1, -2, 70000, 2**40, 2**70, 1.5, True, None, b'xy', (1, 'z')],
 *               'b': 'h\u00e9'}, protocol=4) */
static const unsigned char plain4[] =
        "\x80\x04\x95N\x00\x00\x00\x00\x00\x00\x00}\x94(\x8c\x01" "a\x94]\x94(K\x01J\xfe\xff\xff\xffJp\x11\x01\x00\x8a\x06\x00\x00\x00\x00\x00\x01\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00@G\x3f\xf8\x00\x00\x00\x00\x00\x00\x88NC\x02xy\x94K\x01\x8c\x01z\x94\x86\x94" "e\x8c\x01" "b\x94\x8c\x03h\xc3\xa9\x94u.";

static void test_plain_values(void **state)
{
    (void)state;
    assert_int_equal(load(plain4, sizeof plain4 - 1), 0);
    assert_int_equal(doc.protocol, 4);
    const struct pk_obj *a = pk_get(doc.root, "a");
    assert_int_equal(pk_len(a), 10);
    int64_t v;
    assert_true(pk_int(pk_at(a, 0), &v) && v == 1);
    assert_true(pk_int(pk_at(a, 1), &v) && v == -2);
    assert_true(pk_int(pk_at(a, 2), &v) && v == 70000);
    assert_true(pk_int(pk_at(a, 3), &v) && v == (int64_t)1 << 40);
    assert_int_equal(pk_at(a, 4)->type, PK_BIGINT);
    assert_false(pk_int(pk_at(a, 4), &v)); /* beyond 64 bits: no value, not a wrong one */
    assert_int_equal(pk_at(a, 5)->type, PK_FLOAT);
    assert_true(pk_at(a, 5)->u.f == 1.5);
    assert_int_equal(pk_at(a, 6)->type, PK_BOOL);
    assert_int_equal(pk_at(a, 7)->type, PK_NONE);
    assert_int_equal(pk_at(a, 8)->type, PK_BYTES);
    assert_memory_equal(pk_at(a, 8)->u.str.s, "xy", 2);
    assert_int_equal(pk_at(a, 9)->type, PK_TUPLE);
    assert_string_equal(pk_str(pk_at(pk_at(a, 9), 1)), "z");
    assert_string_equal(pk_str(pk_get(doc.root, "b")), "h\xc3\xa9");
    assert_null(pk_get(doc.root, "c"));
    pickle_doc_release(&doc);
}

/* x = {'f': 'same'}; pickle.dumps([x, x, [x]], protocol=2): BINPUT/BINGET */
static const unsigned char shared2[] =
        "\x80\x02]q\x00(}q\x01X\x01\x00\x00\x00" "fq\x02X\x04\x00\x00\x00sameq\x03sh\x01]q\x04h\x01" "ae.";

static void test_memo_shares_objects(void **state)
{
    (void)state;
    assert_int_equal(load(shared2, sizeof shared2 - 1), 0);
    assert_int_equal(doc.protocol, 2);
    assert_int_equal(pk_len(doc.root), 3);
    const struct pk_obj *x = pk_at(doc.root, 0);
    assert_ptr_equal(pk_at(doc.root, 1), x); /* one object, as in Python */
    assert_ptr_equal(pk_at(pk_at(doc.root, 2), 0), x);
    assert_string_equal(pk_str(pk_get(x, "f")), "same");
    pickle_doc_release(&doc);
}

struct consume {
    size_t seen, kept_every;
};

static int eat(void *ctx, const struct pk_obj *list, size_t index, const struct pk_obj *item,
               bool *consumed, struct oomlab_err *e)
{
    struct consume *c = ctx;
    (void)list;
    (void)e;
    assert_int_equal(index, c->seen);
    c->seen++;
    *consumed = c->kept_every == 0 || index % c->kept_every != 0;
    return item->type == PK_STR ? -1 : 0;
}

/* pickle.dumps(list(range(2500)), protocol=4): three APPENDS batches */
static void test_items_are_streamed(void **state)
{
    (void)state;
    unsigned char buf[16384];
    size_t n = 0;
    memcpy(buf, "\x80\x04]\x94(", 5);
    n = 5;
    for (int i = 0; i < 2500; i++) {
        if (i && i % 1000 == 0) buf[n++] = 'e', buf[n++] = '(';
        buf[n++] = 'M';
        buf[n++] = (unsigned char)(i & 0xff);
        buf[n++] = (unsigned char)(i >> 8);
    }
    buf[n++] = 'e';
    buf[n++] = '.';
    struct consume c = {0, 100};
    struct pickle_opts o = {.on_item = eat, .ctx = &c};
    assert_int_equal(load_opts(buf, n, &o), 0);
    assert_int_equal(c.seen, 2500);
    assert_int_equal(pk_len(doc.root), 25); /* the rest were consumed and freed */
    assert_int_equal(doc.root->u.seq.appended, 2500);
    int64_t v;
    assert_true(pk_int(pk_at(doc.root, 1), &v) && v == 100);
    pickle_doc_release(&doc);
    /* the callback's error ends the load */
    static const unsigned char strs[] = "\x80\x04]\x94\x8c\x01x\x94" "a.";
    c.seen = 0;
    assert_int_equal(load_opts(strs, sizeof strs - 1, &o), -1);
}

struct shared {
    size_t seen, wrong;
};

static int check_shared(void *ctx, const struct pk_obj *list, size_t index,
                        const struct pk_obj *item, bool *consumed, struct oomlab_err *e)
{
    struct shared *c = ctx;
    const char *k = pk_str(pk_get(item, "k")), *pad = pk_str(pk_get(item, "pad"));
    (void)list;
    (void)index;
    (void)e;
    c->seen++;
    if (!k || strcmp(k, "shared") || !pad || strlen(pad) != 64) c->wrong++;
    *consumed = true;
    return 0;
}

/* [{'k': s, 'pad': 'x' * 64} for _ in range(100000)] with one s: the
 * first item memoizes it, every later one fetches it (BINGET) after the
 * items before were consumed and their memory reused; and the whole load
 * stays far below the 20 MB the items would take if they were kept. */
static void test_memo_outlives_consumed_items(void **state)
{
    (void)state;
    enum { N = 100000 };
    size_t cap = (size_t)N * 80 + 64, n = 0;
    unsigned char *buf = malloc(cap);
    assert_non_null(buf);
    memcpy(buf, "\x80\x04](", 4);
    n = 4;
    for (int i = 0; i < N; i++) {
        if (i && i % 1000 == 0) buf[n++] = 'e', buf[n++] = '(';
        memcpy(buf + n, "}(\x8c\x01k", 5);
        n += 5;
        if (i == 0) memcpy(buf + n, "\x8c\x06sharedq\x01", 10), n += 10;
        else memcpy(buf + n, "h\x01", 2), n += 2;
        memcpy(buf + n, "\x8c\x03pad\x8c\x40", 7);
        n += 7;
        memset(buf + n, 'x', 64);
        n += 64;
        buf[n++] = 'u';
    }
    buf[n++] = 'e';
    buf[n++] = '.';
    struct shared c = {0, 0};
    struct pickle_opts o = {.on_item = check_shared, .ctx = &c};
    assert_int_equal(load_opts(buf, n, &o), 0);
    assert_int_equal(c.seen, N);
    assert_int_equal(c.wrong, 0);
    assert_int_equal(pk_len(doc.root), 0);
    if (doc.peak_memory > (2u << 20)) fail_msg("peak %zu bytes for consumed items", doc.peak_memory);
    pickle_doc_release(&doc);
    free(buf);
}

static void expect_refusal(const unsigned char *data, size_t len, const char *want)
{
    assert_int_equal(load(data, len), -1);
    if (!strstr(err.msg, want)) fail_msg("'%s' lacks '%s'", err.msg, want);
    assert_null(doc.root);
    assert_null(doc.pool);
}

static void test_code_is_refused(void **state)
{
    (void)state;
    /* pickle.dumps(os.system, protocol=2): GLOBAL; protocol 4: STACK_GLOBAL */
    static const unsigned char global2[] =
        "\x80\x02" "cposix\x0asystem\x0aq\x00.";
    expect_refusal(global2, sizeof global2 - 1, "GLOBAL");
    expect_refusal(global2, sizeof global2 - 1, "executes nothing");
    static const unsigned char stack_global4[] =
        "\x80\x04\x95\x14\x00\x00\x00\x00\x00\x00\x00\x8c\x05posix\x94\x8c\x06system\x94\x93\x94.";
    expect_refusal(stack_global4, sizeof stack_global4 - 1, "STACK_GLOBAL");
    /* a hand-made REDUCE and BUILD on plain values: refused all the same */
    static const unsigned char reduce[] = "\x80\x04N)R.";
    expect_refusal(reduce, sizeof reduce - 1, "REDUCE");
    static const unsigned char build[] = "\x80\x04}}b.";
    expect_refusal(build, sizeof build - 1, "BUILD");
    static const unsigned char newobj[] = "\x80\x04N)\x81.";
    expect_refusal(newobj, sizeof newobj - 1, "NEWOBJ");
    static const unsigned char unknown[] = "\x80\x04\xff.";
    expect_refusal(unknown, sizeof unknown - 1, "unknown opcode 0xff");
    static const unsigned char proto0[] = "(dp0\n.";
    expect_refusal(proto0, sizeof proto0 - 1, "protocol 2 or later");
    static const unsigned char proto6[] = "\x80\x06N.";
    expect_refusal(proto6, sizeof proto6 - 1, "protocol 6");
}

/* A text file given by mistake is named as text; a file of NUL bytes (a
 * zeroed or preallocated file) or one with NULs in it is not text. */
static void test_text_is_named(void **state)
{
    (void)state;
    static const unsigned char log[] = "2026-12-07 10:00:00 step 1 loss 2.5\n";
    expect_refusal(log, sizeof log - 1, "text, not a pickle");
    static const unsigned char utf16[] = "\xff\xfe" "2\x00" "0\x00";
    expect_refusal(utf16, sizeof utf16 - 1, "text, not a pickle");
    static const unsigned char zeros[8] = {0};
    assert_int_equal(load(zeros, sizeof zeros), -1);
    if (strstr(err.msg, "text")) fail_msg("zeros: '%s'", err.msg);
    static const unsigned char nul[] = "abc\x00\x00" "def";
    assert_int_equal(load(nul, sizeof nul - 1), -1);
    if (strstr(err.msg, "text")) fail_msg("NULs: '%s'", err.msg);
    /* FF FE is text only with UTF-16 after it (lib/textenc's one rule):
     * 8-bit text after it is still text, binary bytes after it are not */
    static const unsigned char bom8[] = "\xff\xfe" "2026-12-07 step 1\n";
    expect_refusal(bom8, sizeof bom8 - 1, "text, not a pickle");
    static const unsigned char bombin[] = "\xff\xfe\x01\x02\x03\x04";
    assert_int_equal(load(bombin, sizeof bombin - 1), -1);
    if (strstr(err.msg, "text")) fail_msg("FF FE then binary: '%s'", err.msg);
}

static void test_hostile_structure(void **state)
{
    (void)state;
    static const unsigned char get_unset[] =
        "\x80\x04}\x94h\x07.";
    expect_refusal(get_unset, sizeof get_unset - 1, "fetched before it is stored");
    static const unsigned char no_mark[] = "\x80\x04]e.";
    expect_refusal(no_mark, sizeof no_mark - 1, "no MARK");
    static const unsigned char append_to_int[] =
        "\x80\x04K\x01K\x02" "a.";
    expect_refusal(append_to_int, sizeof append_to_int - 1, "needs a list");
    static const unsigned char odd_dict[] = "\x80\x04}(K\x01u.";
    expect_refusal(odd_dict, sizeof odd_dict - 1, "pairs");
    static const unsigned char list_key[] = "\x80\x04}]K\x01s.";
    expect_refusal(list_key, sizeof list_key - 1, "cannot be a dict key");
    static const unsigned char empty_stop[] = "\x80\x04.";
    expect_refusal(empty_stop, sizeof empty_stop - 1, "STOP with nothing");
    static const unsigned char no_stop[] = "\x80\x04N";
    expect_refusal(no_stop, sizeof no_stop - 1, "truncated");
    expect_refusal((const unsigned char *)"", 0, "truncated");
    /* BINUNICODE8 of 2^40 bytes: refused on the length, nothing allocated */
    static const unsigned char huge[] =
        "\x80\x04\x8d\x00\x00\x00\x00\x00\x01\x00\x00" "abc";
    expect_refusal(huge, sizeof huge - 1, "over the memory limit");
    /* LONG4 with a negative length, BINSTRING with one */
    static const unsigned char neg[] = "\x80\x02T\xff\xff\xff\xff.";
    expect_refusal(neg, sizeof neg - 1, "");
    /* 200 nested lists: ]]...] then 200 APPENDs */
    unsigned char deep[512];
    size_t n = 0;
    deep[n++] = 0x80, deep[n++] = 4;
    for (int i = 0; i < 200; i++) deep[n++] = ']';
    for (int i = 0; i < 199; i++) deep[n++] = 'a';
    deep[n++] = '.';
    expect_refusal(deep, n, "nested deeper than 64");
    /* 300 open MARKs */
    n = 0;
    deep[n++] = 0x80, deep[n++] = 4;
    for (int i = 0; i < 300; i++) deep[n++] = '(';
    deep[n++] = 'N', deep[n++] = '.';
    expect_refusal(deep, n, "open MARKs");
}

/* The tuple and mark opcodes no other test reached (gcov: op_empty_tuple,
 * op_tuple1, op_tuple3, op_tuple_mark, op_list_mark, op_dict_mark and
 * op_pop_mark never ran): a snapshot pickled by another protocol or
 * writer uses them. pickle.dumps([(), (1,), (1, 2, 3), (1, 2, 3, 4)],
 * protocol=2), then MARK-built LIST/DICT (protocol 0's shape, binary ints)
 * and POP_MARK, each checked against what pickle.loads gives. */
static void test_tuples_and_marks(void **state)
{
    (void)state;
    static const unsigned char tuples2[] =
        "\x80\x02]q\x00()K\x01\x85q\x01K\x01K\x02K\x03\x87q\x02(K\x01K\x02K\x03K\x04tq\x03" "e.";
    assert_int_equal(load(tuples2, sizeof tuples2 - 1), 0);
    assert_int_equal(pk_len(doc.root), 4);
    int64_t v;
    for (size_t i = 0; i < 4; i++) {
        const struct pk_obj *t = pk_at(doc.root, i);
        size_t want = i == 0 ? 0 : i == 1 ? 1 : i == 2 ? 3 : 4;
        assert_int_equal(t->type, PK_TUPLE);
        assert_int_equal(pk_len(t), want);
        for (size_t k = 0; k < want; k++) assert_true(pk_int(pk_at(t, k), &v) && v == (int64_t)k + 1);
    }
    pickle_doc_release(&doc);

    /* (1 (X'a' 5 d l . : [1, {'a': 5}] */
    static const unsigned char marks[] = "\x80\x02(K\x01(X\x01\x00\x00\x00" "aK\x05" "dl.";
    assert_int_equal(load(marks, sizeof marks - 1), 0);
    assert_int_equal(doc.root->type, PK_LIST);
    assert_int_equal(pk_len(doc.root), 2);
    assert_true(pk_int(pk_at(doc.root, 0), &v) && v == 1);
    assert_true(pk_int(pk_get(pk_at(doc.root, 1), "a"), &v) && v == 5);
    pickle_doc_release(&doc);

    /* ( 1 2 POP_MARK None . : None, the marked items gone */
    static const unsigned char popmark[] = "\x80\x02(K\x01K\x02" "1N.";
    assert_int_equal(load(popmark, sizeof popmark - 1), 0);
    assert_int_equal(doc.root->type, PK_NONE);
    pickle_doc_release(&doc);

    /* what pickle.loads refuses: an odd DICT, a TUPLE with no MARK */
    static const unsigned char odd[] = "\x80\x02(K\x01" "d.";
    expect_refusal(odd, sizeof odd - 1, "in pairs");
    static const unsigned char nomark[] = "\x80\x02K\x01" "t.";
    expect_refusal(nomark, sizeof nomark - 1, "MARK");
}

/* An APPENDS with no items after the stack was once deeper: slot 3's
 * position is stale and must not roll back the list's item (ASan). */
static void test_empty_appends(void **state)
{
    (void)state;
    /* [] then (N N N 0 0 0 pops, then the list's own item 'xyz', an empty
     * MARK...APPENDS, another item */
    static const unsigned char p[] = "\x80\x04](NNN000\x8c\x03" "xyz" "e(e\x8c\x03" "abc" "a.";
    assert_int_equal(load(p, sizeof p - 1), 0);
    assert_int_equal(pk_len(doc.root), 2);
    assert_string_equal(pk_str(pk_at(doc.root, 0)), "xyz");
    assert_string_equal(pk_str(pk_at(doc.root, 1)), "abc");
    pickle_doc_release(&doc);
}

static void test_cycles_and_limits(void **state)
{
    (void)state;
    /* l = []; l.append(l); pickle.dumps(l, protocol=4): a list holding itself */
    static const unsigned char cycle[] =
        "\x80\x04\x95\x06\x00\x00\x00\x00\x00\x00\x00]\x94h\x00" "a.";
    assert_int_equal(load(cycle, sizeof cycle - 1), 0);
    assert_ptr_equal(pk_at(doc.root, 0), doc.root);
    pickle_doc_release(&doc); /* frees it all: no leak under ASan */
    /* a 2 MiB string under a 1 MiB limit */
    size_t len = 2u << 20;
    unsigned char *big = calloc(1, len + 16);
    assert_non_null(big);
    memcpy(big, "\x80\x04X\x00\x00\x20\x00", 7);
    big[7 + len] = '.';
    struct pickle_opts o = {.memory_limit = 1u << 20};
    assert_int_equal(load_opts(big, len + 8, &o), -1);
    assert_non_null(strstr(err.msg, "memory limit"));
    /* a memo index near the cap: the census bitsets outgrow a 32 MiB limit
     * half-way (one grown, not the other): refused, nothing leaked */
    static const unsigned char far_get[] = "\x80\x04j\xff\xff\xff\x0f.";
    o.memory_limit = 32u << 20;
    assert_int_equal(load_opts(far_get, sizeof far_get - 1, &o), -1);
    assert_non_null(strstr(err.msg, "memory limit"));
    o.memory_limit = 0; /* the default takes it */
    assert_int_equal(load_opts(big, len + 8, &o), 0);
    assert_int_equal(doc.root->u.str.len, len);
    pickle_doc_release(&doc);
    free(big);
}

/* Every prefix of a real snapshot fails cleanly, naming a byte offset. */
static void test_every_truncation(void **state)
{
    (void)state;
    size_t len;
    char *data = read_file("tests/snapshot/oom.pickle", &len);
    assert_int_equal(load(data, len), 0);
    pickle_doc_release(&doc);
    for (size_t cut = 0; cut < len; cut += (cut < 4096 ? 1 : 97)) {
        if (load(data, cut) == 0) fail_msg("a %zu-byte prefix loaded", cut);
        if (!strstr(err.msg, "byte")) fail_msg("cut %zu: '%s'", cut, err.msg);
    }
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_values),     cmocka_unit_test(test_memo_shares_objects),
        cmocka_unit_test(test_items_are_streamed), cmocka_unit_test(test_code_is_refused),
        cmocka_unit_test(test_text_is_named),
        cmocka_unit_test(test_hostile_structure), cmocka_unit_test(test_cycles_and_limits),
        cmocka_unit_test(test_every_truncation), cmocka_unit_test(test_memo_outlives_consumed_items),
        cmocka_unit_test(test_empty_appends), cmocka_unit_test(test_tuples_and_marks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
