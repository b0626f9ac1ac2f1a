#!/bin/sh
# Builds the libFuzzer harnesses (clang -fsanitize=fuzzer,address,undefined) into fuzz/out/.
# Needs Debian's clang and libclang-rt-dev.
set -eu
cd "$(dirname "$0")/.."
if ! command -v clang >/dev/null || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
	sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq clang libclang-rt-dev >/dev/null
fi
mkdir -p fuzz/out
codecs=$(grep -E '^(codec|index)/.*\.c$' sources.list)   # the codecs and the index of the one source list
for f in mod9 s9 qs wah vbyte gvarint index; do
	clang -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -Wall -Wextra -o fuzz/out/fuzz_$f fuzz/fuzz_$f.c $codecs -lm
done
echo "built fuzz/out/fuzz_{mod9,s9,qs,wah,vbyte,gvarint,index}"
