/* stage: keyword tables that map traceback frames, TF nodes and log lines to
 * training stages (see stage.h). The first guide's reading rule: the last
 * lines before the error tell the stage; frames are the most precise. */
#include "lib/stage.h"

#include <ctype.h>
#include <string.h>

struct stage_word {
    const char *word;
    enum oom_stage stage;
};

/* Frame keywords: function names, files and code as they appear in Python
 * tracebacks, IPython, glog C++ stacks and Lua stacks. */
static const struct stage_word frame_words[] = {
    /* checkpoint save, logging, metrics */
    {"torch.save(", OOM_STAGE_CHECKPOINT}, {", in save\n", OOM_STAGE_CHECKPOINT},
    {", in _save\n", OOM_STAGE_CHECKPOINT},
    {"save_pretrained", OOM_STAGE_CHECKPOINT}, {"save_checkpoint", OOM_STAGE_CHECKPOINT},
    {"save_model", OOM_STAGE_CHECKPOINT}, {"save_state", OOM_STAGE_CHECKPOINT},
    {"_state_dict_utils", OOM_STAGE_CHECKPOINT}, {"full_state_dict", OOM_STAGE_CHECKPOINT},
    {"get_state_dict", OOM_STAGE_CHECKPOINT}, {"state_dict()", OOM_STAGE_CHECKPOINT},
    {"in state_dict", OOM_STAGE_CHECKPOINT}, {"ModelCheckpoint", OOM_STAGE_CHECKPOINT},
    {"log_metrics", OOM_STAGE_CHECKPOINT}, {"wandb.log(", OOM_STAGE_CHECKPOINT},
    {"save_on_train_epoch_end", OOM_STAGE_CHECKPOINT},
    /* model load, checkpoint restore */
    {"from_pretrained", OOM_STAGE_LOAD}, {"load_state_dict", OOM_STAGE_LOAD},
    {"torch.load(", OOM_STAGE_LOAD}, {", in load\n", OOM_STAGE_LOAD},
    {", in _load\n", OOM_STAGE_LOAD}, {"load_checkpoint", OOM_STAGE_LOAD},
    {"set_module_tensor_to_device", OOM_STAGE_LOAD}, {"dispatch_model", OOM_STAGE_LOAD},
    {"_load_pretrained_model", OOM_STAGE_LOAD}, {"model.to(", OOM_STAGE_LOAD},
    {"model.cuda(", OOM_STAGE_LOAD}, {"restore_checkpoint", OOM_STAGE_LOAD},
    {"_cuda_deserialize", OOM_STAGE_LOAD}, {"load_model", OOM_STAGE_LOAD},
    /* data loading, collate, pin_memory */
    {"torch/utils/data/", OOM_STAGE_DATA}, {"torch\\utils\\data\\", OOM_STAGE_DATA},
    {"collate", OOM_STAGE_DATA}, {"pin_memory", OOM_STAGE_DATA},
    {"__getitem__", OOM_STAGE_DATA}, {"_next_data", OOM_STAGE_DATA},
    {"DataLoader worker", OOM_STAGE_DATA}, {"tokenize(", OOM_STAGE_DATA},
    {"_worker_loop", OOM_STAGE_DATA},
    /* generation, KV cache */
    {".generate(", OOM_STAGE_GENERATE}, {", in generate", OOM_STAGE_GENERATE},
    {"generation/utils.py", OOM_STAGE_GENERATE}, {"beam_search", OOM_STAGE_GENERATE},
    {"greedy_search", OOM_STAGE_GENERATE}, {", in _sample", OOM_STAGE_GENERATE},
    {"_dummy_sampler_run", OOM_STAGE_GENERATE}, {"kv_cache", OOM_STAGE_GENERATE},
    {"KV cache", OOM_STAGE_GENERATE}, {"initialize_cache", OOM_STAGE_GENERATE},
    {"warming up sampler", OOM_STAGE_GENERATE},
    /* evaluation */
    {"evaluate", OOM_STAGE_EVAL}, {"evaluation_loop", OOM_STAGE_EVAL},
    {"prediction_step", OOM_STAGE_EVAL}, {"validation_step", OOM_STAGE_EVAL},
    {"val_step", OOM_STAGE_EVAL}, {"eval_step", OOM_STAGE_EVAL},
    {", in test\n", OOM_STAGE_EVAL}, {" = test()", OOM_STAGE_EVAL},
    {", in validate", OOM_STAGE_EVAL}, {"_run_eval", OOM_STAGE_EVAL},
    {"validation_loop", OOM_STAGE_EVAL}, {"predict_step", OOM_STAGE_EVAL},
    {"_evaluation_step", OOM_STAGE_EVAL},
    /* optimizer step */
    {"optimizer.step", OOM_STAGE_OPTIMIZER}, {"optimizer_step", OOM_STAGE_OPTIMIZER},
    {"/optim/", OOM_STAGE_OPTIMIZER}, {"\\optim\\", OOM_STAGE_OPTIMIZER},
    {"_single_tensor_adam", OOM_STAGE_OPTIMIZER}, {"_multi_tensor_adam", OOM_STAGE_OPTIMIZER},
    {"exp_avg", OOM_STAGE_OPTIMIZER}, {"clip_grad_norm", OOM_STAGE_OPTIMIZER},
    {"ApplyUpdate", OOM_STAGE_OPTIMIZER}, {"_optim.py", OOM_STAGE_OPTIMIZER},
    /* backward */
    {".backward(", OOM_STAGE_BACKWARD}, {", in backward", OOM_STAGE_BACKWARD},
    {"run_backward", OOM_STAGE_BACKWARD}, {"_execution_engine", OOM_STAGE_BACKWARD},
    {"Backward_gpu", OOM_STAGE_BACKWARD}, {"::Backward", OOM_STAGE_BACKWARD},
    {"autograd/__init__.py", OOM_STAGE_BACKWARD}, {"backward_pass", OOM_STAGE_BACKWARD},
    {"BackwardAlgorithm", OOM_STAGE_BACKWARD},
    /* forward: modules, layers and the ops they call */
    {", in forward", OOM_STAGE_FORWARD}, {"forward_call", OOM_STAGE_FORWARD},
    {"_call_impl", OOM_STAGE_FORWARD}, {"Forward_gpu", OOM_STAGE_FORWARD},
    {"::Forward", OOM_STAGE_FORWARD}, {"ForwardAlgorithm", OOM_STAGE_FORWARD},
    {"F.linear(", OOM_STAGE_FORWARD}, {"torch.matmul(", OOM_STAGE_FORWARD},
    {".softmax(", OOM_STAGE_FORWARD}, {"scaled_dot_product_attention", OOM_STAGE_FORWARD},
    {"grid_sampler(", OOM_STAGE_FORWARD}, {"_C._nn.", OOM_STAGE_FORWARD},
    {"torch.nn.functional.", OOM_STAGE_FORWARD}, {"torch.conv", OOM_STAGE_FORWARD},
    {"F.conv", OOM_STAGE_FORWARD}, {"torch.einsum(", OOM_STAGE_FORWARD},
    {"torch.bmm(", OOM_STAGE_FORWARD}, {"torch.cat(", OOM_STAGE_FORWARD},
    {"layer_norm(", OOM_STAGE_FORWARD}, {"F.embedding(", OOM_STAGE_FORWARD},
    {"nn/modules/", OOM_STAGE_FORWARD}, {"nn\\modules\\", OOM_STAGE_FORWARD},
    {"model(", OOM_STAGE_FORWARD}, {"forward(", OOM_STAGE_FORWARD},
};

/* Plain log lines that announce what the program is doing. Data first:
 * "Generating train split" is the datasets library, not generation. */
static const struct stage_word context_words[] = {
    {"Map:", OOM_STAGE_DATA}, {"Tokeniz", OOM_STAGE_DATA}, {"tokenizing", OOM_STAGE_DATA},
    {"Running tokenizer", OOM_STAGE_DATA}, {"Loading dataset", OOM_STAGE_DATA},
    {"train split", OOM_STAGE_DATA}, {"Preprocessing", OOM_STAGE_DATA},
    {"Filter:", OOM_STAGE_DATA}, {"collat", OOM_STAGE_DATA},
    {"Saving model checkpoint", OOM_STAGE_CHECKPOINT}, {"Saving checkpoint", OOM_STAGE_CHECKPOINT},
    {"saving checkpoint", OOM_STAGE_CHECKPOINT}, {"Summoning checkpoint", OOM_STAGE_CHECKPOINT},
    {"Saving model", OOM_STAGE_CHECKPOINT}, {"Saving the model", OOM_STAGE_CHECKPOINT},
    {"Loading checkpoint shards", OOM_STAGE_LOAD}, {"Loading model", OOM_STAGE_LOAD},
    {"Loading weights", OOM_STAGE_LOAD}, {"loading checkpoint", OOM_STAGE_LOAD},
    {"Restoring", OOM_STAGE_LOAD}, {"Loading pretrained", OOM_STAGE_LOAD},
    {"Running Evaluation", OOM_STAGE_EVAL}, {"Evaluating", OOM_STAGE_EVAL},
    {"Validation", OOM_STAGE_EVAL}, {"Validating", OOM_STAGE_EVAL},
    {"Start evaluation", OOM_STAGE_EVAL}, {"running eval", OOM_STAGE_EVAL},
    {"Generating", OOM_STAGE_GENERATE}, {"generating", OOM_STAGE_GENERATE},
    {"Sampling", OOM_STAGE_GENERATE},
};

static bool has(const char *text, size_t len, const char *w)
{
    return memmem(text, len, w, strlen(w)) != NULL;
}

static bool starts(const char *s, size_t n, const char *w)
{
    size_t k = strlen(w);
    return n >= k && memcmp(s, w, k) == 0;
}

enum stage_line stage_line_kind(const char *body, size_t len)
{
    size_t i = 0;
    while (i < len && (body[i] == ' ' || body[i] == '\t')) i++;
    if (i == len) return STAGE_LINE_BLANK;
    const char *s = body + i;
    size_t n = len - i;
    if (has(s, n, "Traceback (most recent call last)") || starts(s, n, "stack traceback:") ||
        has(s, n, "Check failure stack trace") || starts(s, n, "Stack (most recent call last)"))
        return STAGE_LINE_HEADER;
    if (starts(s, n, "File \"") || starts(s, n, "-->") || starts(s, n, "---->") ||
        starts(s, n, "-> ") || starts(s, n, "@ ") || has(s, n, ": in function") ||
        (has(s, n, ".py in ") && !has(s, n, ": ")))
        return STAGE_LINE_FRAME;
    if (i > 0 || starts(s, n, "During handling") || starts(s, n, "The above exception") ||
        starts(s, n, "^"))
        return STAGE_LINE_CODE;
    return STAGE_LINE_OTHER;
}

unsigned stage_frame_bits(const char *text, size_t len)
{
    unsigned bits = 0;
    for (size_t i = 0; i < sizeof frame_words / sizeof frame_words[0]; i++)
        if (!(bits & (1u << frame_words[i].stage)) && has(text, len, frame_words[i].word))
            bits |= 1u << frame_words[i].stage;
    return bits;
}

enum oom_stage stage_context_line(const char *text, size_t len)
{
    for (size_t i = 0; i < sizeof context_words / sizeof context_words[0]; i++)
        if (has(text, len, context_words[i].word)) return context_words[i].stage;
    return OOM_STAGE_UNKNOWN;
}

/* TF node / op names: gradients/ or ...Grad ops are backward, initializers
 * load, save/ checkpoint, Apply* optimizer updates; any other node forward. */
static enum oom_stage tf_name_stage(const char *name, size_t n, const char *op, size_t opn)
{
    static const struct stage_word names[] = {
        {"gradients/", OOM_STAGE_BACKWARD}, {"_grad/", OOM_STAGE_BACKWARD},
        {"/Initializer/", OOM_STAGE_LOAD}, {"save/", OOM_STAGE_CHECKPOINT},
        {"/Adam", OOM_STAGE_OPTIMIZER}, {"Apply", OOM_STAGE_OPTIMIZER},
        {"Grad", OOM_STAGE_BACKWARD},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (has(name, n, names[i].word) || (op && has(op, opn, names[i].word)))
            return names[i].stage;
    return OOM_STAGE_FORWARD;
}

enum oom_stage stage_tf(const char *text, size_t len)
{
    static const char *const heads[] = {"[[Node: ", "[[{{node ", "Detected at node '",
                                        "Detected at node ", "[Op:", "{{function_node "};
    for (size_t h = 0; h < sizeof heads / sizeof heads[0]; h++) {
        const char *p = memmem(text, len, heads[h], strlen(heads[h]));
        if (!p) continue;
        p += strlen(heads[h]);
        size_t rest = len - (size_t)(p - text), n = 0;
        while (n < rest && p[n] != ' ' && p[n] != '}' && p[n] != ']' && p[n] != '\'') n++;
        if (!n) continue;
        const char *op = NULL;
        size_t opn = 0;
        if (n + 3 < rest && memcmp(p + n, " = ", 3) == 0) {
            op = p + n + 3;
            while (opn < rest - n - 3 && (isalnum((unsigned char)op[opn]) || op[opn] == '_'))
                opn++;
        }
        return tf_name_stage(p, n, op, opn);
    }
    return OOM_STAGE_UNKNOWN;
}

enum oom_stage stage_pick(unsigned bits)
{
    static const enum oom_stage order[] = {
        OOM_STAGE_CHECKPOINT, OOM_STAGE_LOAD, OOM_STAGE_DATA, OOM_STAGE_GENERATE,
        OOM_STAGE_EVAL, OOM_STAGE_OPTIMIZER, OOM_STAGE_BACKWARD, OOM_STAGE_FORWARD,
    };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (bits & (1u << order[i])) return order[i];
    return OOM_STAGE_UNKNOWN;
}

enum oom_stage stage_combine(enum oom_stage frames, enum oom_stage context)
{
    if (frames == OOM_STAGE_UNKNOWN) return context;
    /* A forward pass run by evaluation or generation belongs to them. */
    if (frames == OOM_STAGE_FORWARD &&
        (context == OOM_STAGE_EVAL || context == OOM_STAGE_GENERATE))
        return context;
    return frames;
}

bool stage_attention_text(const char *text, size_t len)
{
    static const char *const words[] = {"attention", "attn", "softmax", "sdpa", "Attention"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (has(text, len, words[i])) return true;
    return false;
}
