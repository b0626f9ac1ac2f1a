#!/bin/sh
# The host C without PHP or OpenCL (codec/, index/, query/ and net/ of the one source list) compiled into DIR,
# a file a core at once, for the harnesses that link it on its own (fuzz/build.sh,
# scripts/pool-stress.sh):  sh scripts/host-objects.sh DIR CC [CFLAGS...]
# Fails unless every source gave its object.
set -eu
cd "$(dirname "$0")/.."
dir=$1 cc=$2
shift 2
rm -rf "$dir"
mkdir -p "$dir"
srcs=$(grep -E '^(codec|index|query|net)/.*\.c$' sources.list)
echo "$srcs" | xargs -P "$(nproc 2>/dev/null || echo 1)" -I{} sh -c \
	"$cc $* -c -o $dir/\$(echo {} | tr / _ | sed 's/\.c\$/.o/') {}"
[ "$(ls "$dir"/*.o | wc -l)" -eq "$(echo "$srcs" | wc -l)" ]
