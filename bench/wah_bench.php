<?php
/* Benchmark (not a test): WAH decompression throughput (groups/s) and AND/OR query time over
 * 2..1024 bins of --rows rows (default 16M), host path against device path. Bins are made like a
 * bitmap index's: each row sets one bin of --bins (so OR over all bins is every row), in runs.
 *
 *   php -d extension=modules/gpupost.so bench/wah_bench.php [--rows=16777216] [--reps=3] [--max-bins=1024]
 */
$opts = getopt('', ['rows:', 'reps:', 'max-bins:']);
$nbits = (int)($opts['rows'] ?? 16777216);
$reps = (int)($opts['reps'] ?? 3);
$maxBins = (int)($opts['max-bins'] ?? 1024);
$info = gpu_info();
printf("# gpupost WAH benchmark, %s; device: %s\n", date('Y-m-d'),
    $info['device'] ? "{$info['device']['name']} ({$info['platform']['name']})" : 'none');
printf("# %d rows per bitmap, 64-bit words, best of %d\n", $nbits, $reps);

function best(int $reps, callable $fn): float
{
    $b = INF;
    for ($i = 0; $i < $reps; $i++) {
        $t = hrtime(true);
        $x = $fn();
        $b = min($b, (hrtime(true) - $t) / 1e9);
        unset($x);
    }
    return $b;
}

function on(string $path, callable $fn)
{
    ini_set('gpupost.min_device_values', $path === 'device' ? '0' : (string)PHP_INT_MAX);
    return $fn();
}

/* Bin assignment: row r belongs to bin f(r) in runs of 1..64 rows (a skewed, clustered column). */
mt_srand(5);
$bins = [];
$assign = [];
$r = 0;
while ($r < $nbits) {
    $run = mt_rand(1, 64);
    $b = min($maxBins - 1, (int)floor($maxBins * (mt_rand() / mt_getrandmax()) ** 2));
    for ($k = $r; $k < min($nbits, $r + $run); $k++) {
        $assign[$b][] = $k;
    }
    $r += $run;
}
for ($b = 0; $b < $maxBins; $b++) {
    $bins[$b] = gpu_encode_postings($assign[$b] ?? [], GPUPOST_WAH, GPUPOST_VALUES, ['word_bits' => 64, 'nbits' => $nbits]);
}
unset($assign);
$groups = intdiv($nbits + 62, 63);
printf("# index: %d bins, %.1f MB compressed (%.1f MB uncompressed)\n", $maxBins,
    array_sum(array_map('strlen', $bins)) / 1e6, $maxBins * $nbits / 8e6);

$dense = $bins[0];
printf("\ndecompression of bin 0 (%d words): ", (strlen($dense) - 16) / 8);
$paths = $info['backend'] === 'opencl' ? ['host', 'device'] : ['host'];
foreach ($paths as $p) {
    $t = best($reps, fn() => on($p, fn() => gpu_wah_decompress($dense)));
    printf("%s %.2f G groups/s (%.1f ms)  ", $p, $groups / $t / 1e9, $t * 1e3);
}
echo "\n\n";
printf("%6s %4s %12s %12s %10s %10s\n", 'bins', 'op', 'host ms', 'device ms', 'speedup', 'rows');
for ($n = 2; $n <= $maxBins; $n *= 2) {
    $q = array_slice($bins, 0, $n);
    foreach ([GPUPOST_OR => 'OR', GPUPOST_AND => 'AND'] as $op => $name) {
        $th = best($reps, fn() => on('host', fn() => gpu_wah_query($q, $op)));
        $rows = count(on('host', fn() => gpu_wah_query($q, $op)));
        $td = count($paths) > 1 ? best($reps, fn() => on('device', fn() => gpu_wah_query($q, $op))) : NAN;
        printf("%6d %4s %12.1f %12s %10s %10d\n", $n, $name, $th * 1e3, is_nan($td) ? '-' : sprintf('%.1f', $td * 1e3),
            is_nan($td) ? '-' : sprintf('%.2fx', $th / $td), $rows);
    }
}
