#!/bin/sh
# Compiles the device sources exactly as the .so embeds them with clang's OpenCL C 1.2 front end
# (a SPIR target), to see every warning and error with line numbers, and checks that
# opencl/gp_cl_args.h (the kernels' typed setters) is what the kernels declare. CI runs it.
set -eu
cd "$(dirname "$0")/.."
srcs=$(awk '/^GPUPOST_KERNEL_SOURCES =/ {on = 1} on {print} on && !/\\$/ {exit}' Makefile.frag |
	sed -e 's/^GPUPOST_KERNEL_SOURCES =//' -e 's/\\$//' -e 's/\$(srcdir)\///g' | tr -s ' \t\n' ' ')
tmp=$(mktemp --suffix=.cl)
trap 'rm -f "$tmp"' EXIT
cat $srcs > "$tmp"
clang -x cl -cl-std=CL1.2 -target spir -fsyntax-only -Wall -Xclang -finclude-default-header "$tmp"
echo "kernels: OK ($srcs)"
php scripts/gen-kernel-args.php --check
