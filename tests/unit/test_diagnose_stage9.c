/* diagnose's stage on logs nobody here wrote, helper diagstage9 (issue 12).
 * Each case is real text from the public thread named beside it (the corpus
 * row in brackets); each assertion failed on the code before its mechanism
 * (main f423fe1) unless it says it guards. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/msg.h"
#include "lib/scan.h"
#include "lib/stage.h"
#include "stage_fixture.h"

/* A notebook's traceback header names the error's class; the error line
 * that ends the same traceback is the one event, and the TF node below it
 * names the stage (minimaxir/gpt-2-simple#282, h29-27). */
static void test_notebook_header_and_its_error_are_one_event(void **state)
{
    (void)state;
    const char *log =
        "ResourceExhaustedError                    Traceback (most recent call last)\n"
        "/usr/local/lib/python3.7/dist-packages/tensorflow/python/client/session.py in _do_call(self, fn, *args)\n"
        "   1379     try:\n"
        "-> 1380       return fn(*args)\n"
        "   1381     except errors.OpError as e:\n"
        "\n"
        "7 frames\n"
        "/usr/local/lib/python3.7/dist-packages/tensorflow/python/client/session.py in _call_tf_sessionrun(self, options, feed_dict, fetch_list, target_list, run_metadata)\n"
        "   1457                                             fetch_list, target_list,\n"
        "-> 1458                                             run_metadata)\n"
        "   1459 \n"
        "\n"
        "ResourceExhaustedError: failed to allocate memory\n"
        "\t [[{{node model/h18/ln_2/add_1}}]]\n"
        "Hint: If you want to see a list of allocated tensors when OOM happens, add report_tensor_allocations_upon_oom\n";
    struct oom_report rep;
    struct oomlab_err err = {{0}};
    assert_int_equal(scan_text(log, strlen(log), &rep, &err), 0);
    assert_int_equal(rep.n_events, 1);
    assert_true(rep.primary == 0);
    assert_int_equal(rep.events[0].line, 13);
    assert_string_equal(oom_stage_name(rep.events[0].stage), "forward");
    oom_report_release(&rep);
    assert_string_equal(stage_of(log), "forward");
}

/* Guard: a header whose error line the paste cut stays the event (the
 * class name is all that names the failure; ludwig-ai/ludwig#3782, h15-80). */
static void test_notebook_header_alone_stays(void **state)
{
    (void)state;
    const char *log =
        "OutOfMemoryError                          Traceback (most recent call last)\n"
        "Cell In[48], line 1\n"
        "----> 1 train_stats = model.train(dataset=X_train)\n";
    struct oom_report rep;
    struct oomlab_err err = {{0}};
    assert_int_equal(scan_text(log, strlen(log), &rep, &err), 0);
    assert_int_equal(rep.n_events, 1);
    assert_int_equal(rep.events[0].line, 1);
    oom_report_release(&rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_notebook_header_and_its_error_are_one_event),
        cmocka_unit_test(test_notebook_header_alone_stays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
