/* glibc228: linked only into `make portable`. Every reference to a glibc
 * symbol newer than 2.28 is redirected here by the linker (-Wl,--wrap=SYM,
 * in our objects and in the static json-c/libyaml/zlib alike) and calls the
 * symbol's 2.2.5 version instead, which every glibc from 2.28 (RHEL 8,
 * Ubuntu 20.04, Debian 11) to today exports — so one binary runs on all of
 * them. tests/e2e/portable.sh fails if a newer version is still needed. */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/stat.h>

#define OLD(sym, name) __asm__(".symver " #name "," #sym "@GLIBC_2.2.5")

/* stat and friends were inline wrappers around __xstat before 2.33. */
int old_xstat(int ver, const char *path, struct stat *st);
int old_lxstat(int ver, const char *path, struct stat *st);
int old_fxstat(int ver, int fd, struct stat *st);
OLD(__xstat, old_xstat);
OLD(__lxstat, old_lxstat);
OLD(__fxstat, old_fxstat);
#define STAT_VER 1 /* _STAT_VER_LINUX on x86-64 */
int __wrap_stat(const char *path, struct stat *st) { return old_xstat(STAT_VER, path, st); }
int __wrap_lstat(const char *path, struct stat *st) { return old_lxstat(STAT_VER, path, st); }
int __wrap_fstat(int fd, struct stat *st) { return old_fxstat(STAT_VER, fd, st); }
/* fstatat's old wrapper target, __fxstatat, is versioned 2.4 (the *at
 * calls came with 2.4). */
int old_fxstatat(int ver, int dirfd, const char *path, struct stat *st, int flags);
__asm__(".symver old_fxstatat,__fxstatat@GLIBC_2.4");
int __wrap_fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
    return old_fxstatat(STAT_VER, dirfd, path, st, flags);
}

double old_pow(double x, double y);
OLD(pow, old_pow);
double __wrap_pow(double x, double y) { return old_pow(x, y); }
double old_exp(double x);
double old_log(double x);
OLD(exp, old_exp);
OLD(log, old_log);
double __wrap_exp(double x) { return old_exp(x); }
double __wrap_log(double x) { return old_log(x); }

/* dl* moved from libdl.so.2 into libc at 2.34; the 2.2.5 versions are in
 * libdl.so.2 on old systems (linked with --no-as-needed) and kept in libc
 * on new ones. Same for pthread_once and libpthread.so.0. */
void *old_dlopen(const char *file, int mode);
int old_dlclose(void *handle);
char *old_dlerror(void);
void *old_dlsym(void *handle, const char *name);
int old_pthread_once(pthread_once_t *once, void (*fn)(void));
OLD(dlopen, old_dlopen);
OLD(dlclose, old_dlclose);
OLD(dlerror, old_dlerror);
OLD(dlsym, old_dlsym);
OLD(pthread_once, old_pthread_once);
void *__wrap_dlopen(const char *file, int mode) { return old_dlopen(file, mode); }
int __wrap_dlclose(void *handle) { return old_dlclose(handle); }
char *__wrap_dlerror(void) { return old_dlerror(); }
void *__wrap_dlsym(void *handle, const char *name) { return old_dlsym(handle, name); }
int __wrap_pthread_once(pthread_once_t *once, void (*fn)(void)) { return old_pthread_once(once, fn); }

/* crt1.o of glibc >= 2.34 calls __libc_start_main@2.34 with no init
 * function (the new libc runs the constructors itself). The old entry
 * point runs only the init function it is given, so give it the one that
 * __libc_csu_init was: _init, then .init_array. New glibc calls it too, in
 * place of its own walk, so constructors run once either way. */
typedef int (*main_fn)(int, char **, char **);
int old_start_main(main_fn main, int argc, char **argv, void (*init)(int, char **, char **), void (*fini)(void),
                   void (*rtld_fini)(void), void *stack_end);
OLD(__libc_start_main, old_start_main);
extern void (*__init_array_start[])(int, char **, char **) __attribute__((visibility("hidden")));
extern void (*__init_array_end[])(int, char **, char **) __attribute__((visibility("hidden")));
extern void _init(void);

static void run_constructors(int argc, char **argv, char **envp)
{
    _init();
    for (size_t i = 0; i < (size_t)(__init_array_end - __init_array_start); i++) __init_array_start[i](argc, argv, envp);
}

int __wrap___libc_start_main(main_fn main, int argc, char **argv, void (*init)(int, char **, char **),
                             void (*fini)(void), void (*rtld_fini)(void), void *stack_end)
{
    (void)init, (void)fini;
    return old_start_main(main, argc, argv, run_constructors, NULL, rtld_fini, stack_end);
}
