/* stagetag: the stage a logger's file tag names ("net.cpp:219]",
 * "async_llm_engine.py:61]": the file that logs, its line, ']'), for a
 * file that logs in one stage only. One table for both readings: a log
 * line above the message (stage_glog_tag) and the lines of a traceback
 * that a serving engine logs under its tag (stage_logger_bits). */
#include <ctype.h>
#include <string.h>

#include "lib/stage.h"

static const struct {
    const char *file; /* "name.ext:", then the line number and ']' */
    enum oom_stage stage;
    bool traceback; /* read on a traceback's lines (an outer frame's evidence), else on a log line */
} logger_files[] = {
    /* a glog line names the C++ source file that logs it ("I0601
     * 10:12:32.332201  6292 net.cpp:219] conv1_2 does not need backward
     * computation."). Caffe's net.cpp logs only while Net::Init builds the
     * network ("Creating layer", "Setting up", "Top shape", "Memory
     * required for data", "... does not need backward computation",
     * "Network initialization done"; BVLC/caffe: src/caffe/net.cpp), as its
     * layer_factory.hpp does ("Creating layer") and upgrade_proto.cpp while
     * it reads the net's prototxt: the labellers' network-building lines
     * before an unshown failure, load (heldout34 h34-16, -17). */
    {"net.cpp:", OOM_STAGE_LOAD, false},
    {"layer_factory.hpp:", OOM_STAGE_LOAD, false},
    {"upgrade_proto.cpp:", OOM_STAGE_LOAD, false},
    /* vLLM's AsyncLLMEngine runs its request loop (run_engine_loop ->
     * engine_step) as a background task; _log_task_completion logs its
     * exception as logger.error("Engine background task failed",
     * exc_info=e), each line under the tag "async_llm_engine.py:N]" of
     * vLLM's formatter ("%(levelname)s %(asctime)s %(filename)s:%(lineno)d]
     * %(message)s"): vllm-project/vllm:vllm/engine/async_llm_engine.py,
     * vllm/logger.py. The task starts with the first request, after the
     * model is loaded and profiled: generation (vllm-project/vllm#7019,
     * #13682). Read on a traceback's lines only, the reading it was
     * measured for: the file's other lines are not read by this row. */
    {"async_llm_engine.py:", OOM_STAGE_GENERATE, true},
};

/* a byte of a file's name: the tag is the file's whole name, not the end
 * of another's ("my_async_llm_engine.py:", "caffe-net.cpp:") */
static bool name_byte(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

/* The stage of the first row read on this kind of line whose tag starts
 * within text's first span bytes (then its line number and ']' within
 * len); unknown when none. */
static enum oom_stage tagged_stage(const char *text, size_t span, size_t len, bool traceback)
{
    const char *end = text + len;
    for (size_t k = 0; k < sizeof logger_files / sizeof logger_files[0]; k++) {
        if (logger_files[k].traceback != traceback) continue;
        const char *file = logger_files[k].file;
        size_t m = strlen(file);
        for (const char *p = memmem(text, span, file, m); p; p = memmem(p + 1, span - (size_t)(p + 1 - text), file, m)) {
            if (p > text && name_byte(p[-1])) continue;
            const char *d = p + m;
            while (d < end && isdigit((unsigned char)*d)) d++;
            if (d > p + m && d < end && *d == ']') return logger_files[k].stage;
        }
    }
    return OOM_STAGE_UNKNOWN;
}

/* the glog header sits at the line's start: its first 80 bytes */
enum oom_stage stage_glog_tag(const char *text, size_t len)
{
    return tagged_stage(text, len < 80 ? len : 80, len, false);
}

unsigned stage_logger_bits(const char *prefix, size_t n)
{
    enum oom_stage st = tagged_stage(prefix, n, n, true);
    return st == OOM_STAGE_UNKNOWN ? 0 : 1u << st;
}
