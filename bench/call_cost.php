<?php
/* What one small call costs (issue 23), beside the hardware's floor measured in the same run by
 * bench/call_floor: the median time of gpu_decode_postings for lists of 1 to 1,000 values, per
 * format and mode, on the device (gpupost.min_device_values=0) and on the host path, from PHP
 * call to PHP array. Not a test.
 *   php bench/call_cost.php FLOOR_US [REPS]      (bash bench/call_overhead.sh runs both) */
$floor = (float)($argv[1] ?? 0);
$reps = (int)($argv[2] ?? 2000);
mt_srand(23);
function median(array $v): float { sort($v); return $v[intdiv(count($v), 2)]; }
function time_calls(string $blob, int $format, int $mode, int $reps): float
{
    $lat = [];
    for ($r = -20; $r < $reps; $r++) {
        $t = hrtime(true);
        gpu_decode_postings($blob, $format, $mode);
        if ($r >= 0) $lat[] = (hrtime(true) - $t) / 1e3;
    }
    return median($lat);
}
$info = gpu_info();
printf("# %s; floor (bench/call_floor: write + empty kernel + read) %.1f us; medians of %d calls\n",
    $info['device'] ? $info['device']['name'] : 'no device', $floor, $reps);
printf("%-14s %6s %10s %10s %8s\n", 'format/mode', 'values', 'device us', 'host us', 'x floor');
foreach ([1, 10, 100, 1000] as $n) {
    $docs = [];
    for ($d = 0, $i = 0; $i < max(1, intdiv($n, 4)); $i++) $docs[$d += mt_rand(1, 50)] = [1, 2, 3];
    $list = [];
    for ($v = 0, $i = 0; $i < $n; $i++) $list[] = $v += mt_rand(1, 100);
    $cases = [
        ['MOD9 VALUES', gpu_encode_postings(array_map(fn($x) => 1 + $x % 1000, $list)), GPUPOST_MOD9, GPUPOST_VALUES],
        ['MOD9 DOCS', gpu_encode_postings($docs, GPUPOST_MOD9, GPUPOST_POSTINGS), GPUPOST_MOD9, GPUPOST_DOCS],
        ['MOD9 POSTINGS', gpu_encode_postings($docs, GPUPOST_MOD9, GPUPOST_POSTINGS), GPUPOST_MOD9, GPUPOST_POSTINGS],
        ['S9', gpu_encode_postings($list, GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1]), GPUPOST_S9, GPUPOST_VALUES],
        ['QS', gpu_encode_postings($list, GPUPOST_QS), GPUPOST_QS, GPUPOST_VALUES],
    ];
    foreach ($cases as [$name, $blob, $format, $mode]) {
        ini_set('gpupost.min_device_values', '0');
        $dev = time_calls($blob, $format, $mode, $reps);
        $ran = gpu_info()['last_backend'];
        ini_set('gpupost.min_device_values', (string)PHP_INT_MAX);
        $host = time_calls($blob, $format, $mode, $reps);
        printf("%-14s %6d %10.1f %10.1f %8s%s\n", $name, $n, $dev, $host, $floor > 0 ? sprintf('%.1f', $dev / $floor) : '-',
            $ran === 'opencl' ? '' : " (device call ran on $ran)");
    }
}
