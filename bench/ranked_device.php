<?php
/* Ranked OR on the device with and without its pruning: the first N AND-log queries of a
 * gen_corpus query log as OR top 10 in batches of B, one process a way (GPUPOST_INDEX_NO_PRUNE=1
 * is read when the device opens), the answers' doc sums compared. Not a test.
 *
 *   php -d extension=modules/gpupost.so bench/ranked_device.php INDEX.gpix QUERIES [N] [B]
 *
 * The two runs load the extension from modules/gpupost.so (GPUPOST_SO: another path). */
[, $file, $qfile] = $argv + [null, null, null];
if ($qfile === null) {
    fwrite(STDERR, "usage: php bench/ranked_device.php INDEX.gpix QUERIES [N] [B]\n");
    exit(2);
}
$n = (int)($argv[3] ?? 10000);
$b = (int)($argv[4] ?? 10000);
if (getenv('GPUPOST_RANKED_CHILD') === false) {
    $so = getenv('GPUPOST_SO') ?: dirname(__DIR__) . '/modules/gpupost.so';
    $php = escapeshellarg(PHP_BINARY) . ' -n -d memory_limit=-1 -d gpupost.min_device_values=0 -d gpupost.max_result_bytes='
         . escapeshellarg((string)ini_get('gpupost.max_result_bytes')) . ' -d extension=' . escapeshellarg($so);
    foreach (['pruned' => '', 'unpruned' => 'GPUPOST_INDEX_NO_PRUNE=1 '] as $way => $env) {
        echo "$way: ", trim((string)shell_exec("GPUPOST_RANKED_CHILD=1 $env$php " . implode(' ', array_map('escapeshellarg', [__FILE__, $file, $qfile, $n, $b])))), "\n";
    }
    exit(0);
}
$ix = GpuPost\Index::open($file, ['device' => gpu_info()['device']['type'] ?? 'host']);
$q = [];
foreach (file($qfile, FILE_IGNORE_NEW_LINES) as $l) {
    $w = explode(' ', $l);
    if (array_shift($w) === 'and') $q[] = $w;
}
$q = array_slice($q, 0, $n);
$o = ['op' => GPUPOST_OR, 'limit' => 10];
$ix->searchBatch(array_slice($q, 0, 10), $o);
$sum = 0;
$t = hrtime(true);
foreach (array_chunk($q, $b) as $c) {
    foreach ($ix->searchBatch($c, $o) as $r) $sum += array_sum(array_keys($r));
}
$s = (hrtime(true) - $t) / 1e9;
printf("OR top 10, %d queries in batches of %d: %.0f queries/s (%.1f ms a batch) on %s, doc sum %d\n", count($q), $b, count($q) / $s,
    1e3 * $s / ceil(count($q) / $b), $ix->info()['last_backend'], $sum);
