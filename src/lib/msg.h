/* msg: the message forms diagnose recognises, as data. Three tables:
 * anchors (fixed strings the hot scan looks for), rules (which message a
 * cleaned line is: kind, framework, GPU OOM or look-alike) and clauses
 * (where each number sits in that message). Also the line prefixes that
 * launchers and loggers put in front of messages ([rank3]:, host:pid:tid
 * [dev], timestamps, (VllmWorker rank=1 pid=...), pdsh "host: ").
 * Pure functions on caller-owned strings; nothing allocates. */
#ifndef OOMLAB_MSG_H
#define OOMLAB_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/oom.h"

/* What the launcher/logger prefix of a line says. */
struct msg_prefix {
    int rank;       /* [rank3]:, rank=3, rank: 3 |, [default3]: ; -1 */
    int dev;        /* NCCL "[3]" device tag; -1 */
    long pid;       /* NCCL host:pid:tid or pid=N; -1 */
    uint32_t host;  /* hash of a host name prefix (pdsh, NCCL); 0 none */
    size_t body;    /* offset of the text after all prefixes */
    bool task_label; /* rank read from srun --label's "3: ": a rank only where the
                        writer's neighbouring lines carry the same label (scan.c) */
    bool task_label_padded; /* the label had srun's padding (" 3: ") */
};

/* srun --label's "3: " is a task number, a rank, only in a labelled log:
 * there a writer's lines repeat its label (a traceback's frames and its
 * message all "3: "), though other tasks' lines may fall between them. A
 * user's numbered list ("1: works", "2: RuntimeError: CUDA out of memory
 * ...") has each number once. So a line's task_label is its rank only when
 * another line within MSG_TASK_LABEL_LINES above or below starts with the
 * same label (msg_task_label). The one rule: diagnose's scan (scan.c
 * parse_prefix, over the whole view) and run's per-rank figures
 * (rankstats, which holds a line until a neighbour decides it) apply it. */
#define MSG_TASK_LABEL_LINES 16
/* The srun label a raw line starts with ("3: " or padded " 3: " -> 3; up
 * to 5 columns of blanks and digits, a colon, a blank), else -1. */
int msg_task_label(const char *line, size_t len);

/* Does the text name srun, the one launcher that writes a bare "3: " before
 * each line: its command ("srun -l python train.py"), its own messages
 * ("srun: error: ...") or its step daemon's ("slurmstepd: error: ...")?
 * Without it a bare "242: " is someone else's number (ctest's test index, a
 * numbered list, a backtrace's frame) and no rank. diagnose's scan (over the
 * whole view) and run's per-rank figures (rankstats: the command and the
 * log) both ask it. (tidy23, left23) */
bool msg_names_srun(const char *text, size_t len);

/* The same over a text read in chunks: text[0, len) is a chunk, carried
 * when its first bytes are the previous chunk's last (not the text's
 * start), last when the text ends with it. Sets *named where a whole word
 * names srun; returns how many bytes at the chunk's end to carry into the
 * next (a word the cut may split; a word that reaches a chunk's end is
 * decided with the next chunk's bytes). (left25) */
size_t msg_names_srun_chunk(const char *text, size_t len, bool carried, bool last, bool *named);
/* A line whose srun label (px->task_label, from msg_prefix_parse) is no
 * rank, the text naming no srun: a padded one (" 3: ") is a backtrace's
 * numbered frame, no prefix at all; else the prefixes after the label keep
 * theirs ("0: [rank0]: Traceback ..."), the label none. */
void msg_prefix_unlabel(const char *line, size_t len, struct msg_prefix *px);

/* Parse the prefixes at the start of a cleaned line. */
void msg_prefix_parse(const char *line, size_t len, struct msg_prefix *px);
/* Same writer (rank, pid and host agree)? */
bool msg_prefix_same_source(const struct msg_prefix *a, const struct msg_prefix *b);

/* Copy src to dst without ANSI escapes, keeping only the \r-separated
 * segment that contains byte `focus` (or the last non-empty segment when
 * focus is SIZE_MAX). Returns the length written (dst is NUL-terminated,
 * cap >= 1). */
size_t msg_clean(const char *src, size_t n, size_t focus, char *dst, size_t cap);

enum msg_role {
    MSG_PRIMARY, /* an event of its own */
    MSG_DETAIL,  /* detail of a neighbouring event (merged when one is near) */
    MSG_SETTING, /* not an event: a setting the log shows (expandable_segments) */
    MSG_MENTION, /* the log names a GPU OOM only in words ("OOM during backward()"): an
                    event only when the log shows no OOM message and a traceback follows
                    (or, for a rule with qualifiers, the words name the device) */
    MSG_HOST_WORDS, /* the log says in words that host memory ran out ("you need an
                       instance with more RAM (not GPU memory)"): no event, but a GPU
                       OOM named only in words is not called then */
};

enum msg_field {
    MSG_F_REQUESTED, MSG_F_CAPACITY, MSG_F_FREE, MSG_F_ALLOCATED, MSG_F_RESERVED,
    MSG_F_RESERVED_UNALLOC, MSG_F_PROCESS, MSG_F_ALLOWED, MSG_F_OTHER, MSG_F_POOLS,
    MSG_F_GPU, MSG_F_RANK,
    MSG_F_PROC,   /* "%d ... %s": a pid and its memory, repeated */
    MSG_F_SHAPE,  /* "%S ... %t": TF shape[...] and dtype -> requested */
    MSG_F_IS_OOM, /* the pattern's presence makes the event a GPU OOM */
    MSG_F_CACHED, /* oldest PyTorch "X cached": reserved, marked as the cache's free part */
    MSG_F_REQUESTED_EXACT, /* "%d": an exact byte count that replaces a rounded one */
    MSG_F_DTYPE,  /* "%t": a dtype named apart from the shape (TF T=DT_FLOAT) */
    MSG_F_OOM_COUNT, /* "%d": a count of OOMs; > 0 makes the event a GPU OOM */
    MSG_F_HOST,   /* the pattern's presence makes the event a host-memory look-alike */
    MSG_F_DEVICE, /* the pattern's presence names the device: a host-read event is the CUDA
                     runtime's GPU OOM (cuda-error) */
};

/* A clause pattern is literal text where ' ' matches any run of blanks
 * (including none) and placeholders read values: %s a size ("1.5 GiB",
 * "0 bytes", "45.53MiB"), %d a decimal integer, %n one that may have
 * thousands separators ("25,600,000"), %S a TF shape "[a,b,c]", %t a dtype
 * word; %f a fraction's numerator in its denominator's unit ("67.24/79.25
 * GiB"); %g a plain decimal in GiB (the unit named in the pattern before
 * it); %i and %z read past an integer and a size without keeping them, %u a
 * size that names its unit ("17.62 GB", "512 bytes", not a bare "4096"), %w a
 * word of 1 to 16 capitals, whole (a device's name, "CUDA").
 * A text that ends within the pattern's last words, after its values, still
 * matches once four of their letters agree (a paste cut mid-word). */
struct msg_clause {
    const char *pattern;
    enum msg_field field;
};

struct msg_near {
    const char *pattern;
    enum msg_field field;
    int before, after; /* window in lines around the message */
};

#define MSG_ANY_MAX 16

#define MSG_UNLESS_MAX 6
#define MSG_QUALIFIER_MAX 30
struct msg_rule {
    const char *kind;      /* docs/diagnose.md lists them */
    const char *framework;
    const char *need[3];   /* all must occur */
    const char *any[MSG_ANY_MAX]; /* one must occur (when any[0]) */
    const char *unless[MSG_UNLESS_MAX]; /* none may occur */
    bool unless_words;     /* unless[] strings count only as whole words, any case ("HIP",
                              not inside "chip" or "ship"; "Device" as "device") */
    bool gpu_oom;
    enum msg_role role;
    bool fold;             /* fold repeats of this kind from the same writer */
    bool consequence;      /* a symptom of another rank's failure */
    bool oom_symptom;      /* a look-alike that a GPU OOM the log names causes (a kernel
                              touching memory it never got): it neither hides an OOM named
                              in words nor stands beside one as a cause */
    bool not_failure;      /* says no failure happened (an allocator retry, an autotuning
                              candidate dropped): a GPU OOM named in words stands beside it */
    bool answers_oom;      /* says the GPU OOM just above it (same framework, within
                              MSG_ANSWER_LINES lines) was caught and the work went on
                              without it: TensorRT's builder skipping the tactic whose
                              allocation failed (diagcall3): that OOM is no failure */
    bool recovers;         /* says the GPU OOM it reports was caught and the work retried
                              another way ("retrying with tiled VAE decoding"): a GPU OOM
                              only where a failure follows it in the paste (diagconv) */
    bool vague;            /* MSG_MENTION: the words name a device memory *error*, not its
                              exhaustion ("GPU memory error"): beside a kernel fault
                              (oom_symptom: "an illegal memory access") the fault is what
                              they name, and the mention does not stand (diagthread) */
    bool word_end;         /* need/any strings end a word there ("error 2", not "error 209") */
    bool word;             /* ... and start one ("OOM", not "OOMs" or "ZOOM") */
    bool word_start;       /* need/any strings start a word there, whatever follows ("RAM
                              OOM", not inside "vRAM OOM" or "VRAM OOM") */
    bool sentence_case;    /* an any[] string that starts in lower case also matches with
                              that letter in capitals, as a sentence starts ("no disk space",
                              "No disk space"); the scan gets that form as an anchor too */
    /* One of these words (any case) stands right before the need/any string,
     * apart only by blanks, '-' or '_' ("CUDA OOM", "Cuda Out of Memory",
     * "GPU-OOM"; not "torch.cuda.OutOfMemoryError", an except clause). */
    const char *qualifier[MSG_QUALIFIER_MAX];
    /* > 0: the qualifier may stand anywhere within this many words before or
     * after the need/any string, in its clause ("video memory not enough",
     * "not enough gpu memory"), and then one of also[] too (any case). */
    int qualifier_span;
    const char *also[4];
    bool deny;             /* a hit in a clause that denies it does not count ("the
                              GPU is not out of memory", "OOM is not the problem") */
    bool negated;          /* a hit right after a plain negation does not count ("There is
                              no CUDA out of memory error"): deny's near words only */
    bool supposed;         /* a hit a condition has for its subject does not count
                              ("If any CUDA out of memory error occurs, ...")
                              or a modal of possibility stands right before ("could
                              easily lead to CUDA out of memory", msg.c modal_before) */
    bool standalone;       /* MSG_MENTION: an event without a traceback after it */
    const char *end_not;   /* bytes that may not follow the need/any string (an
                              except clause's "OutOfMemoryError:" or ")") */
    const char *not_after[4]; /* words (any case) that may not stand right before the
                              need/any string, apart only by blanks: "moved to CPU memory"
                              names where data goes, no host memory running short */
    const char *moved_by[28]; /* not_after holds only where one of these verbs stands
                              earlier on the line ("moving optimizer states ... into
                              CPU memory"): "due to CPU memory" names a cause */
    bool cut_end;          /* the words were cut where the text ends: no line that
                              goes on with letters follows (a wrap's rest, "ut of
                              memory", would) */
    const char *shape;     /* a pattern (the clauses' syntax) the text must hold too: the
                              words with the figure they frame ("Allocation of %z failed
                              on ": a size, not "pinned host memory") */
    enum oom_stage stage;  /* stage implied by the message itself */
    const struct msg_clause *clauses;
    const struct msg_near *near;
    bool near_own_line;    /* the near rows read the message's own line too, as clauses (a
                              log that keeps the newlines as "\n" escapes puts the lines
                              after it on it): one table for both */
    int merge_lines;       /* a detail joins an event up to this many lines away (0: 8) */
    bool continues;        /* the body of a message whose head a line above may hold: a
                              wrapped message's continuation line that matches it goes on
                              joining the head (scan's join_continuations), not a message
                              of its own that ends the join (open38) */
    bool joins_as_is;      /* a detail that says what the failure just above it was for:
                              it joins that event, GPU or host, and leaves its call as it
                              is; alone, its own call stands (diagleft2) */
};

/* The anchors the hot scan looks for, derived from the rules (so a rule
 * cannot exist without one): fills out[0..cap) with static strings and
 * returns how many (derived once per process). Every message a rule
 * matches contains one of them. */
size_t msg_anchors_build(const char **out, size_t cap);

/* Room for the anchors (the scan's table size); the rules make fewer
 * (test_diagnose_msg checks that none is left out). */
#define MSG_ANCHORS_MAX 512

/* The rule table, for tests and tools: how many rules, and rule i. */
size_t msg_rules_count(void);
const struct msg_rule *msg_rule_at(size_t i);

/* Is kind (an event's, from a rule) an OOM's symptom (msg_rule.oom_symptom)? */
bool msg_kind_oom_symptom(const char *kind);

/* Does rule read figures on the message's own line (a clause, or its near
 * rows with near_own_line)? */
bool msg_rule_reads_own_line(const struct msg_rule *rule);

/* The first (most specific) rule the cleaned text matches, or NULL. */
const struct msg_rule *msg_classify(const char *text, size_t len);
/* Is the cleaned line code that prints text: a print or logging call whose
 * first argument is a string literal, in a diff or not ("+ logger.info(\"[OOM]
 * CUDA out of memory ...\")")? Its words are no event (diagcall). */
bool msg_emitter_code(const char *text, size_t len);

/* Apply the rule's clauses to the text (fields only filled when unknown,
 * except where a later clause is more exact). */
void msg_extract(const struct msg_rule *rule, const char *text, size_t len,
                 struct oom_event *ev);

/* Apply one pattern to text; fills ev only where unknown. True if it matched. */
bool msg_apply(const char *pattern, enum msg_field field, const char *text, size_t len,
               struct oom_event *ev);
/* Does the pattern match text? (msg_apply's answer, nothing filled.) */
bool msg_matches(const char *pattern, const char *text, size_t len);

/* the look-alike rule ("other-error") of a log whose final error
 * is no memory event (scan_finish_view). */
/* The kind says no failure happened (a retry that went on, an autotuning
 * candidate dropped): a GPU OOM named in words may stand beside it. */
bool msg_kind_not_a_failure(const char *kind);
/* the kind says the GPU OOM just above it was caught and the work
 * went on without it (msg_rule.answers_oom); how far above it may stand. */
bool msg_kind_answers_oom(const char *kind);
/* the kind reports a GPU OOM the program caught and retried
 * another way (msg_rule.recovers). */
bool msg_kind_recovers(const char *kind);
#define MSG_ANSWER_LINES 6
const struct msg_rule *msg_other_error_rule(void);
/* the look-alike ("traceback-cut") of a log that ends inside
 * a Python traceback whose exception line is cut off (scan_finish_view). */
const struct msg_rule *msg_cut_traceback_rule(void);
/* the rule of a GPU OOM named only in words that the prose pass
 * finds by concept (lib/mention.h), "oom-mention". */
const struct msg_rule *msg_prose_mention_rule(void);
/* How plainly a cleaned line (its prefix removed) states a failure: 2 an
 * exception's class starts it ("RuntimeError: …", "_pickle.PicklingError
 * while …"), 1 it carries an error word ("CUDA error:", "ERROR", "FAIL",
 * "Assertion", "failed"), 0 none or it only warns. */
int msg_error_line(const char *text, size_t len);
/* Does the text name memory or an allocation ("memory", "OOM", "alloc")? */
bool msg_memory_words(const char *text, size_t len);
/* Is the OOM named at text[at, end) denied in its clause: a negation
 * before it ("not", "no longer", "without", "n't"), a hypothetical or
 * hedged clause ("if", "unless", "could", "may"), or a denial after it
 * ("is not the"), or a modal of possibility right before it ("would lead
 * to", "otherwise": msg.c modal_before)? The rules' deny flag; mention.c
 * reads it too. */
bool msg_denied(const char *text, size_t len, size_t at, size_t end);
/* Bytes of a TF dtype ("float" 4, "half" 2, "double" 8 ...); 0 unknown. */
int msg_dtype_size(const char *name, size_t len);

#endif
