dnl gpupost: Yioop and IR posting lists decoded on OpenCL devices.
PHP_ARG_WITH([gpupost],
  [for gpupost support],
  [AS_HELP_STRING([[--with-gpupost[=DIR]]],
    [Include gpupost. DIR: an OpenCL prefix (DIR/include/CL/cl.h, DIR/lib/libOpenCL) to use
     instead of the one pkg-config finds])],
  [yes])

PHP_ARG_ENABLE([gpupost-test-hooks],
  [whether to compile gpupost's test hooks],
  [AS_HELP_STRING([--enable-gpupost-test-hooks],
    [Test builds only: fault injection (GPUPOST_FAULT) and forced staging (GPUPOST_FORCE_STAGING)
     read from the environment; a release build has neither])],
  [no], [no])

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

  dnl zlib: a Yioop bundle's summaries are gzip members (index/gp_yioop_archive.c).
  PKG_CHECK_MODULES([ZLIB], [zlib], [
    PHP_EVAL_INCLINE([$ZLIB_CFLAGS])
    PHP_EVAL_LIBLINE([$ZLIB_LIBS], GPUPOST_SHARED_LIBADD)
  ], [
    AC_MSG_ERROR([zlib not found: apt-get install zlib1g-dev])
  ])

  dnl sources.list is the one list of sources (read when phpize generates configure).
  GPUPOST_SOURCES="m4_normalize(m4_esyscmd([grep -v '^#' sources.list | tr '\n' ' ']))"
  PHP_CHECK_LIBRARY(m, ldexp, [PHP_ADD_LIBRARY(m, 1, GPUPOST_SHARED_LIBADD)])
  GPUPOST_CFLAGS="-std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter -I@ext_builddir@/opencl"
  if test "$PHP_GPUPOST_TEST_HOOKS" = "yes"; then
    GPUPOST_CFLAGS="$GPUPOST_CFLAGS -DGP_TEST_HOOKS"
  fi
  PHP_NEW_EXTENSION(gpupost, $GPUPOST_SOURCES, $ext_shared, , [$GPUPOST_CFLAGS])
  PHP_ADD_BUILD_DIR([$ext_builddir/engine $ext_builddir/query $ext_builddir/codec $ext_builddir/index $ext_builddir/net $ext_builddir/opencl])
  PHP_ADD_MAKEFILE_FRAGMENT
  PHP_SUBST(GPUPOST_SHARED_LIBADD)
fi
