/* Unit tests for lib/textenc: UTF-16 and UTF-32 found from the first bytes
 * (a byte order mark, or a NUL in every other byte), named with the iconv
 * line that converts the file; UTF-8, ASCII and binary data are left alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/textenc.h"

#define MSG(text, file) (textenc_wide_message(text, sizeof text - 1, file, "a run config", out, sizeof out))

static void test_utf16_named_with_iconv(void **state)
{
    (void)state;
    char out[512];
    /* "a: 1\n" as PowerShell's `>` writes it: UTF-16LE with a BOM */
    assert_true(MSG("\xff\xfe" "a\0:\0 \0" "1\0\n\0", "run.yaml"));
    assert_string_equal(out, "UTF-16LE text (with a byte order mark), not UTF-8 as a run config "
                             "must be; convert it: iconv -f UTF-16 -t UTF-8 run.yaml > "
                             "run.yaml.utf8 && mv run.yaml.utf8 run.yaml");
    assert_true(MSG("\xfe\xff" "\0a\0:\0 \0" "1", "run.yaml"));
    assert_non_null(strstr(out, "UTF-16BE text (with a byte order mark)"));
    /* no BOM: the byte order is named for iconv (glibc's UTF-16 would
     * assume big-endian) */
    assert_true(MSG("{\0\"\0b\0\"\0:\0 \0" "1\0}\0", "c.json"));
    assert_non_null(strstr(out, "UTF-16LE text (no byte order mark)"));
    assert_non_null(strstr(out, "iconv -f UTF-16LE -t UTF-8 c.json > c.json.utf8"));
    assert_true(MSG("\0b\0s\0:\0 \0" "8", "c.yaml"));
    assert_non_null(strstr(out, "iconv -f UTF-16BE"));
    /* UTF-32's BOM starts with UTF-16LE's */
    assert_true(MSG("\xff\xfe\0\0" "a\0\0\0", "c.yaml"));
    assert_non_null(strstr(out, "UTF-32LE text"));
    /* a name the shell would split is quoted, a quote in it too */
    assert_true(MSG("\xff\xfe" "a\0", "my run's.yaml"));
    assert_non_null(strstr(out, "iconv -f UTF-16 -t UTF-8 'my run'\\''s.yaml' > 'my run'\\''s.yaml'.utf8"));
    /* standard input: the conversion goes into the pipe */
    assert_true(MSG("\xff\xfe" "a\0", NULL));
    assert_non_null(strstr(out, "convert it on the way in: ... | iconv -f UTF-16 -t UTF-8 | oomlab ..."));
}

static void test_not_wide(void **state)
{
    (void)state;
    char out[64] = "x";
    assert_false(MSG("device_batch_size: 8\n", "run.yaml"));
    assert_string_equal(out, "");
    assert_false(MSG("\xef\xbb\xbf" "a: 1\n", "run.yaml")); /* UTF-8 with a BOM */
    assert_false(MSG("a: 1\n\0\0\0\0\0\0\0\0", "run.yaml")); /* zeros after text: binary */
    assert_false(MSG("\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0", "run.yaml"));
    assert_false(MSG("a\0", "run.yaml")); /* too short to tell */
    assert_false(textenc_wide_message(NULL, 0, "f", "a run config", out, sizeof out));
}

/* One rule for a byte order mark (the log reader's): it makes UTF-16 only
 * when UTF-16 text follows. 8-bit text that starts with FF FE is not named
 * UTF-16; a BOM then ASCII in UTF-16 is, and so is a BOM alone. */
static void test_bom_needs_utf16_after(void **state)
{
    (void)state;
    char out[512];
    bool be = true;
    assert_true(textenc_utf16_bom("\xff\xfe" "a\0:\0", 6, &be));
    assert_false(be);
    assert_true(textenc_utf16_bom("\xfe\xff" "\0a\0:", 6, &be));
    assert_true(be);
    assert_true(textenc_utf16_bom("\xff\xfe", 2, &be)); /* nothing after it */
    assert_false(textenc_utf16_bom("\xff\xfe" "a: 1\n", 7, &be));
    assert_false(textenc_utf16_bom("\xfe\xff" "a: 1\n", 7, &be));
    assert_false(textenc_utf16_bom("a\0", 2, &be)); /* no mark */
    assert_false(MSG("\xff\xfe" "device_batch_size: 8\n", "run.yaml"));
    assert_string_equal(out, "");
    assert_false(MSG("\xfe\xff" "{\"a\": 1}\n", "config.json"));
    assert_true(MSG("\xff\xfe" "d\0e\0v\0", "run.yaml"));
    assert_non_null(strstr(out, "UTF-16LE text (with a byte order mark)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_utf16_named_with_iconv),
        cmocka_unit_test(test_not_wide),
        cmocka_unit_test(test_bom_needs_utf16_after),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
