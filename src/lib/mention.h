/* mention: a GPU OOM named only in words (an issue title, a sentence of
 * prose), found by concept rather than by one wording at a time. A line is
 * read as words: any case, '_' '-' '.' and other punctuation as blanks,
 * camelCase split ("OutOfMemoryError", "THCudaCheck"), so that "cuda
 * running out of memory", "CUDA_ERROR_OUT_OF_MEMORY", "Cuda Out Of Memory"
 * and "cuda outof memory" read alike. A sentence names a GPU OOM when it
 * holds an OOM concept (the lexicon in mention.c: "out of ... memory",
 * "oom", "insufficient memory", "memory allocation" with an error word;
 * "memory overflow" only with its device in the sentence) and a device
 * concept (CUDA, GPU, VRAM, the cards' names, "video memory", "a 12GB
 * card"), and no guard: host memory, a killer, a caught-and-retried OOM,
 * a hypothetical, code, a generic noun after the words ("OOM
 * situations"); the clause that names the OOM must not deny it
 * (msg_denied). All of it is data in mention.c.
 *
 * The scan calls this only where its structural pass found no event (see
 * scan_finish_view), so the hot scan's speed does not depend on it.
 * Pure functions on caller-owned strings; nothing allocates. */
#ifndef OOMLAB_MENTION_H
#define OOMLAB_MENTION_H

#include <stdbool.h>
#include <stddef.h>

/* Where a line names the GPU OOM: its OOM words at text[at, end). */
struct mention_hit {
    size_t at, end;
};

/* Does the cleaned line (its launcher prefix removed) name a GPU OOM in
 * words, and how strongly? MENTION_GPU the OOM and its device in one
 * sentence; MENTION_WORDS the OOM words with no device anywhere on the
 * line, no guard, no denial (a title "Out of memory": a GPU OOM only when a
 * device is named just below it). Fills hit when it does. Lines longer than
 * MENTION_LINE_MAX are read up to it. */
enum mention_kind { MENTION_NONE, MENTION_WORDS, MENTION_GPU };
enum mention_kind mention_read(const char *text, size_t len, struct mention_hit *hit);

/* Does a line name a device (MENTION_DEV_NAMED), or a guard's word: host
 * memory, a killer, a retry, code (MENTION_DEV_GUARD)? */
enum mention_device { MENTION_DEV_NONE, MENTION_DEV_NAMED, MENTION_DEV_GUARD };
enum mention_device mention_device(const char *text, size_t len);

/* What the paste's context (context.c) asks of a line, its words split
 * once for both: does it name a device at all (device_named: the lexicon's
 * words only, no guard, no code check), and does it name a machine's
 * memory by its size ("a machine with 120G memory", "the server has 256 GB
 * memory") in a sentence that names no device (machine_memory: the host's
 * memory, also a guard of the prose pass)? */
struct mention_line {
    bool device_named;
    bool machine_memory;
};
/* Only the answers asked for (device, machine) are read; the others stay false. */
void mention_line_read(const char *text, size_t len, bool device, bool machine,
                       struct mention_line *line);

/* Does the line name the device's memory, OOM words or not: a device word
 * right before a memory word ("GPU memory", "CUDA memory", "video
 * memory"), "VRAM", 显存; no guard's word on the line (host memory, a
 * killer, a retry, a hypothetical, code)? An issue's title "Hign GPU memory
 * requirement" over a traceback the paste cuts before its error (scan.c). */
bool mention_device_memory(const char *text, size_t len);

/* Does the sentence going on at text[end] end in a question mark ("?",
 * "？")? */
bool mention_question(const char *text, size_t len, size_t end);

/* Does a negation stand in the sentence before text[at] ("I don't think
 * that the problem is out of the memory", fixstars/libSGM#30)? The
 * weakest placement of OOM words (by the paste's context, context.c)
 * takes none. */
bool mention_negated(const char *text, size_t len, size_t at);

/* Does the sentence holding text[at] say the OOM was handled by a fallback
 * ("falling back to"), or does a generic noun follow the words at
 * text[at, end) ("OOM situations", "out of memory scenarios": a kind of
 * event, not one that happened)? The rows' standalone mentions (msg.c) are
 * not counted then, as the prose pass does not count them. */
bool mention_row_guarded(const char *text, size_t len, size_t at, size_t end);

/* Cheap: could the raw line hold an OOM concept at all ("oom", "mem" or "vram" in
 * any case)? mention_read says no to a line without. */
bool mention_seeded(const char *text, size_t len);

#define MENTION_LINE_MAX 4096

#endif
