#!/usr/bin/env bash
# PNG plots of a bench/run.sh output folder (gnuplot from Debian: apt-get install gnuplot-nox).
#   bash bench/plot.sh OUT [TITLE]      writes OUT/device.png, OUT/decode.png, OUT/wah.png
set -euo pipefail
out=$1
title=${2:-$(grep -m1 -o "device: .*" "$out/device.txt" | sed 's/^device: //; s/;.*//')}
gnuplot <<GP
set terminal pngcairo size 900,560 font ",11"
set key left top
set grid
set logscale x 2
set xtics ("1M" 1048576, "4M" 4194304, "16M" 16777216, "64M" 67108864, "256M" 268435456)
set xrange [800000:350000000]

set output "$out/device.png"
set title "Device-resident decode: bytes moved / copy kernel's bandwidth\n$title"
set xlabel "values per list"
set ylabel "fraction of the copy kernel"
set yrange [0:1]
plot for [f in "MOD9 MOD9d MOD9p S9 QS WAHb"] "< awk '\$2 == \"".f."\"' $out/device.dat" using 1:7 with linespoints lw 2 title f, \
     0.6 with lines dt 2 lc rgb "gray" title "0.6 (MOD9, S9)", 0.5 with lines dt 3 lc rgb "gray" title "0.5 (QS, WAH)"

set output "$out/decode.png"
set title "MOD9 into a PHP array, end to end\n$title"
set ylabel "M values/s"
set yrange [0:*]
set logscale x 10
set xtics auto
set xrange [*:*]
set format x "10^{%L}"
plot "$out/decode.dat" using 1:2 with linespoints lw 2 title "range()", \
     "" using 1:3 with linespoints lw 2 title "host path", \
     "" using 1:4 with linespoints lw 2 title "device path", \
     "" using 1:5 with linespoints lw 2 dt 2 title "default dispatch"

set output "$out/wah.png"
set title "WAH queries over n bins, set rows into a PHP array\n$title"
set xlabel "bins"
set ylabel "ms"
set logscale x 2
set logscale y
set format x "%g"
set yrange [*:*]
plot "< awk '\$2 == \"OR\"' $out/wah.dat" using 1:3 with linespoints lw 2 title "OR, host", \
     "" using 1:4 with linespoints lw 2 title "OR, device", \
     "< awk '\$2 == \"AND\"' $out/wah.dat" using 1:3 with linespoints lw 2 title "AND, host", \
     "" using 1:4 with linespoints lw 2 title "AND, device"
GP
echo "plots: $out/device.png $out/decode.png $out/wah.png"
