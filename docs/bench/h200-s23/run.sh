set -uo pipefail
source .gpu/env.sh
date -u
B=$PWD/.gpujob/bin
[ -f /tmp/syn2m.gpix ] || $B/gen_corpus 2000000 100 1000000 /tmp/syn2m.gpix /tmp/q2m.txt > $OUT/gen.txt 2>&1
$B/gpupostd --foreground --set socket=/tmp/b.sock --set allow_dir=/tmp --set device=gpu --set host_threads=16 > $OUT/bench-server.log 2>&1 &
sleep 1
t0=$(date +%s.%N)
$B/server_load /tmp/b.sock /tmp/syn2m.gpix /tmp/q2m.txt or10 1 1 server   # opens it (the device copy made)
echo "open and first queries: $(echo "$(date +%s.%N) - $t0" | bc) s"
cat $OUT/bench-server.log
for kind in or10 and10 and; do
  for n in 1 16 64 128; do
    for mode in server worker auto; do
      [ "$mode" = auto ] && [ "$kind" = or10 ] && continue
      timeout 60 $B/server_load /tmp/b.sock /tmp/syn2m.gpix /tmp/q2m.txt $kind $n 4 $mode 2>&1 | tee -a $OUT/load.txt
    done
  done
done
$B/gpupostd --socket /tmp/b.sock --stats | tee $OUT/bench-stats.txt
ps -o rss=,vsz= -p $(pgrep gpupostd) | tee -a $OUT/bench-stats.txt
nvidia-smi --query-gpu=memory.used --format=csv | tee -a $OUT/bench-stats.txt
pkill gpupostd
date -u
