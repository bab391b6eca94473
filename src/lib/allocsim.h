/* allocsim: a model of PyTorch's CUDA caching allocator (the native one,
 * expandable segments off), to say what a sequence of tensor allocations and
 * frees reserves: every request rounded up to 512 B; requests up to 1 MiB
 * served from 2 MiB "small" segments, larger ones from the "large" pool;
 * a cached free block of the request's pool is reused when it is large
 * enough (the smallest such block), else a new segment is cudaMalloc'ed: 20
 * MiB for requests of 1-10 MiB, the request rounded up to 2 MiB above that;
 * a block is split when the remainder is at least 512 B (small pool) or more
 * than 1 MiB (large pool), and the allocated figure counts the whole block
 * when it is not; freed blocks merge with free neighbours of their segment
 * and stay reserved (no cudaFree while memory suffices). Rules from
 * pytorch/pytorch:c10/cuda/CUDACachingAllocator.cpp@001074d25084fdb87a799823e395a50f5ec044d3
 * (header comment, kMinBlockSize, kSmallSize, kSmallBuffer, kLargeBuffer,
 * kMinLargeAlloc, kRoundLarge, round_size, get_allocation_size,
 * should_split), with the default max_split_size (unlimited).
 * The caller owns the simulator: allocsim_init, then allocsim_release. */
#ifndef OOMLAB_ALLOCSIM_H
#define OOMLAB_ALLOCSIM_H

#include <stdbool.h>
#include <stdint.h>

struct allocsim_block {
    int64_t size;
    int seg, prev, next; /* neighbours in the segment, -1 none */
    bool used, live;     /* live: not merged away */
    bool small;
};

struct allocsim {
    struct allocsim_block *b;
    int n, cap;
    int segs;
    int reuse; /* lowest index that may be an empty slot */
    int64_t reserved, allocated, peak_reserved, peak_allocated;
    bool failed; /* out of host memory or over the block cap: figures unusable */
};

void allocsim_init(struct allocsim *s);
void allocsim_release(struct allocsim *s);
/* A tensor of `bytes`; returns its handle (>= 0), or -1 (then s->failed). */
int allocsim_alloc(struct allocsim *s, int64_t bytes);
/* Frees the tensor of handle h (a no-op for -1). */
void allocsim_free(struct allocsim *s, int h);

#endif
