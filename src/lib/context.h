/* context: what a whole paste is about, read as weighted evidence. A GPU
 * OOM named only in words (an issue title "Out of memory when training",
 * prose "OOM when saving checkpoints") is a failure report or a change
 * about handling OOMs ("fix: ... Add OOM retry logic that catches CUDA
 * out-of-memory errors", "Closes #191"); its device may be named nowhere
 * near the words but in the paste's environment block ("Nvidia Driver:
 * 470.82.00", "Pytorch: 1.10.0+cu113", "Physics Device: cuda:0"). Each
 * piece of evidence is a row of the tables in context.c with its class and
 * its weight: a change (imperative change title, "This PR", "Fixes #N",
 * diff hunks, review words), a report (issue templates, a traceback), the
 * GPU (a line naming CUDA or a card, a CUDA build), host memory (RAM, swap,
 * the OOM killer, a CPU-only build). The scan reads a paste's context only
 * where its structural pass found no error line (scan_finish_view), and
 * context_call says what the evidence decides.
 *
 * Pure functions on caller-owned text; nothing allocates. (diagthread) */
#ifndef OOMLAB_CONTEXT_H
#define OOMLAB_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>

enum context_class { CONTEXT_CHANGE, CONTEXT_REPORT, CONTEXT_GPU, CONTEXT_HOST, CONTEXT_RUN,
    CONTEXT_CLASSES };

/* What a host row names, decided in the rows (context.c, lookalike.c):
 * host memory in words ("RAM", "swap", "system memory", 内存); a failure
 * of it (the OOM killer, a killed process, the host allocator, Ray's
 * memory monitor); or neither (a CPU-only build, the kernel's log, Python's
 * MemoryError, which pycuda's device failure also carries:
 * "pycuda._driver.MemoryError: cuMemAlloc failed: out of memory"). */
enum context_host { CONTEXT_HOST_OTHER, CONTEXT_HOST_MEMORY, CONTEXT_HOST_FAILURE };

/* One piece of evidence: a rule's description and the line it matched. */
struct context_hit {
    enum context_class cls;
    const char *what; /* static: "a change title", "a line naming the GPU" */
    const char *rule; /* static: the row's text ("this pr", "+cu") */
    size_t at, end;   /* the line in the text */
    int weight;
    enum context_host host; /* a CONTEXT_HOST row's kind */
};

#define CONTEXT_HITS 24
struct context_reading {
    int score[CONTEXT_CLASSES];
    struct context_hit hit[CONTEXT_HITS]; /* in the order found */
    size_t n_hits;
    size_t title_at;   /* the title's line in the text; SIZE_MAX: none (diagcall2) */
    bool change_title; /* the title reads as a change's ("Add ...", "fix: ...") */
};

/* Read text (a paste; `title`: its first non-blank line is an issue or
 * pull request title) for every rule; each rule counts at most its rows'
 * `most` times. Reads up to CONTEXT_LINES lines. */
void context_read(const char *text, size_t len, bool title, struct context_reading *r);

/* What the evidence decides for an OOM named only in words:
 * CONTEXT_DISCUSSED the paste is a change or discussion about OOMs, not a
 * failure (change evidence at CONTEXT_CHANGE_MIN and above the report's);
 * CONTEXT_GPU its device is the GPU (GPU evidence at CONTEXT_GPU_MIN, no
 * host evidence, not a change); CONTEXT_UNDECIDED otherwise. */
enum context_call { CONTEXT_UNDECIDED, CONTEXT_DISCUSSED, CONTEXT_ON_GPU };
enum context_call context_call(const struct context_reading *r);

/* Does the paste name a host-memory failure as what failed (a hit of
 * kind CONTEXT_HOST_FAILURE)? "RAM" in an environment block is none. */
bool context_host_failure(const struct context_reading *r);
/* Did the paste name host memory in English words (RAM, host or system
 * memory, a machine's sized memory)? */
bool context_host_memory(const struct context_reading *r);

/* Does the title p[0, n) start as a change's does ("Add ...", "fix: ...":
 * the change-title rows)? (lookalike.c reads it behind tags) */
bool context_title_change(const char *p, size_t n);

/* The walk context_read and lookalike_read share: the paste's first
 * CONTEXT_LINES lines, each cut to its first `cap` bytes (low: at least
 * that many), blank or not, the first non-blank one the title when the
 * paste has one, and its lower-case copy in low (non-blank lines only). */
struct context_line {
    size_t at, end, n; /* the line text[at, end); n: the bytes read of it */
    bool blank, is_title;
};
struct context_walk {
    const char *text;
    size_t len, at;
    long lines;
    bool title_seen;
};
void context_walk_start(struct context_walk *w, const char *text, size_t len, bool title);
bool context_walk_next(struct context_walk *w, char *low, size_t cap, struct context_line *l);

#define CONTEXT_LINES 4000
#define CONTEXT_CHANGE_MIN 3
#define CONTEXT_GPU_MIN 1

#endif
