/* Unit tests for lib/verdict and lib/plan: judgements from the numbers and
 * the ranked fix plan, with and without a run config; every stage's plan
 * (a golden table), the leak hunt from the memory trend, the trend's
 * evidence, and the other-processes fix. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/plan.h"
#include "lib/scan.h"
#include "lib/units.h"
#include "lib/verdict.h"

#define GiB(x) ((int64_t)((x) * 1073741824.0))

static struct oom_report one(struct oom_event *ev)
{
    struct oom_report rep;
    oom_report_init(&rep);
    rep.events = ev;
    rep.n_events = 1;
    rep.primary = ev->gpu_oom ? 0 : -1;
    return rep;
}

static struct oom_event pytorch(double req, double cap, double free_, double alloc, double unalloc,
                                double proc)
{
    struct oom_event e;
    oom_event_init(&e);
    e.gpu_oom = true;
    e.kind = "pytorch-new";
    e.framework = "pytorch";
    e.gpu = 0;
    e.line = 10;
    e.stage = OOM_STAGE_BACKWARD;
    e.bytes.requested = GiB(req);
    e.bytes.capacity = GiB(cap);
    e.bytes.free = GiB(free_);
    e.bytes.allocated = GiB(alloc);
    e.bytes.reserved_unallocated = GiB(unalloc);
    e.bytes.process_in_use = proc < 0 ? -1 : GiB(proc);
    return e;
}

static size_t index_of(const struct plan *p, const char *id)
{
    for (size_t i = 0; i < p->n; i++)
        if (!strcmp(p->items[i].id, id)) return i;
    return SIZE_MAX;
}

static void test_verdicts(void **state)
{
    (void)state;
    struct oom_event e = pytorch(2, 80, 1, 70, 5, 78.5);
    struct oom_report rep = one(&e);
    struct verdicts v;
    verdict_compute(&rep, &v);
    assert_true(verdict_has(&v, VERDICT_SHORTFALL));
    assert_int_equal(v.shortfall, GiB(2) - GiB(1));
    assert_true(verdict_has(&v, VERDICT_FRAGMENTATION));
    assert_false(verdict_has(&v, VERDICT_OTHER_PROCESSES));
    assert_false(verdict_has(&v, VERDICT_EXCEEDS_CARD));
    /* Another process holds 40 GiB of the card. */
    e = pytorch(2, 80, 1, 30, 0.1, 38);
    verdict_compute(&rep, &v);
    assert_true(verdict_has(&v, VERDICT_OTHER_PROCESSES));
    assert_false(verdict_has(&v, VERDICT_FRAGMENTATION));
    assert_true(v.others > GiB(40));
    /* Larger than the card; absurd. */
    e = pytorch(355.43, 79.32, 18, 52, 8, 61);
    verdict_compute(&rep, &v);
    assert_true(verdict_has(&v, VERDICT_EXCEEDS_CARD));
    assert_false(verdict_has(&v, VERDICT_ABSURD));
    e = pytorch(538976288.13, 47.54, 43, 3, 0.4, -1);
    verdict_compute(&rep, &v);
    assert_true(verdict_has(&v, VERDICT_ABSURD));
    /* A cap hit with the card mostly free. */
    e = pytorch(0.002, 287.98, 275.86, 1, 0.05, -1);
    e.bytes.allowed = GiB(1.05);
    verdict_compute(&rep, &v);
    assert_true(verdict_has(&v, VERDICT_CAP));
    /* Unknown numbers judge nothing. */
    oom_event_init(&e);
    e.gpu_oom = true;
    e.framework = "cuda";
    verdict_compute(&rep, &v);
    assert_int_equal(v.set, 0);
    assert_int_equal(v.shortfall, -1);
    /* Early versus mid-run. */
    e = pytorch(2, 80, 1, 70, 0.1, 78.5);
    e.step = 3;
    verdict_compute(&rep, &v);
    assert_true(verdict_has(&v, VERDICT_EARLY));
    e.step = 4000;
    verdict_compute(&rep, &v);
    assert_true(verdict_has(&v, VERDICT_MID_RUN));
}

static void test_plan_order_and_values(void **state)
{
    (void)state;
    struct oom_event e = pytorch(2, 80, 1, 70, 5, 78.5);
    struct oom_report rep = one(&e);
    struct verdicts v;
    struct plan p;
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, NULL, &p);
    size_t frag = index_of(&p, "expandable-segments"), batch = index_of(&p, "batch"),
           seq = index_of(&p, "sequence-length"), ckpt = index_of(&p, "gradient-checkpointing");
    assert_true(frag < batch && batch < seq && seq < ckpt && ckpt < p.n);
    assert_non_null(strstr(p.items[frag].action, "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"));
    assert_non_null(strstr(p.items[frag].why, "5.00 GiB"));
    /* The run's own values. */
    struct runcfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.device_batch_size = 8;
    cfg.grad_accum = 2;
    cfg.max_seq_len = 2048;
    cfg.grad_ckpt = 1;
    snprintf(cfg.dtype, sizeof cfg.dtype, "bfloat16");
    plan_build(&rep, &v, &cfg, &p);
    batch = index_of(&p, "batch");
    assert_true(batch < p.n);
    assert_string_equal(p.items[batch].action,
                        "device_batch_size 8 -> 4, grad_accum 2 -> 4 keeps the effective batch at 16");
    seq = index_of(&p, "sequence-length");
    assert_non_null(strstr(p.items[seq].action, "max_seq_len 2048 -> 1024"));
    assert_int_equal(index_of(&p, "gradient-checkpointing"), SIZE_MAX); /* already on */
    assert_int_equal(index_of(&p, "bf16-autocast"), SIZE_MAX);          /* already bf16 */
    /* An odd batch: the effective batch is kept exactly, as run --on-oom
     * halve-batch does it (stranger17: "9 -> 4, grad_accum 2 -> 5 keeps
     * the effective batch at 20" of an effective batch of 18) */
    cfg.device_batch_size = 9;
    plan_build(&rep, &v, &cfg, &p);
    assert_string_equal(p.items[index_of(&p, "batch")].action,
                        "device_batch_size 9 -> 3, grad_accum 2 -> 6 keeps the effective batch at 18");
    /* Batch 1: nothing to halve, the plan goes to sequence length. */
    cfg.device_batch_size = 1;
    plan_build(&rep, &v, &cfg, &p);
    assert_int_equal(index_of(&p, "batch"), SIZE_MAX);
    assert_non_null(strstr(p.items[index_of(&p, "sequence-length")].why, "already 1"));
    /* Sequence length 1: nothing to shorten either; not the generic
     * "e.g. 2048 -> 1024" that ignores the config (stranger18) */
    cfg.max_seq_len = 1;
    plan_build(&rep, &v, &cfg, &p);
    assert_int_equal(index_of(&p, "sequence-length"), SIZE_MAX);
    assert_true(index_of(&p, "fallbacks") < p.n);
    cfg.device_batch_size = 8;
    plan_build(&rep, &v, &cfg, &p);
    assert_int_equal(index_of(&p, "sequence-length"), SIZE_MAX);
    assert_true(index_of(&p, "batch") < p.n);
    cfg.max_seq_len = 0; /* unknown: the generic example */
    plan_build(&rep, &v, &cfg, &p);
    assert_non_null(strstr(p.items[index_of(&p, "sequence-length")].action, "e.g. 2048 -> 1024"));
    cfg.max_seq_len = 2048;
    /* expandable_segments already set: not advised again. */
    rep.expandable_set = true;
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, NULL, &p);
    assert_int_equal(index_of(&p, "expandable-segments"), SIZE_MAX);
}

/* A model's config.json as the run's config: the plan is the one without
 * a config, wherever it is built (diagnose dropped it itself; run's first
 * fix and report used its torch_dtype as the run's precision and left out
 * bf16 autocast). */
static void test_plan_ignores_model_config(void **state)
{
    (void)state;
    struct oom_event e = pytorch(2, 80, 1, 70, 5, 78.5);
    struct oom_report rep = one(&e);
    struct verdicts v;
    struct plan bare, with;
    struct runcfg cfg;
    struct oomlab_err err;
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, NULL, &bare);
    assert_true(index_of(&bare, "bf16-autocast") < bare.n);
    const char *model = "{\"model_type\": \"llama\", \"hidden_size\": 4096, \"num_hidden_layers\": 32, "
                        "\"torch_dtype\": \"bfloat16\"}";
    runcfg_init(&cfg);
    assert_int_equal(runcfg_parse(&cfg, model, strlen(model), "config.json", &err), 0);
    assert_true(runcfg_is_model_config(&cfg));
    plan_build(&rep, &v, &cfg, &with);
    assert_int_equal(with.n, bare.n);
    for (size_t i = 0; i < bare.n; i++) {
        assert_string_equal(with.items[i].id, bare.items[i].id);
        assert_string_equal(with.items[i].action, bare.items[i].action);
    }
    runcfg_release(&cfg);
    /* a run's config with the same dtype keeps it: autocast left out */
    const char *run = "{\"device_batch_size\": 8, \"torch_dtype\": \"bfloat16\"}";
    runcfg_init(&cfg);
    assert_int_equal(runcfg_parse(&cfg, run, strlen(run), "run.json", &err), 0);
    plan_build(&rep, &v, &cfg, &with);
    assert_int_equal(index_of(&with, "bf16-autocast"), SIZE_MAX);
    runcfg_release(&cfg);
}

static void test_plan_stages_and_lookalikes(void **state)
{
    (void)state;
    struct oom_event e = pytorch(2, 80, 1, 70, 0.1, 78.5);
    e.stage = OOM_STAGE_EVAL;
    struct oom_report rep = one(&e);
    struct verdicts v;
    struct plan p;
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, NULL, &p);
    assert_string_equal(p.items[0].id, "eval-no-grad");
    e.stage = OOM_STAGE_CHECKPOINT;
    plan_build(&rep, &v, NULL, &p);
    assert_string_equal(p.items[0].id, "checkpoint-from-cpu");
    e = pytorch(355.43, 79.32, 18, 52, 0.1, 61);
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, NULL, &p);
    assert_string_equal(p.items[0].id, "exceeds-card");
    assert_int_equal(index_of(&p, "batch"), SIZE_MAX); /* no batch change helps */
    oom_event_init(&e);
    e.kind = "host-sigkill";
    e.framework = "host";
    rep = one(&e);
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, NULL, &p);
    assert_int_equal(p.n, 1);
    assert_string_equal(p.items[0].id, "host-memory");
    /* The catalogue is data the docs list. */
    assert_true(plan_catalogue_size() > 15);
    assert_string_equal(plan_catalogue_id(plan_catalogue_size() - 1), "fallbacks");
    assert_null(plan_catalogue_id(plan_catalogue_size()));
}


/* The plan ids of one event at a stage, one rank or two. */
static void stage_plan(enum oom_stage stage, bool multi, char *out, size_t cap)
{
    struct oom_event e[2];
    for (int i = 0; i < 2; i++) {
        e[i] = pytorch(2, 80, 1, 70, 0.1, 78.5);
        e[i].stage = stage;
        e[i].gpu = i;
        e[i].rank = multi ? i : -1;
    }
    struct oom_report rep = one(&e[0]);
    rep.n_events = multi ? 2 : 1;
    struct verdicts v;
    struct plan p;
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, NULL, &p);
    size_t o = 0;
    out[0] = '\0';
    for (size_t i = 0; i < p.n; i++) {
        o += (size_t)snprintf(out + o, cap - o, "%s%s", i ? " " : "", p.items[i].id);
        assert_true(o < cap); /* else cap - o wraps on the next id */
    }
}

/* The catalogue's rule: a fix that follows from a stage needs a training or
 * inference program (N_PROGRAM), so an array library's OOM gets none. */
static void test_plan_stage_rows_need_program(void **state)
{
    (void)state;
    size_t driven = 0;
    for (size_t i = 0; i < plan_catalogue_size(); i++) {
        if (!plan_catalogue_stage_driven(i)) continue;
        driven++;
        if (!plan_catalogue_needs_program(i))
            fail_msg("catalogue row %s lists stages but not N_PROGRAM", plan_catalogue_id(i));
    }
    assert_true(driven > 0);
    assert_false(plan_catalogue_stage_driven(plan_catalogue_size()));
}

/* Every stage gets the fixes that follow from it, in the guides' order:
 * training steps batch first, then sequence length, checkpointing, bf16,
 * 8-bit optimizer (backward), LoRA, sharding (several ranks), fallbacks;
 * evaluation and generation no training levers (no gradient accumulation,
 * no autocast for training); optimizer, load, data, checkpoint their own. */
static void test_plan_every_stage(void **state)
{
    (void)state;
    static const struct {
        enum oom_stage stage;
        bool multi;
        const char *ids;
    } golden[] = {
        /* unknown: no training step assumed (diagover): the levers of
         * both, each lever of one named as such */
        {OOM_STAGE_UNKNOWN, false, "locate-stage batch sequence-length low-precision "
                                   "training-levers inference-levers fallbacks"},
        {OOM_STAGE_UNKNOWN, true, "locate-stage batch sequence-length low-precision "
                                  "training-levers inference-levers zero-fsdp fallbacks"},
        {OOM_STAGE_DATA, false, "data-on-cpu batch sequence-length fallbacks"},
        {OOM_STAGE_LOAD, false, "load-low-precision load-fallbacks"},
        {OOM_STAGE_LOAD, true, "load-low-precision load-sharded load-fallbacks"},
        {OOM_STAGE_FORWARD, false, "batch sequence-length gradient-checkpointing bf16-autocast "
                                   "lora fallbacks"},
        {OOM_STAGE_FORWARD, true, "batch sequence-length gradient-checkpointing bf16-autocast "
                                  "lora zero-fsdp fallbacks"},
        {OOM_STAGE_BACKWARD, false, "batch sequence-length gradient-checkpointing bf16-autocast "
                                    "8bit-optimizer lora fallbacks"},
        {OOM_STAGE_OPTIMIZER, false, "8bit-optimizer lora optimizer-offload"},
        {OOM_STAGE_OPTIMIZER, true, "8bit-optimizer lora zero-fsdp"},
        {OOM_STAGE_EVAL, false, "eval-no-grad eval-batch eval-accumulation eval-logits "
                                "eval-generation eval-low-precision inference-fallbacks"},
        {OOM_STAGE_GENERATE, false, "generate-kv-cache generate-batch prompt-length "
                                    "inference-low-precision inference-fallbacks"},
        {OOM_STAGE_CHECKPOINT, false, "checkpoint-from-cpu metrics-on-cpu"},
        {OOM_STAGE_CHECKPOINT, true, "checkpoint-from-cpu metrics-on-cpu sharded-checkpoint"},
    };
    bool seen[OOM_STAGE_COUNT] = {false};
    for (size_t i = 0; i < sizeof golden / sizeof golden[0]; i++) {
        char got[512];
        stage_plan(golden[i].stage, golden[i].multi, got, sizeof got);
        if (strcmp(got, golden[i].ids) != 0)
            fail_msg("stage %s%s: plan '%s', want '%s'", oom_stage_name(golden[i].stage),
                     golden[i].multi ? " (2 ranks)" : "", got, golden[i].ids);
        seen[golden[i].stage] = true;
    }
    for (int s = 0; s < OOM_STAGE_COUNT; s++) assert_true(seen[s]); /* every stage reviewed */
}

/* Evaluation: the eval-specific levers, never the training ones. */
static void test_plan_eval_is_not_training(void **state)
{
    (void)state;
    struct oom_event e = pytorch(2, 80, 1, 70, 0.1, 78.5);
    e.stage = OOM_STAGE_EVAL;
    e.step = 4000; /* mid-run: the growth hint is a training one */
    struct oom_report rep = one(&e);
    struct verdicts v;
    struct plan p;
    struct runcfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.device_batch_size = 8;
    cfg.grad_accum = 2;
    cfg.max_seq_len = 2048;
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, &cfg, &p);
    static const char *const never[] = {"batch", "bf16-autocast", "gradient-checkpointing",
                                        "growth", "8bit-optimizer", "lora", "fallbacks"};
    for (size_t i = 0; i < sizeof never / sizeof never[0]; i++)
        assert_int_equal(index_of(&p, never[i]), SIZE_MAX);
    for (size_t i = 0; i < p.n; i++) {
        assert_null(strstr(p.items[i].action, "grad_accum"));
        assert_null(strstr(p.items[i].action, "Train under"));
    }
    assert_true(index_of(&p, "eval-accumulation") < p.n);
    assert_non_null(strstr(p.items[index_of(&p, "eval-accumulation")].action,
                           "eval_accumulation_steps"));
    assert_non_null(strstr(p.items[index_of(&p, "eval-logits")].action,
                           "preprocess_logits_for_metrics"));
    assert_non_null(strstr(p.items[0].action, "torch.no_grad()"));
    assert_non_null(strstr(p.items[index_of(&p, "eval-batch")].action,
                           "per_device_eval_batch_size"));
}

/* "Process N has X memory in use": the fix names oomlab ps and the PIDs. */
static void test_plan_other_processes_names_ps(void **state)
{
    (void)state;
    struct oom_event e = pytorch(2, 80, 1, 30, 0.1, 38);
    e.n_procs = 2;
    e.procs[0] = (struct oom_proc){158698, GiB(28.5)};
    e.procs[1] = (struct oom_proc){4021, GiB(1.25)};
    struct oom_report rep = one(&e);
    struct verdicts v;
    struct plan p;
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, NULL, &p);
    size_t i = index_of(&p, "other-processes");
    assert_true(i < p.n);
    assert_non_null(strstr(p.items[i].action, "`oomlab ps`"));
    assert_non_null(strstr(p.items[i].action, "PID 158698 with 28.50 GiB, PID 4021 with 1.25 GiB"));
    assert_null(strstr(p.items[i].action, "nvidia-smi"));
    /* No PIDs in the message: ps alone. */
    e.n_procs = 0;
    plan_build(&rep, &v, NULL, &p);
    i = index_of(&p, "other-processes");
    assert_null(strstr(p.items[i].action, "PID 1"));
    assert_non_null(strstr(p.items[i].action, "`oomlab ps`;"));
}

/* A series rising like the bundled example: 62.40 -> 74.29 GiB over 12 points. */
static void rising_series(struct steps_series *s, double first, double step_gib)
{
    steps_series_init(s);
    for (int i = 1; i <= 12; i++) {
        struct steps_point pt = {.fields = STEPS_STEP | STEPS_PEAK_ALLOC | STEPS_PEAK_RESERVED,
                                 .step = 10L * i, .epoch = NAN, .loss = NAN,
                                 .peak_alloc = GiB(first + step_gib * (i - 1)),
                                 .peak_reserved = GiB(first + 4 + step_gib * (i - 1)),
                                 .mem = -1};
        assert_int_equal(steps_series_add(s, &pt), 0);
    }
}

static void test_trend_evidence(void **state)
{
    (void)state;
    struct steps_series s;
    struct steps_mem_trend t;
    rising_series(&s, 62.40, 1.08);
    steps_memory_trend_of(&s, &t);
    assert_int_equal(t.trend, STEPS_TREND_RISING);
    assert_int_equal(t.kind, STEPS_PEAK_RESERVED); /* steps' figure: the one run follows */
    assert_int_equal(t.points, 12);
    assert_int_equal(t.first_step, 10);
    assert_int_equal(t.last_step, 120);
    assert_int_equal(t.first_bytes, GiB(66.40));
    assert_true(plan_trend_clear(&t));
    char buf[240];
    assert_string_equal(plan_trend_explain(&t, buf, sizeof buf),
                        "peak reserved 66.40 GiB at step 10 -> 78.28 GiB at step 120 "
                        "(+10.80 GiB per 100 steps, 12 points)");
    steps_series_release(&s);
    /* Flat: no growth claimed. */
    rising_series(&s, 62.40, 0.0);
    steps_memory_trend_of(&s, &t);
    assert_int_equal(t.trend, STEPS_TREND_FLAT);
    assert_false(plan_trend_clear(&t));
    steps_series_release(&s);
    /* Growing over two points only: not clear enough for a leak hunt. */
    steps_series_init(&s);
    for (int i = 1; i <= 2; i++) {
        struct steps_point pt = {.fields = STEPS_STEP | STEPS_PEAK_ALLOC, .step = i,
                                 .epoch = NAN, .loss = NAN, .peak_alloc = GiB(10.0 * i),
                                 .peak_reserved = -1, .mem = -1};
        assert_int_equal(steps_series_add(&s, &pt), 0);
    }
    steps_memory_trend_of(&s, &t);
    assert_false(plan_trend_clear(&t));
    steps_series_release(&s);
    /* No memory figures: none shown, nothing to explain. */
    steps_series_init(&s);
    steps_memory_trend_of(&s, &t);
    assert_int_equal(t.trend, STEPS_TREND_NONE);
    assert_int_equal(t.first_step, -1);
    assert_int_equal(t.first_bytes, -1);
    assert_true(isnan(t.bytes_per_100_steps));
    assert_string_equal(plan_trend_explain(&t, buf, sizeof buf), "");
}

/* Growth before the OOM: the leak hunt first, ahead of the allocator
 * setting; not when the peaks are flat. */
static void test_plan_leak_first(void **state)
{
    (void)state;
    struct oom_event e = pytorch(3.91, 79.15, 2.28, 71.40, 4.93, 76.85); /* fragmented too */
    e.step = 120;
    struct oom_report rep = one(&e);
    struct verdicts v;
    struct plan p;
    struct steps_series s;
    struct steps_mem_trend t;
    verdict_compute(&rep, &v);
    rising_series(&s, 62.40, 1.08);
    steps_memory_trend_of(&s, &t);
    plan_build_trend(&rep, &v, NULL, &t, &p);
    assert_string_equal(p.items[0].id, "leak-hunt");
    assert_string_equal(p.items[1].id, "expandable-segments");
    assert_non_null(strstr(p.items[0].action, "total_loss += loss"));
    assert_non_null(strstr(p.items[0].action, "torch.no_grad()"));
    assert_non_null(strstr(p.items[0].why, "66.40 GiB at step 10 -> 78.28 GiB at step 120"));
    assert_int_equal(index_of(&p, "growth"), SIZE_MAX); /* the hunt replaces the hint */
    steps_series_release(&s);
    rising_series(&s, 62.40, 0.0);
    steps_memory_trend_of(&s, &t);
    plan_build_trend(&rep, &v, NULL, &t, &p);
    assert_string_equal(p.items[0].id, "expandable-segments");
    assert_int_equal(index_of(&p, "leak-hunt"), SIZE_MAX);
    assert_true(index_of(&p, "growth") < p.n); /* mid-run, no trend: the hint stays */
    steps_series_release(&s);
}

/* The torch hook's snapshot: a request above the largest free cached
 * block but within the cached free memory is fragmentation, and the
 * allocator setting comes first; not when the cache could not hold it. */
static void test_hook_snapshot(void **state)
{
    (void)state;
    struct oom_event e = pytorch(0.5, 44, 0.29, 0, 0, -1);
    e.bytes.allocated = e.bytes.reserved_unallocated = -1; /* a message without them */
    e.step = 119;
    struct oom_report rep = one(&e);
    struct verdicts v;
    struct plan p;
    verdict_compute(&rep, &v);
    assert_false(verdict_has(&v, VERDICT_FRAGMENTATION));
    verdict_add_hook(&v, NULL, 8 << 20, (int64_t)962 << 20, -1);
    assert_true(verdict_has(&v, VERDICT_FRAGMENTATION));
    plan_build(&rep, &v, NULL, &p);
    assert_string_equal(p.items[0].id, "expandable-segments");
    assert_non_null(strstr(p.items[0].why, "largest free cached block is 8.00 MiB"));
    assert_int_equal(index_of(&p, "expandable-segments"), 0); /* once */
    for (size_t i = 1; i < p.n; i++) assert_string_not_equal(p.items[i].id, "expandable-segments");
    verdict_compute(&rep, &v);
    verdict_add_hook(&v, NULL, 8 << 20, 100 << 20, -1); /* the cache could not hold it */
    assert_false(verdict_has(&v, VERDICT_FRAGMENTATION));
}

/* The program's framework (progfw23): read from the lines the scan reads,
 * unknown where nothing names it, mixed (two frameworks) as unknown. */
static const char *scanned_program(const char *text, struct oom_report *rep)
{
    struct oomlab_err err;
    assert_int_equal(scan_text(text, strlen(text), rep, &err), 0);
    return oom_report_program(rep);
}

static void test_program_framework_from_log(void **state)
{
    (void)state;
    struct oom_report rep;
    /* jaxlib's build of TF's sources (jina-ai/dalle-flow#57 = h64-22) */
    const char *jaxlib =
        "CUDA_ERROR_OUT_OF_MEMORY\n"
        "2022-06-28 17:20:08.124513: E external/org_tensorflow/tensorflow/stream_executor/cuda/"
        "cuda_driver.cc:802] failed to alloc 1073741824 bytes on host: CUDA_ERROR_OUT_OF_MEMORY: "
        "out of memory\n";
    const char *fw = scanned_program(jaxlib, &rep);
    assert_non_null(fw);
    assert_string_equal(fw, "jax");
    oom_report_release(&rep);
    /* TF's own source path (rwth-i6/returnn#1457 = h54-39) */
    const char *tf =
        "  Profiling failure on CUDNN engine 0: UNKNOWN: CUDNN_STATUS_ALLOC_FAILED\n"
        "in tensorflow/stream_executor/cuda/cuda_dnn.cc(4023): 'cudnnConvolutionForward( "
        "cudnn.handle(), alpha)'\n";
    fw = scanned_program(tf, &rep);
    assert_non_null(fw);
    assert_string_equal(fw, "tensorflow");
    oom_report_release(&rep);
    /* a Windows path (tensorflow/tensorflow#42163) */
    const char *win =
        "Could not create cudnn handle: CUDNN_STATUS_ALLOC_FAILED\n"
        "~\\anaconda3\\lib\\site-packages\\tensorflow_core\\python\\keras\\engine\\base_layer.py in "
        "__call__(self, inputs, *args, **kwargs)\n";
    fw = scanned_program(win, &rep);
    assert_non_null(fw);
    assert_string_equal(fw, "tensorflow");
    oom_report_release(&rep);
    /* nothing names the program: unknown (torch7's Lua paths are no PyTorch's) */
    const char *bare =
        "THCudaCheck FAIL file=/home/gpu/torch/extra/cutorch/lib/THC/generic/THCStorage.cu "
        "line=66 error=2 : out of memory\n";
    assert_null(scanned_program(bare, &rep));
    oom_report_release(&rep);
    /* a PyTorch program whose import printed TF's banner: mixed, unknown */
    const char *mixed =
        "2024-01-01 10:00:00.000000: I tensorflow/core/util/port.cc:113] oneDNN custom operations "
        "are on.\n"
        "  File \"/usr/lib/python3.10/site-packages/torch/nn/modules/linear.py\", line 116, in forward\n"
        "    return F.linear(input, self.weight, self.bias)\n"
        "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`\n";
    assert_null(scanned_program(mixed, &rep));
    assert_true(rep.program_mixed);
    oom_report_release(&rep);
    /* "flax/_src/" is no "jax/_src/": a mark starts a path part */
    const char *flax = "Could not create cudnn handle: CUDNN_STATUS_ALLOC_FAILED\n"
                       "  File \"/x/flax/_src/y.py\", line 3, in f\n";
    assert_null(scanned_program(flax, &rep));
    oom_report_release(&rep);
}

static struct oom_event cuda_layer(const char *framework, const char *kind, const char *text)
{
    struct oom_event e;
    oom_event_init(&e);
    e.gpu_oom = true;
    e.kind = kind;
    e.framework = framework;
    e.line = 1;
    snprintf(e.text, sizeof e.text, "%s", text);
    return e;
}

static void test_plan_program_levers(void **state)
{
    (void)state;
    struct verdicts v;
    struct plan p;
    /* a TF program's cuDNN allocation failure: TF's levers, no PyTorch's */
    struct oom_event e = cuda_layer("cuda", "cudnn", "Could not create cudnn handle: CUDNN_STATUS_ALLOC_FAILED");
    struct oom_report rep = one(&e);
    oom_report_note_program(&rep, "tensorflow", false);
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, NULL, &p);
    assert_int_not_equal(index_of(&p, "tf-memory-growth"), SIZE_MAX);
    assert_int_equal(index_of(&p, "batch"), SIZE_MAX);
    assert_int_equal(index_of(&p, "low-precision"), SIZE_MAX);
    for (size_t i = 0; i < p.n; i++) assert_null(strstr(p.items[i].action, "torch"));
    /* a JAX program's ROCm failure: JAX's preallocation */
    e = cuda_layer("rocm", "cuda-error", "HIP_ERROR_OutOfMemory");
    rep = one(&e);
    oom_report_note_program(&rep, "jax", false);
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, NULL, &p);
    assert_int_equal(index_of(&p, "jax-preallocation"), 0);
    /* unknown stays unknown: today's generic rows */
    e = cuda_layer("cuda", "cuda-error", "CUDA_ERROR_OUT_OF_MEMORY");
    rep = one(&e);
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, NULL, &p);
    assert_int_not_equal(index_of(&p, "batch"), SIZE_MAX);
    assert_int_equal(index_of(&p, "tf-batch"), SIZE_MAX);
    assert_int_equal(index_of(&p, "jax-batch"), SIZE_MAX);
    /* ... and so does a mixed log */
    oom_report_note_program(&rep, "pytorch", false);
    oom_report_note_program(&rep, "tensorflow", false);
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, NULL, &p);
    assert_int_not_equal(index_of(&p, "batch"), SIZE_MAX);
    assert_int_equal(index_of(&p, "tf-batch"), SIZE_MAX);
    /* the stream executor's grab keeps its own rows, naming both */
    e = cuda_layer("cuda", "cuda-error",
                   "failed to allocate 1.51G (1617277696 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY");
    rep = one(&e);
    oom_report_note_program(&rep, "tensorflow", false);
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, NULL, &p);
    assert_int_equal(index_of(&p, "xla-startup-grab"), 0);
    assert_int_equal(index_of(&p, "tf-batch"), SIZE_MAX);
    /* a program's own OOM keeps its own framework's rows, whatever the log
     * names beside it: TF's ResourceExhaustedError */
    e = cuda_layer("tensorflow", "tensorflow", "OOM when allocating tensor with shape[64,512,512]");
    rep = one(&e);
    oom_report_note_program(&rep, "pytorch", false);
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, NULL, &p);
    assert_int_equal(index_of(&p, "tf-batch"), 0);
    assert_int_equal(index_of(&p, "expandable-segments"), SIZE_MAX);
    /* a PyTorch program's CUDA-layer OOM: PyTorch's rows (the stage hunt
     * that trusts the traceback; THC's allocator raised in the call) */
    e = cuda_layer("cuda", "cuda-error", "THCudaCheck FAIL file=THCStorage.cu line=66 error=2 : out of memory");
    rep = one(&e);
    oom_report_note_program(&rep, "pytorch", false);
    verdict_compute(&rep, &v);
    plan_build(&rep, &v, NULL, &p);
    assert_int_equal(index_of(&p, "locate-stage"), 0);
    assert_non_null(strstr(p.items[0].why, "PyTorch"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verdicts),
        cmocka_unit_test(test_hook_snapshot),
        cmocka_unit_test(test_plan_order_and_values),
        cmocka_unit_test(test_plan_ignores_model_config),
        cmocka_unit_test(test_plan_stages_and_lookalikes),
        cmocka_unit_test(test_plan_every_stage),
        cmocka_unit_test(test_plan_stage_rows_need_program),
        cmocka_unit_test(test_plan_eval_is_not_training),
        cmocka_unit_test(test_plan_other_processes_names_ps),
        cmocka_unit_test(test_trend_evidence),
        cmocka_unit_test(test_plan_leak_first),
        cmocka_unit_test(test_program_framework_from_log),
        cmocka_unit_test(test_plan_program_levers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
