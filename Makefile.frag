# The device kernels are compiled into the .so: kernels/embed.sh turns the .cl sources (and the
# word reader they share with the host codec) into a C string, rebuilt when any of them changes.
GPUPOST_KERNEL_SOURCES = $(srcdir)/kernels/gp_shared.h $(srcdir)/codec/gp_mod9_word.h $(srcdir)/codec/gp_s9_word.h \
	$(srcdir)/kernels/scan.cl $(srcdir)/kernels/mod9.cl $(srcdir)/kernels/s9.cl $(srcdir)/kernels/qs.cl $(srcdir)/kernels/vbyte.cl $(srcdir)/kernels/gvarint.cl \
	$(srcdir)/kernels/wah.cl $(srcdir)/kernels/index.cl $(srcdir)/kernels/tree.cl

$(builddir)/opencl/gp_kernels_src.h: $(GPUPOST_KERNEL_SOURCES) $(srcdir)/kernels/embed.sh $(srcdir)/Makefile.frag
	@mkdir -p $(builddir)/opencl
	$(SHELL) $(srcdir)/kernels/embed.sh $@ $(GPUPOST_KERNEL_SOURCES)

opencl/gp_cl_program.lo: $(builddir)/opencl/gp_kernels_src.h

# Benchmarks (never tests): `make bench` runs the PHP-level and C-level benchmarks.
GPUPOST_C_SOURCES = $(addprefix $(srcdir)/,$(filter codec/% index/% query/% opencl/%,$(shell grep -v '^\#' $(srcdir)/sources.list)))

$(builddir)/bench/device_bench: $(srcdir)/bench/device_bench.c $(GPUPOST_C_SOURCES) $(builddir)/opencl/gp_kernels_src.h
	@mkdir -p $(builddir)/bench
	$(CC) -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -I$(builddir)/opencl $(INCLUDES) -o $@ $(srcdir)/bench/device_bench.c $(GPUPOST_C_SOURCES) $(GPUPOST_SHARED_LIBADD) -lm -lpthread

bench-c: $(builddir)/bench/device_bench

# gpupostd, the device server (docs/SERVER.md): the engine's sources and the server's, no PHP.
GPUPOST_ENGINE_SOURCES = $(addprefix $(srcdir)/,$(filter codec/% index/% query/% opencl/% engine/% net/%,$(shell grep -v '^\#' $(srcdir)/sources.list)))
GPUPOST_SERVER_SOURCES = $(addprefix $(srcdir)/server/,gpupostd.c gpd_config.c gpd_catalog.c gpd_work.c gpd_stats.c gpd_loop.c)

GPUPOSTD_OUT ?= $(builddir)/server/gpupostd
GPUPOSTD_CFLAGS ?= -O2 -g

$(GPUPOSTD_OUT): $(GPUPOST_SERVER_SOURCES) $(srcdir)/server/gpd_server.h $(srcdir)/server/gpd_config.h $(GPUPOST_ENGINE_SOURCES) $(builddir)/opencl/gp_kernels_src.h
	@mkdir -p $(dir $(GPUPOSTD_OUT))
	$(CC) $(GPUPOSTD_CFLAGS) -std=c11 -D_GNU_SOURCE -Wall -Wextra -pthread -I$(builddir)/opencl $(INCLUDES) -o $@ $(GPUPOST_SERVER_SOURCES) $(GPUPOST_ENGINE_SOURCES) $(GPUPOST_SHARED_LIBADD) -lm -lpthread

gpupostd: $(GPUPOSTD_OUT)

bench: all bench-c
	bash $(srcdir)/bench/run.sh $${BENCH_OUT:-bench-out}

.PHONY: bench bench-c gpupostd
