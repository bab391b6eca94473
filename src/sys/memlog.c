/* memlog: placeholder until the NVML layer lands. */
#include "sys/memlog.h"

int memlog_open(struct memlog **out, struct nvml *nv, const char *path, const unsigned *gpus,
                size_t n_gpus, pid_t root_pid, const char *command, struct oomlab_err *err)
{
    *out = NULL;
    return oomlab_err_set(err, "memory sampling is not built yet");
}
int memlog_tick(struct memlog *ml, struct oomlab_err *err) { return -1; }
size_t memlog_peaks(const struct memlog *ml, struct memlog_peak *out, size_t max) { return 0; }
int memlog_close(struct memlog *ml, struct oomlab_err *err) { return 0; }
