#!/usr/bin/env bash
# The phpt suite through gpupostd: a server started (batching for PoCL's CPU device where there is
# one, else answering on its host threads) with every directory allowed, the suite run with
# gpupost.server naming it (each opened index's device-bound queries answered by the server,
# compared by the tests with their references), then the server's statistics: it must have
# answered queries, and stop cleanly on SIGTERM. Needs a built tree (scripts/test.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
make -s gpupostd
sock=$(mktemp -u /tmp/gpupost-suite-XXXXXX.sock)
php="php -n -d extension_dir=$PWD/modules -d extension=gpupost.so"
if $php -d gpupost.device=cpu -r 'exit(gpu_info()["backend"] === "opencl" ? 0 : 1);' 2>/dev/null; then
	where="placement=device --set device=cpu --set host_max_work=0"
else
	where="placement=host"
fi
# shellcheck disable=SC2086
server/gpupostd --foreground --set socket="$sock" --set allow_dir=/ --set $where > /tmp/gpupost-suite-server.log 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
NO_INTERACTION=1 php -n run-tests.php -q -n -d extension_dir="$PWD/modules" -d extension=gpupost.so \
	-d gpupost.server="unix:$sock" --set-timeout 300 -j"$(nproc)" tests/ | tee /tmp/gpupost-suite.log | grep -E "^(FAIL|Tests )"
stats=$(server/gpupostd --socket "$sock" --stats)
queries=$(echo "$stats" | sed -n 's/^queries //p')
echo "server suite: the server answered $queries queries ($where), $(echo "$stats" | sed -n 's/^device_batches //p') device batches"
kill -TERM $pid
wait $pid
trap - EXIT
[ "${queries:-0}" -gt 0 ] || { echo "server suite: the server answered nothing"; exit 1; }
! grep -q "^Tests failed *: *[1-9]" /tmp/gpupost-suite.log
