/* Unit tests for OOM words without a device above a traceback (diagcall,
 * issue 12): the prose pass reads them as a GPU OOM the way the rows read
 * their device-less mentions (an "Out of memory" title over a traceback whose
 * message the paste cut), unless a guard word stands in the prose below.
 * Every line is real, from the thread named beside it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/scan.h"
#include "scan_fixture.h"

/* davabase/whisper_real_time#19 (heldout20 h20-50): the title names a memory
 * allocation error, the frames below move whisper's model .to(device), the
 * error line is cut */
static const char whisper19[] =
        "getting this error for memory allocation. what to do? is there any parameter I have to add?\n"
        "Traceback (most recent call last):\n"
        "  File \"c:\\Users\\laugh\\OneDrive\\Documents\\GitHub\\Dobby\\base2.py\", line 152, in <module>\n"
        "    main()\n"
        "  File \"c:\\Users\\laugh\\OneDrive\\Documents\\GitHub\\Dobby\\base2.py\", line 69, in main     \n"
        "    audio_model = whisper.load_model(model)\n"
        "  File \"C:\\Users\\laugh\\AppData\\Local\\Programs\\Python\\Python39\\lib\\site-packages\\whisper\\__init__.py\", line 154, in load_model\n"
        "    return model.to(device)\n"
        "  File \"C:\\Users\\laugh\\AppData\\Local\\Programs\\Python\\Python39\\lib\\site-packages\\torch\\nn\\modules\\module.py\", line 1149, in to\n"
        "    return self._apply(convert)\n"
        "  File \"C:\\Users\\laugh\\AppData\\Local\\Programs\\Python\\Python39\\lib\\site-packages\\torch\\nn\\modules\\module.py\", line 801, in _apply\n"
        "    module._apply(fn)\n";

static void test_words_above_traceback(void **state)
{
    (void)state;
    struct oom_report rep;
    scan_log(whisper19, &rep);
    assert_true(rep.primary >= 0);
    assert_true(rep.events[rep.primary].gpu_oom);
    assert_string_equal(rep.events[rep.primary].kind, "oom-mention");
    assert_int_equal(rep.events[rep.primary].line, 1);
    oom_report_release(&rep);
}

/* PaddlePaddle/PaddleOCR#13911 (heldout23 h23-12): "memory overflow" in
 * Chinese, no device, above Paddle's C++ Traceback; the title line alone is
 * no event */
static const char paddleocr13911[] =
    "2.3M图片，每次识别必定内存溢出\n"
    "此图片每次OCR识别，必定内存溢出\n"
    "-------------------------------------- \n"
    "C++ Traceback (most recent call last): \n"
    "-------------------------------------- \n"
    "paddle::AnalysisPredictor::ZeroCopyRun() \n"
    "paddle::framework::NaiveExecutor::Run() \n"
    "paddle::framework::OperatorBase::Run(paddle::framework::Scope const&, phi::Place const&) \n";
static const char paddleocr13911_title[] = "2.3M图片，每次识别必定内存溢出\n";

static void test_cjk_words_above_traceback(void **state)
{
    (void)state;
    struct oom_report rep;
    scan_log(paddleocr13911, &rep);
    assert_true(rep.primary >= 0);
    assert_true(rep.events[rep.primary].gpu_oom);
    oom_report_release(&rep);
    expect_no_gpu_oom(paddleocr13911_title);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_words_above_traceback),
        cmocka_unit_test(test_cjk_words_above_traceback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
