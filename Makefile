# gpuarray: CuPy for Lua. `make demo` and `make test` set everything up on a
# fresh Debian/Ubuntu machine with a CUDA toolkit (tools/deps installs what is
# missing), build the module and run. `make` (all) and `make install` only
# build and copy: they name what is missing and never install packages.

LUA        ?= lua5.4
CUDA_HOME  ?= /usr/local/cuda
# LuaRocks passes these from its CUDA external dependency (CUDA_DIR,
# CUDA_INCDIR, CUDA_LIBDIR); by hand, CUDA_HOME is enough
CUDA_INCDIR ?= $(CUDA_HOME)/include
CUDA_LIBDIR ?= $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/lib))
LUA_INCDIR ?= $(firstword $(wildcard /usr/include/lua5.4 /usr/local/include/lua5.4 /usr/local/include))
PREFIX     ?= /usr/local
LIBDIR     ?= $(PREFIX)/lib/lua/5.4
LUADIR     ?= $(PREFIX)/share/lua/5.4

CC      ?= gcc
CFLAGS  ?= -O2 -g
# warnings are errors for development, lint and CI; the rockspec sets WERROR
# empty so that a user's newer compiler never breaks an install
WERROR  ?= -Werror
WARN     = -Wall -Wextra $(WERROR) -Wno-unused-parameter
ALL_CFLAGS = -std=gnu11 -fPIC -fvisibility=hidden $(WARN) $(CFLAGS) \
             -I$(LUA_INCDIR) -isystem $(CUDA_INCDIR) -Isrc -I$(BUILD) -Iinclude \
             -DGA_CUDA_INCDIR='"$(CUDA_INCDIR)"'
# the toolkit libraries the module links (never libcuda: it loads without a
# driver; never libnccl: src/nccl/nccl_load.c opens it when first used)
CUDA_LIBS  = -lcudart -lnvrtc -lcublas -lcusolver -lcufft -lcusparse
ALL_LDFLAGS = -shared $(LDFLAGS) -L$(CUDA_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) \
              $(CUDA_LIBS) -ldl -lpthread -lm

# the module's version: include/gpuarray.h defines it, once (GPUARRAY_VERSION)
VERSION := $(shell sed -n 's/^\#define GPUARRAY_VERSION "\(.*\)"/\1/p' include/gpuarray.h)

BUILD   = build
SO      = $(BUILD)/gpuarray/core.so
SRCS    = $(sort $(wildcard src/*/*.c))
OBJS    = $(SRCS:src/%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/kernels_embed.o $(BUILD)/obj/lua_embed.o
HDRS    = $(wildcard src/*/*.h) include/gpuarray.h
KERNELS = $(sort $(wildcard kernels/*/*.cuh))
# every Lua file under lua/gpuarray/ (submodules in folders included)
LUA_FILES = $(patsubst lua/%,%,$(shell find lua/gpuarray -name '*.lua' | sort))

.PHONY: all test check check-version reference reference-check demo bench bench-lazy bench-multi lint install clean check-layers deps-build deps-test deps-lint prereqs difftest

all: prereqs $(SO)

$(SO): $(OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $(OBJS) $(ALL_LDFLAGS)

# the layering is checked before anything compiles (tools/check-layers.lua):
# an include that breaks it fails the build, not only `make check-layers`
$(BUILD)/layers.ok: $(SRCS) $(HDRS) tools/check-layers.lua
	@mkdir -p $(dir $@)
	@$(LUA) tools/check-layers.lua > $@.log || { cat $@.log; rm -f $@.log; exit 1; }
	@mv $@.log $@

$(BUILD)/obj/%.o: src/%.c $(HDRS) | $(BUILD)/layers.ok
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# kernels/<room>/*.cuh become C strings inside the module (no files to install)
$(BUILD)/kernels_embed.c: $(KERNELS) tools/embed.lua
	@mkdir -p $(dir $@)
	$(LUA) tools/embed.lua $@ $(KERNELS)

$(BUILD)/obj/kernels_embed.o: $(BUILD)/kernels_embed.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# lua/gpuarray/**.lua become C strings too: luaopen_gpuarray (include/gpuarray.h)
# preloads them, so a host program needs no Lua files on disk
LUA_SRCS = $(sort $(shell find lua -name '*.lua'))
$(BUILD)/lua_embed.c: $(LUA_SRCS) tools/embed-lua.lua
	@mkdir -p $(dir $@)
	$(LUA) tools/embed-lua.lua $@ $(LUA_SRCS)

$(BUILD)/obj/lua_embed.o: $(BUILD)/lua_embed.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

test: deps-test check-layers $(SO)
	@sh tools/run-specs

# the quick subset: the CPU specs that compile no kernel (spec/check.list
# says which, and why they run with no GPU and with compiles refused)
check: deps-test $(SO)
	@CUDA_VISIBLE_DEVICES= GPUARRAY_FAIL=compile:1 SPEC_FILES="$$(grep -v '^#' spec/check.list)" sh tools/run-specs

# the version is one number in the header, ga.version, the release
# rockspec and CHANGELOG.md (tools/check-version.lua says where they differ)
check-version: deps-build $(SO)
	@LUA_CPATH="$(BUILD)/?.so" $(LUA) tools/check-version.lua

# docs/reference.md, generated from the declarations (API.md §0);
# reference-check fails when the page is stale or a public name has none
LUA_ENV = LUA_PATH="lua/?.lua;lua/?/init.lua" LUA_CPATH="$(BUILD)/?.so"
reference: deps-build $(SO)
	@$(LUA_ENV) $(LUA) tools/gen-reference.lua docs/reference.md
reference-check: deps-build $(SO)
	@$(LUA_ENV) $(LUA) tools/gen-reference.lua --check docs/reference.md

# src/<layer>/ includes only its own and lower layers, a feature room only
# the rooms its header declares, without cycles (also run before every build)
check-layers: deps-build
	@$(LUA) tools/check-layers.lua

# random small programs run by gpuarray and by NumPy, results compared
# (needs a GPU, and python3 with numpy): make difftest N=300 [SEED=s] [PYTHON=...]
N ?= 200
PYTHON ?= python3
difftest: deps-build $(SO)
	@LUA_PATH="lua/?.lua;lua/?/init.lua;tools/?.lua;;" LUA_CPATH="$(BUILD)/?.so;;" \
	  $(LUA) tools/difftest/run.lua --n $(N) --python $(PYTHON) --out $(BUILD)/difftest $(if $(SEED),--seed $(SEED))

demo: deps-build $(SO)
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="$(BUILD)/?.so;;" $(LUA) examples/quickstart.lua

bench: deps-build $(SO)
	@LUA_PATH="lua/?.lua;lua/?/init.lua;./?.lua;;" LUA_CPATH="$(BUILD)/?.so;;" $(LUA) bench/run.lua

# lazy evaluation on, then off (issue 29): two JSON objects, each after a
# "== lazy on" / "== lazy off" line
bench-lazy: deps-build $(SO)
	@echo "== lazy on"; GPUARRAY_LAZY=1 LUA_PATH="lua/?.lua;lua/?/init.lua;./?.lua;;" LUA_CPATH="$(BUILD)/?.so;;" $(LUA) bench/run.lua
	@echo "== lazy off"; GPUARRAY_LAZY=0 LUA_PATH="lua/?.lua;lua/?/init.lua;./?.lua;;" LUA_CPATH="$(BUILD)/?.so;;" $(LUA) bench/run.lua

# two GPUs or more: ga.nccl's all-reduce bus bandwidth beside PyTorch's
bench-multi: deps-build $(SO)
	@LUA=$(LUA) sh bench/multi_gpu/run.sh

# the -Wshadow build goes to its own folder: build/ is left as it was
LINT_BUILD = build-lint
lint: deps-lint
	luacheck lua spec examples bench tools fuzz
	$(MAKE) --no-print-directory BUILD=$(LINT_BUILD) $(LINT_BUILD)/gpuarray/core.so \
	  CFLAGS="-O2 -Wshadow -Wstrict-prototypes" WERROR=-Werror

# installs build without -Werror (a user's newer compiler must not break
# them); development, CI and lint keep it
install: WERROR =

install: prereqs $(SO)
	install -d $(DESTDIR)$(LIBDIR)/gpuarray $(DESTDIR)$(LUADIR)/gpuarray
	install -m 755 $(SO) $(DESTDIR)$(LIBDIR)/gpuarray/core.so
	@for f in $(LUA_FILES); do echo "install -D -m 644 lua/$$f $(DESTDIR)$(LUADIR)/$$f"; \
	  install -D -m 644 lua/$$f $(DESTDIR)$(LUADIR)/$$f || exit 1; done

clean:
	rm -rf $(BUILD) $(LINT_BUILD)

# what building needs, named when missing (never installed: make, make
# install and luarocks stay out of the package manager)
prereqs:
	@CUDA_INCDIR="$(CUDA_INCDIR)" LUA_INCDIR="$(LUA_INCDIR)" sh tools/deps build check

deps-build:
	@sh tools/deps build
deps-test:
	@sh tools/deps test
deps-lint:
	@sh tools/deps lint

# ---------------------------------------------------------------------------
# Embedding (issue 14): the C API header and a pkg-config file go with
# `make install`; `make host-examples` installs into build/stage and builds
# examples/host against that installed tree alone (as a host would).
# Hosts link the module itself (one copy per process: a Lua script's
# require "gpuarray" in the same process finds the same pools and caches).
INCDIR    ?= $(PREFIX)/include
PCDIR     ?= $(PREFIX)/lib/pkgconfig
STAGE      = $(abspath $(BUILD))/stage

.PHONY: install-embed host-examples examples

install: install-embed

# gpuarray.pc names the header's folder and the module by absolute paths;
# with PC_RELATIVE=1 (the rockspecs) by paths relative to the .pc's own
# folder (pkg-config's ${pcfiledir}): LuaRocks moves what `make install`
# put under its rock's lib/ into the tree's lib/lua/5.4/ afterwards, which
# keeps the files' places relative to each other, not their absolute paths
PC_RELATIVE ?=
pc_path = $(if $(PC_RELATIVE),$${pcfiledir}/$(shell realpath -m --relative-to=$(PCDIR) $(1)),$(1))

install-embed: $(SO)
	install -d $(DESTDIR)$(INCDIR) $(DESTDIR)$(PCDIR)
	install -m 644 include/gpuarray.h $(DESTDIR)$(INCDIR)/gpuarray.h
	sed -e 's|@INCDIR@|$(call pc_path,$(INCDIR))|g' -e 's|@MODULE@|$(call pc_path,$(LIBDIR)/gpuarray/core.so)|g' \
	    -e 's|@LUA_INCDIR@|$(LUA_INCDIR)|g' -e 's|@CUDA_INCDIR@|$(CUDA_INCDIR)|g' \
	    -e 's|@CUDA_LIBDIR@|$(CUDA_LIBDIR)|g' -e 's|@VERSION@|$(VERSION)|' \
	    tools/gpuarray.pc.in > $(DESTDIR)$(PCDIR)/gpuarray.pc
	chmod 644 $(DESTDIR)$(PCDIR)/gpuarray.pc

host-examples: deps-build $(SO)
	@$(MAKE) --no-print-directory install PREFIX=$(STAGE) DESTDIR= >/dev/null
	@$(MAKE) --no-print-directory -C examples/host OUT=$(abspath $(BUILD))/examples \
	  PKG_CONFIG_PATH=$(STAGE)/lib/pkgconfig$${PKG_CONFIG_PATH:+:$$PKG_CONFIG_PATH}

# every example (examples/**/*.lua and the C hosts), each checking its own
# result on a GPU and printing "skipped: no CUDA device" without one
# (examples/README.md); fails if one fails
examples: host-examples
	@LUA=$(LUA) sh tools/run-examples $(BUILD)/examples

# Reliability (issue 16): sanitizers, fuzzing, fault injection, GC stress.
#   make asan       the CPU specs against the module built with ASan + UBSan
#                   (float-cast-overflow too), leaks checked (tools/san/)
#   make fuzz       every fuzz driver (fuzz/*.lua) for FUZZ_SECONDS each,
#                   under the same sanitizers; findings land in fuzz/findings/
#   make sanitize   (GPU) the spec suite under compute-sanitizer memcheck, and
#                   racecheck on the reduction, scan and sort specs; fails on
#                   any hazard and on CUDA API errors not listed in
#                   tools/san/expected-api-errors (tools/san/classify.awk)
#   make gcstress   the suite with a full collection at every device
#                   allocation, then with the generational collector
# ---------------------------------------------------------------------------
ASAN_BUILD   = build-asan
ASAN_SO      = $(ASAN_BUILD)/gpuarray/core.so
SAN_FLAGS    = -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
FUZZ_SECONDS ?= 15
SAN_LUA      = $(CURDIR)/tools/san/lua
SAN_ENV      = GA_SAN_SO=$(CURDIR)/$(ASAN_SO)
COMPUTE_SANITIZER ?= $(firstword $(wildcard $(CUDA_HOME)/bin/compute-sanitizer \
                     $(CUDA_HOME)/compute-sanitizer/compute-sanitizer) compute-sanitizer)

.PHONY: asan asan-build fuzz sanitize gcstress clean-san

asan-build: deps-build
	@$(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) LDFLAGS="$(SAN_FLAGS)" \
	  CFLAGS="-O1 -g -fno-omit-frame-pointer $(SAN_FLAGS)" $(ASAN_SO) >/dev/null

asan: deps-test asan-build
	@$(SAN_ENV) SPEC_OUTPUT=full BUSTED_FLAGS="--lua=$(SAN_LUA) --cpath=$(ASAN_BUILD)/?.so" sh tools/run-specs \
	  >$(ASAN_BUILD)/asan.log 2>&1; s=$$?; \
	  grep -E 'ERROR: (Address|Leak)Sanitizer|runtime error|busted did not finish|^(Failure|Error) ' $(ASAN_BUILD)/asan.log; \
	  echo "asan: $$(tail -n 1 $(ASAN_BUILD)/asan.log)"; exit $$s

fuzz: deps-build asan-build
	@$(SAN_ENV) LUA_PATH="lua/?.lua;lua/?/init.lua;fuzz/?.lua;;" LUA_CPATH="$(ASAN_BUILD)/?.so;;" \
	  sh fuzz/run $(FUZZ_SECONDS) $(SAN_LUA)

sanitize: deps-test $(SO)
	@COMPUTE_SANITIZER="$(COMPUTE_SANITIZER)" sh tools/san/gpu-sanitize

gcstress: deps-test $(SO)
	@echo "gcstress: a full collection at every device allocation and launch"; \
	  GPUARRAY_GC_STRESS=1 sh tools/run-specs >$(BUILD)/gcstress.log 2>&1; a=$$?; tail -n 1 $(BUILD)/gcstress.log; \
	  echo "gcstress: the generational collector"; \
	  GPUARRAY_GC=generational BUSTED_FLAGS="--helper=spec/gcmode.lua" sh tools/run-specs >$(BUILD)/gcgen.log 2>&1; b=$$?; tail -n 1 $(BUILD)/gcgen.log; \
	  [ $$a -eq 0 ] && [ $$b -eq 0 ]

clean: clean-san
clean-san:
	rm -rf $(ASAN_BUILD) $(TSAN_BUILD)

# ---------------------------------------------------------------------------
# Soaks (issue 24).
#   make host-soak        examples/host/soak.c: 8 threads opening and closing
#   make host-soak-asan   lua_States that compile (NVRTC, in forked children
#   make host-soak-tsan   too: in the plain build), fuse, jit, save/load .npy
#                         and collect, for HOST_SOAK_SECONDS, against the
#                         module as built / built with ASan + UBSan (leaks
#                         checked) / with TSan (tools/san/tsan.supp says what
#                         is suppressed and why); CPU paths only: CI runs all
#                         three
#   make soak             (GPU) SOAK_SECONDS of random programs from the
#                         differential generator on 8 threads x states, with
#                         a pool limit and injected faults, every result
#                         checked against the CPU reference, the pool's used
#                         bytes back to their start (tools/soak/); without a
#                         device it says so and runs the CPU paths briefly
# ---------------------------------------------------------------------------
HOST_SOAK_SECONDS ?= 20
SOAK_SECONDS      ?= 300
SOAK_THREADS      ?= 8
TSAN_BUILD   = build-tsan
TSAN_SO      = $(TSAN_BUILD)/gpuarray/core.so
TSAN_FLAGS   = -fsanitize=thread
LUA_LIBS    ?= $(shell pkg-config --libs lua5.4 2>/dev/null || echo -llua5.4)
# the soak links the sanitized module by its absolute path (it has no soname)
HOST_SOAK_BUILD = $(CC) -std=gnu11 -O1 -g -fno-omit-frame-pointer -Wall -Wextra -Werror \
  -Iinclude -I$(LUA_INCDIR) -isystem $(CUDA_INCDIR) examples/host/soak.c -o $@ \
  -L$(CUDA_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) $(LUA_LIBS) -lcudart -lpthread -lm

.PHONY: tsan-build host-soak host-soak-asan host-soak-tsan soak

tsan-build: deps-build
	@$(MAKE) --no-print-directory BUILD=$(TSAN_BUILD) LDFLAGS="$(TSAN_FLAGS)" \
	  CFLAGS="-O1 -g -fno-omit-frame-pointer $(TSAN_FLAGS)" $(TSAN_SO) >/dev/null

$(ASAN_BUILD)/host_soak: examples/host/soak.c examples/host/host_util.h include/gpuarray.h $(ASAN_SO)
	@$(HOST_SOAK_BUILD) $(SAN_FLAGS) $(CURDIR)/$(ASAN_SO)

$(TSAN_BUILD)/host_soak: examples/host/soak.c examples/host/host_util.h include/gpuarray.h $(TSAN_SO)
	@$(HOST_SOAK_BUILD) $(TSAN_FLAGS) $(CURDIR)/$(TSAN_SO)

# NVRTC in process under the sanitizers: their allocators are not fork-safe
# in a threaded process, and a compile forked from the soak could hang in
# the child's malloc (src/compile/isolate.c); make host-soak runs the
# forked compiles on threads against the plain module (glibc's malloc is)
host-soak: deps-build $(BUILD)/soak/host_soak
	@$(BUILD)/soak/host_soak $(HOST_SOAK_SECONDS) 8 >$(BUILD)/soak/host_soak.log 2>&1; s=$$?; \
	  grep -E '^FAILED' $(BUILD)/soak/host_soak.log | head -n 20; \
	  echo "host-soak: $$(tail -n 2 $(BUILD)/soak/host_soak.log | tr '\n' ' ')(status $$s)"; exit $$s

host-soak-asan: asan-build
	@$(MAKE) --no-print-directory $(ASAN_BUILD)/host_soak
	@GPUARRAY_NVRTC_ISOLATE=never ASAN_OPTIONS="detect_leaks=1:exitcode=86:detect_stack_use_after_return=0" \
	  LSAN_OPTIONS="suppressions=$(CURDIR)/tools/san/lsan.supp:print_suppressions=0:exitcode=86" \
	  UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=86" \
	  $(ASAN_BUILD)/host_soak $(HOST_SOAK_SECONDS) 8 >$(ASAN_BUILD)/host_soak.log 2>&1; s=$$?; \
	  grep -E 'ERROR: |runtime error|^FAILED|SUMMARY' $(ASAN_BUILD)/host_soak.log | head -n 20; \
	  echo "host-soak-asan: $$(tail -n 2 $(ASAN_BUILD)/host_soak.log | tr '\n' ' ')(status $$s)"; exit $$s

host-soak-tsan: tsan-build
	@$(MAKE) --no-print-directory $(TSAN_BUILD)/host_soak
	@GPUARRAY_NVRTC_ISOLATE=never \
	  TSAN_OPTIONS="suppressions=$(CURDIR)/tools/san/tsan.supp:halt_on_error=0:exitcode=66:second_deadlock_stack=1" \
	  $(TSAN_BUILD)/host_soak $(HOST_SOAK_SECONDS) 8 >$(TSAN_BUILD)/host_soak.log 2>&1; s=$$?; \
	  grep -E 'WARNING: ThreadSanitizer|^FAILED|SUMMARY' $(TSAN_BUILD)/host_soak.log | head -n 20; \
	  echo "host-soak-tsan: $$(tail -n 2 $(TSAN_BUILD)/host_soak.log | tr '\n' ' ')(status $$s)"; exit $$s

$(BUILD)/soak/host_soak: examples/host/soak.c examples/host/host_util.h include/gpuarray.h $(SO)
	@mkdir -p $(dir $@)
	@$(HOST_SOAK_BUILD) $(CURDIR)/$(SO)

# SOAK_LIMIT: the pool's limit in bytes (default 256 MiB); SEED replays the programs
soak: deps-build $(SO) $(BUILD)/soak/host_soak
	@LUA_PATH="lua/?.lua;lua/?/init.lua;tools/?.lua;;" LUA_CPATH="$(BUILD)/?.so;;" \
	  $(LUA) tools/soak/run.lua --host $(BUILD)/soak/host_soak --out $(BUILD)/soak --seconds $(SOAK_SECONDS) \
	  --threads $(SOAK_THREADS) --python $(PYTHON) $(if $(SEED),--seed $(SEED)) $(if $(SOAK_LIMIT),--limit $(SOAK_LIMIT))
