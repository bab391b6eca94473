/* Unit tests for lib/steps: one realistic line per supported format, the
 * series rules (merging, restarts, the cap), the trends on synthetic series,
 * and every labelled log in tests/runlogs/ read line by line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "lib/steps.h"

static unsigned parse(const char *line, struct steps_point *pt)
{
    return steps_parse_line(line, strlen(line), pt);
}

static void test_guide_line(void **state)
{
    (void)state;
    struct steps_point pt;
    unsigned f = parse("step=120 peak_alloc=12.34GB peak_reserved=14.50GB", &pt);
    assert_int_equal(f, STEPS_STEP | STEPS_PEAK_ALLOC | STEPS_PEAK_RESERVED);
    assert_int_equal(pt.step, 120);
    assert_int_equal(pt.peak_alloc, 13249974108); /* GB here is GiB */
    assert_int_equal(pt.peak_reserved, 15569256448);
    assert_true(isnan(pt.loss));
    assert_int_equal(pt.mem, -1);
    f = parse("[rank3]:[2024-05-01 10:00:00] step=7 peak_alloc=1.00GB peak_reserved=2.00GB", &pt);
    assert_int_equal(pt.step, 7);
    assert_int_equal(pt.peak_alloc, 1073741824);
    assert_int_equal(pt.peak_reserved, 2147483648);
}

static void test_hf_trainer(void **state)
{
    (void)state;
    struct steps_point pt;
    unsigned f = parse("{'loss': 1.3612, 'grad_norm': 0.5123, 'learning_rate': 4.5e-05, "
                       "'epoch': 0.97}                                         ",
                       &pt);
    assert_int_equal(f, STEPS_LOSS | STEPS_EPOCH);
    assert_true(pt.loss == 1.3612);
    assert_true(pt.epoch == 0.97);
    assert_int_equal(pt.step, -1);
    /* The end-of-training summary is not a point. */
    assert_int_equal(parse("{'train_runtime': 120.5, 'train_samples_per_second': 8.3, "
                           "'train_steps_per_second': 1.04, 'train_loss': 1.52, 'epoch': 3.0}",
                           &pt),
                     0);
    /* An evaluation dict: its epoch, but no training loss. */
    f = parse("{'eval_loss': 1.62, 'eval_runtime': 3.1, 'epoch': 1.0}", &pt);
    assert_int_equal(f, STEPS_EPOCH);
    f = parse("{'loss': nan, 'learning_rate': 2e-05, 'epoch': 1.5}", &pt);
    assert_true(f & STEPS_LOSS);
    assert_true(pt.loss_nonfinite);
}

static void test_lightning_and_tqdm(void **state)
{
    (void)state;
    struct steps_point pt;
    unsigned f = parse("Epoch 0:  44%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88     | "
                       "440/1000 [01:02<01:20, 7.01it/s, loss=0.131, v_num=1]\r"
                       "Epoch 0:  45%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x8c"
                       "     | 450/1000 [01:03<01:18, 7.02it/s, loss=0.123, v_num=1]",
                       &pt);
    assert_int_equal(f, STEPS_STEP | STEPS_LOSS | STEPS_EPOCH);
    assert_int_equal(pt.step, 450);
    assert_true(pt.loss == 0.123);
    assert_true(pt.epoch == 0);
    f = parse("steps:  29%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x8b       | 943/3280 [18:48<46:37,  "
              "1.20s/it, avr_loss=nan]",
              &pt);
    assert_int_equal(pt.step, 943);
    assert_true(pt.loss_nonfinite);
    f = parse("Epoch 0, global step 499: val_loss reached 0.45321 (best 0.45321), saving model",
              &pt);
    assert_int_equal(f, STEPS_STEP | STEPS_EPOCH);
    assert_int_equal(pt.step, 499);
    /* An evaluation bar is not the training step. */
    f = parse("evaluating Epoch: 100%|\xe2\x96\x88\xe2\x96\x88| 200/200 [01:53<00:00,  1.77it/s]",
              &pt);
    assert_false(f & STEPS_STEP);
    /* A bar glued to a log record: the bar's step comes first. */
    f = parse("Training:  78%|\xe2\x96\x8a  | 1556/2000 [6:15:28<1:55:17, 15.58s/step]2025-08-23 "
              "06:19:20,889 - trainers.dit_trainer - WARNING - Step 1557: detected "
              "nan/inf/spiky gradient (norm=2.19); skipping optimizer step.",
              &pt);
    assert_int_equal(pt.step, 1556);
    assert_false(f & STEPS_LOSS);
}

static void test_torchtitan(void **state)
{
    (void)state;
    struct steps_point pt;
    unsigned f = parse("[titan] 2025-01-10 12:00:00,000 - root - INFO - \x1b[31mstep:  1  "
                       "\x1b[32mloss: 12.2500  \x1b[33mmemory: 78.12GiB(55.81%)  "
                       "\x1b[34mtps: 1,234  \x1b[36mmfu: 0.81%\x1b[39m",
                       &pt);
    assert_int_equal(f, STEPS_STEP | STEPS_LOSS | STEPS_PEAK_RESERVED);
    assert_int_equal(pt.step, 1);
    assert_true(pt.loss == 12.25);
    assert_int_equal(pt.peak_reserved, 83880711291);
    f = parse("step: 10  loss:  7.243  tps: 3,317  mfu: 13.69%  memory: 116GiB (83%)", &pt);
    assert_int_equal(pt.peak_reserved, 116LL << 30);
}

static void test_megatron(void **state)
{
    (void)state;
    struct steps_point pt;
    unsigned f = parse(" iteration      100/    1000 | consumed samples:         3200 | elapsed time "
                       "per iteration (ms): 512.3 | learning rate: 1.500E-04 | global batch size: "
                       "   32 | lm loss: 7.200E+00 | loss scale: 65536.0 | grad norm: 1.234 |",
                       &pt);
    assert_int_equal(f, STEPS_STEP | STEPS_LOSS);
    assert_int_equal(pt.step, 100);
    assert_true(pt.loss == 7.2);
    f = parse(" iteration        5/  120000 | elapsed time per iteration (ms): 16491.5 | learning "
              "rate: 0.000E+00 | loss scale: 268435456.0 | number of skipped iterations:   5 |",
              &pt);
    assert_int_equal(f, STEPS_STEP);
    f = parse("[Rank 0] (after 10 iterations) memory (MB) | allocated: 10250.5693359375 | max "
              "allocated: 12606.06201171875 | reserved: 17482.0 | max reserved: 17482.0",
              &pt);
    assert_int_equal(f, STEPS_PEAK_ALLOC | STEPS_PEAK_RESERVED);
    assert_int_equal(pt.peak_alloc, 13218414080);
    assert_int_equal(pt.peak_reserved, 18331205632);
}

static void test_deepspeed(void **state)
{
    (void)state;
    struct steps_point pt;
    unsigned f = parse("[2023-01-15 19:09:52,477] [INFO] [utils.py:828:see_memory_usage] MA 0.02 GB "
                       "        Max_MA 0.08 GB         CA 0.08 GB         Max_CA 0 GB ",
                       &pt);
    assert_int_equal(f, STEPS_PEAK_ALLOC | STEPS_PEAK_RESERVED);
    assert_int_equal(pt.peak_alloc, 85899346);
    assert_int_equal(pt.peak_reserved, 0);
    f = parse("[2023-01-15 19:09:52,477] [INFO] [utils.py:836:see_memory_usage] CPU Virtual "
              "Memory:  used = 4.05 GB, percent = 31.9%",
              &pt);
    assert_int_equal(f, 0);
}

static void test_nanogpt(void **state)
{
    (void)state;
    struct steps_point pt;
    unsigned f = parse("iter 100: loss 4.2012, time 12.34ms, mfu 3.21%", &pt);
    assert_int_equal(f, STEPS_STEP | STEPS_LOSS);
    assert_int_equal(pt.step, 100);
    assert_true(pt.loss == 4.2012);
    f = parse("step 3000: train loss 2.1043, val loss 2.2087", &pt);
    assert_int_equal(pt.step, 3000);
    assert_true(pt.loss == 2.1043);
    f = parse("> 2023-03-22 09:32:52 iter 3010: loss nan, time 1019.95ms, mfu 14.12%", &pt);
    assert_int_equal(pt.step, 3010);
    assert_true(pt.loss_nonfinite);
    assert_true(isnan(pt.loss));
}

static void test_fairseq(void **state)
{
    (void)state;
    struct steps_point pt;
    unsigned f = parse("| epoch 009:   1000 / 2737 loss=6.220, nll_loss=5.070, ppl=33.60, "
                       "wps=12800, ups=4.7, wpb=2568, bsz=108, num_updates=22897, lr=0.000208983, "
                       "gnorm=1.242, clip=0%, oom=0, wall=4847, train_wall=4501",
                       &pt);
    assert_int_equal(f, STEPS_STEP | STEPS_LOSS | STEPS_EPOCH);
    assert_int_equal(pt.step, 22897);
    assert_true(pt.epoch == 9);
    assert_true(pt.loss == 6.22);
    f = parse("| epoch 008 | valid on 'valid' subset | valid_loss 6.43844 | valid_nll_loss "
              "5.23288 | valid_ppl 37.61 | num_updates 21896 | best 6.43844",
              &pt);
    assert_false(f & STEPS_LOSS);
}

static void test_mmdet(void **state)
{
    (void)state;
    struct steps_point pt;
    unsigned f = parse("2025-03-15 16:07:01,813 - mmdet - INFO - Iter [16881/87900]\tlr: 1.824e-04, "
                       "eta: 23:20:12, time: 1.200, data_time: 0.030, memory: 7954, loss_cls: "
                       "0.7261, loss: 19.4129, grad_norm: 62.1911",
                       &pt);
    assert_int_equal(f, STEPS_STEP | STEPS_LOSS | STEPS_PEAK_ALLOC);
    assert_int_equal(pt.step, 16881);
    assert_int_equal(pt.peak_alloc, 8340373504); /* MiB */
    assert_true(pt.loss == 19.4129);
    f = parse("2022-01-01 10:00:00,000 - mmdet - INFO - Epoch [3][50/500]\tlr: 2.000e-02, eta: "
              "1:02:03, time: 0.512, data_time: 0.011, memory: 3512, loss_rpn_cls: 0.0312, "
              "loss: 1.2000",
              &pt);
    assert_true(pt.epoch == 3);
    assert_int_equal(pt.step, 50);
    assert_true(pt.loss == 1.2);
    /* an error's code after "out of memory:" is no memory reading
     * (ArrayFire, tests/corpus-heldout24/h24-09.log) */
    f = parse("Re: Error: ArrayFire Exception (Device out of memory:101)", &pt);
    assert_int_equal(f & (STEPS_PEAK_ALLOC | STEPS_PEAK_RESERVED | STEPS_MEM), 0);
}

static void test_mlx(void **state)
{
    (void)state;
    struct steps_point pt;
    unsigned f = parse("Iter 10: Train loss 1.406, Learning Rate 1.000e-05, It/sec 0.942, "
                       "Tokens/sec 369.778, Trained Tokens 19515, Peak mem 8.626 GB",
                       &pt);
    assert_int_equal(f, STEPS_STEP | STEPS_LOSS | STEPS_PEAK_ALLOC);
    assert_int_equal(pt.step, 10);
    assert_true(pt.loss == 1.406);
    assert_int_equal(pt.peak_alloc, 8626000000); /* mlx_lm divides by 1e9 */
    f = parse("Iter 1: Val loss 2.086, Val took 17.177s", &pt);
    assert_int_equal(f, STEPS_STEP);
}

static void test_keras_yolo_lua(void **state)
{
    (void)state;
    struct steps_point pt;
    unsigned f = parse("epoch 1/50 - it 6/100 - loss: 2.473 - acc: 0.305", &pt);
    assert_int_equal(f, STEPS_STEP | STEPS_LOSS | STEPS_EPOCH);
    assert_int_equal(pt.step, 6);
    assert_true(pt.epoch == 1);
    assert_true(pt.loss == 2.473);
    f = parse("  6/100 [==>...........................] - ETA: 3s - loss: 2.4730 - accuracy: 0.3050",
              &pt);
    assert_int_equal(pt.step, 6);
    assert_true(pt.loss == 2.473);
    f = parse("     38/299     15.3G    0.03321    0.02155   0.007021        131        640: "
              "100%|\xe2\x96\x88\xe2\x96\x88| 465/465 [03:12<00:00,  2.41it/s]",
              &pt);
    assert_true(pt.epoch == 38);
    assert_int_equal(pt.mem, 15300000000); /* YOLO's G is 1e9 */
    assert_true(fabs(pt.loss - (0.03321 + 0.02155 + 0.007021)) < 1e-12);
    f = parse("0/299 18.6 G 0.05746 3.93 65.8", &pt);
    assert_int_equal(pt.mem, 18600000000);
    f = parse("Epoch: [1][10003/10010]\tTime 0.312 (0.325)\tData 0.001 (0.002)\tLoss 2.3456 "
              "(2.4567)\tPrec@1 45.312 (43.210)",
              &pt);
    assert_int_equal(f, STEPS_STEP | STEPS_LOSS | STEPS_EPOCH);
    assert_int_equal(pt.step, 10003);
    assert_true(pt.epoch == 1);
    assert_true(pt.loss == 2.3456);
}

static void test_generic_and_others(void **state)
{
    (void)state;
    struct steps_point pt;
    assert_int_equal(parse("Epoch 3/10", &pt), STEPS_EPOCH);
    assert_true(pt.epoch == 3);
    assert_int_equal(parse("iter 250", &pt), STEPS_STEP);
    assert_int_equal(pt.step, 250);
    assert_int_equal(parse("step 42", &pt), STEPS_STEP);
    assert_int_equal(pt.step, 42);
    assert_int_equal(parse("Training started", &pt), 0);
    assert_int_equal(parse("", &pt), 0);
    assert_int_equal(parse("iter 5: loss 3.0\r\n", &pt), STEPS_STEP | STEPS_LOSS);
    assert_true(pt.loss == 3.0);
    parse("epoch: 3442 loss: 0.2105546216666698", &pt);
    assert_true(pt.loss == 0.2105546216666698); /* exact, as printed */
    parse("Training Epoch: 4/150, step 63/64 completed (loss: 0.19040994346141815): 100%", &pt);
    assert_int_equal(pt.step, 63);
    assert_true(pt.epoch == 4);
    assert_true(pt.loss == 0.19040994346141815);
    assert_int_equal(parse("Max CUDA memory allocated was 1 GB", &pt), STEPS_PEAK_ALLOC);
    assert_int_equal(pt.peak_alloc, 1073741824);
    assert_int_equal(parse("Max CUDA memory reserved was 2 GB", &pt), STEPS_PEAK_RESERVED);
    assert_int_equal(parse("CPU Total Peak Memory consumed during the train (max): 14 GB", &pt), 0);
    assert_int_equal(parse("Memory info of GPU /physical_device:GPU:0: current: 0.18, peak: 2.55",
                           &pt),
                     STEPS_MEM);
    assert_int_equal(pt.mem, 2738041651);
    assert_int_equal(parse("Memory info of CPU: total:201.37Gb, available: 190.78Gb", &pt), 0);
    assert_int_equal(parse("GPU: 1001.00 KB", &pt), STEPS_MEM);
    assert_int_equal(pt.mem, 1025024);
    assert_int_equal(parse("Train Epoch: 1 [400/2022 (20%)]\tLoss: 0.000023679231163", &pt),
                     STEPS_EPOCH | STEPS_LOSS);
    assert_true(pt.loss == 0.000023679231163);
    assert_int_equal(parse("2025-08-23 06:20:07,600 - INFO - Step   1560 | Loss: 0.5275 | LR: "
                           "3.00e-04 | GradNorm: 2.29",
                           &pt),
                     STEPS_STEP | STEPS_LOSS);
    assert_int_equal(pt.step, 1560);
}

static void test_more_frameworks(void **state)
{
    (void)state;
    struct steps_point pt;
    /* NeMo */
    unsigned f = parse("Epoch 0: :  10%|\xe2\x96\x88         | 100/1000 [01:40<15:00, "
                       "reduced_train_loss=2.340, global_step=99.00, consumed_samples=6400.0]",
                       &pt);
    assert_int_equal(f, STEPS_STEP | STEPS_LOSS | STEPS_EPOCH);
    assert_int_equal(pt.step, 100);
    assert_true(pt.loss == 2.34);
    /* Lightning with on_step logging */
    parse("Epoch 2:  50%|\xe2\x96\x88\xe2\x96\x88     | 50/100 [00:05<00:05, 9.1it/s, v_num=3, "
          "train_loss_step=0.512, val_loss=0.61]",
          &pt);
    assert_true(pt.loss == 0.512);
    assert_int_equal(pt.step, 50);
    /* Detectron2: max_mem is max_memory_allocated in MiB with an M */
    f = parse("[04/10 12:00:00 d2.utils.events]:  eta: 1:23:45  iter: 19  total_loss: 2.345  "
              "loss_cls: 1.2  loss_box_reg: 0.3  time: 0.4  data_time: 0.01  lr: 0.0002  "
              "max_mem: 3456M",
              &pt);
    assert_int_equal(f, STEPS_STEP | STEPS_LOSS | STEPS_PEAK_ALLOC);
    assert_int_equal(pt.step, 19);
    assert_true(pt.loss == 2.345);
    assert_int_equal(pt.peak_alloc, 3456LL << 20);
    /* Keras 3 progress bar */
    f = parse("100/100 \xe2\x94\x81\xe2\x94\x81\xe2\x94\x81 3s 30ms/step - accuracy: 0.9012 - "
              "loss: 0.3012",
              &pt);
    assert_int_equal(f, STEPS_STEP | STEPS_LOSS);
    assert_int_equal(pt.step, 100);
    /* fairseq (hydra) JSON records: quoted numbers */
    f = parse("[2021-01-01 00:00:00,000][train_inner][INFO] - {\"epoch\": 1, \"update\": 0.5, "
              "\"loss\": \"9.55\", \"ppl\": \"749.4\", \"num_updates\": \"200\", \"lr\": \"2.5e-05\"}",
              &pt);
    assert_int_equal(f, STEPS_STEP | STEPS_LOSS | STEPS_EPOCH);
    assert_int_equal(pt.step, 200);
    assert_true(pt.loss == 9.55);
    /* HF Trainer's own tqdm bar, DeepSpeed's step lines */
    assert_int_equal(parse(" 12%|\xe2\x96\x88\xe2\x96\x8f        | 120/1000 [00:30<03:40,  4.00it/s]",
                           &pt),
                     STEPS_STEP);
    assert_int_equal(pt.step, 120);
    parse("[Rank 0] step=100, skipped=0, lr=[0.0001], mom=[(0.9, 0.999)]", &pt);
    assert_int_equal(pt.step, 100);
    parse("epoch=0/micro_step=800/global_step=100, RunningAvgSamplesPerSec=41.2, CurrSamplesPerSec=40.9",
          &pt);
    assert_int_equal(pt.step, 100);
    /* Not steps: method calls and rates in tracebacks and bars */
    assert_false(parse("    optimizer.step()", &pt) & STEPS_STEP);
    assert_false(parse("  File \"train.py\", line 120, in train_step", &pt) & STEPS_STEP);
    assert_false(parse("Training: 0it [00:00, ?it/s]", &pt) & STEPS_STEP);
}

/* ---- series and trends -------------------------------------------------- */

static void add_loss(struct steps_series *s, long step, double loss)
{
    struct steps_point pt;
    steps_parse_line("", 0, &pt); /* a cleared point */
    pt.fields = STEPS_LOSS | (step >= 0 ? STEPS_STEP : 0);
    pt.step = step;
    pt.loss = loss;
    pt.loss_nonfinite = !isfinite(loss);
    assert_int_equal(steps_series_add(s, &pt), 0);
}

static enum steps_trend loss_trend_of(const double *v, size_t n)
{
    struct steps_series s;
    steps_series_init(&s);
    for (size_t i = 0; i < n; i++) add_loss(&s, (long)i, v[i]);
    enum steps_trend t = steps_loss_trend(&s);
    steps_series_release(&s);
    return t;
}

static void test_loss_trends(void **state)
{
    (void)state;
    const double falling[] = {3.0, 2.8, 2.9, 2.5, 2.4, 2.45, 2.2, 2.1, 2.15};
    const double flat[] = {0.41, 0.27, 0.32, 0.41, 0.24, 0.46, 0.27, 0.41, 0.30, 0.22};
    const double rising[] = {1.0, 1.05, 1.1, 1.12, 1.2, 1.22, 1.3, 1.33, 1.4};
    const double diverging[] = {2.0, 1.5, 1.2, 1.0, 0.9, 1.4, 2.1, 3.0, 4.5};
    const double blowup[] = {1.6, 1.4, 3.3, 6.4, 5.5, 4.9, 4.9, 4.6};
    const double with_nan[] = {2.0, 1.9, NAN, 1.8};
    const double with_inf[] = {2.0, INFINITY};
    const double two[] = {2.0, 1.0};
    const double constant[] = {2.3, 2.3, 2.3, 2.3, 2.3};
    assert_int_equal(loss_trend_of(falling, 9), STEPS_TREND_FALLING);
    assert_int_equal(loss_trend_of(flat, 10), STEPS_TREND_FLAT);
    assert_int_equal(loss_trend_of(rising, 9), STEPS_TREND_RISING);
    assert_int_equal(loss_trend_of(diverging, 9), STEPS_TREND_DIVERGING);
    assert_int_equal(loss_trend_of(blowup, 8), STEPS_TREND_DIVERGING);
    assert_int_equal(loss_trend_of(with_nan, 4), STEPS_TREND_NAN);
    assert_int_equal(loss_trend_of(with_inf, 2), STEPS_TREND_NAN);
    assert_int_equal(loss_trend_of(two, 2), STEPS_TREND_TOO_FEW);
    assert_int_equal(loss_trend_of(constant, 5), STEPS_TREND_FLAT);
    /* issue 10: three strictly falling points are falling, not flat */
    const double three_down[] = {2.42, 2.31, 2.16}, three_up[] = {2.16, 2.31, 2.42};
    const double tiny_down[] = {2.4200, 2.4199, 2.4198}; /* under 0.5% in all: flat */
    assert_int_equal(loss_trend_of(three_down, 3), STEPS_TREND_FALLING);
    assert_int_equal(loss_trend_of(three_up, 3), STEPS_TREND_RISING);
    assert_int_equal(loss_trend_of(tiny_down, 3), STEPS_TREND_FLAT);
    assert_string_equal(steps_trend_name(STEPS_TREND_RISING, true), "growing");
    assert_string_equal(steps_trend_name(STEPS_TREND_RISING, false), "rising");
    assert_string_equal(steps_trend_name(STEPS_TREND_NONE, true), "none-shown");
    assert_string_equal(steps_trend_name(STEPS_TREND_TOO_FEW, false), "too-few");
    assert_string_equal(steps_trend_name(STEPS_TREND_DIVERGING, false), "diverging");
    assert_string_equal(steps_trend_name(STEPS_TREND_NAN, false), "nan");
}

static void add_lines(struct steps_series *s, const char *const *lines)
{
    for (size_t i = 0; lines[i]; i++) {
        struct steps_point pt;
        steps_parse_line(lines[i], strlen(lines[i]), &pt);
        assert_int_equal(steps_series_add(s, &pt), 0);
    }
}

static void test_memory_trends(void **state)
{
    (void)state;
    static const char *const warmup[] = {
        "step=1 peak_alloc=10.00GB peak_reserved=11.00GB",
        "step=2 peak_alloc=14.00GB peak_reserved=15.00GB",
        "step=3 peak_alloc=15.00GB peak_reserved=16.00GB",
        "step=4 peak_alloc=15.00GB peak_reserved=16.00GB",
        "step=5 peak_alloc=15.00GB peak_reserved=16.00GB",
        "step=6 peak_alloc=15.00GB peak_reserved=16.00GB", NULL,
    };
    static const char *const leak[] = {
        "step=1 peak_alloc=10.00GB peak_reserved=11.00GB",
        "step=2 peak_alloc=10.20GB peak_reserved=11.20GB",
        "step=3 peak_alloc=10.40GB peak_reserved=11.40GB",
        "step=4 peak_alloc=10.60GB peak_reserved=11.60GB",
        "step=5 peak_alloc=10.80GB peak_reserved=11.80GB",
        "step=6 peak_alloc=11.00GB peak_reserved=12.00GB", NULL,
    };
    /* The guide resets the peak after each print: per-step peaks follow the
     * batch's sequence lengths and are noisy, but not growing. */
    static const char *const noisy[] = {
        "step=10 peak_alloc=10.40GB peak_reserved=12.00GB",
        "step=20 peak_alloc=10.80GB peak_reserved=12.00GB",
        "step=30 peak_alloc=10.10GB peak_reserved=12.00GB",
        "step=40 peak_alloc=10.70GB peak_reserved=12.00GB",
        "step=50 peak_alloc=10.20GB peak_reserved=12.00GB",
        "step=60 peak_alloc=10.60GB peak_reserved=12.00GB",
        "step=70 peak_alloc=10.30GB peak_reserved=12.00GB",
        "step=80 peak_alloc=10.75GB peak_reserved=12.00GB",
        "step=90 peak_alloc=10.15GB peak_reserved=12.00GB", NULL,
    };
    static const char *const noisy_alloc_only[] = {
        "step=10 peak_alloc=10.40GB", "step=20 peak_alloc=10.80GB", "step=30 peak_alloc=10.10GB",
        "step=40 peak_alloc=10.70GB", "step=50 peak_alloc=10.20GB", "step=60 peak_alloc=10.60GB",
        "step=70 peak_alloc=10.30GB", "step=80 peak_alloc=10.75GB", "step=90 peak_alloc=10.15GB",
        NULL,
    };
    static const char *const losses_only[] = {"iter 1: loss 2.0", "iter 2: loss 1.9", NULL};
    struct steps_series s;
    steps_series_init(&s);
    add_lines(&s, warmup);
    assert_int_equal(steps_memory_trend(&s), STEPS_TREND_FLAT);
    assert_int_equal(steps_max_peak_alloc(&s), 15LL << 30);
    assert_int_equal(steps_max_peak_reserved(&s), 16LL << 30);
    steps_series_release(&s);
    add_lines(&s, leak);
    assert_int_equal(steps_memory_trend(&s), STEPS_TREND_RISING);
    steps_series_release(&s);
    add_lines(&s, noisy);
    assert_int_equal(steps_memory_trend(&s), STEPS_TREND_FLAT);
    steps_series_release(&s);
    add_lines(&s, noisy_alloc_only);
    assert_int_equal(steps_memory_trend(&s), STEPS_TREND_FLAT);
    steps_series_release(&s);
    add_lines(&s, losses_only);
    assert_int_equal(steps_memory_trend(&s), STEPS_TREND_NONE);
    assert_int_equal(steps_max_peak_alloc(&s), -1);
    assert_int_equal(steps_max_peak_reserved(&s), -1);
    steps_series_release(&s);
}

/* issue 10: the leak report's evidence — first/last figure, steps, slope. */
static void test_memory_trend_evidence(void **state)
{
    (void)state;
    struct steps_series s;
    steps_series_init(&s);
    char line[96];
    for (int step = 10; step <= 157; step++) {
        double gb = 62.4 + (74.3 - 62.4) * (step - 10) / 147.0;
        snprintf(line, sizeof line, "step=%d peak_alloc=%.2fGB peak_reserved=%.2fGB", step, gb - 1, gb);
        struct steps_point pt;
        steps_parse_line(line, strlen(line), &pt);
        assert_int_equal(steps_series_add(&s, &pt), 0);
    }
    struct steps_mem_trend t;
    steps_memory_trend_of(&s, &t);
    assert_int_equal(t.trend, STEPS_TREND_RISING);
    assert_int_equal(t.kind, STEPS_PEAK_RESERVED);
    assert_int_equal(t.points, 148);
    assert_int_equal(t.first_step, 10);
    assert_int_equal(t.last_step, 157);
    assert_true(fabs((double)t.first_bytes / 1073741824.0 - 62.40) < 0.006);
    assert_true(fabs((double)t.last_bytes / 1073741824.0 - 74.30) < 0.006);
    assert_true(fabs(t.bytes_per_100_steps / 1073741824.0 - 11.9 / 1.47) < 0.01);
    char buf[160];
    steps_memory_trend_format(&t, buf, sizeof buf);
    assert_string_equal(buf, "growing: 62.40 -> 74.30 GB over steps 10-157 (+8.10 GB per 100 steps)");
    assert_int_equal(steps_memory_trend(&s), STEPS_TREND_RISING);
    steps_series_release(&s);
    steps_memory_trend_of(&s, &t); /* empty */
    /* flat: no slope, which would read as growth after a one-off rise
     * (6 GB for ten steps, then 7 GB for ten) */
    for (int i = 1; i <= 20; i++) {
        snprintf(line, sizeof line, "step=%d loss=1.0 peak_reserved=%s", i, i <= 10 ? "6.00GB" : "7.00GB");
        struct steps_point pt;
        steps_parse_line(line, strlen(line), &pt);
        assert_int_equal(steps_series_add(&s, &pt), 0);
    }
    steps_memory_trend_of(&s, &t);
    assert_int_equal(t.trend, STEPS_TREND_FLAT);
    assert_true(isnan(t.bytes_per_100_steps)); /* a level is not a slope */
    assert_int_equal(t.level_bytes, 7LL << 30);
    assert_int_equal(t.level_step, 11);
    steps_memory_trend_format(&t, buf, sizeof buf);
    assert_string_equal(buf, "flat: 6.00 -> 7.00 GB over steps 1-20 (7.00 GB by step 11, no climb past it in the last third)");
    steps_series_release(&s);
    /* a warm-up climb over the first steps, then a plateau with noise:
     * the level is the highest before the last third, first reached
     * (within 0.2%) at step 8 */
    static const double warm[] = {4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 6.99, 7.0, 6.995, 7.0, 6.99, 6.995, 7.0, 6.99, 7.0};
    for (int i = 0; i < 15; i++) {
        snprintf(line, sizeof line, "step=%d peak_alloc=%.3fGB", i + 1, warm[i]);
        struct steps_point pt;
        steps_parse_line(line, strlen(line), &pt);
        assert_int_equal(steps_series_add(&s, &pt), 0);
    }
    steps_memory_trend_of(&s, &t);
    assert_int_equal(t.trend, STEPS_TREND_FLAT);
    assert_true(isnan(t.bytes_per_100_steps));
    assert_int_equal(t.level_step, 7);
    steps_memory_trend_format(&t, buf, sizeof buf);
    assert_string_equal(buf, "flat: 4.00 -> 7.00 GB over steps 1-15 (7.00 GB by step 7, no climb past it in the last third)");
    steps_series_release(&s);
    /* a drop: the level is where it was, not where it ended */
    for (int i = 1; i <= 20; i++) {
        snprintf(line, sizeof line, "step=%d peak_reserved=%s", i, i <= 14 ? "8.00GB" : "7.00GB");
        struct steps_point pt;
        steps_parse_line(line, strlen(line), &pt);
        assert_int_equal(steps_series_add(&s, &pt), 0);
    }
    steps_memory_trend_of(&s, &t);
    steps_memory_trend_format(&t, buf, sizeof buf);
    assert_string_equal(buf, "flat: 8.00 -> 7.00 GB over steps 1-20 (8.00 GB by step 1, no climb past it in the last third)");
    steps_series_release(&s);
    for (int i = 1; i <= 20; i++) {
        snprintf(line, sizeof line, "step=%d loss=1.0 peak_reserved=8.40GB", i);
        struct steps_point pt;
        steps_parse_line(line, strlen(line), &pt);
        assert_int_equal(steps_series_add(&s, &pt), 0);
    }
    steps_memory_trend_of(&s, &t);
    steps_memory_trend_format(&t, buf, sizeof buf);
    assert_string_equal(buf, "flat: 8.40 -> 8.40 GB over steps 1-20");
    steps_series_release(&s);
    steps_memory_trend_of(&s, &t); /* empty */
    assert_int_equal(t.trend, STEPS_TREND_NONE);
    assert_int_equal(t.first_bytes, -1);
    assert_true(isnan(t.bytes_per_100_steps));
    steps_memory_trend_format(&t, buf, sizeof buf);
    assert_string_equal(buf, "none-shown");
}

/* fuzz13 (fuzz_steps): a flat run's level near INT64_MAX is the point's
 * own figure; read back from a double it rounded up to 2^63, outside
 * int64_t (UBSan: float-cast-overflow; here INT64_MIN). */
static void test_memory_level_huge(void **state)
{
    (void)state;
    static const char *const lines[] = {"step=1 peak_alloc=1GB", "step=2 peak_alloc=1GB",
                                        "step=3 peak_alloc=9223372036854775500B", "step=4 peak_alloc=1GB",
                                        "step=5 peak_alloc=1GB", "step=6 peak_alloc=1GB"};
    struct steps_series s;
    steps_series_init(&s);
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        struct steps_point pt;
        steps_parse_line(lines[i], strlen(lines[i]), &pt);
        assert_int_equal(steps_series_add(&s, &pt), 0);
    }
    struct steps_mem_trend t;
    steps_memory_trend_of(&s, &t);
    assert_int_equal(t.trend, STEPS_TREND_FLAT);
    assert_true(t.level_bytes == 9223372036854775500LL);
    assert_int_equal(t.level_step, 3);
    steps_series_release(&s);
}

static void test_series_merge_and_restart(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "iter 1: loss 5.0", "iter 2: loss 4.0", "iter 2: loss 3.9", /* re-logged: merged */
        "iter 3: loss 3.5", "iter 1: loss 6.0",                     /* restart */
        "iter 2: loss 5.5", "GPU: 1001.00 KB",                      /* memory joins step 2 */
        "Epoch 2, step 3 loss: 5.0", NULL,
    };
    struct steps_series s;
    steps_series_init(&s);
    add_lines(&s, lines);
    assert_int_equal(s.n, 3);
    assert_int_equal(s.points[0].step, 1);
    assert_true(s.points[0].loss == 6.0);
    assert_int_equal(s.points[1].step, 2);
    assert_int_equal(s.points[1].mem, 1025024);
    assert_int_equal(s.points[2].step, 3);
    steps_series_release(&s);
    /* Lines saying nothing about loss or memory are not points. */
    struct steps_point pt;
    parse("iter 7", &pt);
    steps_series_add(&s, &pt);
    assert_int_equal(s.n, 0);
    steps_series_release(&s);
}

static void test_series_epoch_lines(void **state)
{
    (void)state;
    /* Keras: the epoch on its own line, the progbar's step restarting. */
    static const char *const keras[] = {
        "Epoch 1/2", "1/3 [=========>....................] - ETA: 2s - loss: 2.3000",
        "2/3 [===================>..........] - ETA: 1s - loss: 2.2000",
        "3/3 [==============================] - 3s 1s/step - loss: 2.1000 - val_loss: 2.5",
        "Epoch 2/2", "1/3 [=========>....................] - ETA: 2s - loss: 1.9000",
        "2/3 [===================>..........] - ETA: 1s - loss: 1.8000",
        "3/3 [==============================] - 3s 1s/step - loss: 1.7000 - val_loss: 2.0", NULL,
    };
    struct steps_series s;
    steps_series_init(&s);
    add_lines(&s, keras);
    assert_int_equal(s.n, 6);
    assert_true(s.points[3].epoch == 2);
    assert_int_equal(s.points[3].step, 1);
    assert_int_equal(steps_loss_trend(&s), STEPS_TREND_FALLING);
    steps_series_release(&s);
    struct steps_point pt;
    assert_int_equal(parse("global_step=500 loss=0.25", &pt), STEPS_STEP | STEPS_LOSS);
    assert_int_equal(pt.step, 500);
}

static void test_series_cap(void **state)
{
    (void)state;
    struct steps_series s;
    steps_series_init(&s);
    size_t total = ((size_t)1 << 20) + 1000;
    for (size_t i = 0; i < total; i++) add_loss(&s, (long)i, 10.0 - (double)i / (double)total);
    assert_true(s.n <= ((size_t)1 << 20));
    assert_true(s.n > ((size_t)1 << 19));
    assert_int_equal(steps_loss_trend(&s), STEPS_TREND_FALLING);
    add_loss(&s, (long)total, NAN);
    assert_int_equal(steps_loss_trend(&s), STEPS_TREND_NAN);
    steps_series_release(&s);
}

/* ---- the labelled logs -------------------------------------------------- */

/* Logs whose steps_shown is not the number of points with a loss or memory
 * figure, and why (so the count is not asserted for them):
 *   005  counts progress lines that print no loss (only one memory report)
 *   010  counts the step bar, not the nan epoch summary that follows it
 *   013  counts tqdm steps; only one line carries a loss
 *   018  counts replays, not the "After capture GPU:" memory lines
 *   020  counts one step's forward/backward phases as one
 *   024  counts the cut bar of step 6 (no loss) of the restarted run */
static const char *const count_not_comparable[] = {"005", "010", "013", "018", "020", "024", NULL};

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            char *p = realloc(buf, cap);
            if (!p) break;
            buf = p;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0) break;
        n += got;
    }
    fclose(f);
    *len = n;
    return buf;
}

static bool listed(const char *id, const char *const *ids)
{
    for (size_t i = 0; ids[i]; i++)
        if (strcmp(id, ids[i]) == 0) return true;
    return false;
}

static int check_log(const char *dir, char **col)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.log", dir, col[0]);
    size_t len = 0;
    char *text = read_file(path, &len);
    if (!text) {
        printf("runlog %s: cannot read %s\n", col[0], path);
        return 1;
    }
    struct steps_series s;
    steps_series_init(&s);
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - text) : len;
        struct steps_point pt;
        steps_parse_line(text + i, end - i, &pt);
        steps_series_add(&s, &pt);
        i = end + 1;
    }
    const char *loss = steps_trend_name(steps_loss_trend(&s), false);
    const char *mem = steps_trend_name(steps_memory_trend(&s), true);
    int bad = 0;
    if (strcmp(loss, col[4]) != 0) bad++;
    if (strcmp(mem, col[5]) != 0) bad++;
    bool count = !listed(col[0], count_not_comparable);
    if (count && s.n != strtoul(col[3], NULL, 10)) bad++;
    printf("runlog %s %-12s loss %-9s (label %-9s) memory %-10s (label %-10s) points %zu (label "
           "%s%s) %s\n",
           col[0], col[2], loss, col[4], mem, col[5], s.n, col[3], count ? "" : ", not compared",
           bad ? "FAIL" : "ok");
    steps_series_release(&s);
    free(text);
    return bad;
}

static void test_labelled_runlogs(void **state)
{
    (void)state;
    const char *root = getenv("OOMLAB_ROOT");
    char dir[400], path[512];
    snprintf(dir, sizeof dir, "%s/tests/runlogs", root ? root : ".");
    snprintf(path, sizeof path, "%s/labels.tsv", dir);
    size_t len = 0;
    char *tsv = read_file(path, &len);
    assert_non_null(tsv);
    char *text = malloc(len + 1);
    assert_non_null(text);
    memcpy(text, tsv, len);
    text[len] = '\0';
    int failed = 0, logs = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "id\t", 3) == 0) continue;
        char *col[9] = {0};
        size_t c = 0;
        for (char *p = line; c < 9 && p; c++) {
            col[c] = p;
            p = strchr(p, '\t');
            if (p) *p++ = '\0';
        }
        if (c < 6) continue;
        logs++;
        failed += check_log(dir, col) != 0;
    }
    printf("runlogs: %d of %d labelled logs pass\n", logs - failed, logs);
    free(text);
    free(tsv);
    assert_true(logs >= 23);
    assert_int_equal(failed, 0);
}

/* Progress formats issue 12 found in real logs: MXNet's Speedometer
 * ("Epoch[%d] Batch [%d]\tSpeed: ...", apache/mxnet:example/rcnn/rcnn/callback.py;
 * the line is TuSimple/mx-maskrcnn#98's) and transformers' notebook bar
 * (bitsandbytes-foundation/bitsandbytes#340). */
static void test_mxnet_and_notebook_bars(void **state)
{
    (void)state;
    struct steps_point pt;
    parse("INFO:root:Epoch[0] Batch [2260] Speed: 0.34 samples/sec Train-RCNNAcc=0.795092, "
          "RCNNLogLoss=0.639085,   RCNNL1Loss=1.497108,", &pt);
    assert_int_equal(pt.step, 2260);
    assert_true(pt.epoch == 0);
    parse(" [ 501/1500 06:35 < 13:11, 1.26 it/s, Epoch 1/3]", &pt);
    assert_int_equal(pt.step, 501);
    /* MetricLogger (DETR/DeiT/BLIP utils) joins its fields with two blanks
     * (gaopengcuhk/Stable-Pix2Seq#14); mmcv's form has none
     * (open-mmlab/mmdetection#1956). */
    parse("Epoch: [0]  [ 260/3696]  eta: 0:47:11  lr: 0.000100  loss: 5.6821 (6.3225)  at: 5.6821 "
          "(6.3225)  time: 0.7617  data: 0.0362  max mem: 29528", &pt);
    assert_int_equal(pt.step, 260);
    parse("2019-12-31 00:21:04,166 - INFO - Epoch [1][1550/23454]\tlr: 0.00050, eta: 1 day, 19:58:30, "
          "time: 0.429, data_time: 0.006, memory: 6814, loss_cls: 0.0960", &pt);
    assert_int_equal(pt.step, 1550);
    /* icefall/k2 trainers (lifeiteng/vall-e#110): the batch after the epoch;
     * "batch size: 13" at its end is no step. */
    parse("2023-05-01 13:05:32,968 INFO [trainer.py:757] Epoch 1, batch 164500, train_loss[loss=2.744, "
          "ArTop10Accuracy=0.7321, over 5302.00 frames. ], tot_loss[loss=2.675, ArTop10Accuracy=0.7504, over "
          "5204.26 frames. ], batch size: 13, lr: 8.72e-03", &pt);
    assert_int_equal(pt.step, 164500);
    /* A shape in brackets is no batch counter. */
    parse("batch [32, 3, 224, 224]", &pt);
    assert_int_equal(pt.step, -1);
}

/* Step forms from corpus-heldout8 threads: "Step #9" (VinAIResearch/
 * Anti-DreamBooth#28), Paddle's transformer example "batch_id:1280" and
 * "epoch: 0, batch: 1279" with separators (PaddlePaddle/Paddle#12749). */
static void test_hash_step_and_batch_id(void **state)
{
    (void)state;
    struct steps_point pt;
    parse("Step #9, loss: 0.01661524921655655, prior_loss: 0.006576416082680225, instance_loss: "
          "0.010038832202553749", &pt);
    assert_int_equal(pt.step, 9);
    parse("batch_id:1280 data_len:4", &pt);
    assert_int_equal(pt.step, 1280);
    parse("epoch: 0, batch: 1279, sum loss: 49413.003906, avg loss: 6.634399, ppl: 760.821655", &pt);
    assert_int_equal(pt.step, 1279);
    /* still no step: a batch with no epoch before it, a '#' with no number */
    parse("batch: 1279, sum loss: 49413.003906", &pt);
    assert_int_equal(pt.step, -1);
    parse("step #, loss: 0.5", &pt);
    assert_int_equal(pt.step, -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guide_line),
        cmocka_unit_test(test_hash_step_and_batch_id),
        cmocka_unit_test(test_hf_trainer),
        cmocka_unit_test(test_lightning_and_tqdm),
        cmocka_unit_test(test_torchtitan),
        cmocka_unit_test(test_megatron),
        cmocka_unit_test(test_deepspeed),
        cmocka_unit_test(test_nanogpt),
        cmocka_unit_test(test_fairseq),
        cmocka_unit_test(test_mmdet),
        cmocka_unit_test(test_mlx),
        cmocka_unit_test(test_keras_yolo_lua),
        cmocka_unit_test(test_generic_and_others),
        cmocka_unit_test(test_more_frameworks),
        cmocka_unit_test(test_loss_trends),
        cmocka_unit_test(test_memory_trends),
        cmocka_unit_test(test_memory_trend_evidence),
        cmocka_unit_test(test_memory_level_huge),
        cmocka_unit_test(test_series_merge_and_restart),
        cmocka_unit_test(test_series_epoch_lines),
        cmocka_unit_test(test_series_cap),
        cmocka_unit_test(test_labelled_runlogs),
        cmocka_unit_test(test_mxnet_and_notebook_bars),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
