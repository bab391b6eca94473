/* pickle: a streaming reader of Python pickles (protocols 2-5) that holds
 * plain data only — dict, list, tuple, str, bytes, int, float, bool, None —
 * for PyTorch memory snapshots. Nothing is executed: opcodes that name a
 * class or call one (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, INST, OBJ,
 * NEWOBJ, EXT*, PERSID) are refused with the opcode and offset. Every length
 * is checked against the input and the limits, nesting is limited, memory is
 * counted against a cap.
 *
 * Streaming: the input is read twice through a caller's source. The first
 * pass only notes which memo entries are ever fetched again (BINGET), so the
 * second keeps just those; and as items are appended to a list, on_item may
 * consume them (the reader then drops them), so a 1 GB snapshot's trace
 * entries never sit in memory together.
 *
 * Ownership: the document owns every object; pickle_doc_release frees
 * them all at once. Objects handed to on_item are borrowed for the
 * duration of the call: a consumed item's memory is reused right after. */
#ifndef OOMLAB_PICKLE_H
#define OOMLAB_PICKLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/err.h"

enum pk_type { PK_NONE, PK_BOOL, PK_INT, PK_BIGINT, PK_FLOAT, PK_STR, PK_BYTES,
               PK_LIST, PK_TUPLE, PK_DICT };

struct pk_obj {
    enum pk_type type;
    uint16_t depth; /* nesting below it, as built */
    bool keep;      /* in the arena that lasts the whole load (see pickle.c) */
    union {
        bool b;
        int64_t i; /* PK_INT; PK_BIGINT has no value (beyond 64 bits) */
        double f;
        struct {
            char *s;   /* NUL-terminated copy; may hold NULs (bytes) */
            size_t len;
        } str;
        struct {
            struct pk_obj **items; /* list/tuple: n items; dict: n keys and values, interleaved */
            size_t n, cap;
            size_t appended; /* list: items ever appended, consumed ones included */
        } seq;
    } u;
};

/* Reads up to size bytes into buf; *got 0 at the end. -1 with err on failure. */
typedef int pickle_read_fn(void *src, void *buf, size_t size, size_t *got, struct oomlab_err *err);
/* Back to the first byte for the second pass. -1 with err. */
typedef int pickle_rewind_fn(void *src, struct oomlab_err *err);
/* An item about to be appended to list (at position index among all ever
 * appended). Set *consumed to have it dropped instead (the reader frees it).
 * -1 with err aborts the load. */
typedef int pickle_item_fn(void *ctx, const struct pk_obj *list, size_t index,
                           const struct pk_obj *item, bool *consumed, struct oomlab_err *err);

#define PICKLE_DEFAULT_MEMORY (512u << 20)
#define PICKLE_MAX_DEPTH 64

struct pickle_opts {
    pickle_read_fn *read;
    pickle_rewind_fn *rewind;
    void *src;
    pickle_item_fn *on_item; /* may be NULL: keep everything */
    void *ctx;
    size_t memory_limit; /* bytes of live objects and stack; 0: PICKLE_DEFAULT_MEMORY */
    unsigned max_depth;  /* 0: PICKLE_MAX_DEPTH */
};

struct pk_pool;

struct pickle_doc {
    struct pk_obj *root;
    struct pk_pool *pool; /* where the objects live */
    size_t peak_memory;  /* the most bytes held at once */
    uint64_t bytes_read; /* input bytes (one pass) */
    int protocol;
};

/* Load one pickle. 0 with doc filled, or -1 with err naming the offset
 * ("at byte N: ..."); doc is empty on failure. */
int pickle_load(const struct pickle_opts *opts, struct pickle_doc *doc, struct oomlab_err *err);
void pickle_doc_release(struct pickle_doc *doc);

/* A source over a buffer in memory (tests, fuzzing). */
struct pickle_buf {
    const unsigned char *data;
    size_t len, pos;
};
pickle_read_fn pickle_buf_read;
pickle_rewind_fn pickle_buf_rewind;

/* Accessors: NULL / false when absent or of another type. */
const struct pk_obj *pk_get(const struct pk_obj *dict, const char *key);
bool pk_int(const struct pk_obj *o, int64_t *out); /* PK_INT or PK_BOOL */
const char *pk_str(const struct pk_obj *o);          /* PK_STR */
size_t pk_len(const struct pk_obj *o);               /* items of a list/tuple, pairs of a dict */
const struct pk_obj *pk_at(const struct pk_obj *seq, size_t i);
const char *pk_type_name(enum pk_type type);

#endif
