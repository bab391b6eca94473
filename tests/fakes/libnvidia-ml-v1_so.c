/* Test double of an old libnvidia-ml.so.1 that exports only the original
 * entry points (nvmlInit, unversioned count/handle, nvmlMemory_t, the 16-byte
 * process struct): the same fake as libnvidia-ml_so.c with the _v2/_v3
 * symbols not exported, so oomlab's dlsym fallbacks are exercised too. */
#define FAKE_NVML_V1_ONLY 1
#include "libnvidia-ml_so.c"
