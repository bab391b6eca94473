/* ctypes entry points over src/lib/allocsim.c for llama_step.py (a scratch
 * experiment, not part of the build): cc -O2 -shared -fPIC -Isrc
 * bench/allocsim-step/allocsim_wrap.c src/lib/allocsim.c -o build/liballocsim.so */
#include <stdlib.h>
#include "lib/allocsim.h"
void *sim_new(void){ struct allocsim *s = malloc(sizeof *s); allocsim_init(s); return s; }
int sim_alloc(void *s, long long b){ return allocsim_alloc(s, b); }
void sim_free(void *s, int h){ allocsim_free(s, h); }
long long sim_get(void *s, int w){ struct allocsim *a = s; return w==0?a->reserved:w==1?a->allocated:w==2?a->peak_reserved:w==3?a->peak_allocated:a->failed; }
