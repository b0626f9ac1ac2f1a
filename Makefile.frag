# The device kernels are compiled into the .so: kernels/embed.sh turns the .cl sources (and the
# word reader they share with the host codec) into a C string, rebuilt when any of them changes.
GPUPOST_KERNEL_SOURCES = $(srcdir)/codec/gp_mod9_word.h $(srcdir)/codec/gp_s9_word.h \
	$(srcdir)/kernels/scan.cl $(srcdir)/kernels/mod9.cl $(srcdir)/kernels/s9.cl $(srcdir)/kernels/qs.cl \
	$(srcdir)/kernels/wah.cl

$(builddir)/opencl/gp_kernels_src.h: $(GPUPOST_KERNEL_SOURCES) $(srcdir)/kernels/embed.sh
	@mkdir -p $(builddir)/opencl
	$(SHELL) $(srcdir)/kernels/embed.sh $@ $(GPUPOST_KERNEL_SOURCES)

opencl/gp_cl.lo: $(builddir)/opencl/gp_kernels_src.h
