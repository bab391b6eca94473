/* stagetag: the stage a logger's tag on every line of a traceback names,
 * for a logger that logs one loop's failures only. A serving engine logs
 * its request loop's exception line by line under its own tag, and a
 * paste that starts inside that traceback keeps the tag when the loop's
 * own frames are cut. */
#include <ctype.h>
#include <string.h>

#include "lib/stage.h"

/* vLLM's AsyncLLMEngine runs its request loop (run_engine_loop ->
 * engine_step) as a background task; _log_task_completion logs its
 * exception as logger.error("Engine background task failed", exc_info=e),
 * each line under the tag "async_llm_engine.py:N]" of vLLM's formatter
 * ("%(levelname)s %(asctime)s %(filename)s:%(lineno)d] %(message)s"):
 * vllm-project/vllm:vllm/engine/async_llm_engine.py, vllm/logger.py.
 * The task starts with the first request, after the model is loaded and
 * profiled: generation (vllm-project/vllm#7019, #13682). */
static const struct {
    const char *file; /* "name.py:", then the line number and ']' */
    enum oom_stage stage;
} logger_files[] = {
    {"async_llm_engine.py:", OOM_STAGE_GENERATE},
};

unsigned stage_logger_bits(const char *prefix, size_t n)
{
    for (size_t k = 0; k < sizeof logger_files / sizeof logger_files[0]; k++) {
        size_t m = strlen(logger_files[k].file);
        for (const char *p = memmem(prefix, n, logger_files[k].file, m); p;
             p = memmem(p + 1, n - (size_t)(p + 1 - prefix), logger_files[k].file, m)) {
            /* the file's whole name, not the end of another's */
            if (p > prefix && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) continue;
            const char *d = p + m, *end = prefix + n;
            while (d < end && isdigit((unsigned char)*d)) d++;
            if (d > p + m && d < end && *d == ']') return 1u << logger_files[k].stage;
        }
    }
    return 0;
}
