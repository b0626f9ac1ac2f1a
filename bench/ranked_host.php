<?php
/* The host path's ranked queries alone: the first N AND-log queries of a gen_corpus query log as
 * AND and OR top 10, one search() a call (what bench/index_bench.php's "host C, one a call" rows
 * do, without the other rows: for comparing host builds, e.g. MaxScore against the exhaustive
 * merge). Not a test.
 *
 *   php -d extension=modules/gpupost.so bench/ranked_host.php INDEX.gpix QUERIES [N]
 */
[, $file, $qfile] = $argv + [null, null, null];
if ($qfile === null) {
    fwrite(STDERR, "usage: php bench/ranked_host.php INDEX.gpix QUERIES [N]\n");
    exit(2);
}
$ix = GpuPost\Index::open($file, ['device' => 'host']);
$q = [];
foreach (file($qfile, FILE_IGNORE_NEW_LINES) as $l) {
    $w = explode(' ', $l);
    if (array_shift($w) === 'and') $q[] = $w;
}
$q = array_slice($q, 0, (int)($argv[3] ?? 2000));
foreach ([GPUPOST_AND => 'AND top 10', GPUPOST_OR => 'OR top 10'] as $op => $name) {
    $t = hrtime(true);
    $sum = 0;
    foreach ($q as $terms) $sum += array_sum(array_keys($ix->search($terms, ['op' => $op, 'limit' => 10])));
    printf("%s: %d queries, %.0f queries/s (doc sum %d)\n", $name, count($q), count($q) / ((hrtime(true) - $t) / 1e9), $sum);
}
