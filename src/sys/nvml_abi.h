/* nvml_abi: the few NVML types and return codes oomlab needs, written from
 * NVIDIA's API reference (docs/nvml.md), shared by the loader (nvml.c) and
 * the test double (tests/fakes/libnvidia-ml_so.c) so both agree on the ABI.
 * Sizes are for LP64 Linux and checked at compile time. No functions here. */
#ifndef OOMLAB_NVML_ABI_H
#define OOMLAB_NVML_ABI_H

typedef int nvmlReturn_t; /* an int-sized enum in the real header */
typedef struct nvml_device_opaque *nvmlDevice_t;

enum {
    NVML_SUCCESS = 0,
    NVML_ERROR_UNINITIALIZED = 1,
    NVML_ERROR_INVALID_ARGUMENT = 2,
    NVML_ERROR_NOT_SUPPORTED = 3,
    NVML_ERROR_NO_PERMISSION = 4,
    NVML_ERROR_NOT_FOUND = 6,
    NVML_ERROR_INSUFFICIENT_SIZE = 7,
    NVML_ERROR_DRIVER_NOT_LOADED = 9,
    NVML_ERROR_LIBRARY_NOT_FOUND = 12,
    NVML_ERROR_FUNCTION_NOT_FOUND = 13,
    NVML_ERROR_GPU_IS_LOST = 15,
    NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25,
    NVML_ERROR_UNKNOWN = 999,
};

/* nvmlMemory_t: used includes the driver's reservation. */
struct nvml_abi_memory_v1 {
    unsigned long long total, free, used;
};

/* nvmlMemory_v2_t: version is IN and must be sizeof | 2 << 24. */
struct nvml_abi_memory_v2 {
    unsigned int version;
    unsigned long long total, reserved, free, used;
};
#define NVML_ABI_MEMORY_V2_VERSION ((unsigned)(sizeof(struct nvml_abi_memory_v2) | 2u << 24))

/* nvmlProcessInfo_t, as used by the _v2 and _v3 process queries. */
struct nvml_abi_process {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId, computeInstanceId;
};

/* The original (unversioned) process query's struct. */
struct nvml_abi_process_v1 {
    unsigned int pid;
    unsigned long long usedGpuMemory;
};

struct nvml_abi_utilization {
    unsigned int gpu, memory;
};

#define NVML_ABI_VALUE_NOT_AVAILABLE (~0ULL)

_Static_assert(sizeof(struct nvml_abi_memory_v1) == 24, "nvmlMemory_t is 24 bytes");
_Static_assert(sizeof(struct nvml_abi_memory_v2) == 40, "nvmlMemory_v2_t is 40 bytes");
_Static_assert(NVML_ABI_MEMORY_V2_VERSION == 0x02000028u, "memory v2 version word");
_Static_assert(sizeof(struct nvml_abi_process) == 24, "nvmlProcessInfo_t is 24 bytes");
_Static_assert(sizeof(struct nvml_abi_process_v1) == 16, "nvmlProcessInfo_v1_t is 16 bytes");
_Static_assert(sizeof(struct nvml_abi_utilization) == 8, "nvmlUtilization_t is 8 bytes");
_Static_assert(sizeof(nvmlReturn_t) == 4, "nvmlReturn_t is int-sized");

#endif
