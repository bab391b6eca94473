/* Unit tests for two call mechanisms of issue 12 (prosecall):
 * - an OOM said to be fixed (lib/mention's mended_verbs): the sentence that
 *   says the OOM was fixed, solved or resolved names a failure that is over,
 *   not one of this paste; the OOM words that are no object of the mending
 *   verb and a request to fix one stay failures;
 * - a traceback the paste cuts before its error, under an issue title that
 *   names the GPU's memory (scan.c memory_title_over_cut,
 *   mention_device_memory): a GPU OOM, the context note "cut-title". */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/mention.h"

#include "call_fixture.h"

static enum mention_kind read_line(const char *line)
{
    struct mention_hit hit;
    return mention_read(line, strlen(line), &hit);
}

/* The mended OOM, in Chinese and English: no mention. */
static void test_mended_oom_lines(void **state)
{
    (void)state;
    /* stanleylsx/llms_tool#46 (heldout40 h40-01): after fixing the OOM
     * problem, the program quits during DeepSpeed's initialization */
    assert_int_equal(read_line("@tuzeao \xe6\x84\x9f\xe8\xb0\xa2\xe3\x80\x82\xe4\xbf\xae\xe5\xa4\x8d"
                               "\xe4\xba\x86oom\xe9\x97\xae\xe9\xa2\x98\xe5\x90\x8e\xef\xbc\x8c"
                               "\xe8\xbf\x98\xe9\x81\x87\xe5\x88\xb0\xe4\xb8\x80\xe4\xb8\xaa"
                               "\xe6\x83\x85\xe5\x86\xb5\xe6\x98\xaf\xe7\xa8\x8b\xe5\xba\x8f "
                               "deepspeed"),
                     MENTION_NONE);
    /* the same with 解决了 (solved) */
    assert_int_equal(read_line("\xe8\xa7\xa3\xe5\x86\xb3\xe4\xba\x86 CUDA OOM \xe9\x97\xae\xe9\xa2\x98"),
                     MENTION_NONE);
    /* English wordings of public write-ups ("After fixing the OOM, the chain
     * ran to completion but produced all-NaN output"; "This resolved the OOM
     * (Out-of-Memory) errors"), here with the device in the sentence */
    assert_int_equal(read_line("After fixing the CUDA OOM, the run produced all-NaN output on the GPU."),
                     MENTION_NONE);
    assert_int_equal(read_line("Lowering the batch size resolved the GPU out of memory errors."),
                     MENTION_NONE);
    assert_int_equal(read_line("I solved this OOM on my 3090 by enabling gradient checkpointing."),
                     MENTION_NONE);
}

/* The OOM words that stay a failure: another object of the verb, a
 * request, a mending still going on. */
static void test_unmended_oom_lines(void **state)
{
    (void)state;
    /* heldout28 h28-97 (a GPU OOM): the fix is of something else */
    assert_int_equal(read_line("On fixing that, there is a CUDA out of memory error because there is "
                               "not no_grad decorator arround the inference script"),
                     MENTION_GPU);
    assert_int_equal(read_line("Please help me fix the CUDA out of memory error on my GPU."), MENTION_GPU);
    /* fixing without "after": the fixing goes on */
    assert_int_equal(read_line("While fixing the CUDA OOM I hit it again on the GPU."), MENTION_GPU);
}

/* A whole paste: the mended OOM is no event; an OOM named below it is. */
static void test_mended_paste(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"after stanleylsx/llms_tool#46",
         "DPO training anomaly\n\n"
         "Thanks. After fixing the OOM problem, the program exits during deepspeed initialization "
         "with no error on 8*A100.\n",
         false},
        {"after stanleylsx/llms_tool#46, then a new OOM",
         "DPO training anomaly\n\n"
         "After fixing the OOM problem, the program exits during deepspeed initialization.\n"
         "Now with ZeRO stage 2 the GPU runs out of memory again at step 3.\n",
         true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* The frames of resemble-ai/Resemblyzer#14 (heldout36 h36-67), cut by the
 * issue excerpt inside the last frame's path. */
#define RESEMBLYZER_FRAMES                                                                         \
    "Traceback (most recent call last):\n"                                                        \
    "  File \"/home/server/Resemblyzer/demo02_diarization.py\", line 64, in <module>\n"           \
    "    run()\n"                                                                                 \
    "  File \"/home/server/Resemblyzer/demo02_diarization.py\", line 46, in run\n"                \
    "    _, cont_embeds, wav_splits = encoder.embed_utterance(wav, return_partials=True, rate=16)\n" \
    "  File \"/media/server/b92be\n"

/* A cut traceback under a title that names the GPU's memory: a GPU OOM. */
static void test_cut_under_memory_title(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"resemble-ai/Resemblyzer#14",
         "Hign GPU memory requirement\n\n"
         "I Have tried to load the model on gtx 1080 GPU and run it but it is asking for a whole "
         "lot of memory\nthis is the error it throws\n\n" RESEMBLYZER_FRAMES,
         true},
        /* SWivid/F5-TTS#233's title (h28-52) over the same frames */
        {"SWivid/F5-TTS#233", "VRAM usage randomly spikes. Continues fine after restart.\n\n" RESEMBLYZER_FRAMES,
         true},
        /* rohithreddy024/Text-Summarizer-Pytorch#6's title (h40-55) */
        {"rohithreddy024/Text-Summarizer-Pytorch#6",
         "RL mode requires much more GPU memory\n\nwhen I start RL training, some errors occurs as "
         "follows\n" RESEMBLYZER_FRAMES,
         true},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
    struct oom_report rep;
    scan_log(logs[0].log, &rep);
    assert_int_equal(rep.context.call, OOM_CONTEXT_CUT_TITLE);
    assert_int_equal(rep.context.n, 1);
    assert_int_equal(rep.context.evidence[0].line, 1);
    assert_string_equal(rep.context.evidence[0].text, "Hign GPU memory requirement");
    oom_report_release(&rep);
}

/* ... and what stays a failure cut off: a title about anything else (the
 * seen look-alikes' titles over cut tracebacks), host memory on the title,
 * the GPU's memory named below the title only, a title that is no title
 * (no blank line under it), frames that are not cut (the error shown). */
static void test_cut_under_other_title(void **state)
{
    (void)state;
    static const struct call_case logs[] = {
        {"heldout12 h12-25's title", "Understand why DataLoader gets killed\n\n" RESEMBLYZER_FRAMES,
         false},
        {"heldout20 h20-80's title", "Exception in thread Thread-272 (_pin_memory_loop)\n\n" RESEMBLYZER_FRAMES,
         false},
        {"heldout28 h28-72's title", "CUDA malloc. Fatal Python error: Aborted\n\n" RESEMBLYZER_FRAMES,
         false},
        {"host memory on the title", "GPU memory fine but the RAM fills up\n\n" RESEMBLYZER_FRAMES, false},
        {"the GPU's memory below the title only",
         "Diarization demo crashes\n\nIt runs on a gtx 1080 with 8GB GPU memory.\n\n" RESEMBLYZER_FRAMES,
         false},
        {"no title", "Hign GPU memory requirement\n" RESEMBLYZER_FRAMES, false},
        {"not cut: the error shown",
         "Hign GPU memory requirement\n\n" RESEMBLYZER_FRAMES
         "ValueError: rate must be a positive integer\n",
         false},
    };
    expect_calls(logs, sizeof logs / sizeof logs[0]);
}

/* The device's memory in words, OOM words or not. */
static void test_device_memory_lexicon(void **state)
{
    (void)state;
    static const struct {
        const char *line;
        bool named;
    } lines[] = {
        {"Hign GPU memory requirement", true},
        {"VRAM usage randomly spikes. Continues fine after restart.", true},
        {"gpu memory usage increment of the model graphix-3b", true},
        /* 显存 (video memory): "the quantization eats too much video memory" */
        {"\xe9\x87\x8f\xe5\x8c\x96\xe8\xbf\x87\xe7\xa8\x8b\xe5\x90\x83\xe6\x98\xbe\xe5\xad\x98", true},
        {"Is there any requirement on the memory?", false},
        {"Exception in thread Thread-272 (_pin_memory_loop)", false},
        {"GPU memory fine but the RAM fills up", false},
        {"CUDA malloc. Fatal Python error: Aborted", false},
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        if (mention_device_memory(lines[i].line, strlen(lines[i].line)) != lines[i].named)
            fail_msg("%s", lines[i].line);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mended_oom_lines),
        cmocka_unit_test(test_unmended_oom_lines),
        cmocka_unit_test(test_mended_paste),
        cmocka_unit_test(test_cut_under_memory_title),
        cmocka_unit_test(test_cut_under_other_title),
        cmocka_unit_test(test_device_memory_lexicon),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
