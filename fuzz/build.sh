#!/bin/sh
# Builds the libFuzzer harnesses (clang -fsanitize=fuzzer,address,undefined) into fuzz/out/: the
# codecs and the index compiled once (fuzz/out/obj/, a file a core at once), then each harness
# linked against them. Needs Debian's clang and libclang-rt-dev.
set -eu
cd "$(dirname "$0")/.."
if ! command -v clang >/dev/null || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
	sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq clang libclang-rt-dev >/dev/null
fi
mkdir -p fuzz/out
cflags="-std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Wall -Wextra"
jobs=$(nproc 2>/dev/null || echo 1)
# the codecs and the index; -fsanitize=fuzzer-no-link: instrumented, no main
# shellcheck disable=SC2046
sh scripts/host-objects.sh fuzz/out/obj clang $(echo "$cflags" | sed 's/fuzzer,/fuzzer-no-link,/')
echo mod9 s9 qs wah vbyte gvarint index query wire match | tr ' ' '\n' | xargs -P "$jobs" -I{} \
	clang $cflags -o fuzz/out/fuzz_{} fuzz/fuzz_{}.c fuzz/out/obj/*.o -lz -lm
for f in mod9 s9 qs wah vbyte gvarint index query wire match; do [ -x fuzz/out/fuzz_$f ]; done
echo "built fuzz/out/fuzz_{mod9,s9,qs,wah,vbyte,gvarint,index,query,wire,match}"
