/* diagnose's stage from evidence classes the eleventh round left open,
 * helper diaggaps (issue 12): Kaldi's own log lines (the program and the
 * function in the header say the phase), Java/Scala stack frames (DL4J's
 * network methods), a model the log says was just built (set-up goes on),
 * llama.cpp's "prompt eval" timings (the prompt's pass of a generation),
 * gensim's vocabulary scan before a host kill, and a printed "key: count"
 * record that is no action. Every paste is written here in the shape the
 * named library prints (its source cited beside the mechanism in
 * src/lib/stage.c); none is read from a corpus log. Each group has guards
 * that must stay as they were. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/oom.h"
#include "lib/scan.h"
#include "lib/stage.h"
#include "stage_fixture.h"
#include "scan_fixture.h"

/* PyTorch's caching allocator message, no traceback */
#define OOM                                                                                                  \
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of " \
    "23.65 GiB of which 1.02 GiB is free.\n"
/* ND4J's CUDA backend refusing a device allocation */
#define ND4J "Exception in thread \"main\" java.lang.RuntimeException: Failed to allocate 268435456 bytes from DEVICE [0] memory\n"

struct stage_row {
    const char *what;
    const char *log;
    const char *want; /* the first event's stage */
};

static void expect_rows(const struct stage_row *rows, size_t n)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        const char *got = first_stage_of(rows[i].log, NULL);
        if (strcmp(got, rows[i].want)) {
            print_error("%s: got %s, want %s\n", rows[i].what, got, rows[i].want);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

/* ---- 1. Kaldi's log header: "LOG (prog[version]:Function():file.cc:N) text"
 * (kaldi-asr/kaldi:src/base/kaldi-error.cc, MessageLogger::LogMessage) ---- */

static const struct {
    const char *line;
    enum stage_line kind;
} kaldi_kinds[] = {
    {"    LOG (VoskAPI:ReadDataFiles():model.cc:268) Loading HCLG from model/graph/HCLG.fst", STAGE_LINE_OTHER},
    {"  WARNING (nnet3-chain-train[5.5.0~1-9c8e]:Backward():nnet-compute.cc:412) Gradient clipped", STAGE_LINE_OTHER},
    {"ASSERTION_FAILED (online2-wav-nnet3-latgen-faster[5.5]:Forward():nnet-compute.cc:87) Assertion failed: (ok)",
     STAGE_LINE_OTHER},
    {"\tVLOG[2] (nnet3-train[5.5]:ExecuteCommand():nnet-compute.cc:300) Executing command 12", STAGE_LINE_OTHER},
    /* a sentence in another script quoting a call is no code line */
    {"\xe6\x88\x91\xe8\xb0\x83\xe7\x94\xa8 net.evaluate() \xe6\x97\xb6\xe5\x87\xba\xe9\x94\x99:", STAGE_LINE_OTHER},
    /* guards: code stays code, a glog/sentencepiece line is no Kaldi header */
    {"net.evaluate(test_iter)", STAGE_LINE_CODE},
    {"    model.load_state_dict(torch.load(path))", STAGE_LINE_CODE},
    {"    LOG(backward(x))", STAGE_LINE_CODE},
};

static void test_kaldi_line_kind(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof kaldi_kinds / sizeof kaldi_kinds[0]; i++) {
        enum stage_line got = stage_line_kind(kaldi_kinds[i].line, strlen(kaldi_kinds[i].line));
        if (got != kaldi_kinds[i].kind) print_error("%s: got %d\n", kaldi_kinds[i].line, (int)got);
        assert_int_equal(got, kaldi_kinds[i].kind);
    }
}

static void test_kaldi_header_names_phase(void **state)
{
    (void)state;
    static const struct {
        const char *line;
        enum oom_stage want;
    } rows[] = {
        /* the function's word parts, as a frame's */
        {"LOG (nnet3-latgen-faster[5.5]:DecodeUtteranceLatticeFaster():decoder-wrappers.cc:375) Log-like per frame "
         "for utterance utt1 is -1.8 over 512 frames.",
         OOM_STAGE_GENERATE},
        {"LOG (VoskAPI:Evaluate():eval.cc:12) Scoring 12 utterances", OOM_STAGE_EVAL},
        /* else the message, read as a tool's line */
        {"LOG (VoskAPI:ReadDataFiles():model.cc:238) Loading i-vector extractor from model/ivector/final.ie",
         OOM_STAGE_LOAD},
        /* guards: main() and a statistics line name nothing */
        {"LOG (nnet3-chain-train[5.5]:main():nnet3-chain-train.cc:95) Wrote raw model to exp/1.raw", OOM_STAGE_UNKNOWN},
        {"LOG (nnet3-chain-train[5.5]:PrintTotalStats():nnet-chain-training.cc:210) Overall average objective "
         "function for 'output' is -0.12 over 3000 frames.",
         OOM_STAGE_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        enum oom_stage got = stage_log_tag(rows[i].line, strlen(rows[i].line));
        if (got == OOM_STAGE_UNKNOWN) got = stage_phase_line(rows[i].line, strlen(rows[i].line));
        if (got != rows[i].want) print_error("%s: got %s\n", rows[i].line, oom_stage_name(got));
        assert_int_equal(got, rows[i].want);
    }
}

/* A Vosk recogniser reading a large model, its LOG lines indented in a
 * post, then the C++ runtime's bad_alloc: a host look-alike while loading. */
static void test_kaldi_pastes(void **state)
{
    (void)state;
    static const struct stage_row rows[] = {
        {"vosk model read, then bad_alloc",
         "Vosk crashes with the large model\n\n"
         "    LOG (VoskAPI:ReadDataFiles():model.cc:213) Decoding params beam=13 max-active=7000 lattice-beam=6\n"
         "    LOG (VoskAPI:RemoveOrphanNodes():nnet-nnet.cc:948) Removed 0 orphan nodes.\n"
         "    LOG (VoskAPI:CompileLooped():nnet-compile-looped.cc:345) Spent 0.08 seconds in looped compilation.\n"
         "    LOG (VoskAPI:ReadDataFiles():model.cc:268) Loading HCLG from model/graph/HCLG.fst\n"
         "terminate called after throwing an instance of 'std::bad_alloc'\n"
         "  what():  std::bad_alloc\n",
         "load"},
        {"guard: kaldi training statistics, then bad_alloc",
         "LOG (nnet3-train[5.5]:PrintTotalStats():nnet-training.cc:210) Overall average objective function for "
         "'output' is -1.2 over 3000 frames.\n"
         "terminate called after throwing an instance of 'std::bad_alloc'\n"
         "  what():  std::bad_alloc\n",
         "unknown"},
    };
    expect_rows(rows, sizeof rows / sizeof rows[0]);
}

/* Kaldi's own CUDA allocator failing (cu-allocator.cc's AllocateNewRegion):
 * a GPU OOM with its request, free and capacity; the stage from the LOG
 * lines above it (a decoder's function decodes; training statistics name
 * none). */
#define KALDI_OOM                                                                                             \
    "ERROR (nnet3-latgen-faster[5.5.0~2-3b4c]:AllocateNewRegion():cu-allocator.cc:519) Failed to allocate a " \
    "memory region of 41943040 bytes.  Possibly this is due to sharing the GPU.  Try switching the GPUs to "   \
    "exclusive mode (nvidia-smi -c 3) and using the option --use-gpu=wait to scripts like "                   \
    "steps/nnet3/chain/train.py.  Memory info: free:22M, used:7970M, total:7992M, free/total:0.0027\n"

static void test_kaldi_gpu_oom(void **state)
{
    (void)state;
    const char *log = "LOG (nnet3-latgen-faster[5.5.0~2-3b4c]:DecodeUtteranceLatticeFaster():decoder-wrappers.cc:375) "
                      "Log-like per frame for utterance spk1-utt3 is -1.41 over 640 frames.\n" KALDI_OOM;
    struct oom_report rep;
    scan_log(log, &rep);
    assert_true(rep.primary >= 0);
    const struct oom_event *e = &rep.events[rep.primary];
    assert_true(e->gpu_oom);
    assert_int_equal(e->bytes.requested, 41943040);
    assert_string_equal(oom_stage_name(e->stage), "generate");
    oom_report_release(&rep);
    const char *train = "LOG (nnet3-chain-train[5.5]:PrintTotalStats():nnet-chain-training.cc:210) Overall average "
                        "objective function for 'output' is -0.12 over 3000 frames.\n" KALDI_OOM;
    assert_string_equal(stage_of(train), "unknown");
}

/* ---- 2. Java stack frames, innermost first: "\tat pkg.Class.method(File.java:N)"
 * (DL4J's MultiLayerNetwork: fit -> computeGradientAndScore ->
 * ffToLayerActivationsInWs -> layer.activate, calcBackpropGradients ->
 * layer.backpropGradient; output() for inference) ---- */

#define DL4J_TRAIN_TAIL                                                                                          \
    "\tat org.deeplearning4j.nn.multilayer.MultiLayerNetwork.computeGradientAndScore(MultiLayerNetwork.java:2751)\n" \
    "\tat org.deeplearning4j.optimize.solvers.BaseOptimizer.gradientAndScore(BaseOptimizer.java:175)\n"             \
    "\tat org.deeplearning4j.optimize.solvers.StochasticGradientDescent.optimize(StochasticGradientDescent.java:63)\n" \
    "\tat org.deeplearning4j.optimize.Solver.optimize(Solver.java:52)\n"                                           \
    "\tat org.deeplearning4j.nn.multilayer.MultiLayerNetwork.fitHelper(MultiLayerNetwork.java:1713)\n"             \
    "\tat org.deeplearning4j.nn.multilayer.MultiLayerNetwork.fit(MultiLayerNetwork.java:1633)\n"                   \
    "\tat com.example.TrainCnn.main(TrainCnn.java:57)\n"

static void test_java_frames(void **state)
{
    (void)state;
    static const struct stage_row rows[] = {
        {"dl4j forward inside a training step",
         ND4J "\tat org.nd4j.jita.memory.CudaMemoryManager.allocate(CudaMemoryManager.java:76)\n"
              "\tat org.nd4j.linalg.jcublas.ops.executioner.CudaExecutioner.exec(CudaExecutioner.java:2104)\n"
              "\tat org.deeplearning4j.nn.layers.convolution.ConvolutionLayer.preOutput(ConvolutionLayer.java:412)\n"
              "\tat org.deeplearning4j.nn.layers.convolution.ConvolutionLayer.activate(ConvolutionLayer.java:482)\n"
              "\tat org.deeplearning4j.nn.multilayer.MultiLayerNetwork.ffToLayerActivationsInWs(MultiLayerNetwork.java:1133)\n"
              DL4J_TRAIN_TAIL,
         "forward"},
        {"dl4j backprop inside a training step",
         ND4J "\tat org.nd4j.jita.memory.CudaMemoryManager.allocate(CudaMemoryManager.java:76)\n"
              "\tat org.deeplearning4j.nn.layers.convolution.ConvolutionLayer.backpropGradient(ConvolutionLayer.java:170)\n"
              "\tat org.deeplearning4j.nn.multilayer.MultiLayerNetwork.calcBackpropGradients(MultiLayerNetwork.java:1950)\n"
              DL4J_TRAIN_TAIL,
         "backward"},
        {"dl4j inference: output()",
         ND4J "\tat org.nd4j.jita.memory.CudaMemoryManager.allocate(CudaMemoryManager.java:76)\n"
              "\tat org.deeplearning4j.nn.multilayer.MultiLayerNetwork.feedForward(MultiLayerNetwork.java:980)\n"
              "\tat org.deeplearning4j.nn.multilayer.MultiLayerNetwork.output(MultiLayerNetwork.java:2313)\n"
              "\tat com.example.Predict.main(Predict.java:31)\n",
         "forward"},
        {"a JNI frame and an anonymous class ($) read the same",
         ND4J "\tat org.nd4j.nativeblas.Nd4jCuda$NativeOps.mallocDevice(Native Method)\n"
              "\tat org.deeplearning4j.nn.multilayer.MultiLayerNetwork.calcBackpropGradients(MultiLayerNetwork.java:1950)\n"
              "\tat org.deeplearning4j.nn.multilayer.MultiLayerNetwork.fit(MultiLayerNetwork.java:1633)\n",
         "backward"},
        {"a wrapper's frames above 'Caused by:', the cause's below",
         "Exception in thread \"main\" java.lang.RuntimeException: Op [matmul] execution failed\n"
         "\tat org.deeplearning4j.nn.updater.BaseMultiLayerUpdater.update(BaseMultiLayerUpdater.java:350)\n"
         "\tat org.deeplearning4j.nn.multilayer.MultiLayerNetwork.fit(MultiLayerNetwork.java:1633)\n"
         "Caused by: java.lang.RuntimeException: Failed to allocate 268435456 bytes from DEVICE [0] memory\n"
         "\tat org.nd4j.jita.memory.CudaMemoryManager.allocate(CudaMemoryManager.java:76)\n"
         "\tat org.deeplearning4j.nn.layers.convolution.ConvolutionLayer.backpropGradient(ConvolutionLayer.java:170)\n"
         "\t... 4 more\n",
         "backward"},
        {"dl4j's async iterator prefetching batches",
         "Exception in thread \"ADSI prefetch thread\" java.lang.RuntimeException: Failed to allocate 33554432 bytes "
         "from DEVICE [0] memory\n"
         "\tat org.nd4j.jita.memory.CudaMemoryManager.allocate(CudaMemoryManager.java:76)\n"
         "\tat org.nd4j.linalg.dataset.DataSet.migrate(DataSet.java:1302)\n"
         "\tat org.deeplearning4j.datasets.iterator.AsyncDataSetIterator$AsyncPrefetchThread.run(AsyncDataSetIterator.java:415)\n",
         "data"},
        {"a sentence in another script quoting a call, over the stack",
         "\xe6\xaf\x8f\xe6\xac\xa1\xe8\xb0\x83\xe7\x94\xa8 model.evaluate(testIter) \xe9\x83\xbd\xe4\xbc\x9a\xe6\x8a\xa5\xe9\x94\x99:\n\n"
         "Exception in thread \"ADSI prefetch thread\" java.lang.RuntimeException: Failed to allocate 33554432 bytes "
         "from DEVICE [0] memory\n"
         "\tat org.nd4j.jita.memory.CudaMemoryManager.allocate(CudaMemoryManager.java:76)\n"
         "\tat org.deeplearning4j.datasets.iterator.AsyncDataSetIterator$AsyncPrefetchThread.run(AsyncDataSetIterator.java:415)\n",
         "data"},
        /* guards: the controller alone (fit) names no stage (as Keras' fit,
         * Lightning's fit); Spark's job frames name none */
        {"guard: fit alone",
         ND4J "\tat org.nd4j.jita.memory.CudaMemoryManager.allocate(CudaMemoryManager.java:76)\n"
              "\tat org.deeplearning4j.nn.multilayer.MultiLayerNetwork.fit(MultiLayerNetwork.java:1633)\n"
              "\tat com.example.TrainCnn.main(TrainCnn.java:57)\n",
         "unknown"},
        {"guard: spark frames",
         ND4J "\tat org.apache.spark.rdd.RDD.iterator(RDD.scala:329)\n"
              "\tat org.apache.spark.scheduler.ResultTask.runTask(ResultTask.scala:90)\n"
              "\tat org.apache.spark.executor.Executor$TaskRunner.run(Executor.scala:506)\n",
         "unknown"},
    };
    expect_rows(rows, sizeof rows / sizeof rows[0]);
    /* the frame line itself */
    const char *f = "\tat org.deeplearning4j.nn.multilayer.MultiLayerNetwork.fit(MultiLayerNetwork.java:1633)";
    assert_true(stage_java_frame(f, strlen(f)));
    const char *s = "    at org.apache.spark.rdd.RDD.collect(RDD.scala:990)";
    assert_true(stage_java_frame(s, strlen(s)));
    const char *prose = "    at the end of the epoch (around step 1000)";
    assert_false(stage_java_frame(prose, strlen(prose)));
}

/* ---- 3. phase lines: a model just built; llama.cpp's prompt eval ---- */

static void test_phase_gaps(void **state)
{
    (void)state;
    static const struct stage_row rows[] = {
        /* timm's train.py logs the model once built, then sets up the
         * optimizer, loaders and EMA: set-up goes on (load) */
        {"timm: Model ... created",
         "Training with a single process on 1 device (cuda:0).\n"
         "Model convnext_xxlarge created, param count:846471080\n" OOM,
         "load"},
        {"gsplat: Model initialized",
         "Model initialized. Number of GS: 1036245\n" OOM, "load"},
        {"a network built, logged by a logger",
         "2024-05-01 10:12:33,123 - INFO - Network built with 25.6M parameters\n" OOM, "load"},
        /* guards: a phase below the build decides; loaded weights are over */
        {"guard: a training line below the build",
         "Model resnet50 created, param count:25557032\n"
         "Train: 0 [   0/5004 (  0%)]  Loss: 6.931 (6.93)  Time: 3.212s\n" OOM,
         "unknown"},
        {"guard: evaluation below the build",
         "Model resnet50 created, param count:25557032\nRunning validation...\n" OOM, "eval"},
        {"guard: the model was built long ago, a save is the last line",
         "Model initialized.\nSaving checkpoint to out/ckpt-100\n" OOM, "checkpoint"},
        /* llama.cpp prints its timings per generation: the prompt's pass is
         * the generation's prefill, not an evaluation */
        {"llama.cpp perf: prompt eval time",
         "llama_perf_context_print: prompt eval time =    1234.56 ms /   512 tokens (    2.41 ms per token,   414.72 tokens per second)\n"
         "CUDA error: out of memory\n",
         "generate"},
        {"llama-server slot timings",
         "slot print_timings: id  0 | task 12 | prompt eval time =     812.44 ms /  1833 tokens\n"
         "CUDA error: out of memory\n",
         "generate"},
        {"llama-cpp-python: Llama.generate tags its line",
         "Llama.generate: 12 prefix-match hit, remaining 1833 prompt tokens to eval\n"
         "CUDA error: out of memory\n",
         "generate"},
        /* guard: an evaluation harness stays eval */
        {"guard: evaluation of a model",
         "Running evaluation on 500 prompts\nCUDA error: out of memory\n", "eval"},
    };
    expect_rows(rows, sizeof rows / sizeof rows[0]);
}

/* ---- 4. a host look-alike's stage from its tool's progress line: gensim's
 * vocabulary scan ("PROGRESS: at sentence #N, processed M words ...",
 * piskvorky/gensim word2vec.py scan_vocab) reads the corpus: data; its
 * training progress ("EPOCH 1 - PROGRESS: at 0.29% examples") names none ---- */

static void test_host_progress(void **state)
{
    (void)state;
    static const struct stage_row rows[] = {
        {"gensim vocabulary scan, then killed",
         "word2vec on a big corpus dies\n\n"
         "```\n2024-05-01 10:12:33,123 : INFO : collecting all words and their counts\n"
         "2024-05-01 10:14:01,870 : INFO : PROGRESS: at sentence #20000000, processed 401234567 words, keeping 8123456 word types\n"
         "Killed\n```\n",
         "data"},
        {"phrases: the older wording",
         "```\nPROGRESS: at sentence #1130000, processed 56422088 words and 6188645 word types\nKilled: 9\n```\n", "data"},
        {"guard: gensim's training progress",
         "```\n2024-05-01 10:20:00,001 : INFO : EPOCH 1 - PROGRESS: at 0.29% examples, 42940 words/s, in_qsize 0, out_qsize 0\n"
         "Killed: 9\n```\n",
         "unknown"},
    };
    expect_rows(rows, sizeof rows / sizeof rows[0]);
}

/* ---- 5. a printed "key: number" is a record, no action ---- */

static void test_count_records(void **state)
{
    (void)state;
    static const struct {
        const char *line;
        enum oom_stage want;
    } rows[] = {
        {"epoch: [3/500], iter: 2010, lr: 0.001000, loss: 1.902000, batch_cost: 0.41211 s, samples: 80, ips: 194.12",
         OOM_STAGE_UNKNOWN},
        {"samples: 80", OOM_STAGE_UNKNOWN},
        {"generations: 4 | loss: 0.12", OOM_STAGE_UNKNOWN},
        /* guards: a bar's description, a count after the verb, a gerund, a
         * setting of the action printed as it starts */
        {"Sampling: 35%|###5      | 7/20 [00:02<00:03,  3.61it/s]", OOM_STAGE_GENERATE},
        {"Evaluating: 12 batches", OOM_STAGE_EVAL},
        {"Generating 80 samples", OOM_STAGE_GENERATE},
        {"sample_steps: 30", OOM_STAGE_GENERATE},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        bool done;
        enum oom_stage got = stage_verb_line(rows[i].line, strlen(rows[i].line), &done);
        if (got != rows[i].want) print_error("%s: got %s\n", rows[i].line, oom_stage_name(got));
        assert_int_equal(got, rows[i].want);
    }
    /* a trainer's metrics line above the error: no sampling */
    assert_string_equal(stage_of("iter: 2010, loss: 1.90, samples: 80, ips: 194.12\n" OOM), "unknown");
}

/* ---- 6. a sentence pointing at code several paragraphs away: no new
 * mechanism. A line the user marks carries its own mark, read wherever it
 * stands (stage_marked_line); "the training loop below" points at a loop
 * that runs forward, backward and the optimizer, which names no one stage.
 * Guards that must stay as they are. ---- */

static void test_far_pointer(void **state)
{
    (void)state;
    const char *marked = "OOM when resuming\n\n"
                         "The error is raised at the line marked below.\n\n"
                         "My setup: 2x RTX 3090, torch 2.1, batch size 8.\n\n"
                         "I also tried a smaller batch, same thing.\n\n"
                         "```\nmodel = Net().cuda()\nfor x, y in loader:\n"
                         "    out = model(x)\n    loss = crit(out, y)\n"
                         "    loss.backward()  # <- CUDA out of memory here\n    opt.step()\n```\n";
    assert_string_equal(stage_of(marked), "backward");
    const char *loop = "CUDA out of memory in the training loop\n\n"
                       "The error happens in the training loop below.\n\n"
                       "My setup: 2x RTX 3090, torch 2.1, batch size 8.\n\n"
                       "```\nfor x, y in loader:\n    out = model(x)\n    loss = crit(out, y)\n"
                       "    loss.backward()\n    opt.step()\n```\n";
    assert_string_equal(stage_of(loop), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kaldi_line_kind),  cmocka_unit_test(test_kaldi_header_names_phase),
        cmocka_unit_test(test_kaldi_pastes),     cmocka_unit_test(test_kaldi_gpu_oom),
        cmocka_unit_test(test_java_frames),
        cmocka_unit_test(test_phase_gaps),       cmocka_unit_test(test_host_progress),
        cmocka_unit_test(test_count_records),    cmocka_unit_test(test_far_pointer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
