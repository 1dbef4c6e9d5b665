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
              -lcudart -lnvrtc -lcublas -lcusolver -lcufft -lcusparse -lpthread -lm

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
	for d in lua/gpuarray/*/; do n=$$(basename $$d); install -d $(DESTDIR)$(LUADIR)/gpuarray/$$n; \
	  install -m 644 $$d*.lua $(DESTDIR)$(LUADIR)/gpuarray/$$n/; done

clean:
	rm -rf $(BUILD)

deps-build:
	@sh tools/deps build
deps-test:
	@sh tools/deps test
deps-lint:
	@sh tools/deps lint
