/* Test double of libnvidia-ml.so.1: the same symbol names and struct layouts
 * as the real library (sys/nvml_abi.h), with GPUs and processes read from a
 * state directory on every call, so tests and the simulated trainer change
 * the "hardware" by writing files.
 *
 * State: $OOMLAB_FAKE_NVML_DIR (unset: nvmlInit answers DRIVER_NOT_LOADED)
 *   DIR/gpus        one line per GPU:  INDEX TOTAL_BYTES BASE_USED_BYTES UTIL_PCT NAME...
 *                   e.g. "0 85899345920 536870912 35 NVIDIA A100-SXM4-80GB"; indices
 *                   0..N-1; TOTAL_BYTES "na" = memory info not supported (unified
 *                   memory), UTIL_PCT "na" = utilisation not supported;
 *                   UTIL_PCT "A/B": this process's first utilisation read of
 *                   the GPU answers A, every later one B (deterministic tests
 *                   of sampling windows).
 *   DIR/procs/PID   a file per process holding GPU memory, one line per GPU:
 *                   GPU_INDEX BYTES [compute|graphics|both]   (default compute)
 *                   BYTES "na" = NVML_VALUE_NOT_AVAILABLE. Write it atomically
 *                   (temp name not all digits, then rename); remove it on exit.
 *   DIR/driver      optional: the driver version string (absent: NOT_SUPPORTED).
 * A GPU's used = BASE_USED + the sum of its processes' known BYTES (capped at
 * total); memory v2 reports reserved = $OOMLAB_FAKE_NVML_RESERVED (default 0)
 * and free = total - reserved - used; v1 folds reserved into used.
 *
 * Knobs:
 *   OOMLAB_FAKE_NVML_API=v1|v2|v3  newest API generation that answers (default
 *       v3): v1 makes every _v2/_v3 entry answer FUNCTION_NOT_FOUND; v2 only
 *       the _v3 process queries. (Build libnvidia-ml-v1.so.1 lacks the symbols.)
 *   OOMLAB_FAKE_NVML_FAIL=a,b,...  init (DRIVER_NOT_LOADED), count (UNKNOWN),
 *       handle (every index: NO_PERMISSION), handleN (index N only), memory
 *       (GPU_IS_LOST), util (NOT_SUPPORTED), procs (UNKNOWN), grow (process
 *       lists always INSUFFICIENT_SIZE), graphics (graphics list NOT_SUPPORTED).
 *   OOMLAB_FAKE_NVML_REAP=1  ignore DIR/procs/PID when PID no longer exists,
 *       as the driver frees a dead process's memory.
 *   OOMLAB_FAKE_NVML_LOG=FILE  append the name of each nvmlInit, nvmlInit_v2
 *       and nvmlShutdown call.
 * A wrong nvmlMemory_v2_t version word is refused with FUNCTION_NOT_FOUND,
 * as the real library does. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/nvml_abi.h"

#define FAKE_MAX_GPUS 16
#define FAKE_MAX_PROCS 4096
#define NA (-1LL)

#ifdef FAKE_NVML_V1_ONLY
#define NEWER static __attribute__((unused))
#else
#define NEWER __attribute__((visibility("default")))
#endif
#define API __attribute__((visibility("default")))

struct fake_gpu {
    int present;
    long long total, base, util, util_later;
    char name[96];
};

struct fake_proc {
    unsigned pid, gpu;
    long long bytes;
    int compute, graphics;
};

static int inits;
static struct nvml_device_opaque {
    unsigned index;
} handles[FAKE_MAX_GPUS];

static int fails(const char *what)
{
    const char *f = getenv("OOMLAB_FAKE_NVML_FAIL");
    if (!f) return 0;
    size_t n = strlen(what);
    for (const char *p = f; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && !strncmp(p, what, n)) return 1;
        if (!end) break;
        p = end + 1;
    }
    return 0;
}

static int api_level(void)
{
#ifdef FAKE_NVML_V1_ONLY
    return 1;
#else
    const char *a = getenv("OOMLAB_FAKE_NVML_API");
    if (a && !strcmp(a, "v1")) return 1;
    if (a && !strcmp(a, "v2")) return 2;
    return 3;
#endif
}

static void log_call(const char *name)
{
    const char *path = getenv("OOMLAB_FAKE_NVML_LOG");
    if (!path) return;
    FILE *f = fopen(path, "a");
    if (!f) return;
    fprintf(f, "%s\n", name);
    fclose(f);
}

/* Whole small file into buf (NUL-terminated) with plain read(2): the fake
 * is called several times per sample, so no stdio. -1 when absent. */
static int read_small(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t n = 0;
    for (ssize_t r; n + 1 < size && (r = read(fd, buf + n, size - 1 - n)) > 0;)
        n += (size_t)r;
    close(fd);
    buf[n] = '\0';
    return 0;
}

static const char *state_dir(void)
{
    const char *d = getenv("OOMLAB_FAKE_NVML_DIR");
    return d && *d ? d : NULL;
}

/* "na" -> NA; a decimal number -> its value; anything else -> -2. */
static long long number(const char *s)
{
    if (!strcmp(s, "na")) return NA;
    if (!isdigit((unsigned char)*s)) return -2;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v > (unsigned long long)INT64_MAX) return -2;
    return (long long)v;
}

static int read_gpus(struct fake_gpu gpus[FAKE_MAX_GPUS])
{
    memset(gpus, 0, sizeof(struct fake_gpu) * FAKE_MAX_GPUS);
    char path[4096], text[8192], *save = NULL;
    snprintf(path, sizeof path, "%s/gpus", state_dir());
    if (read_small(path, text, sizeof text) < 0) return -1;
    int n = 0;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char idx[32], total[32], base[32], util[32];
        int off = 0;
        if (sscanf(line, "%31s %31s %31s %31s %n", idx, total, base, util, &off) != 4) continue;
        long long i = number(idx);
        if (i < 0 || i >= FAKE_MAX_GPUS) continue;
        struct fake_gpu *g = &gpus[i];
        g->present = 1;
        char *slash = strchr(util, '/');
        if (slash) *slash = '\0';
        g->total = number(total), g->base = number(base), g->util = number(util);
        g->util_later = slash ? number(slash + 1) : g->util;
        snprintf(g->name, sizeof g->name, "%s", line + off);
        g->name[strcspn(g->name, "\r\n")] = '\0';
        if (i + 1 > n) n = (int)i + 1;
    }
    return n;
}

static int pid_cmp(const void *a, const void *b)
{
    const struct fake_proc *x = a, *y = b;
    return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static void read_proc_file(const char *dir, const char *name, unsigned pid, struct fake_proc *out,
                           int *n)
{
    char path[4096], text[4096], *save = NULL;
    snprintf(path, sizeof path, "%s/procs/%s", dir, name);
    if (read_small(path, text, sizeof text) < 0) return; /* removed after readdir */
    for (char *line = strtok_r(text, "\n", &save); line && *n < FAKE_MAX_PROCS;
         line = strtok_r(NULL, "\n", &save)) {
        char gpu[32], bytes[32], kind[32] = "compute";
        if (sscanf(line, "%31s %31s %31s", gpu, bytes, kind) < 2) continue;
        long long g = number(gpu), b = number(bytes);
        if (g < 0 || b == -2) continue;
        out[*n] =
            (struct fake_proc){.pid = pid,
                               .gpu = (unsigned)g,
                               .bytes = b,
                               .compute = strcmp(kind, "graphics") != 0,
                               .graphics = !strcmp(kind, "graphics") || !strcmp(kind, "both")};
        (*n)++;
    }
}

static int read_procs(struct fake_proc *out)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/procs", state_dir());
    DIR *d = opendir(path);
    if (!d) return 0;
    int n = 0;
    const char *reap = getenv("OOMLAB_FAKE_NVML_REAP");
    for (struct dirent *e; (e = readdir(d));) {
        if (!*e->d_name || strspn(e->d_name, "0123456789") != strlen(e->d_name)) continue;
        long long pid = number(e->d_name);
        if (pid <= 0 || pid > 0xFFFFFFFFLL) continue;
        if (reap && *reap == '1' && kill((int)pid, 0) < 0 && errno == ESRCH) continue;
        read_proc_file(state_dir(), e->d_name, (unsigned)pid, out, &n);
    }
    closedir(d);
    qsort(out, (size_t)n, sizeof *out, pid_cmp);
    return n;
}

static int device_index(nvmlDevice_t dev, struct fake_gpu gpus[FAKE_MAX_GPUS])
{
    if (!dev || dev < handles || dev >= handles + FAKE_MAX_GPUS) return -1;
    int i = (int)(dev - handles);
    if (read_gpus(gpus) < 0 || !gpus[i].present) return -1;
    return i;
}

/* ---- entry points ---- */

static nvmlReturn_t do_init(const char *name)
{
    log_call(name);
    if (!state_dir() || fails("init")) return NVML_ERROR_DRIVER_NOT_LOADED;
    inits++;
    return NVML_SUCCESS;
}

NEWER nvmlReturn_t nvmlInit_v2(void)
{
    if (api_level() < 2) return NVML_ERROR_FUNCTION_NOT_FOUND;
    return do_init("nvmlInit_v2");
}
API nvmlReturn_t nvmlInit(void)
{
    return do_init("nvmlInit");
}

API nvmlReturn_t nvmlShutdown(void)
{
    log_call("nvmlShutdown");
    if (inits == 0) return NVML_ERROR_UNINITIALIZED;
    inits--;
    return NVML_SUCCESS;
}

API const char *nvmlErrorString(nvmlReturn_t rc)
{
    switch (rc) {
    case NVML_SUCCESS:
        return "Success";
    case NVML_ERROR_UNINITIALIZED:
        return "Uninitialized";
    case NVML_ERROR_INVALID_ARGUMENT:
        return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED:
        return "Not Supported";
    case NVML_ERROR_NO_PERMISSION:
        return "Insufficient Permissions";
    case NVML_ERROR_INSUFFICIENT_SIZE:
        return "Insufficient Size";
    case NVML_ERROR_DRIVER_NOT_LOADED:
        return "Driver Not Loaded";
    case NVML_ERROR_FUNCTION_NOT_FOUND:
        return "Function Not Found";
    case NVML_ERROR_GPU_IS_LOST:
        return "GPU is lost";
    case NVML_ERROR_ARGUMENT_VERSION_MISMATCH:
        return "Argument version mismatch";
    default:
        return "Unknown Error";
    }
}

static nvmlReturn_t do_count(unsigned *count)
{
    if (!inits) return NVML_ERROR_UNINITIALIZED;
    if (!count) return NVML_ERROR_INVALID_ARGUMENT;
    if (fails("count")) return NVML_ERROR_UNKNOWN;
    struct fake_gpu gpus[FAKE_MAX_GPUS];
    int n = read_gpus(gpus);
    *count = n < 0 ? 0 : (unsigned)n;
    return NVML_SUCCESS;
}
NEWER nvmlReturn_t nvmlDeviceGetCount_v2(unsigned *count)
{
    return api_level() < 2 ? NVML_ERROR_FUNCTION_NOT_FOUND : do_count(count);
}
API nvmlReturn_t nvmlDeviceGetCount(unsigned *count)
{
    return do_count(count);
}

static nvmlReturn_t do_handle(unsigned index, nvmlDevice_t *dev)
{
    if (!inits) return NVML_ERROR_UNINITIALIZED;
    struct fake_gpu gpus[FAKE_MAX_GPUS];
    if (!dev || index >= FAKE_MAX_GPUS || read_gpus(gpus) < 0 || !gpus[index].present)
        return NVML_ERROR_INVALID_ARGUMENT;
    char what[32];
    snprintf(what, sizeof what, "handle%u", index);
    if (fails("handle") || fails(what)) return NVML_ERROR_NO_PERMISSION;
    handles[index].index = index;
    *dev = &handles[index];
    return NVML_SUCCESS;
}
NEWER nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned index, nvmlDevice_t *dev)
{
    return api_level() < 2 ? NVML_ERROR_FUNCTION_NOT_FOUND : do_handle(index, dev);
}
API nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned index, nvmlDevice_t *dev)
{
    return do_handle(index, dev);
}

API nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t dev, char *buf, unsigned len)
{
    struct fake_gpu gpus[FAKE_MAX_GPUS];
    int i = device_index(dev, gpus);
    if (!inits) return NVML_ERROR_UNINITIALIZED;
    if (i < 0 || !buf) return NVML_ERROR_INVALID_ARGUMENT;
    if (strlen(gpus[i].name) + 1 > len) return NVML_ERROR_INSUFFICIENT_SIZE;
    memcpy(buf, gpus[i].name, strlen(gpus[i].name) + 1);
    return NVML_SUCCESS;
}

/* used/free for GPU i: base + its processes' known bytes. */
static nvmlReturn_t memory(nvmlDevice_t dev, long long *total, long long *reserved, long long *used)
{
    static struct fake_proc procs[FAKE_MAX_PROCS];
    struct fake_gpu gpus[FAKE_MAX_GPUS];
    if (!inits) return NVML_ERROR_UNINITIALIZED;
    int i = device_index(dev, gpus);
    if (i < 0) return NVML_ERROR_INVALID_ARGUMENT;
    if (fails("memory")) return NVML_ERROR_GPU_IS_LOST;
    if (gpus[i].total < 0) return NVML_ERROR_NOT_SUPPORTED;
    const char *r = getenv("OOMLAB_FAKE_NVML_RESERVED");
    *reserved = r ? number(r) : 0;
    if (*reserved < 0) *reserved = 0;
    *total = gpus[i].total;
    *used = gpus[i].base > 0 ? gpus[i].base : 0;
    int n = read_procs(procs);
    for (int k = 0; k < n; k++)
        if (procs[k].gpu == (unsigned)i && procs[k].bytes > 0) *used += procs[k].bytes;
    if (*used > *total - *reserved) *used = *total - *reserved;
    if (*used < 0) *used = 0;
    return NVML_SUCCESS;
}

NEWER nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t dev, struct nvml_abi_memory_v2 *m)
{
    if (api_level() < 2) return NVML_ERROR_FUNCTION_NOT_FOUND;
    if (!m) return NVML_ERROR_INVALID_ARGUMENT;
    if (m->version != NVML_ABI_MEMORY_V2_VERSION) return NVML_ERROR_FUNCTION_NOT_FOUND;
    long long total, reserved, used;
    nvmlReturn_t rc = memory(dev, &total, &reserved, &used);
    if (rc) return rc;
    m->total = (unsigned long long)total, m->reserved = (unsigned long long)reserved;
    m->used = (unsigned long long)used;
    m->free = (unsigned long long)(total - reserved - used);
    return NVML_SUCCESS;
}

API nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t dev, struct nvml_abi_memory_v1 *m)
{
    if (!m) return NVML_ERROR_INVALID_ARGUMENT;
    long long total, reserved, used;
    nvmlReturn_t rc = memory(dev, &total, &reserved, &used);
    if (rc) return rc;
    m->total = (unsigned long long)total, m->used = (unsigned long long)(used + reserved);
    m->free = (unsigned long long)(total - reserved - used);
    return NVML_SUCCESS;
}

API nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t dev, struct nvml_abi_utilization *u)
{
    struct fake_gpu gpus[FAKE_MAX_GPUS];
    if (!inits) return NVML_ERROR_UNINITIALIZED;
    int i = device_index(dev, gpus);
    if (i < 0 || !u) return NVML_ERROR_INVALID_ARGUMENT;
    static unsigned long reads[FAKE_MAX_GPUS];
    long long util = reads[i]++ == 0 ? gpus[i].util : gpus[i].util_later;
    if (fails("util") || util < 0 || util > 100) return NVML_ERROR_NOT_SUPPORTED;
    u->gpu = (unsigned)util;
    u->memory = (unsigned)(util / 2);
    return NVML_SUCCESS;
}

/* The process-list protocol: *count in = capacity; too small -> the size
 * needed and INSUFFICIENT_SIZE. gen 1 writes the 16-byte struct. */
static nvmlReturn_t processes(nvmlDevice_t dev, unsigned *count, void *out, int gen, int graphics)
{
    static struct fake_proc procs[FAKE_MAX_PROCS];
    struct fake_gpu gpus[FAKE_MAX_GPUS];
    if (!inits) return NVML_ERROR_UNINITIALIZED;
    int i = device_index(dev, gpus);
    if (i < 0 || !count) return NVML_ERROR_INVALID_ARGUMENT;
    if (fails("procs")) return NVML_ERROR_UNKNOWN;
    if (graphics && fails("graphics")) return NVML_ERROR_NOT_SUPPORTED;
    int n = read_procs(procs);
    unsigned want = 0;
    for (int k = 0; k < n; k++)
        if (procs[k].gpu == (unsigned)i && (graphics ? procs[k].graphics : procs[k].compute))
            want++;
    if (fails("grow")) want = *count + 1;
    if (want > *count) {
        *count = want;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    if (want && !out) return NVML_ERROR_INVALID_ARGUMENT;
    unsigned j = 0;
    for (int k = 0; k < n; k++) {
        if (procs[k].gpu != (unsigned)i || !(graphics ? procs[k].graphics : procs[k].compute))
            continue;
        unsigned long long b =
            procs[k].bytes < 0 ? NVML_ABI_VALUE_NOT_AVAILABLE : (unsigned long long)procs[k].bytes;
        if (gen == 1) {
            struct nvml_abi_process_v1 p = {.pid = procs[k].pid, .usedGpuMemory = b};
            memcpy((char *)out + j * sizeof p, &p, sizeof p);
        } else {
            struct nvml_abi_process p = {.pid = procs[k].pid,
                                         .usedGpuMemory = b,
                                         .gpuInstanceId = 0xFFFFFFFFu,
                                         .computeInstanceId = 0xFFFFFFFFu};
            memcpy((char *)out + j * sizeof p, &p, sizeof p);
        }
        j++;
    }
    *count = j;
    return NVML_SUCCESS;
}

NEWER nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t d, unsigned *c, void *p)
{
    return api_level() < 3 ? NVML_ERROR_FUNCTION_NOT_FOUND : processes(d, c, p, 3, 0);
}
NEWER nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v2(nvmlDevice_t d, unsigned *c, void *p)
{
    return api_level() < 2 ? NVML_ERROR_ARGUMENT_VERSION_MISMATCH : processes(d, c, p, 2, 0);
}
API nvmlReturn_t nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t d, unsigned *c, void *p)
{
    return processes(d, c, p, 1, 0);
}
NEWER nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v3(nvmlDevice_t d, unsigned *c, void *p)
{
    return api_level() < 3 ? NVML_ERROR_FUNCTION_NOT_FOUND : processes(d, c, p, 3, 1);
}
NEWER nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v2(nvmlDevice_t d, unsigned *c, void *p)
{
    return api_level() < 2 ? NVML_ERROR_ARGUMENT_VERSION_MISMATCH : processes(d, c, p, 2, 1);
}
API nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses(nvmlDevice_t d, unsigned *c, void *p)
{
    return processes(d, c, p, 1, 1);
}

API nvmlReturn_t nvmlSystemGetDriverVersion(char *buf, unsigned len)
{
    if (!inits) return NVML_ERROR_UNINITIALIZED;
    if (!buf || !len) return NVML_ERROR_INVALID_ARGUMENT;
    char path[4096], v[96] = "";
    snprintf(path, sizeof path, "%s/driver", state_dir());
    FILE *f = fopen(path, "r");
    if (!f) return NVML_ERROR_NOT_SUPPORTED;
    if (!fgets(v, sizeof v, f)) v[0] = '\0';
    fclose(f);
    v[strcspn(v, "\r\n")] = '\0';
    if (strlen(v) + 1 > len) return NVML_ERROR_INSUFFICIENT_SIZE;
    memcpy(buf, v, strlen(v) + 1);
    return NVML_SUCCESS;
}
