#!/bin/sh
# Runs every fuzz target for SECONDS each (default 60), starting from the committed seeds
# (fuzz/seeds/<format>) and a working corpus in fuzz/out/corpus/<format>, as many targets at
# once as there are cores (each target is one process). Exits non-zero on any finding (crash,
# sanitizer report, failed check); prints the executions of each target and appends them to
# fuzz/out/executions.log.
set -eu
cd "$(dirname "$0")/.."
secs=${1:-60}
sh fuzz/build.sh >/dev/null
targets="mod9 s9 qs wah vbyte gvarint index query wire match"
run_one() {
	f=$1
	mkdir -p fuzz/out/corpus/$f
	log=fuzz/out/fuzz_$f.log
	if ./fuzz/out/fuzz_$f -max_total_time="$secs" -print_final_stats=1 -rss_limit_mb=2048 -timeout=10 \
		-artifact_prefix=fuzz/out/crash-$f- fuzz/out/corpus/$f fuzz/seeds/$f >"$log" 2>&1; then
		echo ok > fuzz/out/result_$f
	else
		echo FINDING > fuzz/out/result_$f
	fi
}
jobs=$(nproc 2>/dev/null || echo 1)
running=0
for f in $targets; do
	rm -f fuzz/out/result_$f
	run_one "$f" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait
status=0
for f in $targets; do
	result=$(cat fuzz/out/result_$f 2>/dev/null || echo FINDING)
	log=fuzz/out/fuzz_$f.log
	if [ "$result" != ok ]; then
		status=1
		tail -30 "$log"
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	echo "fuzz_$f: $result, ${execs:-0} executions in ${secs}s"
	echo "$(date -u +%F) fuzz_$f $result ${execs:-0} ${secs}s" >> fuzz/out/executions.log
done
exit $status
