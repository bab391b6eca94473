/* allocconf: PyTorch allocator settings against the keys PyTorch reads.
 * The keys are those of c10/core/AllocatorConfig.cpp (AcceleratorAllocatorConfig::parseArgs,
 * pytorch/pytorch@0ac716637f3258efcaf7fdfb851bdd520c9c1441) and
 * c10/cuda/CUDAAllocatorConfig.cpp (CUDAAllocatorConfig::parseArgs,
 * pytorch/pytorch@b944315b93d36f842ef94d67a041371993234a74), whose last
 * branch fails on any other key ("Unrecognized key ... in CUDA allocator
 * config"; older releases "Unrecognized CachingAllocator option"). */
#include "lib/allocconf.h"
#include "lib/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const known_keys[] = {"backend",
                                         "max_split_size_mb",
                                         "max_non_split_rounding_mb",
                                         "garbage_collection_threshold",
                                         "roundup_power2_divisions",
                                         "expandable_segments",
                                         "pinned_use_background_threads",
                                         "release_lock_on_cudamalloc",
                                         "release_lock_on_hipmalloc",
                                         "pinned_use_cuda_host_register",
                                         "pinned_use_hip_host_register",
                                         "pinned_num_register_threads",
                                         "pinned_reserve_segment_size_mb",
                                         "graph_capture_record_stream_reuse",
                                         "per_process_memory_fraction"};
#define N_KEYS (sizeof known_keys / sizeof known_keys[0])

static int known(const char *key, size_t n)
{
    for (size_t i = 0; i < N_KEYS; i++)
        if (strlen(known_keys[i]) == n && !memcmp(known_keys[i], key, n)) return 1;
    return 0;
}

static void append(char *out, size_t size, const char *key, size_t n)
{
    size_t used = strlen(out);
    if (used + 1 >= size) return;
    snprintf(out + used, size - used, "%s%.*s", used ? ", " : "", (int)n, key);
}

/* The key of the item [a, e): up to ':' with surrounding blanks dropped. */
static size_t check_item(const char *a, const char *e, char *out, size_t size)
{
    const char *colon = memchr(a, ':', (size_t)(e - a));
    const char *end = colon ? colon : e;
    while (a < end && (*a == ' ' || *a == '\t'))
        a++;
    while (end > a && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    if (end == a || known(a, (size_t)(end - a))) return 0;
    append(out, size, a, (size_t)(end - a));
    return 1;
}

size_t allocconf_unknown_keys(const char *value, char *out, size_t out_size)
{
    size_t unknown = 0;
    int depth = 0; /* roundup_power2_divisions:[256:1,>:2] has commas inside */
    if (out_size) out[0] = '\0';
    const char *item = value;
    for (const char *p = value;; p++) {
        if (*p == '[') depth++;
        if (*p == ']' && depth > 0) depth--;
        if (*p == '\0' || (*p == ',' && depth == 0)) {
            unknown += check_item(item, p, out, out_size);
            if (*p == '\0') break;
            item = p + 1;
        }
    }
    return unknown;
}

size_t allocconf_unknown_said(const char *value, char *out, size_t out_size)
{
    char keys[200];
    size_t n = allocconf_unknown_keys(value, keys, sizeof keys);
    if (out_size) out[0] = '\0';
    if (n && out_size)
        snprintf(out, out_size, "'%s' %s PyTorch's allocator reads: torch stops at the first CUDA allocation "
                                "(Unrecognized CachingAllocator option)",
                 keys, n == 1 ? "is not a key" : "are not keys");
    return n;
}

/* The known key within 3 edits of key[0, n), or NULL. */
static const char *nearest(const char *key, size_t n)
{
    char buf[STRBUF_DISTANCE_MAX + 1];
    if (n >= sizeof buf) return NULL;
    memcpy(buf, key, n);
    buf[n] = '\0';
    struct strbuf_near near = STRBUF_NEAR_INIT(buf, 3);
    for (size_t i = 0; i < N_KEYS; i++) strbuf_near_offer(&near, known_keys[i]);
    return near.pick;
}

size_t allocconf_suggest(const char *value, char *out, size_t out_size)
{
    char unknown[256];
    const char *first = NULL;
    size_t found = 0;
    if (out_size) out[0] = '\0';
    if (!allocconf_unknown_keys(value, unknown, sizeof unknown)) return 0;
    for (const char *k = unknown; *k;) {
        size_t n = strcspn(k, ",");
        const char *near = nearest(k, n);
        if (near) { /* "a (for x), b (for y)"; one alone is its key */
            char pair[160];
            snprintf(pair, sizeof pair, "%s (for %.*s)", near, (int)n, k);
            append(out, out_size, pair, strlen(pair));
            if (found++ == 0) first = near;
        }
        k += n;
        while (*k == ',' || *k == ' ')
            k++;
    }
    if (found == 1 && out_size) snprintf(out, out_size, "%s", first);
    return found;
}

/* Keys that older releases refuse ("Unrecognized CachingAllocator option"),
 * with the first release that reads them. expandable_segments: merged
 * upstream in April 2023 (pytorch/pytorch#100184), after 2.0; torch 2.0.1
 * refuses it (deepseek-ai/DeepSeek-VL2#103, ZhengPeng7/BiRefNet#179). */
static const struct {
    const char *key;
    int major, minor;
    const char *since;
} key_since[] = {{"expandable_segments", 2, 1, "2.1"}};

static int has_key(const char *value, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = strstr(value, key); p; p = strstr(p + 1, key)) {
        const char *e = p + n;
        while (*e == ' ' || *e == '\t')
            e++;
        int starts = p == value || p[-1] == ',' || p[-1] == ' ' || p[-1] == '\t';
        if (starts && (*e == ':' || *e == ',' || *e == '\0')) return 1;
    }
    return 0;
}

const char *allocconf_too_new(const char *value, const char *torch_version, const char **since)
{
    char *end;
    long major = strtol(torch_version, &end, 10);
    if (end == torch_version || *end != '.') return NULL;
    const char *m = end + 1;
    long minor = strtol(m, &end, 10);
    if (end == m) return NULL;
    for (size_t i = 0; i < sizeof key_since / sizeof key_since[0]; i++) {
        if (major > key_since[i].major ||
            (major == key_since[i].major && minor >= key_since[i].minor))
            continue;
        if (!has_key(value, key_since[i].key)) continue;
        *since = key_since[i].since;
        return key_since[i].key;
    }
    return NULL;
}
