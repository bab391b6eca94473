# oomlab build. `make` builds bin/oomlab; `make check` runs every test (plain,
# then under ASan+UBSan, then the fuzz corpora) and ends with one summary line.
# Sources are found by wildcard: adding a module never needs an edit here.

CC      ?= cc
PREFIX  ?= /usr/local
DESTDIR ?=
VERSION := 0.1.0
PKGS    := json-c yaml-0.1 zlib

WARN    := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wno-unused-parameter
CFLAGS  ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -DOOMLAB_VERSION='"$(VERSION)"' \
             $(WARN) $(CFLAGS) -Isrc -I$(B)/gen $(shell pkg-config --cflags $(PKGS))
LIBS    := $(shell pkg-config --libs $(PKGS)) -ldl -lm

B       ?= build
# --version names the commit and the kind of build; the header is rewritten
# only when either changes, so nothing rebuilds needlessly.
BUILD_KIND ?= release
COMMIT  := $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
VERSION_H := $(B)/gen/version.h
$(shell mkdir -p $(B)/gen && printf '#define OOMLAB_COMMIT "%s"\n#define OOMLAB_BUILD_KIND "%s"\n' \
  '$(COMMIT)' '$(BUILD_KIND)' > $(VERSION_H).new && \
  { cmp -s $(VERSION_H).new $(VERSION_H) && rm -f $(VERSION_H).new || mv $(VERSION_H).new $(VERSION_H); })
LIB_SRC := $(wildcard src/lib/*.c src/sys/*.c src/render/*.c)
CMD_SRC := src/main.c $(wildcard src/cmd/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o)
CMD_OBJ := $(CMD_SRC:%.c=$(B)/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
FAKE_SRC := $(wildcard tests/fakes/*.c)

.PHONY: all check test unit install clean bench fuzz asan fakes format deb portable portable-build
all: $(B)/oomlab bin/oomlab fakes

bin/oomlab: $(B)/oomlab
	@mkdir -p bin
	cp $< $@

# The portable build (make portable): json-c, libyaml and zlib linked in
# statically; glibc dynamic, every symbol newer than 2.28 redirected to its
# 2.2.5 version by src/compat/glibc228.c (why: docs/install.md).
PORTABLE_WRAP := __libc_start_main stat lstat fstat fstatat pow exp log dlopen dlclose dlerror dlsym pthread_once
ifeq ($(BUILD_KIND),portable)
BIN_LIBS := -Wl,-Bstatic $(shell pkg-config --libs $(PKGS)) -Wl,-Bdynamic -Wl,--no-as-needed \
            -l:libdl.so.2 -l:libpthread.so.0 -lm $(foreach s,$(PORTABLE_WRAP),-Wl,--wrap=$(s))
BIN_OBJ := $(B)/src/compat/glibc228.o
else
BIN_LIBS := $(LIBS)
BIN_OBJ :=
endif

$(B)/oomlab: $(CMD_OBJ) $(BIN_OBJ) $(B)/liboomlab.a
	$(CC) $(ALL_CFLAGS) -o $@ $(CMD_OBJ) $(BIN_OBJ) $(B)/liboomlab.a $(BIN_LIBS) $(LDFLAGS)

$(B)/liboomlab.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(B)/src/main.o: $(VERSION_H)
$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/tests/%: tests/unit/%.c $(B)/liboomlab.a $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(B)/liboomlab.a $(LIBS) -lcmocka $(LDFLAGS) $(TEST_LDFLAGS)

# Unit tests that fail malloc on cue (tests/unit/failmalloc.h): the
# library's calls to malloc reach the test's __wrap_malloc.
FAILMALLOC_TESTS := test_hfconfig
$(FAILMALLOC_TESTS:%=$(B)/tests/%): TEST_LDFLAGS := -Wl,--wrap=malloc
# Unit tests whose write(2) answers as the test says (tests/unit/test_echo.c).
WRAPWRITE_TESTS := test_echo test_fsutil_write
$(WRAPWRITE_TESTS:%=$(B)/tests/%): TEST_LDFLAGS := -Wl,--wrap=write

unit: $(UNIT_BIN)

# Test doubles: a fake libnvidia-ml.so.1 and helper programs (one .c each).
# A file named *_so.c becomes a shared library, anything else a program.
FAKE_SO  := $(patsubst tests/fakes/%_so.c,$(B)/fakes/%.so.1,$(filter %_so.c,$(FAKE_SRC)))
FAKE_BIN := $(patsubst tests/fakes/%.c,$(B)/fakes/%,$(filter-out %_so.c,$(FAKE_SRC)))
fakes: $(FAKE_SO) $(FAKE_BIN)
$(B)/fakes/%.so.1: tests/fakes/%_so.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -shared -o $@ $<
# The v1-only fake includes the main one.
$(B)/fakes/libnvidia-ml-v1.so.1: tests/fakes/libnvidia-ml_so.c
$(B)/fakes/%: tests/fakes/%.c $(B)/liboomlab.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(B)/liboomlab.a $(LIBS) $(LDFLAGS)

-include $(LIB_OBJ:.o=.d) $(CMD_OBJ:.o=.d)

# The whole suite: plain build, sanitizer build, fuzz corpora replay.
check test:
	@tests/run-all

# One pass of the suite against the build in $(B) (used by tests/run-all).
check-one: all unit
	@tests/run-suite $(B)

asan:
	$(MAKE) B=build-asan CC=clang BUILD_KIND=asan \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	  LDFLAGS="-fsanitize=address,undefined" build-asan/oomlab fakes unit

fuzz:
	@tests/fuzz/build

bench: all
	@for b in bench/*; do [ -x "$$b" ] && [ ! -d "$$b" ] && "$$b"; done; true

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(B)/oomlab $(DESTDIR)$(PREFIX)/bin/oomlab
	install -m 0644 docs/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -d $(DESTDIR)$(PREFIX)/share/oomlab/torch
	install -m 0644 share/oomlab/torch/*.py $(DESTDIR)$(PREFIX)/share/oomlab/torch/
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	$(B)/oomlab completion bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/oomlab
	$(B)/oomlab completion fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/oomlab.fish
	install -d $(DESTDIR)$(PREFIX)/share/zsh/site-functions
	$(B)/oomlab completion zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_oomlab

# One tarball for any x86-64 Linux with glibc >= 2.28: bin/, share/, man/.
PORTABLE_TAR := build-portable/oomlab-$(VERSION)-linux-x86_64.tar.gz
portable: portable-build
	@scripts/mktarball build-portable $(VERSION) $(PORTABLE_TAR)
portable-build:
	@$(MAKE) -s B=build-portable BUILD_KIND=portable all unit

# A Debian package of this build (binary, man pages, hook, copyright, changelog).
deb: $(B)/oomlab
	@scripts/mkdeb $(B) $(VERSION) $(B)/deb

format:
	clang-format -i $$(git ls-files 'src/*.[ch]' 'tests/*.[ch]')

clean:
	rm -rf build build-asan build-fuzz build-portable bin
