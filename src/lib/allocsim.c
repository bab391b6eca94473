/* allocsim: see allocsim.h. Blocks live in one array; free blocks are found
 * by a linear best-fit scan (a few thousand blocks at most here). */
#include "lib/allocsim.h"

#include <stdlib.h>

#include "lib/strbuf.h"

#define KMIN_BLOCK 512LL
#define KSMALL_SIZE 1048576LL
#define KSMALL_BUFFER 2097152LL
#define KLARGE_BUFFER 20971520LL
#define KMIN_LARGE_ALLOC 10485760LL
#define KROUND_LARGE 2097152LL
#define ALLOCSIM_MAX_BLOCKS (1 << 20)

void allocsim_init(struct allocsim *s)
{
    s->b = NULL;
    s->n = s->cap = s->segs = s->reuse = 0;
    s->reserved = s->allocated = s->peak_reserved = s->peak_allocated = 0;
    s->failed = false;
}

void allocsim_release(struct allocsim *s)
{
    free(s->b);
    allocsim_init(s);
}

static int64_t round_size(int64_t size)
{
    if (size < KMIN_BLOCK) return KMIN_BLOCK;
    return KMIN_BLOCK * ((size + KMIN_BLOCK - 1) / KMIN_BLOCK);
}

static int64_t allocation_size(int64_t size)
{
    if (size <= KSMALL_SIZE) return KSMALL_BUFFER;
    if (size < KMIN_LARGE_ALLOC) return KLARGE_BUFFER;
    return KROUND_LARGE * ((size + KROUND_LARGE - 1) / KROUND_LARGE);
}

static int new_block(struct allocsim *s)
{
    for (int i = s->reuse; i < s->n; i++) /* a slot a merge emptied */
        if (!s->b[i].live) {
            s->reuse = i + 1;
            return i;
        }
    s->reuse = s->n;
    if (s->n == s->cap) {
        size_t cap = (size_t)s->cap;
        struct allocsim_block *nb =
            strbuf_grow(s->b, &cap, cap + 1, sizeof *nb, ALLOCSIM_MAX_BLOCKS);
        if (!nb) return -1;
        s->b = nb;
        s->cap = (int)cap;
    }
    return s->n++;
}

static void bump(struct allocsim *s)
{
    if (s->allocated > s->peak_allocated) s->peak_allocated = s->allocated;
    if (s->reserved > s->peak_reserved) s->peak_reserved = s->reserved;
}

int allocsim_alloc(struct allocsim *s, int64_t bytes)
{
    if (s->failed || bytes < 0) return -1;
    int64_t size = round_size(bytes);
    bool small = size <= KSMALL_SIZE;
    int best = -1;
    for (int i = 0; i < s->n; i++) {
        const struct allocsim_block *x = &s->b[i];
        if (!x->live || x->used || x->small != small || x->size < size) continue;
        if (best < 0 || x->size < s->b[best].size) best = i;
    }
    if (best < 0) { /* a new segment */
        best = new_block(s);
        if (best < 0) {
            s->failed = true;
            return -1;
        }
        int64_t seg = allocation_size(size);
        s->b[best] = (struct allocsim_block){.size = seg, .seg = s->segs++, .prev = -1, .next = -1,
                                             .live = true, .small = small};
        s->reserved += seg;
    }
    int64_t rest = s->b[best].size - size;
    if (small ? rest >= KMIN_BLOCK : rest > KSMALL_SIZE) {
        int r = new_block(s);
        if (r < 0) {
            s->failed = true;
            return -1;
        }
        struct allocsim_block *x = &s->b[best];
        s->b[r] = (struct allocsim_block){.size = rest, .seg = x->seg, .prev = best, .next = x->next,
                                          .live = true, .small = small};
        if (x->next >= 0) s->b[x->next].prev = r;
        x->next = r;
        x->size = size;
    }
    s->b[best].used = true;
    s->allocated += s->b[best].size;
    bump(s);
    return best;
}

/* Folds free neighbour j into block i (j follows i). */
static void merge(struct allocsim *s, int i, int j)
{
    struct allocsim_block *x = &s->b[i], *y = &s->b[j];
    x->size += y->size;
    x->next = y->next;
    if (y->next >= 0) s->b[y->next].prev = i;
    y->live = false;
    if (j < s->reuse) s->reuse = j;
}

void allocsim_free(struct allocsim *s, int h)
{
    if (h < 0 || h >= s->n || !s->b[h].live || !s->b[h].used) return;
    struct allocsim_block *x = &s->b[h];
    x->used = false;
    s->allocated -= x->size;
    if (x->next >= 0 && !s->b[x->next].used) merge(s, h, x->next);
    int p = s->b[h].prev;
    if (p >= 0 && !s->b[p].used) merge(s, p, h);
}
