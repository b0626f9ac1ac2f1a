#!/bin/sh
# Runs every fuzz target for SECONDS each (default 60), starting from the committed seeds
# (fuzz/seeds/<format>) and a working corpus in fuzz/out/corpus/<format>. Exits non-zero on any
# finding (crash, sanitizer report, failed check); prints the executions of each target and
# appends them to fuzz/out/executions.log.
set -eu
cd "$(dirname "$0")/.."
secs=${1:-60}
sh fuzz/build.sh >/dev/null
status=0
for f in mod9 s9 qs wah vbyte gvarint index; do
	mkdir -p fuzz/out/corpus/$f
	log=fuzz/out/fuzz_$f.log
	if ./fuzz/out/fuzz_$f -max_total_time="$secs" -print_final_stats=1 -rss_limit_mb=2048 \
		-artifact_prefix=fuzz/out/crash-$f- fuzz/out/corpus/$f fuzz/seeds/$f >"$log" 2>&1; then
		result=ok
	else
		result=FINDING
		status=1
		tail -30 "$log"
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	echo "fuzz_$f: $result, ${execs:-0} executions in ${secs}s"
	echo "$(date -u +%F) fuzz_$f $result ${execs:-0} ${secs}s" >> fuzz/out/executions.log
done
exit $status
