<?php
/* What one small call costs (issue 23), beside the hardware's floor measured in the same run by
 * bench/call_floor: the median time of gpu_decode_postings for lists of 1 to 1,000 values, per
 * format and mode, on the device (gpupost.min_device_values=0) and on the host path, from PHP
 * call to PHP array. With `breakdown` (and GPUPOST_TRACE=1 in the environment) instead: each
 * step of one device call of N values (arguments, plan, staging, each enqueue, each wait, the
 * arrays), the median time it took, per format and mode. Not a test.
 *   php bench/call_cost.php FLOOR_US [REPS]            (bash bench/call_overhead.sh runs both)
 *   GPUPOST_TRACE=1 php bench/call_cost.php breakdown [REPS] [N] */
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
/** @return list<array{string, string, int, int}> [name, blob, format, mode] for a list of about $n values */
function cases(int $n): array
{
    $docs = [];
    for ($d = 0, $i = 0; $i < max(1, intdiv($n, 4)); $i++) $docs[$d += mt_rand(1, 50)] = [1, 2, 3];
    $list = [];
    for ($v = 0, $i = 0; $i < $n; $i++) $list[] = $v += mt_rand(1, 100);
    $postings = gpu_encode_postings($docs, GPUPOST_MOD9, GPUPOST_POSTINGS);
    return [
        ['MOD9 VALUES', gpu_encode_postings(array_map(fn($x) => 1 + $x % 1000, $list)), GPUPOST_MOD9, GPUPOST_VALUES],
        ['MOD9 DOCS', $postings, GPUPOST_MOD9, GPUPOST_DOCS],
        ['MOD9 POSTINGS', $postings, GPUPOST_MOD9, GPUPOST_POSTINGS],
        ['S9', gpu_encode_postings($list, GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1]), GPUPOST_S9, GPUPOST_VALUES],
        ['QS', gpu_encode_postings($list, GPUPOST_QS), GPUPOST_QS, GPUPOST_VALUES],
    ];
}
$info = gpu_info();
$device = $info['device'] ? $info['device']['name'] : 'no device';

if (($argv[1] ?? '') === 'breakdown') {
    $reps = (int)($argv[2] ?? 1000);
    $n = (int)($argv[3] ?? 100);
    if (!isset($info['trace'])) exit("breakdown: run with GPUPOST_TRACE=1 in the environment\n");
    ini_set('gpupost.min_device_values', '0');
    printf("# %s: the steps of one device call of about %d values, median microseconds of %d calls\n", $device, $n, $reps);
    foreach (cases($n) as [$name, $blob, $format, $mode]) {
        $steps = $took = [];
        for ($r = -20; $r < $reps; $r++) {
            gpu_decode_postings($blob, $format, $mode);
            $trace = gpu_info()['trace'];
            if ($r < 0) continue;
            foreach ($trace as $i => [$step, $us]) {
                $steps[$i] = $step;
                $took[$i][] = $i ? $us - $trace[$i - 1][1] : 0.0;
            }
        }
        printf("%s (%s):\n", $name, gpu_info()['last_backend']);
        $sum = 0.0;
        foreach ($steps as $i => $step) {
            if ($i === 0) continue;
            $m = median($took[$i]);
            $sum += $m;
            printf("  %-34s %7.1f  %7.1f\n", $step, $m, $sum);
        }
    }
    exit;
}

$floor = (float)($argv[1] ?? 0);
$reps = (int)($argv[2] ?? 2000);
printf("# %s; floor (bench/call_floor: write + empty kernel + read) %.1f us; medians of %d calls\n", $device, $floor, $reps);
printf("%-14s %6s %10s %10s %8s\n", 'format/mode', 'values', 'device us', 'host us', 'x floor');
foreach ([1, 10, 100, 1000] as $n) {
    foreach (cases($n) as [$name, $blob, $format, $mode]) {
        ini_set('gpupost.min_device_values', '0');
        $dev = time_calls($blob, $format, $mode, $reps);
        $ran = gpu_info()['last_backend'];
        ini_set('gpupost.min_device_values', (string)PHP_INT_MAX);
        $host = time_calls($blob, $format, $mode, $reps);
        printf("%-14s %6d %10.1f %10.1f %8s%s\n", $name, $n, $dev, $host, $floor > 0 ? sprintf('%.1f', $dev / $floor) : '-',
            $ran === 'opencl' ? '' : " (device call ran on $ran)");
    }
}
