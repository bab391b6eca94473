/* Benchmark body for bench/nvml-sampling: CPU time of one memlog tick (all
 * GPUs: memory, utilisation, process list, the child's tree via /proc, one
 * CSV write) through the fake NVML, against a reference measured in the
 * same run: fork+exec of /bin/true, the least a sampler that runs a
 * program per sample (nvidia-smi in a loop) pays. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sys/memlog.h"
#include "sys/nvml.h"
#include "sys/nvml_abi.h"

typedef nvmlReturn_t (*fn)();

static fn get(void *lib, const char *name)
{
    void *p = dlsym(lib, name);
    fn f;
    memcpy(&f, &p, sizeof f);
    return f;
}

/* The same NVML calls a tick makes, straight into the fake: its own cost
 * (file reads the real library does not do), to subtract. */
static double fake_cost(long ticks)
{
    void *lib = dlopen(getenv("OOMLAB_NVML_LIBRARY"), RTLD_NOW);
    if (!lib) return 0;
    fn init = get(lib, "nvmlInit_v2"), count = get(lib, "nvmlDeviceGetCount_v2"),
       handle = get(lib, "nvmlDeviceGetHandleByIndex_v2"), mem = get(lib, "nvmlDeviceGetMemoryInfo_v2"),
       util = get(lib, "nvmlDeviceGetUtilizationRates"),
       comp = get(lib, "nvmlDeviceGetComputeRunningProcesses_v3"),
       gfx = get(lib, "nvmlDeviceGetGraphicsRunningProcesses_v3"), shut = get(lib, "nvmlShutdown");
    unsigned n = 0;
    init();
    count(&n);
    nvmlDevice_t dev[64];
    for (unsigned g = 0; g < n && g < 64; g++) handle(g, &dev[g]);
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (long i = 0; i < ticks; i++)
        for (unsigned g = 0; g < n && g < 64; g++) {
            struct nvml_abi_memory_v2 m = {.version = NVML_ABI_MEMORY_V2_VERSION};
            struct nvml_abi_utilization u;
            struct nvml_abi_process p[64];
            unsigned c = 64;
            mem(dev[g], &m);
            util(dev[g], &u);
            comp(dev[g], &c, p);
            c = 64;
            gfx(dev[g], &c, p);
        }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    shut();
    dlclose(lib);
    return ((double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9) / (double)ticks;
}

static double cpu_seconds(int who)
{
    struct rusage ru;
    getrusage(who, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
           ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s CSV TICKS\n", argv[0]);
        return 2;
    }
    long ticks = strtol(argv[2], NULL, 10);
    struct oomlab_err err;
    struct nvml *nv;
    struct memlog *ml;
    if (nvml_open(&nv, &err) < 0 ||
        memlog_open(&ml, nv, argv[1], NULL, 0, getpid(), "bench", &err) < 0) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    struct timespec a, b;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    for (long i = 0; i < ticks; i++)
        if (memlog_tick(ml, &err) < 0) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    double per_tick = ((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9) / (double)ticks;
    memlog_close(ml, NULL);
    nvml_close(nv);

    double fake = fake_cost(ticks);
    long spawns = 200;
    double c0 = cpu_seconds(RUSAGE_SELF) + cpu_seconds(RUSAGE_CHILDREN);
    for (long i = 0; i < spawns; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            execl("/bin/true", "true", (char *)NULL);
            _exit(127);
        }
        waitpid(pid, NULL, 0);
    }
    double per_spawn = (cpu_seconds(RUSAGE_SELF) + cpu_seconds(RUSAGE_CHILDREN) - c0) / (double)spawns;
    printf("nvml-sampling: %.1f us CPU per tick = %.3f%% of one core at 100 ms (target < 1%%)\n",
           per_tick * 1e6, per_tick / 0.100 * 100);
    printf("nvml-sampling: of which the fake library's own file reads: %.1f us; oomlab's part: "
           "%.1f us = %.3f%% of one core at 100 ms\n",
           fake * 1e6, (per_tick - fake) * 1e6, (per_tick - fake) / 0.100 * 100);
    printf("nvml-sampling: reference fork+exec /bin/true: %.1f us; tick/reference = %.2f\n",
           per_spawn * 1e6, per_tick / per_spawn);
    return (per_tick - fake) / 0.100 < 0.01 ? 0 : 1;
}
