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

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The same NVML calls a tick makes, straight into the fake: its own cost
 * (file reads the real library does not do), to subtract. */
struct fake {
    fn mem, util, comp, gfx;
    nvmlDevice_t dev[64];
    unsigned n;
};

static void fake_open(struct fake *f)
{
    void *lib = dlopen(getenv("OOMLAB_NVML_LIBRARY"), RTLD_NOW); /* already loaded: same handle */
    fn init = get(lib, "nvmlInit_v2"), count = get(lib, "nvmlDeviceGetCount_v2"),
       handle = get(lib, "nvmlDeviceGetHandleByIndex_v2");
    f->mem = get(lib, "nvmlDeviceGetMemoryInfo_v2");
    f->util = get(lib, "nvmlDeviceGetUtilizationRates");
    f->comp = get(lib, "nvmlDeviceGetComputeRunningProcesses_v3");
    f->gfx = get(lib, "nvmlDeviceGetGraphicsRunningProcesses_v3");
    init();
    count(&f->n);
    for (unsigned g = 0; g < f->n && g < 64; g++)
        handle(g, &f->dev[g]);
}

static void fake_ticks(struct fake *f, long ticks)
{
    for (long i = 0; i < ticks; i++)
        for (unsigned g = 0; g < f->n && g < 64; g++) {
            nvmlDevice_t *dev = f->dev;
            fn mem = f->mem, util = f->util, comp = f->comp, gfx = f->gfx;
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
    /* Interleaved rounds, so load from elsewhere hits both sides alike; the
     * fastest round of each is the figure (noise only ever adds time). */
    struct fake fk;
    fake_open(&fk);
    long rounds = 20, per = ticks / rounds > 0 ? ticks / rounds : 1;
    double best_tick = 1e9, best_fake = 1e9, sum_tick = 0;
    for (long r = 0; r < rounds; r++) {
        double a = cpu_now();
        for (long i = 0; i < per; i++)
            if (memlog_tick(ml, &err) < 0) {
                fprintf(stderr, "%s\n", err.msg);
                return 1;
            }
        double b = cpu_now();
        fake_ticks(&fk, per);
        double c = cpu_now();
        sum_tick += b - a;
        if ((b - a) / (double)per < best_tick) best_tick = (b - a) / (double)per;
        if ((c - b) / (double)per < best_fake) best_fake = (c - b) / (double)per;
    }
    double per_tick = best_tick, fake = best_fake;
    memlog_close(ml, NULL);
    nvml_close(nv);

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
    double per_spawn =
        (cpu_seconds(RUSAGE_SELF) + cpu_seconds(RUSAGE_CHILDREN) - c0) / (double)spawns;
    printf("nvml-sampling: %.1f us CPU per tick (fastest of %ld rounds; mean %.1f us) = %.3f%% of "
           "one core at 100 ms\n",
           per_tick * 1e6, rounds, sum_tick / (double)(rounds * per) * 1e6, per_tick / 0.100 * 100);
    printf("nvml-sampling: of which the fake library's own file reads: %.1f us; oomlab's part: "
           "%.1f us = %.3f%% of one core at 100 ms (target < 1%%)\n",
           fake * 1e6, (per_tick - fake) * 1e6, (per_tick - fake) / 0.100 * 100);
    printf("nvml-sampling: reference fork+exec /bin/true: %.1f us; tick/reference = %.2f\n",
           per_spawn * 1e6, per_tick / per_spawn);
    return (per_tick - fake) / 0.100 < 0.01 ? 0 : 1;
}
