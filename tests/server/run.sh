#!/bin/sh
# gpupostd's tests (tests/server/server_test.c) against a corpus of bench/gen_corpus: the server
# built with ASan and UBSan answering on its host threads, again with ThreadSanitizer (its loops,
# host threads and engine thread), then a release build batching every
# query for PoCL's CPU device (where an OpenCL CPU device is installed; the GPU machine runs the
# same with DEVICE=gpu). Needs a configured tree (scripts/setup.sh): the server is built by
# `make gpupostd`.
set -eu
cd "$(dirname "$0")/../.."
out=$PWD/tests/server/out
rm -rf "$out"
mkdir -p "$out/work"
[ -f Makefile ] || bash scripts/setup.sh
asan="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined"
make -s gpupostd GPUPOSTD_OUT="$out/gpupostd-asan" GPUPOSTD_CFLAGS="$asan"
make -s gpupostd GPUPOSTD_OUT="$out/gpupostd-tsan" GPUPOSTD_CFLAGS="-O1 -g -fsanitize=thread"
make -s gpupostd GPUPOSTD_OUT="$out/gpupostd" GPUPOSTD_CFLAGS="-O2 -g"
engine=$(grep -E '^(codec|index|query|net)/.*\.c$' sources.list)
# shellcheck disable=SC2086
gcc -std=c11 -D_GNU_SOURCE -O1 -g -Wall -Wextra -pthread -o "$out/server_test" tests/server/server_test.c $engine -lz -lm -lpthread
# shellcheck disable=SC2086
gcc -std=c11 -D_GNU_SOURCE -O2 -o "$out/gen_corpus" bench/gen_corpus.c $(grep -E '^(codec|index|query)/.*\.c$' sources.list) -lz -lm -lpthread
"$out/gen_corpus" 20000 50 5000 "$out/work/ix.gpix" "$out/work/q.txt" > /dev/null
# the configuration refused where it must be, naming why (and accepted where it is whole)
conf() {   # EXPECTED-STATUS TEXT-EXPECTED FILE-CONTENT
	printf '%b' "$3" > "$out/work/test.conf"
	status=0
	msg=$("$out/gpupostd" --config "$out/work/test.conf" --check 2>&1) || status=$?
	case "$status:$msg" in
	"$1":*"$2"*) ;;
	*) echo "gpupostd tests: configuration: expected status $1 and \"$2\", got $status: $msg"; exit 1 ;;
	esac
}
conf 0 "valid" "allow_dir /tmp\nsocket /tmp/x.sock # a comment\nmax_payload=1M\r\n"
conf 2 "no allow_dir" "socket /tmp/x.sock\n"
conf 2 "line 2: unknown setting allow_dirs" "allow_dir /tmp\nallow_dirs /\n"
conf 2 "max_payload: 1K is not a number within its range" "allow_dir /tmp\nmax_payload 1K\n"
conf 2 "line 1: longer than 4095 bytes" "# $(head -c 5000 /dev/zero | tr '\0' x) allow_dir /\n"
conf 2 "socket_mode: 0999 is not an octal mode" "allow_dir /tmp\nsocket_mode 0999\n"
conf 2 "no user no-such-user-here" "allow_dir /tmp\nallow_users no-such-user-here\n"
status=0; "$out/gpupostd" --config "$out/work" --check > /dev/null 2>&1 || status=$?
[ "$status" = 2 ] || { echo "gpupostd tests: configuration: a directory as the file accepted"; exit 1; }
status=0; "$out/gpupostd" --socket "$out/work/none.sock" --stats > /dev/null 2>&1 || status=$?
[ "$status" = 1 ] || { echo "gpupostd tests: --stats without a server: status $status"; exit 1; }
echo "gpupostd tests: configuration files: refused naming the line and rule, --stats without a server: ok"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 TSAN_OPTIONS=halt_on_error=1
check() {   # NAME SERVER PLACEMENT DEVICE
	status=0
	timeout 600 "$out/server_test" "$2" "$out/work" "$3" "$4" > "$out/$1.txt" 2>&1 || status=$?
	grep -vE '^[0-9-]+ [0-9:]+ gpupostd: ' "$out/$1.txt" | sed "s/^/gpupostd tests: $1: /"
	# a sanitizer's report from the server (its stderr is the test's)
	if grep -qE 'ERROR: AddressSanitizer|runtime error|WARNING: ThreadSanitizer' "$out/$1.txt"; then status=1; fi
	[ "$status" = 0 ] || { echo "gpupostd tests: $1 FAILED (status $status)"; exit 1; }
}
check "host threads, ASan" "$out/gpupostd-asan" host auto
check "loops and threads, TSan" "$out/gpupostd-tsan" host auto
if [ "${DEVICE:-cpu}" = gpu ] || php -n -d extension_dir="$PWD/modules" -d extension=gpupost.so -d gpupost.device=cpu -r 'exit(gpu_info()["backend"] === "opencl" ? 0 : 1);' 2>/dev/null; then
	check "device batches (${DEVICE:-cpu})" "$out/gpupostd" device "${DEVICE:-cpu}"
else
	echo "gpupostd tests: no OpenCL device: the device batches not run"
fi
