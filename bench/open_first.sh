#!/usr/bin/env bash
# open() and the first query against index size (issue 36): for each corpus size (bench/gen_corpus,
# 100 tokens a doc, a vocabulary as large as the docs), gpupost's file in version 2 (mapped) and
# version 1 (read and decoded), SQLite FTS5's database and Xapian's, each opened by a fresh
# process that asks one AND query (run r: the log's r-th), its files in the page cache (warm:
# read once before) or not (cold: dropped with dd's nocache). The medians of RUNS processes and
# every engine's matches compared. A table on stdout and in OUT/open-first.txt. Not a test.
#   bash bench/open_first.sh [OUT]
# CORPUS_DIR: where the corpora are made (default OUT; each removed after its rows). SIZES: the
# docs of each corpus (default "50000 200000 1000000"); TEXT_MAX: the largest corpus
# FTS5 and Xapian are built for (default 1000000); V1_MAX: the largest for version 1 (default
# 5000000: its open() reads the whole file); RUNS (default 5). FTS5 needs php-sqlite3,
# Xapian libxapian-dev and g++ (installed by bench/index.sh; rows without them are left out).
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v php > /dev/null || source .gpu/env.sh
set -euo pipefail
out=${1:-bench-out}
mkdir -p "$out"
srcs=$(grep -E '^(codec|index|query)/.*\.c$' sources.list)
# shellcheck disable=SC2086
if command -v cc > /dev/null; then
	cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -o bench/gen_corpus bench/gen_corpus.c $srcs -lz -lm -lpthread
fi   # else (the GPU machine) the one carried there
xapian=""
if [ -f /usr/include/xapian.h ] && command -v g++ > /dev/null; then
	g++ -O2 -o bench/xapian_open bench/xapian_open.cc -lxapian && xapian=bench/xapian_open
fi
sqlite=""
php -n -d extension=sqlite3 -r 'exit(class_exists("SQLite3") ? 0 : 1);' > /dev/null 2>&1 && sqlite="-d extension=sqlite3"
php="php -n -d memory_limit=-1 -d gpupost.max_result_bytes=64G -d gpupost.max_resident_bytes=64G $sqlite -d extension=$PWD/modules/gpupost.so"
runs=${RUNS:-5}
text_max=${TEXT_MAX:-1000000}

drop() {   # the files' pages out of the page cache
	find "$@" -type f -exec dd of={} oflag=nocache conv=notrunc,fdatasync count=0 status=none \;
}
warm() {
	find "$@" -type f -exec cat {} + > /dev/null
}
median() {   # of the numbers on stdin
	sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}
# row ENGINE SIZE_MB PATH COMMAND...: RUNS processes warm, RUNS cold; the command gets the terms
row() {
	local engine=$1 mb=$2 path=$3
	shift 3
	local r line w_open=() w_first=() c_open=() c_first=() matches=""
	for mode in warm cold; do
		for ((r = 1; r <= runs; r++)); do
			if [ $mode = warm ]; then warm "$path"; else drop "$path"; fi
			# shellcheck disable=SC2046
			line=$("$@" $(sed -n "${r}p" "$queries")) || line="failed failed failed"
			read -r o f m <<< "$line"
			if [ $mode = warm ]; then w_open+=("$o"); w_first+=("$f"); else c_open+=("$o"); c_first+=("$f"); fi
			matches+="$m,"
		done
	done
	printf "%9s %-22s %9s | %9s %9s | %9s %9s | %s\n" "$docs" "$engine" "$mb" \
		"$(printf '%s\n' "${w_open[@]}" | median)" "$(printf '%s\n' "${w_first[@]}" | median)" \
		"$(printf '%s\n' "${c_open[@]}" | median)" "$(printf '%s\n' "${c_first[@]}" | median)" "${matches%,}" | tee -a "$out/open-first.txt"
}

{
	echo "# open() and first query, $(date -u +%Y-%m-%d), $(nproc) cores, $(uname -m); medians of $runs fresh processes (ms)"
	printf "%9s %-22s %9s | %9s %9s | %9s %9s | %s\n" docs engine file_MB open_warm first_warm open_cold first_cold "matches (warm runs, then cold)"
} | tee "$out/open-first.txt"
for docs in ${SIZES:-50000 200000 1000000}; do
	dir="${CORPUS_DIR:-$out}/open-first-$docs"
	mkdir -p "$dir"
	text=""
	if [ "$docs" -le "$text_max" ] && { [ -n "$sqlite" ] || [ -n "$xapian" ]; }; then text="$dir/text.txt"; fi
	./bench/gen_corpus "$docs" 100 "$docs" "$dir/v2.gpix" "$dir/queries.txt" $text 2> /dev/null
	v1=""
	if [ "$docs" -le "${V1_MAX:-5000000}" ]; then
		v1="$dir/v1.gpix"
		GEN_FILE_VERSION=1 ./bench/gen_corpus "$docs" 100 "$docs" "$v1" "$dir/queries-v1.txt" 2> /dev/null
	fi
	queries="$dir/and.txt"
	awk -v n="$runs" '/^and / { print substr($0, 5); if (++c == n) exit }' "$dir/queries.txt" > "$queries"
	mb() { du -sm "$1" | cut -f1; }
	row "gpupost version 2" "$(mb "$dir/v2.gpix")" "$dir/v2.gpix" $php bench/open_first.php gpupost "$dir/v2.gpix"
	[ -z "$v1" ] || row "gpupost version 1" "$(mb "$v1")" "$v1" $php bench/open_first.php gpupost "$v1"
	if [ -n "$text" ] && [ -n "$sqlite" ]; then
		$php bench/open_first.php fts5-build "$text" "$dir/fts5.db"
		row "SQLite FTS5" "$(mb "$dir/fts5.db")" "$dir/fts5.db" $php bench/open_first.php fts5 "$dir/fts5.db"
	fi
	if [ -n "$text" ] && [ -n "$xapian" ]; then
		$xapian build "$text" "$dir/xapian.db"
		row "Xapian" "$(mb "$dir/xapian.db")" "$dir/xapian.db" $xapian first "$dir/xapian.db"
	fi
	rm -rf "$dir"
done
