#!/bin/sh
# The engine's tests in C, without PHP: tests/c/engine_test.c (through include/ alone),
# tests/c/block_test.c (a version 2 block's readers against plain references), tests/c/wire_test.c
# (the server's frames, net/), tests/c/match_test.c (MATCH expressions and query trees), then the
# fuzz harnesses' checks (fuzz_query against its reference, fuzz_index, fuzz_wire, fuzz_match)
# replayed over their committed seeds and a fixed sequence of generated
# inputs; built by gcc with ASan and UBSan against the host's objects (codec/, index/, query/,
# net/), so that no clang or PHP is needed.
set -eu
cd "$(dirname "$0")/../.."
out=tests/c/out
flags="-std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -Wall -Wextra"
# shellcheck disable=SC2086
sh scripts/host-objects.sh $out/obj gcc $flags
gcc $flags -o $out/engine_test tests/c/engine_test.c $out/obj/*.o -lz -lm -lpthread
gcc $flags -o $out/block_test tests/c/block_test.c $out/obj/*.o -lz -lm -lpthread
gcc $flags -o $out/wire_test tests/c/wire_test.c $out/obj/*.o -lz -lm -lpthread
gcc $flags -o $out/match_test tests/c/match_test.c $out/obj/*.o -lz -lm -lpthread
for f in query index wire match; do
	gcc $flags -o $out/replay_$f tests/c/replay.c fuzz/fuzz_$f.c $out/obj/*.o -lz -lm -lpthread
done
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# each test program's own status (a check, a sanitizer) fails the stage, not only its output
for t in engine_test block_test wire_test match_test; do
	status=0
	"$out/$t" > "$out/$t.txt" 2>&1 || status=$?
	sed "s/^/engine tests: $t: /" "$out/$t.txt"
	[ "$status" = 0 ] || { echo "engine tests: $t FAILED (status $status)"; exit 1; }
done
for f in query index wire match; do
	# the replay's own failure (a check, a sanitizer) fails the stage
	result=$("$out/replay_$f" fuzz/seeds/$f "${REPLAY_INPUTS:-20000}") || { echo "engine tests: fuzz_$f replay FAILED"; exit 1; }
	echo "engine tests: fuzz_$f replayed: $result"
done
