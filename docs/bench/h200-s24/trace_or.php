<?php
// the steps of one small ranked OR batch on the device (GPUPOST_TRACE=1), and with GPUPOST_PROFILE=2 the kernels
[, $file, $qfile] = $argv;
$ix = GpuPost\Index::open($file, ['device' => gpu_info()['device']['type'] ?? 'host']);
$q = [];
foreach (file($qfile, FILE_IGNORE_NEW_LINES) as $l) { $w = explode(' ', $l); if (array_shift($w) === 'and') $q[] = $w; }
$o = ['op' => GPUPOST_OR, 'limit' => 10];
$ix->searchBatch(array_slice($q, 0, 10), $o);
foreach ([1, 1, 1, 16, 64] as $i => $b) {
    $c = array_slice($q, 100 + 100 * $i, $b);
    $t = hrtime(true);
    $ix->searchBatch($c, $o);
    $ms = (hrtime(true) - $t) / 1e6;
    $len = 0; // not known from PHP: terms only
    printf("batch of %d: %.3f ms (%s)\n", $b, $ms, implode(' ', array_map(fn($x) => implode(',', $x), array_slice($c, 0, 2))));
    $tr = gpu_info()['trace'] ?? [];
    $prev = 0;
    foreach ($tr as $s) { $at = $s[1] ?? ($s['us'] ?? 0); printf("   %-32s %9.1f us (+%.1f)\n", $s[0] ?? ($s['step'] ?? '?'), $at, $at - $prev); $prev = $at; }
}
