/* Unit tests for diagstageunk (issue 12): the stage a paste's own progress
 * lines give when no frame names one. A tqdm bar drawn across a wide
 * terminal is read by its description, as a narrow one is; a model
 * placement line right above a bare running bar (the next loop) is read
 * through that bar in the short context walk above a traceback too, as the
 * verb and tail walks already do (stage_past_bare_bar). Each mechanism has
 * guards that must not move. The pastes are written here in our own words,
 * in the shape of what the tools print. */
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

/* tqdm draws "{desc}: {percentage}%|{bar}| {n}/{total} [{elapsed}<{remaining},
 * {rate}]" (tqdm/tqdm:tqdm/std.py@000ba6fa format_meter), the bar as wide as
 * the terminal in three-byte block characters: 60 of them are 180 bytes. */
#define BLOCKS10 "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
#define BLOCKS60 BLOCKS10 BLOCKS10 BLOCKS10 BLOCKS10 BLOCKS10 BLOCKS10
#define BLANKS80 "                                                                                "

static enum oom_stage verb_of(const char *line, bool *done)
{
    return stage_verb_line(line, strlen(line), done);
}

static void test_wide_bar_read_by_its_description(void **state)
{
    (void)state;
    static const struct {
        const char *line;
        enum oom_stage want;
    } rows[] = {
        /* the same bars, narrow and wide: the description names the action */
        {"Loading pipeline components...: 100%|" BLOCKS10 "| 6/6 [00:01<00:00,  3.71it/s]", OOM_STAGE_LOAD},
        {"Loading pipeline components...: 100%|" BLOCKS60 "| 6/6 [00:01<00:00,  3.71it/s]", OOM_STAGE_LOAD},
        {"Evaluating:  40%|" BLOCKS60 "      | 40/100 [00:09<00:13,  4.40it/s]", OOM_STAGE_EVAL},
        /* guards: a long line that is no bar is still too long to be
         * narration (a dump, a wrapped record), and a wide bar with no
         * description names nothing */
        {"Loading weights from a path that goes on and on " BLANKS80 BLANKS80 "/models/x.bin", OOM_STAGE_UNKNOWN},
        {" 35%|" BLOCKS60 "                    | 35/100 [00:09<00:13,  4.40it/s]", OOM_STAGE_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        bool done = false;
        enum oom_stage got = verb_of(rows[i].line, &done);
        if (got != rows[i].want)
            print_error("row %zu: got %s, want %s\n", i, oom_stage_name(got), oom_stage_name(rows[i].want));
        assert_int_equal(got, rows[i].want);
    }
}

/* A web UI's upscaler: the title names the OOM; the app's log shows the
 * diffusers pipeline made (a wide bar), its own steps, the denoising bar
 * started, then gradio's traceback, cut before any model frame. */
#define GRADIO_CUT                                                                                              \
    "Traceback (most recent call last):\n"                                                                      \
    "  File \"C:\\app\\venv\\lib\\site-packages\\gradio\\routes.py\", line 400, in run_predict\n"             \
    "    output = await app.get_blocks().process_api(\n"                                                        \
    "  File \"C:\\app\\venv\\lib\\site-packages\\gradio\\blocks.py\", line 1100, in process_api\n"            \
    "    result = await self.call_function(\n"

static void test_sampler_bar_far_above_cut_traceback(void **state)
{
    (void)state;
    const char *log = "Upscaler runs out of VRAM on a 1024px photo\n"
                      "Here is what the console shows:\n\n"
                      "Loading pipeline components...: 100%|" BLOCKS60 "| 6/6 [00:02<00:00,  2.90it/s]\n"
                      "Padding the photo to a multiple of 64...\n"
                      "Splitting into 4 tiles\n"
                      "Writing tile 0 to disk\n"
                      "Working on tile 0\n"
                      "  0%|" BLANKS80 "| 0/50 [00:09<?, ?it/s]\n" GRADIO_CUT;
    assert_string_equal(stage_of(log), "generate");
}

/* The same, the pipeline line right above the bar: the short context walk
 * above the traceback read it as load, past the sampler's own bar. */
static void test_sampler_bar_right_above_cut_traceback(void **state)
{
    (void)state;
    const char *log = "Upscaler runs out of VRAM on a 1024px photo\n\n"
                      "Loading pipeline components...: 100%|" BLOCKS10 "| 6/6 [00:02<00:00,  2.90it/s]\n"
                      "  0%|          | 0/50 [00:09<?, ?it/s]\n" GRADIO_CUT;
    assert_string_equal(stage_of(log), "generate");
}

/* A diffusers pipeline made (a wide bar), its sampler's bar with no
 * description run to the end, then a web UI's error: the latents are
 * decoded next, generate (sampling-bar-then-failure). */
static void test_finished_sampler_bar(void **state)
{
    (void)state;
    const char *sampled = "Out of VRAM right at the end of a 30-step render\n\n"
                          "Loading pipeline components...: 100%|" BLOCKS60 "| 7/7 [00:01<00:00,  5.10it/s]\n"
                          "100%|" BLOCKS60 "| 30/30 [00:20<00:00,  1.49it/s]\n"
                          "!!! Exception during processing !!! Allocation on device\n";
    assert_string_equal(stage_of(sampled), "generate");
}

/* A trainer's bare bar under its checkpoint-shard loading counts training
 * steps: a train step spans forward, backward and the optimizer, so no stage
 * (bar-without-frames; the corpus's h34-10, h34-76), not the load read
 * past the bar by the short context walk. A bar with no description that
 * ran to its end is a loop that ran too: after a trainer's loading, what
 * failed after it is not shown. */
static void test_trainer_bar_past_load(void **state)
{
    (void)state;
    const char *running = "OOM when fine-tuning the 7B model\n\n"
                          "Loading checkpoint shards: 100%|" BLOCKS10 "| 3/3 [00:04<00:00,  1.50s/it]\n"
                          "  2%|          | 20/1000 [00:41<33:00,  2.02s/it]\n"
                          "Traceback (most recent call last):\n"
                          "  File \"/home/u/run.py\", line 88, in <module>\n"
                          "    main()\n"
                          "  File \"/home/u/run.py\", line 80, in main\n"
                          "    runner.start()\n";
    assert_string_equal(stage_of(running), "unknown");
    const char *finished = "Loading checkpoint shards: 100%|" BLOCKS10 "| 3/3 [00:04<00:00,  1.50s/it]\n"
                           "100%|" BLOCKS10 "| 1000/1000 [33:00<00:00,  2.02s/it]\n"
                           "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 23.65 GiB total "
                           "capacity; 20.10 GiB already allocated; 1.20 GiB free; 21.00 GiB reserved in total by "
                           "PyTorch)\n";
    assert_string_equal(stage_of(finished), "unknown");
}

/* Guards (as on 78a0f76c). A load line with no bar below it is what
 * failed: load. A training bar with a description names no stage. */
static void test_guards(void **state)
{
    (void)state;
    const char *loading = "OOM when fine-tuning the 7B model\n\n"
                          "Loading checkpoint shards:  33%|" BLOCKS60 "| 1/3 [00:04<00:08,  4.00s/it]\n"
                          "Traceback (most recent call last):\n"
                          "  File \"/home/u/run.py\", line 88, in <module>\n"
                          "    main()\n";
    assert_string_equal(stage_of(loading), "load");
    const char *training = "OOM after a few hundred steps\n\n"
                           "Epoch 1:  35%|" BLOCKS60 "| 350/1000 [02:10<04:02,  2.68it/s, loss=0.41]\n"
                           "Traceback (most recent call last):\n"
                           "  File \"/home/u/run.py\", line 88, in <module>\n"
                           "    main()\n";
    assert_string_equal(stage_of(training), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wide_bar_read_by_its_description),
        cmocka_unit_test(test_sampler_bar_far_above_cut_traceback),
        cmocka_unit_test(test_sampler_bar_right_above_cut_traceback),
        cmocka_unit_test(test_finished_sampler_bar),
        cmocka_unit_test(test_trainer_bar_past_load),
        cmocka_unit_test(test_guards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
