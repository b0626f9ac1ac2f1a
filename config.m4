dnl gpupost: Yioop and IR posting lists decoded on OpenCL devices.
PHP_ARG_WITH([gpupost],
  [for gpupost support],
  [AS_HELP_STRING([[--with-gpupost[=DIR]]],
    [Include gpupost. DIR: an OpenCL prefix (DIR/include/CL/cl.h, DIR/lib/libOpenCL) to use
     instead of the one pkg-config finds])],
  [yes])

if test "$PHP_GPUPOST" != "no"; then
  if test "$PHP_GPUPOST" != "yes"; then
    dnl A custom OpenCL: headers and the ICD loader under DIR.
    if test ! -f "$PHP_GPUPOST/include/CL/cl.h"; then
      AC_MSG_ERROR([$PHP_GPUPOST/include/CL/cl.h not found])
    fi
    PHP_ADD_INCLUDE([$PHP_GPUPOST/include])
    PHP_CHECK_LIBRARY(OpenCL, clGetPlatformIDs,
      [PHP_ADD_LIBRARY_WITH_PATH(OpenCL, [$PHP_GPUPOST/lib], GPUPOST_SHARED_LIBADD)],
      [AC_MSG_ERROR([libOpenCL not found in $PHP_GPUPOST/lib])],
      [-L$PHP_GPUPOST/lib])
  else
    dnl pkg-config's OpenCL first (ocl-icd-opencl-dev), a plain library check as the fallback.
    PKG_CHECK_MODULES([OPENCL], [OpenCL], [
      PHP_EVAL_INCLINE([$OPENCL_CFLAGS])
      PHP_EVAL_LIBLINE([$OPENCL_LIBS], GPUPOST_SHARED_LIBADD)
    ], [
      PHP_CHECK_LIBRARY(OpenCL, clGetPlatformIDs,
        [PHP_ADD_LIBRARY(OpenCL, 1, GPUPOST_SHARED_LIBADD)],
        [AC_MSG_ERROR([OpenCL not found: apt-get install ocl-icd-opencl-dev opencl-headers, or --with-gpupost=DIR])])
    ])
  fi
  AC_CHECK_HEADER([CL/cl.h], [], [AC_MSG_ERROR([CL/cl.h not found: apt-get install opencl-headers])])

  GPUPOST_SOURCES="php_gpupost.c src/gp_dispatch.c codec/gp_common.c codec/gp_budget.c codec/gp_mod9.c \
    codec/gp_s9.c codec/gp_qs.c codec/gp_wah.c opencl/gp_cl.c opencl/gp_pool.c opencl/gp_cl_scan.c \
    opencl/gp_cl_mod9.c \
    opencl/gp_cl_batch.c opencl/gp_cl_s9.c opencl/gp_cl_qs.c opencl/gp_cl_wah.c"
  PHP_CHECK_LIBRARY(m, ldexp, [PHP_ADD_LIBRARY(m, 1, GPUPOST_SHARED_LIBADD)])
  PHP_NEW_EXTENSION(gpupost, $GPUPOST_SOURCES, $ext_shared, ,
    [-std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter -I@ext_builddir@/opencl])
  PHP_ADD_BUILD_DIR([$ext_builddir/src $ext_builddir/codec $ext_builddir/opencl])
  PHP_ADD_MAKEFILE_FRAGMENT
  PHP_SUBST(GPUPOST_SHARED_LIBADD)
fi
