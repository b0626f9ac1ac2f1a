<?php
/* Benchmark (not a test): a batch of --lists MOD9 lists of 100 to 10,000 values decoded by one
 * gpu_decode_postings_batch call against as many gpu_decode_postings calls, on the host path
 * and on the device. Best of --reps.
 *
 *   php -d extension=modules/gpupost.so bench/batch_bench.php [--lists=10000] [--reps=3]
 */
$opts = getopt('', ['lists:', 'reps:']);
$n = (int)($opts['lists'] ?? 10000);
$reps = (int)($opts['reps'] ?? 3);
$info = gpu_info();
printf("# gpupost batch benchmark, %s; device: %s\n", date('Y-m-d'),
    $info['device'] ? "{$info['device']['name']} ({$info['platform']['name']})" : 'none');
mt_srand(9);
$blobs = [];
$values = 0;
for ($i = 0; $i < $n; $i++) {
    $len = (int)round(100 * 100 ** (mt_rand() / mt_getrandmax())); /* 100..10000, log-uniform */
    $l = [];
    for ($k = 0; $k < $len; $k++) $l[] = mt_rand(1, 255);
    $blobs[] = gpu_encode_postings($l);
    $values += $len;
}
printf("# %d lists, %d values (%.1f MB of MOD9), best of %d\n", $n, $values,
    array_sum(array_map('strlen', $blobs)) / 1e6, $reps);
function best(int $reps, callable $fn): float
{
    $b = INF;
    for ($i = 0; $i < $reps; $i++) {
        $t = hrtime(true);
        $r = $fn();
        $b = min($b, (hrtime(true) - $t) / 1e9);
        unset($r);
    }
    return $b;
}
printf("%-7s %12s %14s %10s\n", 'path', 'batch ms', 'singles ms', 'speedup');
foreach (['host' => PHP_INT_MAX, 'device' => 0] as $path => $t) {
    if ($path === 'device' && $info['backend'] !== 'opencl') continue;
    ini_set('gpupost.min_device_values', (string)$t);
    $tb = best($reps, fn() => gpu_decode_postings_batch($blobs));
    $ts = best($reps, function () use ($blobs) {
        $out = [];   /* kept, as a caller keeps them: the batch holds them all too */
        foreach ($blobs as $k => $b) $out[$k] = gpu_decode_postings($b);
        return $out;
    });
    printf("%-7s %12.1f %14.1f %9.1fx\n", $path, $tb * 1e3, $ts * 1e3, $ts / $tb);
}
