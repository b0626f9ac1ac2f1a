#!/usr/bin/env bash
# The index benchmark in one command (issue 16): GpuPost\Index against PHP, SQLite FTS5 and
# Xapian on (a) the demo corpus and (b) a synthetic corpus of Zipf-distributed terms from
# bench/gen_corpus, tables on stdout and in OUT/index-*.txt, a PNG plot per corpus. Not a test.
#   bash bench/index.sh [OUT]
# SYN: "DOCS TOKENS_PER_DOC VOCABULARY" of the synthetic corpus (default "200000 100 200000");
# SYN_TEXT=0 skips its text (then no FTS5 or Xapian rows: for corpora too large to index twice).
# SECONDS bounds each one-query-a-call row (default 10). Installs Debian's libxapian-dev, g++,
# php-sqlite3 and gnuplot-nox when missing (on the GPU machine, which has no package registry,
# the gpupost rows run alone).
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v php > /dev/null || source .gpu/env.sh
set -euo pipefail
out=${1:-bench-out}
mkdir -p "$out"
if command -v apt-get > /dev/null && [ -d /var/lib/apt/lists ]; then
	need=()
	for pkg in libxapian-dev g++ php-sqlite3 gnuplot-nox; do
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
	done
	if [ ${#need[@]} -gt 0 ]; then
		sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
		$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" > /dev/null || true
	fi
fi
srcs=$(grep -E '^(codec|index|query)/.*\.c$' sources.list)
# shellcheck disable=SC2086
cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -o bench/gen_corpus bench/gen_corpus.c $srcs -lz -lm
if [ -f /usr/include/xapian.h ]; then
	g++ -O2 -o bench/xapian_bench bench/xapian_bench.cc -lxapian
fi
sqlite=""
php -n -d extension=sqlite3 -r 'exit(class_exists("SQLite3") ? 0 : 1);' 2> /dev/null && sqlite="-d extension=sqlite3"
php="php -n -d memory_limit=-1 -d gpupost.max_result_bytes=64G -d gpupost.min_device_values=0 $sqlite -d extension=$PWD/modules/gpupost.so"
secs=${SECONDS_PER_ROW:-10}

$php bench/index_bench.php demo "$out" "$secs" | tee "$out/index-demo.txt"

read -r docs per vocab <<< "${SYN:-200000 100 200000}"
text=""
[ "${SYN_TEXT:-1}" = 1 ] && text="$out/synthetic-text.txt"
./bench/gen_corpus "$docs" "$per" "$vocab" "$out/synthetic.gpix" "$out/synthetic-queries.txt" $text
$php bench/index_bench.php "$out/synthetic.gpix" "$out/synthetic-queries.txt" "$out" "$secs" $text | tee "$out/index-synthetic.txt"
rm -f "$out/synthetic-text.txt" "$out/demo-text.txt"

if command -v gnuplot > /dev/null; then
	for c in demo synthetic; do
		gnuplot <<GP
set terminal pngcairo size 1000,560 font ",10" noenhanced
set output "$out/index-$c.png"
set title "GpuPost\\\\Index, $c corpus: queries/s (log scale)\n$(sed 's/^# //; s/;.*device:/, device:/' "$out/index-$c.head")"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8
set logscale y
set ylabel "queries/s"
set xtics rotate by -25 scale 0
set key top right
plot "< awk '\$0 !~ /^#/' $out/index-$c.dat | grep -F ' and '" using 3:xtic(1) title "AND 2-4 terms", \
     "< awk '\$0 !~ /^#/' $out/index-$c.dat | grep -F ' phrase '" using 3 title "phrase 2-3 terms"
GP
	done
	echo "plots: $out/index-demo.png $out/index-synthetic.png"
fi
