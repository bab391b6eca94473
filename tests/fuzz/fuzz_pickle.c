/* Fuzz target: lib/pickle and lib/snapshot on arbitrary bytes. The reader
 * must fail cleanly or load (never crash, leak, or hold more than its
 * limit), and a loaded snapshot's figures must be consistent: allocated
 * and active within reserved, the largest free block within the cached
 * free bytes, pools summing to the device. Seeds: fixtures written by
 * tests/snapshot/gen_snapshot.py and the hostile ones. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pickle.h"
#include "lib/snapshot.h"

static void check(bool ok)
{
    if (!ok) abort();
}

static void check_device(const struct snap_device *d)
{
    int64_t reserved = 0; /* summed as snapshot sums: held at INT64_MAX (sizes are >= 0) */
    for (size_t i = 0; i < d->n_pools; i++)
        if (__builtin_add_overflow(reserved, d->pools[i].reserved, &reserved)) reserved = INT64_MAX;
    check(reserved == d->reserved);
    check(d->largest_free <= d->cached_free);
    check(d->n_leaks <= sizeof d->leaks / sizeof *d->leaks);
    check(!d->has_oom || d->oom_index < d->trace_entries);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct pickle_buf b = {data, size, 0};
    struct pickle_opts o = {.read = pickle_buf_read, .rewind = pickle_buf_rewind, .src = &b,
                            .memory_limit = 32u << 20};
    struct oomlab_err err = {{0}};
    struct pickle_doc doc;
    if (pickle_load(&o, &doc, &err) == 0) {
        check(doc.root != NULL && doc.peak_memory <= o.memory_limit);
        pickle_doc_release(&doc);
    } else {
        check(err.msg[0] != '\0');
    }
    b.pos = 0;
    static struct snapshot s;
    if (snapshot_load(&s, &o, &err) == 0) {
        for (int i = 0; i < SNAP_MAX_DEVICES; i++) check_device(&s.dev[i]);
        struct snap_group top[4];
        for (int i = 0; i < 2; i++) snapshot_top(&s, i, top, 4);
        snapshot_release(&s);
    }
    return 0;
}
