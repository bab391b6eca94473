/* Unit tests for the mechanisms read from the misses of heldout46, opened
 * for study after its blind figures were recorded at 6c667ee2 (call
 * 97/103, numbers 87/88, stages 6/9). Each case has a guard that must stay
 * as it was. The pastes are written here in the shape of the posts named
 * beside them, not copied from the threads. */
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
#include "scan_fixture.h"

/* the stage of the log's first event, GPU OOM or not */
static const char *first_stage(const char *log)
{
    struct oom_report rep;
    scan_log(log, &rep);
    if (rep.n_events == 0) fail_msg("no event in: %.80s", log);
    const char *name = oom_stage_name(rep.events[0].stage);
    oom_report_release(&rep);
    return name;
}

static const char *const old_msg =
    "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 10.76 GiB total capacity; "
    "9.81 GiB already allocated; 13.12 MiB free; 9.90 GiB reserved in total by PyTorch)\n";

/* An issue's title, the paste's first line over a blank line, is the
 * writer's words, not a line the tool printed: the walk up from a
 * traceback for the tool's own log lines stops below it. "train & test
 * environment" over a host MemoryError in the training data's stacking
 * (Tobias-Fischer/rt_gene#29 = heldout46 h46-31: read forward from
 * "test"); "The competing method pointnet training and testing" over a
 * report of CUDA OUT of MEMORY (tudelft3d/SUMS-Semantic-Urban-Mesh-
 * Segmentation-public#16 = heldout37 h37-34, read forward); "Looking to
 * reproduce inference results on 3090" (heldout46 h46-92), "inference oom"
 * (alibaba-damo-academy/Lumos#5 = heldout41 h41-80), "Select device: GPU
 * for model eval" (bigcode-project/bigcode-evaluation-harness#297 =
 * heldout36 h36-99): every one labelled unknown. (open46) */
static void test_title_is_no_tool_line(void **state)
{
    (void)state;
    const char *host =
        "train & test environment\n"
        "\n"
        "Hi,\n"
        "Error message shows:\n"
        "Traceback (most recent call last):\n"
        "  File \"train_model.py\", line 88, in <module>\n"
        "    imgs, labels = get_split_arrays(train_files, 'train')\n"
        "  File \"/home/u/numpy/core/shape_base.py\", line 283, in vstack\n"
        "    return _nx.concatenate([atleast_2d(_m) for _m in tup], 0)\n"
        "MemoryError\n";
    assert_string_equal(first_stage(host), "unknown");
    char buf[2048];
    snprintf(buf, sizeof buf,
             "The competing method pointnet training and testing\n"
             "\n"
             "Traceback (most recent call last):\n"
             "  File \"run.py\", line 12, in <module>\n"
             "    main()\n"
             "%s",
             old_msg);
    assert_string_equal(primary_stage(buf), "unknown");
    snprintf(buf, sizeof buf,
             "Select device: GPU for model eval\n"
             "\n"
             "Traceback (most recent call last):\n"
             "  File \"main.py\", line 40, in <module>\n"
             "    main()\n"
             "%s",
             old_msg);
    assert_string_equal(primary_stage(buf), "unknown");
    /* guard: a log whose first line is the tool's own, right over its
     * traceback (no blank line under it), still names its stage; so does
     * a tool's line below a title */
    snprintf(buf, sizeof buf,
             "Evaluating on the validation set\n"
             "Traceback (most recent call last):\n"
             "  File \"main.py\", line 40, in <module>\n"
             "    main()\n"
             "%s",
             old_msg);
    assert_string_equal(primary_stage(buf), "eval");
    snprintf(buf, sizeof buf,
             "OOM on a 3090\n"
             "\n"
             "Evaluating on the validation set\n"
             "Traceback (most recent call last):\n"
             "  File \"main.py\", line 40, in <module>\n"
             "    main()\n"
             "%s",
             old_msg);
    assert_string_equal(primary_stage(buf), "eval");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_title_is_no_tool_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
