/* Unit tests for lib/runcfg: every alias, YAML and JSON input, exact
 * line:col for malformed input, strict values, --set, and the YAML writer
 * round-tripping through the parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/runcfg.h"

static int parse(struct runcfg *cfg, const char *text, struct oomlab_err *err)
{
    runcfg_init(cfg);
    memset(err, 0, sizeof *err);
    return runcfg_parse(cfg, text, strlen(text), "run.yaml", err);
}

static const char *extra(const struct runcfg *cfg, const char *key)
{
    for (size_t i = 0; i < cfg->n_extra; i++)
        if (strcmp(cfg->extra[i].key, key) == 0) return cfg->extra[i].value;
    return NULL;
}

/* runcfg_knows_nothing: diagnose --config says so instead of a silent
 * generic plan (stranger18); any one known field is enough. */
static void test_knows_nothing(void **state)
{
    (void)state;
    struct runcfg cfg;
    struct oomlab_err err;
    static const char *const nothing[] = {"", "# a comment\n", "lr: 0.001\nepochs: 3\n", "{}"};
    for (size_t i = 0; i < sizeof nothing / sizeof nothing[0]; i++) {
        assert_int_equal(parse(&cfg, nothing[i], &err), 0);
        assert_true(runcfg_knows_nothing(&cfg));
        runcfg_release(&cfg);
    }
    static const char *const some[] = {"bs: 2\n", "cutoff_len: 512\n", "gradient_accumulation_steps: 4\n",
                                       "bf16: true\n", "gradient_checkpointing: false\n"};
    for (size_t i = 0; i < sizeof some / sizeof some[0]; i++) {
        assert_int_equal(parse(&cfg, some[i], &err), 0);
        assert_false(runcfg_knows_nothing(&cfg));
        runcfg_release(&cfg);
    }
}

static void test_every_alias(void **state)
{
    (void)state;
    static const char *const batch[] = {"device_batch_size", "per_device_train_batch_size",
                                        "train_batch_size_per_gpu", "micro_batch_size",
                                        "batch_size", "train_micro_batch_size_per_gpu", "bs"};
    static const char *const seq[] = {"max_seq_len", "seq_len", "seq_length", "max_seq_length",
                                      "block_size", "max_length", "context_length",
                                      "sequence_len", "max_position", "cutoff_len"};
    static const char *const accum[] = {"grad_accum_steps", "gradient_accumulation_steps",
                                        "accumulate_grad_batches", "grad_accum"};
    static const char *const ckpt[] = {"gradient_checkpointing", "grad_ckpt",
                                       "activation_checkpointing", "use_gradient_checkpointing"};
    static const char *const dtype[] = {"dtype", "torch_dtype", "precision", "mixed_precision"};
    struct runcfg cfg;
    struct oomlab_err err;
    char text[128];
    for (size_t i = 0; i < sizeof batch / sizeof batch[0]; i++) {
        snprintf(text, sizeof text, "%s: 8\n", batch[i]);
        assert_int_equal(parse(&cfg, text, &err), 0);
        assert_int_equal(cfg.device_batch_size, 8);
        assert_int_equal(cfg.n_extra, 0);
        runcfg_release(&cfg);
    }
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        snprintf(text, sizeof text, "%s: 2048\n", seq[i]);
        assert_int_equal(parse(&cfg, text, &err), 0);
        assert_int_equal(cfg.max_seq_len, 2048);
        runcfg_release(&cfg);
    }
    for (size_t i = 0; i < sizeof accum / sizeof accum[0]; i++) {
        snprintf(text, sizeof text, "{\"%s\": 4}", accum[i]);
        assert_int_equal(parse(&cfg, text, &err), 0);
        assert_int_equal(cfg.grad_accum, 4);
        runcfg_release(&cfg);
    }
    for (size_t i = 0; i < sizeof ckpt / sizeof ckpt[0]; i++) {
        snprintf(text, sizeof text, "%s: true\n", ckpt[i]);
        assert_int_equal(parse(&cfg, text, &err), 0);
        assert_int_equal(cfg.grad_ckpt, 1);
        runcfg_release(&cfg);
    }
    for (size_t i = 0; i < sizeof dtype / sizeof dtype[0]; i++) {
        snprintf(text, sizeof text, "%s: bf16\n", dtype[i]);
        assert_int_equal(parse(&cfg, text, &err), 0);
        assert_string_equal(cfg.dtype, "bfloat16");
        runcfg_release(&cfg);
    }
    /* A model's size is not the run's sequence length. */
    assert_int_equal(parse(&cfg, "max_position_embeddings: 4096\n", &err), 0);
    assert_int_equal(cfg.max_seq_len, -1);
    assert_string_equal(extra(&cfg, "max_position_embeddings"), "4096");
    runcfg_release(&cfg);
}

static void test_dtype_spellings(void **state)
{
    (void)state;
    static const struct {
        const char *text, *dtype;
    } cases[] = {
        {"precision: bf16-mixed\n", "bfloat16"}, {"precision: 16-mixed\n", "float16"},
        {"precision: 32\n", "float32"},          {"precision: \"32\"\n", "float32"},
        {"precision: 16\n", "float16"},          {"torch_dtype: float32\n", "float32"},
        {"torch_dtype: torch.bfloat16\n", "bfloat16"}, {"dtype: fp16\n", "float16"},
        {"dtype: BF16\n", "bfloat16"},           {"bf16: true\n", "bfloat16"},
        {"fp16: yes\n", "float16"},              {"mixed_precision: bf16\n", "bfloat16"},
        {"mixed_precision: fp16\n", "float16"},  {"mixed_precision: 'no'\n", "float32"},
        {"bf16: false\nfp16: true\n", "float16"}, {"{\"bf16\": true}", "bfloat16"},
        {"bf16: false\n", ""},                   {"dtype: float32\nbf16: true\n", "float32"},
    };
    struct runcfg cfg;
    struct oomlab_err err;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(parse(&cfg, cases[i].text, &err), 0);
        assert_string_equal(cfg.dtype, cases[i].dtype);
        runcfg_release(&cfg);
    }
    /* "auto" says nothing: unknown dtype, the key kept for round trips. */
    assert_int_equal(parse(&cfg, "torch_dtype: auto\n", &err), 0);
    assert_string_equal(cfg.dtype, "");
    assert_string_equal(extra(&cfg, "torch_dtype"), "auto");
    runcfg_release(&cfg);
    assert_int_equal(parse(&cfg, "bf16: maybe\n", &err), -1);
    assert_string_equal(err.msg, "run.yaml:1:7: bf16 expects true or false, got 'maybe'");
}

static void test_booleans(void **state)
{
    (void)state;
    static const struct {
        const char *v;
        int want;
    } cases[] = {{"true", 1}, {"false", 0}, {"yes", 1}, {"no", 0},    {"on", 1},
                 {"off", 0},  {"1", 1},     {"0", 0},   {"True", 1},  {"OFF", 0}};
    struct runcfg cfg;
    struct oomlab_err err;
    char text[64];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(text, sizeof text, "gradient_checkpointing: %s\n", cases[i].v);
        assert_int_equal(parse(&cfg, text, &err), 0);
        assert_int_equal(cfg.grad_ckpt, cases[i].want);
        runcfg_release(&cfg);
    }
    assert_int_equal(parse(&cfg, "grad_ckpt: 2\n", &err), -1);
    assert_string_equal(err.msg, "run.yaml:1:12: grad_ckpt expects true or false, got '2'");
}

static void test_nested_first_wins_and_extras(void **state)
{
    (void)state;
    struct runcfg cfg;
    struct oomlab_err err;
    const char *text = "# HF-style run\n"
                       "model:\n"
                       "  name: llama-3-8b\n"
                       "  max_position_embeddings: 8192\n"
                       "training:\n"
                       "  per_device_train_batch_size: 8\n"
                       "  gradient_accumulation_steps: 2\n"
                       "  lr: 3.0e-4\n"
                       "  bf16: true\n"
                       "  callbacks: [{batch_size: 99}]\n"
                       "eval:\n"
                       "  batch_size: 64\n"
                       "max_seq_len: 4096\n";
    assert_int_equal(parse(&cfg, text, &err), 0);
    assert_int_equal(cfg.device_batch_size, 8);
    assert_int_equal(cfg.grad_accum, 2);
    assert_int_equal(cfg.max_seq_len, 4096);
    assert_string_equal(cfg.dtype, "bfloat16");
    assert_int_equal(cfg.grad_ckpt, -1);
    assert_int_equal(runcfg_effective_batch(&cfg), 16);
    assert_string_equal(extra(&cfg, "model.name"), "llama-3-8b");
    assert_string_equal(extra(&cfg, "model.max_position_embeddings"), "8192");
    assert_string_equal(extra(&cfg, "training.lr"), "3.0e-4");
    assert_string_equal(extra(&cfg, "eval.batch_size"), "64"); /* a later alias: kept */
    assert_null(extra(&cfg, "training.callbacks"));            /* sequences are not searched */
    assert_int_equal(cfg.n_extra, 4);
    assert_string_equal(cfg.extra[0].key, "model.name"); /* document order */
    runcfg_release(&cfg);
}

static void test_json(void **state)
{
    (void)state;
    struct runcfg cfg;
    struct oomlab_err err;
    const char *text = "\n  {\"per_device_train_batch_size\": 4, \"learning_rate\": NaN,\n"
                       "   \"seed\": 9007199254740993, \"max_grad\": Infinity, \"neg\": -Infinity,\n"
                       "   \"torch_dtype\": \"bfloat16\", \"max_length\": 1024,\n"
                       "   \"deepspeed\": {\"train_micro_batch_size_per_gpu\": 2,\n"
                       "                 \"gradient_accumulation_steps\": 8},\n"
                       "   \"note\": null, \"tags\": [\"a\"], \"gradient_checkpointing\": false}";
    assert_int_equal(parse(&cfg, text, &err), 0);
    assert_int_equal(cfg.device_batch_size, 4); /* first wins over deepspeed's 2 */
    assert_int_equal(cfg.grad_accum, 8);
    assert_int_equal(cfg.max_seq_len, 1024);
    assert_string_equal(cfg.dtype, "bfloat16");
    assert_int_equal(cfg.grad_ckpt, 0);
    assert_string_equal(extra(&cfg, "learning_rate"), "NaN");
    assert_string_equal(extra(&cfg, "seed"), "9007199254740993");
    assert_string_equal(extra(&cfg, "max_grad"), "Infinity");
    assert_string_equal(extra(&cfg, "neg"), "-Infinity");
    assert_string_equal(extra(&cfg, "deepspeed.train_micro_batch_size_per_gpu"), "2");
    assert_string_equal(extra(&cfg, "note"), "null");
    assert_null(extra(&cfg, "tags"));
    runcfg_release(&cfg);
    /* A YAML flow mapping starts with '{' too. */
    assert_int_equal(parse(&cfg, "{bs: 2, seq_len: 128}", &err), 0);
    assert_int_equal(cfg.device_batch_size, 2);
    assert_int_equal(cfg.max_seq_len, 128);
    runcfg_release(&cfg);
}

static void expect_error(const char *text, const char *msg)
{
    struct runcfg cfg;
    struct oomlab_err err;
    assert_int_equal(parse(&cfg, text, &err), -1);
    assert_string_equal(err.msg, msg);
    /* Nothing half-parsed is left behind. */
    assert_int_equal(cfg.device_batch_size, -1);
    assert_int_equal(cfg.n_extra, 0);
    runcfg_release(&cfg);
}

static void test_malformed_input(void **state)
{
    (void)state;
    expect_error("a: 1\nb: [1, 2\nc: 3\n",
                 "run.yaml:3:2: did not find expected ',' or ']' while parsing a flow sequence");
    expect_error("key: value\n  bad: indent\n",
                 "run.yaml:2:6: mapping values are not allowed in this context");
    expect_error("batch_size: 8\n\tlr: 1\n",
                 "run.yaml:2:1: found a tab character that violates indentation while scanning "
                 "a plain scalar");
    expect_error("{\"a\": 1,\n \"b\": }", "run.yaml:2:7: invalid JSON: unexpected character");
    expect_error("{\n  \"a\": [1,\n  2,,]\n}", "run.yaml:3:5: invalid JSON: unexpected character");
    expect_error("{\"a\": tru}", "run.yaml:1:10: invalid JSON: boolean expected");
    expect_error("{\"bs\": 1", "run.yaml:1:9: invalid JSON: unexpected end of JSON input");
    expect_error("{\"bs\": 1} x",
                 "run.yaml:1:11: invalid JSON: unexpected text after the top-level object");
    expect_error("- a\n- b\n", "run.yaml:1:1: a run config must be a mapping of keys to values");
    expect_error("just text\n", "run.yaml:1:1: a run config must be a mapping of keys to values");
    struct runcfg cfg;
    struct oomlab_err err;
    assert_int_equal(parse(&cfg, "", &err), 0); /* empty: nothing known */
    assert_int_equal(cfg.device_batch_size, -1);
    runcfg_release(&cfg);
    assert_int_equal(parse(&cfg, "# only a comment\n", &err), 0);
    runcfg_release(&cfg);
    runcfg_init(&cfg);
    assert_int_equal(runcfg_parse(&cfg, "bs: 2\nlr: 1\0x\n", 12, "run.yaml", &err), -1);
    assert_string_equal(err.msg, "run.yaml:2:6: binary data (a NUL byte) in a config");
    runcfg_release(&cfg);
}

/* Found by fuzz_runcfg (-timeout=10): JSON positions were found by
 * searching every key from the last one and counting lines from the start,
 * O(keys x bytes): 80 KiB of keys took a minute under ASan. Only alias-table
 * keys are looked for now, as keys (a ':' follows), counting on. */
static void test_json_positions_linear(void **state)
{
    (void)state;
    /* the key's name as a value before it: the position is still the key's */
    expect_error("{\"x\": \"bs\",\n \"bs\": 1.5}", "run.yaml:2:8: bs expects a whole number, got '1.5'");
    /* an escaped spelling of a key is never found as text: no position */
    expect_error("{\"b\\u0073\": 0}", "run.yaml: bs must be at least 1, got 0");
    size_t keys = 100000, cap = keys * 24 + 64, n = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    text[n++] = '{';
    for (size_t i = 0; i < keys; i++)
        n += (size_t)snprintf(text + n, cap - n, "\"k%zu\": %zu,\n", i, i);
    n += (size_t)snprintf(text + n, cap - n, "\"bs\": 0}");
    struct runcfg cfg;
    struct oomlab_err err = {{0}};
    runcfg_init(&cfg);
    alarm(20); /* the old search takes hours: fail instead of hanging */
    assert_int_equal(runcfg_parse(&cfg, text, n, "run.yaml", &err), -1);
    alarm(0);
    assert_string_equal(err.msg, "run.yaml:100001:7: bs must be at least 1, got 0");
    runcfg_release(&cfg);
    free(text);
}

static void test_absurd_values(void **state)
{
    (void)state;
    expect_error("batch_size: 4294967296\n",
                 "run.yaml:1:13: batch_size value 4294967296 is absurd (2^31 or more)");
    expect_error("batch_size: 2147483648\n",
                 "run.yaml:1:13: batch_size value 2147483648 is absurd (2^31 or more)");
    expect_error("batch_size: 8x\n", "run.yaml:1:13: batch_size expects a whole number, got '8x'");
    expect_error("batch_size: -1\n", "run.yaml:1:13: batch_size must be at least 1, got '-1'");
    expect_error("training:\n  micro_batch_size: 0\n",
                 "run.yaml:2:21: micro_batch_size must be at least 1, got 0");
    expect_error("seq_len: 1.5\n", "run.yaml:1:10: seq_len expects a whole number, got '1.5'");
    expect_error("grad_accum: ''\n",
                 "run.yaml:1:13: grad_accum expects a whole number, got an empty value");
    expect_error("{\"batch_size\": 2.5}",
                 "run.yaml:1:16: batch_size expects a whole number, got '2.5'");
    expect_error("{\n  \"seq_len\": 0\n}", "run.yaml:2:14: seq_len must be at least 1, got 0");
    expect_error("{\"bs\": 99999999999999999999}",
                 "run.yaml:1:8: bs value 18446744073709551615 is absurd (2^31 or more)");
    struct runcfg cfg;
    struct oomlab_err err;
    assert_int_equal(parse(&cfg, "batch_size: 2147483647\nbs: ~\n", &err), 0);
    assert_int_equal(cfg.device_batch_size, 2147483647);
    runcfg_release(&cfg);
    assert_int_equal(parse(&cfg, "batch_size: null\nbs: 3\n", &err), 0); /* null: unknown */
    assert_int_equal(cfg.device_batch_size, 3);
    runcfg_release(&cfg);
}

static long batch_of(const char *text)
{
    struct runcfg cfg;
    struct oomlab_err err;
    assert_int_equal(parse(&cfg, text, &err), 0);
    long b = cfg.device_batch_size;
    runcfg_release(&cfg);
    return b;
}

/* What the training script's yaml.safe_load reads (PyYAML 6.0, YAML 1.1),
 * not a decimal reading of the digits: python3 -c 'import yaml;
 * print(yaml.safe_load("b: 010"))' gives {'b': 8}. */
/* One document: a second is refused where it starts (PyYAML's safe_load
 * refuses it too); "..." or a leading "---" around one document is fine. */
static void test_yaml_one_document(void **state)
{
    (void)state;
    struct runcfg cfg;
    struct oomlab_err err;
    assert_int_equal(parse(&cfg, "batch_size: 8\n---\nbatch_size: 16\n", &err), -1);
    assert_string_equal(err.msg, "run.yaml:2:1: a second YAML document starts here: a run config "
                                 "is one document; keep the one the run uses (PyYAML's safe_load "
                                 "refuses this too)");
    runcfg_release(&cfg);
    assert_int_equal(parse(&cfg, "batch_size: 8\n---\n", &err), -1);
    runcfg_release(&cfg);
    assert_int_equal(batch_of("device_batch_size: 8\n...\n"), 8);
    assert_int_equal(batch_of("---\ndevice_batch_size: 8\n"), 8);
}

/* runcfg_is_model_config: a Hugging Face model's config.json names its
 * model_type and its size, and no batch or sequence of a run; each half
 * alone, or with a run's batch, is a run config. */
static bool model_config(const char *text)
{
    struct runcfg cfg;
    struct oomlab_err err;
    assert_int_equal(parse(&cfg, text, &err), 0);
    bool is = runcfg_is_model_config(&cfg);
    runcfg_release(&cfg);
    return is;
}

static void test_is_model_config(void **state)
{
    (void)state;
    assert_true(model_config("model_type: llama\nhidden_size: 4096\ntorch_dtype: bfloat16\n"));
    assert_true(model_config("model_type: gpt2\nnum_hidden_layers: 12\n"));
    assert_false(model_config("model_type: llama\ntorch_dtype: bfloat16\nlr: 0.001\n"));
    assert_false(model_config("hidden_size: 4096\nnum_hidden_layers: 32\n"));
    assert_false(model_config("model_type: llama\nhidden_size: 4096\ndevice_batch_size: 8\n"));
    assert_false(model_config("model_type: llama\nhidden_size: 4096\nmax_seq_len: 2048\n"));
}

static void test_yaml_ints_as_pyyaml(void **state)
{
    (void)state;
    assert_int_equal(batch_of("device_batch_size: 010\n"), 8);
    assert_int_equal(batch_of("device_batch_size: +8\n"), 8);
    assert_int_equal(batch_of("device_batch_size: 1_000\n"), 1000);
    assert_int_equal(batch_of("device_batch_size: 0x1F\n"), 31);
    assert_int_equal(batch_of("device_batch_size: 0b101\n"), 5);
    assert_int_equal(batch_of("device_batch_size: 1:30\n"), 90);
    assert_int_equal(batch_of("device_batch_size: 0_10\n"), 8);
    assert_int_equal(batch_of("device_batch_size: 10_\n"), 10);
    /* Quoted: a string to PyYAML; int("010") in the script is 10. */
    assert_int_equal(batch_of("device_batch_size: \"010\"\n"), 10);
    assert_int_equal(batch_of("{\"device_batch_size\": 10}"), 10);
    expect_error("device_batch_size: 08\n",
                 "run.yaml:1:20: device_batch_size expects a whole number, got '08' (YAML reads a "
                 "leading 0 as octal and this is no octal number: PyYAML gives the string '08')");
    expect_error("device_batch_size: 0o17\n",
                 "run.yaml:1:20: device_batch_size expects a whole number, got '0o17'");
    expect_error("device_batch_size: 1:60\n",
                 "run.yaml:1:20: device_batch_size expects a whole number, got '1:60'");
    expect_error("device_batch_size: -010\n",
                 "run.yaml:1:20: device_batch_size must be at least 1, got '-010'");
    expect_error("device_batch_size: 0x80000000\n",
                 "run.yaml:1:20: device_batch_size value 0x80000000 is absurd (2^31 or more)");
    expect_error("device_batch_size: _8\n",
                 "run.yaml:1:20: device_batch_size expects a whole number, got '_8'");
}

/* A list or mapping where one value is expected was recorded as empty. */
static void test_collection_for_a_scalar_refused(void **state)
{
    (void)state;
    expect_error("device_batch_size: [8, 16]\n",
                 "run.yaml:1:20: device_batch_size expects a single value, got a list");
    expect_error("train:\n  bs:\n    - 8\n",
                 "run.yaml:3:5: bs expects a single value, got a list");
    expect_error("seq_len: {train: 512}\n",
                 "run.yaml:1:10: seq_len expects a single value, got a mapping");
    /* A later alias of a field already set is kept as it was (an extra). */
    assert_int_equal(batch_of("bs: 4\nbatch_size: [8, 16]\n"), 4);
}

static void test_set(void **state)
{
    (void)state;
    struct runcfg cfg;
    struct oomlab_err err = {{0}};
    runcfg_init(&cfg);
    assert_int_equal(runcfg_parse(&cfg, "batch_size: 8\nlr: 0.1\n", 22, "r.yaml", &err), 0);
    assert_int_equal(runcfg_set(&cfg, "device_batch_size=4", &err), 0);
    assert_int_equal(cfg.device_batch_size, 4);
    assert_int_equal(runcfg_set(&cfg, "gradient_accumulation_steps=4", &err), 0);
    assert_int_equal(runcfg_effective_batch(&cfg), 16);
    assert_int_equal(runcfg_set(&cfg, "bf16=true", &err), 0);
    assert_string_equal(cfg.dtype, "bfloat16");
    assert_int_equal(runcfg_set(&cfg, "bf16=false", &err), 0);
    assert_string_equal(cfg.dtype, "");
    assert_int_equal(runcfg_set(&cfg, " precision = 16-mixed ", &err), 0);
    assert_string_equal(cfg.dtype, "float16");
    assert_int_equal(runcfg_set(&cfg, "gradient_checkpointing=on", &err), 0);
    assert_int_equal(cfg.grad_ckpt, 1);
    assert_int_equal(runcfg_set(&cfg, "lr=3e-4", &err), 0); /* replaces the extra */
    assert_int_equal(runcfg_set(&cfg, "warmup=100", &err), 0);
    assert_string_equal(extra(&cfg, "lr"), "3e-4");
    assert_int_equal(cfg.n_extra, 2);
    assert_int_equal(runcfg_set(&cfg, "batch_size=8x", &err), -1);
    assert_string_equal(err.msg, "--set batch_size: batch_size expects a whole number, got '8x'");
    assert_int_equal(cfg.device_batch_size, 4);
    assert_int_equal(runcfg_set(&cfg, "bs=0", &err), -1);
    assert_int_equal(runcfg_set(&cfg, "noequals", &err), -1);
    assert_string_equal(err.msg, "--set expects key=value, got 'noequals'");
    assert_int_equal(runcfg_set(&cfg, "=5", &err), -1);
    runcfg_release(&cfg);
}

static void test_effective_batch(void **state)
{
    (void)state;
    struct runcfg cfg;
    runcfg_init(&cfg);
    assert_int_equal(runcfg_effective_batch(&cfg), -1);
    cfg.device_batch_size = 8;
    assert_int_equal(runcfg_effective_batch(&cfg), 8); /* accum unknown: 1 */
    cfg.grad_accum = 3;
    assert_int_equal(runcfg_effective_batch(&cfg), 24);
    cfg.device_batch_size = LONG_MAX / 2;
    assert_int_equal(runcfg_effective_batch(&cfg), -1);
    runcfg_release(&cfg);
}

static void test_to_yaml_round_trip(void **state)
{
    (void)state;
    struct runcfg cfg, back;
    struct oomlab_err err = {{0}};
    runcfg_init(&cfg);
    const char *text = "gradient_checkpointing: yes\n"
                       "name: \"my run #1\"\n"
                       "dtype: bf16-mixed\n"
                       "note: \"a: b\"\n"
                       "empty: ''\n"
                       "dash: '- x'\n"
                       "neg: -1\n"
                       "quote: 'say \"hi\"'\n"
                       "tab: \"a\\tb\"\n"
                       "max_length: 512\n"
                       "bs: 4\n"
                       "accumulate_grad_batches: 8\n";
    assert_int_equal(runcfg_parse(&cfg, text, strlen(text), "r.yaml", &err), 0);
    char *yaml = runcfg_to_yaml(&cfg);
    assert_non_null(yaml);
    assert_string_equal(yaml, "device_batch_size: 4\n"
                              "max_seq_len: 512\n"
                              "grad_accum_steps: 8\n"
                              "dtype: bfloat16\n"
                              "gradient_checkpointing: true\n"
                              "name: \"my run #1\"\n"
                              "note: \"a: b\"\n"
                              "empty: \"\"\n"
                              "dash: \"- x\"\n"
                              "neg: -1\n"
                              "quote: say \"hi\"\n"
                              "tab: \"a\\x09b\"\n");
    runcfg_init(&back);
    assert_int_equal(runcfg_parse(&back, yaml, strlen(yaml), "back.yaml", &err), 0);
    assert_int_equal(back.device_batch_size, cfg.device_batch_size);
    assert_int_equal(back.max_seq_len, cfg.max_seq_len);
    assert_int_equal(back.grad_accum, cfg.grad_accum);
    assert_int_equal(back.grad_ckpt, cfg.grad_ckpt);
    assert_string_equal(back.dtype, cfg.dtype);
    assert_int_equal(back.n_extra, cfg.n_extra);
    for (size_t i = 0; i < cfg.n_extra; i++) {
        assert_string_equal(back.extra[i].key, cfg.extra[i].key);
        assert_string_equal(back.extra[i].value, cfg.extra[i].value);
    }
    char *again = runcfg_to_yaml(&back);
    assert_string_equal(again, yaml);
    free(again);
    free(yaml);
    runcfg_release(&back);
    runcfg_release(&cfg);
    runcfg_init(&cfg);
    yaml = runcfg_to_yaml(&cfg);
    assert_string_equal(yaml, "");
    free(yaml);
}

/* Found by fuzzing: JSON lets bytes that are not UTF-8 through; the YAML
 * written must still parse (they become U+FFFD), and real Unicode stays. */
static void test_to_yaml_unicode(void **state)
{
    (void)state;
    struct runcfg cfg, back;
    struct oomlab_err err = {{0}};
    const char *json = "{\"na\x89me\": \"caf\xc3\xa9 \xe6\x97\xa5\", \"bs\": 2, \"c1\": \"\xc2\x80\"}";
    runcfg_init(&cfg);
    assert_int_equal(runcfg_parse(&cfg, json, strlen(json), "hf.json", &err), 0);
    char *yaml = runcfg_to_yaml(&cfg);
    assert_string_equal(yaml, "device_batch_size: 2\n"
                              "\"na\\U0000fffdme\": \"caf\xc3\xa9 \xe6\x97\xa5\"\n"
                              "c1: \"\\U00000080\"\n");
    runcfg_init(&back);
    assert_int_equal(runcfg_parse(&back, yaml, strlen(yaml), "back.yaml", &err), 0);
    assert_string_equal(back.extra[0].key, "na\xef\xbf\xbdme");
    assert_string_equal(back.extra[0].value, "caf\xc3\xa9 \xe6\x97\xa5");
    assert_string_equal(back.extra[1].value, "\xc2\x80");
    free(yaml);
    runcfg_release(&back);
    runcfg_release(&cfg);
    /* Found by fuzzing: YAML's line breaks NEL/LS/PS inside a value must be
     * escaped, or the reader folds them. */
    const char *breaks = "{\"a\": \"x\\u0085y\\u2028z\", \"b\": 1}";
    runcfg_init(&cfg);
    assert_int_equal(runcfg_parse(&cfg, breaks, strlen(breaks), "b.json", &err), 0);
    yaml = runcfg_to_yaml(&cfg);
    assert_string_equal(yaml, "a: \"x\\U00000085y\\U00002028z\"\nb: 1\n");
    runcfg_init(&back);
    assert_int_equal(runcfg_parse(&back, yaml, strlen(yaml), "back.yaml", &err), 0);
    assert_string_equal(back.extra[0].value, "x\xc2\x85y\xe2\x80\xa8z");
    assert_string_equal(back.extra[1].value, "1");
    free(yaml);
    runcfg_release(&back);
    runcfg_release(&cfg);
    /* Found by fuzzing: a key longer than libyaml's 1024-character limit
     * for implicit keys must still be written as YAML that parses. */
    char long_json[3000], key[2001];
    memset(key, 'k', 2000);
    key[2000] = '\0';
    snprintf(long_json, sizeof long_json, "{\"%s\": 1, \"bs\": 4}", key);
    runcfg_init(&cfg);
    assert_int_equal(runcfg_parse(&cfg, long_json, strlen(long_json), "hf.json", &err), 0);
    yaml = runcfg_to_yaml(&cfg);
    runcfg_init(&back);
    assert_int_equal(runcfg_parse(&back, yaml, strlen(yaml), "back.yaml", &err), 0);
    assert_int_equal(back.device_batch_size, 4);
    assert_string_equal(back.extra[0].key, key);
    assert_string_equal(back.extra[0].value, "1");
    free(yaml);
    runcfg_release(&back);
    runcfg_release(&cfg);
}


/* ---- runcfg_render: the user's own schema (issue 10, issue 11) ---- */

static char *render(const char *orig, const char *header, char **sets, size_t n,
                    struct runcfg_rendered *r)
{
    struct oomlab_err err = {{0}};
    int rc = runcfg_render(orig, orig ? strlen(orig) : 0, "cfg.yaml", header, sets, n, r, &err);
    if (rc != 0) fprintf(stderr, "render: %s\n", err.msg);
    assert_int_equal(rc, 0);
    return r->text;
}

/* The generated text always parses back (libyaml through runcfg_parse). */
static void parses_back(const char *text, struct runcfg *cfg)
{
    struct oomlab_err err = {{0}};
    runcfg_init(cfg);
    int rc = runcfg_parse(cfg, text, strlen(text), "generated", &err);
    if (rc != 0) fprintf(stderr, "parse back: %s\n--\n%s--\n", err.msg, text);
    assert_int_equal(rc, 0);
}

/* A base-60 int in a flow mapping ("{\"seq_len\": 5:04}": YAML 1.1 reads
 * 304, PyYAML too) stays an int in the rendered config: libyaml's emitter
 * quotes a plain scalar with ':' in flow context, and '5:04' is a string
 * the parse back refused ("seq_len expects a whole number"). fuzz_runcfg
 * found it (fuzz23). A block one, and a string with ':', keep their
 * meaning too. */
static void test_render_base60_int_in_flow(void **state)
{
    (void)state;
    struct runcfg_rendered r;
    struct runcfg cfg;
    char *sets[] = {"device_batch_size=4"};
    const char *text = render("train: {\"seq_len\": 5:04, \"note\": a:b}\n", NULL, sets, 1, &r);
    parses_back(text, &cfg);
    assert_int_equal(cfg.max_seq_len, 304);
    assert_int_equal(cfg.device_batch_size, 4);
    runcfg_release(&cfg);
    runcfg_rendered_release(&r);
    text = render("seq_len: 1:30\n", NULL, sets, 1, &r);
    parses_back(text, &cfg);
    assert_int_equal(cfg.max_seq_len, 90);
    runcfg_release(&cfg);
    runcfg_rendered_release(&r);
}

static void test_render_keeps_the_users_schema(void **state)
{
    (void)state;
    const char *orig = "# mine\nmodel:\n  name: gpt2\ntraining:\n  per_device_train_batch_size: 8\n"
                       "  learning_rate: 3.0e-4\n  bf16: true\ntags: [a, b]\n";
    char *sets[] = {"training.per_device_train_batch_size=4", "gradient_accumulation_steps=2",
                    "model.name=gpt2-xl", "optim.betas=0.9"};
    struct runcfg_rendered r;
    const char *text = render(orig, "oomlab run: cfg.yaml", sets, 4, &r);
    assert_string_equal(text, "# oomlab run: cfg.yaml\n"
                              "model:\n  name: gpt2-xl\n"
                              "training:\n  per_device_train_batch_size: 4\n  learning_rate: 3.0e-4\n"
                              "  bf16: true\n"
                              "tags: [a, b]\n"
                              "gradient_accumulation_steps: 2\n"
                              "optim:\n  betas: 0.9\n");
    assert_string_equal(r.target[0], "training.per_device_train_batch_size");
    assert_false(r.unknown[0]);
    assert_false(r.unknown[1]); /* an alias oomlab reads */
    assert_true(r.unknown[3]);
    struct runcfg cfg;
    parses_back(text, &cfg);
    assert_int_equal(cfg.device_batch_size, 4);
    assert_int_equal(cfg.grad_accum, 2);
    assert_string_equal(cfg.dtype, "bfloat16");
    runcfg_release(&cfg);
    runcfg_rendered_release(&r);
}

/* --set device_batch_size lands on the config's own key for that column. */
static void test_render_alias_lands_on_the_configs_key(void **state)
{
    (void)state;
    const char *orig = "training:\n  per_device_train_batch_size: 8\n  learning_rate: 0.1\n";
    char *sets[] = {"device_batch_size=2", "learning_rat=1", "learning_rate=0.2"};
    struct runcfg_rendered r;
    const char *text = render(orig, NULL, sets, 3, &r);
    assert_string_equal(r.target[0], "training.per_device_train_batch_size");
    assert_string_equal(r.target[2], "training.learning_rate"); /* a bare key found by name */
    assert_true(r.unknown[1]);
    assert_string_equal(r.suggestion[1], "learning_rate");
    assert_non_null(strstr(text, "  per_device_train_batch_size: 2\n"));
    assert_non_null(strstr(text, "  learning_rate: 0.2\n"));
    assert_null(strstr(text, "device_batch_size: 2\n") == text ? text : NULL);
    runcfg_rendered_release(&r);
    /* a key as short as the distance is no typo: 'x' got "did you mean 'bs'?" */
    char *short_sets[] = {"x=1", "bz=2"};
    render(orig, NULL, short_sets, 2, &r);
    assert_true(r.unknown[0]);
    assert_string_equal(r.suggestion[0], "");
    assert_string_equal(r.suggestion[1], "bs"); /* one letter off a two-letter key still is */
    runcfg_rendered_release(&r);
    /* keys are case-sensitive: Learning_Rate is unknown, and learning_rate
     * (0 edits away case-blind) its did-you-mean, once got none */
    char *case_sets[] = {"Learning_Rate=1", "LEARNING_RATE=2"};
    render(orig, NULL, case_sets, 2, &r);
    assert_true(r.unknown[0]);
    assert_string_equal(r.suggestion[0], "learning_rate");
    assert_string_equal(r.suggestion[1], "learning_rate");
    runcfg_rendered_release(&r);
    /* `oomlab table`'s headers typed as keys (stranger17: --set batch=16 was
     * "added as written" and the table's batch column stayed empty) */
    char *header_sets[] = {"batch=16", "seq=512", "accum=2", "ckpt=true", "data.batch=4"};
    render(orig, NULL, header_sets, 5, &r);
    assert_string_equal(r.suggestion[0], "device_batch_size");
    assert_string_equal(r.suggestion[1], "max_seq_len");
    assert_string_equal(r.suggestion[2], "grad_accum");
    assert_string_equal(r.suggestion[3], "gradient_checkpointing");
    assert_string_equal(r.suggestion[4], ""); /* a dotted path names its own key */
    runcfg_rendered_release(&r);
}

/* --set device_batch_size=4 on text lands on target, and the rendered
 * config parses back with a batch of 4. */
static void expect_batch_set(const char *text, const char *target)
{
    char *sets[] = {"device_batch_size=4"};
    struct runcfg_rendered r;
    const char *out = render(text, NULL, sets, 1, &r);
    assert_string_equal(r.target[0], target);
    struct runcfg cfg;
    parses_back(out, &cfg);
    assert_int_equal(cfg.device_batch_size, 4);
    runcfg_release(&cfg);
    runcfg_rendered_release(&r);
}

/* A ledger column set by a bare name lands on the key the ledger reads (the
 * first in document order), whatever key spells it; a mapping reached
 * through an alias (*a) or under a non-scalar key is not read, so not set. */
static void test_render_sets_what_the_ledger_reads(void **state)
{
    (void)state;
    const char *cases[][3] = {
        {"bs: 3\ntrain:\n  device_batch_size: 5\n", "bs", "yaml"},
        {"bs: 3\ndevice_batch_size: 5\n", "bs", "yaml"},
        {"{\"bs\": 3, \"train\": {\"device_batch_size\": 5}}", "bs", "json"},
        {"? {k: 1}\n: &a {bs: 3}\ny: *a\n", "device_batch_size", "alias"},
        {"base: &a {bs: 3}\ny: *a\n", "base.bs", "anchor"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) expect_batch_set(cases[i][0], cases[i][1]);
}

/* Found by fuzz_runcfg: render met keys the parser never reads, or missed
 * one it does. A key that is an alias (*k) has a value the parser skips; a
 * key nested past render's old 32 levels (the parser reads 64) was missed,
 * and a mapping anchored that deep in a list was then met through its alias
 * as if it were read. Each config's batch must come back 4. */
static void test_render_deep_and_alias_keys(void **state)
{
    (void)state;
    char deep_yaml[2048] = "", deep_json[1024] = "", deep_anchor[256] = "s: ", deep_path[512] = "";
    for (int i = 0; i < 40; i++) {
        size_t n = strlen(deep_yaml);
        snprintf(deep_yaml + n, sizeof deep_yaml - n, "%*sk:\n", i, "");
        n = strlen(deep_json);
        snprintf(deep_json + n, sizeof deep_json - n, "{\"k\": ");
        n = strlen(deep_path);
        snprintf(deep_path + n, sizeof deep_path - n, "k.");
    }
    size_t n = strlen(deep_yaml);
    snprintf(deep_yaml + n, sizeof deep_yaml - n, "%*sbs: 3\n", 40, "");
    strcat(deep_json, "{\"bs\": 3}");
    for (int i = 0; i < 40; i++) strcat(deep_json, "}");
    strcat(deep_path, "bs");
    for (int i = 0; i < 36; i++) strcat(deep_anchor, "[");
    strcat(deep_anchor, "&a {bs: 3}");
    for (int i = 0; i < 36; i++) strcat(deep_anchor, "]");
    strcat(deep_anchor, "\nx: *a\n");
    const char *cases[][2] = {
        {"n: &k x\n*k : {bs: 3}\n", "device_batch_size"},
        {deep_yaml, deep_path},
        {deep_json, deep_path},
        {deep_anchor, "device_batch_size"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) expect_batch_set(cases[i][0], cases[i][1]);
}

/* Found by fuzz_runcfg: the did-you-mean for an unknown --set key walked
 * every path through aliased mappings, 2^30 of them for 30 lines of
 * "lN: &lN {aa: *lM, bb: *lM}"; each mapping is now visited once. */
static void test_render_suggest_through_aliases_is_linear(void **state)
{
    (void)state;
    char text[2048] = "l0: &l0 {aa: 1, bb: 2}\n";
    for (int i = 1; i < 30; i++) {
        size_t n = strlen(text);
        snprintf(text + n, sizeof text - n, "l%d: &l%d {aa: *l%d, bb: *l%d}\n", i, i, i - 1, i - 1);
    }
    char *sets[] = {"a.b.c=1"};
    struct runcfg_rendered r;
    alarm(20); /* the old walk takes hours: fail instead of hanging */
    render(text, NULL, sets, 1, &r);
    alarm(0);
    assert_true(r.unknown[0]);
    runcfg_rendered_release(&r);
}

/* A JSON config saved with a UTF-8 BOM (Windows editors) was refused
 * ("1:1: invalid JSON") though render read it; and a YAML flow mapping
 * with a comment after it was rendered as JSON. Both now decided as
 * runcfg_parse decides. */
static void test_bom_json_and_flow_yaml_with_comment(void **state)
{
    (void)state;
    struct runcfg cfg;
    struct oomlab_err err;
    assert_int_equal(parse(&cfg, "\xef\xbb\xbf{\"bs\": 3}\n", &err), 0);
    assert_int_equal(cfg.device_batch_size, 3);
    runcfg_release(&cfg);
    char *sets[] = {"device_batch_size=4"};
    struct runcfg_rendered r;
    const char *text = render("{'bs': 1} # note\n", NULL, sets, 1, &r);
    assert_false(r.json);
    parses_back(text, &cfg);
    assert_int_equal(cfg.device_batch_size, 4);
    runcfg_release(&cfg);
    runcfg_rendered_release(&r);
}

static void test_render_json_stays_json(void **state)
{
    (void)state;
    const char *orig = "{\"train\": {\"batch_size\": 8, \"name\": \"a/b\"}, \"seq_len\": 512, \"lr\": 1e-4}";
    char *sets[] = {"batch_size=16", "train.name=x", "seq_len=1024", "new.key=true"};
    struct runcfg_rendered r;
    const char *text = render(orig, "ignored", sets, 4, &r);
    assert_true(r.json);
    assert_string_equal(text, "{\n  \"train\":{\n    \"batch_size\":16,\n    \"name\":\"x\"\n  },\n"
                              "  \"seq_len\":1024,\n  \"lr\":1e-4,\n  \"new\":{\n    \"key\":true\n  }\n}\n");
    struct runcfg cfg;
    parses_back(text, &cfg);
    assert_int_equal(cfg.device_batch_size, 16);
    assert_int_equal(cfg.max_seq_len, 1024);
    runcfg_release(&cfg);
    runcfg_rendered_release(&r);
}

/* issue 11: a header or a value with line breaks of any kind, control
 * characters or bytes that are not UTF-8 never breaks the YAML, and a
 * CR-only --config is not revived. */
static void test_render_always_parses_back(void **state)
{
    (void)state;
    static const char *const hostile[] = {
        "a\nbatch_size: 999", "a\rbatch_size: 999", "a\xc2\x85" "batch_size: 999",
        "a\xe2\x80\xa8" "batch_size: 999", "bad \xff\xfe bytes", "tab\there \x01\x7f",
        "\xef\xbb\xbf" "bom", "# not: a key", "'\"quotes\"'", "trailing\\",
    };
    for (size_t i = 0; i < sizeof hostile / sizeof *hostile; i++) {
        char set[128];
        snprintf(set, sizeof set, "note=%s", hostile[i]);
        char *sets[] = {set, "device_batch_size=4"};
        struct runcfg_rendered r;
        char header[160];
        snprintf(header, sizeof header, "oomlab run: x.yaml with --set %s", hostile[i]);
        const char *orig = "device_batch_size: 8\r# old: 1\rmax_seq_len: 64\r";
        if (strstr(hostile[i], "\xff")) { /* not UTF-8: refused, with a message */
            struct oomlab_err err = {{0}};
            assert_int_equal(runcfg_render(orig, strlen(orig), "x", header, sets, 2, &r, &err), -1);
            assert_non_null(strstr(err.msg, "not UTF-8"));
            char *only[] = {"device_batch_size=4"}; /* the header alone is cleaned */
            render(orig, header, only, 1, &r);
            assert_non_null(strstr(r.text, "bad ?? bytes"));
            runcfg_rendered_release(&r);
            continue;
        }
        const char *text = render(orig, header, sets, 2, &r);
        struct runcfg cfg;
        parses_back(text, &cfg);
        assert_int_equal(cfg.device_batch_size, 4); /* never the 999 from a comment */
        assert_int_equal(cfg.max_seq_len, 64);
        size_t comment_lines = 0;
        for (const char *p = text; *p == '#'; p = strchr(p, '\n') + 1) comment_lines++;
        assert_int_equal(comment_lines, 1);
        runcfg_release(&cfg);
        runcfg_rendered_release(&r);
    }
    /* a surrogate or a 3-byte overlong in the header (a --config path) is not
     * UTF-8 either: cleaned; written raw, it failed run's own read-back
     * ("the generated config:1:1: invalid Unicode character") */
    char *only[] = {"device_batch_size=4"};
    struct runcfg_rendered r;
    render("device_batch_size: 8\n", "oomlab run: c\xed\xa0\x80.yaml \xe0\x80\x80 with --set", only,
           1, &r);
    assert_non_null(strstr(r.text, "# oomlab run: c???.yaml ??? with --set\n"));
    runcfg_rendered_release(&r);
}

static void test_render_without_config_and_errors(void **state)
{
    (void)state;
    char *sets[] = {"training.bs=4", "dtype=bf16"};
    struct runcfg_rendered r;
    const char *text = render(NULL, "h", sets, 2, &r);
    assert_string_equal(text, "# h\ntraining:\n  bs: 4\ndtype: bf16\n");
    runcfg_rendered_release(&r);
    struct oomlab_err err = {{0}};
    char *bad[] = {"training=4"};
    assert_int_equal(runcfg_render("training:\n  bs: 1\n", 18, "c", NULL, bad, 1, &r, &err), -1);
    assert_non_null(strstr(err.msg, "mapping or a list there"));
    char *bad2[] = {"training.bs.x=4"};
    assert_int_equal(runcfg_render("training:\n  bs: 1\n", 18, "c", NULL, bad2, 1, &r, &err), -1);
    assert_non_null(strstr(err.msg, "is a value, not a mapping"));
    /* fuzz find: a null in a flow mapping stays null (not '') */
    char *four[] = {"device_batch_size=4"};
    text = render("{bs: 1, grad_ckpt}\n", NULL, four, 1, &r);
    struct runcfg cfg;
    parses_back(text, &cfg);
    assert_int_equal(cfg.device_batch_size, 4);
    assert_int_equal(cfg.grad_ckpt, -1);
    runcfg_release(&cfg);
    runcfg_rendered_release(&r);
}

/* issue 11: a YAML flow mapping nested past the limit says depth. */
static void test_deep_flow_yaml_says_depth(void **state)
{
    (void)state;
    char text[1024] = "{";
    for (int i = 0; i < 70; i++) strcat(text, "a: {");
    strcat(text, "b: 1");
    for (int i = 0; i < 71; i++) strcat(text, "}");
    struct runcfg cfg;
    struct oomlab_err err = {{0}};
    runcfg_init(&cfg);
    assert_int_equal(runcfg_parse(&cfg, text, strlen(text), "run.yaml", &err), -1);
    assert_non_null(strstr(err.msg, "nesting deeper than 64 levels"));
    assert_null(strstr(err.msg, "JSON"));
    runcfg_release(&cfg);
}

/* --set of a precision the alias table does not know: warned by run and
 * probe, since the ledger's dtype would stay empty. */
static void test_set_unknown_precision(void **state)
{
    (void)state;
    assert_true(runcfg_set_unknown_precision("dtype=bf61"));
    assert_true(runcfg_set_unknown_precision("training.precision = fp8"));
    assert_true(runcfg_set_unknown_precision("torch_dtype=banana"));
    assert_false(runcfg_set_unknown_precision("dtype=BF16-mixed"));
    assert_false(runcfg_set_unknown_precision("mixed_precision=no"));
    assert_false(runcfg_set_unknown_precision("dtype=null"));
    assert_false(runcfg_set_unknown_precision("dtype="));
    assert_false(runcfg_set_unknown_precision("bf16=maybe")); /* a flag: refused elsewhere */
    assert_false(runcfg_set_unknown_precision("device_batch_size=bf61"));
    assert_false(runcfg_set_unknown_precision("dtype"));
    assert_false(runcfg_set_unknown_precision(NULL));
    assert_string_equal(runcfg_dtype_name("half"), "float16");
    assert_null(runcfg_dtype_name("fp8"));
}

/* run and probe say the same of a --set key (one function): probe had no
 * unknown-key warning at all. */
static void test_set_warning_shared(void **state)
{
    (void)state;
    char *sets[] = {"grad_acum=2", "lerning_rate=1e-4", "dtype=bf61", "device_batch_size=8", "my_flag=1"};
    struct runcfg_rendered r;
    struct oomlab_err err;
    assert_int_equal(runcfg_render(NULL, 0, NULL, "t", sets, 5, &r, &err), 0);
    char w[512];
    runcfg_set_warning(&r, 0, sets[0], false, false, w, sizeof w);
    assert_string_equal(w, "grad_acum: not a key oomlab reads; did you mean 'grad_accum'?");
    runcfg_set_warning(&r, 1, sets[1], false, false, w, sizeof w);
    assert_string_equal(w, "lerning_rate: not a key oomlab reads (added as written)");
    runcfg_set_warning(&r, 2, sets[2], false, false, w, sizeof w);
    assert_non_null(strstr(w, "dtype=bf61: not a precision oomlab knows"));
    runcfg_set_warning(&r, 3, sets[3], false, false, w, sizeof w);
    assert_string_equal(w, "");
    runcfg_set_warning(&r, 4, sets[4], false, true, w, sizeof w); /* the command's own {my_flag} */
    assert_string_equal(w, "");
    runcfg_rendered_release(&r);
    const char *yaml = "training:\n  learning_rate: 0.1\n";
    char *one[] = {"lerning_rate=1e-4"};
    assert_int_equal(runcfg_render(yaml, strlen(yaml), "c.yaml", "t", one, 1, &r, &err), 0);
    runcfg_set_warning(&r, 0, one[0], true, true, w, sizeof w);
    assert_string_equal(w, "lerning_rate: not a key of the config; did you mean 'learning_rate'?");
    runcfg_rendered_release(&r);    /* the note run and probe give when --set reaches nothing the command reads */
    runcfg_record_only_note(2, 2, true, w, sizeof w);
    assert_string_equal(w, "the command has no {config} or {KEY}: --set changes only the record "
                           "(configs/ID.yaml, runs.csv), not what runs");
    runcfg_record_only_note(2, 1, true, w, sizeof w);
    assert_non_null(strstr(w, "no {config} and not every {KEY}:"));
    runcfg_record_only_note(1, 1, false, w, sizeof w);
    assert_non_null(strstr(w, "the command has no {config}: --set changes only the record"));
    runcfg_record_only_note(1, 0, false, w, sizeof w);
    assert_string_equal(w, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_alias),
        cmocka_unit_test(test_knows_nothing),
        cmocka_unit_test(test_dtype_spellings),
        cmocka_unit_test(test_booleans),
        cmocka_unit_test(test_nested_first_wins_and_extras),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_malformed_input),
        cmocka_unit_test(test_json_positions_linear),
        cmocka_unit_test(test_absurd_values),
        cmocka_unit_test(test_yaml_ints_as_pyyaml),
        cmocka_unit_test(test_yaml_one_document),
        cmocka_unit_test(test_is_model_config),
        cmocka_unit_test(test_collection_for_a_scalar_refused),
        cmocka_unit_test(test_set),
        cmocka_unit_test(test_effective_batch),
        cmocka_unit_test(test_to_yaml_round_trip),
        cmocka_unit_test(test_to_yaml_unicode),
        cmocka_unit_test(test_render_base60_int_in_flow),
        cmocka_unit_test(test_render_keeps_the_users_schema),
        cmocka_unit_test(test_render_alias_lands_on_the_configs_key),
        cmocka_unit_test(test_render_sets_what_the_ledger_reads),
        cmocka_unit_test(test_render_deep_and_alias_keys),
        cmocka_unit_test(test_render_suggest_through_aliases_is_linear),
        cmocka_unit_test(test_bom_json_and_flow_yaml_with_comment),
        cmocka_unit_test(test_render_json_stays_json),
        cmocka_unit_test(test_render_always_parses_back),
        cmocka_unit_test(test_render_without_config_and_errors),
        cmocka_unit_test(test_deep_flow_yaml_says_depth),
        cmocka_unit_test(test_set_unknown_precision),
        cmocka_unit_test(test_set_warning_shared),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
