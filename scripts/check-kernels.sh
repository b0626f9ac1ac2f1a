#!/bin/sh
# Compiles the device sources exactly as the .so embeds them with clang's OpenCL C 1.2 front end
# (a SPIR target), to see every warning and error with line numbers. Development aid, not a test.
set -eu
cd "$(dirname "$0")/.."
srcs=$(sed -n 's/^GPUPOST_KERNEL_SOURCES = //p; s/^\t\(\$(srcdir).*\)/\1/p' Makefile.frag | tr -d '\\' | sed 's/\$(srcdir)\///g')
tmp=$(mktemp --suffix=.cl)
trap 'rm -f "$tmp"' EXIT
cat $srcs > "$tmp"
clang -x cl -cl-std=CL1.2 -target spir -fsyntax-only -Wall -Xclang -finclude-default-header "$tmp"
echo "kernels: OK ($srcs)"
