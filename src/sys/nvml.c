/* nvml: placeholder until the NVML layer lands: behaves as "no driver". */
#include "sys/nvml.h"

int nvml_open(struct nvml **out, struct oomlab_err *err)
{
    *out = NULL;
    return oomlab_err_set(err, "NVML support is not built yet");
}
void nvml_close(struct nvml *nv) { (void)nv; }
int nvml_count(struct nvml *nv, unsigned *count, struct oomlab_err *err)
{
    *count = 0;
    return oomlab_err_set(err, "NVML support is not built yet");
}
void nvml_driver(struct nvml *nv, char *buf, size_t size)
{
    if (size) buf[0] = '\0';
}
int nvml_gpu(struct nvml *nv, unsigned index, struct nvml_gpu *gpu, struct oomlab_err *err)
{
    return oomlab_err_set(err, "NVML support is not built yet");
}
int nvml_procs(struct nvml *nv, unsigned index, struct nvml_proc **procs, size_t *n,
               struct oomlab_err *err)
{
    *procs = NULL;
    *n = 0;
    return oomlab_err_set(err, "NVML support is not built yet");
}
