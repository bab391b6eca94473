/* scan: the diagnose engine. A hot pass looks for the msg anchors with a
 * multi-string skip search (Wu-Manber over byte pairs) and counts lines with
 * a vectorised newline count; only where an anchor hits does it read the
 * line, join terminal soft-wraps, classify it with the msg rules, pull the
 * numbers, and read the stage, step and rank from the lines around it.
 *
 * Input arrives as views: bytes [base, base+len) of the whole input, with
 * anchors searched only in [from, upto). A memory-mapped file is one view;
 * a stream is a sliding window (the caller keeps SCAN_HISTORY bytes behind
 * and SCAN_LOOKAHEAD ahead of the searched range). Work per hit is bounded
 * (line windows, line counts), so 10 MB lines and binary input stay cheap.
 * The engine owns its tables; events go into the caller's report, which the
 * caller frees with oom_report_release after scan_release. */
#ifndef OOMLAB_SCAN_H
#define OOMLAB_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"
#include "lib/oom.h"

#define SCAN_HISTORY (4u << 20)      /* context kept behind a hit (step, traceback) */
#define SCAN_LOOKAHEAD (512u << 10)  /* context needed after a hit */
#define SCAN_LINE_MAX (64u << 10)    /* longest line examined in full */

struct scan_wm;
struct scan_near_memo;
struct scan_clines;
struct scan {
    struct oom_report *rep;
    uint32_t *meta;       /* per event: writer tag << 1 | 1 when a detail */
    size_t cap;
    struct scan_wm *wm;
    struct scan_near_memo *near_memo; /* wide near windows: where their patterns match */
    struct scan_clines *clines;       /* context lines read, by their place in the input */
    uint64_t counted;     /* absolute offset up to which newlines are counted */
    long lines_before;    /* newlines before `counted` */
    uint64_t skip_until;  /* absolute offset: rest of a line already handled */
    uint64_t step_pos;    /* cache for the backwards step search */
    long step_value;
    bool step_valid;
    char *line;           /* scratch: the message's logical line */
    char *ctx;            /* scratch: one context line */
    bool nomem;
    struct oom_event mention; /* the first "OOM" named in words, with a traceback after */
    bool mention_set;
    bool mention_standalone; /* ... named with its device ("GPU OOM error"): needs no traceback */
    bool mention_vague;      /* ... as a device memory error, not an OOM (msg_rule.vague) */
    bool host_words; /* the log says in words that host memory ran out */
    bool nccl_cause_named; /* NCCL names the CUDA failure behind its error, not memory
                              ("Last error: Cuda failure 1 'invalid argument'") */
    struct oom_event host_mention; /* those words, with a traceback after them */
    bool host_mention_set;
    uint64_t tail_from; /* the line end (absolute, +1) of the last message
                           nothing leads to: the paste's last activity below it
                           may name the stage of such messages; 0 none */
    uint64_t last_end;  /* the line end (+1) of the last message read for its context */
    struct {
        uint64_t lines_read;   /* context lines cleaned and read (read_cline) */
        uint64_t short_bytes;  /* bytes the short-anchor search went through */
        uint64_t classified;   /* messages classified (msg_classify) */
        uint64_t extracted;    /* events whose numbers were read (msg_extract) */
    } work;                    /* what the scan read: the tests of its bounds count it */
    int glued;          /* the stage the text glued in front of the message names (a
                           bar: "Loading checkpoint shards: 68%|…| 19/28 […]Killed"), for
                           read_context; OOM_STAGE_UNKNOWN (0) none */
};

/* 0, or -1 with err set when memory runs out. */
int scan_init(struct scan *s, struct oom_report *rep, struct oomlab_err *err);

/* Scan one view (see above). Returns 0, or -1 when memory ran out. */
int scan_block(struct scan *s, const char *buf, size_t len, uint64_t base, uint64_t from,
               uint64_t upto);

/* Count lines in buf up to absolute offset `upto` (before a stream window
 * drops those bytes). */
void scan_count_to(struct scan *s, const char *buf, size_t len, uint64_t base, uint64_t upto);

/* After the last block (lines counted to the end): primary event,
 * consequences, line total. ends_with_newline: the input's last byte. */
void scan_finish(struct scan *s, bool ends_with_newline);

/* scan_finish, then, when the log has no event at all, its final error
 * (the exception line that ends the last traceback, else the last clear
 * error line) as an "other-error" look-alike with its stage. buf: the last
 * view (the whole text, or a stream's window), as for scan_block. */
void scan_finish_view(struct scan *s, const char *buf, size_t len, uint64_t base,
                      bool ends_with_newline);

void scan_release(struct scan *s);

/* Whole text in memory: init, one block, finish, release. rep is
 * initialised here; free it with oom_report_release. 0 or -1. */
int scan_text(const char *text, size_t len, struct oom_report *rep, struct oomlab_err *err);

/* Number of '\n' bytes in p[0..n) (vectorised). */
size_t scan_count_newlines(const char *p, size_t n);

#endif
