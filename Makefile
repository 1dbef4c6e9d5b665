# gpuarray: CuPy for Lua. `make demo` and `make test` set everything up on a
# fresh Debian/Ubuntu machine with a CUDA toolkit (tools/deps installs what is
# missing), build the module and run.

LUA        ?= lua5.4
CUDA_HOME  ?= /usr/local/cuda
LUA_INCDIR ?= $(firstword $(wildcard /usr/include/lua5.4 /usr/local/include/lua5.4 /usr/local/include))
PREFIX     ?= /usr/local
LIBDIR     ?= $(PREFIX)/lib/lua/5.4
LUADIR     ?= $(PREFIX)/share/lua/5.4

CC      ?= gcc
CFLAGS  ?= -O2 -g
WARN     = -Wall -Wextra -Werror -Wno-unused-parameter
ALL_CFLAGS = -std=gnu11 -fPIC -fvisibility=hidden $(WARN) $(CFLAGS) \
             -I$(LUA_INCDIR) -I$(CUDA_HOME)/include -Isrc -Ibuild
CUDA_LIBDIR = $(firstword $(wildcard $(CUDA_HOME)/lib64 $(CUDA_HOME)/lib))
ALL_LDFLAGS = -shared $(LDFLAGS) -L$(CUDA_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) \
              -lcudart -lnvrtc -lcublas -lpthread -lm

BUILD   = build
SO      = $(BUILD)/gpuarray/core.so
SRCS    = $(sort $(wildcard src/*/*.c))
OBJS    = $(SRCS:src/%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/kernels_embed.o
HDRS    = $(wildcard src/*/*.h)
KERNELS = $(sort $(wildcard kernels/*/*.cuh))

.PHONY: all test demo bench lint install clean check-layers deps-build deps-test deps-lint

all: deps-build $(SO)

$(SO): $(OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $(OBJS) $(ALL_LDFLAGS)

$(BUILD)/obj/%.o: src/%.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# kernels/<engine>/*.cuh become C strings inside the module (no files to install)
$(BUILD)/kernels_embed.c: $(KERNELS) tools/embed.lua
	@mkdir -p $(dir $@)
	$(LUA) tools/embed.lua $@ $(KERNELS)

$(BUILD)/obj/kernels_embed.o: $(BUILD)/kernels_embed.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

test: deps-test check-layers $(SO)
	@sh tools/run-specs

# src/<layer>/ includes only its own and lower layers, without cycles
check-layers: deps-build
	@$(LUA) tools/check-layers.lua

demo: deps-build $(SO)
	LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="$(BUILD)/?.so;;" $(LUA) examples/quickstart.lua

bench: deps-build $(SO)
	@LUA_PATH="lua/?.lua;lua/?/init.lua;./?.lua;;" LUA_CPATH="$(BUILD)/?.so;;" $(LUA) bench/run.lua

lint: deps-lint
	luacheck lua spec examples bench tools
	$(MAKE) --no-print-directory clean
	$(MAKE) --no-print-directory $(SO) CFLAGS="-O2 -Wshadow -Wstrict-prototypes"

install: $(SO)
	install -d $(DESTDIR)$(LIBDIR)/gpuarray $(DESTDIR)$(LUADIR)/gpuarray
	install -m 755 $(SO) $(DESTDIR)$(LIBDIR)/gpuarray/core.so
	install -m 644 lua/gpuarray/*.lua $(DESTDIR)$(LUADIR)/gpuarray/

clean:
	rm -rf $(BUILD)

deps-build:
	@sh tools/deps build
deps-test:
	@sh tools/deps test
deps-lint:
	@sh tools/deps lint

# ---------------------------------------------------------------------------
# Reliability (issue 16): sanitizers, fuzzing, fault injection, GC stress.
#   make asan       the CPU specs against the module built with ASan + UBSan
#                   (float-cast-overflow too), leaks checked (tools/san/)
#   make fuzz       every fuzz driver (fuzz/*.lua) for FUZZ_SECONDS each,
#                   under the same sanitizers; findings land in fuzz/findings/
#   make sanitize   (GPU) the spec suite under compute-sanitizer memcheck, and
#                   racecheck on the reduction, scan and sort specs
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
	@$(SAN_ENV) BUSTED_FLAGS="--lua=$(SAN_LUA) --cpath=$(ASAN_BUILD)/?.so" sh tools/run-specs \
	  >$(ASAN_BUILD)/asan.log 2>&1; s=$$?; \
	  grep -E 'ERROR: (Address|Leak)Sanitizer|runtime error|busted did not finish|^(Failure|Error) ' $(ASAN_BUILD)/asan.log; \
	  echo "asan: $$(tail -n 1 $(ASAN_BUILD)/asan.log)"; exit $$s

fuzz: deps-build asan-build
	@$(SAN_ENV) LUA_PATH="lua/?.lua;lua/?/init.lua;fuzz/?.lua;;" LUA_CPATH="$(ASAN_BUILD)/?.so;;" \
	  sh fuzz/run $(FUZZ_SECONDS) $(SAN_LUA)

sanitize: deps-test $(SO)
	@COMPUTE_SANITIZER="$(COMPUTE_SANITIZER)" sh tools/san/gpu-sanitize

gcstress: deps-test $(SO)
	@echo "gcstress: a full collection at every device allocation"; \
	  GPUARRAY_GC_STRESS=1 sh tools/run-specs >$(BUILD)/gcstress.log 2>&1; a=$$?; tail -n 1 $(BUILD)/gcstress.log; \
	  echo "gcstress: the generational collector"; \
	  GPUARRAY_GC=generational BUSTED_FLAGS="--helper=spec/gcmode.lua" sh tools/run-specs >$(BUILD)/gcgen.log 2>&1; b=$$?; tail -n 1 $(BUILD)/gcgen.log; \
	  [ $$a -eq 0 ] && [ $$b -eq 0 ]

clean: clean-san
clean-san:
	rm -rf $(ASAN_BUILD)
