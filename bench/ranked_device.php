<?php
/* Ranked OR on the device with and without its pruning: the first N AND-log queries of a
 * gen_corpus query log as OR top 10 in batches of B (a list: B1,B2,...: a line each), one
 * process a way: every batch pruned (GPUPOST_INDEX_PRUNE_MIN=1), none (GPUPOST_INDEX_NO_PRUNE=1;
 * both read when the device opens) and the default (batches pruned from the device type's
 * threshold of postings); the answers' doc sums compared. Not a test.
 *
 *   php -d extension=modules/gpupost.so bench/ranked_device.php INDEX.gpix QUERIES [N] [B[,B...]]
 *
 * The two runs load the extension from modules/gpupost.so (GPUPOST_SO: another path). */
[, $file, $qfile] = $argv + [null, null, null];
if ($qfile === null) {
    fwrite(STDERR, "usage: php bench/ranked_device.php INDEX.gpix QUERIES [N] [B]\n");
    exit(2);
}
$n = (int)($argv[3] ?? 10000);
$bs = array_map('intval', explode(',', $argv[4] ?? '10000'));
if (getenv('GPUPOST_RANKED_CHILD') === false) {
    $so = getenv('GPUPOST_SO') ?: dirname(__DIR__) . '/modules/gpupost.so';
    $php = escapeshellarg(PHP_BINARY) . ' -n -d memory_limit=-1 -d gpupost.min_device_values=0 -d gpupost.max_result_bytes='
         . escapeshellarg((string)ini_get('gpupost.max_result_bytes')) . ' -d extension=' . escapeshellarg($so);
    foreach (['pruned' => 'GPUPOST_INDEX_PRUNE_MIN=1 ', 'unpruned' => 'GPUPOST_INDEX_NO_PRUNE=1 ', 'default' => ''] as $way => $env) {
        echo "$way: ", trim((string)shell_exec("GPUPOST_RANKED_CHILD=1 $env$php " . implode(' ', array_map('escapeshellarg', [__FILE__, $file, $qfile, $n, implode(',', $bs)])))), "\n";
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
$lists = 0;   /* the candidates of the queries unpruned: the sum of their lists' lengths */
foreach ($q as $terms) foreach ($terms as $t) $lists += $ix->count([$t]);
printf("%.0f postings in a query's lists on average", $lists / max(1, count($q)));
foreach ($bs as $b) {
    $sum = 0;
    $t = hrtime(true);
    foreach (array_chunk($q, $b) as $c) {
        foreach ($ix->searchBatch($c, $o) as $r) $sum += array_sum(array_keys($r));
    }
    $s = (hrtime(true) - $t) / 1e9;
    printf("\n  OR top 10, %d queries in batches of %d: %.0f queries/s (%.3f ms a batch) on %s, doc sum %d", count($q), $b,
        count($q) / $s, 1e3 * $s / ceil(count($q) / $b), $ix->info()['last_backend'], $sum);
}
