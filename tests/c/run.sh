#!/bin/sh
# The engine's tests in C, without PHP: tests/c/engine_test.c (through include/ alone), then the
# fuzz harnesses' checks (fuzz_query against its reference, fuzz_index) replayed over their
# committed seeds and a fixed sequence of generated inputs; built by gcc with ASan and UBSan
# against the host's objects (codec/, index/, query/), so that no clang or PHP is needed.
set -eu
cd "$(dirname "$0")/../.."
out=tests/c/out
flags="-std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -Wall -Wextra"
# shellcheck disable=SC2086
sh scripts/host-objects.sh $out/obj gcc $flags
gcc $flags -o $out/engine_test tests/c/engine_test.c $out/obj/*.o -lm -lpthread
for f in query index; do
	gcc $flags -o $out/replay_$f tests/c/replay.c fuzz/fuzz_$f.c $out/obj/*.o -lm -lpthread
done
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
"$out/engine_test" | sed 's/^/engine tests: /'
for f in query index; do
	# the replay's own failure (a check, a sanitizer) fails the stage
	result=$("$out/replay_$f" fuzz/seeds/$f "${REPLAY_INPUTS:-20000}") || { echo "engine tests: fuzz_$f replay FAILED"; exit 1; }
	echo "engine tests: fuzz_$f replayed: $result"
done
