/* stage: which phase of training an OOM happened in, read the way the
 * guide reads a log: the traceback frames (function names, files, code),
 * TensorFlow node names, C++/Lua stacks, and the last log lines before the
 * error ("Saving model checkpoint", "Running Evaluation"). Keyword tables,
 * pure functions on one line at a time; the caller walks the lines. */
#ifndef OOMLAB_STAGE_H
#define OOMLAB_STAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/oom.h"

enum stage_line {
    STAGE_LINE_BLANK,
    STAGE_LINE_HEADER, /* "Traceback (most recent call last):", "stack traceback:" */
    STAGE_LINE_FRAME,  /* File "x.py", line N, in f / x.py in f( / --> N / @ 0x... */
    STAGE_LINE_CODE,   /* indented: source lines, ^^^^, locals, chained-exception notes */
    STAGE_LINE_OTHER,  /* ordinary log text (or an exception line) */
};

/* Classify one line's body (prefixes already stripped). A logger's line
 * (a level tag near its start) and a tool's indented sub-step ending in
 * "..." are OTHER, never CODE (diagstage14). */
enum stage_line stage_line_kind(const char *body, size_t len);
/* stage_line_kind(body, len) == STAGE_LINE_HEADER, without reading the
 * frame cues the other kinds need (a long line costs its length once). */
bool stage_line_is_header(const char *body, size_t len);

/* Rewrite a Rich traceback line ("│ ❱ 1448 │   module.state_dict(... │",
 * "│ /x/module.py:1448 in state_dict │") in place so frame cues read it as
 * Python's own: the first glyph stays, later glyphs become blanks, the
 * right border goes, "N in name" becomes "N, in name". Returns the new
 * length, never more than len. Other lines come back unchanged. */
size_t stage_unbox(char *line, size_t len);

/* The stages whose cues in the frames this frame calls do not count, as
 * bits (1u << stage): a forward-time hook (accelerate's offload
 * pre_forward, FSDP2's unshard) masks load; an engine's warm-up (TGI's
 * warmup, vLLM's profile_run) masks generate. */
unsigned stage_masks_inner(const char *text, size_t len);

/* the frame line is a module's forward ("…, in forward"), or
 * a constructor ("…, in __init__"): a constructor called under a forward
 * builds an object of the computation (RAFT's CorrBlock), no model load. */
bool stage_forward_frame(const char *text, size_t len);
bool stage_constructor_frame(const char *text, size_t len);

/* the frame line is autograd's own backward (".backward(",
 * a frame "…, in backward", run_backward, torch/autograd/), not a user
 * function merely named for it ("backward_G"): a module forward under a
 * named routine with no autograd frame between runs a forward pass. */
bool stage_autograd_frame(const char *text, size_t len);

/* the frame line is a method named decode (a leading underscore allowed,
 * "…, in decode", "…, in _decode"): one decoder step. Called by a module's
 * forward it is the teacher-forced pass of training, not a generation
 * (NVIDIA/tacotron2 model.py: Decoder.forward and Decoder.inference both
 * call self.decode). */
bool stage_decode_step_frame(const char *text, size_t len);
/* a training loop's frame ("…, in training", "in train_step") and a code
 * line calling a renderer ("render_pkg = render(", "self.model.render("):
 * together, the model's forward pass (open38) */
bool stage_train_loop_frame(const char *text, size_t len);
bool stage_render_call(const char *text, size_t len);

/* the code line is torch's nn.Module calling a module's forward: "result =
 * self.forward(*input, **kwargs)" (module.py __call__ up to torch 1.5),
 * "return forward_call(*args, **kwargs)" (_call_impl since 1.6). */
bool stage_module_call_code(const char *text, size_t len);

/* The stages whose cues in the frames that CALL this one do not count: an
 * optimizer's closure (the forward and backward of the step to come) masks
 * optimizer; a generation encoding its prompt (encode_prompt,
 * self.text_encoder(...)) masks generate, the encoder's forward being the
 * stage. */
unsigned stage_masks_outer(const char *text, size_t len);

/* a Java/Scala/Kotlin stack frame ("\tat org.x.MultiLayerNetwork.fit(
 * MultiLayerNetwork.java:1633)", "at x.Nd4jCuda$NativeOps.exec(Native Method)"),
 * printed innermost first under its exception. */
bool stage_java_frame(const char *s, size_t n);

/* The parts of a frame that another language or a serialisation prints,
 * rewritten as Python's frame header 'File "FILE", line LINENO, in NAME'
 * (LINENO "0" when there is none): the file with JSON's doubled
 * backslashes made single (json_escapes), the name with a nested class's
 * '$' read as '.' (dollar_dots). */
struct stage_frame_parts {
    const char *file, *lineno, *name;
    size_t file_n, lineno_n, name_n;
    bool json_escapes, dollar_dots;
};
/* Writes the header over line (whose bytes the parts may point into) when
 * the parts fit in STAGE_FRAME_HEADER_MAX bytes and the header in cap
 * (with two to spare): the new length; len unchanged otherwise. The one
 * builder of stage_unjava and stage_unjson. */
#define STAGE_FRAME_HEADER_MAX 640
size_t stage_frame_header(char *line, size_t len, size_t cap, const struct stage_frame_parts *f);

/* Rewrite a JVM frame line in place as Python's frame header ('File
 * "MultiLayerNetwork.java", line 1633, in MultiLayerNetwork.fit'), when
 * the header fits in cap bytes (with two to spare): the new length; len
 * unchanged for any other line. */
size_t stage_unjava(char *line, size_t len, size_t cap);

/* Rewrite a frame that AUTOMATIC1111's sysinfo JSON holds as a string,
 * its code in the string below it ('"D:/sd/k_diffusion/sampling.py, line
 * 594, sample_dpmpp_2m",'), in place as Python's frame header ('File
 * "D:/sd/k_diffusion/sampling.py", line 594, in sample_dpmpp_2m'), JSON's
 * doubled backslashes made single, when it fits in cap bytes (two to
 * spare): the new length; len unchanged for any other line (stagejson.c). */
size_t stage_unjson(char *line, size_t len, size_t cap);
/* The line that starts a sysinfo exception record ('"exception": "...'):
 * the frame strings below it are that record's, not the ones above
 * (stagejson.c). */
bool stage_json_record_head(const char *line, size_t len);

/* The stage bits the logger's tag in a line's prefix names ("ERROR 07-31
 * 15:13:06 async_llm_engine.py:61] " on each line of a traceback that a
 * serving engine's request loop logs) for a logger of one loop only; 0 for
 * any other prefix (stagetag.c). An outer frame's evidence: the frames
 * inside still name a more specific stage. */
unsigned stage_logger_bits(const char *prefix, size_t n);

/* A line of a Rich box (starts with a box glyph). */
bool stage_box_line(const char *s, size_t n);

/* Rich wraps a long frame header over box lines: "│ /x/torch/distributed/fsdp/wra"
 * above "│ p.py:317, in _wrap". The stage bits of the two joined; 0 when
 * the upper line is no path fragment (one word, not a line number). */
unsigned stage_box_join_bits(const char *upper, size_t un, const char *lower, size_t ln);

/* A line shaped like code, not prose (identifiers joined by operators and
 * commas): a frame's code line pasted without its header. */
bool stage_code_shaped(const char *s, size_t n);

/* nn.Module.to's convert statement cut to its first line, "return t.to("
 * ending the line (quoted in backticks or not), and the header of the frame
 * it belongs to: torch's nn/modules/module.py. A user's own helper spells
 * the same first line under its own header: the caller reads the line as
 * load only without a header or under torch's. */
bool stage_convert_first_line(const char *s, size_t n);
bool stage_torch_module_frame(const char *s, size_t n);

/* A Rich box line holding one name only ("│ forward │": a frame header's
 * function wrapped below "…/x.py:202 in"): its length and *word; 0 when
 * the line is anything else. */
size_t stage_box_word(const char *s, size_t n, const char **word);

/* An exception or log line ("RuntimeError: ...", "INFO: ..."): no code. */
bool stage_message_line(const char *s, size_t n);

/* the line is an exception's class name alone ("RuntimeError",
 * "torch.cuda.OutOfMemoryError:"), its text on the next line. */
bool stage_exception_name(const char *s, size_t n);

/* the line's last progress bar is full ("…: 100%|████| 7/7 ["). */
bool stage_bar_finished(const char *s, size_t n);

/* the line is a running progress bar with no description
 * ("  35%|███▌      | 7/20 [00:31<00:58,  4.50s/it]"): a loop runs that
 * the log does not name. */
bool stage_bar_bare(const char *s, size_t n);

/* a progress bar with no description, running or full (a
 * loop the log does not name ran below whatever line is above it). */
bool stage_bar_undescribed(const char *s, size_t n);

/* a web UI's failed-request line ("*** Error completing request",
 * AUTOMATIC1111's): the stage of the loop an undescribed bar right above
 * it ran (its sampler: generate); unknown for any other line. */
enum oom_stage stage_request_failure(const char *s, size_t n);

/* a walk up the log read *st from line s, and a bare
 * running bar lies between it and the error (bare): a load line tells what
 * loaded before the loop, not the loop. An inference app's model placement
 * is followed by its sampler (*st becomes generate); after any other load
 * line the loop is not named: true, the walk stops (older lines tell still
 * less). False, *st as it was, for any other line or with no bar between. */
bool stage_past_bare_bar(bool bare, const char *s, size_t n, enum oom_stage *st);

/* an indented banner detail, "  Num examples = 2000". */
bool stage_banner_detail(const char *s, size_t n);

/* Bit set of stages whose frame keywords occur in the text (1u << stage). */
unsigned stage_frame_bits(const char *text, size_t len);

/* The data bit a line's code earns by moving or fetching data only
 * ("targets.to(device)", "for batch in loader:"), not by a cue: such code
 * names the stage only in the innermost frame, where it can still fail
 * (an outer frame's argument moved before the call went deeper). */
unsigned stage_data_move_bits(const char *text, size_t len);

/* Bit set of stages the word parts of an identifier name ("val_one_epoch",
 * "coco_eval", "train_dataset_group"): split at '_', '.', digits and case
 * changes, compared in lower case against a table (diagstage4). */
unsigned stage_name_bits(const char *name, size_t n);

/* Stage that a line after the message (or the message's own tracing span)
 * reveals: "Method Prefill encountered an error", "prefill{id=1}",
 * "Output generated in", "error loading model"; unknown when none. */
enum oom_stage stage_after_line(const char *text, size_t len);

/* Stage a plain log line announces ("Saving model checkpoint to ..."). */
enum oom_stage stage_context_line(const char *text, size_t len);

/* the stage a tool's own log line names by a general verb or noun
 * ("Loading …", "Saving …", "Evaluating", "Starting Predictions", "Decoding
 * started"): word parts at a word's start, any case, the first one wins;
 * *done when that word is past ("Model loaded."): the action is over, and
 * lines further up name no stage of the failure.
 * Not prose (first person), warnings, or lines over VERB_LINE_MAX bytes.
 * The weakest evidence; the caller walks the lines before the error. */
#define VERB_LINE_MAX 200

/* a code line computes model math (a matrix product `@`, matmul,
 * softmax, attention, logits, a loss, `F.*`, torch's tensor ops): the
 * failing frame's code line says forward when nothing stronger does. */
bool stage_model_math(const char *code, size_t n);
enum oom_stage stage_verb_line(const char *text, size_t len, bool *done);

/* the line is a person's, not a tool's: a command typed, a question, a
 * numbered step, a sentence in the first or second person or in a script
 * other than Latin. */
bool stage_user_text(const char *text, size_t len);
/* text holds a script other than Latin: Cyrillic (UTF-8 lead bytes 0xD0,
 * 0xD1), CJK and Hangul (0xE3-0xED); box and bar glyphs (0xE2) are not it.
 * A tool's lines are English: such a line is a person's. */
bool stage_other_script(const char *text, size_t len);

/* the line is a trainer's own training-progress line
 * ("Epoch(train) [2][ 50/1833]", "Starting training from iteration 0",
 * "Epoch 1/10" alone): training under way, which names no stage, and
 * ends a walk up from the failure (stage_verb_line says done). */
bool stage_training_line(const char *text, size_t len);

/* Darknet builds its network from the .cfg one layer at a time and
 * prints a table meanwhile: a header ("layer     filters    size ...
 * input    output") and, per layer, its index before the layer is made
 * ("%5d " in pjreddie's parse_network_cfg, "%4d " in AlexeyAB's) and the
 * row the layer's maker prints after it ("conv     32  3 x 3 / 1 ...
 * BFLOPs", "route  27 24", "res    1", "yolo"). A layer whose device
 * allocation fails prints darknet's check_error ("CUDA Error: out of
 * memory") right after its index: the network was being built. LOAD when
 * line (the message's line) is a layer index and darknet's error, and
 * above (the nearest line with text over it) is the table's header or a
 * layer row; else OOM_STAGE_UNKNOWN. */
enum oom_stage stage_darknet_build(const char *prefix, size_t n, const char *above, size_t an);

/* a tool's phase line that says the phase is over ("sampling, finished.",
 * "Evaluation done in 3.2s"): an action of the verb table, then a
 * completion word ending the message; no item count. What failed came
 * after it: a walk up from the failure stops there. */
bool stage_phase_over(const char *text, size_t len);

/* the stage a phase announcement names: the first word of the
 * message after the logger's prefixes is a gerund of the verb table
 * ("Loading model modules ━━ 1/163", "[NeMo I … :343] Extracting embeddings",
 * "INFO: Loading model: …"); unknown for any other line (prose, a verb later
 * in the line, a past tense). */
enum oom_stage stage_phase_line(const char *text, size_t len);

/* a benchmark harness's log line (OpenCompass, lm_eval, MTEB
 * logger names): eval, whatever phase it announces; unknown otherwise. */
enum oom_stage stage_harness_line(const char *text, size_t len);

/* the stage of code a sentence quotes (in backticks or quotes,
 * after a colon, or leading a sentence in another script): a span that
 * calls a name and assigns or reaches through a '.', read as a frame's
 * code line (its cues, else model math: forward); unknown when none. */
enum oom_stage stage_prose_code(const char *text, size_t len);

/* a sentence ends by pointing at the line below ("It happened
 * at this line", "... occurs at:"): that line is the failing code. */
bool stage_points_at_code(const char *text, size_t len);

/* a sentence that introduces the error shown under it, ending
 * in a colon, names the action that failed by its gerund or action noun
 * ("Loading a simple quantized GGUF model with CUDA fails with:" load,
 * "I get this when saving the checkpoint:" checkpoint, "Error during
 * evaluation:" eval); unknown when it names none or is no such sentence. */
enum oom_stage stage_intro_line(const char *text, size_t len);

/* the text a message line holds before its error words names
 * the action that failed: "Could not predict nifH2D2K2F2. Not Enough GPU
 * memory? RESOURCE_EXHAUSTED: …" (ColabFold's batch log, sokrypton/
 * ColabFold = h29-39, h29-40), "Failed to load model: …", "Error while
 * decoding: …". The word after the phrase (could not, failed to, unable
 * to, error/exception while|during) read by the verb table, only its
 * parts that name a stage's action (predict, inference forward; load, move
 * the model to its device load; decod/generat generate; eval; sav
 * checkpoint): allocate, build, import, infer, initialize are none ("Unable
 * to allocate", "Could not build wheels", "Could not infer dtype"). Only
 * the message's own line:
 * a title or a sentence above ("inference error during predict_on_batch")
 * tells no stage the paste shows. */
enum oom_stage stage_failed_action(const char *text, size_t len);
/* a tool's line that opens with its failure ("Failed to move model to
 * device") above the message it printed for: stage_failed_action of it;
 * unknown for a line that does not open so. */
enum oom_stage stage_failure_line(const char *text, size_t len);

/* the text a message line holds before its error words ends
 * in "ERROR [patch type] <parameter key>.weight|.bias ": ComfyUI's and
 * Fooocus's model patcher merging a LoRA into that weight as the model is
 * loaded to the device: load; unknown for any other text. */
enum oom_stage stage_weight_patch(const char *text, size_t len);

/* a sentence that points at code on its own line ("results in
 * the code :   result = self.forward(*input)"): the offset of the code
 * after the ':', 0 when the line is none. */
size_t stage_points_in_line(const char *text, size_t len);

/* a whole line read as quoted code (code_span_stage: its cues,
 * the called name's word parts, else model math); a trailing '.' ends the
 * sentence. */
enum oom_stage stage_code_line_stage(const char *text, size_t len);

/* The stage of a code line the user marked as the failing one ("optimizer.
 * step() <-- OOM here", "loss.backward()  # error happens here"); unknown
 * for any other line. */
enum oom_stage stage_marked_line(const char *text, size_t len);

/* the stage of the place a logger tags its line with
 * ("[stage3.py:131:__init__] Reduce bucket size": file, line, function),
 * read as a frame; diagstage14: or the C function the ggml family prints
 * first ("whisper_model_load: n_vocab = 51866", "llama_decode: failed to
 * decode"), read by its word parts; unknown when the line has no such tag. */
enum oom_stage stage_log_tag(const char *text, size_t len);
/* a glog line ("I0601 10:12:32.33  6292 net.cpp:219] ...", the
 * whole line with its header) logged by a C++ source file that logs only
 * while a network is built (Caffe's net.cpp): load; else unknown
 * (stagetag.c: one table with stage_logger_bits's tags). */
enum oom_stage stage_glog_tag(const char *text, size_t len);

/* Stage of a TensorFlow node ("[[Node: gradients/... = XGrad[...]",
 * "[[{{node ...}}]]") or op tag ("[Op:StridedSliceGrad]") in the text;
 * unknown when there is none. */
enum oom_stage stage_tf(const char *text, size_t len);

/* one frame of a Julia stack ("[12] gradient(f::Function, ...)",
 * Julia 1.6+ with its "@ Module path:line" line joined after it): 1 and its
 * stage (maybe unknown) in *stage when the text is such a frame, else 0. */
int stage_julia_frame(const char *text, size_t len, enum oom_stage *stage);

/* The strongest stage in a bit set: save/load/data/generate/eval outrank
 * optimizer/backward, which outrank forward. */
enum oom_stage stage_pick(unsigned bits);

/* Frames said `frames`, the lines before said `context`: the answer. */
enum oom_stage stage_combine(enum oom_stage frames, enum oom_stage context);

/* Frames mention attention/softmax (for the attention verdict). */
bool stage_attention_text(const char *text, size_t len);

#endif
