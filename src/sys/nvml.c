/* nvml: NVIDIA's management library loaded at run time (see nvml.h).
 * Each query tries the newest entry point first and falls back, once and for
 * good, when a symbol is missing or answers FUNCTION_NOT_FOUND / ARGUMENT_
 * VERSION_MISMATCH; types come from nvml_abi.h, not from nvml.h. */
#include "sys/nvml.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"
#include "lib/units.h"
#include "sys/nvml_abi.h"

#define NVML_DEFAULT_LIBRARY "libnvidia-ml.so.1"
#define PROCS_MAX 65536 /* a sane ceiling for one GPU's process list */
#define PROCS_TRIES 5   /* INSUFFICIENT_SIZE retries before giving up */
#define NVML_CACHE_GPUS 64

typedef nvmlReturn_t (*fn_void)(void);
typedef nvmlReturn_t (*fn_count)(unsigned *);
typedef nvmlReturn_t (*fn_handle)(unsigned, nvmlDevice_t *);
typedef nvmlReturn_t (*fn_name)(nvmlDevice_t, char *, unsigned);
typedef nvmlReturn_t (*fn_mem)(nvmlDevice_t, void *);
typedef nvmlReturn_t (*fn_util)(nvmlDevice_t, struct nvml_abi_utilization *);
typedef nvmlReturn_t (*fn_procs)(nvmlDevice_t, unsigned *, void *);
typedef nvmlReturn_t (*fn_driver)(char *, unsigned);
typedef const char *(*fn_errstr)(nvmlReturn_t);

/* One process query family (compute or graphics): three generations. */
struct proc_api {
    const char *label;
    fn_procs v[3]; /* [0] v3, [1] v2, [2] v1 (unversioned, 16-byte struct) */
    int level;     /* index into v of the newest one that still answers */
};

struct nvml {
    void *lib;
    char path[512];
    const char *init_sym;
    fn_void shutdown;
    fn_count count[2];   /* _v2, unversioned */
    fn_handle handle[2]; /* _v2, unversioned */
    int count_level, handle_level;
    fn_name name;
    fn_mem mem[2]; /* _v2 (nvmlMemory_v2_t), unversioned (nvmlMemory_t) */
    int mem_level;
    fn_util util;
    fn_driver driver;
    fn_errstr errstr;
    struct proc_api compute, graphics;
    /* handles and names do not change while the library is initialised:
     * looked up once per index (a sampler calls at 10 ms intervals) */
    struct cached_gpu {
        bool valid;
        nvmlDevice_t dev;
        char name[96];
    } cache[NVML_CACHE_GPUS];
};

static const struct {
    nvmlReturn_t rc;
    const char *text;
} fallback_text[] = {
    {NVML_SUCCESS, "Success"},
    {NVML_ERROR_UNINITIALIZED, "Uninitialized"},
    {NVML_ERROR_INVALID_ARGUMENT, "Invalid Argument"},
    {NVML_ERROR_NOT_SUPPORTED, "Not Supported"},
    {NVML_ERROR_NO_PERMISSION, "Insufficient Permissions"},
    {NVML_ERROR_NOT_FOUND, "Not Found"},
    {NVML_ERROR_INSUFFICIENT_SIZE, "Insufficient Size"},
    {NVML_ERROR_DRIVER_NOT_LOADED, "Driver Not Loaded"},
    {NVML_ERROR_LIBRARY_NOT_FOUND, "NVML Shared Library Not Found"},
    {NVML_ERROR_FUNCTION_NOT_FOUND, "Function Not Found"},
    {NVML_ERROR_GPU_IS_LOST, "GPU is lost"},
    {NVML_ERROR_ARGUMENT_VERSION_MISMATCH, "Argument version mismatch"},
};

/* What to do about the errors a person can act on, appended to the message
 * (NVML's documentation: GPU_IS_LOST "the GPU has fallen off the bus or has
 * otherwise become inaccessible"; NO_PERMISSION "the current user does not
 * have permission for operation"). "" for the rest. */
static const char *err_hint(nvmlReturn_t rc)
{
    switch (rc) {
    case NVML_ERROR_GPU_IS_LOST:
        return "; the GPU fell off the bus or cannot be reached: dmesg names its Xid error; "
               "it needs a reset (nvidia-smi -r) or a reboot";
    case NVML_ERROR_NO_PERMISSION:
        return "; this user may not query it: check the permissions of /dev/nvidia* (in a "
               "container, the devices it was given)";
    default:
        return "";
    }
}

static const char *err_text(const struct nvml *nv, nvmlReturn_t rc)
{
    const char *s = nv && nv->errstr ? nv->errstr(rc) : NULL;
    if (s && *s) return s;
    for (size_t i = 0; i < sizeof fallback_text / sizeof fallback_text[0]; i++)
        if (fallback_text[i].rc == rc) return fallback_text[i].text;
    return "Unknown Error";
}

/* A "try the older one" answer: missing function or a struct version the
 * library does not know. */
static int is_fallback(nvmlReturn_t rc)
{
    return rc == NVML_ERROR_FUNCTION_NOT_FOUND || rc == NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
}

/* POSIX leaves function-pointer casts from void* to the platform (dlsym's
 * own documentation does this); memcpy keeps -Wpedantic quiet. */
#define LOAD(lib, dst, name)                                                                       \
    do {                                                                                           \
        void *p_ = dlsym((lib), (name));                                                           \
        memcpy(&(dst), &p_, sizeof(dst));                                                          \
    } while (0)

static void load_symbols(struct nvml *nv)
{
    LOAD(nv->lib, nv->shutdown, "nvmlShutdown");
    LOAD(nv->lib, nv->count[0], "nvmlDeviceGetCount_v2");
    LOAD(nv->lib, nv->count[1], "nvmlDeviceGetCount");
    LOAD(nv->lib, nv->handle[0], "nvmlDeviceGetHandleByIndex_v2");
    LOAD(nv->lib, nv->handle[1], "nvmlDeviceGetHandleByIndex");
    LOAD(nv->lib, nv->name, "nvmlDeviceGetName");
    LOAD(nv->lib, nv->mem[0], "nvmlDeviceGetMemoryInfo_v2");
    LOAD(nv->lib, nv->mem[1], "nvmlDeviceGetMemoryInfo");
    LOAD(nv->lib, nv->util, "nvmlDeviceGetUtilizationRates");
    LOAD(nv->lib, nv->driver, "nvmlSystemGetDriverVersion");
    LOAD(nv->lib, nv->errstr, "nvmlErrorString");
    nv->compute.label = "compute";
    LOAD(nv->lib, nv->compute.v[0], "nvmlDeviceGetComputeRunningProcesses_v3");
    LOAD(nv->lib, nv->compute.v[1], "nvmlDeviceGetComputeRunningProcesses_v2");
    LOAD(nv->lib, nv->compute.v[2], "nvmlDeviceGetComputeRunningProcesses");
    nv->graphics.label = "graphics";
    LOAD(nv->lib, nv->graphics.v[0], "nvmlDeviceGetGraphicsRunningProcesses_v3");
    LOAD(nv->lib, nv->graphics.v[1], "nvmlDeviceGetGraphicsRunningProcesses_v2");
    LOAD(nv->lib, nv->graphics.v[2], "nvmlDeviceGetGraphicsRunningProcesses");
}

static int init_library(struct nvml *nv, struct oomlab_err *err)
{
    static const char *const init_syms[] = {"nvmlInit_v2", "nvmlInit"};
    nvmlReturn_t rc = NVML_ERROR_FUNCTION_NOT_FOUND;
    for (size_t i = 0; i < 2 && is_fallback(rc); i++) {
        fn_void init;
        LOAD(nv->lib, init, init_syms[i]);
        if (!init) continue;
        rc = init();
        nv->init_sym = init_syms[i];
    }
    if (rc == NVML_SUCCESS) return 0;
    if (!nv->init_sym)
        return oomlab_err_set(err, "%s has neither nvmlInit_v2 nor nvmlInit: not an NVML library",
                              nv->path);
    return oomlab_err_set(err, "NVML (%s): %s failed: %s (%d); is the NVIDIA driver loaded?",
                          nv->path, nv->init_sym, err_text(nv, rc), rc);
}

int nvml_open(struct nvml **out, struct oomlab_err *err)
{
    *out = NULL;
    const char *path = getenv("OOMLAB_NVML_LIBRARY");
    if (!path || !*path) path = NVML_DEFAULT_LIBRARY;
    struct nvml *nv = calloc(1, sizeof *nv);
    if (!nv) return oomlab_err_set(err, "out of memory");
    snprintf(nv->path, sizeof nv->path, "%s", path);
    nv->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!nv->lib) {
        const char *why = dlerror();
        oomlab_err_set(err, "cannot load NVML (%s): %s; no NVIDIA driver on this machine?", path,
                       why ? why : "dlopen failed");
        free(nv);
        return -1;
    }
    load_symbols(nv);
    int rc = nv->shutdown
                 ? init_library(nv, err)
                 : oomlab_err_set(err, "%s has no nvmlShutdown: not an NVML library", path);
    if (rc < 0) {
        dlclose(nv->lib);
        free(nv);
        return -1;
    }
    *out = nv;
    return 0;
}

void nvml_close(struct nvml *nv)
{
    if (!nv) return;
    nv->shutdown(); /* exactly once per successful init */
    dlclose(nv->lib);
    free(nv);
}

const char *nvml_library(const struct nvml *nv)
{
    return nv ? nv->path : "";
}

bool nvml_gpu_missing(int gpu, unsigned count, struct oomlab_err *err)
{
    if (gpu < 0 || (unsigned)gpu < count) return false;
    char range[32] = "none";
    if (count == 1) snprintf(range, sizeof range, "index 0");
    else if (count > 1) snprintf(range, sizeof range, "indices 0-%u", count - 1);
    oomlab_err_set(err, "--gpu %d: NVML sees %u GPU%s (%s), so there is no GPU %d; the index is "
                        "NVML's (nvidia-smi's), which CUDA_VISIBLE_DEVICES does not renumber",
                   gpu, count, count == 1 ? "" : "s", range, gpu);
    return true;
}

int nvml_count(struct nvml *nv, unsigned *count, struct oomlab_err *err)
{
    *count = 0;
    nvmlReturn_t rc = NVML_ERROR_FUNCTION_NOT_FOUND;
    for (; nv->count_level < 2; nv->count_level++) {
        if (!nv->count[nv->count_level]) continue;
        rc = nv->count[nv->count_level](count);
        if (!is_fallback(rc)) break;
    }
    if (nv->count_level >= 2) nv->count_level = 1; /* keep trying the last one */
    if (rc == NVML_SUCCESS) return 0;
    *count = 0;
    return oomlab_err_set(err, "NVML: cannot count GPUs: %s (%d)", err_text(nv, rc), rc);
}

static nvmlReturn_t lookup_handle(struct nvml *nv, unsigned index, nvmlDevice_t *dev)
{
    nvmlReturn_t rc = NVML_ERROR_FUNCTION_NOT_FOUND;
    for (; nv->handle_level < 2; nv->handle_level++) {
        if (!nv->handle[nv->handle_level]) continue;
        rc = nv->handle[nv->handle_level](index, dev);
        if (!is_fallback(rc)) return rc;
    }
    nv->handle_level = 1;
    return rc;
}

static nvmlReturn_t get_handle(struct nvml *nv, unsigned index, nvmlDevice_t *dev)
{
    if (index >= NVML_CACHE_GPUS) return lookup_handle(nv, index, dev);
    struct cached_gpu *c = &nv->cache[index];
    if (!c->valid) {
        nvmlReturn_t rc = lookup_handle(nv, index, &c->dev);
        if (rc != NVML_SUCCESS) return rc;
        if (!nv->name || nv->name(c->dev, c->name, sizeof c->name) != NVML_SUCCESS)
            c->name[0] = '\0';
        c->name[sizeof c->name - 1] = '\0';
        c->valid = true;
    }
    *dev = c->dev;
    return NVML_SUCCESS;
}

void nvml_driver(struct nvml *nv, char *buf, size_t size)
{
    if (!size) return;
    buf[0] = '\0';
    char v[96] = "";
    if (nv && nv->driver && nv->driver(v, sizeof v) == NVML_SUCCESS) {
        v[sizeof v - 1] = '\0';
        snprintf(buf, size, "%s", v);
    }
}

static int64_t known(unsigned long long v)
{
    return v == NVML_ABI_VALUE_NOT_AVAILABLE || v > (unsigned long long)INT64_MAX ? -1 : (int64_t)v;
}

/* Memory: v2 (used excludes the reservation, as nvidia-smi shows), else v1. */
static nvmlReturn_t read_memory(struct nvml *nv, nvmlDevice_t dev, struct nvml_gpu *gpu)
{
    nvmlReturn_t rc = NVML_ERROR_FUNCTION_NOT_FOUND;
    if (nv->mem_level == 0 && nv->mem[0]) {
        struct nvml_abi_memory_v2 m = {.version = NVML_ABI_MEMORY_V2_VERSION};
        rc = nv->mem[0](dev, &m);
        if (rc == NVML_SUCCESS) {
            gpu->total = known(m.total), gpu->reserved = known(m.reserved);
            gpu->free = known(m.free), gpu->used = known(m.used);
            return rc;
        }
        if (!is_fallback(rc)) return rc;
    }
    nv->mem_level = 1;
    if (!nv->mem[1]) return rc;
    struct nvml_abi_memory_v1 m = {0};
    rc = nv->mem[1](dev, &m);
    if (rc == NVML_SUCCESS) {
        gpu->total = known(m.total), gpu->free = known(m.free), gpu->used = known(m.used);
        gpu->reserved = -1;
    }
    return rc;
}

int nvml_gpu(struct nvml *nv, unsigned index, struct nvml_gpu *gpu, struct oomlab_err *err)
{
    memset(gpu, 0, sizeof *gpu);
    gpu->index = index;
    gpu->total = gpu->used = gpu->free = gpu->reserved = -1;
    gpu->util_gpu = gpu->util_mem = -1;
    nvmlDevice_t dev = NULL;
    nvmlReturn_t rc = get_handle(nv, index, &dev);
    if (rc != NVML_SUCCESS)
        return oomlab_err_set(err, "NVML: GPU %u: no handle: %s (%d)%s", index, err_text(nv, rc), rc,
                              err_hint(rc));
    if (index < NVML_CACHE_GPUS)
        memcpy(gpu->name, nv->cache[index].name, sizeof gpu->name);
    else if (!nv->name || nv->name(dev, gpu->name, sizeof gpu->name) != NVML_SUCCESS)
        gpu->name[0] = '\0';
    gpu->name[sizeof gpu->name - 1] = '\0';
    rc = read_memory(nv, dev, gpu);
    if (rc != NVML_SUCCESS && rc != NVML_ERROR_NOT_SUPPORTED)
        return oomlab_err_set(err, "NVML: GPU %u: cannot read memory: %s (%d)%s", index,
                              err_text(nv, rc), rc, err_hint(rc));
    if (gpu->total == 0) /* unified-memory devices: no separate framebuffer */
        gpu->total = gpu->used = gpu->free = gpu->reserved = -1;
    struct nvml_abi_utilization u;
    if (nv->util && nv->util(dev, &u) == NVML_SUCCESS && u.gpu <= 100 && u.memory <= 100) {
        gpu->util_gpu = (int)u.gpu;
        gpu->util_mem = (int)u.memory;
    }
    return 0;
}

/* One process query into raw (stride bytes per entry), growing on
 * INSUFFICIENT_SIZE a bounded number of times. Returns the NVML code; *n the
 * entries filled. */
static nvmlReturn_t query_list(fn_procs fn, nvmlDevice_t dev, size_t stride, unsigned char **raw,
                               unsigned *cap, unsigned *n)
{
    nvmlReturn_t rc = NVML_ERROR_INSUFFICIENT_SIZE;
    for (int tries = 0; tries < PROCS_TRIES && rc == NVML_ERROR_INSUFFICIENT_SIZE; tries++) {
        unsigned count = *cap;
        rc = fn(dev, &count, *cap ? *raw : NULL);
        if (rc == NVML_SUCCESS) {
            *n = count <= *cap ? count : *cap;
            return rc;
        }
        if (rc != NVML_ERROR_INSUFFICIENT_SIZE) return rc;
        /* processes appear between calls: grow with headroom */
        unsigned want = count > *cap ? count : *cap;
        if (want > PROCS_MAX) return NVML_ERROR_INSUFFICIENT_SIZE;
        want = want + want / 2 + 8;
        unsigned char *grown = realloc(*raw, (size_t)want * stride);
        if (!grown) return NVML_ERROR_UNKNOWN;
        *raw = grown, *cap = want;
    }
    return rc;
}

static int add_proc(struct nvml_proc **list, size_t *n, size_t *cap, unsigned pid, int64_t used,
                    bool graphics)
{
    for (size_t i = 0; i < *n; i++) {
        if ((*list)[i].pid != pid) continue;
        /* listed twice (compute and graphics): keep the larger known figure */
        if (used > (*list)[i].used) (*list)[i].used = used;
        if (!graphics) (*list)[i].graphics = false;
        return 0;
    }
    if (*n == *cap) {
        struct nvml_proc *grown = strbuf_grow(*list, cap, *n + 1, sizeof **list, SIZE_MAX);
        if (!grown) return -1;
        *list = grown;
    }
    (*list)[(*n)++] = (struct nvml_proc){.pid = pid, .used = used, .graphics = graphics};
    return 0;
}

/* Walk one family from its newest answering generation down. */
static nvmlReturn_t list_family(struct nvml *nv, struct proc_api *api, nvmlDevice_t dev,
                                struct nvml_proc **list, size_t *n, size_t *cap)
{
    static const size_t stride[3] = {sizeof(struct nvml_abi_process),
                                     sizeof(struct nvml_abi_process),
                                     sizeof(struct nvml_abi_process_v1)};
    nvmlReturn_t rc = NVML_ERROR_FUNCTION_NOT_FOUND;
    unsigned char *raw = NULL;
    unsigned rawcap = 0, got = 0;
    for (; api->level < 3; api->level++) {
        if (!api->v[api->level]) continue;
        unsigned c = 32;
        unsigned char *r = realloc(raw, (size_t)c * stride[api->level]);
        if (!r) {
            rc = NVML_ERROR_UNKNOWN;
            break;
        }
        raw = r, rawcap = c;
        rc = query_list(api->v[api->level], dev, stride[api->level], &raw, &rawcap, &got);
        if (!is_fallback(rc)) break;
    }
    if (api->level >= 3) api->level = 2;
    for (unsigned i = 0; rc == NVML_SUCCESS && i < got; i++) {
        unsigned pid;
        unsigned long long used;
        if (api->level == 2) {
            struct nvml_abi_process_v1 p;
            memcpy(&p, raw + (size_t)i * stride[2], sizeof p);
            pid = p.pid, used = p.usedGpuMemory;
        } else {
            struct nvml_abi_process p;
            memcpy(&p, raw + (size_t)i * stride[0], sizeof p);
            pid = p.pid, used = p.usedGpuMemory;
        }
        if (add_proc(list, n, cap, pid, known(used), api == &nv->graphics) < 0)
            rc = NVML_ERROR_UNKNOWN;
    }
    free(raw);
    return rc;
}

int nvml_procs(struct nvml *nv, unsigned index, struct nvml_proc **procs, size_t *n,
               struct oomlab_err *err)
{
    *procs = NULL;
    *n = 0;
    nvmlDevice_t dev = NULL;
    nvmlReturn_t rc = get_handle(nv, index, &dev);
    if (rc != NVML_SUCCESS)
        return oomlab_err_set(err, "NVML: GPU %u: no handle: %s (%d)%s", index, err_text(nv, rc), rc,
                              err_hint(rc));
    struct nvml_proc *list = NULL;
    size_t count = 0, cap = 0;
    struct proc_api *fam[2] = {&nv->compute, &nv->graphics};
    for (int f = 0; f < 2; f++) {
        rc = list_family(nv, fam[f], dev, &list, &count, &cap);
        /* a device without graphics support answers NOT_SUPPORTED there */
        if (rc == NVML_SUCCESS || (f == 1 && rc == NVML_ERROR_NOT_SUPPORTED)) continue;
        free(list);
        return oomlab_err_set(err, "NVML: GPU %u: cannot list %s processes: %s (%d)%s", index,
                              fam[f]->label, err_text(nv, rc), rc, err_hint(rc));
    }
    *procs = list;
    *n = count;
    return 0;
}

int64_t nvml_procs_sum(const struct nvml_proc *procs, size_t n, size_t *unknown)
{
    int64_t sum = 0;
    size_t unk = 0;
    for (size_t i = 0; i < n; i++)
        if (procs[i].used < 0 || !units_add(sum, procs[i].used, &sum)) unk++;
    if (unknown) *unknown = unk;
    return n > 0 && unk == n ? -1 : sum;
}

const char *nvml_api(const struct nvml *nv, char *buf, size_t size)
{
    static const char *const gen[3] = {"v3", "v2", "v1"};
    snprintf(buf, size, "%s count_%s handle_%s memory_%s processes_%s",
             nv->init_sym && !strcmp(nv->init_sym, "nvmlInit_v2") ? "init_v2" : "init_v1",
             nv->count_level == 0 ? "v2" : "v1", nv->handle_level == 0 ? "v2" : "v1",
             nv->mem_level == 0 ? "v2" : "v1", gen[nv->compute.level]);
    return buf;
}
